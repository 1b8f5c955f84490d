"""The main window, by part: :mod:`.main` assembles it from the panels (:mod:`gui.panels`) and charts
(:mod:`gui.charts`); :mod:`.controller` holds the current scenario, x-axis and results and
:mod:`.signals` turns the session's changes into Qt signals; :mod:`.file_actions` is the File menu;
:mod:`.presets` lists the presets; :mod:`.persistence` keeps the window and its scenario between
sessions."""

from gui.window.main import APP_NAME, MainWindow
from gui.window.persistence import restore_scenario
from gui.window.presets import DEFAULT_PRESET, list_presets

__all__ = ["APP_NAME", "DEFAULT_PRESET", "MainWindow", "list_presets", "restore_scenario"]
