"""Scenario files on disk: atomic writes, save/open, and the recent-files list.

Every write goes to a temporary file in the destination's folder and is then
renamed over the destination (:func:`os.replace`), so a crash, a full disk or a
killed process leaves either the old file or the new one, never half of one,
and no stray temporary file. Every problem is a :class:`ScenarioError` naming
the file, what was wrong and what is allowed, like a bad value in a scenario.

Every read goes through :func:`read_bounded`: only regular files (a FIFO, a device, a
socket or a folder is refused, also behind a symlink, without blocking), and bounded by the
bytes actually read, not by the size the file system reports (``/dev/zero`` or a file that
grows while it is read is cut off at the limit and refused).

Qt-free: the GUI's dialogs, the autosave and the command line call these.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from pathlib import Path

from .errors import ScenarioError
from .scenario import MAX_FILE_BYTES, Scenario, load_scenario, parse_scenario_text, scenario_to_toml

__all__ = ["MAX_LOG_BYTES", "RecentFiles", "atomic_write", "check_writable", "edit_scenario_file", "open_scenario",
           "read_bounded", "read_text_bounded", "save_scenario"]

SCENARIO_SUFFIX = ".toml"
# nccl-tests output: a sweep of 8 B … 8 GiB is 31 rows (~3 KB); with NCCL_DEBUG=INFO every rank adds
# ~100 lines, so 1,024 ranks stay near 10 MB. 16 MiB holds that and keeps a parse to a few seconds.
MAX_LOG_BYTES = 16 * 1024 * 1024
# the recent-files store: eight paths; anything much larger is not ours
MAX_RECENT_BYTES = 256 * 1024
_READ_CHUNK = 1 << 16


def _kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _size_text(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB" if n >= 1024 * 1024 else f"{n} bytes"


def read_bounded(path, *, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Opens without blocking (a FIFO without a writer would wait for ever), checks what was
    opened (not what the name pointed to a moment before), and reads at most ``limit + 1``
    bytes: more than ``limit`` is refused whatever ``st_size`` says. Every problem is a
    :class:`ScenarioError` naming the path, what it is and what is allowed.
    """
    p = Path(path)
    allowed = f"a regular {what}"
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError:
        raise ScenarioError(str(p), "missing", f"an existing {what}") from None
    except IsADirectoryError:
        raise ScenarioError(str(p), "a folder", allowed) from None
    except OSError as err:
        if p.is_dir():  # Windows: opening a folder is "permission denied"
            raise ScenarioError(str(p), "a folder", allowed) from None
        raise ScenarioError(str(p), "unreadable", f"a readable {what} ({err.strerror or err})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ScenarioError(str(p), _kind_of(mode), allowed)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(_READ_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as err:
        raise ScenarioError(str(p), "unreadable", f"a readable {what} ({err.strerror or err})") from None
    finally:
        os.close(fd)
    if total > limit:
        raise ScenarioError(str(p), f"more than {_size_text(limit)}", f"a {what} of at most {_size_text(limit)}")
    return b"".join(chunks)


def read_text_bounded(path, *, limit: int, what: str = "file", errors: str = "strict") -> str:
    """:func:`read_bounded`, decoded as UTF-8 (a byte-order mark is dropped).

    ``errors="strict"`` refuses bytes that are not UTF-8 with a :class:`ScenarioError`;
    ``"replace"`` keeps going (logs, where a stray byte does not matter).
    """
    raw = read_bounded(path, limit=limit, what=what)
    try:
        return raw.decode("utf-8-sig", errors=errors)
    except UnicodeDecodeError:
        raise ScenarioError(str(path), "binary data", f"a UTF-8 text {what}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_writable(path, *, follow_symlinks: bool = True) -> Path:
    """Fail early, with a clear message, when ``path`` cannot be written; return the path to write.

    Checks that the folder exists and is a folder and that ``path`` is not a folder, a
    named pipe, a device or a socket (a rename would replace it with a regular file).
    A symlink to a regular file is followed (the link stays, its target is replaced), or
    refused with ``follow_symlinks=False``. Whether the folder accepts the write is found
    out by writing.
    """
    p = Path(path)
    if str(path) == "" or p.name in ("", ".", ".."):
        raise ScenarioError(str(path), "no file name", "a path ending in a file name")
    if p.is_symlink():
        if not follow_symlinks:
            raise ScenarioError(str(p), "a symbolic link", "a regular file or a new file name")
        try:
            target = p.resolve()
        except (OSError, RuntimeError):  # a loop of links
            raise ScenarioError(str(p), "a loop of symbolic links", "a regular file or a new file name") from None
        if target.exists() and not target.is_file():
            kind = "a folder" if target.is_dir() else _kind_of(target.stat().st_mode)
            raise ScenarioError(str(p), f"a link to {kind}", "a regular file or a new file name")
        p = target
    if p.is_dir():
        raise ScenarioError(str(p), "a folder", "a file path to write, not a folder")
    try:
        mode = os.stat(p).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise ScenarioError(str(p), _kind_of(mode), "a regular file or a new file name")
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


def atomic_write(path, data: bytes | str, *, mode: int | None = None, follow_symlinks: bool = True) -> Path:
    """Write ``data`` to ``path`` atomically: a temporary file beside it, then a rename.

    Keeps the permissions of a file it replaces (new files get the usual
    0666 & ~umask), unless ``mode`` is given (the autosave: 0600). Never writes
    over a folder, a named pipe, a device or a socket (:func:`check_writable`).
    On any failure the temporary file is removed, the old file (if any) is
    untouched, and a :class:`ScenarioError` names the path.
    """
    p = check_writable(path, follow_symlinks=follow_symlinks)
    if isinstance(data, str):
        data = data.encode("utf-8")
    if mode is None:
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
    """Save ``scenario`` as TOML at ``path`` (a ``.toml`` name), atomically; :func:`load_scenario` reads back
    an equal scenario."""
    suffix = Path(path).suffix
    if suffix.lower() != SCENARIO_SUFFIX:
        raise ScenarioError(str(path), suffix or "no extension", "a scenario file name ending in .toml")
    text = scenario_to_toml(scenario)
    size = len(text.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise ScenarioError("description", f"{size} bytes",
                            f"a scenario that saves to at most {MAX_FILE_BYTES} bytes (shorten the description)")
    return atomic_write(path, text)


def edit_scenario_file(source, changes: dict, out, *, overwrite: bool = False) -> Path:
    """Write the scenario file ``source`` with ``changes`` (dotted paths, as :meth:`Scenario.replace_many`)
    to ``out``, keeping the file's comments, order and layout (tomlkit).

    ``out`` must be a new file unless ``overwrite`` (it may be ``source`` itself). The result is
    validated before anything is written and must read back as ``source``'s scenario with
    ``changes``; every problem is a :class:`ScenarioError` and leaves every file as it was.
    """
    import tomlkit

    src, dest = Path(source), Path(out)
    if dest.suffix.lower() != SCENARIO_SUFFIX:
        raise ScenarioError(str(dest), dest.suffix or "no extension", "a scenario file name ending in .toml")
    if not overwrite and (dest.exists() or dest.is_symlink()):
        raise ScenarioError(str(dest), "exists", "a new file name (or ask to overwrite it)")
    text = read_text_bounded(src, limit=MAX_FILE_BYTES, what="scenario file (.toml)")
    expected = parse_scenario_text(text, source=str(src)).replace_many(changes)
    try:
        doc = tomlkit.parse(text)
        for path, value in changes.items():
            *parents, key = path.split(".")
            table = doc
            for name in parents:
                if name not in table:
                    table[name] = tomlkit.table(is_super_table=True)
                table = table[name]
            if value is None:
                table.pop(key, None)
            else:
                table[key] = value
        new_text = tomlkit.dumps(doc)
    except (tomlkit.exceptions.TOMLKitError, TypeError, ValueError) as err:
        raise ScenarioError(str(src), "layout", f"a scenario file whose tables can take the new values ({err})") \
            from None
    if parse_scenario_text(new_text, source=str(dest)) != expected:
        raise ScenarioError(str(src), "layout", "a scenario file whose tables can take the new values")
    return atomic_write(dest, new_text)


def open_scenario(path) -> Scenario:
    """Load a scenario file (the same as :func:`model.load_scenario`; here for symmetry with save)."""
    return load_scenario(path)


class RecentFiles:
    """The most recently opened or saved scenario files, newest first, kept in a small JSON file.

    A missing, unreadable, garbled, oversized, deeply nested or special (FIFO, device)
    store reads as an empty list: the list is a convenience and must never stop the app
    from starting.
    """

    def __init__(self, store, limit: int = 8):
        self.store = Path(store)
        self.limit = limit

    def paths(self) -> list[str]:
        try:
            raw = json.loads(read_text_bounded(self.store, limit=MAX_RECENT_BYTES, what="recent-files list"))
        except (OSError, ValueError, RecursionError):  # ScenarioError is a ValueError
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
            self.store.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            atomic_write(self.store, json.dumps({"recent": items}, indent=1, ensure_ascii=False), mode=0o600,
                         follow_symlinks=False)
        except (OSError, ScenarioError):
            pass  # a read-only config folder costs the list, not the work
        return items
