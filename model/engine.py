"""The engine: step time, utilisation and training days for every fabric at once.

Data flow: a :class:`~model.scenario.Scenario` is resolved into arrays — one
value per sweep point for cluster and workload inputs, one row per fabric for
fabric inputs — then the fastest candidate parallel plan that fits in memory
is found for every fabric and point in a few vectorised passes (every ZeRO
stage that fits is timed; a plan whose lower bound on a fabric is slower than
a plan already timed there is not: the result is that of timing every plan),
and that plan is evaluated with its step-time breakdown, as a given plan is.

Step time of one iteration (Narayanan et al. 2021 §3; Korthikanti et al. 2022):

``step = m·(v·T_chunk + T_logits) + (p−1)·T_chunk + DP_exposed + T_optimizer``

with ``T_chunk = L_c·(T_fwd + T_bwd + T_recompute + TP comm) + 2·T_p2p`` the
time of one micro-batch through one model chunk of ``L_c = ⌈l/(p·v)⌉`` layers.
The second term is the 1F1B bubble ``(p−1)/(v·m)`` of the ideal time.

Loss and CPU are charged separately: the same step is computed with the
fabric's ideal bandwidth, with loss recovery, and with the host-CPU cap; the
differences are the "loss recovery" and "cpu" parts of the breakdown.

The layers, each importing only those below it (an import-linter contract in pyproject.toml):
:mod:`model.engine` (this module: :func:`evaluate`, :func:`sweep`, the outputs) →
:mod:`model.plan_search` (candidates, bounds, the exact search, its cache) → :mod:`model.step_time` (one plan's
step) → :mod:`model.plan_fit` (a plan's replicas, degrees and memory) → :mod:`model.network` (round trip,
bandwidth caps, congestion) → :mod:`model.inputs` (a scenario as arrays) → the leaf physics
(:mod:`model.collectives`, :mod:`model.transport`, :mod:`model.compute`, :mod:`model.memory`, …).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from . import catalog, economics, reliability, topology
from .arrays import float_copy
from .compute import flops_per_iteration, model_flops_per_iteration
from .errors import ScenarioError
from .memory import USABLE_MEMORY_FRACTION
from .inputs import FABRIC_SWEEPABLE, SWEEPABLE, FabricRow, Inputs, build_inputs, derive_architecture, \
    resolve_fabrics
from .network import congestion_slowdown, inter_step_latency_s, nccl_inputs, network_for, split_slowdown
from .plan_fit import data_parallel_replicas, degrees_valid, largest_divisor_at_most, plan_memory
from .plan_search import PLAN_ARRAY_KEYS, PlanCacheInfo, clear_plan_cache, plan_cache_info, plan_candidates, \
    search_plans
from .scale import plan_hosts, straggler_factor
from .scenario import Scenario
from .step_time import a2a_beyond_fixed, compute_side, step_for_fabric
from .transport import cpu_cores_busy
from .results import BREAKDOWN_KEYS, BREAKDOWN_LABELS, Outputs, SweepResult, describe_plan


def evaluate_inputs(s: Scenario, inp: Inputs, plan: dict | None = None, lean: bool = False) -> Outputs:
    """All outputs for every fabric and point, typed (:class:`~model.results.Outputs`); the fastest plan is
    searched unless ``plan`` is given.

    ``plan`` (``tp``, ``pp``, ``micro_batch``, ``virtual_stages``, ``recompute`` (code), ``zero_stage``, ``cp``,
    ``ep`` arrays broadcasting against the fabric arrays, and in auto mode optionally ``dp``, its data-parallel
    replicas, else the most at which it is possible) evaluates that plan as it is, e.g. for Monte-Carlo
    samples around a nominal sweep. A searched plan is evaluated the same way: one output path. ``lean``
    computes only what the headline metrics need (step, utilisation, days, reliability, money), not the
    per-mechanism breakdown (the fields it leaves out are None).
    """
    return Outputs.from_tree(_output_tree(s, inp, plan, lean))


def _output_tree(s: Scenario, inp: Inputs, plan: dict | None = None, lean: bool = False) -> dict:
    """:func:`evaluate_inputs`' outputs as the engine assembles them: a nested dict of arrays, the names of
    :data:`model.results.ENGINE_PATHS`."""
    net, bandwidths = network_for(inp)
    step_latency = inter_step_latency_s(net)
    found, plan_side = None, None
    if plan is None:
        plan = _the_only_plan(s)
    if plan is None:
        plan, plan_side, *found = search_plans(s, inp, bandwidths[2], step_latency, net)
    chosen = plan_quantities(s, inp, plan, plan_side, judge=found is None)
    if found is not None:  # the search's verdicts: some plan fits; some plan's degrees are possible
        chosen = chosen._replace(fits=found[0], degrees_possible=found[1])
    # where no plan fits at any point, the placeholder plan's quantities are read and masked as NaN: no warnings
    if chosen.fits.any():
        return _outputs(s, inp, bandwidths, step_latency, net, chosen, lean=lean)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _outputs(s, inp, bandwidths, step_latency, net, chosen, lean=lean)


def _the_only_plan(s: Scenario) -> dict | None:
    """The plan when the scenario fixes every choice (explicit degrees, micro-batch, virtual stages, recompute,
    ZeRO stage): there is nothing to search, and evaluating it as a given plan (its possibility and fit judged
    per point) gives what the search would; else None."""
    if s.parallel.resolved_mode != "explicit":
        return None
    cand = plan_candidates(s)
    if cand[0].size != 1:
        return None
    return {k: x[0] for k, x in zip(PLAN_ARRAY_KEYS, cand)}


class PlanQuantities(NamedTuple):
    """A plan's quantities at every fabric and point, as :func:`_outputs` reads them (:func:`plan_quantities`)."""
    terms: dict  # :func:`~model.step_time.compute_side` of the plan
    tp: np.ndarray  # the plan's degrees and micro-batch (1 where there is no plan: a placeholder, masked later)
    pp: np.ndarray
    micro_batch: np.ndarray
    virtual_stages: np.ndarray
    memory_bytes: np.ndarray  # peak memory per GPU [B]
    fits: np.ndarray | None  # the plan is possible and fits in memory [bool]; None: not judged
    degrees_possible: np.ndarray | None  # the plan's degrees are possible [bool]; None: not judged


def plan_quantities(s: Scenario, inp: Inputs, plan: dict, plan_side=None, judge=True) -> PlanQuantities:
    """The quantities of a given plan (NaN entries: no plan there) and whether it is possible and fits.

    ``plan_side``: :func:`plan_side_terms` of the plan, if the search has it, with the plan's replicas and memory where
    the search gives them (:func:`chosen_plan`: not recomputed). ``judge`` False (a searched plan, whose verdicts
    the search gives): whether it is possible and fits is not computed (None, None)."""
    pt = inp.point
    round_batch = s.parallel.resolved_mode == "auto"
    arrays = [np.asarray(plan[k], dtype=float) for k in PLAN_ARRAY_KEYS]
    # the plan's arrays of one shape (a searched plan's): one table, a few calls rather than one per array and term
    if arrays[0].ndim and all(x.shape == arrays[0].shape for x in arrays):
        table = np.stack(arrays)
        good = np.isfinite(table).all(axis=0)
        tc, pc, bc, vc, rcc, zc, cc, ec = np.where(good, table, 1.0)
    else:
        good = functools.reduce(np.logical_and, [np.isfinite(x) for x in arrays])
        tc, pc, bc, vc, rcc, zc, cc, ec = (np.where(good, x, 1.0) for x in arrays)
    with np.errstate(divide="ignore", invalid="ignore"):  # placeholder plans where there is none are masked later
        replicas = found_mem = None
        if plan_side is not None and "replicas_d" in plan_side:  # the search's, where it found a plan
            plan_side = dict(plan_side)
            replicas = (plan_side.pop("replicas_d"), plan_side.pop("replicas_m"))
            found_mem = plan_side.pop("memory_bytes")
        if replicas is None and round_batch and "dp" in plan:  # the plan's own replicas, where it gives them
            given = np.asarray(plan["dp"], dtype=float)
            own = good & np.isfinite(given)
            d_most, m_most = data_parallel_replicas(pt, tc, pc, bc, round_batch, cc, vc, ec)
            d_own = np.where(own, given, d_most)
            replicas = (d_own, np.where(own, pt["global_batch"] / (d_own * bc), m_most))
        cs2 = compute_side(pt, tc, pc, bc, vc, rcc, zc, round_batch, plan_side, c=cc, replicas=replicas, e=ec)
        if found_mem is not None and not judge:  # the search's (read by the outputs where it found a plan only)
            return PlanQuantities(cs2, tc, pc, bc, vc, found_mem, None, None)
        mem, fits = plan_memory(pt, tc, pc, bc, vc, rcc, cs2)
        if not judge:
            return PlanQuantities(cs2, tc, pc, bc, vc, mem, None, None)
        ok = degrees_valid(pt, tc, pc, bc, vc, cs2["d"], cs2["m"], cc, ec)
    return PlanQuantities(cs2, tc, pc, bc, vc, mem, good & ok & fits, good & ok)


def train_days(train_tokens_b, tokens_per_s):
    """Failure-free training time [days]: the tokens to train [10⁹] over the throughput [tokens/s]."""
    return train_tokens_b * 1e9 / tokens_per_s / 86400.0


def _outputs(s: Scenario, inp: Inputs, bandwidths, inter_step, net, chosen: PlanQuantities, lean=False):
    """Every output of a plan, with the step-time breakdown by mechanism; ``lean``: the headline metrics only.

    ``bandwidths`` from :func:`inter_bandwidths`, ``inter_step`` from :func:`inter_step_latency_s`,
    ``net`` from :func:`network_state`; ``chosen``: the plan's quantities (:func:`plan_quantities`). The lean outputs
    (Monte-Carlo bands: step, utilisation, days, reliability, money) are the same expressions, so the bands'
    nominal sample is the nominal curve bit for bit; they leave out the steps at the ideal and the lossy
    bandwidth that only the breakdown reads.
    """
    pt, fab = inp.point, inp.fabric
    cs2, tc, pc, bc, vc, mem, any_valid, any_ok = chosen
    bw_ideal, bw_lossy, bw_final, eta = bandwidths
    slow = congestion_slowdown(cs2, net["congestion"])
    step = step_for_fabric(cs2, pt["dp_overlap"], bw_final, inter_step, slow)[0]
    # stragglers: the step waits for the slowest of the plan's hosts (model.scale); the plan search weighed the same
    # factor in its choice (plan_search.candidates.weighted_sequences)
    hosts = plan_hosts(tc, pc, cs2["cp"], cs2["d"], pt["gpus_per_node"])
    straggle = straggler_factor(hosts, pt["slow_host_fraction"])
    job = (tc * pc * cs2["cp"] * cs2["d"], hosts)  # the GPUs and hosts in the job: an idle GPU's failure stops nothing
    step_raw, step = step, step * straggle
    m, lc = cs2["m"], cs2["lc"]
    global_batch = m * cs2["d"] * bc
    G = pt["gpus"]
    if lean:
        mf = model_flops_per_iteration(global_batch, pt["seq_len"], pt["layers"], pt["hidden"], pt["vocab"],
                                       pt["layer_weights"], pt["core_width"])
    else:  # with the FLOPs the GPUs execute (recomputation included), from the same terms
        mf, hf = flops_per_iteration(global_batch, pt["seq_len"], pt["layers"], pt["hidden"], pt["vocab"], cs2["rc"],
                                     pt["layer_weights"], pt["core_width"])
    nan = np.where(any_valid, 1.0, np.nan)
    step_nan = step * nan
    model_tflops = mf / (step_nan * G) / 1e12
    tokens_per_s = global_batch * pt["seq_len"] / step_nan
    peak_t = pt["peak_flops"] / 1e12
    parts = dict(compute=m * (vc * lc * cs2["layer_compute"] + cs2["logits"]),
                 optimizer=float_copy(cs2["opt"], step.shape))
    if lean:  # the stragglers' wait spread over the parts, as the full breakdown spreads it
        parts = {k: x * straggle for k, x in parts.items()}
    out = dict(
        step_time_s=step_nan,
        mfu=model_tflops / peak_t,
        tokens_per_s=tokens_per_s,
        train_days=train_days(pt["train_tokens_b"], tokens_per_s),
        params=np.broadcast_to(pt["params"], step.shape),
        feasible=any_valid,
    )
    if lean:
        out["breakdown_s"] = {k: x * nan for k, x in parts.items()}
        return _with_reliability_and_money(s, pt, fab, out, lean=True, tree=net["tree"], job=job)
    # the communication parts at the ideal bandwidth; what loss recovery and the CPU cap add, apart
    step_ideal, p2p, t_chunk, exposed = step_for_fabric(cs2, pt["dp_overlap"], bw_ideal, inter_step, slow)
    # a bandwidth the same as one already timed (no loss, or no CPU cap) gives the same step: not timed again
    step_lossy = (step_raw if _same_values(bw_lossy, bw_final) else step_ideal if _same_values(bw_lossy, bw_ideal)
                  else step_for_fabric(cs2, pt["dp_overlap"], bw_lossy, inter_step, slow)[0])
    dp_slow, pp_slow, ep_slow = split_slowdown(slow)
    # a chunk's time beyond its compute, tensor-parallel and pipeline parts: the experts' all-to-all (over NVLink
    # and the fabric) and what the context-parallel ring leaves exposed
    a2a_net = a2a_beyond_fixed(cs2, inter_step, 1.0 / bw_ideal, ep_slow)
    a2a = cs2["chunk_a2a_intra"] + a2a_net
    ring = np.maximum(t_chunk - cs2["chunk_fixed"] - 2.0 * p2p - a2a_net, 0.0)
    parts.update(
        tp_comm=m * vc * lc * cs2["layer_tp"],
        cp_comm=m * vc * ring,
        ep_comm=m * vc * a2a,
        pp_comm=m * vc * 2.0 * p2p,
        bubble=(pc - 1.0) * t_chunk,
        dp_comm=exposed,
        loss_recovery=step_lossy - step_ideal,
        cpu=step_raw - step_lossy,
    )
    # the stragglers' wait: every part of the step waits for the slowest host in the same proportion
    parts = {k: x * straggle for k, x in parts.items()}
    hw_tflops = hf / (step_nan * G) / 1e12
    line_gbps = fab["link_gbps"] * fab["nics_per_node"]
    out.update(
        model_tflops_per_gpu=model_tflops,
        hardware_tflops_per_gpu=hw_tflops,
        hfu=hw_tflops / peak_t,
        breakdown_s={k: parts[k] * nan for k in BREAKDOWN_KEYS},
        plan=dict(tp=tc * nan, pp=pc * nan, dp=cs2["d"] * nan, micro_batch=bc * nan, virtual_stages=vc * nan,
                  gpus_used=tc * pc * cs2["cp"] * cs2["d"] * nan,
                  gpus_idle=(G - tc * pc * cs2["cp"] * cs2["d"]) * nan,
                  microbatches=cs2["m"] * nan, global_batch=global_batch * nan,
                  recompute=cs2["rc"] * nan, zero_stage=cs2["zero"] * nan, cp=cs2["cp"] * nan, ep=cs2["ep"] * nan,
                  expert_tp=np.where(pt["expert_tp"] > 0, pt["expert_tp"], tc) * nan,
                  distributed_optimizer=cs2["dist"] & any_valid),
        global_batch_used=global_batch * nan,
        global_batch_kept=np.broadcast_to(any_ok, any_valid.shape),  # some plan runs the batch as given
        memory_per_gpu_gb=mem / 1e9 * nan,
        memory_margin_gb=(pt["memory_bytes"] * USABLE_MEMORY_FRACTION - mem) / 1e9 * nan,
        degrees_exist=np.broadcast_to(any_ok, any_valid.shape),
        node_bandwidth_gbps=dict(line=line_gbps, ideal=bw_ideal * 8e-9, with_loss=bw_lossy * 8e-9,
                                 effective=bw_final * 8e-9),
        loss_efficiency=eta,
        network=dict(loaded_rtt_us=net["rtt_us"], switch_levels=net["levels"],
                     dp_congestion_slowdown=dp_slow * nan, pp_congestion_slowdown=pp_slow * nan,
                     ep_congestion_slowdown=ep_slow * nan),
        cpu_cores_busy=cpu_cores_busy(bw_final * 8e-9, fab["cpu_gbps_per_core"]),
        architecture=dict(layers=pt["layers"], hidden=pt["hidden"], heads=pt["heads"], kv_heads=pt["kv_heads"]),
        model_flops_per_iter=mf,
        hardware_flops_per_iter=hf,
    )
    return _with_reliability_and_money(s, pt, fab, out, tree=net["tree"], job=job)


def _same_values(a, b):
    """Whether arrays ``a`` and ``b`` have the same shape and the same values, bit for bit."""
    return np.shape(a) == np.shape(b) and np.asarray(a).tobytes() == np.asarray(b).tobytes()


def _with_reliability_and_money(s, pt, fab, out, lean=False, tree=None, job=None):
    """Reliability, fabric counts and money, appended to the engine's outputs; ``tree``: the fabrics'
    :func:`~model.topology.fat_tree`, if already built (:func:`network_state`); ``job``: the GPUs and hosts the
    plan occupies (:func:`model.reliability.outputs`)."""
    out.update(reliability.outputs(pt, fab, out, lean=lean, job=job))
    out.update(topology.outputs(pt, fab, tree))
    out.update(economics.outputs(s, pt, fab, out, lean=lean))
    return out


def _squeeze_tree(tree, n_fabrics):
    if isinstance(tree, dict):
        return {k: _squeeze_tree(v, n_fabrics) for k, v in tree.items()}
    arr = np.asarray(tree)
    if arr.ndim == 2:
        return arr[:, 0]
    if arr.ndim == 1:
        return arr[0] if arr.shape[0] == 1 else arr
    return arr


def _broadcast_tree(tree, shape):
    """Every array of the nested dict ``tree`` at the sweep's ``shape``: as it is when it has that shape, else a
    writable copy (cheaper than ``broadcast_to``'s); a point array (N,) is repeated per fabric. The leaves of a
    level are handled in its loop, one call per dict (a result holds some hundred arrays)."""
    out = {}
    for k, x in tree.items():
        if isinstance(x, dict):
            out[k] = _broadcast_tree(x, shape)
            continue
        arr = x if type(x) is np.ndarray else np.asarray(x)
        if arr.shape != shape:
            full = np.empty(shape, dtype=arr.dtype)
            full[...] = arr[None, :] if arr.ndim == 1 and shape[0] != arr.shape[0] else arr
            arr = full
        out[k] = arr
    return out


def sweep(scenario: Scenario, field: str, values) -> SweepResult:
    """Evaluate ``scenario`` with ``field`` over ``values``, for all fabrics at once.

    ``field`` is a dotted scenario path from :data:`SWEEPABLE`, or a fabric
    value for all fabrics (``"fabric.latency_us"``) or one
    (``"fabric.roce.loss_rate"``). Arrays in the result have shape (F, N).
    """
    given = _the_only_plan(scenario)  # a plan fixed by the scenario broadcasts over point inputs of one point
    inp = build_inputs(scenario, field, values, fabric_points_cut=True, points_cut=given is not None)
    data = _output_tree(scenario, inp, given)
    shape = (len(inp.fabrics), inp.n)
    data = _broadcast_tree(data, shape)
    return SweepResult.from_tree(data, scenario=scenario, fabrics=tuple(r.name for r in inp.fabrics),
                                 labels=tuple(r.label for r in inp.fabrics), field=field,
                                 x=np.asarray(values, dtype=float).reshape(-1), fabric_rows=tuple(inp.fabrics))


def evaluate(scenario: Scenario, *, require_feasible: bool = True, memory_limit: bool = True) -> SweepResult:
    """Evaluate one scenario for all its fabrics. Arrays have shape (F,).

    Raises :class:`ScenarioError` when no plan fits (explicit degrees that do
    not divide the GPUs, or a model that does not fit in GPU memory), unless
    ``require_feasible`` is false. ``memory_limit = False`` times plans whatever the engine's memory estimate
    (still reported in ``memory_per_gpu_gb``): for published runs whose paper states that they ran, by means the
    memory model does not describe (model.validation).
    """
    inp = build_inputs(scenario)
    if not memory_limit:
        inp.point["memory_bytes"] = np.full(inp.n, np.inf)
    data = _output_tree(scenario, inp)
    F = len(inp.fabrics)
    data = _broadcast_tree(data, (F, 1))
    data = _squeeze_tree(data, F)
    res = SweepResult.from_tree(data, scenario=scenario, fabrics=tuple(r.name for r in inp.fabrics),
                                labels=tuple(r.label for r in inp.fabrics), field=None, x=None,
                                fabric_rows=tuple(inp.fabrics))
    if require_feasible and not np.all(res.plan.feasible):
        raise infeasible_error(scenario)
    check_finishes(res)
    return res


def check_finishes(res: SweepResult) -> None:
    """Refuse a scenario whose run never finishes (:data:`reliability.MAX_WALL_FACTOR`) for a fabric whose plan
    fits: its times would be NaN, not numbers. ``res`` is an :func:`evaluate` result (arrays (F,))."""
    days = np.asarray(res.reliability.train_days_with_interruptions, dtype=float).reshape(-1)
    fits = np.asarray(res.plan.feasible, dtype=bool).reshape(-1)
    bad = np.flatnonzero(fits & ~np.isfinite(days))
    if bad.size == 0:
        return
    i = int(bad[0])
    d = res.at(res.fabrics[i]).reliability
    raise ScenarioError(
        "reliability", f"MTBF {d.mtbf_h:.3g} h, checkpoint write {d.checkpoint_write_min:.3g} min every "
                       f"{d.checkpoint_interval_min:.3g} min",
        f"a run that finishes on {res.labels[i]} (expected time at most {reliability.MAX_WALL_FACTOR:g} × the "
        "failure-free time): raise reliability.storage_gb_per_s, shorten reliability.checkpoint_interval_min or lower the "
        "interruption rates")


def infeasible_error(s: Scenario) -> ScenarioError:
    """The clearest explanation of why no plan fits."""
    g = catalog.gpu(s.cluster.gpu)
    if s.parallel.resolved_mode == "explicit":
        tp, pp = s.parallel.tp or 1, s.parallel.pp or 1
        if tp > s.cluster.gpus_per_node:
            return ScenarioError("parallel.tp", tp, f"at most gpus_per_node = {s.cluster.gpus_per_node} "
                                                    "(tensor parallelism stays inside a node)")
        return ScenarioError("parallel", f"tp={tp}, pp={pp}",
                             f"a plan that fits in {g['memory_gb']} GB per GPU ({s.cluster.gpu}): raise pp or tp, "
                             "use recompute = \"full\", or a smaller micro_batch")
    return ScenarioError("workload.params_b", s.workload.params_b,
                         f"a model that fits on {s.cluster.nodes} × {s.cluster.gpus_per_node} {s.cluster.gpu} "
                         f"({g['memory_gb']} GB each) with some tp ≤ {s.cluster.gpus_per_node} and pp; "
                         "add nodes, use recompute = \"full\", or choose a larger GPU")


Result = SweepResult  # the name the engine's result had

__all__ = ["evaluate", "sweep", "Result", "SweepResult", "Outputs", "BREAKDOWN_KEYS", "BREAKDOWN_LABELS", "SWEEPABLE", "FABRIC_SWEEPABLE",
           "FabricRow", "Inputs", "PLAN_ARRAY_KEYS", "PlanCacheInfo", "build_inputs", "check_finishes",
           "clear_plan_cache", "derive_architecture", "describe_plan", "evaluate_inputs", "infeasible_error",
           "largest_divisor_at_most", "nccl_inputs", "plan_cache_info", "plan_quantities", "PlanQuantities",
           "resolve_fabrics", "train_days"]
