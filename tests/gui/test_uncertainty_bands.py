"""Uncertainty bands: off by default, computed off the drag path, seeded, drawn per fabric."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from guihelpers import settle
from synthetic_nccl import finite

from gui.bands import band_series, compute_bands


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
    y = window.charts["utilisation"].curves["ethernet"].getData()[1]
    ok = np.isfinite(lo) & np.isfinite(y)
    assert np.mean((lo[ok] <= y[ok] + 0.5) & (y[ok] <= hi[ok] + 0.5)) > 0.9
    assert np.any(hi[ok] - lo[ok] > 0.1)
    assert f.bands.last_ms is not None
    assert "bands" in window.timing_label.text()


def test_seeded_reproducible(window):
    snap = window.controller.snapshot
    x = np.asarray(snap.sweep.x)[::16]
    b1, _ = compute_bands(snap.scenario, snap.x_field, x, samples=200, seed=0)
    b2, _ = compute_bands(snap.scenario, snap.x_field, x, samples=200, seed=0)
    s1 = band_series(b1, "tco", snap.x_field)
    s2 = band_series(b2, "tco", snap.x_field)
    for a, b in zip(s1, s2):
        assert_allclose(finite(a["hi"]), finite(b["hi"]))


def test_no_monte_carlo_on_the_drag_path(window, monkeypatch):
    f = window.features
    f.bands_action.setChecked(True)
    assert f.bands.wait()
    calls = []
    monkeypatch.setattr(f.bands, "_request", lambda snap: calls.append(snap))
    window._set_dragging(True)
    for n in (30, 40, 50, 60):
        window.controller.set_value("cluster.nodes", n)
        settle(window)
        # a stale band is hidden at once, nothing computed
        assert not f.bands.visible_bands("utilisation")
    f._maybe_settled()  # the settle clock fires while the slider is still held: it waits
    assert calls == []
    window._set_dragging(False)
    f._maybe_settled()
    assert len(calls) == 1 and calls[0].scenario.cluster.nodes == 60


def test_turning_off_hides(window):
    f = window.features
    f.bands_action.setChecked(True)
    assert f.bands.wait()
    f.bands_action.setChecked(False)
    assert not f.bands.visible_bands("tco")
