"""The plan search's fabric-independent part: the (point, plan) pairs that fit, with their geometry.

:func:`plan_pairs` finds every (point, plan) pair whose degrees are possible and that fits in memory, with the
step's plan-side terms and its bound coefficients per row (:class:`PlanPairs`), kept in a small cache: dragging a
fabric, reliability or money slider re-runs only the fabric-dependent few operations per pair.
"""

from __future__ import annotations

import collections
import functools
import threading
from typing import NamedTuple

import numpy as np

from ..arrays import cut_constant_points, distinct_rows
from ..memory import USABLE_MEMORY_FRACTION, activation_bytes, held_forwards, model_state_bytes_by_stage, \
    schedule_forwards
from ..network import CONGESTION_PLAN_KEYS
from ..plan_fit import GRID_MIN_ENTRIES, LAYER_MEMORY_POINT_KEYS, STAGE_MEMORY_POINT_KEYS, data_parallel_replicas, \
    degrees_valid, layer_memory, replica_rules, replicas_of_ranks, stage_memory
from ..scenario import Scenario
from ..step_time import COMPUTE_SIDE_PLAN_KEYS, LAYER_SIDE_POINT_KEYS, PLAN_SIDE_POINT_KEYS, STAGE_SIDE_POINT_KEYS, \
    STEP_KEYS, compute_side, layer_side_terms, pipeline_crosses, replica_side_terms, stage_side_terms, stage_volume
from .bounds import bound_coefficients, bound_table, few_pairs
from .candidates import PLAN_POINT_KEYS, ROW_POINT_KEYS, at_candidates, group_size, plan_candidates, plan_key, \
    stages_worth_timing, weighted_sequences, zero_stages


def plan_side_at(pt, at, plans, ci, params_gpu=None, models=None, plan_at=None, grid=None, spread=True):
    """:func:`plan_side_terms` of the candidates ``ci`` at the points ``at`` (index arrays (K,)): arrays (K,), bit
    for bit.

    ``pt``: :data:`PLAN_SIDE_POINT_KEYS` arrays of shape (N,) or (1,); ``plans``: the candidates' ``(t, p, b, v,
    rc, c, e)``, arrays (C,). The layer terms (:func:`layer_side_terms`, most of the work: layer times and the in-node
    collectives) come from :func:`layer_terms`; the stage terms are computed per entry. ``params_gpu``: the
    entries' parameters per GPU (K,), if already computed (the memory's stage parameters); ``models``: the
    points' distinct models for :func:`layer_terms`, likewise; ``plan_at``: the plans of the entries, ``(t, p, b,
    v, rc, c, e)`` at ``ci`` (K,), likewise; ``grid``: the layer terms as a :class:`LayerGrid` of these points and
    candidates, if already computed (then read, whatever the number of entries). ``spread`` False: a term of one
    value stays one value (1,) (not broadcast to (K,)).
    """
    t, p, b, v, r, c, e = plans
    n = np.size(at)
    t_at, p_at, b_at, v_at, r_at, c_at, e_at = (np.take(x, ci) for x in plans) if plan_at is None else plan_at
    if grid is None and n < GRID_MIN_ENTRIES and all(np.shape(x)[0] == 1 for x in pt.values()):
        # few entries of one model: the layer terms once per distinct layer plan (t, b, rc, c, e), then read
        pt_at = pt
        first, sub = distinct_rows([t_at, b_at, r_at, c_at, e_at], n)
        ls = {k: x if np.size(x) == 1 else np.asarray(x).take(sub)
              for k, x in layer_side_terms(pt, *(x.take(first) for x in (t_at, b_at, r_at, c_at, e_at))).items()}
    elif grid is None and n < GRID_MIN_ENTRIES:  # few entries: directly
        pt_at = {k: (np.take(x, at, axis=0) if np.shape(x)[0] > 1 else x) for k, x in pt.items()}
        ls = layer_side_terms(pt_at, t_at, b_at, r_at, c_at, e_at)
    else:
        ls = grid.at(at, ci) if grid is not None else layer_terms(pt, LAYER_SIDE_POINT_KEYS, at, (t, b, r, c, e), ci,
                                                                   layer_side_terms, models=models)
        pt_at = {k: (np.take(x, at, axis=0) if np.shape(x)[0] > 1 else x)
                 for k, x in ((k, np.asarray(pt[k])) for k in STAGE_SIDE_POINT_KEYS)}
    # whether the pipeline crosses nodes: a function of the plan alone where the node size is one (a model-size
    # sweep), then computed per candidate and read at each entry
    gpn = np.asarray(pt["gpus_per_node"])
    crosses = np.take(pipeline_crosses(t, p, c, gpn), ci) if n >= GRID_MIN_ENTRIES and gpn.size == 1 else None
    out = stage_side_terms(pt_at, ls, t_at, p_at, v_at, c_at, e_at, params_gpu, crosses)
    if not spread:
        return {k: x if np.shape(x) == (n,) else np.reshape(x, (-1,)) for k, x in out.items()}
    return {k: x if np.shape(x) == (n,) else np.broadcast_to(x, (n,)) for k, x in out.items()}


def layer_terms(pt, keys, at, plans, ci, layer_fn, trailing=(), models=None):
    """``layer_fn(point arrays, *plan arrays)`` (one layer's terms) at the points ``at`` and the candidates ``ci``
    (index arrays (K,)): arrays (K, *trailing), bit for bit.

    ``pt``: point arrays (N or 1,) holding ``keys``, what ``layer_fn`` reads, which do not include the number of
    layers; ``plans``: the candidates' plan arrays (C,) it reads; ``trailing``: the shape of axes its outputs
    add (inputs get them as length-1 axes). Along a model-size sweep the hidden size takes a few values
    (multiples of :data:`HIDDEN_MULTIPLE`) while the layer count changes at almost every point: the terms are
    computed once per distinct (point model up to its layer count, plan) when that grid is much smaller than K
    (:func:`layer_grid`), then read at each entry. ``models``: :func:`point_models` of ``pt`` over ``keys`` or
    more, if already known.
    """
    n = np.size(at)
    grid = layer_grid(pt, keys, plans, layer_fn, n // 4, trailing, models) if n >= GRID_MIN_ENTRIES else None
    if grid is not None:
        return grid.at(at, ci)
    ax = (None,) * len(trailing)
    return layer_fn({k: (x.take(at, axis=0) if x.shape[0] > 1 else x)[(slice(None),) + ax]
                     for k, x in ((k, np.asarray(pt[k])) for k in keys)},
                    *(np.take(x, ci)[(slice(None),) + ax] for x in plans))


def layer_grid(pt, keys, plans, layer_fn, most, trailing=(), models=None):
    """:func:`layer_terms`' terms on the grid of the points' distinct models (up to their layer counts) and the
    candidates' distinct plans, as a :class:`LayerGrid`; or None where that grid would hold more than ``most``
    entries (then computing at the entries to be read costs less)."""
    rep, cls = point_models(pt, keys) if models is None else models
    first, sub = distinct_rows(list(plans), plans[0].size)
    if rep.size * first.size > most:
        return None
    ax = (None,) * len(trailing)
    grid = layer_fn({k: (x[rep] if x.shape[0] > 1 else x)[(slice(None), None) + ax]
                     for k, x in ((k, np.asarray(pt[k])) for k in keys)},
                    *(x[first][(None, slice(None)) + ax] for x in plans))
    return LayerGrid(grid, (rep.size, first.size), len(trailing), cls, sub)


def point_models(pt, keys):
    """The distinct models of the points: :func:`distinct_rows` of the point arrays ``keys`` of ``pt`` that change
    along the sweep (N entries, N the longest array of ``pt``)."""
    return distinct_rows([np.asarray(pt[k], dtype=float) for k in keys if np.shape(pt[k])[0] > 1],
                          max(np.shape(x)[0] for x in pt.values()))


class LayerGrid:
    """Terms computed on a grid of (distinct model, distinct plan), held to be read at (point, candidate) entries
    (:meth:`at`) by :func:`layer_terms` and, for the same points and candidates, by later passes of the search.

    ``grid``: the terms, arrays broadcasting to ``shape`` (models, plans) and up to ``n_trailing`` more axes;
    ``model_of_point``, ``plan_of_candidate``: each point's model and each candidate's plan (index arrays).
    A term of one value (a term of a parallelism the sweep never uses; compared as bytes) stays one value. The
    others are stacked into one table per dtype and trailing shape, read by one gather each: a gather per term
    would allocate as many arrays of K entries, whose fresh pages cost more than the gather itself. A term with
    trailing axes is read with the entries along memory's fastest axis (seen as (K, ...)): what is computed from
    it against arrays (K, 1) then runs along the entries, not along the short trailing axis.
    """

    def __init__(self, grid, shape, n_trailing, model_of_point, plan_of_candidate):
        self.n_plans, self.model_of_point, self.plan_of_candidate = shape[1], model_of_point, plan_of_candidate
        self.keys, self.one, self.tables = list(grid), {}, []  # tables: (keys, table (keys, *tail, models · plans))
        stacked = {}
        for k, x in grid.items():
            x = np.asarray(x)
            x = x.reshape((1,) * (2 + n_trailing - x.ndim) + x.shape)
            raw = x.tobytes()
            if raw == raw[:x.itemsize] * x.size:
                self.one[k] = x.reshape(-1)[:1].reshape((1,) * (1 + n_trailing))
            else:
                stacked.setdefault((x.dtype, x.shape[2:]), []).append((k, x))
        for (dtype, tail), terms in stacked.items():
            table = np.empty((len(terms),) + tail + (shape[0] * shape[1],), dtype=dtype)
            for i, (k, x) in enumerate(terms):
                table[i].reshape(tail + shape)[...] = np.moveaxis(x, (0, 1), (-2, -1))
            self.tables.append(([k for k, _ in terms], table))

    def at(self, at, ci):
        """The terms at the points ``at`` and candidates ``ci`` (index arrays (K,)): arrays (K, ...)."""
        idx = (self.model_of_point * self.n_plans).take(at) + self.plan_of_candidate.take(ci)
        out = dict(self.one)
        for keys, table in self.tables:
            for k, x in zip(keys, np.take(table, idx, axis=-1)):
                out[k] = np.moveaxis(x, -1, 0)
        return {k: out[k] for k in self.keys}


# point inputs of the memory's and the plan side's layer terms: what tells one model up to its layer count from another
LAYER_POINT_KEYS = tuple(dict.fromkeys(LAYER_MEMORY_POINT_KEYS + LAYER_SIDE_POINT_KEYS))

# One entry per set of plan-search inputs (plan settings and the point arrays of PLAN_POINT_KEYS). The app has
# up to five alive at once: the window's sweep and its point (one entry when the point rides on the sweep), the
# A/B pinned scenario's sweep and point along the window's x-axis, and the bands worker's nominal sweep (its own
# x values); the tornado and the exports reuse the window's. The sixth keeps the previous value while a slider
# is dragged back and forth. An entry holds a few arrays per (point, plan) pair that fits: 0.1-8 MB for a
# 256-point sweep of the presets.
_PAIR_CACHE: "collections.OrderedDict" = collections.OrderedDict()
PLAN_CACHE_SIZE = 6
PLAN_CACHE_LOCK = threading.Lock()
_PAIR_STATS = {"hits": 0, "misses": 0}
# the replicas of every candidate at every point of a cluster-size sweep, per (cluster sizes, batch, candidates)
_REPLICAS: "collections.OrderedDict" = collections.OrderedDict()


class PlanPairs(NamedTuple):
    """The plan search's fabric-independent part: (point, plan) pairs that fit, ordered by point.

    A pair is a point and a plan up to its ZeRO stage. Its quantities are held per row: a row serves the pairs
    of the same plan and replicas at several points along a cluster-size sweep, else one pair. The ZeRO stages
    are a trailing axis of length Z: row quantities that depend on the stage have shape (rows, Z), the others
    (rows, 1).
    """
    ni: np.ndarray  # point of each pair
    row: np.ndarray  # row of each pair
    has_degrees: np.ndarray  # (N,) some plan's degrees are possible at the point
    dp_overlap: np.ndarray  # per row (rows, 1), or one value for all
    plan: dict  # PLAN_ARRAY_KEYS but the ZeRO stage: the plan of each row, (rows,)
    stages: np.ndarray  # (Z,) the ZeRO stages searched
    allowed: np.ndarray  # (rows, Z) the stages worth timing (see stages_worth_timing)
    cs: dict  # STEP_KEYS and the placement (CONGESTION_PLAN_KEYS) of compute_side per row, but cs_kind's
    kind: np.ndarray  # (rows,) the row's (degrees, recompute kind) when the model is the same at every point, else
    # the row itself
    cs_kind: dict  # the step's plan-side terms per kind (kinds, 1)
    plan_side: dict  # every plan_side_terms term per kind (kinds,)
    usable: bool  # False: no pair fits anywhere (one placeholder pair)
    shared: bool  # True: the plan inputs are the same at every point and the pairs (of point 0) hold at each
    starts: np.ndarray  # first pair of each point that has pairs
    sequences: np.ndarray  # (rows, 1) sequences per step of each row (m · d · micro_batch) over its stragglers' factor
    bound: np.ndarray | None  # bound_coefficients of the rows (6, rows) where a row is a pair, else None
    stage_bound: np.ndarray | None = None  # bound_table of the rows (columns, rows) where rows serve several points
    # (``row_points``, or all: ``shared``), else None; neither: every pair is timed (few pairs)
    row_points: tuple | None = None  # the first and last point of each row's pairs (rows,) where rows serve several
    # points (a cluster-size sweep), else None (a row per pair)
    replicas: tuple | None = None  # each row's data-parallel degree and micro-batches ``(d, m)`` (rows,), as
    # data_parallel_replicas gives them at the row's points (the same for every point a row serves), or None (no
    # pair fits)
    unit_replicas: tuple | None = None  # ``(d, m)`` of the placeholder plan (every degree and the micro-batch 1)
    # at each point (N or 1,), read where no plan fits
    memory: tuple | None = None  # the peak memory per GPU [B] of every row at every stage: a flat table and each
    # row's entry at stage 0 and the stride between stages, ``table[at + zi · stride]``; or None (no pair fits)
    candidate: np.ndarray | None = None  # each row's candidate at its first ZeRO stage (an index into
    # plan_candidates' arrays: its degrees ``candidate // group_size``), or None (no pair fits)
    memo: dict | None = None  # fabric-independent answers of the search's later passes, kept with the pairs they
    # were read from (the fewer-replicas pass's row options and its free options' times): a fabric slider's
    # drag meets the same pairs at every move


def plan_pairs_key(s: Scenario, pt: dict) -> tuple:
    """The plan-search inputs that fix the pairs: the plan settings and the point arrays of PLAN_POINT_KEYS."""
    return plan_key(s) + tuple(np.ascontiguousarray(pt[k]).tobytes() for k in PLAN_POINT_KEYS)


def plan_pairs(s: Scenario, pt: dict, key: tuple | None = None) -> PlanPairs:
    """Every (point, plan) pair whose degrees are possible and that fits in memory, with its geometry.

    Pure in the plan-search inputs, so cached (a few entries): dragging a fabric, reliability or money
    slider re-evaluates only the fabric-dependent few operations per pair. ``key``: :func:`plan_pairs_key`, if known.
    """
    round_batch = s.parallel.resolved_mode == "auto"
    key = plan_pairs_key(s, pt) if key is None else key
    with PLAN_CACHE_LOCK:
        hit = _PAIR_CACHE.get(key)
        if hit is not None:
            _PAIR_CACHE.move_to_end(key)
            _PAIR_STATS["hits"] += 1
            return hit
        _PAIR_STATS["misses"] += 1
    n_points = pt["gpus"].shape[0]
    t, p, b, v, r, z, c, e = plan_candidates(s, pt)
    # degrees and memory on the (point, candidate) grid. A sweep changes one or two inputs: the others keep
    # one value, so what depends only on them and the plan (most of the memory) costs (1, C) elements
    ptc = {k: cut_constant_points(pt[k], 0) for k in PLAN_POINT_KEYS}
    grid_pt = {k: x[:, None] for k, x in ptc.items()}
    # degrees depend on (tp, pp, micro_batch, v) only: evaluated once per group of candidates, (N, C0). Memory is
    # weights and optimizer (by ZeRO stage) plus activations (by recompute kind): the two parts on (N, C0, Z) and
    # (N, C0, R), their sums on (N, C0, R, Z), the candidate order
    group = group_size(s)
    n_z = len(zero_stages(s))
    rs, zs = r[:group:n_z], z[:n_z]
    g = slice(None, None, group)
    grid_plan = (t[None, g], p[None, g], b[None, g], v[None, g])
    cg, eg = c[None, g], e[None, g]
    with np.errstate(divide="ignore", invalid="ignore"):  # d = 0 where no replica fits: not a valid pair
        if grid_pt["gpus"].shape[0] > 1:  # the replicas depend on the plan through t·p·c and the micro-batch only:
            ranks = t[g] * p[g] * c[g]  # along a cluster-size sweep, computed once per distinct pair at each point
            if not round_batch:
                first, col = distinct_rows([ranks, b[g]], ranks.size)
                d, m = (x[:, col] for x in data_parallel_replicas(grid_pt, ranks[None, first], 1.0,
                                                                  b[None, g][:, first], round_batch))
            else:  # and the rules the plan's degrees set for its replicas; the same at every move of a drag that
                # leaves the cluster sizes, the batch and the candidates alone (a model-size drag): kept
                rkey = tuple(np.ascontiguousarray(x).tobytes() for x in (ptc["gpus"], ptc["global_batch"], t[g],
                                                                          p[g], b[g], v[g], c[g], e[g]))
                with PLAN_CACHE_LOCK:
                    kept = _REPLICAS.get(rkey)
                if kept is None:
                    rules = [np.broadcast_to(x, ranks.shape) for x in replica_rules(t[g], p[g], v[g], c[g], e[g])]
                    first, col = distinct_rows([ranks, b[g], *rules], ranks.size)
                    kept = tuple(x[:, col] for x in replicas_of_ranks(grid_pt, ranks[None, first],
                                                                      b[None, g][:, first],
                                                                      *(x[None, first] for x in rules)))
                    for x in kept:
                        x.flags.writeable = False
                    with PLAN_CACHE_LOCK:
                        _REPLICAS[rkey] = kept
                        while len(_REPLICAS) > PLAN_CACHE_SIZE:
                            _REPLICAS.popitem(last=False)
                d, m = kept
        else:
            d, m = data_parallel_replicas(grid_pt, *grid_plan[:3], round_batch, cg, grid_plan[3], eg)
        # the replicas of the placeholder plan (every degree and the micro-batch 1) that the evaluation reads where
        # no plan fits: those of its candidates' column, if the search has one, else computed (N or 1,)
        unit = np.flatnonzero((t[g] == 1.0) & (p[g] == 1.0) & (b[g] == 1.0) & (c[g] == 1.0) & (e[g] == 1.0))
        if unit.size:
            unit_replicas = (d[:, unit[0]], m[:, unit[0]])
        else:
            one = np.ones((1, 1))
            unit_replicas = tuple(x[:, 0] for x in data_parallel_replicas(grid_pt, one, one, one, round_batch, one))
        # the same plan inputs at every point (a fabric or money sweep): one point's pairs, repeated below
        n_eff = 1 if all(x.shape[0] == 1 for x in ptc.values()) else n_points
        degrees_ok = np.broadcast_to(degrees_valid(grid_pt, *grid_plan, d, m, cg, eg), (n_eff, t.size // group))
    has_degrees = np.broadcast_to(degrees_ok.any(axis=1), (n_points,))
    flat = np.flatnonzero(degrees_ok)  # the (point, degrees) pairs that can be; memory only for them
    nb, cb = np.divmod(flat, degrees_ok.shape[1])

    def at_base(x, which=None):  # at the pairs (or those ``which``): one flat gather rather than a two-index one
        x = np.asarray(x)
        if x.ndim < 2:
            return x
        at_flat, at_n, at_c = (flat, nb, cb) if which is None else (y.take(which) for y in (flat, nb, cb))
        x = np.broadcast_to(x, x.shape[:1] + (degrees_ok.shape[1],) + x.shape[2:])
        if x.shape[0] == 1:
            return x[0].take(at_c, axis=0)
        if x.shape[0] == degrees_ok.shape[0]:
            return x.reshape((-1,) + x.shape[2:]).take(at_flat, axis=0)
        return x[at_n, at_c]
    # along a cluster-size sweep only the replicas (d, m) change with the point: pairs of the same degrees and
    # replicas have the same memory and geometry, computed once as one row for the consecutive points that share
    # them (all of them when the replicas never decrease along the sweep, as with growing clusters; a row is any
    # grouping of pairs of the same geometry). Elsewhere a row is a (point, degrees) pair
    dedupe = n_eff > 1 and all(x.shape[0] == 1 for k, x in ptc.items() if k != "gpus")
    if dedupe:  # a row per run of consecutive points of a column (degrees) with the same replicas: no sort
        same = np.zeros(degrees_ok.shape, dtype=bool)
        same[1:] = degrees_ok[1:] & degrees_ok[:-1] & (d[1:] == d[:-1])
        new_run = np.ascontiguousarray((degrees_ok & ~same).T)  # (degrees, points)
        inv = (np.cumsum(new_run.reshape(-1)) - 1).take(cb * n_points + nb)  # (a flat gather: fast)
        rep = np.empty(np.count_nonzero(new_run), dtype=int)
        rep[inv] = np.arange(inv.size)  # a point of each run
        ends = degrees_ok.copy()
        ends[:-1] &= ~same[1:]
        run_points = (np.flatnonzero(new_run) % n_points, np.flatnonzero(ends.T) % n_points)  # its first and last
        nb_r, cb_r, d_r, m_r = nb.take(rep), cb.take(rep), at_base(d, rep), at_base(m, rep)  # (at the runs only)
    else:
        nb_r, cb_r, d_r, m_r = nb, cb, at_base(d), at_base(m)
    same_model = all(ptc[k].shape[0] == 1 for k in PLAN_SIDE_POINT_KEYS)
    if same_model:  # the same model at every point: per candidate
        stage = stage_memory({k: x[..., None] for k, x in grid_pt.items()}, *(x[..., None] for x in grid_plan),
                              rs, cg[..., None], eg[..., None])
        stage = {k: np.take(np.broadcast_to(x, (1, degrees_ok.shape[1]) + np.shape(x)[2:])[0], cb_r, axis=0)
                 if np.ndim(x) >= 2 else x for k, x in stage.items()}  # (rows, R or 1)
    else:  # the model changes along the sweep: only at the pairs whose degrees are possible
        # the points' distinct models up to their layer counts, for the memory's and the plan side's layer terms
        models = point_models(ptc, LAYER_POINT_KEYS)
        pt_b = {k: (ptc[k].take(nb) if ptc[k].shape[0] > 1 else ptc[k])[:, None] for k in STAGE_MEMORY_POINT_KEYS}
        layer = layer_terms(ptc, LAYER_MEMORY_POINT_KEYS, nb, (t[g], b[g], c[g], e[g]), cb,
                             lambda q, tt, bb, cc, ee: layer_memory(q, tt, bb, rs, cc, ee), trailing=rs.shape,
                             models=models)
        # what the pipeline alone fixes (the forwards held), once per column of degrees and read at each pair
        forwards = schedule_forwards(p[g], v[g])
        stage = stage_memory(pt_b, *(at_candidates(x[0], cb)[:, None] for x in grid_plan), rs,
                              at_candidates(cg[0], cb)[:, None], at_candidates(eg[0], cb)[:, None], layer=layer,
                              forwards={k: at_candidates(x, cb)[:, None] for k, x in forwards.items()})
        stage = {k: np.broadcast_to(x, (nb.size,) + np.shape(x)[1:]) if np.ndim(x) == 2 else x
                 for k, x in stage.items()}
    dc = d_r * at_candidates(c[g], cb_r)
    states = model_state_bytes_by_stage({k: x[:, :1] if np.ndim(x) == 2 else x for k, x in stage.items()},
                                        dc[:, None], zs)
    held = None
    if not same_model and m.shape[0] == 1:  # the micro-batches of each column the same at every point: what the
        # pipeline and they hold, once per column (``m`` infinite where no replica fits: never read)
        with np.errstate(invalid="ignore"):
            held = tuple(at_candidates(x, cb_r)[:, None]
                         for x in held_forwards(dict(chunks=v[g], **forwards), p[g], m[0]))
    act = activation_bytes(stage, p[g].take(cb_r)[:, None], m_r[:, None], held)
    # the sums on (R, Z, rows), seen as (rows, R, Z): numpy broadcasts along a short last axis several times slower
    mem_b = np.ascontiguousarray(act.T)[:, None, :] + np.ascontiguousarray(states.T)[None, :, :]
    cap = ptc["memory_bytes"] * USABLE_MEMORY_FRACTION
    fits = (mem_b <= (cap[nb_r] if cap.shape[0] > 1 else cap)).transpose(2, 0, 1)
    # the rows worth timing, one per (degrees, recompute kind) with a stage worth timing (for large models most
    # plans do not fit)
    # with the expert all-to-all overlapped behind a chunk's compute, a heavier recompute can be faster: the
    # compute it adds fills time the all-to-all leaves idle, and its longer backward hides more data-parallel
    # traffic; then every recompute kind that fits is timed
    worth = fits if np.any(ptc["ep_overlap"]) else stages_worth_timing(fits)
    # the rows: (pair, recompute kind) with a stage worth timing. ``worth`` is a view (pairs, R, Z) of memory
    # (R, Z, pairs): the rows are found and read there, along the pairs; numpy copies into the (pairs, R, Z) order,
    # whose last axes are short, several times slower than the rest of this costs
    by_kind = np.ascontiguousarray(worth.transpose(1, 2, 0))  # (R, Z, pairs): no copy
    n_pairs = by_kind.shape[2]
    any_stage = functools.reduce(np.logical_or, (by_kind[:, i] for i in range(n_z)))  # (R, pairs), elementwise
    worth_any = np.empty((n_pairs, by_kind.shape[0]), dtype=bool)  # (pairs, R), filled a recompute kind at a time
    for i, x in enumerate(any_stage):
        worth_any[:, i] = x
    rows_flat = np.flatnonzero(worth_any)  # in (pair, recompute kind) order, as a 2-D nonzero but faster
    ui, ri = np.divmod(rows_flat, worth.shape[1])
    # each row's stages, a stage at a time from the row's entry in (R, Z, pairs) (a gather of (rows, Z) entries
    # at once needs an index array built along the short stage axis, slower)
    row_entry = ri * (n_z * n_pairs) + ui  # each row's entry at stage 0 in the (R, Z, pairs) tables
    allowed = np.empty((ui.size, n_z), dtype=bool)
    for zi in range(n_z):
        allowed[:, zi] = by_kind.reshape(-1).take(row_entry + zi * n_pairs)
    # (gathers by ``take``: some twice as fast as fancy indexing for these arrays of a few thousand entries)
    ci = cb_r.take(ui) * group + ri * n_z  # the row's candidate at the first stage
    dm = (d_r.take(ui)[:, None], m_r.take(ui)[:, None])
    pt_of_row = nb_r.take(ui)  # a point of each row (in a cluster-size sweep: one with its replicas)
    # each row's parameters per GPU, as its memory holds them, for the plan side where the model changes
    row_params = None if same_model or not ui.size else stage["params"][:, 0].take(ui)
    if dedupe:  # each (point, degrees) pair takes its rows: those of its (degrees, replicas), kinds in order
        counts = np.bincount(ui, minlength=rep.size)
        per_pair = counts.take(inv)
        pair_of = np.repeat(np.arange(inv.size), per_pair)
        row = (np.cumsum(counts) - counts).take(inv.take(pair_of)) + np.arange(pair_of.size) - np.repeat(
            np.cumsum(per_pair) - per_pair, per_pair)
        ni = nb.take(pair_of)
        row_points = tuple(x.take(ui) for x in run_points)
    else:
        row_points = None
        row, ni = np.arange(ui.size), nb.take(ui)
    shared = n_eff < n_points  # the pairs of point 0 hold at every point: not repeated per point
    usable = ni.size > 0
    if not usable:  # one placeholder pair, marked unusable, keeps the shapes: the first with possible degrees
        ni, ci = (nb[:1], cb[:1] * group) if nb.size else (np.zeros(1, dtype=int),) * 2
        pt_of_row, row = ni, np.zeros(1, dtype=int)
        allowed, dm = np.zeros((1, n_z), dtype=bool), None
    ptp = {k: (x.take(pt_of_row) if x.shape[0] > 1 else x)[:, None] for k, x in ptc.items() if k in ROW_POINT_KEYS}
    col = tuple(at_candidates(x, ci) for x in (t, p, b, v, r, c, e))
    t_p, p_p, b_p, v_p, r_p, c_p, e_p = (x[:, None] for x in col)

    # the unusable placeholder may have impossible degrees (d = 0): its geometry is never read, so no warnings
    # the later passes' fabric-independent answers (PlanPairs.memo), and what they read: the point arrays, each one
    # value where it is the same at every point, and the candidates
    memo = {("points",): ptc, ("candidates",): (t, p, b, v, r, z, c, e)}
    with np.errstate(**({} if usable else dict(divide="ignore", invalid="ignore"))):
        kinds = slice(None, None, n_z)  # one candidate per (degrees, recompute kind): the plan side ignores the stage
        if same_model:  # the same model at every point: per candidate
            firsts = np.arange(t.size)[kinds]
            per_kind = plan_side_at({k: ptc[k] for k in PLAN_SIDE_POINT_KEYS}, np.zeros(firsts.size, dtype=int),
                                     (t, p, b, v, r, c, e), firsts)
            kind, own_kind = ci // n_z, False
        else:  # the model changes along the sweep: per row, each row its own kind; its parameters per GPU are
            # those its memory holds (the same expression of the same inputs: the row's pair and plan)
            side_pt = {k: ptc[k] for k in PLAN_SIDE_POINT_KEYS}
            kind_plans = tuple(x[kinds] for x in (t, p, b, v, r, c, e))
            # the layer terms on the grid of the points' models and the kinds' plans where it is no larger than the
            # rows; kept with the pairs: the fewer-replicas pass reads its options' (these kinds at these points)
            # there. Its calls then compute none (each costs about a millisecond however few the entries)
            grid = layer_grid(side_pt, LAYER_SIDE_POINT_KEYS, tuple(kind_plans[i] for i in (0, 2, 4, 5, 6)),
                              layer_side_terms, pt_of_row.size, models=models)
            memo[("layer side",)] = grid
            per_kind = plan_side_at(side_pt, pt_of_row, kind_plans, ci // n_z, params_gpu=row_params,
                                     models=models, plan_at=col, grid=grid)  # the row's candidate ci: kind ci // n_z
            kind, own_kind = row, True  # each row its own kind (a row per pair: 0, 1, ...): the terms as they are
        # what compute_side computes with, at the rows; the step's other plan-side terms stay per kind
        plan_side = {k: (per_kind[k] if own_kind else per_kind[k][kind])[:, None] for k in COMPUTE_SIDE_PLAN_KEYS}
        # a term the same for every kind (no context or expert parallelism: their terms are zero) is kept once
        cs_kind = {k: cut_constant_points(per_kind[k][:, None], 0) for k in STEP_KEYS + CONGESTION_PLAN_KEYS
                   if k in per_kind and k not in COMPUTE_SIDE_PLAN_KEYS}
        cs = compute_side(ptp, t_p, p_p, b_p, v_p, r_p, zs[None, :], round_batch, plan_side, c=c_p, replicas=dm,
                           e=e_p, search=True, replica_side=_replica_side(ptc, t, p, c, d, m, zs, g, round_batch,
                                                                          ci // group if usable else None))
        sequences = weighted_sequences(cs["m"] * cs["d"] * b_p, t_p, p_p, c_p, cs["d"], ptp)
        # a term the same for every row (no context or expert parallelism: their terms are zero) is kept once
        cs = {k: cut_constant_points(np.broadcast_to(cs[k], (ci.size, 1)) if np.ndim(cs[k]) < 2 else cs[k], 0)
              for k in STEP_KEYS + CONGESTION_PLAN_KEYS if k not in cs_kind}
        new_point = np.r_[True, ni[1:] != ni[:-1]]
        bound = stage_bound = None  # not needed where every pair is timed (few pairs per point)
        if usable and not few_pairs(ni.size, np.count_nonzero(new_point)):
            # rows of several points: the tighter bound, once per row; a row per pair: the simpler bound (the
            # table would cost more than the pairs it spares); pairs shared by every point: both
            if dedupe or shared:
                stage_bound = bound_table(cs, allowed, sequences, None if own_kind else kind, cs_kind,
                                           ptp["dp_overlap"])
            if not dedupe:
                bound = bound_coefficients(cs, allowed, sequences, None if own_kind else kind, cs_kind)
    entry = PlanPairs(ni, row, has_degrees, ptp["dp_overlap"],
                      dict(zip(("tp", "pp", "micro_batch", "virtual_stages", "recompute", "cp", "ep"), col)), zs,
                      allowed, cs, kind, cs_kind, per_kind, usable, shared,
                      starts=np.flatnonzero(new_point),
                      sequences=sequences, bound=bound, stage_bound=stage_bound,
                      row_points=row_points if usable else None,
                      replicas=None if dm is None else tuple(x[:, 0] for x in dm), unit_replicas=unit_replicas,
                      # the sums on (R, Z, rows of the replicas): a row's (recompute kind, stage, row of its replicas)
                      memory=None if dm is None else (mem_b.reshape(-1), row_entry, n_pairs),
                      candidate=None if dm is None else ci, memo=memo)
    with PLAN_CACHE_LOCK:
        _PAIR_CACHE[key] = entry
        while len(_PAIR_CACHE) > PLAN_CACHE_SIZE:
            _PAIR_CACHE.popitem(last=False)
    return entry


def _replica_side(ptc, t, p, c, d, m, zs, g, round_batch, column):
    """:func:`~model.step_time.replica_side_terms` and the ZeRO stages' :func:`~model.step_time.stage_volume` of the
    rows of the columns of degrees ``column`` (rows,), computed once per column and read at each row where the
    replicas ``d``, ``m`` (N or 1, columns) of each column are the same at every point (a model-size sweep) and the
    rows are many (the stage terms then a stage at a time); else None (computed at the rows)."""
    if (column is None or column.size < GRID_MIN_ENTRIES or np.shape(d)[0] != 1
            or any(ptc[k].shape[0] != 1 for k in ("gpus_per_node", "grad_ratio"))):
        return None
    dc = (d[0] * c[g])[:, None]  # the ranks that hold the same weights, d·c
    with np.errstate(divide="ignore", invalid="ignore"):  # columns of no replica (d = 0): never read
        terms = replica_side_terms(ptc["gpus_per_node"][:, None], t[g][:, None], p[g][:, None], c[g][:, None], dc,
                                   round_batch)
        terms["dp_volume"] = stage_volume(zs, dc > 1, m[0][:, None], ptc["grad_ratio"][:, None])
    return {k: np.take(x, column, axis=0) for k, x in terms.items()}


def clear_cache() -> None:
    """Forget the kept pairs and the counts of the cache's hits and misses."""
    with PLAN_CACHE_LOCK:
        _PAIR_CACHE.clear()
        _REPLICAS.clear()
        _PAIR_STATS.update(hits=0, misses=0)


def cache_counts() -> tuple[int, int, int]:
    """Hits, misses and entries of the pair cache since it was last cleared."""
    with PLAN_CACHE_LOCK:
        return _PAIR_STATS["hits"], _PAIR_STATS["misses"], len(_PAIR_CACHE)
