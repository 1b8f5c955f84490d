"""Autosave: the working scenario, written to the user's config folder on every change.

A crash, a power cut or a killed process loses nothing: every scenario the engine has
evaluated (a slider, a preset, Open: the controller's ``recomputed``) schedules a write,
debounced so a slider drag writes once when it pauses (:data:`DELAY_MS`), but never later
than :data:`MAX_WAIT_MS` after the first unsaved change (edits that keep coming still reach
the disk). Each write is atomic (temporary file beside it, then rename:
:func:`model.files.atomic_write`), so the file on disk is always a whole scenario; the
temporary files a killed write leaves behind are removed at the next start.

Only scenarios that evaluate are written: one that fails to evaluate is refused by the
controller and never reaches the autosave. The next start reads the autosave back
(:func:`restore_autosave`) only if it still loads and evaluates; otherwise it is set aside
as ``autosave.bad.toml`` (then ``autosave.bad-2.toml`` ..., never overwritten) and the app
starts with its default.

The file sits beside the app's settings (``autosave.toml`` in the folder of
``QStandardPaths.AppConfigLocation``, or of ``FABRIC_WHATIF_SETTINGS``), so tests that
isolate the settings isolate the autosave too. It is an ordinary scenario file: a user
can open it like any other. It is private: 0600 in a folder created 0700, and never a
symlink, pipe or device (refused, not written through). An autosave that is a symlink is
neither read nor written: the window says so at start and offers a fresh file (the link is
set aside, what it points to is left alone).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from PySide6 import QtCore

import model
from model import ScenarioError
from model.files import atomic_write

FILE_NAME = "autosave.toml"
BAD_NAME = "autosave.bad"
DELAY_MS = 400
MAX_WAIT_MS = 2000
FILE_MODE = 0o600
FOLDER_MODE = 0o700
# a temporary file older than this is left over from a killed write (a live write takes milliseconds)
STALE_TEMP_S = 60.0


def autosave_path(settings: QtCore.QSettings | None = None) -> Path:
    """Where the autosave lives: beside ``settings``' file (default: the app's settings)."""
    if settings is not None and settings.fileName():
        return Path(settings.fileName()).parent / FILE_NAME
    from gui.system.settings import settings_path

    return settings_path().parent / FILE_NAME


def evaluation_problem(scenario: model.Scenario) -> str | None:
    """Why ``scenario`` cannot be shown (one line), or ``None`` when the engine evaluates it."""
    try:
        model.evaluate(scenario, require_feasible=False)
    except model.EVALUATION_FAILURES as err:
        return str(model.evaluation_error(err, scenario.name))
    return None


def set_aside(path: Path) -> Path | None:
    """Move ``path`` to the first free ``autosave.bad.toml``, ``autosave.bad-2.toml`` ... (never overwrites)."""
    n = 1
    while True:
        target = path.with_name(f"{BAD_NAME}.toml" if n == 1 else f"{BAD_NAME}-{n}.toml")
        if not os.path.lexists(target):
            try:
                os.rename(path, target)
            except OSError:
                return None
            return target
        n += 1


def restore_autosave(settings: QtCore.QSettings | None = None) -> model.Scenario | None:
    """The autosaved scenario, or ``None`` when there is none or it does not load and evaluate.

    A file that no longer loads or evaluates (written by a newer version, edited by hand,
    a hostile file) is set aside (:func:`set_aside`) rather than overwritten, so nothing in
    it is lost and the next start is clean.
    """
    path = autosave_path(settings)
    if not os.path.lexists(path) or os.path.islink(path):  # a link is never read through (see link_target)
        return None
    try:
        scenario = model.load_scenario(path)
    except model.EVALUATION_FAILURES:  # the load's guard names everything as a ScenarioError; belt and braces
        set_aside(path)
        return None
    if evaluation_problem(scenario) is not None:
        set_aside(path)
        return None
    return scenario


def link_target(path: Path) -> str | None:
    """What the autosave ``path`` points to when it is a symbolic link (the start refuses it in a dialog,
    :meth:`gui.window.file_actions.FileActions.refuse_autosave_link`), else ``None``."""
    if not os.path.islink(path):
        return None
    try:
        return os.readlink(path)
    except OSError:
        return "?"


def remove_stale_temp_files(folder: Path, now: float | None = None) -> int:
    """Remove the ``.autosave.toml.*.tmp`` files killed writes left in ``folder``; how many went."""
    now = time.time() if now is None else now
    gone = 0
    with contextlib.suppress(OSError):
        for p in folder.glob(f".{FILE_NAME}.*.tmp"):
            with contextlib.suppress(OSError):
                st = p.lstat()
                if p.is_file() and not p.is_symlink() and now - st.st_mtime > STALE_TEMP_S:
                    p.unlink()
                    gone += 1
    return gone


def make_private_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents) for the autosave, 0700; an existing one is left as it is."""
    with contextlib.suppress(OSError):  # if it cannot be made, atomic_write says why, naming the path
        folder.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)


class Autosave(QtCore.QObject):
    """Writes the controller's last evaluated scenario to ``path`` a moment after each change (and on :meth:`flush`)."""

    written = QtCore.Signal(str)   # the path, after each successful write
    failed = QtCore.Signal(str)    # the ScenarioError message (e.g. a read-only config folder)

    def __init__(self, controller, path, *, delay_ms: int = DELAY_MS, max_wait_ms: int = MAX_WAIT_MS,
                 parent: QtCore.QObject | None = None):
        super().__init__(parent or controller)
        self.controller = controller
        self.path = Path(path)
        self.writes = 0
        self.last_error = ""
        self.paused = False  # nothing is written (a refused autosave link waits for the user's answer)
        self._last_text: str | None = None
        self._timer = QtCore.QTimer(self)       # the pause after the last change
        self._timer.setSingleShot(True)
        self._timer.setInterval(int(delay_ms))
        self._timer.timeout.connect(self.write_now)
        self._deadline = QtCore.QTimer(self)    # the longest a change waits while changes keep coming
        self._deadline.setSingleShot(True)
        self._deadline.setInterval(int(max_wait_ms))
        self._deadline.timeout.connect(self.write_now)
        controller.recomputed.connect(self.schedule)  # evaluated scenarios only
        remove_stale_temp_files(self.path.parent)
        app = QtCore.QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.flush)

    @property
    def pending(self) -> bool:
        """A change waits to be written (or, not evaluated yet, to be written once it is)."""
        return self._timer.isActive() or self.controller.pending

    @QtCore.Slot()
    def schedule(self, *_) -> None:
        self._timer.start()  # restarts: a burst of changes writes once, after it ...
        if not self._deadline.isActive():
            self._deadline.start()  # ... or MAX_WAIT_MS after its first change, whichever comes first

    @QtCore.Slot()
    def flush(self) -> None:
        """Write now if a change is waiting (window close, quit); a change not yet evaluated is evaluated first."""
        if self.controller.pending:
            self.controller.recompute_now()
        if self._timer.isActive():
            self.write_now()

    def _scenario(self) -> model.Scenario:
        snap = self.controller.snapshot
        return snap.scenario if snap is not None else self.controller.scenario

    @QtCore.Slot()
    def write_now(self) -> bool:
        self._timer.stop()
        self._deadline.stop()
        if self.paused:
            return False
        text = model.scenario_to_toml(self._scenario())
        if text == self._last_text and self.path.exists():
            return True
        make_private_folder(self.path.parent)
        try:
            atomic_write(self.path, text, mode=FILE_MODE, follow_symlinks=False)
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


__all__ = ["Autosave", "DELAY_MS", "FILE_NAME", "MAX_WAIT_MS", "autosave_path", "evaluation_problem", "link_target",
           "remove_stale_temp_files", "restore_autosave", "set_aside"]
