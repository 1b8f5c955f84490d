"""NPV, payback and price per GPU-hour in the reader's words, without Qt: one line per fabric against the Cost
tab's baseline (:func:`gui.present.pack.financials`, ``numpy-financial``), money in the scenario's currency.

A fabric past the plausibility bound has no such line (its runs stall: no saving to discount); the baseline's
line is its price per GPU-hour alone.
"""

from __future__ import annotations

import math

from model.recommend import baseline_fabric

from gui.present.format import currency_symbol, fmt_money, fmt_number
from gui.present.pack import DISCOUNT_RATE, financials
from gui.present.plausibility import point_stalls
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


__all__ = ["TEXT", "financial_lines", "financials_note"]
