"""The main window, by part: :mod:`.main` assembles it; :mod:`.controls_panel` binds the controls to
scenario fields from their metadata; :mod:`.control_texts` writes their tooltips and the titles;
:mod:`.point_panel` shows the current point; :mod:`.presets` lists the presets; :mod:`.persistence`
keeps the window and its scenario between sessions."""

from .main import APP_NAME, MainWindow
from .persistence import restore_scenario
from .presets import DEFAULT_PRESET, list_presets

__all__ = ["APP_NAME", "DEFAULT_PRESET", "MainWindow", "list_presets", "restore_scenario"]
