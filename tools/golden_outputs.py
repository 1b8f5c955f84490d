"""The engine's outputs for every preset, stored as fingerprints: a guard for refactoring.

For every preset in ``assets/presets``: :func:`model.evaluate` of the preset, and a sweep along every
x-axis the app offers (:data:`gui.present.sweep.X_FIELDS`, :data:`POINTS` points from
:func:`gui.present.sweep.sweep_values`). Every output array of each result is stored as the sha256
of its float64 bytes, with its shape and a few rounded values to tell what changed; the text of
``fabric-whatif validate`` is stored as it is. ``tests/test_golden_outputs.py`` recomputes all of
it and asks for the same bits.

    python tools/golden_outputs.py           # compare with the stored run, list what differs
    python tools/golden_outputs.py --write   # store today's outputs (after an intended change)
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import model  # noqa: E402
from gui.present.sweep import X_FIELDS, sweep_values  # noqa: E402

STORED = ROOT / "tests" / "data" / "golden_outputs.json"
PRESETS = ROOT / "assets" / "presets"
POINTS = 16  # per sweep: enough to cross plan changes, few enough for a fast test
SAMPLES = 3  # rounded values kept per array, to tell what changed
REGENERATE = "python tools/golden_outputs.py --write"


def fingerprint(leaves) -> dict:
    """Every output array, ``(path, array)`` pairs (:meth:`model.results.Outputs.arrays`: the engine's names,
    "/breakdown_s/compute"): sha256 of its float64 bytes (of its text if not a number), its shape, a few rounded
    values."""
    out = {}
    for path, x in leaves:
        arr = np.asarray(x)
        if arr.dtype.kind in "USO":  # a label or a unit: its text
            text = json.dumps(arr.tolist(), ensure_ascii=False)
            out[path] = {"sha256": hashlib.sha256(text.encode()).hexdigest(), "shape": list(arr.shape),
                         "sample": [text[:40]]}
            continue
        arr = np.ascontiguousarray(arr, dtype=np.float64)
        flat = arr.reshape(-1)
        picks = flat[np.linspace(0, flat.size - 1, min(SAMPLES, flat.size)).astype(int)] if flat.size else flat
        out[path] = {"sha256": hashlib.sha256(arr.tobytes()).hexdigest(), "shape": list(arr.shape),
                     "sample": [float(f"{v:.6g}") if np.isfinite(v) else str(v) for v in picks]}
    return out


def validate_text() -> str:
    from gui.cli import main as cli
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = cli.main(["validate"])
    return f"exit {rc}\n" + buf.getvalue()


def compute() -> dict:
    """Today's outputs: ``{"runs": {"<preset>|evaluate" or "<preset>|<field>": {path: entry}}, "validate": text}``."""
    runs = {}
    for path in sorted(PRESETS.glob("*.toml")):
        s = model.load_scenario(path)
        runs[f"{path.stem}|evaluate"] = fingerprint(model.evaluate(s, require_feasible=False).arrays())
        for field in X_FIELDS:
            res = model.sweep(s, field, sweep_values(s, field, POINTS))
            runs[f"{path.stem}|{field}"] = {**fingerprint([("/x", res.x)]), **fingerprint(res.arrays())}
    return {"points": POINTS, "runs": runs, "validate": validate_text()}


def differences(stored: dict, now: dict, limit: int = 20) -> list[str]:
    """What differs between two runs, one line each (at most ``limit`` lines and a count)."""
    lines = []
    for run in sorted(set(stored["runs"]) | set(now["runs"])):
        a, b = stored["runs"].get(run), now["runs"].get(run)
        if a is None or b is None:
            lines.append(f"{run}: {'new' if a is None else 'gone'}")
            continue
        for leaf in sorted(set(a) | set(b)):
            ea, eb = a.get(leaf), b.get(leaf)
            if ea is None or eb is None:
                lines.append(f"{run} {leaf}: {'new' if ea is None else 'gone'}")
            elif ea["sha256"] != eb["sha256"]:
                lines.append(f"{run} {leaf}: shape {ea['shape']} → {eb['shape']}, "
                             f"sample {ea['sample']} → {eb['sample']}")
    if stored["validate"] != now["validate"]:
        lines.append("fabric-whatif validate: the text differs")
    if len(lines) > limit:
        lines = lines[:limit] + [f"… and {len(lines) - limit} more"]
    return lines


def load() -> dict:
    return json.loads(STORED.read_text(encoding="utf-8"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"store today's outputs in {STORED.relative_to(ROOT)}")
    args = ap.parse_args(argv)
    now = compute()
    if args.write:
        STORED.write_text(json.dumps(now, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"stored {len(now['runs'])} runs, {sum(map(len, now['runs'].values()))} arrays in "
              f"{STORED.relative_to(ROOT)}")
        return 0
    diff = differences(load(), now)
    print("\n".join(diff) if diff else "the engine's outputs are those stored, bit for bit")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
