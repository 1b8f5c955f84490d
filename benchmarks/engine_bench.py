"""Engine speed: one sweep of 256 points × 4 fabrics, and configurations per second
against the peer tool llm-analysis (PyPI ``llm-analysis``) in the same run.

A "configuration" is one (cluster, model, plan, fabric) evaluated to a step time.
Our engine evaluates 256 × 4 of them per sweep call; llm-analysis evaluates one per
``LLMAnalysis.training()`` call. The peer runs the same model shapes, GPU and
parallel plan (the plan our engine chose), with its logging silenced.
Reported as a ratio; the last line reads
``configs_per_s=… peer_configs_per_s=… ratio=…``.
"""

from __future__ import annotations

import logging
import statistics
import time

import numpy as np

import model
from model import catalog

PRESET = "assets/presets/default.toml"
REPEATS = 15
# slider moves timed: more than REPEATS, since each move is a different model size (a mix of cache hits and misses)
SLIDER_MOVES = 100
# the model sizes of the moves [B parameters]: 20, 20.37, 20.74 … 57 B, all feasible on the preset. A step that is
# not a round number lands on a new derived architecture about every other move (62 of the 101), so the plan
# search's geometry cache mostly misses, as when the size slider is dragged
PARAMS_START_B, PARAMS_STEP_B = 20.0, 0.37


RATIO_ROUNDS = 7  # alternating rounds of ours and the peer for the reported ratio


def _median_time(fn, repeats=REPEATS, cold=True):
    """Median wall time; ``cold`` empties the engine's plan-geometry cache before every call."""
    from model import engine

    fn()  # warm imports and allocator
    times = []
    for _ in range(repeats):
        if cold:
            engine.clear_plan_cache()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _slider_moves(s, count):
    """``count`` GUI slider moves, one per call: a new model size, then the auto-plan sweep over nodes and the point.

    The model size changes the plan search's inputs, so its geometry cache mostly misses, as when dragging.
    """
    nodes = np.unique(np.round(np.geomspace(1, 4096, 256)))
    moves = iter([s.replace("workload.params_b", PARAMS_START_B + PARAMS_STEP_B * i) for i in range(count)])

    def move():
        scen = next(moves)
        model.sweep(scen, "cluster.nodes", nodes)
        model.evaluate(scen, require_feasible=False)
    return move


def given_plan_scenario(s):
    """``s`` with every plan choice given, as the peer is given them (:func:`peer_configs_per_s`): InfiniBand's
    searched degrees and micro-batch at the preset's point, no interleaving, selective recompute, ZeRO-1."""
    plan = model.evaluate(s).at("infiniband").plan
    tp, pp, mb = int(plan.tp), int(plan.pp), int(plan.micro_batch)
    dp = s.cluster.nodes * s.cluster.gpus_per_node // (tp * pp)  # a given plan uses every GPU
    batch = dp * mb * max(1, round(s.workload.global_batch / (dp * mb)))  # the nearest batch it runs whole
    return s.replace_many({"parallel.mode": "explicit", "parallel.tp": tp, "parallel.pp": pp,
                           "workload.micro_batch": mb, "workload.global_batch": batch, "parallel.virtual_stages": 1,
                           "workload.recompute": "selective", "parallel.zero_stage": 1})


def engine_numbers():
    s = model.load_scenario(PRESET)
    nodes = np.unique(np.round(np.geomspace(1, 512, 256)))
    nodes = np.concatenate([nodes, np.arange(600, 600 + 256 - nodes.size)])[:256]
    results = {}
    for label, scen, field, values in [
        ("auto plan, x = nodes", s, "cluster.nodes", nodes),
        ("auto plan, x = latency", s, "fabric.latency_us", np.geomspace(0.5, 1000, 256)),
        ("auto plan, x = params", s, "workload.params_b", np.geomspace(1, 1000, 256)),
        ("explicit plan, x = latency", given_plan_scenario(s), "fabric.latency_us", np.geomspace(0.5, 1000, 256)),
    ]:
        results[label] = _median_time(lambda: model.sweep(scen, field, values))
    results["auto plan, x = nodes, cached geometry"] = _median_time(
        lambda: model.sweep(s, "cluster.nodes", nodes), cold=False)
    # one move more than timed: _median_time's warm-up call makes one
    results["slider move: sweep + point"] = _median_time(_slider_moves(s, SLIDER_MOVES + 1), repeats=SLIDER_MOVES,
                                                         cold=False)
    from model import analysis

    results["Monte-Carlo 1000 samples, x = nodes"] = _median_time(
        lambda: analysis.monte_carlo(s, "cluster.nodes", nodes, samples=1000, seed=0), repeats=5)
    return s, results


def peer_configs_per_s(scenario, n_configs=40):
    """llm-analysis training() calls per second on the same shapes, or None if it is not installed."""
    logging.disable(logging.WARNING)  # its import warns that transformers is absent (not needed here)
    try:
        from llm_analysis.analysis import ActivationRecomputation, DSZeRO, LLMAnalysis
        from llm_analysis.config import GPUConfig, ModelConfig, ParallelismConfig
    except ImportError:
        return None
    logging.getLogger("llm_analysis").setLevel(logging.ERROR)
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("llm_analysis"):
            logging.getLogger(name).setLevel(logging.ERROR)
    res = model.evaluate(scenario)
    ib = res.at("infiniband")
    arch = ib.workload
    g = catalog.gpu(scenario.cluster.gpu)
    mc = ModelConfig(name="bench", num_layers=int(arch.layers), n_head=int(arch.heads),
                     hidden_dim=int(arch.hidden), vocab_size=scenario.workload.vocab,
                     max_seq_len=scenario.workload.seq_len)
    gc = GPUConfig(name=scenario.cluster.gpu, mem_per_GPU_in_GB=g["memory_gb"],
                   hbm_bandwidth_in_GB_per_sec=g["hbm_gb_per_s"], intra_node_bandwidth_in_GB_per_sec=g["intra_gb_per_s"],
                   intra_node_min_message_latency=8e-6, peak_fp16_TFLOPS=g["peak_bf16_tflops"],
                   inter_node_bandwidth_in_GB_per_sec=50)
    plan = ib.plan
    tp, pp, dp = int(plan.tp), int(plan.pp), int(plan.dp)
    gbs = int(plan.global_batch)

    def one():
        la = LLMAnalysis(mc, gc, parallelism_config=ParallelismConfig(tp_size=tp, pp_size=pp, dp_size=dp),
                         flops_efficiency=0.5, hbm_memory_efficiency=0.9)
        la.training(batch_size_per_gpu=int(plan.micro_batch), global_batch_size=gbs,
                    seq_len=scenario.workload.seq_len, total_num_tokens=int(scenario.workload.train_tokens_b * 1e9),
                    activation_recomputation=ActivationRecomputation.SELECTIVE, ds_zero=DSZeRO.STAGE_1)

    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        one()
        t0 = time.perf_counter()
        for _ in range(n_configs):
            one()
        dt = time.perf_counter() - t0
    logging.disable(logging.NOTSET)
    return n_configs / dt


def main():
    s, results = engine_numbers()
    print("Engine sweep, 256 points × 4 fabrics (median of %d):" % REPEATS)
    for label, t in results.items():
        print(f"  {label:<38} {t * 1e3:8.2f} ms")
    # like for like: the peer evaluates one given plan per configuration, as our explicit-plan sweep does;
    # the auto-plan sweep also searches ~200 plans per configuration and is reported beside it
    ours_auto = 256 * 4 / results["auto plan, x = nodes"]
    peer = peer_configs_per_s(s)
    if peer is None:
        ours = 256 * 4 / results["explicit plan, x = latency"]
        print("llm-analysis is not installed: `make bench` installs it (pip install llm-analysis --no-deps fire)")
        print(f"configs_per_s={ours:.0f} peer_configs_per_s=nan ratio=nan")
        return
    # the machine's speed drifts within a run (shared virtual CPUs): ours and the peer are timed in alternating
    # rounds, and the median of the rounds' ratios is reported, with their range
    given, lat = given_plan_scenario(s), np.geomspace(0.5, 1000, 256)
    rounds = []
    for _ in range(RATIO_ROUNDS):
        ours_r = 256 * 4 / _median_time(lambda: model.sweep(given, "fabric.latency_us", lat), repeats=5)
        peer_r = peer_configs_per_s(s)
        rounds.append((ours_r, peer_r, ours_r / peer_r))
    ours, peer, ratio = (statistics.median(r[i] for r in rounds) for i in range(3))
    lo, hi = min(r[2] for r in rounds), max(r[2] for r in rounds)
    print(f"auto plan (plan search included): configs_per_s={ours_auto:.0f} ratio={ours_auto / peer:.0f}")
    print(f"explicit plan vs llm-analysis, {RATIO_ROUNDS} alternating rounds: ratio median {ratio:.0f} "
          f"(range {lo:.0f}-{hi:.0f})")
    print(f"configs_per_s={ours:.0f} peer_configs_per_s={peer:.1f} ratio={ratio:.0f}")

if __name__ == "__main__":
    main()
