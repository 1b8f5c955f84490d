"""The window's computing: the latest engine results of the session's scenario and x-axis.

Widgets never change the scenario themselves: they call :meth:`Controller.set_value`
(one field), :meth:`Controller.set_scenario` (a whole preset at once) or
:meth:`Controller.reset_fabric`. An accepted change is the session's (its ``scenario``; the one
notification of the change is the session's, :attr:`Controller.signals`); the controller follows the
session and recomputes, coalesced with a zero-interval single-shot timer, so a burst of slider
events (a drag, a preset setting a dozen fields) computes only the latest scenario and
emits ``recomputed`` once. Invalid input emits ``errorOccurred`` with the engine's
message and leaves the current scenario as it was.

The controller is the hook for the file helpers: ``controller.scenario``,
``controller.signals`` and :meth:`set_scenario` are all an autosave or an Open/Save action needs.
"""

from __future__ import annotations

import dataclasses

from PySide6 import QtCore

import model
from model import ScenarioError
from model.sections import FabricSpec

from gui.present.session import Session
from gui.window.signals import SessionSignals
from gui.present.sweep import (  # noqa: F401 (the views and tests read these here too)
    SWEEP_POINTS, X_DECADES_AROUND, X_FIELDS, X_RANGES, Snapshot, SweepCache, current_x_values, split_point,
    sweep_range, sweep_values)


class Controller(QtCore.QObject):
    """Owns the scenario; computes (coalesced) and publishes :class:`Snapshot` results."""

    recomputed = QtCore.Signal(object)        # Snapshot, once per coalesced recompute
    errorOccurred = QtCore.Signal(str)        # a ScenarioError message (scenario unchanged)

    def __init__(self, scenario: model.Scenario | None = None, x_field: str = "cluster.nodes",
                 parent: QtCore.QObject | None = None, *, cache_size: int = 64, session: Session | None = None):
        super().__init__(parent)
        # the scenario, its x-axis and source live in the session (the window's views read them there)
        self.session = session if session is not None else Session(scenario or model.Scenario(), x_field=x_field)
        self._snapshot: Snapshot | None = None
        self.recompute_count = 0
        self.cache = SweepCache(cache_size)  # recent sweeps and points (hits/misses: public counters)
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.recompute_now)
        self.session.subscribe(self._session_changed)  # a new scenario or x-axis: recompute (coalesced)
        self.signals = SessionSignals(self.session, self)  # the session's changes as one Qt signal

    def _session_changed(self, names: frozenset) -> None:
        if "scenario" in names or "x_field" in names:
            if not self._timer.isActive():
                self._timer.start()

    # -- state -----------------------------------------------------------------
    @property
    def scenario(self) -> model.Scenario:
        return self.session.scenario

    @property
    def x_field(self) -> str:
        return self.session.x_field

    @property
    def source_path(self) -> str | None:
        """The file the scenario came from (preset or opened file), or None."""
        return self.session.source_path

    @source_path.setter
    def source_path(self, path: str | None) -> None:
        self.session.source_path = path

    @property
    def snapshot(self) -> Snapshot | None:
        return self._snapshot

    @property
    def pending(self) -> bool:
        return self._timer.isActive()

    # -- changes ---------------------------------------------------------------
    def set_value(self, path: str, value) -> bool:
        """Change one field; ``False`` (and ``errorOccurred``) when the engine refuses it."""
        s = self.session.scenario
        try:
            if s.get(path) == value:
                return True
        except (AttributeError, KeyError, ValueError):
            pass
        try:
            new = s.replace(path, value)
        except ScenarioError as err:
            self.errorOccurred.emit(user_message(err))
            return False
        self.session.update(scenario=new)  # the session's subscribers hear it: the recompute is asked for
        return True

    def set_values(self, values: dict) -> bool:
        """Change several fields as one edit (applied in order, validated, one recompute)."""
        def changed():
            new = self.scenario
            for path, value in values.items():
                new = new.replace(path, value)
            return new
        return self._change(changed)

    def _change(self, make) -> bool:
        """Apply the scenario ``make()`` returns; ``False`` (and ``errorOccurred``) when the engine refuses it."""
        try:
            new = make()
        except ScenarioError as err:
            self.errorOccurred.emit(user_message(err))
            return False
        self._apply(new)
        return True

    def set_profile_set(self, name: str) -> bool:
        """Switch the profile set fairly: the loaded preset's article values go with the seed set
        (:func:`model.presets.switch_profile_set`); values the user changed stay."""
        from model import presets

        if name == self.scenario.fabric.profile_set:
            return True
        article = presets.article_values(presets.preset_name_for_path(self.source_path))
        return self._change(lambda: presets.switch_profile_set(self.scenario, name, article))

    def set_fabric_value(self, fabric: str, key: str, value) -> bool:
        return self.set_value(f"fabric.custom.{fabric}.{key}", value)

    def set_fabric_compared(self, fabric: str, on: bool) -> bool:
        """Compare ``fabric`` beside the others or no longer (:meth:`model.Scenario.with_fabric_compared`)."""
        return self._change(lambda: self.scenario.with_fabric_compared(fabric, on))

    def reset_fabric(self, fabric: str) -> None:
        """Return ``fabric`` to its profile values (drop the scenario's overrides)."""
        if fabric not in self.scenario.fabric.custom_dict():
            return
        spec = self.scenario.fabric.custom_dict()[fabric]
        if fabric not in model.catalog.BUILTIN_FABRICS:
            # a user fabric keeps its identity (transport, label); only its values reset
            keep = {k: getattr(spec, k) for k in ("transport", "label")}
            new = dataclasses.replace(self.scenario.fabric, custom=tuple(
                (n, FabricSpec(**keep) if n == fabric else s) for n, s in self.scenario.fabric.custom))
            self._apply(dataclasses.replace(self.scenario, fabric=new))
        else:
            self._apply(self.scenario.without_fabric_override(fabric))

    def set_scenario(self, scenario: model.Scenario, *, source_path: str | None = None,
                     loaded: model.Scenario | None = None) -> None:
        """Replace the whole scenario at once (preset, opened file): one change, one recompute. ``loaded``:
        the scenario as loaded too (what "edited" compares with), in the same change."""
        with self.session.batch():
            if loaded is not None:
                self.session.loaded = loaded
            self.source_path = source_path
            self._apply(scenario, force=True)

    def set_x_field(self, field: str) -> None:
        if field not in X_RANGES:
            raise ValueError(f"x-axis {field!r}: one of {', '.join(X_RANGES)}")
        self.session.x_field = field

    def _apply(self, new: model.Scenario, force: bool = False) -> None:
        if not self.session.update(scenario=new) and force:
            self.schedule()  # the same scenario again (a preset reloaded): computed again all the same

    def schedule(self) -> None:
        """Ask for a recompute; bursts of requests in one event-loop turn compute once."""
        if not self._timer.isActive():
            self._timer.start()

    # -- computing -------------------------------------------------------------
    def compute(self, s: model.Scenario | None = None, field: str | None = None) -> Snapshot:
        """Evaluate ``s`` (default: the current scenario) without publishing it."""
        return self.cache.compute(s or self.scenario, field or self.session.x_field)

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
        self.errorOccurred.emit(user_message(err))
        good = self._snapshot.scenario if self._snapshot is not None else None
        if good is not None:
            self.session.scenario = good

    def try_scenario(self, scenario: model.Scenario) -> ScenarioError | None:
        """Why ``scenario`` cannot be shown, or ``None`` (its results are then cached for the recompute)."""
        try:
            self.compute(scenario)
        except model.EVALUATION_FAILURES as err:
            return model.evaluation_error(err)
        return None


def user_message(err: ScenarioError) -> str:
    """``err`` in the window's words: the field as its control is labelled ("Nodes = 0: …", "RoCE: Latency = …"),
    not its dotted path ("cluster.nodes = 0: …"), the value and the allowed range in the control's units
    ("RoCE: Packet loss = 90 %: a number from 0 to 50 %"); a message about a whole file stays as it is."""
    from model.errors import shown_value

    from gui.i18n_data import field_label
    from gui.panels.control_texts import range_message
    from gui.panels.controls_panel import DISPLAY

    field = getattr(err, "field", None)
    if not isinstance(field, str) or "." not in field or "/" in field or "\\" in field:
        return str(err)
    label = field_label(field)
    if label == field:
        return str(err)
    where = f"{err.source}: " if getattr(err, "source", None) else ""
    value, allowed = range_message(field, err.value, DISPLAY) or (shown_value(err.value), err.allowed)
    return f"{where}{label} = {value}: {allowed}"


__all__ = ["Controller", "user_message", "Snapshot", "SWEEP_POINTS", "X_DECADES_AROUND", "X_FIELDS", "X_RANGES", "current_x_values",
           "split_point", "sweep_range", "sweep_values"]
