"""The app and the command line keep the process's heap between evaluations (glibc), and do nothing elsewhere."""

import platform
import subprocess
import sys
from pathlib import Path

import pytest

from gui.system import heap
ROOT = Path(__file__).resolve().parents[1]
glibc = pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                           reason="glibc's allocator only")

# a fresh process: an evaluation's worth of row-sized arrays (64 of 112 KB, under glibc's initial mmap threshold)
# freed and taken again ten times; prints the fresh pages the ten cycles took
CYCLES = """
import resource, sys
import numpy as np
sys.path.insert(0, {root!r})
if {keep}:
    from gui.system.heap import keep_heap
    assert keep_heap()
def cycle():
    arrays = [np.ones(14000) for _ in range(64)]
    del arrays
cycle()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    cycle()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _fresh_pages(keep: bool) -> int:
    out = subprocess.run([sys.executable, "-c", CYCLES.format(root=str(ROOT), keep=keep)], capture_output=True,
                         text=True, check=True)
    return int(out.stdout.split()[-1])


@glibc
def test_freed_arrays_are_taken_again_without_fresh_pages_once_the_heap_is_kept():
    assert _fresh_pages(keep=False) > 10 * 1000  # the default policy gives the 7 MB back every cycle
    assert _fresh_pages(keep=True) < 100


def test_elsewhere_nothing_is_set():
    code = f"""
import ctypes, platform, sys
sys.path.insert(0, {str(ROOT)!r})
platform.system = lambda: "Darwin"
def refuse(*a, **k):
    raise AssertionError("the allocator was touched")
ctypes.CDLL = refuse
from gui.system.heap import heap_kept, keep_heap
assert heap_kept() is None
assert keep_heap() is False and keep_heap() is False and heap_kept() is False
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_command_line_and_the_app_keep_the_heap_before_they_evaluate(monkeypatch):
    from gui import app
    from gui.cli import main as cli
    from gui.system import platform_check as pc
    calls = []
    monkeypatch.setattr(cli, "keep_heap", lambda: calls.append("cli"))
    monkeypatch.setattr(app, "keep_heap", lambda: calls.append("app"))
    assert cli.main(["claims", "case1"]) == 0
    monkeypatch.setattr(pc, "will_use_xcb", lambda environ=None: True)  # stop before a window is made
    monkeypatch.setattr(pc, "missing_libraries", lambda: ["libxcb-keysyms.so.1"])
    assert app.main(["--default", "--screenshot", str(Path("never.png"))]) == 1
    assert calls == ["cli", "app"]


@glibc
def test_keeping_is_done_once_and_answers_the_same():
    assert heap.keep_heap() is True
    assert heap.keep_heap() is True and heap.heap_kept() is True


def test_freezing_startup_objects_leaves_them_out_of_later_collections():
    import gc

    from gui.system.heap import freeze_startup_objects

    before = gc.get_freeze_count()
    try:
        freeze_startup_objects()
        assert gc.get_freeze_count() > before  # this process's objects are in the permanent generation
    finally:
        gc.unfreeze()  # the rest of the test run collects as usual
