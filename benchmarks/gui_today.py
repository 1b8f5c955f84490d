"""Slider drags against the GUI as it was when this round's issues were filed, in the same run.

The live-demo and reliability issues ask that slider drags stay "as fast as today". A ratio to the bare pyqtgraph
peer (:mod:`benchmarks.gui_bench`) moves with the machine by several per cent between runs, more than the change
to be judged, so the reference is measured here beside this checkout: the same drags, each checkout in a fresh
interpreter of its own (its own ``gui`` and ``model`` packages, the same Python and libraries), alternating in
:data:`ROUNDS` rounds. Each process reports every slider's drag against its own bare peer (timed in alternating
rounds, as :func:`benchmarks.gui_bench.bench_app_slider` does); the result per slider is this checkout's ratio
over the reference's, median of the rounds. Below 1: faster than then.

The reference is the checkout at :data:`TODAY_COMMIT` (``make bench`` makes it with ``git worktree add``)::

    python -m benchmarks.gui_today [path/to/checkout]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TODAY_COMMIT = "a282bc8"  # the reference the live-demo issue's speed was judged against (its drags: 1.90x params)
DEFAULT_CHECKOUT = ROOT / "build" / "today"
ROUNDS = 5
UPDATES = 40

# run inside a checkout: its own benchmarks.gui_bench drags its own window; one JSON line out
_DRAGS = """
import json, os
os.environ["QT_QPA_PLATFORM"] = "offscreen"
try:
    from gui.system.heap import keep_heap
    keep_heap()
except ImportError:
    pass
from benchmarks import gui_bench as g
from gui.app import ensure_app
app = ensure_app()
peer = g.BareWindow(app)
out = {label: g.bench_app_slider(app, %d, path, bare=peer) for label, path in g.SLIDERS}
peer.close()
print("RESULT " + json.dumps({k: [v["ratio_median"], v["median_ms"], v["engine_median_ms"]] for k, v in out.items()}))
"""


def drags(checkout: Path, updates: int = UPDATES) -> dict:
    """``{slider label: (ratio to its bare peer, median ms, engine ms)}`` of ``checkout``'s window, in a fresh
    interpreter (settings in a temporary folder: the user's own are never touched)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", FABRIC_WHATIF_SETTINGS=str(Path(tmp) / "s.ini"),
                   PYTHONPATH=str(checkout))
        proc = subprocess.run([sys.executable, "-c", _DRAGS % updates], cwd=checkout, env=env, capture_output=True,
                              text=True, timeout=900)
    line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise RuntimeError(f"the drags in {checkout} gave no result: {proc.stderr.strip()[-400:]}")
    return {k: tuple(v) for k, v in json.loads(line[len("RESULT "):]).items()}


def compare(checkout: Path = DEFAULT_CHECKOUT, rounds: int = ROUNDS) -> dict:
    """Per slider: (this checkout's ratio to its peer, the reference's, the median over rounds of this checkout's
    ratio over the reference's of the same round, the two engines' median milliseconds, and that ratio's range)."""
    ours, ref = [], []
    for i in range(rounds):
        order = [(ours, ROOT), (ref, Path(checkout))]
        for sink, where in (order if i % 2 == 0 else order[::-1]):  # neither always first
            sink.append(drags(where))
    out = {}
    for label in ours[0]:
        mine = [r[label][0] for r in ours]
        then = [r[label][0] for r in ref if label in r]
        if not then:
            continue
        rel = [a / b for a, b in zip(mine, then)]
        out[label] = (statistics.median(mine), statistics.median(then), statistics.median(rel),
                      statistics.median(r[label][2] for r in ours), statistics.median(r[label][2] for r in ref),
                      (min(rel), max(rel)))
    return out


def main(argv=None) -> dict | None:
    argv = sys.argv[1:] if argv is None else argv
    checkout = Path(argv[0]) if argv else DEFAULT_CHECKOUT
    if not (checkout / "benchmarks" / "gui_bench.py").is_file():
        print(f"no reference checkout at {checkout}: `git worktree add {checkout} {TODAY_COMMIT}` (`make bench` does)")
        return None
    res = compare(checkout)
    print(f"GUI slider drags against {TODAY_COMMIT} (the GUI as the issues found it), {ROUNDS} alternating rounds "
          "of fresh processes; each ratio to its own bare pyqtgraph peer; 'of today' = ours / then, median of the "
          "rounds (<= 1: as fast):")
    for label, (mine, then, rel, eng, eng_then, (lo, hi)) in res.items():
        print(f"  {label:<31} ours {mine:5.2f}x  then {then:5.2f}x  -> {rel:5.2f} of today (rounds {lo:.2f}-{hi:.2f})"
              f"   (engine {eng:5.1f} ms, then {eng_then:5.1f} ms)")
    return res


if __name__ == "__main__":
    main()
