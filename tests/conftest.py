"""Test-wide setup: Qt runs offscreen (no display needed), set before any Qt import; settings isolated."""

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def settings_file(tmp_path, monkeypatch):
    """Every test keeps the app's settings, recent files and autosave in its own temporary folder
    (never the user's); the folder itself is not created, as on a first start."""
    path = tmp_path / "config" / "settings.ini"
    monkeypatch.setenv("FABRIC_WHATIF_SETTINGS", str(path))
    return path
