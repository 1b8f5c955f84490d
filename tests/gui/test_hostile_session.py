"""Hostile files and long sessions in the window: nothing bricks the start, nothing injects, nothing is lost."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest

import model
from guihelpers import settle
from model import files

POSIX = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes and modes are POSIX")
# loads (every value in range) but the run never finishes: the engine refuses it when evaluating
NEVER_FINISHES = "[reliability]\nrestart_min = 100000.0\ngpu_host_interruptions_per_1m_gpu_hours = 1000.0\n"


def _autosave(settings_file: Path) -> Path:
    return settings_file.parent / "autosave.toml"


# --------------------------------------------------------------------------
# a scenario that does not evaluate never reaches the window or the autosave
# --------------------------------------------------------------------------

def test_opening_a_file_that_does_not_evaluate_keeps_the_work(window, tmp_path):
    before = window.controller.scenario
    p = tmp_path / "never.toml"
    p.write_text(NEVER_FINISHES)
    fa = window.file_actions
    assert not fa.open_path(p)
    assert window.controller.scenario == before
    assert str(p) in fa.last_error and "a run that finishes" in fa.last_error
    fa.autosave.flush()
    saved = fa.autosave.path
    assert not saved.exists() or model.load_scenario(saved) == before


def test_an_edit_that_does_not_evaluate_is_refused_and_never_autosaved(window, qtbot):
    c = window.controller
    before = c.scenario
    c.set_value("reliability.restart_min", 100_000.0)  # accepted by validation, refused by evaluation
    settle(window)
    assert c.scenario == before
    assert "a run that finishes" in window.error_label.text()
    auto = window.file_actions.autosave
    auto.flush()
    if auto.path.exists():
        assert model.load_scenario(auto.path).reliability.restart_min != 100_000.0


@pytest.mark.parametrize("content", [NEVER_FINISHES, "[cluster]\nnodes = -1\n", "name = " + "[" * 600 + "]" * 600])
def test_a_bad_autosave_is_set_aside_numbered_and_the_app_starts(qtbot, settings_file, content):
    from gui.app import build_window
    from gui.window import DEFAULT_PRESET

    folder = settings_file.parent
    folder.mkdir(parents=True)
    (folder / "autosave.bad.toml").write_text("the first bad autosave")
    (folder / "autosave.bad-2.toml").write_text("the second")
    _autosave(settings_file).write_text(content)
    win = build_window()
    qtbot.addWidget(win)
    assert win.controller.scenario == model.load_scenario(DEFAULT_PRESET)
    assert (folder / "autosave.bad.toml").read_text() == "the first bad autosave"
    assert (folder / "autosave.bad-2.toml").read_text() == "the second"
    assert (folder / "autosave.bad-3.toml").read_text() == content
    win.close()


@POSIX
def test_a_pipe_as_autosave_is_set_aside_without_blocking_the_start(qtbot, settings_file):
    from gui.app import build_window
    from gui.window import DEFAULT_PRESET

    settings_file.parent.mkdir(parents=True)
    os.mkfifo(_autosave(settings_file))
    win = build_window()
    qtbot.addWidget(win)
    assert win.controller.scenario == model.load_scenario(DEFAULT_PRESET)
    assert stat.S_ISFIFO(os.lstat(settings_file.parent / "autosave.bad.toml").st_mode)
    assert not os.path.lexists(_autosave(settings_file))
    win.close()


def test_a_last_session_that_does_not_evaluate_does_not_brick_the_start(qtbot, isolated_settings):
    from PySide6 import QtCore

    from gui.app import build_window

    s = QtCore.QSettings(str(isolated_settings), QtCore.QSettings.Format.IniFormat)
    s.setValue("scenario/toml", NEVER_FINISHES)
    s.sync()
    win = build_window()
    qtbot.addWidget(win)
    assert win.controller.snapshot is not None
    win.close()


# --------------------------------------------------------------------------
# autosave: a maximum wait, no stale temporary files, private, never through a link
# --------------------------------------------------------------------------

def test_autosave_writes_while_edits_keep_coming(window, qtbot, tmp_path):
    from gui.system.autosave import Autosave

    auto = Autosave(window.controller, tmp_path / "a" / "autosave.toml", delay_ms=60_000, max_wait_ms=200)
    for n in range(20):  # a change every 50 ms for a second: the pause never comes
        window.controller.set_value("cluster.nodes", 30 + n)
        qtbot.wait(50)
    assert auto.writes >= 1
    assert model.load_scenario(auto.path).cluster.nodes > 30


def test_stale_temporary_files_are_removed_at_start(qtbot, settings_file):
    from gui.app import build_window

    folder = settings_file.parent
    folder.mkdir(parents=True)
    stale = folder / ".autosave.toml.k1ll3d.tmp"
    fresh = folder / ".autosave.toml.wr1t1ng.tmp"  # another instance, writing right now
    other = folder / "notes.tmp"
    for p in (stale, fresh, other):
        p.write_text("x")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    win = build_window()
    qtbot.addWidget(win)
    assert not stale.exists() and fresh.exists() and other.exists()
    win.close()


@POSIX
def test_autosave_recent_files_and_settings_are_private(window, qtbot, settings_file, tmp_path):
    from gui.system.settings import app_settings

    app_settings().sync()
    window.controller.set_value("cluster.nodes", 33)
    settle(window)
    assert window.file_actions.autosave.write_now()
    scen = tmp_path / "mine.toml"
    files.save_scenario(window.controller.scenario, scen)
    assert window.file_actions.open_path(scen)  # adds it to the recent files
    folder = settings_file.parent
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in ("autosave.toml", "recent.json", settings_file.name):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name


@POSIX
def test_autosave_never_writes_through_a_link(window, tmp_path):
    from gui.system.autosave import Autosave

    target = tmp_path / "elsewhere.toml"
    target.write_text("not yours")
    link = tmp_path / "autosave.toml"
    link.symlink_to(target)
    auto = Autosave(window.controller, link)
    messages = []
    auto.failed.connect(messages.append)
    assert not auto.write_now()
    assert target.read_text() == "not yours" and link.is_symlink()
    assert messages and "symbolic link" in messages[0]


# --------------------------------------------------------------------------
# labels are plain text; a bad number says so
# --------------------------------------------------------------------------

def test_a_label_with_markup_is_shown_as_text_in_the_legend(window, qtbot):
    label = "<img src='/etc/passwd'><b>RoCE</b>"
    with qtbot.waitSignal(window.controller.recomputed, timeout=5000):
        assert window.controller.set_value("fabric.custom.mine.transport", "roce")
    with qtbot.waitSignal(window.controller.recomputed, timeout=5000):
        assert window.controller.set_value("fabric.custom.mine.label", label)
    texts = [item.text for _, item in window.charts["utilisation"].legend.items]
    shown = next(t for t in texts if "RoCE" in t and "img" in t)
    assert "&lt;img src=&#x27;/etc/passwd&#x27;&gt;&lt;b&gt;" in shown and "<img" not in shown


@pytest.mark.parametrize("typed", ["nan", "inf", "-inf"])
def test_nan_or_inf_in_a_whole_number_box_is_refused_with_a_message(window, qtbot, typed):
    slider = window.sliders["cluster.nodes"]
    before = window.controller.scenario
    shown = slider.edit.text()
    slider.edit.setText(typed)
    slider.edit.editingFinished.emit()
    settle(window)
    assert window.controller.scenario == before
    # the field as the window labels it, not its dotted name
    assert window.error_label.text().startswith("Nodes = ") and "cluster.nodes" not in window.error_label.text()
    assert slider.edit.text() == shown


# --------------------------------------------------------------------------
# the calibrate dialog reads off the UI thread, bounded
# --------------------------------------------------------------------------

@pytest.fixture
def calibrate(calibrate_dialog):
    return calibrate_dialog


def test_the_calibrate_dialog_reads_off_the_ui_thread(calibrate, tmp_path, monkeypatch):
    from synthetic_nccl import nccl_log

    p = tmp_path / "allreduce.txt"
    p.write_text(nccl_log(40.0, 46.0))
    threads = []
    real = files.read_text_bounded

    def spy(*a, **k):
        threads.append(threading.get_ident())
        return real(*a, **k)

    monkeypatch.setattr(files, "read_text_bounded", spy)
    calibrate.link.setValue(400.0)
    assert calibrate.load_file(str(p))
    assert threads and threads[0] != threading.get_ident()
    assert len(calibrate.points.getData()[0]) == 12


@POSIX
def test_the_calibrate_dialog_refuses_a_pipe_and_a_huge_log(calibrate, tmp_path):
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    calibrate.set_text("keep me")
    assert not calibrate.load_file(str(fifo))
    assert "named pipe" in calibrate.error_label.text()
    assert calibrate.text.toPlainText() == "keep me"
    big = tmp_path / "huge.log"
    with open(big, "wb") as fh:
        fh.truncate(files.MAX_LOG_BYTES + 1)
    assert not calibrate.load_file(str(big))
    assert "16 MiB" in calibrate.error_label.text()
    assert calibrate.text.toPlainText() == "keep me"
    assert calibrate.fit is None and not calibrate.save_button.isEnabled()


def test_a_label_cannot_become_a_spreadsheet_formula(window, qtbot, tmp_path):
    import csv

    from gui.export.charts import series_csv

    c = window.controller
    assert c.set_values({"fabric.custom.roce.label": "=HYPERLINK(\"http://x\",\"y\")"})
    settle(window)
    lines = series_csv(c.snapshot.sweep, "utilisation").splitlines()
    head = next(csv.reader(x for x in lines if not x.startswith("#")))
    assert any(h.startswith("'=HYPERLINK") for h in head) and not any(h.startswith("=") for h in head)
    f = window.features
    f.pin()
    f.settle_now()
    with open(f.export_compare(tmp_path / "ab.csv"), encoding="utf-8") as fh:
        labels = [row[0] for row in csv.reader(fh)]
    assert "'=HYPERLINK(\"http://x\",\"y\")" in labels
