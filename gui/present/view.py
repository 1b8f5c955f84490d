"""One snapshot as the views draw it, without Qt: :class:`SnapshotView`.

The window builds one per recompute (and per change of what it draws over the curves) and hands the same
value to every view: the snapshot (scenario, sweep, point), the overlays (:class:`gui.present.session.Overlays`:
bands shown, pin, TCO baseline), the names the charts' titles show, and each chart's data
(:class:`gui.present.series.ChartData`) and marker values, worked out once for the snapshot whichever view asks
first. A view draws from it without going back to :mod:`gui.present.series`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from gui.present.series import ChartData, chart_series, point_values
from gui.present.session import Overlays


@dataclasses.dataclass(frozen=True)
class SnapshotView:
    """``snapshot`` (a :class:`gui.present.sweep.Snapshot`) with ``overlays``; ``scenario_name`` and
    ``profile_set`` as the charts' captions show them ('' none). :meth:`chart` and :meth:`marker` give each
    chart kind's data, computed on first use and kept with the view (and carried to the next view of the same
    sweep and baseline, :meth:`follow`)."""

    snapshot: Any
    overlays: Overlays = Overlays()
    scenario_name: str = ""
    profile_set: str = ""
    _charts: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)
    _markers: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)

    # -- what the snapshot holds -----------------------------------------------------------
    @property
    def sweep(self):
        return self.snapshot.sweep

    @property
    def point(self):
        return self.snapshot.point

    @property
    def current_x(self):
        return self.snapshot.current_x

    @property
    def focus(self) -> str:
        """The fabric in focus (the scenario's)."""
        return self.snapshot.scenario.fabric.focus_fabric

    @property
    def baseline(self) -> str | None:
        """The fabric the TCO chart is measured from (``None``: the default)."""
        return self.overlays.tco_baseline

    # -- each chart's data ---------------------------------------------------------------------
    def chart(self, kind: str) -> ChartData:
        """The chart ``kind``'s data for this sweep and baseline (one object per view: the same for every view)."""
        data = self._charts.get(kind)
        if data is None:
            data = self._charts[kind] = chart_series(self.snapshot.sweep, kind, self.overlays.tco_baseline)
        return data

    def marker(self, kind: str) -> np.ndarray | None:
        """Each fabric's value of ``kind`` at the current point (display units; the TCO against the baseline)."""
        if kind not in self._markers:
            self._markers[kind] = point_values(self.snapshot.point, kind, self.overlays.tco_baseline)
        return self._markers[kind]

    def follow(self, snapshot, overlays: Overlays, scenario_name: str = "", profile_set: str = "") -> "SnapshotView":
        """The view of ``snapshot`` with ``overlays``: this view when nothing differs, else a new one keeping this
        view's chart data where it still holds: the same sweep (only the point moved) keeps every chart's, a new
        baseline drops the TCO chart's only; a new point drops the markers."""
        if (snapshot is self.snapshot and overlays == self.overlays and scenario_name == self.scenario_name
                and profile_set == self.profile_set):
            return self
        charts: dict = {}
        if snapshot.sweep is self.snapshot.sweep:
            charts = dict(self._charts)
            if overlays.tco_baseline != self.overlays.tco_baseline:
                charts.pop("tco", None)
        markers: dict = {}
        if snapshot.point is self.snapshot.point:
            markers = dict(self._markers)
            if overlays.tco_baseline != self.overlays.tco_baseline:
                markers.pop("tco", None)
        return SnapshotView(snapshot, overlays, scenario_name, profile_set, charts, markers)


__all__ = ["SnapshotView"]
