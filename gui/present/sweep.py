"""The sweep and the point the views draw, without Qt: which x values, one engine call, a cache.

:func:`sweep_values` chooses the sweep along an x-axis around the scenario's current values;
:class:`SweepCache` evaluates a scenario as a :class:`Snapshot` (the sweep and the current
point), keeping recent results so that moving back to a value, or any slider but the
x-axis's, does not re-run the engine for what did not change. The window's
:class:`gui.window.controller.Controller` owns one; the command line and the exports use one
without any Qt.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

import model
from model.fields import field_meta
from model.sections import SECTIONS, FabricSpec
from model.results.groups import map_groups

from gui.present.plausibility import split_causes
from gui.present.series import AXES

SWEEP_POINTS = 256
# Outer sweep limits per x-axis [engine units]: the sweep never leaves them (unless a current value does).
X_RANGES = {
    "cluster.nodes": (1.0, 4096.0),
    "workload.params_b": (0.1, 2000.0),
    "fabric.latency_us": (0.5, 1000.0),
    "fabric.loss_rate": (1e-7, 0.05),
    "fabric.link_gbps": (10.0, 3200.0),
}
X_FIELDS = tuple(X_RANGES)
# How far the sweep reaches either side of the current values [decades]: the point sits inside its
# curve (an 8-node lab is drawn from 1 to 1,000 nodes, not to 4,096 with its point at the left edge).
X_DECADES_AROUND = {
    "cluster.nodes": 1.0,
    "workload.params_b": 1.0,
    "fabric.latency_us": 1.0,
    "fabric.loss_rate": 2.0,
    "fabric.link_gbps": 1.0,
}


@dataclass(frozen=True)
class Snapshot:
    """What the views draw: the scenario, the sweep along the x-axis and the current point."""
    scenario: model.Scenario
    x_field: str
    sweep: model.Result
    point: model.Result
    current_x: np.ndarray  # per fabric, engine units
    compute_ms: float
    serial: int
    cached: bool = False  # sweep and point both came from the controller's cache


def current_x_values(scenario: model.Scenario, field: str) -> np.ndarray:
    """The current value of ``field`` for each compared fabric (engine units)."""
    if field.startswith("fabric."):
        key = field.split(".")[-1]
        rows = model.resolve_fabrics(scenario)
        return np.array([float(r.values[key]) for r in rows])
    n = len(scenario.fabric.fabrics)
    return np.full(n, float(scenario.get(field)))


def sweep_range(scenario: model.Scenario, field: str) -> tuple[float, float]:
    """The sweep's [lo, hi] for ``field``: :data:`X_DECADES_AROUND` decades either side of the current
    values, rounded outwards to powers of ten (so the grid stays put while a slider moves within a
    decade), inside the outer limits :data:`X_RANGES` and the field's own bounds."""
    limit_lo, limit_hi = X_RANGES[field]
    cur = current_x_values(scenario, field)
    cur = cur[np.isfinite(cur) & (cur > 0)]
    if not cur.size:
        return limit_lo, limit_hi
    reach = X_DECADES_AROUND.get(field, 1.0)
    lo = 10 ** math.floor(math.log10(cur.min()) - reach + 1e-9)
    hi = 10 ** math.ceil(math.log10(cur.max()) + reach - 1e-9)
    lo, hi = max(lo, min(limit_lo, cur.min())), min(hi, max(limit_hi, cur.max()))
    return lo, hi


def sweep_values(scenario: model.Scenario, field: str, n: int = SWEEP_POINTS, *, wide: bool = False) -> np.ndarray:
    """Log-spaced sweep points for ``field`` around the current values (:func:`sweep_range`); with
    ``wide``, over the outer limits :data:`X_RANGES` too (where no plan fits near the point, the
    chart shows where one starts to)."""
    lo, hi = sweep_range(scenario, field)
    if wide:
        lo, hi = min(lo, X_RANGES[field][0]), max(hi, X_RANGES[field][1])
    meta = field_meta(*_field_owner(field))
    if meta.get("hi") is not None:
        hi = min(hi, float(meta["hi"]))
    return _log_grid(float(lo), float(hi), n, bool(AXES[field].get("integer"))).copy()


@functools.lru_cache(maxsize=64)
def _log_grid(lo: float, hi: float, n: int, integer: bool) -> np.ndarray:
    """``n`` log-spaced values from ``lo`` to ``hi``, whole numbers without repeats where ``integer``; kept (a
    slider that moves within a decade asks for the same grid at every move: ``np.geomspace`` costs some tenths of a
    millisecond)."""
    vals = np.geomspace(lo, hi, n)
    if integer:
        vals = np.round(vals)  # sorted already: drop repeats (np.unique imports numpy.ma, ~35 ms at start-up)
        vals = vals[np.concatenate(([True], np.diff(vals) > 0))]
    vals.flags.writeable = False
    return vals


def _field_owner(field: str):
    if field.startswith("fabric."):
        return FabricSpec, field.split(".")[-1]
    section, key = field.split(".", 1)
    return SECTIONS[section], key


def _sweep_key(s: model.Scenario, field: str):
    """The scenario with the swept field neutralised: equal keys give equal sweeps."""
    if field.startswith("fabric."):
        key = field.split(".")[-1]
        custom = tuple((n, dataclasses.replace(spec, **{key: None})) for n, spec in s.fabric.custom)
        return dataclasses.replace(s, name="", description="", fabric=dataclasses.replace(s.fabric, custom=custom))
    section, key = field.split(".", 1)
    sec = dataclasses.replace(getattr(s, section), **{key: getattr(SECTIONS[section](), key)})
    return dataclasses.replace(s, name="", description="", **{section: sec})


def split_point(res: model.Result) -> tuple[model.Result, model.Result]:
    """Split a sweep whose last point is the current scenario into (sweep, point).

    The point has the shape :func:`model.evaluate` gives: every array (F,) (a test checks
    the two agree value for value)."""
    sweep = dataclasses.replace(res, x=res.x[:-1], **map_groups(res, lambda a: a[:, :-1]))
    point = point_of(res, -1)
    split_causes(res, ((sweep, slice(None, -1)), (point, -1)))  # every chart and the table read them
    return sweep, point


def point_of(res: model.Result, i: int) -> model.Result:
    """Point ``i`` of a sweep as the result :func:`model.evaluate` gives for the scenario at that value of the swept
    field: every point of a sweep is evaluated on its own inputs (a test checks the two agree value for value)."""
    return dataclasses.replace(res, field=None, x=None, **map_groups(res, lambda a: a[:, i]))


class SweepCache:
    """Evaluates scenarios as :class:`Snapshot` s, keeping the last ``size`` sweeps and points.

    ``hits`` and ``misses`` count :meth:`compute` calls whose sweep and point both came
    from the cache, and those that ran the engine."""

    def __init__(self, size: int = 64):
        self._cache: OrderedDict = OrderedDict()
        self._size = size
        self._serial = 0
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._cache)

    def clear(self) -> None:
        self._cache.clear()

    def _cached(self, key):
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
        return hit

    def _remember(self, key, value):
        self._cache[key] = value
        while len(self._cache) > self._size:
            self._cache.popitem(last=False)
        return value

    def _sweep_and_point(self, s: model.Scenario, field: str) -> tuple[model.Result, model.Result, bool]:
        """The sweep along ``field``, the current point, and whether both came from the cache.

        When both are new (any slider but the x-axis's), the current value is appended to
        the sweep as one more point (vectorised: next to free) instead of a second engine
        call, and split off as the point. Fabric fields keep separate calls: their current
        value differs per fabric, while a sweep sets one value for all."""
        values = sweep_values(s, field)
        skey = ("sweep", _sweep_key(s, field), field, values.tobytes())
        sw, pt, cached = self._sweep_and_point_on(s, field, values, skey)
        if not np.asarray(sw.plan.feasible).any():  # no plan fits near the point: show where one does
            wide = sweep_values(s, field, wide=True)
            if wide.size != values.size or not np.array_equal(wide, values):
                sw2, pt, cached2 = self._sweep_and_point_on(s, field, wide, skey + ("wide",))
                return sw2, pt, cached and cached2
        return sw, pt, cached

    def _sweep_and_point_on(self, s: model.Scenario, field: str, values: np.ndarray, skey) -> tuple:
        pkey = ("point", dataclasses.replace(s, name="", description=""))
        sw, pt = self._cached(skey), self._cached(pkey)
        if sw is not None and pt is not None:
            return sw, pt, True
        if sw is None and pt is None and not field.startswith("fabric."):
            sw, pt = split_point(model.sweep(s, field, np.append(values, float(s.get(field)))))
            return self._remember(skey, sw), self._remember(pkey, pt), False
        if sw is None:
            sw = self._remember(skey, model.sweep(s, field, values))
        if pt is None and not field.startswith("fabric."):  # the x-axis slider on a value the sweep holds: its point
            at = np.flatnonzero(sw.x == float(s.get(field)))
            if at.size:
                pt = self._remember(pkey, point_of(sw, int(at[0])))
        if pt is None:
            pt = self._remember(pkey, model.evaluate(s, require_feasible=False))
        return sw, pt, False

    def compute(self, s: model.Scenario, field: str = "cluster.nodes") -> Snapshot:
        """``s`` evaluated along ``field``: the sweep and the current point (from the cache where it can)."""
        if field not in X_FIELDS:
            raise model.ScenarioError("x-axis", field, "one of " + ", ".join(X_FIELDS))
        t0 = time.perf_counter()
        sw, pt, cached = self._sweep_and_point(s, field)
        model.engine.check_finishes(pt)  # the scenario itself must give numbers (a sweep may leave gaps)
        ms = (time.perf_counter() - t0) * 1e3
        self._serial += 1
        if cached:
            self.hits += 1
        else:
            self.misses += 1
        return Snapshot(s, field, sw, pt, current_x_values(s, field), ms, self._serial, cached=cached)



def compute_snapshot(scenario: model.Scenario, x_field: str = "cluster.nodes") -> Snapshot:
    """What the window would show for ``scenario`` along ``x_field`` (one evaluation, no cache kept)."""
    return SweepCache(size=4).compute(scenario, x_field)


__all__ = ["SWEEP_POINTS", "X_DECADES_AROUND", "X_FIELDS", "X_RANGES", "Snapshot", "SweepCache", "compute_snapshot",
           "current_x_values", "split_point", "sweep_range", "sweep_values"]
