"""The window's state: the current scenario, the x-axis, and the latest engine results.

Widgets never change the scenario themselves: they call :meth:`Controller.set_value`
(one field), :meth:`Controller.set_scenario` (a whole preset at once) or
:meth:`Controller.reset_fabric`. Every accepted change emits ``scenarioChanged``; the
recompute is coalesced with a zero-interval single-shot timer, so a burst of slider
events (a drag, a preset setting a dozen fields) computes only the latest scenario and
emits ``recomputed`` once. Invalid input emits ``errorOccurred`` with the engine's
message and leaves the current scenario as it was.

The controller is the hook for the file helpers: ``controller.scenario``,
``controller.scenarioChanged`` and :meth:`set_scenario` are all an autosave or an
Open/Save action needs.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from PySide6 import QtCore

import model
from model import ScenarioError

from .charts import AXES

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
    meta = model.scenario.field_meta(*_field_owner(field))
    if meta.get("hi") is not None:
        hi = min(hi, float(meta["hi"]))
    vals = np.geomspace(lo, hi, n)
    if AXES[field].get("integer"):
        vals = np.round(vals)  # sorted already: drop repeats (np.unique imports numpy.ma, ~35 ms at start-up)
        vals = vals[np.concatenate(([True], np.diff(vals) > 0))]
    return vals


def _field_owner(field: str):
    if field.startswith("fabric."):
        return model.scenario.FabricSpec, field.split(".")[-1]
    section, key = field.split(".", 1)
    return model.scenario.SECTIONS[section], key


def _sweep_key(s: model.Scenario, field: str):
    """The scenario with the swept field neutralised: equal keys give equal sweeps."""
    if field.startswith("fabric."):
        key = field.split(".")[-1]
        custom = tuple((n, dataclasses.replace(spec, **{key: None})) for n, spec in s.fabric.custom)
        return dataclasses.replace(s, name="", description="", fabric=dataclasses.replace(s.fabric, custom=custom))
    section, key = field.split(".", 1)
    sec = dataclasses.replace(getattr(s, section), **{key: getattr(model.scenario.SECTIONS[section](), key)})
    return dataclasses.replace(s, name="", description="", **{section: sec})


def split_point(res: model.Result) -> tuple[model.Result, model.Result]:
    """Split a sweep whose last point is the current scenario into (sweep, point).

    The point has the shape :func:`model.evaluate` gives: every array (F,) (a test checks
    the two agree value for value)."""
    def cut(tree, last: bool):
        if isinstance(tree, dict):
            return {k: cut(v, last) for k, v in tree.items()}
        return tree[:, -1] if last else tree[:, :-1]

    sweep = dataclasses.replace(res, x=res.x[:-1], data=cut(res.data, False))
    point = dataclasses.replace(res, field=None, x=None, data=cut(res.data, True))
    return sweep, point


class Controller(QtCore.QObject):
    """Owns the scenario; computes (coalesced) and publishes :class:`Snapshot` results."""

    scenarioChanged = QtCore.Signal(object)   # model.Scenario, after every accepted change
    recomputed = QtCore.Signal(object)        # Snapshot, once per coalesced recompute
    errorOccurred = QtCore.Signal(str)        # a ScenarioError message (scenario unchanged)
    xFieldChanged = QtCore.Signal(str)

    def __init__(self, scenario: model.Scenario | None = None, x_field: str = "cluster.nodes",
                 parent: QtCore.QObject | None = None, *, cache_size: int = 64):
        super().__init__(parent)
        self._scenario = scenario or model.Scenario()
        self._x_field = x_field
        self._snapshot: Snapshot | None = None
        self._serial = 0
        self.recompute_count = 0
        self.source_path: str | None = None  # file the scenario came from (preset or opened file)
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.recompute_now)

    # -- state -----------------------------------------------------------------
    @property
    def scenario(self) -> model.Scenario:
        return self._scenario

    @property
    def x_field(self) -> str:
        return self._x_field

    @property
    def snapshot(self) -> Snapshot | None:
        return self._snapshot

    @property
    def pending(self) -> bool:
        return self._timer.isActive()

    # -- changes ---------------------------------------------------------------
    def set_value(self, path: str, value) -> bool:
        """Change one field; ``False`` (and ``errorOccurred``) when the engine refuses it."""
        try:
            if self._scenario.get(path) == value:
                return True
        except (AttributeError, KeyError, ValueError):
            pass
        try:
            new = self._scenario.replace(path, value)
        except ScenarioError as err:
            self.errorOccurred.emit(str(err))
            return False
        self._apply(new)
        return True

    def set_values(self, values: dict) -> bool:
        """Change several fields as one edit (applied in order, validated, one recompute)."""
        new = self._scenario
        try:
            for path, value in values.items():
                new = new.replace(path, value)
        except ScenarioError as err:
            self.errorOccurred.emit(str(err))
            return False
        self._apply(new)
        return True

    def set_profile_set(self, name: str) -> bool:
        """Switch the profile set fairly: the loaded preset's article values go with the seed set
        (:func:`model.presets.switch_profile_set`); values the user changed stay."""
        from model import presets

        if name == self._scenario.fabric.profile_set:
            return True
        article = presets.article_values(presets.preset_name_for_path(self.source_path))
        try:
            new = presets.switch_profile_set(self._scenario, name, article)
        except ScenarioError as err:
            self.errorOccurred.emit(str(err))
            return False
        self._apply(new)
        return True

    def set_fabric_value(self, fabric: str, key: str, value) -> bool:
        return self.set_value(f"fabric.custom.{fabric}.{key}", value)

    def reset_fabric(self, fabric: str) -> None:
        """Return ``fabric`` to its profile values (drop the scenario's overrides)."""
        if fabric not in self._scenario.fabric.custom_dict():
            return
        spec = self._scenario.fabric.custom_dict()[fabric]
        if fabric not in model.catalog.BUILTIN_FABRICS:
            # a user fabric keeps its identity (transport, label); only its values reset
            keep = {k: getattr(spec, k) for k in ("transport", "label")}
            new = dataclasses.replace(self._scenario.fabric, custom=tuple(
                (n, model.scenario.FabricSpec(**keep) if n == fabric else s) for n, s in self._scenario.fabric.custom))
            self._apply(dataclasses.replace(self._scenario, fabric=new))
        else:
            self._apply(self._scenario.without_fabric_override(fabric))

    def set_scenario(self, scenario: model.Scenario, *, source_path: str | None = None) -> None:
        """Replace the whole scenario at once (preset, opened file): one recompute."""
        self.source_path = source_path
        self._apply(scenario, force=True)

    def set_x_field(self, field: str) -> None:
        if field not in X_RANGES:
            raise ValueError(f"x-axis {field!r}: one of {', '.join(X_RANGES)}")
        if field == self._x_field:
            return
        self._x_field = field
        self.xFieldChanged.emit(field)
        self.schedule()

    def _apply(self, new: model.Scenario, force: bool = False) -> None:
        if new == self._scenario and not force:
            return
        self._scenario = new
        self.scenarioChanged.emit(new)
        self.schedule()

    def schedule(self) -> None:
        """Ask for a recompute; bursts of requests in one event-loop turn compute once."""
        if not self._timer.isActive():
            self._timer.start()

    # -- computing -------------------------------------------------------------
    def _cached(self, key):
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
        return hit

    def _remember(self, key, value):
        self._cache[key] = value
        while len(self._cache) > self._cache_size:
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
        if not np.asarray(sw.data["feasible"]).any():  # no plan fits near the point: show where one does
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
        if pt is None:
            pt = self._remember(pkey, model.evaluate(s, require_feasible=False))
        return sw, pt, False

    def compute(self, s: model.Scenario | None = None, field: str | None = None) -> Snapshot:
        """Evaluate ``s`` (default: the current scenario) without publishing it."""
        s = s or self._scenario
        field = field or self._x_field
        t0 = time.perf_counter()
        sw, pt, cached = self._sweep_and_point(s, field)
        model.engine.check_finishes(pt)  # the scenario itself must give numbers (a sweep may leave gaps)
        ms = (time.perf_counter() - t0) * 1e3
        self._serial += 1
        return Snapshot(s, field, sw, pt, current_x_values(s, field), ms, self._serial, cached=cached)

    @QtCore.Slot()
    def recompute_now(self) -> Snapshot | None:
        """Compute the latest scenario now and emit ``recomputed`` (also what the timer calls)."""
        self._timer.stop()
        try:
            snap = self.compute()
        except model.EVALUATION_FAILURES as err:  # e.g. a sweep value the engine refuses
            self._refuse(model.evaluation_error(err))
            return None
        self._snapshot = snap
        self.recompute_count += 1
        self.recomputed.emit(snap)
        return snap


    def _refuse(self, err: ScenarioError) -> None:
        """A scenario that does not evaluate is not kept: say why and go back to the last one that did
        (what the views still show), so it reaches neither the autosave nor the next start."""
        self.errorOccurred.emit(str(err))
        good = self._snapshot.scenario if self._snapshot is not None else None
        if good is not None and good != self._scenario:
            self._scenario = good
            self.scenarioChanged.emit(good)

    def try_scenario(self, scenario: model.Scenario) -> ScenarioError | None:
        """Why ``scenario`` cannot be shown, or ``None`` (its results are then cached for the recompute)."""
        try:
            self.compute(scenario)
        except model.EVALUATION_FAILURES as err:
            return model.evaluation_error(err)
        return None


__all__ = ["Controller", "Snapshot", "SWEEP_POINTS", "X_DECADES_AROUND", "X_FIELDS", "X_RANGES", "current_x_values",
           "split_point", "sweep_range", "sweep_values"]
