"""`make bench`: every benchmark, each against its peer in the same run, as ratios.

The auto-plan sweeps are timed first against the session baseline checkout (:mod:`benchmarks.baseline`): once with
the allocator as a new process has it, then as the app runs (:func:`gui.system.heap.keep_heap`), which the benchmarks
after it keep. The engine benchmark runs last so that the final line is its
``configs_per_s=… peer_configs_per_s=… ratio=…`` summary.
"""

import importlib
import os


def main():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from benchmarks import baseline, engine_bench
    from gui.system.heap import keep_heap

    baseline.main()  # first: its default-allocator table needs the allocator untouched
    keep_heap()  # as the app runs (also where the baseline checkout is missing)
    print()
    try:
        gui_bench = importlib.import_module("benchmarks.gui_bench")
    except ModuleNotFoundError as err:
        if err.name != "benchmarks.gui_bench":
            raise
        gui_bench = None
    if gui_bench is not None:
        gui_bench.main()
        print()
        from benchmarks import gui_today

        gui_today.main()  # the same drags against the GUI as the issues found it (build/today)
        print()
    engine_bench.main()


if __name__ == "__main__":
    main()
