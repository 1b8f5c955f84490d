"""Fixtures for the GUI tests: a window on the default preset, settings in a temp folder."""

from __future__ import annotations

import pytest

# The offscreen platform plugin warns on every QMainWindow.show() ("This plugin does not
# support propagateSizeHints()"); real desktop platforms do not. Ignore exactly that one.
OFFSCREEN_NOISE = r"This plugin does not support propagateSizeHints\(\)"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/gui" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


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
