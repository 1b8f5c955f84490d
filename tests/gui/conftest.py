"""Fixtures for the GUI tests: a window on the default preset, settings in a temp folder."""

from __future__ import annotations

import pytest

from guihelpers import settle

# The offscreen plugin's "does not support propagateSizeHints()" notice is ignored for every
# test by qt_log_ignore in pyproject.toml.


@pytest.fixture
def isolated_settings(settings_file):
    """The test's own settings file (tests/conftest.py), its folder made so a test can write it."""
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    return settings_file


@pytest.fixture
def zh(window, qtbot):
    """The window switched to Simplified Chinese (English again afterwards)."""
    from gui import i18n

    new = i18n.switch_language(window, "zh_CN")
    qtbot.addWidget(new)
    settle(new)
    yield new
    i18n.set_language("en")
    new.close()


@pytest.fixture
def window(qtbot):
    from gui.app import build_window

    win = build_window(restore=False)
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    settle(win)  # as the window stands once the start-up settles (a chart in a hidden tab drawn too)
    yield win
    win.close()


def _open(qtbot, dlg):
    qtbot.addWidget(dlg)
    yield dlg
    dlg.close()


@pytest.fixture
def calibrate_dialog(window, qtbot):
    """The window's calibrate dialog, open."""
    yield from _open(qtbot, window.features.open_calibrate())


@pytest.fixture
def nccl_dialog(window, qtbot):
    """The window's nccl-tests prediction dialog, open."""
    yield from _open(qtbot, window.features.open_nccl_tests())
