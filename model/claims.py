"""The claims table: each figure the article states beside what the engine gives.

For every preset (``assets/claims.toml``) the engine evaluates the preset as it
is under the seed profile, and again under the published profile set with the
preset's article figures for the built-in fabrics dropped (latency, bandwidth,
CPU, interruption rate, network cost: those are the article's, not measured);
site facts (PUE, GPUs, model) stay. Money is shown in CNY, the article's
currency, at the scenario's exchange rate.

Metrics (``METRICS``) and how the engine's figure is read:

===================================  ====================================================================
``latency_us``                       the fabric's latency input
``bandwidth_gbps``                   line rate per node (NIC speed × NICs per node)
``cpu_pct``                          host cores the network keeps busy / host cores
``interruption_rate_pct``            network-caused interruptions per cluster-day (the seed reading)
``interruptions_observed``           expected interruptions, all causes, over the months the article observed
``days``                             training days with interruptions
``efficiency_gain_pct``              1 − days(chosen) / days(baseline)
``network_cost_per_node_cny``        network capex / nodes
``upfront_saving_vs_infiniband_pct`` 1 − network capex(chosen) / network capex(InfiniBand)
``tco_cny``                          TCO over the scenario's years
``tco_saving_cny``                   TCO(baseline) − TCO(chosen): the same cluster owned for the years
``tco_saving_same_work_cny``         cost of the chosen fabric's N years of work done on the baseline
                                     (cost per token × tokens) − TCO(chosen)
``tco_saving_pct``                   tco_saving_same_work / baseline cost of the same work
``electricity_saving_cny_per_year``  energy cost per run saved × runs the chosen fabric completes a year
``pue``                              the scenario's PUE
``interruptions_per_run``            expected interruptions in one run
``hours_lost``                       wall-clock hours lost to interruptions and checkpoints in one run
``hours_lost_cost_cny``              those hours' share of the run's cost
===================================  ====================================================================

References
----------
1. The source article, §1, §3, §4.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from . import catalog
from .economics import HOURS_PER_YEAR, point_inputs
from .presets import article_figures, load_preset, preset_path

METRICS = {
    "latency_us": ("Latency", "µs"),
    "bandwidth_gbps": ("Bandwidth per node", "Gb/s"),
    "cpu_pct": ("Host CPU use", "%"),
    "interruption_rate_pct": ("Network interruptions per day", "%"),
    "interruptions_observed": ("Interruptions over the observed months", ""),
    "days": ("Training days (with interruptions)", "days"),
    "efficiency_gain_pct": ("Training time saved vs the baseline", "%"),
    "network_cost_per_node_cny": ("Network cost per node", "CNY"),
    "upfront_saving_vs_infiniband_pct": ("Network capex below InfiniBand", "%"),
    "tco_cny": ("TCO", "CNY"),
    "tco_saving_cny": ("TCO saving vs the baseline (same cluster)", "CNY"),
    "tco_saving_same_work_cny": ("TCO saving vs the baseline (same work)", "CNY"),
    "tco_saving_pct": ("Cost per token below the baseline (same work)", "%"),
    "electricity_saving_cny_per_year": ("Electricity saving per year (same work)", "CNY"),
    "pue": ("PUE", ""),
    "interruptions_per_run": ("Interruptions in one run", ""),
    "hours_lost": ("Hours lost to interruptions in one run", "h"),
    "hours_lost_cost_cny": ("Cost of the hours lost (share of TCO)", "CNY"),
}
# How to read the engine's figure where it differs from the article's reading (shown as a tooltip).
METRIC_NOTES = {
    "cpu_pct": "engine: host cores the network keeps busy at the bandwidth the fabric reaches in training "
               "(after loss), over the host's cores; the article's figure is at line rate",
    "interruption_rate_pct": "network-caused interruptions per cluster-day (the seed set's reading of the "
                             "article's 'interruption rate'); GPU and host failures come on top",
    "interruptions_observed": "all causes, expected over the months the article says it ran without one",
    "hours_lost": "Daly's model: restart, checkpoint reload, recomputation and checkpoint writes; the article's "
                  "incident lost 48 h per interruption",
    "tco_cny": "engine TCO includes the GPU servers; the article's cannot",
    "tco_saving_cny": "the same cluster owned for the years: a faster fabric costs more to buy and to power",
    "tco_saving_same_work_cny": "the work the chosen fabric does in the years, bought at the baseline's cost per token",
    "electricity_saving_cny_per_year": "energy per run saved × runs the chosen fabric completes a year",
}
DAYS_PER_MONTH = 365.0 / 12.0


@dataclass(frozen=True)
class ClaimRow:
    metric: str
    label: str
    fabric: str        # the fabric the figure is about
    article: str       # the article's wording
    article_value: float
    seed: float        # the engine under the seed profile
    published: float   # the engine under the published profile set
    unit: str
    note: str = ""     # how the engine's figure is read, where it differs from the article's reading
    explanation: str = ""  # one line on a counterfactual ("same work") figure, with the seed numbers
    explained: tuple = ()  # the same as (code of EXPLANATIONS, ((name, value), ...)), for a view's own wording


COUNTERFACTUAL = ("tco_saving_same_work_cny", "tco_saving_pct", "electricity_saving_cny_per_year")


EXPLANATIONS = {
    "electricity": "(energy per run on {baseline} {energy_baseline} − on {fabric} {energy_fabric}) × the {runs} runs "
                   "{fabric} completes a year; {baseline} would need {slower} years for them, so this exceeds a "
                   "year's electricity bill ({bill})",
    "token_cost": "1 − cost per token on {fabric} / on {baseline}: {baseline} needs {slower}× the cluster-years for "
                  "the same tokens",
    "same_work": "{fabric}'s {years}-year output ({tokens_b} B tokens) bought at {baseline}'s cost per token "
                 "({bought}, {slower}× the cluster-years) − {fabric}'s TCO ({tco}): larger than a TCO because "
                 "{baseline} would need {slower}× as long",
}
"""The counterfactual figures' one-line explanations (English), by code; :func:`explanation_parts` gives the
code and its values, so a view can word them in its own language and money format."""
EXPLANATION_MONEY = ("energy_baseline", "energy_fabric", "bill", "bought", "tco")  # values in CNY


def explanation_parts(metric: str, res, fabric: str, baseline: str) -> tuple[str, dict] | None:
    """(code of :data:`EXPLANATIONS`, its values: fabric ids, numbers; money in CNY) for a counterfactual
    ("same work") figure, ``None`` for others.

    Such a figure prices the chosen fabric's output as if the baseline did it: the baseline
    needs ``days(baseline) / days(chosen)`` times the cluster-years for it, which is why the
    figure can exceed a whole TCO or a year's electricity bill.
    """
    if metric not in COUNTERFACTUAL:
        return None
    i, b = res.fabric_index(fabric), res.fabric_index(baseline)
    s = res.scenario
    d = res.reliability.train_days_with_interruptions
    slower = float(d[b] / d[i])
    tco, cpt = res.money.tco, res.money.cost_per_token
    base = dict(fabric=fabric, baseline=baseline, slower=slower)
    if metric == "electricity_saving_cny_per_year":
        e = res.money.energy_cost_per_run
        runs = s.economics.duty_cycle * HOURS_PER_YEAR / (d[i] * 24.0)
        return "electricity", dict(base, energy_baseline=float(e[b]), energy_fabric=float(e[i]), runs=float(runs),
                                   bill=float(res.money.opex_energy[i]))
    if metric == "tco_saving_pct":
        return "token_cost", base
    work = tco[i] / cpt[i]
    return "same_work", dict(base, years=float(s.economics.years), tokens_b=float(work / 1e9),
                             bought=float(cpt[b] * work), tco=float(tco[i]))


def _explained(metric: str, res, fabric: str, baseline: str) -> tuple:
    parts = explanation_parts(metric, res, fabric, baseline)
    return () if parts is None else (parts[0], tuple(parts[1].items()))


def explain(metric: str, res, fabric: str, baseline: str) -> str:
    """One line on what a counterfactual ("same work") figure compares, with its numbers ('' for others)."""
    parts = explanation_parts(metric, res, fabric, baseline)
    if parts is None:
        return ""
    code, v = parts
    text = {k: (f"{_fmt(x, 'CNY')} CNY" if k in EXPLANATION_MONEY else f"{x:g}" if k == "years"
                else f"{x:,.0f}" if k == "tokens_b" else f"{x:,.1f}" if isinstance(x, float) else x)
            for k, x in v.items()}
    return EXPLANATIONS[code].format(**text)


def published_variant(s):
    """The preset under the published set: article figures for built-in fabrics dropped, site facts and the
    cluster's wiring (NICs per node, link speed: :data:`model.presets.CLUSTER_KEYS`) kept, as the app's
    profile switch keeps them (:func:`model.presets.switch_profile_set`)."""
    from .catalog import BUILTIN_FABRICS
    from .presets import CLUSTER_KEYS, switch_profile_set

    custom = s.fabric.custom_dict()
    wiring = {f"fabric.custom.{name}.{key}": getattr(custom[name], key) for name in BUILTIN_FABRICS
              if name in custom for key in CLUSTER_KEYS if getattr(custom[name], key) is not None}
    bare = s
    for name in BUILTIN_FABRICS:
        bare = bare.without_fabric_override(name)
    return switch_profile_set(bare.replace_many(wiring) if wiring else bare, "published", {})


def _in_cny(s):
    return s.replace("economics.currency", "CNY")


def metric_value(metric: str, res, fabric: str, baseline: str, months: float = 12.0) -> float:
    """The engine's figure for one claim metric (see the module table)."""
    i = res.fabric_index(fabric)
    b = res.fabric_index(baseline)
    s = res.scenario
    row = res.fabric_rows[i]
    d = res.reliability.train_days_with_interruptions
    tco, cpt = res.money.tco, res.money.cost_per_token
    net = res.money.capex_network
    nodes = s.cluster.nodes
    if metric == "latency_us":
        return float(row.values["latency_us"])
    if metric == "bandwidth_gbps":
        return float(res.network.line_gbps[i])
    if metric == "cpu_pct":
        cores = float(s.cluster.host_cores or catalog.gpu(s.cluster.gpu)["host_cores"])
        return float(res.network.cpu_cores_busy[i] / cores * 100.0)
    if metric == "interruption_rate_pct":
        return float(res.reliability.network_interruptions_per_day[i] * 100.0)
    if metric == "interruptions_observed":
        return float(res.reliability.interruptions_per_day[i] * months * DAYS_PER_MONTH)
    if metric == "days":
        return float(d[i])
    if metric == "efficiency_gain_pct":
        return float((1.0 - d[i] / d[b]) * 100.0)
    if metric == "network_cost_per_node_cny":
        return float(net[i] / nodes)
    if metric == "upfront_saving_vs_infiniband_pct":
        return float((1.0 - net[i] / net[res.fabric_index("infiniband")]) * 100.0)
    if metric == "tco_cny":
        return float(tco[i])
    if metric == "tco_saving_cny":
        return float(tco[b] - tco[i])
    work_tokens = tco[i] / cpt[i]  # tokens the chosen fabric trains in the TCO's years
    if metric == "tco_saving_same_work_cny":
        return float(cpt[b] * work_tokens - tco[i])
    if metric == "tco_saving_pct":
        return float((1.0 - cpt[i] / cpt[b]) * 100.0)
    if metric == "electricity_saving_cny_per_year":
        e = res.money.energy_cost_per_run
        runs = s.economics.duty_cycle * HOURS_PER_YEAR / (d[i] * 24.0)
        return float((e[b] - e[i]) * runs)
    if metric == "interruptions_per_run":
        return float(res.reliability.interruptions[i])
    if metric == "hours_lost":
        return float(res.reliability.hours_lost[i])
    if metric == "hours_lost_cost_cny":
        return float(res.reliability.hours_lost[i] / (d[i] * 24.0) * res.money.cost_per_run[i])
    if metric == "pue":
        return float(point_inputs(s)["pue"])
    raise KeyError(metric)


def claims_table(name: str) -> list[ClaimRow]:
    """The claims table of one preset: article figure, engine under seed, engine under published."""
    from .engine import evaluate

    preset_path(name)  # a named error for an unknown preset
    fig = article_figures()[name]
    s = _in_cny(load_preset(name))
    res_seed = evaluate(s)
    res_pub = evaluate(_in_cny(published_variant(s)))
    months = float(fig.get("months_observed", 12.0))
    rows = []
    for c in fig["claims"]:
        which = c.get("fabric", "chosen")
        fabric = fig[which] if which in ("chosen", "baseline") else which
        label, unit = METRICS[c["metric"]]
        rows.append(ClaimRow(
            metric=c["metric"], label=label, fabric=fabric, article=c["article"], article_value=float(c["value"]),
            seed=metric_value(c["metric"], res_seed, fabric, fig["baseline"], months),
            published=metric_value(c["metric"], res_pub, fabric, fig["baseline"], months), unit=unit,
            note=METRIC_NOTES.get(c["metric"], ""), explanation=explain(c["metric"], res_seed, fabric, fig["baseline"]),
            explained=_explained(c["metric"], res_seed, fabric, fig["baseline"])))
    return rows


def _fmt(x: float, unit: str) -> str:
    if x is None or not np.isfinite(x):
        return "–"
    if unit == "CNY":
        return f"{x / 1e6:,.2f} M" if abs(x) >= 1e5 else f"{x:,.0f}"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:,.2f}" if abs(x) < 10 else f"{x:,.1f}"


def format_claims(name: str, rows: list[ClaimRow] | None = None) -> str:
    """The claims table as text (``fabric-whatif claims``)."""
    rows = claims_table(name) if rows is None else rows
    s = load_preset(name)
    fig = article_figures()[name]
    width = max([len(r.label) for r in rows] + [5]) + 2  # claim names whole: two rows never read the same
    head = f"{'claim':<{width}}{'fabric':<12}{'article':<40}{'seed':>12}{'published':>12}  unit"
    out = [f"{s.name} — article figure vs engine (chosen: {fig['chosen']}, baseline: {fig['baseline']})", "",
           head, "-" * len(head)]
    for r in rows:
        out.append(f"{r.label:<{width}}{r.fabric:<12}{r.article[:39]:<40}{_fmt(r.seed, r.unit):>12}"
                   f"{_fmt(r.published, r.unit):>12}  {r.unit}")
        if r.explanation:
            out.append(f"{'':<{width}}↳ {r.explanation}")
    return "\n".join(out)
