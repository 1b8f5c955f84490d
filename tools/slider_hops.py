"""How far a slider's value travels to its curve: the Python calls, files and hops between a slider's
new value and the first curve's ``setData``, measured with :func:`sys.setprofile` in the default preset's
window, offscreen.

    .venv/bin/python tools/slider_hops.py [--path workload.params_b] [--idle]

The slider is moved once to a value and back, so the move measured finds its sweep in the cache: what is
counted is the window's own way from the value to the curve, not the engine. By default the move is a
drag's (a slider held: the live path); ``--idle`` measures a move with no slider held.

Printed:

- **calls**: every Python function call from the slider's value change to the first ``DataCurve.setData``
  (the slider's handler, the coalescing timer's slot, the views), in all files and in the repository's;
- **files**: the distinct files those calls ran in (the repository's listed);
- **whole move**: the Python calls of the whole move, to the event loop's rest (every view, the controls,
  the repaint), for scale: what runs before the curve's ``setData`` and what runs after it;
- **hops**: the repository's frames on the way, in two legs: the stack when the recompute is asked for (a
  ``QTimer.start`` under the slider's handler) and the stack at the curve's ``setData`` (from the timer's
  slot), each frame listed as ``file:function``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _repo_file(filename: str) -> str | None:
    """``filename`` relative to the repository (its gui/ and model/ code), or None for any other file."""
    try:
        rel = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return None
    return str(rel) if rel.parts and rel.parts[0] in ("gui", "model") else None


def _repo_stack(frame) -> list[str]:
    """The repository's frames on ``frame``'s stack, outermost first, as ``file:function``."""
    out = []
    while frame is not None:
        rel = _repo_file(frame.f_code.co_filename)
        if rel is not None:
            out.append(f"{rel}:{frame.f_code.co_name}")
        frame = frame.f_back
    return out[::-1]


def _settle(app, seconds: float) -> None:
    """Run the event loop for ``seconds`` (timers fire, repaints happen)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.01)


def measure(path: str = "workload.params_b", live: bool = True) -> dict:
    """The walk from ``path``'s slider to the first curve's ``setData`` (see the module's docstring)."""
    from PySide6 import QtCore, QtWidgets

    from gui.app import build_window

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    win = build_window(restore=False)
    win.resize(1600, 1000)
    win.show()
    _settle(app, 1.5)  # the window's start-up work (bands) settles
    if live:
        win.session.state.dragging = True
    sl = win.sliders[path]
    start = sl.slider.value()
    target = start + (sl.slider.maximum() - sl.slider.minimum()) / 50.0
    for v in (target, start):  # the target's sweep into the cache
        sl.slider.setValue(v)
        app.processEvents()
    _settle(app, 0.5)  # the last move painted: nothing of it is counted

    calls: list[str] = []
    stop = {"done": False, "setdata": [], "schedule": [], "after": 0}

    def profile(frame, event, arg):
        if stop["done"]:
            stop["after"] += event == "call"
            return
        if event == "call":
            calls.append(frame.f_code.co_filename)
            if frame.f_code.co_name == "setData" and type(frame.f_locals.get("self")).__name__ == "DataCurve":
                stop["setdata"] = _repo_stack(frame)
                stop["done"] = True
        elif event == "c_call" and getattr(arg, "__name__", "") == "start" \
                and isinstance(getattr(arg, "__self__", None), QtCore.QTimer):
            leg = _repo_stack(frame)
            if len(leg) > len(stop["schedule"]):
                stop["schedule"] = leg

    sys.setprofile(profile)
    try:
        sl.slider.setValue(target)
        for _ in range(20):
            app.processEvents()
    finally:
        sys.setprofile(None)
    win.close()
    if not stop["done"]:
        raise SystemExit("no curve's setData followed the slider's move")
    files = sorted(set(calls))
    repo = sorted({r for r in (_repo_file(f) for f in files) if r is not None})
    repo_calls = sum(1 for f in calls if _repo_file(f) is not None)
    return {"calls": len(calls), "repo_calls": repo_calls, "files": len(files), "repo_files": repo,
            "schedule_leg": stop["schedule"], "setdata_leg": stop["setdata"], "whole_move": len(calls) + stop["after"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--path", default="workload.params_b", help="the slider's field (dotted path)")
    ap.add_argument("--idle", action="store_true", help="a move with no slider held (default: a drag's)")
    args = ap.parse_args(argv)
    m = measure(args.path, live=not args.idle)
    hops = len(m["schedule_leg"]) + len(m["setdata_leg"])
    print(f"slider {args.path} ({'idle' if args.idle else 'drag'}) -> first curve setData")
    print(f"calls: {m['calls']} Python calls ({m['repo_calls']} in the repository's files)")
    print(f"whole move: {m['whole_move']} Python calls to the event loop's rest (repaint included)")
    print(f"files: {m['files']} distinct ({len(m['repo_files'])} of the repository's)")
    print(f"hops: {hops} repository frames ({len(m['schedule_leg'])} to the recompute's request, "
          f"{len(m['setdata_leg'])} from the timer to setData)")
    print("repository files:")
    for f in m["repo_files"]:
        print(f"  {f}")
    print("leg 1, slider to the recompute's request:")
    for f in m["schedule_leg"]:
        print(f"  {f}")
    print("leg 2, timer to the curve's setData:")
    for f in m["setdata_leg"]:
        print(f"  {f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
