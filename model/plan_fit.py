"""Whether a plan can run at a point: its data-parallel replicas, whether its degrees are possible, its memory.

:func:`data_parallel_replicas` (replicas ``d`` and micro-batches per step ``m`` for the global batch),
:func:`degrees_valid` (the degrees divide the node, the heads, the layers, the experts and the sequence) and
:func:`plan_memory` (peak bytes per GPU and whether they fit), for plans of any shape broadcasting with the
point arrays.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .arrays import any_true, distinct_rows
from .memory import USABLE_MEMORY_FRACTION, layer_memory_bytes, memory_with_replicas_bytes, stage_memory_from_layer


# entries from which layer_terms computes on a grid of distinct models and plans, and compute_side the ZeRO-stage
# terms a stage at a time: below, the extra steps cost more than they save (measured on the default preset: 300
# entries)
GRID_MIN_ENTRIES = 2048


def data_parallel_replicas(pt, t, p, b, round_batch, c=1.0, v=1.0, e=1.0):
    """Data-parallel degree ``d`` and micro-batches per step ``m`` [-]; ``d · m · b`` is the user's global batch.

    Auto mode may leave GPUs that do not fill a whole model replica idle (spares), as a practitioner would on a
    cluster whose size is not a multiple of tp · pp, and never changes the global batch ``B``: ``d`` is the
    largest whole number of replicas that fit, divides ``B/b`` (Megatron-LM requires ``B`` to be a multiple
    of ``b · d``) and makes the plan's degrees possible (:func:`replica_rules`): a plan whose degrees the most
    replicas would rule out runs with fewer, as it does on a smaller cluster. ``d = 0`` (``m`` infinite) where
    none does. Explicit mode uses every GPU: ``d = G/(t·p·c)`` with context parallelism ``c``.
    """
    if not round_batch:
        d = pt["gpus"] / (t * p * c)
        with np.errstate(divide="ignore"):
            return d, pt["global_batch"] / (d * b)
    return replicas_of_ranks(pt, t * p * c, b, *replica_rules(t, p, v, c, e))


def replica_rules(t, p, v, c, e):
    """What the plan's degrees ask of its number of replicas ``d``: ``d · b · per_replica`` divides the global
    batch (interleaved stages, ``v > 1``, need a multiple of ``p`` micro-batches: ``per_replica = p``), and
    ``d`` is a multiple of ``multiple`` (the ``e`` expert-parallel ranks are carved out of the ``d · c``
    data- and context-parallel ranks: ``multiple = e / gcd(e, c)``); 1.0 each where no plan asks it."""
    per_replica = 1.0 if np.all(np.asarray(v) == 1) else np.where(np.asarray(v) > 1, p, 1.0)
    if np.all(np.asarray(e) == 1):
        return per_replica, 1.0
    e_int, c_int = (np.asarray(x, dtype=float).astype(np.int64) for x in np.broadcast_arrays(e, c))
    return per_replica, e_int / np.gcd(e_int, c_int)


def replicas_of_ranks(pt, ranks, b, per_replica=1.0, multiple=1.0):
    """:func:`data_parallel_replicas` in auto mode from the ranks of one replica ``ranks`` (``t · p · c``) and the
    plan's :func:`replica_rules`: the largest ``d ≤ G / ranks``, a multiple of ``multiple``, with ``d · b ·
    per_replica`` dividing the global batch ``B`` (0 where none), and ``m = B / (d · b)``."""
    d = np.floor(pt["gpus"] / ranks)
    B = pt["global_batch"]
    granule = b if type(per_replica) is float and per_replica == 1.0 else b * per_replica
    plain = type(multiple) is float and multiple == 1.0
    good = divides(d * granule, B) if plain else divides(d * granule, B) & divides(multiple, d)
    short = ~good & (d >= 1)  # most plans: the whole replicas already divide the batch
    if short.any():
        if plain:
            d = np.where(short, largest_divisor_at_most(B, granule, d), d)
        else:
            d = np.where(short, multiple * largest_divisor_at_most(B, granule * multiple, np.floor(d / multiple)), d)
    with np.errstate(divide="ignore"):
        return d, B / (d * b)


def largest_divisor_at_most(B, b, cap):
    """The largest divisor of ``B/b`` that is at most ``cap`` (0 where ``B/b`` is not whole) [-].

    Vectorised: the divisors of each distinct ``B/b`` (pairs ``k``, ``n/k`` for ``k ≤ √n``) are sorted
    into one array with a row offset per value (:func:`_divisor_table`, kept for the few distinct quotients a
    session uses), and one ``searchsorted`` answers every query.
    """
    B_u, B_i = _distinct(B)
    b_u, b_i = _distinct(b)
    n = (B_u[:, None] / b_u[None, :]).reshape(-1)  # (rows,)
    row = B_i * b_u.size + b_i
    dense = _dense_divisors(tuple(n.tolist()))
    if dense is not None:  # one read per query
        table, size = dense
        return table.take(row * size + np.clip(cap, 0.0, size - 1.0).astype(np.intp))
    flat, big = _divisor_table(tuple(n.tolist()))
    q = np.minimum(np.maximum(cap, 0.0), big - 1.0) + row * big
    idx = np.searchsorted(flat, q, side="right") - 1
    return flat[idx] - row * big


def _distinct(x):
    """The distinct values of ``x`` (as floats, sorted) and the index of each entry's value, in ``x``'s shape
    (:func:`numpy.unique` with its inverse): :func:`distinct_rows` of its one column."""
    x = np.asarray(x, dtype=float)
    flat = x.reshape(-1)
    first, code = distinct_rows([flat], flat.size)
    return flat.take(first), code.reshape(x.shape)


@functools.lru_cache(maxsize=64)
def _divisor_table(quotients: tuple):
    """:func:`largest_divisor_at_most`'s sorted divisors of the quotients ``n`` (a tuple of floats): the divisors
    of the ``i``-th, 0 where there is none, plus ``i · big`` with ``big = max n + 1``, in one read-only array,
    and ``big``. A session meets a handful of (global batch, micro-batch) quotients: kept per tuple of them."""
    n = np.array(quotients, dtype=float)
    k = np.arange(1.0, max(math.isqrt(int(n.max())), 1) + 1.0)  # at least 1: a micro-batch above the batch
    is_div = np.mod(n[:, None], k[None, :]) == 0.0
    divs = np.sort(np.concatenate([np.where(is_div, k, 0.0), np.where(is_div, n[:, None] / k, 0.0)], axis=1),
                   axis=1)
    big = n.max() + 1.0
    flat = (divs + np.arange(n.size)[:, None] * big).reshape(-1)
    flat.flags.writeable = False
    return flat, big


# the most entries of a dense table of divisors (_dense_divisors): (quotients, largest quotient + 1). Measured: the
# benchmark's three auto-plan sweeps and the Llama 3 405B and case 3 cluster sweeps build tables of 8,071 to 18,441
# entries (at most 147 kB); the cap keeps one at 2 MiB of float64, a larger one goes to the sorted divisors' search
DENSE_DIVISORS_MAX = 1 << 18


@functools.lru_cache(maxsize=64)
def _dense_divisors(quotients: tuple):
    """:func:`largest_divisor_at_most` of the quotients ``n`` (a tuple of floats) at every whole cap from 0 to the
    largest quotient, in one read-only array: the ``i``-th's at cap ``k`` at ``i · size + k``, and ``size``; the
    same divisors as :func:`_divisor_table` (0 where there is none: at cap 0, or where ``n`` is not whole). None
    where that table would hold more than :data:`DENSE_DIVISORS_MAX` entries."""
    n = np.array(quotients, dtype=float)
    size = int(max(np.floor(n.max()), 0.0)) + 1
    if n.size * size > DENSE_DIVISORS_MAX:
        return None
    k = np.arange(1.0, size)
    table = np.zeros((n.size, size))
    table[:, 1:] = np.where(divides(k[None, :], n[:, None]), k, 0.0)  # each divisor at its own cap
    np.maximum.accumulate(table, axis=1, out=table)  # then the largest at most each cap
    table = table.reshape(-1)
    table.flags.writeable = False
    return table, size


def divides(divisor, n):
    """Whether the whole number ``divisor`` divides the whole number ``n`` (both held as floats) [bool].

    ``n / divisor`` is a whole number exactly when it divides: the quotient of whole numbers below 2⁵³ is
    exact when it is whole, and otherwise at least ``1/divisor`` from the nearest whole number, far more
    than its rounding error. Much cheaper than an integer or floating-point modulo.
    """
    q = n / divisor
    return np.floor(q) == q


def degrees_valid(pt, t, p, b, v, d, m, c=1.0, e=1.0):
    """Plans whose degrees are possible at a point (before memory) [bool], given ``d`` and ``m`` of
    :func:`data_parallel_replicas`.

    Whole-number arithmetic on floats, exact for these magnitudes (see :func:`divides`). The layers must split
    into the ``p·v`` model chunks: evenly, or as Llama 3 405B did (126 layers on 16 stages; Llama 3 paper §3.3.2),
    with the first and last stage one layer short to balance the embedding and the output layer (``l + 1`` or
    ``l + 2`` divisible); Megatron-LM rejects other splits. Chunks of one layer included: the paper's first chunk
    holds "only the embedding" and its last "only output projection and loss calculation", 126 layers in
    16 × 8 one-layer chunks, as Megatron-Core splits them with ``account_for_embedding_in_pipeline_split`` and
    ``account_for_loss_in_pipeline_split`` (``megatron/core/transformer/transformer_config.py``: ``l + 1`` or
    ``l + 2`` divisible by ``p``, its quotient by ``v``).

    On the plan search's grid of points (N, 1) against candidates (1, C) where the model changes along the sweep,
    the tests of the heads and of the layers take few distinct plan values (tp; pp and virtual stages): they are
    computed once per distinct value and read at each candidate (:func:`_at_distinct_plans`), the same booleans.
    """
    gpn, G, l, heads, kv = (pt[k] for k in ("gpus_per_node", "gpus", "layers", "heads", "kv_heads"))
    tp = t * p * c

    def heads_split(hh, kk, tt):
        return divides(tt, hh) & divides(tt, kk)

    def layers_split(ll, pp, vv):  # evenly or one layer short at both ends; and each chunk holds a layer, or the
        # embedding or the loss in the layer's place
        ppvv = pp * vv
        ends = (pp > 1) & (pp <= ll) & (divides(ppvv, ll + 1.0) | divides(ppvv, ll + 2.0))
        split = ((pp <= ll) & divides(ppvv, ll)) | ends
        return split, (ppvv <= ll) | ends
    grid = (np.ndim(l) == 2 and np.shape(l)[0] > 1 and np.ndim(t) == 2 and np.shape(t)[0] == 1
            and np.shape(l)[0] * np.shape(t)[1] >= GRID_MIN_ENTRIES)
    at = _at_distinct_plans if grid else (lambda fn, points, *cols: fn(*points, *cols))
    split, fills = at(layers_split, (l,), p, v)
    if any_true(np.asarray(pt.get("uneven", 0.0)) > 0):
        # uneven stages (Megatron-Core's first/last stage layer counts): a pipeline without interleaving may split
        # its layers any way that leaves each stage a layer (the busiest sets the pace); interleaved chunks stay
        # even or one short at both ends, as Llama 3 ran them
        split = split | ((pt["uneven"] > 0) & fills & (v == 1))
    # the tests of the plan and the replicas alone first: on a model-size sweep they are (1, C), the grid's (N, C)
    ok = (t <= gpn) & divides(t, gpn) & (G >= tp) & (d >= 1) & (m >= 1) & (np.floor(m) == m)
    ok = ok & at(heads_split, (heads, kv), t) & split
    if (np.asarray(e) != 1).any():  # expert parallelism splits the experts and is carved out of data × context
        ok = ok & divides(e, pt["experts"]) & divides(e, d * c)
        if np.any(pt.get("expert_tp", 0.0) > 0):  # folding: the e · et expert ranks tile the t · c · d ranks of a stage
            et = np.where(pt["expert_tp"] > 0, pt["expert_tp"], t)
            ok = ok & divides(et, gpn) & divides(e * et, t * c * d)
    if (np.asarray(c) != 1).any():  # load-balanced ring: 2c chunks of a sequence, each long enough
        ok = ok & ((c == 1) | (divides(2.0 * c, pt["seq_len"]) & (pt["seq_len"] >= c * pt["cp_min_tokens"])))
    ok = ok & ((v == 1) | ((p > 1) & divides(p, m) & fills))
    return np.ascontiguousarray(ok)


def _at_distinct_plans(fn, points, *cols):
    """``fn(*points, *cols)``, boolean arrays (N, C) of point arrays ``points`` (N, 1) (or (1, 1)) and plan arrays
    ``cols`` (1, C), computed once per distinct plan value (one column per distinct row of ``cols``) and read at
    each candidate. ``fn`` may return a tuple of such arrays.

    Computed on the transposed grid, the distinct plan values (P, 1) against the points seen as (1, N): numpy's
    loops then run along the many points rather than along the few plan values (several times faster on a few
    hundred points), and the candidates' values are whole rows of the result (the fast gather), seen as (N, C).
    """
    shape = np.broadcast_shapes(*(np.shape(x) for x in cols))
    plan_rows = [np.broadcast_to(x, shape)[0] for x in cols]
    first, code = distinct_rows(plan_rows, shape[1])
    out = fn(*(np.asarray(x).T for x in points), *(x.take(first)[:, None] for x in plan_rows))
    read = [np.take(x, code, axis=0).T for x in (out if isinstance(out, tuple) else (out,))]
    return tuple(read) if isinstance(out, tuple) else read[0]


def plan_memory(pt, t, p, b, v, rc, cs):
    """Peak bytes per GPU for a plan, and whether it fits [B], [bool]."""
    stage = stage_memory(pt, t, p, b, v, rc, cs["cp"], cs["ep"])
    mem = memory_with_replicas_bytes(stage, p, cs["d"] * cs["cp"], None, cs["m"], zero_stage=cs["zero"])
    return mem, mem <= pt["memory_bytes"] * USABLE_MEMORY_FRACTION


def stage_memory(pt, t, p, b, v, rc, c=1.0, e=1.0, layer=None, forwards=None):
    """The memory terms the model and the plan fix (:func:`~model.memory.stage_memory_bytes`); a rank of a
    context-parallel group holds ``s/c`` tokens of each sequence. ``layer``: their :func:`layer_memory`, if
    already computed; ``forwards``: the pipeline's :func:`~model.memory.schedule_forwards`, likewise."""
    layer = layer_memory(pt, t, b, rc, c, e) if layer is None else layer
    stage = stage_memory_from_layer(layer, pt["layers"], pt["hidden"], pt["vocab"], t, p, v,
                                    rank_layer_weights(pt, t, e), pt["untied"], forwards)
    if any_true(pt["experts"] > 1):  # the routed experts' parameters on a GPU of the busiest stage, and their
        # expert-data-parallel degree over the ``d·c`` ranks' (:func:`~model.memory.model_state_bytes`)
        et = np.where(pt["expert_tp"] > 0, pt["expert_tp"], t)
        stage["expert_params"] = (np.ceil(pt["layers"] / p) * pt["expert_weights"] / (e * et)
                                  * (pt["experts"] > 1))
        stage["expert_ratio"] = t / (e * et)
    return stage


def rank_layer_weights(pt, t, e):
    """A layer's weights as ``t`` tensor-parallel ranks split them (divided by ``t`` where used): the attention and
    shared experts, and the routed experts split over ``e`` expert-parallel ranks, and over the experts' own
    tensor parallelism ``parallel.expert_tp`` where the scenario gives it (then ``t/et`` times the tied share)."""
    if not any_true(np.asarray(pt["expert_tp"]) > 0):
        return pt["attn_weights"] + pt["expert_weights"] / e
    return pt["attn_weights"] + pt["expert_weights"] / e * np.where(pt["expert_tp"] > 0, t / pt["expert_tp"], 1.0)


# point inputs stage_memory reads given the layer terms
STAGE_MEMORY_POINT_KEYS = ("layers", "hidden", "vocab", "attn_weights", "expert_weights", "untied", "expert_tp",
                           "experts")
# point inputs of layer_memory
LAYER_MEMORY_POINT_KEYS = ("hidden", "heads", "vocab", "seq_len", "sp", "flash", "attn_weights", "expert_weights",
                           "mlp_ratio", "fp8", "kv_heads", "grad_bytes", "expert_tp", "attn_inside",
                           "norm_bytes", "fc2_input_share", "fp8_inputs")


def layer_memory(pt, t, b, rc, c=1.0, e=1.0):
    """The memory terms of one layer (:func:`~model.memory.layer_memory_bytes`), as :func:`stage_memory`'s."""
    return layer_memory_bytes(pt["hidden"], pt["heads"], pt["vocab"], pt["seq_len"] / c, b, t, rc, pt["sp"],
                              pt["flash"], rank_layer_weights(pt, t, e), pt["mlp_ratio"], pt["fp8"],
                              pt["kv_heads"], float(np.ravel(pt["grad_bytes"])[0]),  # one gradient precision a run
                              attn_inside=pt["attn_inside"], norm_bytes=pt["norm_bytes"],
                              fc2_input_share=pt["fc2_input_share"], fp8_inputs=pt["fp8_inputs"])


def clear_cache() -> None:
    """Forget the divisor tables kept (:func:`~model.plan_search.clear_plan_cache` calls this)."""
    _divisor_table.cache_clear()
    _dense_divisors.cache_clear()
