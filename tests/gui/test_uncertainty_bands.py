"""Uncertainty bands: off by default, computed off the drag path, seeded, drawn per fabric."""

from __future__ import annotations

import numpy as np

from guihelpers import settle
from synthetic_nccl import finite

from gui.charts.bands import band_series, compute_bands


def test_off_by_default_and_in_the_view_menu(window):
    f = window.features
    assert f.bands_action in window.view_menu.actions()
    assert not f.bands_action.isChecked()
    f.settle_now()
    assert all(not f.bands.visible_bands(k) for k in window.charts)
    assert not f.bands.busy


def test_bands_drawn_for_every_fabric_and_bracket_the_curve(window):
    f = window.features
    f.bands_action.setChecked(True)
    assert f.bands.wait()
    snap = window.controller.snapshot
    for kind in ("utilisation", "duration", "tco"):
        shown = f.bands.visible_bands(kind)
        assert set(shown) == set(snap.sweep.fabrics)
        for lo, hi in shown.values():
            ok = np.isfinite(lo) & np.isfinite(hi)
            assert ok.sum() > 10 and np.all(lo[ok] <= hi[ok] + 1e-9)
    # the utilisation band (percent) brackets the nominal curve somewhere it has spread
    lo, hi = f.bands.visible_bands("utilisation")["ethernet"]
    eth = next(s for s in window.charts["utilisation"].series.series if s.fabric == "ethernet")
    y = eth.y  # the whole curve (the solid line skips the points that leave GPUs idle)
    ok = np.isfinite(lo) & np.isfinite(y)
    assert np.mean((lo[ok] <= y[ok] + 0.5) & (y[ok] <= hi[ok] + 0.5)) > 0.9
    assert np.any(hi[ok] - lo[ok] > 0.1)
    assert f.bands.last_ms is not None
    assert "bands" in window.timing_label.text()


def test_seeded_reproducible(window):
    """The same seed gives the same bands, another seed other ones, for every fabric and every
    chart: an export is reproducible because of the seed, not because the bands are empty."""
    snap = window.controller.snapshot
    x = np.asarray(snap.sweep.x)[::16]
    b1, _ = compute_bands(snap.scenario, snap.x_field, x, samples=200, seed=0)
    b2, _ = compute_bands(snap.scenario, snap.x_field, x, samples=200, seed=0)
    b3, _ = compute_bands(snap.scenario, snap.x_field, x, samples=200, seed=1)
    for kind in ("utilisation", "duration", "tco"):
        s1, s2, s3 = (band_series(b, kind, snap.x_field) for b in (b1, b2, b3))
        assert [s.fabric for s in s1] == list(snap.sweep.fabrics)
        for a, b, c in zip(s1, s2, s3):
            width = finite(a.hi - a.lo)
            assert (width > 0).sum() >= x.size // 2, (kind, a.fabric)  # a real band (1 node has no network)
            for key in ("lo", "mid", "hi"):
                assert np.array_equal(getattr(a, key), getattr(b, key), equal_nan=True), (kind, a.fabric, key)
            assert not np.array_equal(a.hi, c.hi, equal_nan=True), (kind, a.fabric)  # the seed matters


def test_no_monte_carlo_on_the_drag_path(window):
    f = window.features
    f.bands_action.setChecked(True)
    assert f.bands.wait()
    assert f.bands.visible_bands("utilisation")
    calls = []
    f.bands.requested.connect(calls.append)
    handle = window.sliders["cluster.nodes"].slider
    handle.sliderPressed.emit()  # the user holds the nodes slider
    assert window.dragging
    for n in (30, 40, 50, 60):
        window.controller.set_value("cluster.nodes", n)
        settle(window)
        # a stale band is hidden at once, nothing computed
        assert not f.bands.visible_bands("utilisation")
    f.check_settled()  # the settle clock fires while the slider is still held: it waits
    assert calls == []
    handle.sliderReleased.emit()
    assert not window.dragging
    f.check_settled()
    assert len(calls) == 1 and calls[0].scenario.cluster.nodes == 60
    assert f.bands.wait()
    assert f.bands.visible_bands("utilisation")  # and the bands for the new point are drawn


def test_turning_off_hides(window):
    f = window.features
    f.bands_action.setChecked(True)
    assert f.bands.wait()
    f.bands_action.setChecked(False)
    assert not f.bands.visible_bands("tco")
