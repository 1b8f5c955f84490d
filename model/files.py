"""Scenario files on disk: the TOML text, atomic writes, save/open, and the recent-files list.

Every write goes to a temporary file in the destination's folder and is then
renamed over the destination (:func:`os.replace`), so a crash, a full disk or a
killed process leaves either the old file or the new one, never half of one,
and no stray temporary file. Every problem is a :class:`ScenarioError` naming
the file, what was wrong and what is allowed, like a bad value in a scenario.

Every read goes through :func:`read_bounded`: only regular files (a FIFO, a device, a
socket or a folder is refused, also behind a symlink, without blocking), and bounded by the
bytes actually read, not by the size the file system reports (``/dev/zero`` or a file that
grows while it is read is cut off at the limit and refused).

Every TOML text read (a file, File ▸ Open, the autosave, the scenario kept in the app's
settings) goes through :func:`parse_toml`: bounds that make the parser slow or fail outside
TOML's own errors (a key of thousands of dotted parts, an integer of thousands of digits)
are checked before it parses, and whatever the parser or its conversions raise becomes a
:class:`ScenarioError` naming the text's source and, where known, the line.

Qt-free: the GUI's dialogs, the autosave and the command line call these.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import tempfile
import tomllib
from pathlib import Path

import tomli_w
import tomlkit

from .errors import ScenarioError
from .scenario import MAX_FILE_BYTES, Scenario, scenario_from_dict, scenario_to_dict

__all__ = ["MAX_KEY_PARTS", "MAX_LOG_BYTES", "MAX_NUMBER_CHARS", "RecentFiles", "atomic_write", "check_writable",
           "edit_scenario_file", "load_scenario", "open_scenario", "parse_scenario_text", "parse_toml",
           "path_exists", "read_bounded", "read_text_bounded", "save_scenario", "scenario_to_toml", "unusable_path"]

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


def _mode_or_zero(path) -> int:
    """``path``'s ``st_mode``, or 0 when it is missing or cannot be looked up (for a question, not a check)."""
    try:
        return os.stat(path).st_mode
    except (OSError, ValueError):
        return 0


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
        if stat.S_ISDIR(_mode_or_zero(p)):  # Windows: opening a folder is "permission denied"
            raise ScenarioError(str(p), "a folder", allowed) from None
        raise ScenarioError(str(p), "unreadable", f"a readable {what} ({err.strerror or err})") from None
    except ValueError:  # a NUL character
        raise ScenarioError(str(p), "a NUL character", "a path without NUL characters") from None
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


# Bounds checked before a TOML text is parsed. A scenario's deepest key is fabric.custom.NAME.field (four parts);
# tomllib takes time and memory quadratic in a dotted key's parts (20,000 parts: 6.8 s and 1.5 GB). Its largest
# value (goals.budget_cny, 1e13) has 14 digits; Python refuses to convert an integer of more than 4,300 digits
# (a ValueError, not a TOML error). Design limits of this tool, with room to spare.
MAX_KEY_PARTS = 8
MAX_NUMBER_CHARS = 100

# TOML's comments and strings, each matched whatever follows (an unclosed string runs to the end of its line or of
# the text), so one left-to-right pass blanks them out in linear time
_COMMENTS_AND_STRINGS = re.compile(r"""
    \#[^\n]*
  | \"\"\"(?:[^\\]|\\.?)*?(?:\"\"\"|\Z)
  | '''.*?(?:'''|\Z)
  | "(?:[^"\\\n]|\\.?)*"?
  | '[^'\n]*'?
""", re.DOTALL | re.VERBOSE)
_KEY_END = r"=,\[\]{}\n"  # a key ends at its value's '=', a table header's bracket, an inline table's brace, a line
# a key of more than MAX_KEY_PARTS parts: a start right after a key's end, then MAX_KEY_PARTS dots before the next
# end (possessive, so each stretch is read once)
_DEEP_KEY = re.compile(r"(?:^|(?<=[%s]))[^%s.]*+(?:\.[^%s.]*+){%d}" % (_KEY_END, _KEY_END, _KEY_END, MAX_KEY_PARTS))
# a number as TOML writes one (an integer, a float's whole part, 0x/0o/0b) that is too long; not a float's fraction
_LONG_NUMBER = re.compile(r"(?<![\w.])[0-9][0-9A-Fa-fxob_]{%d,}" % MAX_NUMBER_CHARS)


def _check_toml_bounds(text: str, source: str) -> None:
    """Refuse, before parsing, a key of more than :data:`MAX_KEY_PARTS` dotted parts or a number of more than
    :data:`MAX_NUMBER_CHARS` characters outside the text's strings and comments, naming the line.

    Linear in the text, in ``re``: the comments and strings are blanked out (keeping their line breaks only when
    a line is to be named) and the rest searched.
    """
    bare = _COMMENTS_AND_STRINGS.sub(" ", text)
    deep, long_number = _DEEP_KEY.search(bare), _LONG_NUMBER.search(bare)
    if deep is None and long_number is None:
        return
    lines = _COMMENTS_AND_STRINGS.sub(lambda m: "\n" * m.group().count("\n") or " ", text)  # as bare, by line
    deep, long_number = _DEEP_KEY.search(lines), _LONG_NUMBER.search(lines)
    if long_number is not None and (deep is None or long_number.start() < deep.start()):
        raise ScenarioError(_line_at(lines, long_number.start()), f"a number of {len(long_number.group()):,} "
                            "characters", f"numbers of at most {MAX_NUMBER_CHARS} characters (the largest value a "
                            "scenario takes has 14 digits)", source=source)
    raise ScenarioError(_line_at(lines, deep.start()), f"a key of more than {MAX_KEY_PARTS} dotted parts",
                        f"keys of at most {MAX_KEY_PARTS} parts (the deepest a scenario has: fabric.custom.NAME.field)",
                        source=source)


def _line_at(text: str, pos: int) -> str:
    return f"line {text.count(chr(10), 0, pos) + 1}"


_TOML_POSITION = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")


def parse_toml(text: str, *, source: str) -> dict:
    """The TOML document ``text`` as plain data: the one guard every TOML read of a scenario goes through.

    Refuses, before parsing, a key of more than :data:`MAX_KEY_PARTS` dotted parts and a number of more
    than :data:`MAX_NUMBER_CHARS` characters (:func:`_check_toml_bounds`); then any error of the parser or of its
    conversions (not only ``TOMLDecodeError``: a ``ValueError`` from an integer Python will not convert,
    a ``RecursionError`` from deep nesting) is a :class:`ScenarioError` naming ``source`` and, where the
    parser says it, the line.
    """
    _check_toml_bounds(text, source)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        where = _TOML_POSITION.search(message)
        what = f"not valid TOML: {message[:where.start()] if where else message}"
        if where is not None and where.group(1):
            raise ScenarioError(f"line {where.group(1)}", what, f"valid TOML (column {where.group(2)})",
                                source=source) from None
        raise ScenarioError("end of file", what, "valid TOML", source=source) from None
    except RecursionError:
        raise ScenarioError(source, "deeply nested arrays or tables",
                            "a scenario file: tables one level below a section ([fabric.custom.NAME])") from None
    except Exception as err:  # noqa: BLE001 - the parser on a hostile text: whatever it raises, the text is refused
        detail = str(err)[:120]
        raise ScenarioError(source, type(err).__name__,
                            "TOML the parser can read" + (f" ({detail})" if detail else "")) from None


def parse_scenario_text(text: str, *, source: str = "<text>") -> Scenario:
    """Parse and validate a scenario's TOML text (:func:`parse_toml`, then :func:`model.scenario_from_dict`);
    every problem, deep nesting and values Python cannot convert included, is a :class:`ScenarioError`.

    A text with no keys (empty, blank or only comments) is refused: it is not a scenario anyone wrote.
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    data = parse_toml(text, source=source)
    if not data:
        raise ScenarioError(source, "empty file" if not text.strip() else "only comments",
                            "a TOML scenario with at least one section, such as [cluster] or [workload]")
    try:
        return scenario_from_dict(data, source=source)
    except ScenarioError:
        raise
    except RecursionError:
        raise ScenarioError(source, "deeply nested arrays or tables",
                            "plain values: numbers, text, true/false, lists of names") from None
    except (ArithmeticError, TypeError, ValueError, MemoryError) as err:  # a value beyond what validation converts
        raise ScenarioError(source, type(err).__name__, f"values a scenario can hold ({str(err)[:120]})") from None


def load_scenario(path) -> Scenario:
    """Read and validate a scenario file; every problem is a :class:`ScenarioError`.

    The file is read by :func:`read_text_bounded`: a regular file of at most :data:`MAX_FILE_BYTES`
    (counted while reading), UTF-8 with or without a byte-order mark; its text by :func:`parse_scenario_text`.
    """
    text = read_text_bounded(path, limit=MAX_FILE_BYTES, what="scenario file (.toml)")
    return parse_scenario_text(text, source=str(path))


def scenario_to_toml(s: Scenario) -> str:
    """The scenario as TOML text; :func:`parse_scenario_text` reads back an equal scenario."""
    return tomli_w.dumps(scenario_to_dict(s))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _stat(path: Path, *, follow_symlinks: bool = True) -> os.stat_result | None:
    """``path``'s status (of a link itself unless ``follow_symlinks``), or ``None`` when nothing is there.

    A path that cannot be looked up (a folder on the way that cannot be searched, a name longer than the
    system allows, a loop of links) is a :class:`ScenarioError` naming it, not a traceback.
    """
    try:
        return os.stat(path, follow_symlinks=follow_symlinks)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as err:
        raise unusable_path(path, err) from None
    except ValueError:  # a NUL character
        raise ScenarioError(str(path), "a NUL character", "a path without NUL characters") from None


def unusable_path(path, err: OSError) -> ScenarioError:
    """The error for a ``path`` the system refused to look up with ``err`` (permission, name too long ...)."""
    return ScenarioError(str(path), "cannot be looked up",
                         f"a path whose folders can be searched and whose names the system accepts "
                         f"({err.strerror or err})")


def path_exists(path) -> bool:
    """Whether anything (a broken link included) is at ``path``; a path that cannot be looked up is a
    :class:`ScenarioError` (:func:`unusable_path`)."""
    return _stat(Path(path), follow_symlinks=False) is not None


def check_writable(path, *, follow_symlinks: bool = True) -> Path:
    """Fail early, with a clear message, when ``path`` cannot be written; return the path to write.

    Checks that the folder exists and is a folder and that ``path`` is not a folder, a
    named pipe, a device or a socket (a rename would replace it with a regular file).
    A symlink to a regular file is followed (the link stays, its target is replaced), or
    refused with ``follow_symlinks=False``. A path that cannot be looked up is refused
    naming it (:func:`unusable_path`). Whether the folder accepts the write is found out
    by writing.
    """
    p = Path(path)
    if str(path) == "" or p.name in ("", ".", ".."):
        raise ScenarioError(str(path), "no file name", "a path ending in a file name")
    link = _stat(p, follow_symlinks=False)
    if link is not None and stat.S_ISLNK(link.st_mode):
        if not follow_symlinks:
            raise ScenarioError(str(p), "a symbolic link", "a regular file or a new file name")
        try:
            target = p.resolve(strict=True)
        except FileNotFoundError:  # a link to nothing yet: the write makes its target
            target = p.resolve()
        except (OSError, RuntimeError):  # a loop of links
            raise ScenarioError(str(p), "a loop of symbolic links", "a regular file or a new file name") from None
        mode = _stat(target)
        if mode is not None and not stat.S_ISREG(mode.st_mode):
            raise ScenarioError(str(p), f"a link to {_kind_of(mode.st_mode)}", "a regular file or a new file name")
        p = target
    mode = _stat(p)
    if mode is not None and stat.S_ISDIR(mode.st_mode):
        raise ScenarioError(str(p), "a folder", "a file path to write, not a folder")
    if mode is not None and not stat.S_ISREG(mode.st_mode):
        raise ScenarioError(str(p), _kind_of(mode.st_mode), "a regular file or a new file name")
    parent = p.parent
    folder = _stat(parent)
    if folder is None:
        # Walk up to say exactly which part of the path is wrong.
        bad = parent
        while _stat(bad.parent) is None and bad.parent != bad:
            bad = bad.parent
        above = _stat(bad.parent)
        if above is not None and not stat.S_ISDIR(above.st_mode):
            raise ScenarioError(str(p), "not writable",
                                f"a path inside a folder ({bad.parent} is a file, not a folder)")
        raise ScenarioError(str(p), "not writable", f"a path inside an existing folder ({parent} does not exist)")
    if not stat.S_ISDIR(folder.st_mode):
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
    src, dest = Path(source), Path(out)
    if dest.suffix.lower() != SCENARIO_SUFFIX:
        raise ScenarioError(str(dest), dest.suffix or "no extension", "a scenario file name ending in .toml")
    if not overwrite and path_exists(dest):
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
        return [p for p in self.paths() if stat.S_ISREG(_mode_or_zero(p))]

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
