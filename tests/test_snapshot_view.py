"""A snapshot as the views draw it (Qt-free): each chart's data worked out once per snapshot and shared by
every view that asks, the TCO against the overlays' baseline, carried to the next view only where it holds."""

from __future__ import annotations

import numpy as np
import pytest

import model
from model import presets
from gui.present.series import CHART_KINDS, chart_series, point_values
from gui.present.session import Overlays
from gui.present.sweep import SweepCache
from gui.present.view import SnapshotView


@pytest.fixture(scope="module")
def snaps():
    cache = SweepCache(8)
    s = model.load_scenario(presets.preset_path("case2"))
    first = cache.compute(s, "cluster.nodes")
    # another node count on the same x-axis: the same sweep grid (cached), a new point
    moved = cache.compute(s.replace("cluster.nodes", int(s.cluster.nodes) + 8), "cluster.nodes")
    return first, moved


def test_each_charts_data_is_computed_once_per_view_and_is_the_engines(snaps):
    snap, _ = snaps
    view = SnapshotView(snap, Overlays(tco_baseline="infiniband"))
    for kind in CHART_KINDS:
        data = view.chart(kind)
        assert view.chart(kind) is data  # one object, whoever asks
        want = chart_series(snap.sweep, kind, "infiniband")
        assert data.title == want.title and data.baseline == want.baseline
        np.testing.assert_array_equal(np.vstack([c.y for c in data.series]), np.vstack([c.y for c in want.series]))
        np.testing.assert_array_equal(view.marker(kind), point_values(snap.point, kind, "infiniband"))
    assert view.chart("tco").baseline == "infiniband"


def test_the_next_view_keeps_what_still_holds(snaps):
    snap, moved = snaps
    view = SnapshotView(snap, Overlays())
    kept = {k: view.chart(k) for k in CHART_KINDS}
    view.marker("utilisation")
    assert moved.sweep is snap.sweep  # the x-axis field's own slider: the sweep comes from the cache
    nxt = view.follow(moved, Overlays())
    for kind in CHART_KINDS:
        assert nxt.chart(kind) is kept[kind]
    # a new point: its own markers
    np.testing.assert_array_equal(nxt.marker("utilisation"), point_values(moved.point, "utilisation"))
    # another baseline: the TCO chart again, the others kept
    other = view.follow(snap, Overlays(tco_baseline="roce"))
    assert other.chart("tco") is not kept["tco"] and other.chart("tco").baseline == "roce"
    assert other.chart("utilisation") is kept["utilisation"]
    assert other.marker("tco") is not view.marker("tco")


def test_overlays_compare_the_pin_by_identity(snaps):
    snap, _ = snaps
    assert Overlays(pin=snap, tco_baseline="roce") == Overlays(pin=snap, tco_baseline="roce")
    assert Overlays(pin=snap) != Overlays(pin=snaps[1])
    assert Overlays(bands_on=True) != Overlays()


def test_the_same_snapshot_and_overlays_is_the_same_view(snaps):
    snap, _ = snaps
    view = SnapshotView(snap, Overlays(tco_baseline="roce"), "case 2", "seed")
    assert view.follow(snap, Overlays(tco_baseline="roce"), "case 2", "seed") is view
    assert view.follow(snap, Overlays(tco_baseline="roce"), "case 2 (edited)", "seed") is not view
