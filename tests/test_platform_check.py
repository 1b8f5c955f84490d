"""`make run` on a bare Linux machine: one line naming the system packages Qt's xcb plugin lacks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gui.system import platform_check as pc
@pytest.mark.parametrize("soname,package", [
    ("libxcb-icccm.so.4", "libxcb-icccm4"), ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxcb-cursor.so.0", "libxcb-cursor0"), ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libX11-xcb.so.1", "libx11-xcb1"), ("libX11.so.6", "libx11-6"), ("libEGL.so.1", "libegl1"),
    ("libxcb-render-util.so.0", "libxcb-render-util0"), ("libdbus-1.so.3", "libdbus-1-3"),
    ("libglib-2.0.so.0", "libglib2.0-0t64"), ("libz.so.1", "zlib1g"), ("libm.so.6", "libc6")])
def test_debian_package_of_a_soname(soname, package):
    assert pc.debian_package(soname) == package


@pytest.mark.parametrize("env,platform,xcb", [
    ({"DISPLAY": ":0"}, "linux", True), ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
    ({"QT_QPA_PLATFORM": "offscreen"}, "linux", False), ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
    ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
    ({}, "win32", False), ({}, "darwin", False)])
def test_only_the_xcb_platform_is_checked(env, platform, xcb):
    assert pc.will_use_xcb(env, platform) is xcb


linux_qt = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Qt's xcb plugin exists on Linux only")


@linux_qt
def test_the_plugin_needs_xcb_libraries_through_qt():
    plugins, lib = pc.qt_dirs()
    direct = pc.needed(plugins / "platforms" / "libqxcb.so")
    assert "libQt6XcbQpa.so.6" in direct
    assert "libxcb-icccm.so.4" in pc.needed(lib / "libQt6XcbQpa.so.6")  # reached only through Qt's library


@linux_qt
def test_missing_libraries_are_named_with_their_packages():
    absent = {"libxcb-icccm.so.4", "libxcb-keysyms.so.1"}
    tried = []

    def dlopen(soname):
        tried.append(soname)
        return soname if soname in absent else None

    missing = pc.missing_libraries(dlopen=dlopen)
    assert sorted(missing) == sorted(absent)
    assert "libxcb-cursor.so.0" in tried and len(tried) == len(set(tried))  # each system library tried once
    line = pc.problem(missing)
    assert "\n" not in line
    assert "libxcb-icccm.so.4" in line and "apt-get install libxcb-icccm4 libxcb-keysyms1" in line


@linux_qt
def test_a_library_missing_below_another_is_the_one_named():
    """The loader's message names the library that is really absent (a dependency of a present one)."""
    assert pc._dlopen("libc.so.6") is None
    assert pc._dlopen("libno-such-library.so.7") == "libno-such-library.so.7"


def test_the_app_stops_with_the_line_before_qt_aborts(monkeypatch, capsys):
    from gui import app

    monkeypatch.setattr(pc, "will_use_xcb", lambda environ=None: True)
    monkeypatch.setattr(pc, "missing_libraries", lambda: ["libxcb-keysyms.so.1"])
    assert app.main(["--default", "--screenshot", str(Path("never.png"))]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: Qt's xcb platform plugin cannot load libxcb-keysyms.so.1")
    assert "sudo apt-get install libxcb-keysyms1" in err and not Path("never.png").exists()


def test_a_machine_that_can_open_the_window_passes(monkeypatch):
    monkeypatch.setattr(pc, "will_use_xcb", lambda environ=None: True)
    monkeypatch.setattr(pc, "missing_libraries", lambda: [])
    assert pc.check() is None
