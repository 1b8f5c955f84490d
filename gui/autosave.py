"""Autosave: the working scenario, written to the user's config folder on every change.

A crash, a power cut or a killed process loses nothing: every accepted change of the
controller's scenario (a slider, a preset, Open) schedules a write, debounced so a slider
drag writes once when it pauses (:data:`DELAY_MS`), and each write is atomic (temporary
file beside it, then rename: :func:`model.files.atomic_write`), so the file on disk is
always a whole scenario. The next start reads it back (:func:`restore_autosave`).

The file sits beside the app's settings (``autosave.toml`` in the folder of
``QStandardPaths.AppConfigLocation``, or of ``FABRIC_WHATIF_SETTINGS``), so tests that
isolate the settings isolate the autosave too. It is an ordinary scenario file: a user
can open it like any other.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from PySide6 import QtCore

import model
from model import ScenarioError
from model.files import atomic_write

FILE_NAME = "autosave.toml"
DELAY_MS = 400


def autosave_path(settings: QtCore.QSettings | None = None) -> Path:
    """Where the autosave lives: beside ``settings``' file (default: the app's settings)."""
    if settings is not None and settings.fileName():
        return Path(settings.fileName()).parent / FILE_NAME
    from .settings import settings_path

    return settings_path().parent / FILE_NAME


def restore_autosave(settings: QtCore.QSettings | None = None) -> model.Scenario | None:
    """The autosaved scenario, or ``None`` when there is none or it does not load.

    A file that no longer loads (written by a newer version, edited by hand) is kept as
    ``autosave.bad.toml`` rather than overwritten, so nothing in it is lost.
    """
    path = autosave_path(settings)
    if not path.exists():
        return None
    try:
        return model.load_scenario(path)
    except ScenarioError:
        with contextlib.suppress(OSError):
            os.replace(path, path.with_name("autosave.bad.toml"))
        return None


class Autosave(QtCore.QObject):
    """Writes ``controller.scenario`` to ``path`` a moment after each change (and on :meth:`flush`)."""

    written = QtCore.Signal(str)   # the path, after each successful write
    failed = QtCore.Signal(str)    # the ScenarioError message (e.g. a read-only config folder)

    def __init__(self, controller, path, *, delay_ms: int = DELAY_MS, parent: QtCore.QObject | None = None):
        super().__init__(parent or controller)
        self.controller = controller
        self.path = Path(path)
        self.writes = 0
        self.last_error = ""
        self._last_text: str | None = None
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(int(delay_ms))
        self._timer.timeout.connect(self.write_now)
        controller.scenarioChanged.connect(self.schedule)
        app = QtCore.QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.flush)

    @property
    def pending(self) -> bool:
        return self._timer.isActive()

    @QtCore.Slot()
    def schedule(self, *_) -> None:
        self._timer.start()  # restarts: a burst of changes writes once, after it

    @QtCore.Slot()
    def flush(self) -> None:
        """Write now if a change is waiting (window close, quit)."""
        if self._timer.isActive():
            self.write_now()

    @QtCore.Slot()
    def write_now(self) -> bool:
        self._timer.stop()
        text = model.scenario_to_toml(self.controller.scenario)
        if text == self._last_text and self.path.exists():
            return True
        with contextlib.suppress(OSError):  # if it cannot be made, atomic_write says why, naming the path
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            atomic_write(self.path, text)
        except ScenarioError as err:
            msg = str(err)
            if msg != self.last_error:  # say it once, not on every slider step
                self.last_error = msg
                self.failed.emit(msg)
            return False
        self.last_error = ""
        self._last_text = text
        self.writes += 1
        self.written.emit(str(self.path))
        return True


__all__ = ["Autosave", "DELAY_MS", "FILE_NAME", "autosave_path", "restore_autosave"]
