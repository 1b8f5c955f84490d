"""Autosave and the File menu: nothing made is lost, no file crashes the app, bad files leave the work alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import model

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"


@pytest.fixture
def window(qtbot):
    from gui.app import build_window

    win = build_window(restore=False)
    qtbot.addWidget(win)
    win.resize(1200, 800)
    yield win
    win.close()


def _no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.rglob("*.tmp")]


# --------------------------------------------------------------------------
# the autosave
# --------------------------------------------------------------------------

def test_autosave_writes_once_after_a_burst(qtbot, window, settings_file):
    from gui.system.autosave import DELAY_MS

    auto = window.file_actions.autosave
    path = settings_file.parent / "autosave.toml"
    assert auto.path == path
    before = auto.writes
    for n in (30, 31, 32, 33, 34):  # a slider drag
        window.sliders["cluster.nodes"].valueEdited.emit(float(n))
    assert auto.pending and auto.writes == before
    qtbot.waitUntil(lambda: auto.writes == before + 1, timeout=DELAY_MS * 10)
    qtbot.wait(DELAY_MS * 2)
    assert auto.writes == before + 1
    assert model.load_scenario(path) == window.controller.scenario
    assert model.load_scenario(path).cluster.nodes == 34
    assert _no_temp_files(settings_file.parent)


def test_autosave_flushes_on_close(qtbot, window, settings_file):
    window.controller.set_value("workload.params_b", 12.5)
    window.close()
    assert model.load_scenario(settings_file.parent / "autosave.toml").workload.params_b == 12.5


def test_restart_restores_the_autosave(qtbot, window):
    from gui.app import build_window

    window.controller.set_value("cluster.nodes", 77)
    window.file_actions.autosave.flush()
    again = build_window()
    qtbot.addWidget(again)
    assert again.controller.scenario.cluster.nodes == 77
    again.close()


def test_unwritable_config_folder_says_so_once(qtbot, window, tmp_path):
    (tmp_path / "blocker").write_text("a file where the config folder should be")
    win = window
    auto = win.file_actions.autosave
    auto.path = tmp_path / "blocker" / "autosave.toml"
    fails = []
    auto.failed.connect(fails.append)
    for n in (40, 41):
        win.controller.set_value("cluster.nodes", n)
        auto.write_now()
    assert len(fails) == 1 and "not writable" in fails[0] and "blocker" in fails[0]
    assert win.controller.scenario.cluster.nodes == 41  # the work goes on
    assert "Autosave failed" in win.statusBar().currentMessage()


def test_app_starts_when_the_config_folder_cannot_be_made(qtbot, tmp_path, monkeypatch):
    from gui.app import build_window

    (tmp_path / "blocker").write_text("a file where the config folder should be")
    monkeypatch.setenv("FABRIC_WHATIF_SETTINGS", str(tmp_path / "blocker" / "cfg" / "settings.ini"))
    win = build_window()
    qtbot.addWidget(win)
    win.controller.set_value("cluster.nodes", 19)
    assert not win.file_actions.autosave.write_now()
    assert "Autosave failed" in win.statusBar().currentMessage()
    assert win.controller.scenario.cluster.nodes == 19
    win.close()
    assert (tmp_path / "blocker").read_text() == "a file where the config folder should be"


@pytest.mark.parametrize("content", [b"\x00\xff junk", b"[cluster]\nnodes = -1\n", b"schema_version = 99\n"])
def test_a_bad_autosave_is_kept_aside_not_loaded(qtbot, settings_file, content):
    from gui.app import build_window

    settings_file.parent.mkdir(parents=True)
    (settings_file.parent / "autosave.toml").write_bytes(content)
    win = build_window()
    qtbot.addWidget(win)
    from gui.window import DEFAULT_PRESET

    assert win.controller.scenario == model.load_scenario(DEFAULT_PRESET)
    assert (settings_file.parent / "autosave.bad.toml").read_bytes() == content
    win.close()


DRIVER = textwrap.dedent("""
    import sys, time
    from gui.app import build_window, ensure_app
    app = ensure_app()
    win = build_window()
    win.show()
    if sys.argv[1] == "change":
        for _ in range(20):
            app.processEvents()
        # what a user's slider edit sends
        win.sliders["cluster.nodes"].valueEdited.emit(float(sys.argv[2]))
        print("CHANGED", win.controller.scenario.cluster.nodes, flush=True)
        while True:  # an app at work, until it is killed
            app.processEvents()
            time.sleep(0.01)
    else:
        print("NODES", win.controller.scenario.cluster.nodes, flush=True)
""")


@pytest.mark.slow
def test_sigkill_loses_nothing(tmp_path):
    """Start the app, change a value, SIGKILL it, start it again: the value is there."""
    from gui.system.autosave import DELAY_MS

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", FABRIC_WHATIF_SETTINGS=str(tmp_path / "cfg" / "s.ini"))
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    first = subprocess.Popen([sys.executable, str(driver), "change", "57"], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = first.stdout.readline()
        assert line.split() == ["CHANGED", "57"], (line, first.stderr.read() if first.poll() is not None else "")
        # A moment after the edit (no save, no close, no quit); on a loaded machine wait, from
        # outside, until the autosave is on disk, at most 20 s.
        time.sleep(DELAY_MS / 1000 * 3)
        auto = tmp_path / "cfg" / "autosave.toml"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (auto.exists() and "nodes = 57" in auto.read_text()):
            time.sleep(0.1)
        assert first.poll() is None
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)  # reaps it and closes the pipes
    assert first.returncode == -signal.SIGKILL
    assert not (tmp_path / "cfg" / "s.ini").exists() or "57" not in (tmp_path / "cfg" / "s.ini").read_text()
    second = subprocess.run([sys.executable, str(driver), "report"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    assert second.stdout.split() == ["NODES", "57"]
    assert _no_temp_files(tmp_path / "cfg")


# --------------------------------------------------------------------------
# Open / Save / Recent
# --------------------------------------------------------------------------

def test_save_and_open_round_trip(qtbot, window, tmp_path):
    fa = window.file_actions
    window.controller.set_value("cluster.nodes", 48)
    assert fa.save_to(tmp_path / "mine")  # the .toml is added
    saved = tmp_path / "mine.toml"
    assert model.load_scenario(saved) == window.controller.scenario
    assert "(edited)" not in window.windowTitle()
    window.controller.set_value("cluster.nodes", 12)
    assert fa.open_path(saved)
    assert window.controller.scenario.cluster.nodes == 48
    assert fa.recent.paths()[0] == str(saved.resolve())
    fa._fill_recent()
    assert any(a.text().endswith("mine.toml") for a in fa.recent_menu.actions())
    # Save now writes to the file it came from, without a dialog
    window.controller.set_value("cluster.nodes", 50)
    fa.save()
    assert model.load_scenario(saved).cluster.nodes == 50


def test_save_never_overwrites_a_bundled_preset(qtbot, window, monkeypatch):
    fa = window.file_actions
    called = []
    monkeypatch.setattr(fa, "save_as_dialog", lambda: called.append(True))
    before = (ROOT / "assets/presets/default.toml").read_bytes()
    window.controller.set_value("cluster.nodes", 99)
    fa.save()
    assert called == [True]
    assert (ROOT / "assets/presets/default.toml").read_bytes() == before


BAD = {
    "malformed": (b"[cluster\nnodes = 3", ["not valid TOML"]),
    "wrong_type": (b"[cluster]\nnodes = 'lots'\n", ["cluster.nodes", "'lots'", "whole number"]),
    "out_of_range": (b"[cluster]\nnodes = 0\n", ["cluster.nodes", "from 1 to 100000"]),
    "unknown_key": (b"[cluster]\nnodez = 3\n", ["cluster.nodez", "did you mean"]),
    "future": (b"schema_version = 7\n", ["schema_version", "newer Fabric What-If"]),
    "binary": (bytes(range(256)), ["binary data"]),
    "empty": (b"", ["empty file"]),
    "huge": (b"#" * 1_000_001, ["at most 1000000 bytes"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_opening_a_bad_file_keeps_the_work(qtbot, window, tmp_path, case):
    content, words = BAD[case]
    bad = tmp_path / f"{case}.toml"
    bad.write_bytes(content)
    fa = window.file_actions
    window.controller.set_value("cluster.nodes", 33)
    before = window.controller.scenario
    assert not fa.open_path(bad)
    assert window.controller.scenario == before
    box = fa.error_box
    assert box is not None and box.isVisible()
    text = box.informativeText()
    assert str(bad) in text and "Allowed:" in text and "unchanged" in text
    for w in words:
        assert w in fa.last_error, (w, fa.last_error)
    box.close()


def test_opening_a_missing_file_drops_it_from_recent(qtbot, window, tmp_path):
    fa = window.file_actions
    gone = tmp_path / "gone.toml"
    model.files.save_scenario(window.controller.scenario, gone)
    fa.open_path(gone)
    gone.unlink()
    assert not fa.open_path(gone)
    assert str(gone.resolve()) not in fa.recent.paths()
    assert "missing" in fa.last_error


def test_saving_to_an_unwritable_place_keeps_the_work(qtbot, window, tmp_path):
    (tmp_path / "file").write_text("x")
    fa = window.file_actions
    before = window.controller.scenario
    assert not fa.save_to(tmp_path / "file" / "s.toml")
    assert "not writable" in fa.last_error and str(tmp_path / "file") in fa.last_error
    assert window.controller.scenario == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config", "file"] or \
        sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_file_menu_has_the_actions(window):
    texts = [a.text() for a in window.file_menu.actions()]
    for t in ("&Open scenario…", "Open &Recent", "&Save scenario", "Save scenario &As…", "&Export chart",
              "Export &proposal sheet (PDF)…", "&Quit"):
        assert t in texts, texts
    assert texts.index("Export &proposal sheet (PDF)…") < texts.index("&Quit")


# --------------------------------------------------------------------------
# exports from the window
# --------------------------------------------------------------------------

def test_export_from_the_window(qtbot, window, tmp_path):
    fa = window.file_actions
    window.controller.set_value("cluster.nodes", 16)
    assert fa.export_chart_to("utilisation", tmp_path / "u.csv")
    first = (tmp_path / "u.csv").read_text().splitlines()[1].split(",")
    assert first[0] == "1.0"
    assert fa.export_chart_to("tco", tmp_path / "t.png", width=900)
    from PySide6 import QtGui

    assert QtGui.QImage(str(tmp_path / "t.png")).width() == 900
    assert fa.export_proposal_to(tmp_path / "sheet.pdf", "letter")
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
    assert not fa.export_chart_to("tco", tmp_path / "t.gif")
    assert ".png, .svg, .pdf, .csv" in fa.last_error
    assert not (tmp_path / "t.gif").exists()


def test_export_keeps_the_users_zoom(qtbot, window, tmp_path):
    from gui.export.charts import build_chart

    fa = window.file_actions
    vb = window.charts["utilisation"].getPlotItem().vb
    vb.setRange(xRange=(1.0, 2.0), yRange=(10.0, 50.0), padding=0)  # zoomed to 10-100 nodes
    zoom = fa._zoom("utilisation")
    assert zoom is not None
    chart = build_chart(fa._snapshot(), "utilisation", view_range=zoom)
    try:
        (x0, x1), (y0, y1) = chart.getPlotItem().vb.viewRange()
        assert (round(x0, 6), round(x1, 6), round(y0, 6), round(y1, 6)) == (1.0, 2.0, 10.0, 50.0)
    finally:
        chart.close()
    assert fa.export_chart_to("utilisation", tmp_path / "zoomed.svg")


def test_language_switch_keeps_file_actions_and_autosave(qtbot, window, settings_file):
    from gui.i18n import switch_language

    new = switch_language(window, "zh_CN")
    try:
        qtbot.addWidget(new)
        assert new is window and new.file_actions.controller is new.controller  # the same window, in place
        assert new.file_actions.open_action.text() != "&Open scenario…"  # its File menu in Chinese
        new.controller.set_value("cluster.nodes", 21)
        new.file_actions.autosave.flush()
        assert model.load_scenario(settings_file.parent / "autosave.toml").cluster.nodes == 21
    finally:
        back = switch_language(new, "en")
        qtbot.addWidget(back)
    assert back.file_actions.autosave.path == settings_file.parent / "autosave.toml"
