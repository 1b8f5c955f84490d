"""The exact plan search: the fastest plan per fabric and point.

:func:`search_plans` times, for each fabric and point, the pairs of :func:`~model.plan_search.pairs.plan_pairs`
whose lower bound may win (:func:`pairs_that_can_win`) and keeps the fastest per sequence: the result is that
of timing every pair. Its answers are kept per set of pairs and fabric timing inputs.
"""

from __future__ import annotations

import collections
import functools

import numpy as np

from ..arrays import at_shape, cut_constant_points, distinct_rows, fills, nonzero_2d, range_min, segment_minima
from ..inputs import Inputs
from ..network import congestion_slowdown
from ..scenario import Scenario
from ..step_time import step_for_fabric
from .bounds import BOUND_MARGIN, bound_at, stage_bound_at
from .candidates import PLAN_POINT_KEYS
from .fewer import fewer_replicas
from .pairs import PLAN_CACHE_LOCK, PLAN_CACHE_SIZE, plan_pairs, plan_pairs_key


# The plan search's answers (the fastest plan per fabric and point), one per fabric and set of pairs and that
# fabric's timing inputs (bandwidth, latency, congestion): each fabric's answers are its own (the search is exact
# per fabric and point), so a reliability or money slider's drag searches nothing, and a drag of one fabric's
# latency or loss searches that fabric only. Kept for as many sets of pairs, under the same lock.
_SEARCH_CACHE: "collections.OrderedDict" = collections.OrderedDict()
SEARCH_CACHE_ROWS = 8 * PLAN_CACHE_SIZE


def at_rows(x, rows, n):
    """``x`` at the pairs ``rows`` (any index shape) when it has one row per pair (of ``n``), else ``x``.

    ``take`` along the first axis: several times faster than fancy indexing for rows of a few values (the array's
    own method: the search gathers some fifty terms a pass, and ``np.take`` and ``np.ndim`` add a call each)."""
    if type(x) is np.ndarray:
        return x.take(rows, axis=0) if x.ndim and x.shape[0] == n else x
    return np.take(x, rows, axis=0) if np.ndim(x) >= 1 and np.shape(x)[0] == n else x


class RowsRead(dict):
    """The pairs' step terms (:class:`PlanPairs` ``cs``, and ``cs_kind`` at the rows' kinds) at the pairs ``rows``,
    each gathered when first read: the step does not read every term (the context-parallel ring's where no ring
    crosses a node, the placement where nothing crosses a leaf uplink), and a gather is a pass over the entries.

    ``stages_first``: the terms laid out for entries on the last axis (:func:`at_rows_stages_first`), else as the
    pairs hold them (:func:`at_rows`)."""

    def __init__(self, pairs, rows, n, stages_first=False):
        super().__init__()
        self._pairs, self._rows, self._n = pairs, rows, n
        self._at = None
        self._gather = at_rows_stages_first if stages_first else at_rows

    def __missing__(self, key):
        pairs = self._pairs
        if key in pairs.cs:
            x = self._gather(pairs.cs[key], self._rows, self._n)
        else:
            if self._at is None:
                self._at = pairs.kind[self._rows]
            x = self._gather(pairs.cs_kind[key], self._at, pairs.plan_side["lc"].shape[0])
        self[key] = x
        return x


def at_rows_stages_first(x, rows, n):
    """:func:`at_rows` of a pairs' term (rows, 1 or Z), laid out with the entries last: (entries,) or (Z, entries),
    and a term held once for all rows, (1, 1 or Z), as (1 or Z, 1).

    Elementwise operations of a (Z, entries) term with an (entries,) one run along the entries; in the pairs'
    (entries, Z) layout against (entries, 1) numpy loops over the short stage axis, several times slower."""
    x = x if type(x) is np.ndarray else np.asarray(x)
    if x.ndim != 2:
        return x
    if x.shape[0] != n:
        return x.T
    if x.shape[1] == 1:
        return x[:, 0].take(rows)
    return np.take(x, rows * x.shape[1] + np.arange(x.shape[1])[:, None])  # the flat (row, stage) indices


def per_sequence(pairs, rows, bw, lat, congestion, point=None, trailing=1, stages_first=False):
    """Step time per sequence of every stage of the pairs ``rows`` [s], infinite at stages not worth timing.

    ``bw``, ``lat`` broadcast against the pairs' (rows, Z) quantities; ``congestion`` (:func:`congestion_inputs`
    arrays (F, N or 1)) is read at ``point`` (the point of each row, or None) with ``trailing`` axes added.
    Compared per sequence, so that a batch run in fewer sequences does not look faster than it is.
    ``stages_first``: the pairs' quantities as (Z, rows) (:func:`at_rows_stages_first`), ``bw``, ``lat`` and the
    congestion (``trailing`` 0) one value per row: the times (Z, rows).
    """
    n, rows = pairs.allowed.shape[0], pairs.row[rows]
    gather = at_rows_stages_first if stages_first else at_rows
    cs = RowsRead(pairs, rows, n, stages_first)
    slow = congestion_slowdown(cs, congestion, point, trailing)
    step = step_for_fabric(cs, gather(pairs.dp_overlap, rows, n), bw, lat, slow)[0]
    if stages_first:  # one stage: its terms were gathered as (rows,)
        step = step.reshape(pairs.stages.size, -1)
    if not pairs.usable:
        return np.full_like(step, np.inf)
    # the step is this call's own array: divided and masked in place (no further temporaries of the entries' size)
    sequences = gather(pairs.sequences, rows, n)
    step = np.divide(step, sequences, out=step) if fills(step, sequences) else step / sequences
    allowed = gather(pairs.allowed, rows, n)
    if not fills(step, allowed):
        return np.where(allowed, step, np.inf)
    np.copyto(step, np.inf, where=~allowed)
    return step


def pairs_that_can_win(pairs, bw, lat, congestion):
    """Which pairs may be fastest for which fabric at their point: (F, pairs) [bool].

    Per fabric and point, each pair's lower bound against the best time found among a few pairs: those with the
    lowest bound for each fabric, timed on every fabric. A pair whose bound exceeds that time (by more than
    :data:`BOUND_MARGIN`) cannot win on that fabric: the result is exactly that of timing every pair. Where a
    row serves several points (a cluster-size sweep), the bound is :func:`stage_bound_at`, computed once per row
    at the least step latency and inverse bandwidth of its points (it grows with both) and read at its pairs;
    else :func:`bound_at`, per pair. ``bw``, ``lat``: (F, N or 1).
    """
    ni, n = pairs.ni, pairs.ni.size
    n_fab = bw.shape[0]
    if pairs.bound is None and pairs.stage_bound is None:
        return np.ones((n_fab, n), dtype=bool)
    edges = np.empty(pairs.starts.size + 1, dtype=pairs.starts.dtype)
    edges[:-1], edges[-1] = pairs.starts, n
    counts = edges[1:] - edges[:-1]  # pairs of each point that has pairs, in order

    def at_pairs(x):  # (F, points) → (F, pairs): each point's value repeated over its pairs (cheaper than a gather)
        return np.repeat(x, counts, axis=1)
    if pairs.row_points is not None:  # rows of several points
        lb = np.take(stage_bound_at(pairs.stage_bound, *((x if x.shape[1] == 1 else range_min(x, *pairs.row_points))
                                                       for x in (lat, 1.0 / bw))), pairs.row, axis=1)
    else:  # a row per pair
        lb = bound_at(pairs.bound, *((x if x.shape[1] == 1 else at_pairs(x[:, ni[pairs.starts]]))
                                   for x in (lat, 1.0 / bw)))
    # each fabric's lowest bound at each point: the (fabric, point) segments of the bounds
    first = segment_minima(lb, pairs.starts)[1]
    cand = np.sort(first, axis=0)  # (F, points) pairs, in order (n where none: a NaN bound)
    # fabrics often share their candidate: each distinct one of a point is timed once on every fabric
    new = np.ones(cand.shape, dtype=bool)
    new[1:] = cand[1:] != cand[:-1]
    cand, per_point = cand.T[new.T], np.count_nonzero(new, axis=0)  # ordered by point
    at = ni[cand]
    best = per_sequence(pairs, cand, *((x if x.shape[1] == 1 else x[:, at])[..., None] for x in (bw, lat)),
                         congestion, at)
    best = np.minimum.reduceat(stage_min(best), np.cumsum(per_point) - per_point, axis=1)  # (F, points)
    return lb <= at_pairs(best * (1.0 + BOUND_MARGIN))


# the shared pairs' bounds are first taken per block of this many consecutive points, at the block's least step
# latency and inverse bandwidth, against the slowest time found in the block: only the (fabric, pair) entries whose
# bound there reaches it are bounded point by point (a fabric sweep's 256 points: a sixteenth of the bounds)
POINT_BLOCK = 16


def shared_pairs_that_can_win(pairs, bw, lat, congestion):
    """:func:`pairs_that_can_win` for pairs that hold at every point: the pairs that may be fastest for each
    fabric at some point, (F, pairs) [bool], or None (every pair is timed: few pairs); ``bw``, ``lat``:
    (F, N or 1).

    :func:`bound_at` is taken per block of points (:class:`PointBlocks`): a fabric's lowest-bound pair in a block
    is timed at the block's points on every fabric, and the fastest of those per point is the time found there.
    The pairs whose bound reaches the slowest time found in some block are bounded again, on their fabric, by the
    tighter :func:`stage_bound_at`, and kept where it reaches the time found at some point. Which pairs are timed
    first changes no answer, only how many are kept: the fastest pair's bounds reach its own time.
    """
    if pairs.bound is None:
        return None
    n_fab, n_pt = np.broadcast(bw, lat, congestion["nodes_per_leaf"]).shape
    n_pairs = pairs.ni.size
    blocks = PointBlocks(lat, 1.0 / bw, n_fab, n_pt)
    lb = bound_at(pairs.bound[:, None, :, None], blocks.lat_lo[:, None, :], blocks.inv_lo[:, None, :])  # (F, pairs,
    # blocks): at most the bound at any point of the block
    cand = np.repeat(np.argmin(lb, axis=1), blocks.sizes, axis=1).reshape(-1)  # (F · points)
    at = np.tile(np.arange(n_pt), n_fab)
    best = per_sequence(pairs, cand, *(np.broadcast_to(x, (n_fab, n_pt))[:, at, None] for x in (bw, lat)),
                         congestion, at if congestion["nodes_per_leaf"].shape[1] > 1 else None)
    reach = stage_min(best).reshape(n_fab, n_fab, n_pt).min(axis=1) * (1.0 + BOUND_MARGIN)  # (F, points)
    # the (fabric, pair) entries whose bound reaches the slowest time found in some block: bounded again by the
    # tighter bound, point by point where it reaches that in the block (what either bound keeps holds the pairs
    # that may win: the tighter bound alone decides)
    fi, rows = nonzero_2d(~(lb > blocks.block_max(reach)[:, None, :]).all(axis=2))
    kept = np.zeros((n_fab, n_pairs), dtype=bool)

    def row_bound(e, lat_at, inv_at):
        return stage_bound_at(pairs.stage_bound[:, rows[e], None], lat_at, inv_at)
    kept[fi, rows] = blocks.reaches(row_bound, fi, reach)
    return kept


class PointBlocks:
    """A sweep's points in blocks of :data:`POINT_BLOCK` consecutive ones (one block of every point where they are
    fewer), with each fabric's least step latency and inverse bandwidth in each block (F, blocks).

    A bound of the plan search grows with both (its coefficients are not negative, and rounding keeps the order of
    its products and sums): at a block's least ones it is at most its value at any point of the block. An entry
    whose bound there exceeds the slowest time found in the block exceeds the time found at each of its points;
    :meth:`reaches` bounds the other entries point by point. Its answer is that of bounding every entry at every
    point.
    """

    def __init__(self, lat, inv_bw, n_fab, n_pt):
        self.n_pt = n_pt
        self.size = POINT_BLOCK if n_pt > POINT_BLOCK else n_pt
        n_blocks = -(-n_pt // self.size)
        self.sizes = np.full(n_blocks, self.size)
        self.sizes[-1] = n_pt - self.size * (n_blocks - 1)
        self.lat, self.inv = (self._padded(np.broadcast_to(x, (n_fab, n_pt))) for x in (lat, inv_bw))
        self.lat_lo, self.inv_lo = (x.min(axis=2) for x in (self.lat, self.inv))

    def _padded(self, x):
        """(F, points) as (F, blocks, block size), the last block filled with its last point again (which
        answers as that point does)."""
        short = self.sizes.size * self.size - self.n_pt
        if short:
            x = np.concatenate([x, np.repeat(x[:, -1:], short, axis=1)], axis=1)
        return x.reshape(x.shape[0], -1, self.size)

    def block_max(self, x):
        """The largest of ``x`` (F, points) in each block, (F, blocks) (NaN where the block holds one)."""
        return self._padded(x).max(axis=2)

    def reaches(self, bound, fab, reach):
        """Whether each entry's bound reaches ``reach`` (F, points) at some point, (entries,) [bool].

        ``bound(e, lat, inv_bw)``: the bounds of the entries ``e`` (an index or a slice) at step latencies and
        inverse bandwidths (entries of e, k), as (entries of e, k); ``fab``: each entry's fabric (entries,)."""
        lb_lo = bound(slice(None), self.lat_lo[fab], self.inv_lo[fab])
        reach_p = self._padded(reach)
        # an entry's block where its bound there does not exceed the slowest time found (a NaN bound: bounded
        # point by point)
        e, blk = nonzero_2d(~(lb_lo > reach_p.max(axis=2)[fab]))
        f = fab[e]
        near = bound(e, self.lat[f, blk], self.inv[f, blk]) <= reach_p[f, blk]  # (entries, block size)
        out = np.zeros(fab.size, dtype=bool)
        out[e[near.any(axis=1)]] = True
        return out


def stage_min(x):
    """The minimum of ``x`` over its last axis (the few ZeRO stages), elementwise over the stages: numpy reduces
    along a short last axis several times slower (the same values: the minimum is exact, NaN propagates)."""
    return functools.reduce(np.minimum, (x[..., i] for i in range(x.shape[-1])))


def chosen_plan(pairs, best, shape, any_valid):
    """The plan arrays of flat (pair, stage) indices ``best``, NaN where ``any_valid`` is false, and their
    :func:`plan_side_terms` with their replicas (``replicas_d``, ``replicas_m``: :func:`data_parallel_replicas`'
    ``(d, m)``, which the search computed for every row; where ``any_valid`` is false, the placeholder plan's, every degree 1, that the
    evaluation computes with there) and their peak memory per GPU (``memory_bytes``,
    as :func:`plan_memory`'s, the search's sums of the same terms; some row's where ``any_valid`` is false, which the
    outputs mask)."""
    pair, zi = np.divmod(best, pairs.stages.size)
    row = pairs.row[pair]
    nan = np.where(any_valid, 1.0, np.nan)
    plan = {k: at_shape(x[row] * nan, shape) for k, x in pairs.plan.items()}
    plan["zero_stage"] = at_shape(pairs.stages[zi] * nan, shape)
    side = gather_terms(pairs.plan_side, pairs.kind[row], shape)
    if pairs.replicas is not None:
        side["replicas_d"], side["replicas_m"] = (at_shape(np.where(any_valid, x.take(row), y), shape)
                                                  for x, y in zip(pairs.replicas, pairs.unit_replicas))
        table, at, stride = pairs.memory
        side["memory_bytes"] = at_shape(table.take(at.take(row) + zi * stride), shape)
    return plan, side


def gather_terms(terms, at, shape):
    """Each array of ``terms`` (one value per kind) at the kinds ``at``, broadcast to ``shape``.

    The terms of one dtype are gathered together, as one table: one indexing operation rather than one per term;
    but when the kinds outnumber the entries read (the chosen plans among many kinds), stacking the table would
    copy more than it saves: each term is read on its own.
    """
    if np.size(at) < min(x.shape[0] for x in terms.values()):
        return {k: at_shape(x.take(at, axis=0), shape) for k, x in terms.items()}
    out = {}
    for dtype in {x.dtype for x in terms.values()}:
        keys = [k for k, x in terms.items() if x.dtype == dtype]
        picked = np.stack([terms[k] for k in keys])[:, at]
        out.update((k, picked[i] if picked[i].shape == shape else np.broadcast_to(picked[i], shape))
                   for i, k in enumerate(keys))
    return {k: out[k] for k in terms}


def search_shared_plans(pairs, inp: Inputs, bw, lat, congestion):
    """:func:`search_pairs` when every point has the same pairs: each fabric times, at every point, the pairs
    that may win on it somewhere (all, on (fabric, point, pair, stage), when they are few)."""
    n_fab, n_z = bw.shape[0], pairs.stages.size
    shape = (n_fab, inp.n)
    kept = shared_pairs_that_can_win(pairs, bw, lat, congestion)
    if kept is not None and np.all(kept.any(axis=1)):
        # each fabric times the pairs that may win on it at some point: steps on (point, entry, stage), an entry
        # a (fabric, pair), ordered by fabric and pair; each fabric's entries are one segment
        fi, rows = nonzero_2d(kept)

        def at_entries(x):  # (F, N or 1) → (N or 1, entries, 1)
            return np.asarray(x)[fi].T[..., None]
        step = per_sequence(pairs, rows, at_entries(bw), at_entries(lat),
                             {k: at_entries(x) for k, x in congestion.items()}, trailing=0)
        step = step.reshape(step.shape[0], -1)  # (N or 1, entries · Z)
        counts = np.bincount(fi, minlength=n_fab) * n_z
        starts = np.cumsum(counts) - counts
        seg_min, first = segment_minima(step, starts)  # (N or 1, F); the first (pair, stage) reaching it
        first = first.T
        any_valid = np.broadcast_to(np.isfinite(seg_min).T, shape)
        return (rows[first // n_z] * n_z + first % n_z, any_valid,
                np.broadcast_to(pairs.has_degrees[None, :], shape), np.broadcast_to(seg_min.T, shape))
    rows = np.arange(pairs.ni.size) if kept is None else np.flatnonzero(kept.any(axis=0))
    step = per_sequence(pairs, rows, bw[..., None, None], lat[..., None, None], congestion, trailing=2)
    step = step.reshape(step.shape[:-2] + (-1,))
    first = np.argmin(step, axis=-1)  # ties go to the earlier candidate
    best = np.take_along_axis(step, first[..., None], axis=-1)[..., 0]
    first = rows[first // n_z] * n_z + first % n_z
    any_valid = np.broadcast_to(np.isfinite(best), shape)
    return first, any_valid, np.broadcast_to(pairs.has_degrees[None, :], shape), np.broadcast_to(best, shape)


def search_plans(s: Scenario, inp: Inputs, bw_final, step_latency, net):
    """The fastest plan per fabric and point at the effective bandwidth ``bw_final`` [B/s], shape (F, N).

    ``step_latency``: :func:`inter_step_latency_s` of the fabrics [s]; ``net``: :func:`network_state`. Returns the
    plan (:data:`PLAN_ARRAY_KEYS` arrays, NaN where none fits), its :func:`plan_side_terms` (or None), where some plan
    fits and where some plan's degrees are possible.
    """
    pairs, best, any_valid, has_degrees, fewer, code = search_choices(s, inp, bw_final, step_latency, net)

    def at_points(x):  # (F, distinct points) → (F, N)
        return x.take(code, axis=1) if np.shape(x)[1] > 1 else np.broadcast_to(x, np.shape(x)[:1] + (inp.n,))
    if code is not None and not pairs.shared and (pairs.unit_replicas is None
                                                  or all(np.size(y) == 1 for y in pairs.unit_replicas)):
        # the plan read once, at every point: the few choice arrays copied out to the points rather than the
        # plan's some thirty arrays (not where the pairs hold values per distinct point: shared pairs, the
        # placeholder plan's replicas along a cluster-size sweep)
        best, any_valid, has_degrees = (at_points(x) for x in (best, any_valid, has_degrees))
        if fewer is not None:
            fewer = (at_points(fewer[0]),) + tuple({k: at_points(x) for k, x in d.items()} for d in fewer[1:])
        code = None
    if code is None:
        plan, plan_side = with_fewer(*chosen_plan(pairs, best, (bw_final.shape[0], inp.n), any_valid), fewer)
        return plan, plan_side, any_valid.copy(), has_degrees.copy()  # the verdicts become the caller's own
    plan, plan_side = with_fewer(*chosen_plan(pairs, best, (bw_final.shape[0], code.max() + 1), any_valid), fewer)
    return ({k: at_points(x) for k, x in plan.items()}, {k: at_points(x) for k, x in plan_side.items()},
            at_points(any_valid), at_points(has_degrees))


def with_fewer(plan, side, fewer):
    """The first pass's plan and its terms, with those of :func:`fewer_replicas` where a plan on fewer replicas is
    faster (``fewer``: its ``(mask, plan, side)``, or None)."""
    if fewer is None:
        return plan, side
    mask, fewer_plan, fewer_side = fewer
    return ({k: np.where(mask, fewer_plan[k], x) for k, x in plan.items()},
            {k: np.where(mask, fewer_side[k], x) for k, x in side.items()})


def search_choices(s: Scenario, inp: Inputs, bw_final, step_latency, net, distinct_points=False):
    """:func:`search_plans`' choices: the pairs searched and, per fabric and point, the flat (pair, stage) index
    of the fastest plan (:func:`chosen_plan` reads the plan there), where some plan fits and where some plan's
    degrees are possible (read-only arrays, (F, N or 1)), and None; or, where points repeat, those at each
    distinct point (the pairs of those points) and each point's distinct one (an index array).
    ``distinct_points``: no two points hold the same search inputs (the distinct points of
    :func:`repeated_points`), so they are not looked for again. After the verdicts, :func:`fewer_replicas`' answer
    (None, or where a plan on fewer replicas is faster, with that plan and its terms).
    """
    pt = inp.point
    repeated = None if distinct_points else repeated_points(pt, (bw_final, step_latency,
                                                                   *net["congestion"].values()), inp.n)
    if repeated is not None:  # the search at each distinct point only, read back at every point
        first, code = repeated
        sub = Inputs(first.size, {k: x.take(first) if x.shape[0] > 1 else x for k, x in pt.items()}, inp.fabric,
                     inp.fabrics)

        def at_first(x):
            return x.take(first, axis=1) if x.shape[1] > 1 else x
        return (*search_choices(s, sub, at_first(bw_final), at_first(step_latency),
                                 {"congestion": {k: at_first(x) for k, x in net["congestion"].items()}},
                                 distinct_points=True)[:5], code)
    pair_key = plan_pairs_key(s, pt)
    pairs = plan_pairs(s, pt, pair_key)
    # a fabric's bandwidth and latency are usually the same at every point: then not copied per pair
    bw, lat = (cut_constant_points(x, 1) for x in (bw_final, step_latency))
    congestion = {k: cut_constant_points(at_shape(x, bw_final.shape), 1)
                  for k, x in net["congestion"].items()}
    arrays = (bw, lat, *congestion.values())
    keys = [(pair_key, inp.n) + tuple((x.shape[1:], x.dtype.str, x[i].tobytes()) for x in arrays)
            for i in range(bw.shape[0])]
    whole = ("every fabric", *keys)  # the answers of every fabric, as last assembled
    with PLAN_CACHE_LOCK:
        found = _SEARCH_CACHE.get(whole)
        rows = [_SEARCH_CACHE.get(k) for k in keys]
        for k, row in zip((whole, *keys), (found, *rows)):
            if row is not None:
                _SEARCH_CACHE.move_to_end(k)
    if found is not None and all(row is not None for row in rows):
        return (pairs, *found, None)
    missing = [i for i, row in enumerate(rows) if row is None]
    if missing:  # the fabrics not kept, searched together
        sub = (lambda x: x) if len(missing) == len(rows) else (lambda x: x.take(missing, axis=0))
        sbw, slat = sub(bw), sub(lat)
        scong = {k: sub(x) for k, x in congestion.items()}
        best, any_valid, has_degrees, best_time = search_pairs(pairs, inp, sbw, slat, scong)
        fewer = fewer_replicas(s, pairs, pt, sbw, slat, scong, best_time)
        for x in (best, any_valid):
            x.flags.writeable = False  # shared by every evaluation that reads them, as the rows kept below
        with PLAN_CACHE_LOCK:
            for j, i in enumerate(missing):  # each fabric's rows: views of what was just found
                rows[i] = (best[j], any_valid[j], None if fewer is None or not fewer[0][j].any() else (fewer, j))
                _SEARCH_CACHE[keys[i]] = rows[i]
            while len(_SEARCH_CACHE) > SEARCH_CACHE_ROWS:
                _SEARCH_CACHE.popitem(last=False)
    if len(missing) == len(rows):  # every fabric searched together: their answers as found
        found = (best, any_valid, has_degrees, fewer)
    else:
        best, any_valid = (np.stack([row[k] for row in rows]) for k in (0, 1))
        has_degrees = np.broadcast_to(pairs.has_degrees[None, :], any_valid.shape)
        for x in (best, any_valid):
            x.flags.writeable = False  # as the kept rows: the caller's readers never write them
        found = (best, any_valid, has_degrees, _fewer_rows([row[2] for row in rows]))
    with PLAN_CACHE_LOCK:
        _SEARCH_CACHE[whole] = found
        while len(_SEARCH_CACHE) > SEARCH_CACHE_ROWS:
            _SEARCH_CACHE.popitem(last=False)
    return (pairs, *found, None)


def _fewer_rows(rows):
    """:func:`fewer_replicas`' answer for every fabric from each fabric's (None where no plan on fewer replicas wins
    for it, else ``(answer, j)``: row ``j`` of the answer found with it): None where none wins anywhere; a fabric
    with none holds a mask of False (its values are never read)."""
    some = next((row for row in rows if row is not None), None)
    if some is None:
        return None
    answer0, j0 = some

    def stack(read):
        zeros = np.zeros_like(read(answer0)[j0])
        return np.stack([read(row[0])[row[1]] if row is not None else zeros for row in rows])
    return (stack(lambda a: a[0]),
            *({k: stack(lambda a, k=k, i=i: a[i][k]) for k in answer0[i]} for i in (1, 2)))


def repeated_points(pt, fabric_arrays, n):
    """Where several points of a sweep hold the same search inputs: the first point of each distinct one, in point
    order, and each point's distinct one (index arrays), or None (every point its own, or inputs with a sample
    axis).

    The plan search answers each point from its own inputs only — the point arrays of :data:`PLAN_POINT_KEYS`
    and each fabric's bandwidth, latency and congestion there (``fabric_arrays``, (F, N or 1)) — so points that
    hold the same ones get the same plans, bit for bit. A model-size sweep meets them: its small models round to
    the same hidden size and layer count at neighbouring points (237 distinct models of 256 on the default
    preset), and those points carry the most plans that fit.
    """
    if n < 2 or any(np.ndim(x) != 1 for x in pt.values()) or any(np.ndim(x) != 2 for x in fabric_arrays):
        return None
    # the inputs that change along the sweep, as one table of floats (one copy); an input the same at every
    # point (compared as bytes, as cut_constant_points does) tells no two points apart
    table = np.array([x for x in (pt[k] for k in PLAN_POINT_KEYS) if x.shape[0] > 1]
                     + [row for x in fabric_arrays if x.shape[1] > 1 for row in x], dtype=float)
    if table.size:
        bits = table.view(np.int64)
        table = table.compress(~(bits == bits[:, :1]).all(axis=1), axis=0)
    if not table.size:
        return None
    # a swept value that grows (or falls) at every point: every point is its own (no sort); the steps of every
    # column in one pass (a sweep holds some 30 columns: a pass per column cost more than the test saves)
    with np.errstate(invalid="ignore"):  # inf − inf: NaN, neither growing nor falling
        step = table[:, 1:] - table[:, :-1]
    if ((step > 0).all(axis=1) | (step < 0).all(axis=1)).any():
        return None
    first, code = distinct_rows(table, n)
    if first.size == n:
        return None
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return first.take(order), rank.take(code)


def search_pairs(pairs, inp: Inputs, bw, lat, congestion):
    """:func:`search_choices` on the pairs, at bandwidth and latency (F, N or 1) and the congestion arrays: the
    flat (pair, stage) index of each fabric's and point's fastest plan, where some plan fits, where some plan's
    degrees are possible, and that plan's step per sequence [s] (infinite where none fits)."""
    n_fab = bw.shape[0]
    if pairs.shared:
        return search_shared_plans(pairs, inp, bw, lat, congestion)
    ni = pairs.ni
    # each fabric times only the pairs that may win on it: (fabric, pair) entries, ordered by fabric and point
    fi, pair = nonzero_2d(pairs_that_can_win(pairs, bw, lat, congestion))
    at = ni[pair]
    step = per_sequence(pairs, pair, *((x[:, 0].take(fi) if x.shape[1] == 1 else x[fi, at]) for x in (bw, lat)),
                         congestion, (fi, at), trailing=0, stages_first=True)  # (Z, entries): time per sequence
    # fastest plan per fabric and point: each (fabric, point) is one segment of entries; the segment minimum,
    # then the first (pair, stage) that reaches it (ties go to the earlier candidate): the first entry whose
    # fastest stage reaches it, and that entry's first stage that does
    new_seg = np.ones(max(fi.size, 1), dtype=bool)  # as np.r_[True, ...] (several times slower)
    new_seg[1:] = (fi[1:] != fi[:-1]) | (at[1:] != at[:-1])
    starts = np.flatnonzero(new_seg)
    seg_min, entry = segment_minima(functools.reduce(np.minimum, step), starts)
    stage = np.argmax(step[:, entry] == seg_min, axis=0)
    best = np.zeros((n_fab, inp.n), dtype=int)
    any_valid = np.zeros((n_fab, inp.n), dtype=bool)
    best[fi[starts], at[starts]] = pair[entry] * pairs.stages.size + stage
    any_valid[fi[starts], at[starts]] = np.isfinite(seg_min)
    best_time = np.full((n_fab, inp.n), np.inf)
    best_time[fi[starts], at[starts]] = seg_min
    return best, any_valid, np.broadcast_to(pairs.has_degrees[None, :], any_valid.shape), best_time


def clear_cache() -> None:
    """Forget the kept search answers."""
    with PLAN_CACHE_LOCK:
        _SEARCH_CACHE.clear()
