"""The plan search's candidates: the degrees, micro-batches, recompute kinds and ZeRO stages it tries.

:func:`plan_candidates` lists them for a scenario (in groups of the same degrees, one candidate per recompute
kind and ZeRO stage), without those no point of a sweep can use (:func:`usable_candidates`).
"""

from __future__ import annotations

import functools

import numpy as np

from ..arrays import cut_constant_points
from ..compute import recompute_code
from ..errors import ScenarioError
from ..inputs import CP_MIN_TOKENS_PER_RANK
from ..scale import plan_hosts, straggler_factor
from ..scenario import Scenario


TP_CANDIDATES = (1, 2, 4, 8, 16)
PP_CANDIDATES = (1, 2, 4, 8, 16, 32, 64, 128, 256)
MB_CANDIDATES = (1, 2, 4)
V_CANDIDATES = (1, 2, 4)
RECOMPUTE_CANDIDATES = (0, 1, 3, 2)  # none, selective, half, full: lightest first
ZERO_CANDIDATES = (1, 2, 3)  # searched sharding stages, cheapest first (stage 0 only when asked for)
CP_CANDIDATES = (1, 2, 4, 8, 16)
EP_CANDIDATES = (1, 2, 4, 8, 16, 32, 64)  # expert parallelism, searched for mixture-of-experts models


def plan_key(s: Scenario):
    """The scenario's plan-search settings: mode, fixed degrees and micro-batch (part of the plan-cache key)."""
    return (s.parallel.resolved_mode, s.parallel.tp, s.parallel.pp, s.parallel.virtual_stages,
            s.workload.micro_batch, s.workload.recompute, zero_stages(s), s.parallel.cp, s.parallel.ep,
            s.workload.experts)


def zero_stages(s: Scenario) -> tuple:
    """The ZeRO stages the plan search may use: the user's, or stage 0/1 from ``distributed_optimizer``."""
    p = s.parallel
    if p.zero_stage is not None:
        return (p.zero_stage,)
    if p.distributed_optimizer is not None:
        return (1,) if p.distributed_optimizer else (0,)
    return ZERO_CANDIDATES


def plan_candidates(s: Scenario, pt=None):
    """Plan candidates (tp, pp, micro_batch, virtual_stages, recompute, zero_stage, cp, ep): float arrays of shape (C,).

    Auto mode searches tensor parallelism inside a node, pipeline depths in
    powers of two (the layers must split into the stages, see :func:`degrees_valid`),
    micro-batches of 1, 2 or 4 and 1, 2 or 4 virtual stages; every mode searches
    the recompute kinds and ZeRO stages the scenario leaves open, and context parallelism for long sequences
    (:data:`CP_MIN_TOKENS_PER_RANK`). The candidates
    come in groups of the same degrees, one per (recompute, zero stage), recompute
    outer: the plan search keeps the cheapest of a group that fits. Candidates that
    no point of ``pt`` can use are dropped before evaluation (whole groups).
    """
    p, w = s.parallel, s.workload
    explicit = p.resolved_mode == "explicit"
    tps = (p.tp or 1,) if explicit else TP_CANDIDATES
    pps = (p.pp or 1,) if explicit else PP_CANDIDATES
    mbs = (w.micro_batch,) if w.micro_batch is not None else MB_CANDIDATES
    vs = (p.virtual_stages,) if p.virtual_stages is not None else V_CANDIDATES
    rcs = recompute_kinds(s)
    cps = (p.cp or 1,) if (explicit or p.cp is not None) else CP_CANDIDATES
    if p.ep is not None or not w.experts or w.experts == 1:
        eps = (p.ep or 1,)
    else:
        eps = tuple(e for e in EP_CANDIDATES if w.experts % e == 0)
    choices = (tps, pps, mbs, vs, rcs, zero_stages(s), cps, eps)
    if pt is not None and not explicit:  # (auto mode's grid is never empty: pp = 1 with v = 1 is in it)
        grid = usable_candidates(choices, *(float(pt[k].max()) for k in ("gpus_per_node", "layers", "gpus")),
                                  float(pt["seq_len"].max()) if p.cp is None else None)
    else:
        grid = candidate_grid(*choices)  # (8, C)
    if grid.size == 0:  # only an explicit pp = 1 with virtual stages > 1, which validation refuses
        raise ScenarioError("parallel.virtual_stages", p.virtual_stages, "1 or left out when pp = 1")
    return tuple(grid)


# the grids kept for the largest GPUs per node, layers, GPUs and sequence of a sweep: one per (scenario, sweep
# range) a session goes back and forth between
@functools.lru_cache(maxsize=32)
def usable_candidates(choices, gpn_max, layers_max, gpus_max, seq_len_max):
    """:func:`candidate_grid` of ``choices`` without the candidates no point can use: tensor parallelism beyond
    the largest node, more model chunks than the most layers and the two end chunks that may hold the embedding
    and the loss alone (:func:`~model.plan_fit.degrees_valid`), more ranks than the most GPUs, and (``seq_len_max``
    given: context parallelism searched) a context-parallel rank short of :data:`CP_MIN_TOKENS_PER_RANK` of the
    longest sequence; whole groups, so the first group (one per recompute kind and ZeRO stage) when none is left.
    A read-only (8, C) array."""
    grid = candidate_grid(*choices)
    group = len(choices[4]) * len(choices[5])  # consecutive candidates of the same degrees
    t, p, v, c = (grid[i, ::group] for i in (0, 1, 3, 6))
    # once per group, in place on a few arrays: a cold call's fixed cost (C is about 11,000 in auto mode)
    keep = t <= gpn_max
    keep &= p * v <= layers_max + 2.0
    ranks = t * p
    ranks *= c
    keep &= ranks <= gpus_max
    if seq_len_max is not None:
        keep &= (c == 1) | (seq_len_max / c >= CP_MIN_TOKENS_PER_RANK)
    grid = grid.compress(np.repeat(keep, group), axis=1) if keep.any() else grid[:, :group]
    grid.flags.writeable = False
    return grid


# one grid per choice lists: auto mode has a handful (micro_batch, virtual_stages, recompute and the ZeRO stage each
# free or fixed by the scenario), explicit mode one per plan the user types. 16 keeps those a session goes back and
# forth between; a miss only rebuilds at most a few thousand candidates (about 1 ms)
@functools.lru_cache(maxsize=16)
def candidate_grid(tps, pps, mbs, vs, rcs=(1,), zs=(1,), cps=(1,), eps=(1,)):
    """Every (tp, pp, micro_batch, virtual_stages, recompute, zero_stage, cp, ep) combination: a read-only (8, C) array.

    Rows in that order; the columns vary the ZeRO stage fastest, then the recompute kind (one group of the same
    degrees), then ep, cp, v, micro_batch, pp and tp.
    """
    grid = np.array([(t, q, b, v, r, z, c, e) for t in tps for q in pps for b in mbs for v in vs for c in cps
                     for e in eps for r in rcs for z in zs if not (q == 1 and v > 1)], dtype=float).T.copy()
    grid.flags.writeable = False
    return grid


# point inputs the plan search reads (gathered per (point, plan) pair)
PLAN_POINT_KEYS = ("seq_len", "hidden", "heads", "kv_heads", "layers", "vocab", "global_batch", "gpus",
                   "gpus_per_node", "peak_flops", "core_peak", "grad_bytes", "hbm_bytes_per_s", "sp", "flash", "intra_busbw", "intra_p2p_bw",
                   "nvls_busbw", "ll_max_node",
                   "memory_bytes", "dp_overlap", "layer_weights", "mlp_ratio", "gemm_peak", "untied", "fp8",
                   "cp_min_tokens", "experts", "attn_weights", "expert_weights", "layer_weights_time", "moe_tokens",
                   "grad_ratio", "tp_overlap", "ep_overlap", "routed_weights_time", "imbalance", "routed_nodes",
                   "shared_experts", "expert_tp", "uneven", "core_width", "core_dim", "kv_width", "attn_inside",
                   "norm_bytes", "recompute_weights", "compute_time_scale", "fc2_input_share", "fp8_inputs",
                   "mlp_ratio_time", "recompute_bytes",
                   "overlap_tax", "slow_host_fraction")

PLAN_ARRAY_KEYS = ("tp", "pp", "micro_batch", "virtual_stages", "recompute", "zero_stage", "cp", "ep")


def at_candidates(x, ci):
    """The candidates' values ``x`` (C,) at the candidates ``ci``: gathered, or a read-only view of one value where
    every candidate holds the same (a degree the search does not vary: context and expert parallelism on most
    models), which then costs the rows neither a gather nor an array of their size (compared as bytes)."""
    one = cut_constant_points(x, 0)
    return np.broadcast_to(one, np.shape(ci)) if one.size == 1 else x.take(ci)


# the point inputs compute_side reads given the plan side (and the replicas, but for the placeholder pair where no
# pair fits), and the pairs keep: gathered per row
ROW_POINT_KEYS = ("gpus_per_node", "hbm_bytes_per_s", "intra_busbw", "grad_ratio", "dp_overlap", "gpus",
                  "global_batch", "overlap_tax", "slow_host_fraction")


def weighted_sequences(sequences, t, p, c, d, pt):
    """The sequences of a plan's step divided by its stragglers' factor (:func:`model.scale.straggler_factor` of the
    hosts it uses): a step over these is the step per sequence the engine reports, stragglers included, so the
    search picks the plan that is fastest as reported (a plan on fewer hosts draws fewer slow ones)."""
    return sequences / straggler_factor(plan_hosts(t, p, c, d, pt["gpus_per_node"]), pt["slow_host_fraction"])


def group_size(s: Scenario) -> int:
    """Candidates per group of the same degrees: one per (recompute kind, ZeRO stage) searched."""
    return len(recompute_kinds(s)) * len(zero_stages(s))


def recompute_kinds(s: Scenario) -> tuple:
    """The recompute codes the plan search may use: the user's, or all, lightest first.

    With FlashAttention the attention core stores nothing (Dao et al. 2022), so selective recomputation saves no
    memory and only costs time: it is then never the fastest plan that fits and is not searched.
    """
    w = s.workload
    if w.recompute is not None:
        return (int(recompute_code(w.recompute)),)
    return tuple(r for r in RECOMPUTE_CANDIDATES if not (w.flash_attention and r == 1))


def stages_worth_timing(fits):
    """Of each group of candidates with the same degrees, the (recompute kind, ZeRO stage) choices worth timing.

    ``fits`` (..., R, Z): the candidates that fit, recompute kinds lightest first. At the same ZeRO stage a
    heavier recompute kind only adds compute (its larger overlap window hides less than the time it adds), so
    at each stage only the lightest kind that fits is kept (not so with the expert all-to-all overlapped:
    the caller then times every kind). The stages themselves are not ordered: a higher
    stage moves more data-parallel traffic but overlaps more of it (ZeRO-2's per-micro-batch reduce-scatters
    can hide what ZeRO-1's one all-reduce leaves exposed), so every stage that fits is timed.

    The copies keep the memory layout of ``fits``: the plan search's (pairs, R, Z) is a view of (R, Z, pairs)
    memory, whose elementwise operations then run along the pairs, not along the short stage axis.
    """
    keep = fits.copy(order="K")
    lighter = fits[..., 0, :].copy(order="K")
    for ri in range(1, fits.shape[-2]):
        keep[..., ri, :] &= ~lighter
        lighter |= fits[..., ri, :]
    return keep


def clear_cache() -> None:
    """Forget the usable candidates kept per sweep range (:func:`~model.plan_search.clear_plan_cache` calls this)."""
    usable_candidates.cache_clear()
