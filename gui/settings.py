"""Where the app keeps window geometry and the last scenario between runs.

An INI file in the platform's app-config folder (``QStandardPaths.AppConfigLocation``),
or the file named by ``FABRIC_WHATIF_SETTINGS`` (tests and benchmarks point it at a
temporary folder so they never touch a user's settings).
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6 import QtCore

ENV = "FABRIC_WHATIF_SETTINGS"
ORGANISATION = "FabricWhatIf"
APPLICATION = "Fabric What-If"


def settings_path() -> Path:
    env = os.environ.get(ENV)
    if env:
        return Path(env)
    base = QtCore.QStandardPaths.writableLocation(QtCore.QStandardPaths.StandardLocation.AppConfigLocation)
    if not base:
        base = str(Path.home() / ".config" / "fabric-whatif")
    return Path(base) / "fabric-whatif.ini"


def app_settings() -> QtCore.QSettings:
    path = settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # an unwritable config folder costs the saved settings and autosave, never the start (#5)
    return QtCore.QSettings(str(path), QtCore.QSettings.Format.IniFormat)


__all__ = ["APPLICATION", "ENV", "ORGANISATION", "app_settings", "settings_path"]
