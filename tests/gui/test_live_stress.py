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
from guihelpers import settle
from PySide6 import QtWidgets

ROOT = Path(__file__).resolve().parents[2]
MOVES = 400


def drive(win, moves: int = MOVES) -> int:
    """Drag sliders back and forth, painting after every move; return the number of repaints."""
    app = QtWidgets.QApplication.instance()
    sliders = [win.sliders["workload.params_b"], win.fabric_sliders["latency_us"], win.fabric_sliders["loss_rate"],
               win.sliders["cluster.nodes"], win.fabric_sliders["link_gbps"], win.sliders["economics.pue"]]
    rng = np.random.default_rng(7)
    painted = 0
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
        painted += 1
        if i % 50 == 49:
            sl.slider.sliderReleased.emit()
            win.grab()
    return painted


def test_live_loop_in_process(window):
    n = drive(window, 120)
    settle(window)
    assert n == 120
    for ch in window.charts.values():
        x, y = ch.curves["roce"].getData()
        assert len(x) > 50


def test_live_loop_survives_in_a_fresh_interpreter(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT / "tests" / "gui")!r})
        from gui.app import build_window, ensure_app
        from test_live_stress import drive
        app = ensure_app()
        win = build_window(restore=False)
        win.resize(1600, 1000)
        win.show()
        app.processEvents()
        n = drive(win, {MOVES})
        win.close()
        print("painted", n)
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", FABRIC_WHATIF_SETTINGS=str(tmp_path / "s.ini"),
               PYTHONFAULTHANDLER="1")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, f"live loop crashed (exit {proc.returncode}):\n{proc.stderr[-4000:]}"
    assert f"painted {MOVES}" in proc.stdout
