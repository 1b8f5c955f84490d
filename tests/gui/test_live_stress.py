"""A live-update loop with painting, like a long slider drag in a demo.

PySide6-Essentials 6.12.0 with pyqtgraph 0.14.0 dies in exactly this kind of loop
("Fatal Python error: none_dealloc" inside GraphicsItem.pixelVectors during a paint,
3 runs of 3 on this project's machines; 6.11.3 ran clean 6 of 6). pyproject.toml pins the tested pair; this test is
what must pass before the pins are widened. It runs the loop in a subprocess so that a
crash of the interpreter fails the test with its output instead of killing pytest.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from guihelpers import curve_y, settle
from PySide6 import QtWidgets

from gui.charts.plot_items import idle_stretches
from gui.present.series import chart_series, in_use_points
from gui.present.sweep import compute_snapshot

ROOT = Path(__file__).resolve().parents[2]
MOVES = 400


def drive(win, moves: int = MOVES) -> set:
    """Drag sliders back and forth, painting after every move; return the scenarios' distinct node counts."""
    app = QtWidgets.QApplication.instance()
    sliders = [win.sliders["workload.params_b"], win.fabric_sliders["latency_us"], win.fabric_sliders["loss_rate"],
               win.sliders["cluster.nodes"], win.fabric_sliders["link_gbps"], win.sliders["economics.pue"]]
    rng = np.random.default_rng(7)
    seen = set()
    for i in range(moves):
        sl = sliders[i % len(sliders)]
        if i % 50 == 0:
            sl.slider.sliderPressed.emit()
        lo, hi = sl.slider.minimum(), sl.slider.maximum()
        sl.slider.setValue(lo + (hi - lo) * float(rng.uniform(0.2, 0.8)))
        if i % 7 == 0:
            win.controller.set_x_field(("cluster.nodes", "workload.params_b", "fabric.latency_us")[(i // 7) % 3])
        app.processEvents()  # the coalesced recompute and the repaint
        win.repaint()
        seen.add(win.controller.scenario.cluster.nodes)
        if i % 50 == 49:
            sl.slider.sliderReleased.emit()
            win.grab()
    return seen


def check_shows_the_scenario(win) -> None:
    """After the storm the charts draw the window's own scenario: every curve equals a fresh engine
    evaluation of it along the current x-axis (no view left behind on an older result)."""
    settle(win)
    fresh = compute_snapshot(win.controller.scenario, win.controller.x_field)
    for kind in win.charts:
        want = chart_series(fresh.sweep, kind)
        for series in want.series:
            # the solid curve: the points where every GPU works; the dotted one (if drawn): every point
            solid_x, solid_y, dotted = in_use_points(want.x, series)
            x, y = win.charts[kind].curves[series.fabric].getOriginalDataset()
            assert np.isfinite(series.y).sum() > 10, (kind, series.fabric)  # a curve, not a gap
            np.testing.assert_allclose(x, solid_x, rtol=1e-12, err_msg=f"{kind} {series.fabric} x")
            np.testing.assert_allclose(y, solid_y, rtol=1e-9, equal_nan=True,
                                       err_msg=f"{kind} {series.fabric} y")
            chart = win.charts[kind]
            if dotted and chart.idle_fabric == series.fabric:  # its idle points shaded, one stretch per run
                idle = np.asarray(series.idle_gpus, dtype=bool) & np.isfinite(series.y)
                assert chart.idle_band.stretches() == idle_stretches(want.x, idle, want.log_x)


def test_live_loop_in_process(window):
    before = {k: curve_y(window, k, "roce").copy() for k in window.charts}
    seen = drive(window, 120)
    assert len(seen) > 1  # the sliders really moved the scenario
    check_shows_the_scenario(window)
    assert any(curve_y(window, k, "roce").shape != before[k].shape
               or not np.array_equal(curve_y(window, k, "roce"), before[k], equal_nan=True) for k in window.charts)


@pytest.mark.slow
def test_live_loop_survives_in_a_fresh_interpreter(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT / "tests" / "gui")!r})
        from gui.app import build_window, ensure_app
        from test_live_stress import check_shows_the_scenario, drive
        app = ensure_app()
        win = build_window(restore=False)
        win.resize(1600, 1000)
        win.show()
        app.processEvents()
        seen = drive(win, {MOVES})
        check_shows_the_scenario(win)
        win.close()
        print("consistent after", len(seen), "scenarios")
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", FABRIC_WHATIF_SETTINGS=str(tmp_path / "s.ini"),
               PYTHONFAULTHANDLER="1")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, f"live loop crashed (exit {proc.returncode}):\n{proc.stderr[-4000:]}"
    assert "consistent after" in proc.stdout, proc.stdout + proc.stderr[-2000:]
