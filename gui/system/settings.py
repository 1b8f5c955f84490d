"""Where the app keeps window geometry and the last scenario between runs.

An INI file in the platform's app-config folder (``QStandardPaths.AppConfigLocation``),
or the file named by ``FABRIC_WHATIF_SETTINGS`` (tests and benchmarks point it at a
temporary folder so they never touch a user's settings).
"""

from __future__ import annotations

import os
import stat
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
    """The app's settings; the folder is created 0700 and the file 0600 (it holds the last scenario).

    QSettings saves through a temporary file that takes the existing file's permissions, so
    the file is created private here before QSettings first writes it."""
    path = settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path, flags, 0o600)  # never blocks on a FIFO, never follows a link
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode) and hasattr(os, "fchmod"):
                os.fchmod(fd, 0o600)  # a settings file from an older version was world-readable
        finally:
            os.close(fd)
    except OSError:
        pass  # an unwritable config folder costs the saved settings and autosave, never the start
    return QtCore.QSettings(str(path), QtCore.QSettings.Format.IniFormat)


# the last session's scenario, the one it was loaded as, and its file (gui.window.persistence writes them)
SCENARIO_KEYS = ("scenario/toml", "scenario/loaded_toml", "scenario/source")
BAD_SCENARIO_KEY = "scenario/bad_toml"


def set_aside_scenario(settings: QtCore.QSettings) -> None:
    """Move the last session's scenario, which no longer loads or evaluates, to ``scenario/bad_toml``: kept for
    a report, never read again, so the next start is clean (the autosave's ``autosave.bad.toml``, for the settings)."""
    text = settings.value(SCENARIO_KEYS[0])
    if isinstance(text, str):
        settings.setValue(BAD_SCENARIO_KEY, text)
    for key in SCENARIO_KEYS:
        settings.remove(key)
    settings.sync()


__all__ = ["APPLICATION", "BAD_SCENARIO_KEY", "ENV", "ORGANISATION", "SCENARIO_KEYS", "app_settings",
           "set_aside_scenario", "settings_path"]
