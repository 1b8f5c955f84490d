"""Lower bounds of a plan's step time on any fabric, linear in the step latency and the inverse bandwidth.

The exact search times only the pairs whose bound does not exceed the best time found: :func:`bound_coefficients`
and :func:`bound_at` (per pair), :func:`bound_table` and :func:`stage_bound_at` (tighter, stage by stage, per
row of pairs).
"""

from __future__ import annotations

import numpy as np

from ..arrays import at_shape, one_value


# a pair is dropped only when its lower bound exceeds the best time found by more than this share: the bound and
# the step are different expressions of the same terms, whose rounding differs by some 1e-16 of the step
BOUND_MARGIN = 1e-9
# at most this many pairs per point are timed directly, without bounding them first: the bound's own pass (each
# fabric's lowest-bound pair timed at each point) costs about as much as timing a few pairs outright (measured on
# the explicit-plan sweep of the default preset: 3 pairs, 4.9 → 3.9 ms for the sweep)
FEW_PAIRS = 4


def pipeline_bound_terms(cs_kind, kind, n):
    """The pipeline part of a pair's step without congestion, linear in the step latency ``λ`` and the inverse
    node bandwidth ``x``: per chunk ``fixed + per_lat·λ + per_inv_bw·x`` at most a chunk's time, arrays (n,).

    From :func:`step_for_fabric`: the pipeline's point-to-point and all-to-all times are linear in ``λ`` and ``x``
    (congestion only slows them), the ring attention's at least its in-node part, the all-to-all's hidden part
    (``a2a_hide``) subtracted without its floor at zero. ``kind``, ``cs_kind``: plan-side terms held per kind
    (:class:`PlanPairs`), a term the same for every kind held once; ``kind`` None: each row its own kind (the
    terms are read as they are, not gathered).
    """
    ck = cs_kind
    crosses = ck["crosses"]
    fixed = (ck["chunk_fixed"] + np.where(ck["ring_crosses"], 0.0, ck["chunk_ring_intra"])
             + 2.0 * np.where(crosses, 0.0, ck["p2p_intra"]))
    # one value +0.0 (no expert parallelism): subtracting it, or adding it to 2·crosses (2 or +0.0), changes nothing
    if not one_value(ck["a2a_hide"], 0.0):
        fixed = fixed - ck["a2a_hide"]
    two_crosses = 2.0 * crosses
    no_steps = one_value(ck["a2a_steps"], 0.0) and np.asarray(crosses).dtype == bool
    per_lat = two_crosses if no_steps else two_crosses + ck["a2a_steps"]
    per_inv_bw = two_crosses * ck["p2p_bytes_node"] + ck["a2a_bytes_node"]
    return tuple(at_shape(x if kind is None or np.shape(x)[0] == 1 else x[kind], (n, 1))[:, 0]
                 for x in (fixed, per_lat, per_inv_bw))


def bound_table(cs, allowed, sequences, kind, cs_kind, dp_overlap):
    """The coefficients of a lower bound of each row's step time per sequence on any fabric, tighter than
    :func:`bound_coefficients`' (stage by stage): one table (8 + 3·Z, rows), read by :func:`stage_bound_at`.

    Its rows: the pipeline part per sequence ``q0, q1, q2`` (:func:`pipeline_bound_terms` over a step's slots,
    with the logits), one all-reduce's ``k0, k1, k2`` and in-node bandwidth term, the exposed floor's factor
    (one bucket per sequence with overlap, else 0), then per stage its traffic factor, its window (0 without
    overlap) and its optimizer step, per sequence (the optimizer infinite at a stage not worth timing). From
    :func:`step_for_fabric`: congestion only slows traffic, so one all-reduce takes at least
    ``L = k0 + k1·λ + max(k2·x, in-node)`` at step latency ``λ`` [s] and inverse node bandwidth ``x`` [s/B], a
    stage's data-parallel traffic at least its factor times ``L``, and its exposed part at least that less its
    window and at least ``L`` over the buckets. ``kind``, ``cs_kind``: plan-side terms held per kind
    (:class:`PlanPairs`); ``dp_overlap`` per row or one value.
    """
    n, n_z = allowed.shape

    def one(x):
        return at_shape(x, (n, 1))[:, 0]
    fixed, per_lat, per_inv_bw = pipeline_bound_terms(cs_kind, kind, n)
    per_seq, slots = 1.0 / one(sequences), one(cs["slots"])
    overlap = np.broadcast_to(np.asarray(dp_overlap, dtype=bool), (n, 1))[:, 0]
    table = np.empty((8 + 3 * n_z, n))
    np.multiply(fixed, slots, out=table[0])
    table[0] += one(cs["m_logits"])
    table[0] *= per_seq
    np.multiply(per_lat * slots, per_seq, out=table[1])
    np.multiply(per_inv_bw * slots, per_seq, out=table[2])
    for i, k in enumerate(("dp_k0", "dp_k1", "dp_k2", "dp_intra_bw")):
        table[3 + i] = one(cs[k])
    np.divide(per_seq, one(cs["buckets"]), out=table[7])
    stages = (slice(8, 8 + n_z), slice(8 + n_z, 8 + 2 * n_z), slice(8 + 2 * n_z, None))
    for rows, k in zip(stages, ("dp_volume", "window", "opt")):  # (rows, Z) terms as Z table rows
        np.multiply(np.broadcast_to(cs[k], (n, n_z)).T, per_seq, out=table[rows])
    if not overlap.all():  # without overlap the whole traffic is exposed: no window, no floor
        table[7:8][:, ~overlap] = 0.0
        table[stages[1]][:, ~overlap] = 0.0
    np.copyto(table[stages[2]], np.inf, where=~allowed.T)
    return table


def bound_coefficients(cs, allowed, sequences, kind, cs_kind):
    """A lower bound of each row's step time per sequence on any fabric, over its stages worth timing.

    One table (6, rows) of rows ``p0, p1, p2, d0, d1, d2``: the bound at step latency ``λ`` [s] and inverse node
    bandwidth ``x`` [s/B] is ``p0 + p1·λ + p2·x + max(d0 + d1·λ + d2·x, 0)`` (:func:`bound_at`), growing with
    both. The pipeline part is :func:`pipeline_bound_terms`; one all-reduce's data-parallel time is at least
    its network part without congestion, and the exposed part of a stage at least its traffic less its overlap
    window: at least the smallest traffic factor of the row's stages times that, less the largest window.
    ``kind``, ``cs_kind``: plan-side terms held per kind (:class:`PlanPairs`). Each row is computed in place in
    the table, in the order of ``(a·b + c + d) / s`` (the same roundings as those expressions).

    The optimizer step is the same at every stage that shards (it divides by ``d`` where ``d > 1``), so
    :func:`_stage_columns` holds it in one column where no stage is 0: then every row (each has a stage worth
    timing) takes that column, without the masked minimum over the stages.
    """
    n = allowed.shape[0]

    def one(x):  # a quantity that does not depend on the stage, as (pairs,)
        return at_shape(x, (n, 1))[:, 0]

    def over_stages(x, pick, empty):  # elementwise over the few stages: no reduction along a short axis
        # a stage's column masked at a time, picked into the first's in order: a pass over a column each, no
        # masked copy of the whole (rows, Z) table
        x = at_shape(x, allowed.shape)
        best = np.where(allowed[:, 0], x[:, 0], empty)
        for i in range(1, x.shape[1]):
            pick(best, np.where(allowed[:, i], x[:, i], empty), out=best)
        return best
    fixed, per_lat, per_inv_bw = pipeline_bound_terms(cs_kind, kind, n)
    seq, slots = one(sequences), one(cs["slots"])
    table = np.empty((6, n))
    p0, p1, p2, d0, d1, d2 = table
    np.multiply(fixed, slots, out=p0)
    p0 += one(cs["m_logits"])
    opt = np.asarray(cs["opt"])
    p0 += one(opt) if opt.shape[-1] == 1 else over_stages(opt, np.minimum, np.inf)
    volume = over_stages(cs["dp_volume"], np.minimum, np.inf)
    np.multiply(volume, one(cs["dp_k0"]), out=d0)
    d0 -= over_stages(cs["window"], np.maximum, -np.inf)
    for row, a, b in ((p1, per_lat, slots), (p2, per_inv_bw, slots), (d1, volume, one(cs["dp_k1"])),
                      (d2, volume, one(cs["dp_k2"]))):
        np.multiply(a, b, out=row)
    table /= seq
    return table


def stage_bound_at(table, step_latency_s, inv_bw):
    """:func:`bound_table`'s lower bound per sequence [s] of the rows whose columns ``table`` holds, at a step
    latency [s] and inverse node bandwidth [s/B] broadcasting against them (rows,): the smallest over the
    stages worth timing of the pipeline part, the stage's optimizer step and its exposed traffic."""
    n_z = (table.shape[0] - 8) // 3
    pipe = table[0] + table[1] * step_latency_s + table[2] * inv_bw
    one_all_reduce = table[3] + table[4] * step_latency_s + np.maximum(table[5] * inv_bw, table[6])
    floor = one_all_reduce * table[7]
    best = None
    for z in range(n_z):
        exposed = np.maximum(table[8 + z] * one_all_reduce - table[8 + n_z + z], floor)
        exposed += table[8 + 2 * n_z + z]
        best = exposed if best is None else np.minimum(best, exposed, out=best)
    return pipe + best


def few_pairs(n_pairs, n_points):
    """Whether ``n_pairs`` over ``n_points`` points are few enough to time every one (:data:`FEW_PAIRS`)."""
    return n_pairs <= FEW_PAIRS * n_points


def bound_at(coefficients, step_latency_s, inv_bw):
    """:func:`bound_coefficients`' lower bound at a step latency [s] and inverse node bandwidth [s/B]."""
    p0, p1, p2, d0, d1, d2 = coefficients  # the rows of the table
    # p0 + p1·λ + p2·x + max(d0 + d1·λ + d2·x, 0), summed in that order in place: large arrays (fabric × pair)
    shape = np.broadcast(*coefficients, step_latency_s, inv_bw).shape  # (broadcast_shapes: several times slower)
    lb, term, dp = np.empty(shape), np.empty(shape), np.empty(shape)
    np.multiply(p1, step_latency_s, out=lb)
    lb += p0
    np.multiply(p2, inv_bw, out=term)
    lb += term
    np.multiply(d1, step_latency_s, out=dp)
    dp += d0
    np.multiply(d2, inv_bw, out=term)
    dp += term
    np.maximum(dp, 0.0, out=dp)
    lb += dp
    return lb
