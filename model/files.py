"""Scenario files on disk: atomic writes, save/open, and the recent-files list.

Every write goes to a temporary file in the destination's folder and is then
renamed over the destination (:func:`os.replace`), so a crash, a full disk or a
killed process leaves either the old file or the new one, never half of one,
and no stray temporary file. Every problem is a :class:`ScenarioError` naming
the file, what was wrong and what is allowed, like a bad value in a scenario.

Qt-free: the GUI's dialogs, the autosave and the command line call these.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from .errors import ScenarioError
from .scenario import MAX_FILE_BYTES, Scenario, load_scenario, scenario_to_toml

__all__ = ["RecentFiles", "atomic_write", "check_writable", "save_scenario", "open_scenario"]

SCENARIO_SUFFIX = ".toml"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_writable(path) -> Path:
    """Fail early, with a clear message, when ``path`` cannot be written.

    Checks that the folder exists and is a folder and that ``path`` is not a
    folder; whether the folder accepts the write is found out by writing.
    """
    p = Path(path)
    if str(path) == "" or p.name in ("", ".", ".."):
        raise ScenarioError(str(path), "no file name", "a path ending in a file name")
    if p.is_dir():
        raise ScenarioError(str(p), "a folder", "a file path to write, not a folder")
    parent = p.parent
    if not parent.exists():
        # Walk up to say exactly which part of the path is wrong.
        bad = parent
        while not bad.parent.exists() and bad.parent != bad:
            bad = bad.parent
        if bad.parent.exists() and not bad.parent.is_dir():
            raise ScenarioError(str(p), "not writable",
                                f"a path inside a folder ({bad.parent} is a file, not a folder)")
        raise ScenarioError(str(p), "not writable", f"a path inside an existing folder ({parent} does not exist)")
    if not parent.is_dir():
        raise ScenarioError(str(p), "not writable", f"a path inside a folder ({parent} is a file, not a folder)")
    return p


def atomic_write(path, data: bytes | str) -> Path:
    """Write ``data`` to ``path`` atomically: a temporary file beside it, then a rename.

    Keeps the permissions of a file it replaces (new files get the usual
    0666 & ~umask). On any failure the temporary file is removed, the old
    file (if any) is untouched, and a :class:`ScenarioError` names the path.
    """
    p = check_writable(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        mode = p.stat().st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_umask()
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, p)
        tmp = None
    except OSError as err:
        raise ScenarioError(str(p), "not writable", f"a writable file path ({err.strerror or err})") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _fsync_dir(p.parent)
    return p


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless where unsupported."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def save_scenario(scenario: Scenario, path) -> Path:
    """Save ``scenario`` as TOML at ``path``, atomically; :func:`load_scenario` reads back an equal scenario."""
    text = scenario_to_toml(scenario)
    size = len(text.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise ScenarioError("description", f"{size} bytes",
                            f"a scenario that saves to at most {MAX_FILE_BYTES} bytes (shorten the description)")
    return atomic_write(path, text)


def open_scenario(path) -> Scenario:
    """Load a scenario file (the same as :func:`model.load_scenario`; here for symmetry with save)."""
    return load_scenario(path)


class RecentFiles:
    """The most recently opened or saved scenario files, newest first, kept in a small JSON file.

    A missing, unreadable or garbled store reads as an empty list: the list is
    a convenience and must never stop the app from starting.
    """

    def __init__(self, store, limit: int = 8):
        self.store = Path(store)
        self.limit = limit

    def paths(self) -> list[str]:
        try:
            raw = json.loads(self.store.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        items = raw.get("recent") if isinstance(raw, dict) else None
        if not isinstance(items, list):
            return []
        out: list[str] = []
        for item in items:
            if isinstance(item, str) and item and item not in out:
                out.append(item)
        return out[: self.limit]

    def existing(self) -> list[str]:
        """The recent files that still exist."""
        return [p for p in self.paths() if Path(p).is_file()]

    def add(self, path) -> list[str]:
        entry = str(Path(path).resolve())
        items = [entry] + [p for p in self.paths() if p != entry]
        return self._write(items[: self.limit])

    def remove(self, path) -> list[str]:
        entry = str(Path(path).resolve())
        return self._write([p for p in self.paths() if p not in (entry, str(path))])

    def clear(self) -> list[str]:
        return self._write([])

    def _write(self, items: list[str]) -> list[str]:
        try:
            self.store.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.store, json.dumps({"recent": items}, indent=1, ensure_ascii=False))
        except (OSError, ScenarioError):
            pass  # a read-only config folder costs the list, not the work
        return items
