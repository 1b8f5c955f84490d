"""One plan's step time: the compute side, the plan's layer and stage terms, the step on a fabric.

:func:`compute_side` computes everything that does not depend on the fabric (layer times, tensor-parallel
communication, the pipeline's and the data-parallel reduction's "communication geometry");
:func:`step_for_fabric` turns it into a step time for a fabric's node bandwidth, step latency and congestion
with a few operations. :func:`plan_side_terms` (:func:`layer_side_terms` of one layer, then
:func:`stage_side_terms` of a stage) holds what depends on the plan and the model but not on the number of GPUs.
"""

from __future__ import annotations

import numpy as np

from .arrays import all_true, any_true, fills, float_copy, one_value, where_uniform
from .collectives import DDP_BUCKET_BYTES, NCCL_BASE_US, NCCL_NVLINK_STEP_US, bus_factor, collective_latency_s, \
    collective_time, p2p_time, ring_steps, tree_steps
from .nccl_model import in_node_collective_time
from .compute import BYTES_BF16, HALF_RECOMPUTE_SHARE, MEM_PASSES, TP_OVERLAP_GEMM_SLOWDOWN, gemm_efficiency, layer_times_forward, \
    logits_time, optimizer_time
from .inputs import GRAD_BYTES
from .memory import stage_params
from .network import split_slowdown
from .plan_fit import GRID_MIN_ENTRIES, data_parallel_replicas, divides, rank_layer_weights


MOE_ALL_TO_ALLS = 4.0  # dispatch and combine, forward and backward, per MoE layer and micro-batch

RING_PASSES = 3.0  # K/V blocks go around the ring once forward, K/V and their gradients once backward (Liu et al.)


def compute_side(pt, t, p, b, v, rc, z, round_batch, plan_side=None, c=1.0, replicas=None, e=1.0, search=False,
                 replica_side=None):
    """Everything that does not depend on the fabric, for plans of any shape broadcasting with the point arrays.

    Returns the compute-side times and the "communication geometry": the
    coefficients that turn a fabric's per-node bandwidth and per-step latency
    into pipeline and data-parallel communication time with a few operations.
    The algebra is that of :func:`~model.collectives.hierarchical_all_reduce_time`
    and :func:`~model.collectives.p2p_time` (a test checks they agree).
    ``rc``: recompute code (0 none, 1 selective, 2 full, 3 half); ``z``: ZeRO stage (0-3); ``c``: context-parallel
    degree (the ``d·c`` ranks that hold the same weights reduce gradients and shard states together, as
    Megatron-LM's distributed optimizer does over data × context parallelism).
    ``plan_side``: :func:`plan_side_terms` of the same plans, if already computed; ``replicas``: their
    :func:`data_parallel_replicas` ``(d, m)``, likewise (with ``round_batch``, whole numbers of replicas, as it
    gives them).
    ``search``: only what the plan search reads (:data:`STEP_KEYS`, :data:`CONGESTION_PLAN_KEYS`, ``d`` and ``m``),
    not the plan's own degrees and stage (``cp``, ``ep``, ``rc``, ``zero``, ``dist``) that its rows already hold.
    ``replica_side``: :func:`replica_side_terms` of the same plans and replicas, if already computed (the plan
    search's, once per column of degrees, read at its rows), with their ``dp_volume`` against the stages ``z`` where
    the stage terms are computed a stage at a time (many rows against a row of stages).

    ZeRO traffic (Rajbhandari et al. 2020, §7): stages 0 and 1 move one all-reduce's volume per step
    (stage 1 as a reduce-scatter and an all-gather), overlapped with the last micro-batch's backward;
    stage 2 reduce-scatters every micro-batch's gradients (``m`` reduce-scatters and one all-gather: a
    factor ``(m + 1)/2``) during each backward; stage 3 (FSDP) also all-gathers the weights before each
    micro-batch's forward and backward (``3m`` halves: a factor ``1.5·m``), overlapped with forward and backward
    by prefetching one layer ahead (PyTorch FSDP). One bucket (one layer's gather) stays exposed.
    """
    gpn = pt["gpus_per_node"]
    ps = (plan_side_terms({k: pt[k] for k in PLAN_SIDE_POINT_KEYS}, t, p, b, v, rc, c, e) if plan_side is None
          else plan_side)
    d_seq, m = data_parallel_replicas(pt, t, p, b, round_batch, c, v, e) if replicas is None else replicas
    d = d_seq * c  # ranks that hold the same weights
    g = pt["grad_ratio"]
    by_stage = (np.ndim(z) == 2 and np.shape(z)[0] == 1 and np.ndim(d) == 2 and np.shape(d)[1] == 1
                and np.shape(d)[0] >= GRID_MIN_ENTRIES)
    # without data parallelism there is nothing to shard; rows against a row of stages: on (stages, rows), seen
    # as (rows, stages) (numpy broadcasts along a short last axis several times slower)
    if not (search and by_stage):  # else only the stage terms read the stage, a stage at a time
        zero = np.where(d.T > 1, np.asarray(z).T, 0.0).T if by_stage else np.where(d > 1, z, 0.0)
        dist = zero >= 1
    if by_stage:  # the plan search's many rows against a row of stages: the stage terms a stage at a time
        opt, volume, window = _stage_columns(np.asarray(z)[0], d > 1, d, m, g, ps, pt["hbm_bytes_per_s"],
                                             None if replica_side is None else replica_side.get("dp_volume"))
    else:
        opt = optimizer_time(ps["params_gpu"] / np.where(dist, d, 1.0), pt["hbm_bytes_per_s"])
    # data-parallel gradient reduction, hierarchical and bucketed: reduce-scatter and all-gather inside the
    # node (the same cost: same bus factor and steps), all-reduce of each rank's shard across nodes
    # (operations into this call's own temporaries, ``out=_own(x)``, where the other operands broadcast into them:
    # the same values, fewer arrays of the rows' size)
    rs_ = replica_side_terms(gpn, t, p, c, d, search and round_batch) if replica_side is None else replica_side
    g_dp, n_dp, bf_rs, lat_rs, steps, bf_ar = (rs_[k] for k in ("g_dp", "n_dp", "bf_rs", "lat_rs", "steps", "bf_ar"))
    buckets, per_bucket = ps["buckets"], ps["per_bucket"]
    beta = per_bucket * bf_rs / pt["intra_busbw"]
    rs = np.where(g_dp > 1, lat_rs + beta, 0.0)  # collective_time("reduce_scatter", per_bucket, g_dp, ...)
    # NCCL pipelines the in-node and the network phases: their bandwidth terms overlap (the slower sets the pace),
    # their latencies add (model.nccl_model.nccl_collective)
    intra_bw = buckets * 2.0 * per_bucket * bf_rs / pt["intra_busbw"]
    intra = np.add(rs, rs, out=rs)  # buckets · (rs + rs) − intra_bw, in rs (it holds the shapes of all three)
    intra = np.subtract(np.multiply(buckets, intra, out=intra), intra_bw, out=intra)
    inter_buckets = buckets * (n_dp > 1)  # the buckets that cross nodes
    # one all-reduce's network latency and bandwidth terms, in their own arrays (intra holds the shapes of both)
    inter_lat = inter_buckets * NCCL_BASE_US
    inter_lat = np.add(intra, np.multiply(inter_lat, 1e-6, out=_own(inter_lat)), out=intra)
    inter_bw = per_bucket / g_dp
    inter_bw = np.multiply(np.multiply(inter_buckets, inter_bw, out=_own(inter_bw)), bf_ar, out=_own(inter_bw))
    inter_bw = np.multiply(inter_bw, gpn, out=_own(inter_bw))
    # halves of an all-reduce's volume: reduce-scatters of gradients (in ``grad_precision``, ratio ``g`` to bf16)
    # and all-gathers (of bf16 weights with ZeRO ≥ 1; of gradients, the all-reduce's second half, with stage 0)
    if not by_stage:
        rs_halves = np.where(zero >= 2, m, 1.0)
        ag_halves = np.where(zero >= 3, 2.0 * m, 1.0) * np.where(zero == 0, g, 1.0)
        volume = 0.5 * (rs_halves * g + ag_halves)
        window = np.where(zero >= 2, m * (ps["window"] + (zero >= 3) * ps["fwd_window"]), ps["window"])
    # what the step and memory read per plan: not the bucket size nor the parameters per GPU (in ``opt``)
    cs = {k: x for k, x in ps.items() if k not in ("per_bucket", "params_gpu", "fwd_window")}
    if not search:
        cs.update(dist=dist, cp=float_copy(c, np.shape(d)), ep=float_copy(e, np.shape(d)),
                  rc=float_copy(rc, np.shape(d)), zero=zero)
    slots = m * v + p
    cs.update(
        d=d_seq, m=m, opt=opt, window=window, n_dp=n_dp,
        stage_nodes=t * c * d_seq / gpn,  # pipeline placement; the depth: the rows' own array in the search
        stages=p if search and np.shape(p) == np.shape(d) else float_copy(p, np.shape(d)),
        dp_volume=volume, buckets=buckets,
        slots=np.subtract(slots, 1.0, out=_own(slots)), m_logits=m * ps["logits"],
        # one all-reduce's volume (``dp_volume`` all-reduces' worth per step: the ZeRO stage's traffic):
        # intra + inter_buckets · NCCL_BASE_US · 1e-6, inter_buckets · (per_bucket / g_dp) · bf_ar · gpn
        dp_k0=inter_lat, dp_intra_bw=intra_bw, overlap_tax=pt["overlap_tax"],
        dp_k1=inter_buckets * steps,
        dp_k2=inter_bw,
    )
    return cs


def replica_side_terms(gpn, t, p, c, d, whole=False):
    """What :func:`compute_side`'s data-parallel reduction reads of the plan's degrees and its ranks that hold the
    same weights ``d`` (``d·c``) alone, whatever the model: the ranks of a group in a node ``g_dp`` and its nodes
    ``n_dp``, the in-node reduce-scatter's bus factor and latency ``bf_rs``, ``lat_rs``, and the all-reduce's steps
    and bus factor across nodes ``steps``, ``bf_ar``. ``whole``: ``g_dp`` holds whole numbers (the search's replicas
    in auto mode: a floor, or a divisor of the batch, of whole degrees; the in-node cap is a floor)."""
    # the ranks of a node that hold the same weights: where a whole pipeline fits in a node (its sends stay
    # inside, :func:`pipeline_crosses`) a node holds ``gpn/(t·c·p)`` replicas of ``c`` such ranks each; else the
    # pipeline's stages sit on different nodes and a node holds ``gpn/t`` ranks of one stage (Megatron-LM's
    # default rank order, tensor then context then data parallel)
    in_node = gpn / np.where(pipeline_crosses(t, p, c, gpn), t, t * p)
    in_node = np.maximum(np.floor(in_node, out=_own(in_node)), 1.0, out=_own(in_node))
    g_dp = np.minimum(np.maximum(d, 1.0), in_node)  # d = 0: a plan that cannot be
    n_dp = d / g_dp
    n_dp = np.ceil(n_dp, out=_own(n_dp))
    # the reduce-scatter's bus factor and latency, and the all-reduce's steps and bus factor across nodes: functions
    # of the few whole numbers g_dp and n_dp take, computed once per number on the plan search's many rows
    bf_rs, lat_rs = at_whole_values(g_dp, reduce_scatter_terms, whole=whole)
    steps, bf_ar = at_whole_values(n_dp, all_reduce_terms, whole=True)  # whole: a ceil
    return dict(g_dp=g_dp, n_dp=n_dp, bf_rs=bf_rs, lat_rs=lat_rs, steps=steps, bf_ar=bf_ar)


def _own(x):
    """``x`` as the ``out`` of an elementwise operation on it: ``x`` itself where it is an array (a temporary of the
    caller's own, overwritten in place: the same values without a new array), else None (a number: a new one)."""
    return x if type(x) is np.ndarray else None


def reduce_scatter_terms(g):
    """The in-node reduce-scatter of ``g`` ranks' bus factor and latency [s], the two terms of
    :func:`~model.collectives.collective_time` over NVLink: ``latency + size · factor / busbw`` for ``g > 1``."""
    return bus_factor("reduce_scatter", g), collective_latency_s("reduce_scatter", g, NCCL_NVLINK_STEP_US * 1e-6)


def all_reduce_terms(n):
    """The all-reduce of ``n`` nodes' latency steps (the fewer of ring and tree) and bus factor."""
    return np.minimum(ring_steps("all_reduce", n), tree_steps("all_reduce", n)), bus_factor("all_reduce", n)


def at_whole_values(x, fn, whole=False):
    """``fn(x)`` (a tuple of arrays, elementwise in ``x``), computed once per value where ``x`` holds whole numbers
    from 0 to a quarter of its size (the data-parallel ranks in and across nodes of the plan search's rows): on
    those numbers, then read at each entry. Elsewhere ``fn(x)`` itself; the same values either way (the same
    elementwise operations on the same numbers). ``whole``: ``x`` holds whole numbers wherever it is finite (a
    ``ceil``'s result): then the range alone is checked (a NaN or an infinity fails it), not each entry."""
    x = np.asarray(x, dtype=float)
    if x.size >= GRID_MIN_ENTRIES:
        top = x.max()
        if 0.0 <= x.min() and top < x.size // 4:
            idx = x.astype(np.intp)
            if whole or np.array_equal(idx, x):
                return tuple(np.take(y, idx) for y in fn(np.arange(top + 1.0)))
    return fn(x)


def _stage_columns(stages, sharded, d, m, g, ps, hbm, volume=None):
    """:func:`compute_side`'s ZeRO-stage terms ``opt``, ``dp_volume`` and ``window`` for plans (rows, 1) against
    the stages ``stages`` (Z,): arrays (rows, Z), computed a stage at a time from what differs between stages
    (the optimizer step is that of any sharded stage), element by element the same expressions; ``opt`` (rows, 1)
    where every stage shards (one column: the same at each, broadcasting against the others).
    ``sharded``: ``d > 1`` (the stage applies; else stage 0).

    Each stage's expression is computed straight into its column (``out=``, operands in the same order), and the
    rows that do not shard then take stage 0's value (``copyto``): no temporaries of the rows' size to copy in,
    and no masking where every row shards (the plan search's rows mostly have data parallelism). ``volume``:
    :func:`stage_volume` of the same rows, if already computed."""
    n = np.shape(d)[0]
    unsharded = None if sharded.all() else ~sharded
    opt_sharded = optimizer_time(ps["params_gpu"] / (d if unsharded is None else np.where(sharded, d, 1.0)), hbm)
    opt_whole = optimizer_time(ps["params_gpu"] / 1.0, hbm) if np.any(np.asarray(stages) < 1) else None
    w, fwd = ps["window"], ps["fwd_window"]
    volume = stage_volume(stages, sharded, m, g) if volume is None else volume
    window = np.empty((n, len(stages)))
    opt = opt_sharded if opt_whole is None else np.empty((n, len(stages)))
    for i, z in enumerate(stages):
        win = window[:, i:i + 1]
        if opt_whole is not None:
            opt[:, i:i + 1] = opt_sharded if z >= 1 else opt_whole
        if z >= 2:  # m · (w + forward windows): at stage 3 the weights gathered before each forward, else 0 · those
            if z >= 3:
                np.add(w, fwd, out=win)
            else:
                np.multiply(0.0, fwd, out=win)
                np.add(w, win, out=win)
            np.multiply(m, win, out=win)
            if unsharded is not None:
                np.copyto(win, w, where=unsharded)
        else:
            win[...] = w
    return opt, volume, window


def stage_volume(stages, sharded, m, g):
    """:func:`_stage_columns`' ``dp_volume``: the all-reduces' worth of traffic a step at each ZeRO stage of
    ``stages`` (Z,) for plans (rows, 1) of ``m`` micro-batches and gradients ``g`` times bf16's size, stage 0's where
    not ``sharded`` (rows, Z), a stage at a time. A function of the replicas alone: the plan search computes it
    once per column of degrees where the replicas are the same at every point."""
    volume_0 = 0.5 * (1.0 * g + 1.0 * g)  # stage 0: the all-reduce's two halves of gradients
    unsharded = None if sharded.all() else ~sharded
    volume = np.empty((np.shape(sharded)[0], len(stages)))
    m_g = None
    for i, z in enumerate(stages):
        vol = volume[:, i:i + 1]
        if z < 1:
            vol[...] = volume_0
            continue
        # 0.5 · (rs_halves · g + ag_halves): halves (1, 1) at stage 1, (m, 1) at 2, (m, 2m) at 3 (ag: bf16)
        if z == 1:
            vol[...] = 0.5 * (1.0 * g + 1.0)
        else:
            m_g = m * g if m_g is None else m_g
            if z == 2:
                np.add(m_g, 1.0, out=vol)
            else:
                np.multiply(2.0, m, out=vol)
                np.add(m_g, vol, out=vol)
            vol *= 0.5
        if unsharded is not None:
            np.copyto(vol, volume_0, where=unsharded)
    return volume


# the terms of plan_side_terms that compute_side computes with (the others it passes on)
COMPUTE_SIDE_PLAN_KEYS = ("params_gpu", "buckets", "per_bucket", "window", "fwd_window", "logits")

# point inputs of plan_side_terms: with none of them changing along a sweep, it runs once per candidate plan
PLAN_SIDE_POINT_KEYS = ("experts", "attn_weights", "expert_weights", "layer_weights_time", "moe_tokens",
                        "seq_len", "hidden", "heads", "kv_heads", "layers", "vocab", "gpus_per_node", "core_peak",
                        "hbm_bytes_per_s", "sp", "flash", "intra_busbw", "intra_p2p_bw", "layer_weights", "mlp_ratio",
                        "gemm_peak", "untied", "nvls_busbw", "ll_max_node", "tp_overlap", "ep_overlap",
                        "routed_weights_time", "imbalance", "routed_nodes", "shared_experts", "expert_tp",
                        "core_width", "core_dim", "kv_width", "recompute_weights", "compute_time_scale",
                        "mlp_ratio_time", "recompute_bytes")


def plan_side_terms(pt, t, p, b, v, rc, c=1.0, e=1.0):
    """What depends on the plan and the model but not on the number of GPUs (so not on ``d`` or ``m``).

    Layer times, tensor-parallel communication, the pipeline's point-to-point geometry and the
    gradient buckets; ``pt`` holds :data:`PLAN_SIDE_POINT_KEYS`, ``rc`` is the recompute code.

    Context parallelism ``c`` (Megatron-LM context parallel, ring attention: Liu et al., "Ring Attention with
    Blockwise Transformers", 2023) gives each rank ``s/c`` tokens: dense work, activations, tensor-parallel
    and pipeline messages shrink by ``c``; attention, ``s/c`` queries against all ``s`` keys (causal,
    load-balanced), by ``c`` as well. The key/value blocks travel the ring: :data:`RING_PASSES` ·
    ``(c−1)`` steps per layer and micro-batch of ``2·b·(s/c)·k·(h/a)/t`` bf16 elements, hidden behind the
    attention core; across nodes when the ``t·c`` ranks do not fit in one.

    Mixture-of-experts (Lepikhin et al. 2021, GShard; Megatron-LM MoE): the experts are split over ``e``
    expert-parallel ranks; each MoE layer moves every token's ``K·capacity`` copies (``s/c·b/t`` tokens of ``h``
    bf16 values a rank, sequence-parallel) through :data:`MOE_ALL_TO_ALLS` all-to-alls a micro-batch, on the
    critical path: over NVLink among the ranks in a node, over the fabric for the share ``1 − g/e`` that leaves
    it (``g`` ranks of the group per node), at the node's bandwidth, one latency step per other node.
    """
    return stage_side_terms(pt, layer_side_terms(pt, t, b, rc, c, e), t, p, v, c, e)


def layer_side_terms(pt, t, b, rc, c=1.0, e=1.0):
    """The terms of :func:`plan_side_terms` of one layer: they depend on the model but not on its number of layers,
    and on the plan but not on its pipeline depth nor virtual stages.

    Along a model-size sweep the hidden size takes a few values (multiples of :data:`HIDDEN_MULTIPLE`) while
    the layer count changes at almost every point: :func:`plan_side_at` computes these once per distinct
    (model without its layer count, tp, micro-batch, recompute, cp, ep).
    """
    s_full, h, a, V = pt["seq_len"], pt["hidden"], pt["heads"], pt["vocab"]
    s = s_full / c
    gpn = pt["gpus_per_node"]
    # tensor-parallel overlap takes SMs from the dense GEMMs (TP_OVERLAP_GEMM_SLOWDOWN, model.compute)
    gemm_peak = pt["gemm_peak"] / (1.0 + TP_OVERLAP_GEMM_SLOWDOWN * ((pt["tp_overlap"] > 0) & (t > 1)))
    dense_f, core_f = layer_times_forward(b, s, h, a, t, pt["core_peak"], pt["hbm_bytes_per_s"], pt["sp"],
                                          pt["flash"], layer_weights=pt["layer_weights_time"], mlp_ratio=pt["mlp_ratio_time"],
                                          gemm_peak_flops=gemm_peak, core_width=pt["core_width"],
                                          core_dim=pt["core_dim"])
    core_f = core_f * c  # s/c queries against all s keys
    moe = any_true(np.asarray(pt["routed_weights_time"]) > 0)
    if moe:  # the routed experts at their own tensor parallelism, waiting for the busiest rank; the permutations
        et = expert_tp_of(pt, t)
        imb = 1.0 + pt["imbalance"]
        routed_f = 2.0 * b * s * pt["routed_weights_time"] / t / gemm_peak
        dense_f = dense_f + routed_f * (imb / gemm_efficiency(h / et) - 1.0 / gemm_efficiency(h / t))
        perm_f = permutation_time_forward(pt, b * s / t, e)
    else:
        perm_f = 0.0
    # the training framework's compute rate (model.scale: 1 for Megatron-LM)
    scale = pt["compute_time_scale"]
    dense_f, core_f, perm_f = dense_f * scale, core_f * scale, perm_f * scale
    extra = np.where(rc == 2, dense_f + core_f, np.where(rc == 1, core_f, 0.0))
    n_ar = 4.0 + 2.0 * (rc == 2)
    if any_true(np.asarray(rc) == 3):  # half: the recomputed forward (and its two all-reduces) of half the layers
        extra = np.where(rc == 3, HALF_RECOMPUTE_SHARE * (dense_f + core_f), extra)
        n_ar = n_ar + 2.0 * HALF_RECOMPUTE_SHARE * (rc == 3)
    if any_true(np.asarray(pt["recompute_weights"]) > 0):  # latent attention's up-projections again, in the backward
        extra = extra + 2.0 * b * s * pt["recompute_weights"] / t / (gemm_peak * gemm_efficiency(h / t)) * scale
    if any_true(np.asarray(pt["recompute_bytes"]) > 0):  # the normalisations and SwiGLU products written again
        extra = extra + MEM_PASSES * b * s * pt["hidden"] * pt["recompute_bytes"] / t / pt["hbm_bytes_per_s"] * scale
    layer_compute = 3.0 * (dense_f + core_f) + extra
    t_ar = in_node_collective_time("all_reduce", b * s * h * BYTES_BF16, t, pt["intra_busbw"], pt["intra_p2p_bw"],
                                   pt["nvls_busbw"], pt["ll_max_node"])
    if moe:
        # half the layer's tensor-parallel collectives are the attention's; the other half gather and scatter the
        # routed token copies an expert-parallel rank received (``K·capacity·b·s/t`` tokens of each of the ``et``
        # ranks of the experts' tensor-parallel group: Megatron-Core's all-to-all dispatcher gathers them over
        # that group after the all-to-all), and the shared experts' the sequence's, as a dense MLP's
        t_exp = in_node_collective_time("all_reduce", pt["moe_tokens"] * b * s * h * BYTES_BF16 * et / t, et,
                                        pt["intra_busbw"], pt["intra_p2p_bw"], pt["nvls_busbw"], pt["ll_max_node"])
        layer_tp = 0.5 * n_ar * (t_ar * (1.0 + (pt["shared_experts"] > 0)) + t_exp)
        # the permutations run again where the layer is recomputed (all of them, or half the layers')
        again = np.where(rc == 2, 1.0, np.where(rc == 3, HALF_RECOMPUTE_SHARE, 0.0)) * perm_f
        extra = extra + again
        layer_compute = layer_compute + 2.0 * perm_f + again
    else:
        layer_tp = n_ar * t_ar
    # tensor-parallel overlap: each all-gather / reduce-scatter is split into t steps pipelined with the partial
    # GEMMs they feed (Wang et al., ASPLOS 2023; Transformer Engine userbuffers): the first step stays exposed, and
    # whatever the layer's dense forward and backward cannot hide
    hidden_tp = np.maximum(layer_tp - 3.0 * dense_f, 0.0) + layer_tp / t
    layer_tp = np.where(pt["tp_overlap"] > 0, np.minimum(hidden_tp, layer_tp), layer_tp)
    logits = logits_time(b, s, h, V, t, pt["core_peak"], pt["hbm_bytes_per_s"]) * scale
    msg = s * h * BYTES_BF16 * b / t  # scatter/gather over the t NICs (Narayanan et al. §4.1)
    # one in-node send between two pipeline stages (the stage side keeps it where there are stages)
    p2p_send = in_node_collective_time("sendrecv", msg, 2.0, pt["intra_busbw"], pt["intra_p2p_bw"],
                                       ll_max_bytes_per_s=pt["ll_max_node"])
    # ring attention: one step's block per GPU, the steps per layer, and what hides them (the attention core)
    ring_block = 2.0 * b * s * pt["kv_width"] / t * BYTES_BF16
    ring_steps_layer = RING_PASSES * (c - 1.0)
    ring_crosses = (c > 1) & (t * c > gpn)
    ring_intra = ring_steps_layer * p2p_time(ring_block, pt["intra_p2p_bw"], NCCL_NVLINK_STEP_US * 1e-6)
    hide = 3.0 * core_f
    # what hides a ring crossing nodes and the bytes it sends there: read only where a ring crosses nodes (the
    # step's ring term), so one value 0 where none does (no context parallelism): not read at every plan
    ring_net = (ring_block * gpn, hide) if any_true(ring_crosses) else (np.zeros((1,) * max(np.ndim(hide), 1)),) * 2
    # expert-parallel all-to-all: bytes a rank sends, its share inside the node and across nodes
    a2a_bytes = pt["moe_tokens"] * b * s * h * BYTES_BF16 / t * (pt["experts"] > 1)
    if moe:  # the busiest rank receives its imbalance more; expert-parallel ranks ``et`` apart with folding
        a2a_bytes = a2a_bytes * imb
        g_ep = np.minimum(e, np.maximum(np.floor(gpn / np.where(pt["expert_tp"] > 0, et, t * c)), 1.0))
    else:
        g_ep = np.minimum(e, np.maximum(np.floor(gpn / (t * c)), 1.0))
    a2a_out = 1.0 - g_ep / e
    intra_share = g_ep / e
    limited = False
    if moe and np.any(pt["routed_nodes"] > 0):
        # node-limited routing (DeepSeek-V3 report §2.1.2 and §3.2.2): a token reaches experts on at most M nodes
        # and crosses the fabric once per node, then NVLink forwards it to the GPUs of that node: of its K copies,
        # min(K, M)/K cross nodes, every copy moves over NVLink
        limited = pt["routed_nodes"] > 0
        a2a_out = a2a_out * np.where(limited, np.minimum(pt["routed_nodes"] / pt["moe_tokens"], 1.0), 1.0)
        intra_share = np.where(limited, 1.0, intra_share)
    a2a_intra = collective_time("all_to_all", a2a_bytes * intra_share, g_ep, pt["intra_busbw"],
                                NCCL_NVLINK_STEP_US * 1e-6)
    # with node-limited routing the NVLink forwarding is pipelined with the fabric transfer it continues (one kernel
    # per dispatch or combine, DeepSeek-V3 report §3.2.2: "IB and NVLink communications are fully overlapped"): the
    # all-to-all takes the longer of the two, not their sum (``a2a_piped``, off the chunk's fixed time)
    a2a_piped = np.where(limited, a2a_intra, 0.0) if moe and np.any(limited) else np.zeros(1)
    a2a_fixed = a2a_intra - a2a_piped if moe and np.any(limited) else a2a_intra
    return dict(
        layer_compute=layer_compute, layer_tp=layer_tp, logits=logits, p2p_send=p2p_send,
        p2p_bytes_node=msg * gpn, ring_crosses=ring_crosses, ring_steps_layer=ring_steps_layer,
        ring_bytes_node=ring_net[0], hide=ring_net[1], ring_gap=np.maximum(ring_intra - hide, 0.0),
        a2a_bytes=a2a_bytes, a2a_out=a2a_out, a2a_intra=a2a_intra, a2a_nodes=np.ceil(e / g_ep),
        window_layer=2.0 * (dense_f + core_f) + extra + perm_f, fwd_layer=dense_f + core_f + perm_f,
        fixed_layer=layer_compute + layer_tp + MOE_ALL_TO_ALLS * a2a_fixed, a2a_piped=a2a_piped,
        a2a_fixed=a2a_fixed,
    )


def expert_tp_of(pt, t):
    """The experts' tensor-parallel degree: ``parallel.expert_tp`` where the scenario gives it (MoE parallel folding,
    Liu et al. 2025, arXiv:2504.14960; Megatron-Core ``expert_tensor_parallel_size``), else the attention's ``t``."""
    return np.where(pt["expert_tp"] > 0, pt["expert_tp"], t)


# Megatron-Core's all-to-all token dispatcher (megatron/core/transformer/moe/token_dispatcher.py,
# MoEAlltoAllTokenDispatcher) moves every routed token copy through memory around each all-to-all: ``permute`` groups
# a rank's copies by expert before the dispatch and ``unpermute`` scatters them back, weighted by the router's
# probabilities, after the combine; where a rank holds more than one expert, ``sort_chunks_by_idxs`` reorders the
# received copies by local expert after the dispatch and back before the combine. Each pass reads and writes the
# copies once; the backward runs the same passes on the gradients
PERMUTE_PASSES = 2.0
SORT_PASSES = 2.0


def permutation_time_forward(pt, tokens, e):
    """Forward time of a MoE layer's token permutations on one rank [s]: (:data:`PERMUTE_PASSES`, plus
    :data:`SORT_PASSES` where a rank holds more than one expert) × read and write of its ``K·capacity·tokens``
    copies of ``h`` bf16 values at the GPU's memory bandwidth (``tokens``: the rank's tokens of a micro-batch)."""
    passes = PERMUTE_PASSES + SORT_PASSES * (pt["experts"] / e > 1.0)
    copies = pt["moe_tokens"] * tokens * pt["hidden"] * BYTES_BF16
    return passes * 2.0 * copies / pt["hbm_bytes_per_s"]


def stage_side_terms(pt, ls, t, p, v, c=1.0, e=1.0, params_gpu=None, crosses=None):
    """:func:`plan_side_terms` from its :func:`layer_side_terms` terms ``ls``: a model chunk's and a pipeline stage's.
    ``params_gpu``: the stage's parameters per GPU (:func:`~model.memory.stage_params`, what the memory of the
    same plans holds as ``params``), if already computed; ``crosses``: whether each plan's pipeline sends cross
    nodes, likewise."""
    l, h, V = pt["layers"], pt["hidden"], pt["vocab"]
    gpn = pt["gpus_per_node"]
    lc = l / (p * v)
    lc = np.ceil(lc, out=_own(lc))
    v_lc = v * lc  # layers of a stage's chunks
    if params_gpu is None:
        params_gpu = stage_params(l, h, V, t, p, rank_layer_weights(pt, t, e), pt["untied"])
    # pipeline point-to-point: across nodes when a pipeline group does not sit inside one node
    crosses = pipeline_crosses(t, p, c, gpn) if crosses is None else crosses
    grad_bytes = params_gpu * GRAD_BYTES
    buckets = grad_bytes / DDP_BUCKET_BYTES
    buckets = np.maximum(np.ceil(buckets, out=_own(buckets)), 1.0, out=_own(buckets))
    return dict(
        # expert-parallel overlap (DeepSeek-AI 2024, DeepSeek-V3 report §3.2.1, DualPipe: one micro-batch's
        # dispatch and combine run while another's chunk computes): the part across nodes hides behind a chunk's
        # forward and backward compute; the NVLink part stays on the critical path
        a2a_hide=_unless_zero(pt["ep_overlap"], lambda: pt["ep_overlap"] * lc * ls["layer_compute"]),
        a2a_steps=_unless_zero(ls["a2a_nodes"] - 1.0, lambda: MOE_ALL_TO_ALLS * lc * (ls["a2a_nodes"] - 1.0)),
        a2a_nodes=ls["a2a_nodes"],
        a2a_bytes_node=_unless_zero(ls["a2a_bytes"],
                                    lambda: MOE_ALL_TO_ALLS * lc * ls["a2a_bytes"] * ls["a2a_out"] * gpn,
                                    ls["a2a_out"]),
        ring_crosses=ls["ring_crosses"],
        ring_steps=_unless_zero(ls["ring_steps_layer"], lambda: ls["ring_steps_layer"] * lc),
        ring_bytes_node=ls["ring_bytes_node"], ring_hide=_unless_zero(ls["hide"], lambda: lc * ls["hide"]),
        chunk_ring_intra=_unless_zero(ls["ring_gap"], lambda: lc * ls["ring_gap"] * ~ls["ring_crosses"]),
        lc=lc, window=v_lc * ls["window_layer"], fwd_window=v_lc * ls["fwd_layer"],
        params_gpu=params_gpu, layer_compute=ls["layer_compute"], layer_tp=ls["layer_tp"], logits=ls["logits"],
        chunk_fixed=lc * ls["fixed_layer"],
        chunk_a2a_intra=_unless_zero(ls["a2a_fixed"], lambda: lc * MOE_ALL_TO_ALLS * ls["a2a_fixed"]),
        chunk_a2a_piped=_unless_zero(ls["a2a_piped"], lambda: lc * MOE_ALL_TO_ALLS * ls["a2a_piped"]),
        crosses=crosses,
        p2p_bytes_node=ls["p2p_bytes_node"], p2p_intra=np.where(p > 1, ls["p2p_send"], 0.0),
        buckets=buckets, per_bucket=grad_bytes / buckets,
    )


def pipeline_crosses(t, p, c, gpn):
    """Whether a pipeline group's sends cross nodes [bool]: there are stages, and the ``t·c·p`` ranks of a group do
    not sit inside one node of ``gpn`` GPUs."""
    return (p > 1) & ~divides(t * c * p, gpn)


def _unless_zero(x, product, *others):
    """``product()``, a product of ``x`` with the number of layers per chunk (finite, positive), layer times
    (finite, not negative: FLOPs and bytes over the GPU's positive rates), positive constants and ``others``; or
    its value, +0.0, as one value when ``x`` is one value +0.0 and ``others`` are finite and not negative (the
    terms of context or expert parallelism where the sweep never uses it: not computed for every plan)."""
    if one_value(x, 0.0) and all(all_true(np.isfinite(y) & (np.asarray(y) >= 0)) for y in others):
        return np.zeros((1,) * max(np.ndim(x), 1))
    return product()


# point inputs of layer_side_terms: the model but its number of layers, the GPU and the node
LAYER_SIDE_POINT_KEYS = tuple(k for k in PLAN_SIDE_POINT_KEYS if k != "layers")

# point inputs of stage_side_terms
STAGE_SIDE_POINT_KEYS = ("layers", "hidden", "vocab", "gpus_per_node", "attn_weights", "expert_weights", "untied",
                         "ep_overlap", "expert_tp")


def step_for_fabric(cs, dp_overlap, bw_node, step_latency_s, slow=1.0):
    """Step time for a fabric's per-node bandwidth [B/s] and per-step latency [s] (few ops, any shape).

    ``slow``: :func:`congestion_slowdown` broadcasting with ``bw_node``: the data-parallel, pipeline and
    expert all-to-all traffic that crosses the leaf uplinks is slowed at each plan's placement (oversubscription,
    ECMP).
    """
    inv_bw = 1.0 / bw_node
    dp_slow, pp_slow, ep_slow = split_slowdown(slow)
    p2p = np.where(cs["crosses"], step_latency_s + slowed(cs["p2p_bytes_node"] * inv_bw, pp_slow), cs["p2p_intra"])
    ring = where_uniform(cs["ring_crosses"], lambda: np.where(
        cs["ring_crosses"], np.maximum(cs["ring_steps"] * (step_latency_s + cs["ring_bytes_node"] * inv_bw)
                                       - cs["ring_hide"], 0.0), cs["chunk_ring_intra"]), lambda: cs["chunk_ring_intra"])
    if (all(one_value(cs[k], 0.0) for k in ("a2a_steps", "a2a_bytes_node", "a2a_hide", "chunk_a2a_piped"))
            and np.isfinite(inv_bw).all() and np.isfinite(step_latency_s).all() and np.isfinite(ep_slow).all()):
        a2a = 0.0  # no expert parallelism: max(0·λ + 0·x·s − 0, 0) of finite λ, x and s, +0.0
    else:
        a2a = a2a_beyond_fixed(cs, step_latency_s, inv_bw, ep_slow)
    # the sums below in the order of ``a + b + c``, into the first sum's own array where it has the result's shape
    t_chunk = add_into(add_into(cs["chunk_fixed"] + ring, 2.0 * p2p), a2a)
    pipe = add_into(t_chunk * cs["slots"], cs["m_logits"])
    # one all-reduce's volume, then the ZeRO stage's traffic; at least one bucket of one all-reduce stays exposed
    t_dp1 = cs["dp_k0"] + cs["dp_k1"] * step_latency_s + np.maximum(slowed(cs["dp_k2"] * inv_bw, dp_slow),
                                                                     cs["dp_intra_bw"])
    t_dp = cs["dp_volume"] * t_dp1

    def overlapped():  # the traffic beyond its window, at least one bucket
        gap = t_dp - cs["window"]
        floor = t_dp1 / cs["buckets"]
        return np.maximum(gap, floor, out=gap) if fills(gap, floor) else np.maximum(gap, floor)
    exposed = where_uniform(dp_overlap, overlapped, lambda: t_dp)
    # what it hides still takes NCCL's SMs from the compute it overlaps (model.scale.overlap_compute_tax)
    exposed = where_uniform(dp_overlap, lambda: exposed + (t_dp - exposed) * cs["overlap_tax"], lambda: exposed)
    return add_into(pipe + exposed, cs["opt"]), p2p, t_chunk, exposed


def a2a_beyond_fixed(cs, step_latency_s, inv_bw, ep_slow):
    """A chunk's expert all-to-all time beyond its fixed NVLink part [s]: the fabric's latency steps and bytes (slowed
    by congestion), or the NVLink forwarding pipelined with them where it is longer (node-limited routing), less
    what another micro-batch's compute hides (expert-parallel overlap), at least 0."""
    net = cs["a2a_steps"] * step_latency_s + slowed(cs["a2a_bytes_node"] * inv_bw, ep_slow)
    if not one_value(cs["chunk_a2a_piped"], 0.0):
        net = np.maximum(net, cs["chunk_a2a_piped"])
    return np.maximum(net - cs["a2a_hide"], 0.0)


def slowed(x, slow):
    """``x · slow``: ``x`` itself where ``slow`` is the scalar 1.0 (nothing crosses an uplink), the same values
    (``x · 1.0`` is ``x``, bit for bit) without a pass over the plan search's entries."""
    return x if type(slow) is float and slow == 1.0 else x * slow


def add_into(total, x):
    """``total + x``, into ``total`` when it is a new array of the sum's shape (a sum's own intermediate): the
    same values without another temporary."""
    if type(total) is np.ndarray and fills(total, x):
        return np.add(total, x, out=total)
    return total + x


# the per-plan quantities :func:`step_for_fabric` reads: what the plan search gathers at the pairs it keeps
STEP_KEYS = ("crosses", "p2p_bytes_node", "p2p_intra", "ring_crosses", "ring_steps", "ring_bytes_node", "ring_hide",
             "chunk_ring_intra", "chunk_fixed", "a2a_steps", "a2a_bytes_node", "a2a_hide", "chunk_a2a_piped", "slots",
             "m_logits",
             "dp_k0", "dp_k1", "dp_k2", "dp_intra_bw", "dp_volume", "window", "buckets", "opt", "overlap_tax")
