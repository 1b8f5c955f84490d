"""Beyond the point estimate: uncertainty bands, sensitivity (tornado) and break-even.

- **Uncertainty** (:func:`monte_carlo`): every profile value that comes as a
  range (the article gives ranges; the published set has spreads, stored as
  ``<key>_range`` in ``assets/profiles``) is drawn independently per sample —
  uniformly, or log-uniformly when the range spans more than a decade (loss
  rates) — and the whole sweep is re-evaluated for all samples at once: one
  numpy pass over (fabric × point × sample). Each sample keeps the parallel plan
  chosen at the nominal values (a cluster is planned once, then lives with its
  network), so the band shows the network's spread, not re-planning noise.
  Seeded: the same seed gives the same bands, so an export is reproducible.
  A value the scenario sets itself (a preset's article figure, the user's
  edit) keeps the profile's *relative* spread around it — a fixed value is
  no more certain than the profile's — so every fabric is banded; a value
  the profile gives no range, or that the x-axis sweeps, is not sampled, and
  :attr:`Bands.unbanded` says which fabrics therefore have no band and why.
- **Sensitivity** (:func:`tornado`): each ranged input swung to its low and
  high end, one at a time, at the current point; the change in training days
  and TCO, largest first.
- **Break-even** (:func:`break_even`): where two fabrics tie on a metric along
  a sweep, by sign changes of their difference and linear interpolation
  (logarithmic in x when the sweep spans more than a decade).

References
----------
1. A. Saltelli et al., "Global Sensitivity Analysis: The Primer", Wiley 2008,
   §1.2 (one-at-a-time swings and tornado diagrams).
2. M. G. Morgan, M. Henrion, "Uncertainty", Cambridge University Press 1990,
   ch. 8 (Monte-Carlo propagation of input ranges).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import catalog
from .arrays import cut_constant_points
from .engine import PLAN_ARRAY_KEYS, Inputs, build_inputs, evaluate, evaluate_inputs, sweep
from .errors import ScenarioError
from .results import METRICS

SAMPLED_KEYS = ("latency_us", "loss_rate", "link_gbps", "achievable_fraction", "cpu_use_at_line_rate",
                "network_cost_per_node_cny")
FRACTION_KEYS = ("achievable_fraction", "cpu_use_at_line_rate")
BAND_METRICS = ("mfu", "train_days_with_interruptions", "tco", "cost_per_run")
PERCENTILES = (10.0, 50.0, 90.0)

# Site-level inputs swung in the tornado, with their published ranges.
SITE_RANGES = {
    "economics.electricity_usd_per_kwh": (0.0575, 0.3528, "US state range of industrial prices (EIA, 2023)"),
    "economics.pue": (1.1, 1.59, "hyperscale 1.1-1.2 to industry average 1.55-1.59 (Uptime Institute)"),
}


@dataclass(frozen=True)
class RangedValue:
    fabric: str
    key: str
    low: float
    high: float
    source: str
    fixed: bool = False  # the scenario sets this value: the profile's relative spread around it

    @property
    def log_scale(self) -> bool:
        return self.low > 0 and self.high / self.low > 10.0

    @property
    def label(self) -> str:
        return f"{self.fabric} {self.key}"


def _scenario_value(scenario, fabric: str, key: str, spec):
    """The scenario's own value of a sampled key, in the key's units (CPU: use at line rate), or None."""
    if key == "cpu_use_at_line_rate":
        per_core = getattr(spec, "cpu_gbps_per_core", None)
        if per_core is None or not per_core > 0:
            return None
        prof = catalog.profile_set(scenario.fabric.profile_set)
        link = prof["fabrics"].get(fabric, {}).get("link_gbps", 100.0)
        return link / (per_core * prof.get("cpu_ref_host_cores", 64))  # the inverse of _cpu_gbps_per_core
    return getattr(spec, key, None)


def ranged_values(scenario) -> list[RangedValue]:
    """Profile values with a range for the compared fabrics.

    A value the scenario sets itself gets the profile's range scaled to it (the same relative
    spread: ``low · v / nominal`` to ``high · v / nominal``), marked ``fixed``.
    """
    prof = catalog.profile_set(scenario.fabric.profile_set)
    custom = scenario.fabric.custom_dict()
    out = []
    for name in scenario.fabric.fabrics:
        spec = custom.get(name)
        base = prof["fabrics"].get(name)
        if base is None:
            if spec is None or spec.transport is None:
                continue
            base = catalog.transport_profile(scenario.fabric.profile_set, spec.transport)
        for key in SAMPLED_KEYS:
            rng = base.get(f"{key}_range")
            if rng is None:
                continue
            user_key = "cpu_gbps_per_core" if key == "cpu_use_at_line_rate" else key
            if spec is not None and getattr(spec, user_key, None) is not None:
                mine, nominal = _scenario_value(scenario, name, key, spec), base.get(key)
                if mine is None or not nominal or not mine > 0:
                    continue  # no spread to scale (a zero loss rate, a profile without a nominal value)
                k = float(mine) / float(nominal)
                # a line rate is a hardware fact (no faster than set); fractions stay fractions
                cap = float(mine) if key == "link_gbps" else 1.0 if key in FRACTION_KEYS else np.inf
                out.append(RangedValue(name, key, min(float(rng[0]) * k, cap), min(float(rng[1]) * k, cap),
                                       f"this scenario's value {float(mine):.4g}, with the {prof['name']} profile's "
                                       f"relative spread ({float(rng[0]):.4g}–{float(rng[1]):.4g} around "
                                       f"{float(nominal):.4g})", fixed=True))
                continue
            out.append(RangedValue(name, key, float(rng[0]), float(rng[1]),
                                   f"{prof['name']} profile: {base.get('source', '')}"))
    return out


def unbanded_fabrics(scenario, ranged, swept=None) -> dict[str, str]:
    """Compared fabrics without any sampled input, with why: ``"swept"`` (the x-axis sets its only
    ranged value) or ``"no_range"`` (its profile gives no range for any sampled value)."""
    have = {rv.fabric for rv in ranged}
    out = {}
    for name in scenario.fabric.fabrics:
        if name in have:
            continue
        out[name] = "swept" if swept is not None and name in swept[0] else "no_range"
    return out


def _draw(rv: RangedValue, u):
    if rv.log_scale:
        return np.exp(np.log(rv.low) + u * (np.log(rv.high) - np.log(rv.low)))
    return rv.low + u * (rv.high - rv.low)


def _cpu_gbps_per_core(scenario, fabric: str, use):
    """The CPU mechanism input for a stated CPU use at line rate (as model.catalog derives it)."""
    prof = catalog.profile_set(scenario.fabric.profile_set)
    cores = prof.get("cpu_ref_host_cores", 64)
    link = prof["fabrics"].get(fabric, {}).get("link_gbps", 100.0)
    use = np.asarray(use, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(use > 0, link / (np.where(use > 0, use, 1.0) * cores), np.inf)


def _target_key(rv: RangedValue) -> str:
    return "cpu_gbps_per_core" if rv.key == "cpu_use_at_line_rate" else rv.key


def _set_fabric_value(scenario, fab: dict, index: int, rv: RangedValue, values):
    """Write sampled values (S,) of one ranged input into a fabric's row (points, samples) of the arrays."""
    if rv.key == "cpu_use_at_line_rate":
        values = _cpu_gbps_per_core(scenario, rv.fabric, values)
    fab[_target_key(rv)][index] = values


def _swept_fabric_key(scenario, field: str | None):
    """(fabrics, fabric-array key) that a sweep along ``field`` sets, or None for other fields."""
    if not field or not field.startswith("fabric."):
        return None
    parts = field.split(".")
    if len(parts) == 2:
        return set(scenario.fabric.fabrics), parts[1]
    if len(parts) == 3:
        return {parts[1]}, parts[2]
    return None


def _plan_arrays(result) -> dict:
    p = result.plan
    return {k: np.asarray(getattr(p, k), dtype=float) for k in PLAN_ARRAY_KEYS + ("dp",)}  # dp: fewer replicas kept


def percentiles_of_sorted(rows, q):
    """``np.percentile(rows, q, axis=-1)`` for rows already sorted along the last axis (shape (len(q), ...)).

    numpy's default (linear) method, step for step: the virtual index ``(n − 1)·q/100`` lies between two
    order statistics ``a ≤ b`` at fraction ``g``; the value is ``a + (b − a)·g`` below ``g = 0.5`` and
    ``b − (b − a)·(1 − g)`` from there (numpy's ``_lerp``), NaN for a row holding a NaN (sorted last).
    Reading the order statistics off sorted rows replaces numpy's partition; a test checks the numbers
    are the same bit for bit. Raises ValueError for a percentile outside [0, 100] or rows without samples.
    """
    rows = np.asarray(rows)
    q = np.atleast_1d(np.asarray(q, dtype=float))
    bad = q[~((q >= 0.0) & (q <= 100.0))]  # NaN is outside too
    if bad.size:
        raise ValueError(f"q={bad.tolist()}: each percentile must be in [0, 100]")
    n = rows.shape[-1] if rows.ndim else 0
    if n == 0:
        raise ValueError(f"rows of shape {rows.shape} hold no samples: a percentile needs at least one value per row")
    virtual = (n - 1) * (q / 100.0)
    below = np.floor(virtual)
    lo = below.astype(np.intp)
    hi = np.minimum(lo + 1, n - 1)
    a = np.moveaxis(rows[..., lo], -1, 0)
    b = np.moveaxis(rows[..., hi], -1, 0)
    g = (virtual - below).reshape((-1,) + (1,) * (rows.ndim - 1))
    diff = b - a
    out = np.where(g >= 0.5, b - diff * (1.0 - g), a + diff * g)
    out[:, np.isnan(rows[..., -1])] = np.nan
    return out


@dataclass(frozen=True)
class Bands:
    """P10/P50/P90 per metric, arrays (F, N); the nominal sweep alongside."""
    nominal: object
    samples: int
    seed: int
    inputs: tuple
    percentiles: dict
    unbanded: dict = None  # fabric -> why it has no band ("swept", "no_range"); see unbanded_fabrics

    def band(self, metric: str, p: float):
        return self.percentiles[metric][p]


def monte_carlo(scenario, field: str | None, values=None, *, samples: int = 1000, seed: int = 0,
                metrics=BAND_METRICS) -> Bands:
    """Percentile bands of ``metrics`` over a sweep (or at the point when ``field`` is None)."""
    if not 2 <= samples <= 100_000:
        raise ScenarioError("samples", samples, "a whole number from 2 to 100000")
    nominal = sweep(scenario, field, values) if field else evaluate(scenario, require_feasible=False)
    inp = build_inputs(scenario, field, values) if field else build_inputs(scenario)
    names = [r.name for r in inp.fabrics]
    n = inp.n
    ranged = ranged_values(scenario)
    swept = _swept_fabric_key(scenario, field)
    if swept is not None:  # the x-axis sets this value: sampling it would overwrite the sweep
        ranged = [rv for rv in ranged if not (rv.fabric in swept[0] and _target_key(rv) == swept[1])]
    rng = np.random.default_rng(seed)
    # axes (fabric, point, sample), samples last: each percentile then sorts contiguous rows. Inputs keep
    # length 1 on the axes along which they do not vary, so that only what the samples and the sweep
    # really change is computed over the whole (F, N, S) cube
    pt = {k: cut_constant_points(x, 0)[:, None] for k, x in inp.point.items()}
    fab = {k: cut_constant_points(x, 1)[:, :, None] for k, x in inp.fabric.items()}
    for key in {_target_key(rv) for rv in ranged}:
        fab[key] = np.broadcast_to(fab[key], fab[key].shape[:2] + (samples,)).copy()
    for rv in ranged:
        _set_fabric_value(scenario, fab, names.index(rv.fabric), rv, _draw(rv, rng.random(samples)))
    plan = {k: cut_constant_points(v.reshape(len(names), -1), 1)[:, :, None]
            for k, v in _plan_arrays(nominal).items()}
    out = evaluate_inputs(scenario, Inputs(n=n, point=pt, fabric=fab, fabrics=inp.fabrics), plan=plan,
                           lean=True)
    pct = {}
    for m in metrics:
        if out.metric(m) is None:
            continue
        arr = np.asarray(out.metric(m), dtype=float)
        # an output that no sampled input (or no point) reaches keeps length 1 on that axis
        arr = np.broadcast_to(arr, np.broadcast_shapes(arr.shape, (len(names), n, 1)))
        # infeasible points are NaN in every sample, so plain percentiles (NaN there) are right.
        # Sorting every row (SIMD sort) is several times faster than numpy's partition at six ranks
        q = percentiles_of_sorted(np.sort(arr, axis=-1), PERCENTILES)
        pct[m] = {p: (q[i] if field else q[i][..., 0]) for i, p in enumerate(PERCENTILES)}
    return Bands(nominal, samples, seed, tuple(ranged), pct, unbanded_fabrics(scenario, ranged, swept))


@dataclass(frozen=True)
class Swing:
    label: str
    field: str
    low_value: float
    high_value: float
    source: str
    days_low: float
    days_high: float
    tco_low: float
    tco_high: float
    fixed: bool = False  # the scenario sets this input: swung across the profile's relative spread around it

    @property
    def days_span(self) -> float:
        return abs(self.days_high - self.days_low)

    @property
    def tco_span(self) -> float:
        return abs(self.tco_high - self.tco_low)


def tornado(scenario, fabric: str, *, metric: str = "train_days_with_interruptions") -> list[Swing]:
    """Swing each ranged input (the fabric's own, and site inputs) to both ends at the current point.

    Returns the swings sorted by their effect on ``metric`` (largest first).
    All 2·K cases are evaluated in one pass with the nominal plan.
    """
    base = evaluate(scenario)
    if fabric not in base.fabrics:
        raise ScenarioError("fabric", fabric, "one of " + ", ".join(base.fabrics))
    fi = base.fabric_index(fabric)
    cases = [rv for rv in ranged_values(scenario) if rv.fabric == fabric]
    site = list(SITE_RANGES.items())
    k = len(cases) + len(site)
    if k == 0:
        return []
    n = 2 * k
    inp = build_inputs(scenario)
    pt = {key: np.repeat(np.asarray(x), n) if np.ndim(x) == 1 else x for key, x in inp.point.items()}
    fab = {key: np.repeat(np.asarray(x), n, axis=1) for key, x in inp.fabric.items()}
    for j, rv in enumerate(cases):
        fab[_target_key(rv)][fi] = _swing_row(scenario, fab, rv, fi, j)
    rate = float(pt["cny_per_usd"][0]) if "cny_per_usd" in pt else 1.0
    for j, (path, (lo, hi, _)) in enumerate(site, start=len(cases)):
        key = path.split(".", 1)[1]
        if key not in pt:
            continue
        pt[key] = pt[key].copy()
        pt[key][2 * j], pt[key][2 * j + 1] = lo, hi
        if key == "electricity_usd_per_kwh" and "electricity_cny_per_kwh" in pt:
            cny = pt["electricity_cny_per_kwh"].copy()
            usd = pt["electricity_usd_per_kwh"]
            # a scenario priced in CNY per kWh keeps CNY elsewhere; the swung cases use the USD price
            base_usd = np.where(np.isfinite(usd), usd, cny / rate)
            pt["electricity_usd_per_kwh"] = base_usd
            pt["electricity_usd_per_kwh"][2 * j], pt["electricity_usd_per_kwh"][2 * j + 1] = lo, hi
            pt["electricity_cny_per_kwh"] = cny
    plan = {key: np.repeat(v.reshape(-1, 1), n, axis=1) for key, v in _plan_arrays(base).items()}
    out = evaluate_inputs(scenario, Inputs(n=n, point=pt, fabric=fab, fabrics=inp.fabrics), plan=plan)
    days = np.asarray(out.metric(metric) if metric in METRICS else out.throughput.train_days)[fi]
    tco = np.asarray(out.money.tco)[fi]
    swings = []
    for j, rv in enumerate(cases):
        swings.append(Swing(rv.label, f"fabric.{rv.fabric}.{rv.key}", rv.low, rv.high, rv.source,
                            days[2 * j], days[2 * j + 1], tco[2 * j], tco[2 * j + 1], rv.fixed))
    for j, (path, (lo, hi, src)) in enumerate(site, start=len(cases)):
        swings.append(Swing(path.split(".", 1)[1], path, lo, hi, src, days[2 * j], days[2 * j + 1], tco[2 * j],
                            tco[2 * j + 1]))
    return sorted(swings, key=lambda sw: -sw.days_span if metric.startswith("train_days") else -sw.tco_span)


def _swing_row(scenario, fab, rv, fi, j):
    """One fabric's row: nominal everywhere, this input's low and high in its two columns."""
    row = np.asarray(fab[_target_key(rv)][fi], dtype=float).copy()
    lo, hi = rv.low, rv.high
    if rv.key == "cpu_use_at_line_rate":
        lo, hi = _cpu_gbps_per_core(scenario, rv.fabric, [lo, hi])
    row[2 * j], row[2 * j + 1] = lo, hi
    return row


@dataclass(frozen=True)
class Crossing:
    x: float
    fabric_a: str
    fabric_b: str
    metric: str
    a_better_above: bool

    def sentence(self, x_label: str, x_unit: str = "") -> str:
        lower, higher = (self.fabric_b, self.fabric_a) if self.a_better_above else (self.fabric_a, self.fabric_b)
        unit = f" {x_unit}" if x_unit else ""
        return (f"{higher} beats {lower} on {self.metric} above {x_label} ≈ {self.x:,.3g}{unit}; "
                f"{lower} wins below")


def break_even(result, fabric_a: str, fabric_b: str, metric: str = "tco") -> list[Crossing]:
    """Where ``fabric_a`` and ``fabric_b`` tie on ``metric`` along a sweep (lower is better).

    For ``mfu`` (higher is better) the direction is flipped.
    """
    if result.x is None:
        raise ScenarioError("break-even", "a single point", "a sweep along an x-axis")
    for f in (fabric_a, fabric_b):
        if f not in result.fabrics:
            raise ScenarioError("fabric", f, "one of " + ", ".join(result.fabrics))
    if metric not in METRICS:
        raise ScenarioError("metric", metric, "a result metric such as tco, train_days, mfu")
    x = np.asarray(result.x, dtype=float)
    a = np.asarray(result.metric(metric)[result.fabric_index(fabric_a)], dtype=float)
    b = np.asarray(result.metric(metric)[result.fabric_index(fabric_b)], dtype=float)
    sign = -1.0 if metric in ("mfu", "hfu", "tokens_per_s", "model_tflops_per_gpu") else 1.0
    with np.errstate(invalid="ignore"):  # both infinite (no plan fits either): no crossing there, not a warning
        d = sign * (a - b)  # < 0: a better
    ok = np.isfinite(d[:-1]) & np.isfinite(d[1:])
    change = ok & (np.sign(d[:-1]) != np.sign(d[1:])) & (d[:-1] != 0)
    logx = bool(np.all(x > 0) and x.max() / x.min() > 10.0)
    xs = np.log(x) if logx else x
    out = []
    for i in np.flatnonzero(change):  # a handful of crossings, not a loop over points
        frac = d[i] / (d[i] - d[i + 1])
        xc = xs[i] + frac * (xs[i + 1] - xs[i])
        out.append(Crossing(float(np.exp(xc) if logx else xc), fabric_a, fabric_b, metric,
                            a_better_above=bool(d[i + 1] < 0)))
    return out


__all__ = ["RangedValue", "ranged_values", "monte_carlo", "percentiles_of_sorted", "Bands", "tornado", "Swing", "break_even", "Crossing",
           "SITE_RANGES"]
