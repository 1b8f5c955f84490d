"""Fixtures for the GUI tests: a window on the default preset, settings in a temp folder."""

from __future__ import annotations

import pytest

# The offscreen plugin's "does not support propagateSizeHints()" notice is ignored for every
# test by qt_log_ignore in pyproject.toml.


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path, monkeypatch):
    path = tmp_path / "settings.ini"
    monkeypatch.setenv("FABRIC_WHATIF_SETTINGS", str(path))
    return path


@pytest.fixture
def window(qtbot):
    from gui.app import build_window

    win = build_window(restore=False)
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()
