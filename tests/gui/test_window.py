"""Presets, screenshots, settings round trip and the app entry point."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from gui.present.text import profile_set_name
from guihelpers import settle
from PySide6 import QtGui

import model
from gui.charts.chart_readout import short_name
from gui.window import list_presets

PRESETS = list_presets()
ROOT = Path(__file__).resolve().parents[2]


def image_is_busy(img: QtGui.QImage) -> bool:
    """Non-trivial: not blank, and many distinct colours (curves, text, bars)."""
    img = img.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    w, h = img.width(), img.height()
    ptr = img.constBits()
    arr = np.frombuffer(ptr, dtype=np.uint32, count=img.bytesPerLine() * h // 4).reshape(h, -1)[:, :w]
    colours, counts = np.unique(arr, return_counts=True)
    return w > 800 and h > 500 and colours.size > 200 and counts.max() / arr.size < 0.9


def test_presets_listed():
    assert PRESETS, "assets/presets has no loadable preset"
    names = [p.name for _, p in PRESETS]
    from model import presets

    for n in presets.preset_names():  # the three case studies and the three scale tiers
        assert presets.preset_path(n).name in names


@pytest.mark.parametrize("name,path", PRESETS, ids=[p.stem for _, p in PRESETS])
def test_every_preset_renders(window, qtbot, name, path, tmp_path):
    win = window
    recomputes, changes = [], []
    win.controller.recomputed.connect(recomputes.append)
    win.session.changed.connect(changes.append)
    before = win.controller.scenario
    act = win.preset_actions[str(path)]
    act.trigger()
    qtbot.waitUntil(lambda: len(recomputes) >= 1, timeout=5000)
    qtbot.wait(50)  # let any stray second recompute arrive
    assert len(recomputes) == 1, "a preset load must recompute exactly once"
    # one change of the session (none when the preset is the one shown already)
    assert len(changes) == (model.load_scenario(path) != before)
    settle(win)  # what the settle clock then draws: the chart in the hidden cost-per-run tab
    s = model.load_scenario(path)
    c = win.controller.scenario
    assert c == s
    # every control shows the preset's value
    for p, slider in win.sliders.items():
        v = s.get(p)
        if v is not None and slider.isVisibleTo(win):
            assert slider.value() == pytest.approx(v), p
    assert win.gpu_combo.currentData() == s.cluster.gpu
    assert win.profile_buttons[s.fabric.profile_set].isChecked()
    assert win.focus_combo.currentData() == s.fabric.focus_fabric
    rows = {r.name: r for r in model.resolve_fabrics(s)}
    for key, slider in win.fabric_sliders.items():
        assert slider.value() == pytest.approx(float(rows[s.fabric.focus_fabric].values[key]))
    # drawn: curves with data for every fabric, title and charts name the scenario and profile
    for kind, ch in win.charts.items():
        for fab in s.fabric.fabrics:
            x, y = ch.curves[fab].getData()
            whole = ch.series.x  # the sweep (the solid curve skips the points that leave GPUs idle)
            assert len(whole) > 50 and len(x) >= 1, (kind, fab)
            assert np.isfinite(np.asarray(y, dtype=float)).any(), (kind, fab)
        assert short_name(s.name) in ch.caption and f"profile: {profile_set_name(s.fabric.profile_set)}" in ch.caption
    assert s.name in win.windowTitle() and profile_set_name(s.fabric.profile_set) in win.windowTitle()
    img = win.grab().toImage()
    assert image_is_busy(img)
    img.save(str(tmp_path / f"{path.stem}.png"))


def test_screenshot_is_not_blank(window, tmp_path):
    pix = window.grab()
    path = tmp_path / "main.png"
    assert pix.save(str(path))
    assert path.stat().st_size > 20_000
    assert image_is_busy(pix.toImage())


def test_geometry_and_last_scenario_come_back(qtbot, isolated_settings):
    from gui.app import build_window

    win = build_window()  # nothing saved yet: the default preset
    qtbot.addWidget(win)
    from gui.window import DEFAULT_PRESET

    assert win.controller.scenario == model.load_scenario(DEFAULT_PRESET)
    win.show()
    size = (max(700, win.minimumSizeHint().width()), 690)  # inside the 800 × 800 offscreen screen
    assert size[0] <= 800, "the window's minimum width no longer fits a small screen"
    win.resize(*size)
    win.controller.set_value("cluster.nodes", 64)
    win.controller.set_x_field("workload.params_b")
    settle(win)
    win.close()
    assert isolated_settings.exists()
    again = build_window()
    qtbot.addWidget(again)
    again.show()
    assert again.controller.scenario.cluster.nodes == 64
    assert again.controller.x_field == "workload.params_b"
    assert (again.width(), again.height()) == size
    assert "(edited)" in again.windowTitle()  # still compared with the preset it came from
    again.close()


def test_corrupt_settings_fall_back_to_default(qtbot, isolated_settings):
    from gui.app import build_window

    isolated_settings.write_text('[scenario]\ntoml="[cluster]\\nnodes = -5\\n"\n[window]\ngeometry=garbage\n')
    win = build_window()
    qtbot.addWidget(win)
    from gui.window import DEFAULT_PRESET

    assert win.controller.scenario == model.load_scenario(DEFAULT_PRESET)


@pytest.mark.slow
def test_app_entry_point_renders_a_screenshot(tmp_path):
    """`python -m gui.app --screenshot PATH` opens the default preset, paints, saves and exits, silently."""
    out = tmp_path / "app.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", FABRIC_WHATIF_SETTINGS=str(tmp_path / "s.ini"))
    proc = subprocess.run([sys.executable, "-W", "error", "-m", "gui.app", "--default", "--screenshot", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() == "" and proc.stdout.strip() == ""
    assert out.stat().st_size > 20_000
