"""Before the window opens on Linux: can Qt's xcb platform plugin load? If not, which packages are missing.

Qt aborts when its platform plugin fails to load, and for xcb it names only ``libxcb-cursor0``
(Qt 6.5's hint), even when the missing libraries are others (``libxcb-icccm4``,
``libxcb-keysyms1``). :func:`missing_libraries` reads the shared-library dependencies the
plugin and Qt's own libraries declare (the ELF ``DT_NEEDED`` entries, with pyelftools), tries
to load each system library as the dynamic loader would (``ctypes``; no shell-out to ``ldd``),
and :func:`problem` turns what failed into one line: the sonames and the Debian/Ubuntu
packages that ship them (Debian policy names a library package after its soname:
``libxcb-icccm.so.4`` is in ``libxcb-icccm4``), with the command that installs them.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
from pathlib import Path

# Libraries whose Debian package does not follow the soname rule (Debian 13 / Ubuntu 24.04 names).
PACKAGE_EXCEPTIONS = {"libglib-2.0.so.0": "libglib2.0-0t64", "libgthread-2.0.so.0": "libglib2.0-0t64",
                      "libgobject-2.0.so.0": "libglib2.0-0t64", "libgio-2.0.so.0": "libglib2.0-0t64",
                      "libz.so.1": "zlib1g", "libgcc_s.so.1": "libgcc-s1",
                      **{f"{lib}.so.{v}": "libc6" for lib, v in (("libc", 6), ("libm", 6), ("libdl", 2),
                                                                  ("libpthread", 0), ("librt", 1))},
                      "ld-linux-x86-64.so.2": "libc6", "ld-linux-aarch64.so.1": "libc6"}
_NOT_FOUND = re.compile(r"([\w.+-]+\.so[\w.]*): cannot open shared object file")


def will_use_xcb(environ=os.environ, platform: str = sys.platform) -> bool:
    """True when Qt will pick its xcb plugin: Linux, no other platform asked for, no Wayland session."""
    if not platform.startswith("linux"):
        return False
    asked = environ.get("QT_QPA_PLATFORM", "")
    if asked:
        return asked.split(":")[0].split(";")[0] == "xcb"
    return not environ.get("WAYLAND_DISPLAY")


def qt_dirs() -> tuple[Path, Path]:
    """(Qt's plugin folder, Qt's library folder) of the PySide6 in use."""
    import PySide6

    qt = Path(PySide6.__file__).resolve().parent / "Qt"
    return qt / "plugins", qt / "lib"


def needed(path: Path) -> list[str]:
    """The sonames ``path`` (an ELF shared object) declares it needs (``DT_NEEDED``)."""
    from elftools.elf.dynamic import DynamicSection
    from elftools.elf.elffile import ELFFile

    with open(path, "rb") as fh:
        elf = ELFFile(fh)
        return [tag.needed for sec in elf.iter_sections() if isinstance(sec, DynamicSection)
                for tag in sec.iter_tags() if tag.entry.d_tag == "DT_NEEDED"]


def _dlopen(soname: str) -> str | None:
    """None when the dynamic loader finds ``soname`` and everything it needs, else the soname it could not open."""
    try:
        ctypes.CDLL(soname)
    except OSError as err:
        m = _NOT_FOUND.search(str(err))
        return m.group(1) if m else soname
    return None


def missing_libraries(plugin: Path | None = None, qt_lib: Path | None = None, dlopen=_dlopen) -> list[str]:
    """Sonames the xcb plugin needs, directly or through Qt's libraries, that the system cannot load."""
    plugins, lib = qt_dirs()
    plugin = plugin or plugins / "platforms" / "libqxcb.so"
    qt_lib = qt_lib or lib
    if not plugin.is_file():
        return []
    missing, seen, todo = [], set(), [plugin]
    while todo:
        for soname in needed(todo.pop()):
            if soname in seen:
                continue
            seen.add(soname)
            bundled = qt_lib / soname
            if bundled.is_file():  # Qt's own library, found through the plugin's RUNPATH: check its needs too
                todo.append(bundled)
                continue
            lost = dlopen(soname)
            if lost and lost not in missing:
                missing.append(lost)
    return missing


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that ships ``soname``: libxcb-icccm.so.4 → libxcb-icccm4,
    libxkbcommon-x11.so.0 → libxkbcommon-x11-0 (a hyphen when the name ends in a digit)."""
    if soname in PACKAGE_EXCEPTIONS:
        return PACKAGE_EXCEPTIONS[soname]
    name, _, version = soname.partition(".so.")
    name = name.lower()
    if not version:
        return name
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def problem(missing: list[str]) -> str:
    """One line for the user: what Qt's xcb plugin lacks and how to install it."""
    packages = " ".join(dict.fromkeys(debian_package(s) for s in missing))
    return (f"error: Qt's xcb platform plugin cannot load {', '.join(missing)}; "
            f"install them with: sudo apt-get install {packages} "
            f"(without a window: QT_QPA_PLATFORM=offscreen and --screenshot PNG or --proposal PDF)")


def check(environ=os.environ) -> str | None:
    """The one-line problem when the window cannot open on this machine, else None."""
    if not will_use_xcb(environ):
        return None
    try:
        missing = missing_libraries()
    except (ImportError, OSError):  # no pyelftools or an unreadable plugin: let Qt say what it says
        return None
    return problem(missing) if missing else None


__all__ = ["check", "debian_package", "missing_libraries", "needed", "problem", "will_use_xcb"]
