"""The Cost tab's figures without Qt: each fabric's cost per run and TCO against the baseline
(:func:`cost_comparison`), and NPV, payback and price per GPU-hour in the reader's words: one line per fabric
against the Cost tab's baseline (:func:`gui.present.pack.financials`, ``numpy-financial``), money in the scenario's currency.

A fabric past the plausibility bound has no such line (its runs stall: no saving to discount); the baseline's
line is its price per GPU-hour alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from model.recommend import baseline_fabric
from model.results import fabric_summaries

from gui.present.format import currency_symbol, fmt_money, fmt_number
from gui.present.pack import DISCOUNT_RATE, financials
from gui.present.plausibility import point_stalls, stall_text
from gui.present.series import fabric_styles
from gui.present.text import QT_TRANSLATE_NOOP, translate

TEXT = {
    "against": QT_TRANSLATE_NOOP("Financials", "{fabric} against {baseline}: NPV {npv} at {rate} % a year, {payback}; "
                                               "{gpu_hour} per GPU-hour"),
    "baseline": QT_TRANSLATE_NOOP("Financials", "{fabric}: {gpu_hour} per GPU-hour"),
    "years": QT_TRANSLATE_NOOP("Financials", "pays back in {years} years"),
    "months": QT_TRANSLATE_NOOP("Financials", "pays back in {months} months"),
    "at_once": QT_TRANSLATE_NOOP("Financials", "no extra capex to pay back"),
    "never": QT_TRANSLATE_NOOP("Financials", "never pays back (no yearly saving)"),
    "note": QT_TRANSLATE_NOOP("Financials", "NPV: the extra capex against the money saved each year at the "
                                            "baseline's output, discounted at {rate} % a year (a guess); price per "
                                            "GPU-hour: the TCO over the GPU-hours delivered in the years at the duty "
                                            "cycle."),
}


@dataclass(frozen=True)
class CostRow:
    """One fabric's cost figures at a point against the baseline (money in the point's currency)."""
    fabric: str  # the fabric's key
    label: str  # its short name
    colour: str  # its colour
    per_run: float  # cost per training run [currency]
    stall: str  # its "stalls — cause" text past the plausibility bound, else ''
    per_run_saving: float  # per run against the baseline [currency] (NaN where either side stalls)
    per_run_delta: float  # per run against the baseline [fraction] (NaN likewise)
    tco: float  # TCO over the years [currency]
    tco_diff: float  # TCO minus the baseline's [currency]
    tco_delta: float  # TCO against the baseline's [fraction]
    diff_parts: dict  # ``network``, ``servers``, ``opex``: money, summing to ``tco_diff``
    network_share: float  # network capex / TCO [fraction]


@dataclass(frozen=True)
class CostComparison:
    """Every fabric's :class:`CostRow` at a point against ``baseline`` (:func:`cost_comparison`)."""
    baseline: str  # the baseline fabric's key
    baseline_label: str  # its short name
    currency: str  # ISO code of the money
    years: float  # the ownership period [years]
    base_tco: float  # the baseline's TCO [currency]
    rows: tuple  # one :class:`CostRow` per fabric, in the point's order


def cost_comparison(point, baseline: str | None = None) -> CostComparison:
    """Per-fabric cost figures at ``point`` (an ``evaluate`` result) against ``baseline`` (``None``: the
    default, :func:`model.recommend.baseline_fabric`): what the Cost tab draws."""
    base = baseline_fabric(point, baseline)
    years = float(point.scenario.economics.years)
    styles = fabric_styles(point)
    summaries = fabric_summaries(point)

    def fig(i):
        f = summaries[i]
        return dict(per_run=f.cost_per_run, tco=f.tco, network=f.capex_network, servers=f.capex_servers,
                    opex=f.opex_per_year * years)

    b = fig(point.fabric_index(base))
    stalls = point_stalls(point)
    rows = []
    for i, (name, st) in enumerate(zip(point.fabrics, styles)):
        f = fig(i)
        parts = {k: f[k] - b[k] for k in ("network", "servers", "opex")}
        # against a baseline that stalls (or for a fabric that does) no per-run comparison is a forecast
        comparable = name not in stalls and base not in stalls
        rows.append(CostRow(fabric=name, label=st.get("short", name), colour=st["colour"], per_run=f["per_run"],
                            stall=stall_text(stalls[name], short=True) if name in stalls else "",
                            per_run_saving=b["per_run"] - f["per_run"] if comparable else float("nan"),
                            per_run_delta=f["per_run"] / b["per_run"] - 1.0 if comparable else float("nan"),
                            tco=f["tco"], tco_diff=f["tco"] - b["tco"],
                            tco_delta=f["tco"] / b["tco"] - 1.0, diff_parts=parts,
                            network_share=f["network"] / f["tco"]))
    return CostComparison(baseline=base, baseline_label=rows[point.fabric_index(base)].label,
                          currency=summaries[0].currency, years=years, base_tco=b["tco"], rows=tuple(rows))


def _t(key: str) -> str:
    return translate("Financials", TEXT[key])


def _payback(years: float) -> str:
    if years == 0:
        return _t("at_once")
    if not math.isfinite(years):
        return _t("never")
    if years < 1:
        return _t("months").format(months=fmt_number(years * 12, 1))
    return _t("years").format(years=fmt_number(years, 1))


def financial_lines(point, baseline: str | None = None, labels: dict | None = None) -> list[str]:
    """One line per fabric that runs (the baseline first): NPV and payback against ``baseline`` (default: the
    Cost tab's), and the price per GPU-hour."""
    base = baseline_fabric(point, baseline)
    stalls = point_stalls(point)
    labels = labels or {f: lab.split(" (")[0] for f, lab in zip(point.fabrics, point.labels)}
    rate = f"{DISCOUNT_RATE * 100:g}"
    lines = []
    for f in [base] + [f for f in point.fabrics if f != base]:
        if f in stalls:
            continue
        fin = financials(point, f, base)
        gpu_hour = currency_symbol(fin.currency) + fmt_number(fin.gpu_hour_price, 2)  # cents: prices of hours
        if f == base or base in stalls:
            lines.append(_t("baseline").format(fabric=labels[f], gpu_hour=gpu_hour))
        else:
            lines.append(_t("against").format(fabric=labels[f], baseline=labels[base],
                                              npv=fmt_money(fin.npv, fin.currency, signed=True), rate=rate,
                                              payback=_payback(fin.payback_years), gpu_hour=gpu_hour))
    return lines


def financials_note() -> str:
    return _t("note").format(rate=f"{DISCOUNT_RATE * 100:g}")


__all__ = ["TEXT", "CostComparison", "CostRow", "cost_comparison", "financial_lines", "financials_note"]
