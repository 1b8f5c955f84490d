"""The window never bricks on a file it wrote itself, refuses an autosave link in a dialog, and shows a
message (not a traceback) for a path the system cannot look up."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import model

from gui.window import DEFAULT_PRESET  # what a start without a usable last session shows

HUGE_INTEGER = "[cluster]\nnodes = " + "1" * 5000 + "\n"  # Python converts at most 4,300 digits
LONG_NAME = "x" * 300  # longer than any file system's name limit


def _start(qtbot):
    from gui.app import build_window

    win = build_window()
    qtbot.addWidget(win)
    return win


def test_an_autosave_with_an_unconvertible_integer_is_set_aside_and_the_app_starts(qtbot, isolated_settings):
    autosave = isolated_settings.parent / "autosave.toml"
    autosave.write_text(HUGE_INTEGER)
    win = _start(qtbot)
    assert win.controller.scenario == model.load_scenario(DEFAULT_PRESET)
    assert not autosave.exists() and (isolated_settings.parent / "autosave.bad.toml").read_text() == HUGE_INTEGER
    win.close()


def test_a_settings_scenario_that_no_longer_reads_is_set_aside(qtbot, isolated_settings):
    from gui.system.settings import BAD_SCENARIO_KEY, app_settings

    st = app_settings()
    st.setValue("scenario/toml", HUGE_INTEGER)
    st.sync()
    win = _start(qtbot)
    assert win.controller.scenario == model.load_scenario(DEFAULT_PRESET)
    again = app_settings()
    assert again.value("scenario/toml") is None and again.value(BAD_SCENARIO_KEY) == HUGE_INTEGER
    win.close()


def test_opening_an_unconvertible_integer_shows_the_line_and_keeps_the_work(qtbot, window, tmp_path):
    bad = tmp_path / "big.toml"
    bad.write_text(HUGE_INTEGER)
    before = window.controller.scenario
    assert not window.file_actions.open_path(bad)
    assert window.controller.scenario == before
    assert window.file_actions.error_box.isVisible() and "line 2" in window.file_actions.last_error
    window.file_actions.error_box.close()


def test_an_autosave_link_is_refused_in_a_dialog_that_offers_a_fresh_file(qtbot, isolated_settings, tmp_path):
    target = tmp_path / "elsewhere.toml"
    model.files.save_scenario(model.load_scenario(DEFAULT_PRESET).replace("cluster.nodes", 5), target)
    kept = target.read_bytes()
    link = isolated_settings.parent / "autosave.toml"
    link.symlink_to(target)
    win = _start(qtbot)
    fa = win.file_actions
    qtbot.waitUntil(lambda: fa.link_box is not None and fa.link_box.isVisible(), timeout=5000)
    assert str(target) in fa.link_box.informativeText()
    assert win.controller.scenario.cluster.nodes != 5  # not read through the link
    assert not fa.autosave.write_now()  # nor written through it while the user decides
    fa.fresh_autosave_button.click()
    aside = isolated_settings.parent / "autosave.bad.toml"
    assert aside.is_symlink() and os.readlink(aside) == str(target)
    assert link.is_file() and not link.is_symlink()
    assert model.load_scenario(link) == win.controller.scenario
    assert target.read_bytes() == kept
    win.close()


@pytest.mark.parametrize("action", ["open", "save", "export"])
def test_a_path_too_long_to_look_up_shows_a_message(qtbot, window, tmp_path, action):
    fa = window.file_actions
    bad = tmp_path / LONG_NAME / "s"
    before = window.controller.scenario
    done = {"open": lambda: fa.open_path(str(bad) + ".toml"), "save": lambda: fa.save_to(str(bad) + ".toml"),
            "export": lambda: fa.export_chart_to("tco", str(bad) + ".csv")}[action]()
    assert not done and window.controller.scenario == before
    assert fa.error_box.isVisible() and LONG_NAME in fa.last_error
    fa.error_box.close()


def test_screenshot_to_a_path_that_cannot_be_written_is_one_line_exit_2(qtbot, tmp_path, capsys):
    from gui.app import main

    assert main(["--default", "--screenshot", str(tmp_path / LONG_NAME / "w.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and LONG_NAME in err


def test_the_app_usage_errors_are_one_line_exit_2(capsys):
    from gui.app import main

    with pytest.raises(SystemExit) as stop:
        main(["--bogus"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and "--bogus" in err
