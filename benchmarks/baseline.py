"""The auto-plan sweeps against a session baseline, timed alternately in one process.

The baseline is another checkout of this repository (by default commit ``210fb10``, the plan search before
ZeRO stages, recompute kinds, context and expert parallelism joined it). Its ``model`` package is imported
under another name, so both engines run the same sweeps on the same machine, call after call, timed in
process CPU time (a machine shared with other jobs stretches wall time, less so the CPU time of this
process). Each repeat times our call and the baseline's back to back, and the ratio read is the median of
those paired ratios: the machine's speed drifts within a run (other jobs, the allocator's state), and a pair
shares the drift that two separate medians do not. ``make bench`` makes the checkout (``git worktree add
build/baseline 210fb10``); or pass its folder::

    python -m benchmarks.baseline [path/to/checkout]

The sweeps are timed twice. First with the C library's allocator as a new process has it: glibc gives the top of
its heap back to the kernel once enough lies free there, so a cold call that follows a freed cache entry may take
its pages back as fresh ones, and whether it does turns on incidental things (the environment's size, the
checkout's path); each table shows the fresh pages a call took (``faults``). Then as the app and the command line
run, with the heap kept (:func:`gui.system.heap.keep_heap`): both engines then run in the same allocator state, and the
ratio is that of their work. The budget (the auto-plan sweeps within 2× of the baseline) is read from the second.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import time
from pathlib import Path

import numpy as np

try:
    import resource
except ImportError:  # Windows: no page-fault counts
    resource = None

BASELINE_COMMIT = "210fb10"
DEFAULT_CHECKOUT = Path("build") / "baseline"
REPEATS = 31


def load_baseline_model(checkout: Path):
    """The checkout's ``model`` package, imported as ``model_baseline`` (None if the folder has none)."""
    init = Path(checkout) / "model" / "__init__.py"
    if not init.is_file():
        return None
    if "model_baseline" in sys.modules:
        return sys.modules["model_baseline"]
    spec = importlib.util.spec_from_file_location("model_baseline", init,
                                                  submodule_search_locations=[str(init.parent)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["model_baseline"] = module
    spec.loader.exec_module(module)
    return module


def auto_plan_sweeps():
    """The auto-plan sweeps of :mod:`benchmarks.engine_bench`: (label, field, values)."""
    nodes = np.unique(np.round(np.geomspace(1, 512, 256)))
    nodes = np.concatenate([nodes, np.arange(600, 600 + 256 - nodes.size)])[:256]
    return [("auto plan, x = nodes", "cluster.nodes", nodes),
            ("auto plan, x = latency", "fabric.latency_us", np.geomspace(0.5, 1000, 256)),
            ("auto plan, x = params", "workload.params_b", np.geomspace(1, 1000, 256))]


def compare(checkout: Path = DEFAULT_CHECKOUT, preset: str = "default", repeats: int = REPEATS):
    """Median CPU times [s] of each auto-plan sweep, ours and the baseline's, and the median of the paired
    ratios, from alternating cold calls (every engine cache cleared before each call).

    Returns ``{label: (ours_s, baseline_s, ratio, ours_faults, baseline_faults)}`` (faults: the median fresh
    pages a call took, None where the platform does not count them), or None when the checkout is missing.
    """
    import model
    from model import engine

    base = load_baseline_model(checkout)
    if base is None:
        return None
    base_engine = sys.modules["model_baseline.engine"]
    engines = {"ours": (model, engine, model.load_scenario(f"assets/presets/{preset}.toml")),
               "baseline": (base, base_engine,
                            base.load_scenario(Path(checkout) / "assets" / "presets" / f"{preset}.toml"))}
    out = {}
    for label, field, values in auto_plan_sweeps():
        times = {k: [] for k in engines}
        faults = {k: [] for k in engines}
        for pkg, _, scen in engines.values():
            pkg.sweep(scen, field, values)  # warm imports and allocator
        for i in range(repeats):
            order = list(engines.items()) if i % 2 == 0 else list(engines.items())[::-1]  # neither always first
            for k, (pkg, eng, scen) in order:
                eng.clear_plan_cache()
                f0 = _fresh_pages()
                t0 = time.process_time()
                pkg.sweep(scen, field, values)
                times[k].append(time.process_time() - t0)
                f1 = _fresh_pages()
                faults[k].append(None if f0 is None else f1 - f0)
        ratios = [o / b for o, b in zip(times["ours"], times["baseline"])]
        out[label] = (statistics.median(times["ours"]), statistics.median(times["baseline"]),
                      statistics.median(ratios),
                      *(None if None in faults[k] else statistics.median(faults[k]) for k in ("ours", "baseline")))
    return out


def _fresh_pages():
    """The pages this process has taken from the kernel so far (minor faults), or None where not counted."""
    return None if resource is None else resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _print_table(res):
    for label, (ours, base, ratio, f_ours, f_base) in res.items():
        faults = "" if f_ours is None else f"  faults/call {f_ours:6.0f} vs {f_base:6.0f}"
        print(f"  {label:<28} ours {ours * 1e3:7.2f} ms  baseline {base * 1e3:7.2f} ms  ratio {ratio:5.2f}{faults}")


def main(argv=None):
    from gui.system.heap import heap_kept, keep_heap

    argv = sys.argv[1:] if argv is None else argv
    checkout = Path(argv[0]) if argv else DEFAULT_CHECKOUT
    if load_baseline_model(checkout) is None:
        print(f"no baseline checkout at {checkout}: `git worktree add {checkout} {BASELINE_COMMIT}` "
              "(`make bench` does)")
        return
    print(f"Auto-plan sweep vs session baseline ({BASELINE_COMMIT}), alternating cold calls, median CPU time of "
          f"{REPEATS} and median of the {REPEATS} paired ratios:")
    untouched = heap_kept() is None
    if untouched:  # the allocator as a new process has it: measured before it is changed
        print("- the allocator's default heap policy (glibc: gives the heap's top back; see the module's notes):")
        _print_table(compare(checkout))
    if keep_heap():
        print("- as the app and the command line run, heap kept (gui.system.heap.keep_heap); the budget, 2x, is read here:")
        _print_table(compare(checkout))
    elif untouched:
        print("  (nothing to set on this platform: the app runs as above, and the budget, 2x, is read there)")
    else:
        _print_table(compare(checkout))


if __name__ == "__main__":
    main()
