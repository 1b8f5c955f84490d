"""The plan search's second pass: a plan on fewer data-parallel replicas than the most it can have.

The pairs (:mod:`.pairs`) give each plan shape (degrees, micro-batch, virtual stages) the most replicas at which
it is possible. Fewer can be faster: on a slow or high-latency fabric, the most replicas whose data-parallel group
stays inside one node (a count that still divides the global batch into whole micro-batches) take the gradient
reduction off the network, which can save more than the longer pipeline costs; the GPUs beyond them idle.
:func:`fewer_replicas` finds, per fabric and point, the fastest such plan where it beats the first pass's best.
Only that count is tried besides the most: the replica counts in between still reduce gradients across nodes
(fewer of them), a trade the search does not make.

Exact over these plans, as the first pass: a shape on ``d`` replicas runs ``m = B/(d·b)`` micro-batches, and its
step is at least ``(F + N)·(m·v + p − 1) + m·T_logits`` with ``F`` the chunk's compute and in-node terms (the
lightest recompute kind's that fits on the most replicas: memory only grows with fewer replicas, and recompute
only adds compute), ``N`` the pipeline sends across nodes on the fabric (at least their uncongested time) and
``T_logits`` the logits' time; the in-node data-parallel traffic, the optimizer and the expert and ring traffic
are left out (each at least 0). Per fabric and point the plan of the lowest bound is timed, and only the plans
whose bound reaches neither that time nor the first pass's best are left out. Ties go to the first pass (the most
replicas), then to the first shape, the lightest recompute and the lowest stage, as the brute-force search of the
tests orders them.
"""

from __future__ import annotations

import numpy as np

from ..arrays import cut_constant_points, distinct_rows, nonzero_2d, segment_minima
from ..compute import optimizer_time
from ..memory import FP8_WEIGHT_BYTES, USABLE_MEMORY_FRACTION, model_state_bytes
from ..network import CONGESTION_PLAN_KEYS, congestion_slowdown
from ..plan_fit import largest_divisor_at_most, plan_memory, replica_rules
from ..scenario import Scenario
from ..step_time import PLAN_SIDE_POINT_KEYS, STEP_KEYS, compute_side, step_for_fabric
from .bounds import BOUND_MARGIN
from .candidates import PLAN_POINT_KEYS, group_size, plan_candidates, weighted_sequences, zero_stages
from .pairs import plan_side_at

# at most this many options (free ones and networked (fabric, point) entries) whose bound reaches the first pass's
# best, they are timed without a probe first (see fewer_replicas): a probe's geometry and timing cost about as much
# as this many options more in the one geometry (measured on model-size sweeps of the default and tier_large
# presets: the same time at 32 points, some 600-800 options; the probe 1-8 ms faster from 64 points on)
PROBE_MIN_OPTIONS = 800

# sets of free options whose times a pairs entry keeps (a drag of a fabric slider moves among a few)
_FREE_KEPT = 4

# the plan arrays the search returns, in :data:`~model.plan_search.candidates.PLAN_ARRAY_KEYS` order
_PLAN_ROWS = {"tp": 0, "pp": 1, "micro_batch": 2, "virtual_stages": 3, "recompute": 4, "cp": 6, "ep": 7}


def fewer_replicas(s: Scenario, pairs, pt: dict, bw, lat, congestion, best_time):
    """Where a plan on fewer replicas than its most beats the first pass, per fabric and point.

    ``pairs``: the first pass's :class:`PlanPairs`; ``pt``: the point arrays; ``bw``, ``lat`` (F, N or 1) and
    ``congestion``: the fabrics' timing inputs as the search reads them; ``best_time``: the first pass's fastest
    step per sequence (F, N) [s] (infinite where no plan fits). Returns None where no plan on fewer replicas is
    faster anywhere, else ``(mask, plan, side)``: where one is (F, N) [bool], and there its plan (the search's
    plan arrays) and its :func:`plan_side_terms` with its replicas and memory (``replicas_d``, ``replicas_m``,
    ``memory_bytes``), arrays (F, N) read where ``mask`` holds.

    Which options are timed changes no answer: an option left out has a bound above a time found (or the first
    pass's best) at its point, so it is slower than the fastest, which is always timed, with its ties. The
    options' geometry is computed in as few calls as that allows (each call has a fixed cost of some hundred
    small operations): where it is computed per point and many options reach the first pass's best (a model-size
    sweep of many points, :data:`PROBE_MIN_OPTIONS`), the lowest-bound options of every point and fabric are timed
    in one call, then every option whose bound reaches the times found in another; elsewhere (a cluster-size
    sweep, shared pairs, a short sweep, a single evaluation) one geometry holds every option
    whose bound reaches the first pass's best, and from it the free options are timed first, then the networked
    ones' lowest bound per fabric and point, then those whose bound reaches the times found. What no fabric enters
    (the row options, the free options' times) is kept with the pairs (``pairs.memo``), for a fabric slider's drag.
    """
    if s.parallel.resolved_mode != "auto" or not pairs.usable or pairs.candidate is None:
        return None
    group = group_size(s)
    n_fab, n_pt = best_time.shape
    # each (point, degrees) of the first pass, by its first pair (its lightest recompute kind; pairs in point
    # order, kinds in order) where its option exists: the bases, each with its option (``b_row``, into ``rows``)
    deg = (pairs.candidate // group).take(pairs.row)
    new = np.ones(pairs.row.size, dtype=bool)
    new[1:] = (pairs.ni[1:] != pairs.ni[:-1]) | (deg[1:] != deg[:-1])
    first = np.flatnonzero(new)
    memo = pairs.memo if pairs.memo is not None else {}
    if memo.get(("rows",)) is None:  # fabric-free: once per pairs entry (a fabric slider's drag meets the same pairs)
        if pairs.row_points is not None:  # rows serve several points (and bases): every row's option, once
            memo[("rows",)] = (_row_options(s, pairs, pt, group, np.arange(pairs.allowed.shape[0]), None),
                               pairs.row[first])
        else:  # a row per pair: the bases' rows only
            memo[("rows",)] = (_row_options(s, pairs, pt, group, pairs.row[first], first), np.arange(first.size))
    rows, b_row = memo[("rows",)]
    valid = rows["valid"][b_row]
    first, b_row = first[valid], b_row[valid]
    if not first.size:
        return None
    b_pt = pairs.ni[first]
    lb0 = rows["lb0"][b_row]
    # where no option's fabric-free bound reaches the first pass's best, nothing is timed
    if pairs.shared:
        c0 = np.full(n_pt, lb0.min())
    else:
        starts = _segments(b_pt, b_pt)
        c0 = np.full(n_pt, np.inf)
        c0[b_pt[starts]] = np.minimum.reduceat(lb0, starts)
    needy = best_time >= c0[None, :] * (1.0 - BOUND_MARGIN)
    if not needy.any():
        return None
    reach = best_time.copy()  # per fabric and point, the fastest time found: options whose bound exceeds it lose
    networked = rows["networked"][b_row]
    # options whose step no fabric enters (pipeline, ring and experts inside a node, the data-parallel group too):
    # each distinct one timed once, each point's fastest read by every fabric
    fb = np.flatnonzero(~networked & (needy.any() if pairs.shared else needy.any(axis=0)[b_pt]))
    fb_pt = np.zeros_like(fb) if pairs.shared else b_pt[fb]

    def free_reaching(reach):  # the free options whose bound reaches the slowest needy fabric's time found
        keep = lb0[fb] <= _worst(needy, reach, pairs.shared, fb_pt) * (1.0 + BOUND_MARGIN)
        return fb[keep], fb_pt[keep]
    # the free options and the networked entries whose bound reaches the first pass's best
    fb, fb_pt = free_reaching(reach)
    f_e, p_e, o_e, lb_e = _networked(rows, np.flatnonzero(networked), b_row, b_pt, needy, lat, bw, pairs.shared,
                                     reach)
    parts = []  # (fabric, point, base, steps (entries, kinds · stages), geometry, its row per entry)
    # many options per point (a long model-size sweep): a probe per (fabric, point) first, whose times prune the
    # options timed after it; fewer (a short sweep, a single evaluation) and where rows serve several points, one
    # geometry for every option the first pass's best leaves costs less than the probe saves
    per_point = (not (pairs.shared or pairs.row_points is not None)
                 and fb.size + f_e.size > PROBE_MIN_OPTIONS)
    if per_point:  # one call for the lowest-bound option of each point (free) and fabric and point (networked)
        low_f = fb[segment_minima(lb0[fb], _segments(fb_pt, fb_pt))[1]] if fb.size else fb
        seg = _segments(f_e, p_e)
        low = segment_minima(lb_e, seg)[1] if f_e.size else seg
        if low_f.size or low.size:
            geo, code = _geometry(s, pairs, pt, rows, b_row[np.concatenate([low_f, o_e[low]])],
                                  np.concatenate([b_pt[low_f], p_e[low]]), lightest=True)
        if low_f.size or low.size:  # the free options and the networked entries in one call
            found = _timed(geo, code, f_e[low], p_e[low], bw if low.size else None, lat, congestion,
                           low_f.size).min(axis=1)
            at = b_pt[low_f]
            reach[:, at] = np.minimum(reach[:, at], found[:low_f.size])
            reach[f_e[seg], p_e[seg]] = np.minimum(reach[f_e[seg], p_e[seg]], found[low_f.size:])
        # one call for every option whose bound reaches the times found
        fb, fb_pt = free_reaching(reach)
        keep = lb_e <= reach[f_e, p_e] * (1.0 + BOUND_MARGIN)
        f_e, p_e, o_e = f_e[keep], p_e[keep], o_e[keep]
        if fb.size or f_e.size:
            geo, code = _geometry(s, pairs, pt, rows, b_row[np.concatenate([fb, o_e])],
                                  np.concatenate([b_pt[fb], p_e]))
        if fb.size or f_e.size:  # the free options and the networked entries in one call
            seq = _timed(geo, code, f_e, p_e, bw if f_e.size else None, lat, congestion, fb.size)
            if fb.size:
                parts.append(_free_part(geo, code[:fb.size], seq[:fb.size], fb, b_pt, needy, pairs.shared, False))
            if f_e.size:
                parts.append((f_e, p_e, o_e, seq[fb.size:], geo, code[fb.size:]))
    else:
        # the networked entries the free options' times rule out are dropped below (the same entries as asking with
        # those times: each is kept where its bound reaches them)
        # the free options' geometry and times: no fabric enters them, so they are kept for the same options of the
        # same pairs (a fabric slider's drag); where not kept, one geometry holds them and the networked options
        key = ("free", fb.tobytes())
        kept = memo.get(key) if fb.size else None
        n_free = fb.size if kept is None else 0
        if n_free or f_e.size:
            geo, code = _geometry(s, pairs, pt, rows, b_row[np.concatenate([fb[:n_free], o_e])],
                                  np.concatenate([b_pt[fb[:n_free]], p_e]))
        if fb.size:  # the free options first: their times bound the networked ones
            if kept is None:
                timed = np.flatnonzero(np.bincount(code[:n_free]))  # the distinct options, in order
                free_seq = np.full((geo["slot"].shape[0], geo["slot"].shape[1] * geo["mem"].shape[1]), np.inf)
                free_seq[timed] = _timed(geo, timed, None, None, None, None, None)
                kept = (geo, code[:n_free], free_seq)
                memo[key] = kept
                for k in [k for k in list(memo) if k[0] == "free"][:-_FREE_KEPT]:
                    memo.pop(k, None)
            part = _free_part(*kept, fb, b_pt, needy, pairs.shared, True)
            parts.append(part)
            reach = np.minimum(reach, part[-1][None, :])
        if f_e.size:  # in (fabric, point, base) order already: bases are in point order
            code = code[n_free:]
            keep = lb_e <= reach[f_e, p_e] * (1.0 + BOUND_MARGIN)
            f_e, p_e, o_e, lb_e, code = f_e[keep], p_e[keep], o_e[keep], lb_e[keep], code[keep]
        if f_e.size:  # the lowest-bound option timed per fabric and point, then those whose bound reaches the
            # fastest found
            seg = _segments(f_e, p_e)
            low = segment_minima(lb_e, seg)[1]
            t_c = _timed(geo, code[low], f_e[low], p_e[low], bw, lat, congestion).min(axis=1)
            reach[f_e[seg], p_e[seg]] = np.minimum(reach[f_e[seg], p_e[seg]], t_c)
            keep = lb_e <= reach[f_e, p_e] * (1.0 + BOUND_MARGIN)
            f_e, p_e, o_e, code = f_e[keep], p_e[keep], o_e[keep], code[keep]
            parts.append((f_e, p_e, o_e, _timed(geo, code, f_e, p_e, bw, lat, congestion), geo, code))
    parts = [x[:6] for x in parts if x[0].size]
    if not parts:
        return None
    # every entry, ordered by fabric and point, bases in order: each (fabric, point)'s fastest, ties to the first
    which = np.concatenate([np.full(x[0].size, i) for i, x in enumerate(parts)])
    own = np.concatenate([np.arange(x[0].size) for x in parts])
    f_e, p_e, o_e = (np.concatenate([x[k] for x in parts]) for k in range(3))
    seq = np.concatenate([x[3] for x in parts])
    order = np.argsort((f_e * n_pt + p_e) * first.size + o_e, kind="stable")
    f_e, p_e, which, own, seq = f_e[order], p_e[order], which[order], own[order], seq[order]
    seg = _segments(f_e, p_e)
    seg_min, best = segment_minima(seq.reshape(-1), seg * seq.shape[1])
    sf, sp = f_e[seg], p_e[seg]
    wins = seg_min < best_time[sf, sp]
    if not wins.any():
        return None
    entry, within = np.divmod(best[wins], seq.shape[1])
    sf, sp, at_part = sf[wins], sp[wins], which[entry]
    # each part's winners' values, then one dense array per term
    found = []
    for i, x in enumerate(parts):
        mine = at_part == i
        if mine.any():
            found.append((mine, _winners(s, pt, x[4], x[5], own[entry][mine], within[mine])))
    if len(found) > 1:
        order = np.concatenate([np.flatnonzero(mine) for mine, _ in found])
        sf, sp = sf[order], sp[order]
        values = tuple({k: np.concatenate([v[j][k] for _, v in found]) for k in found[0][1][j]} for j in range(2))
    else:
        values = found[0][1]
    mask = np.zeros(best_time.shape, dtype=bool)
    mask[sf, sp] = True

    def dense(x):
        out = np.zeros(best_time.shape, dtype=x.dtype)
        out[sf, sp] = x
        return out
    return (mask, *({k: dense(x) for k, x in v.items()} for v in values))


def _worst(needy, reach, shared, at):
    """The slowest needy fabric's time found at the points ``at`` (each free option's point; any point where
    the pairs are shared): a free option whose bound exceeds it is slower than a time found on every fabric."""
    worst = np.where(needy, reach, 0.0).max(axis=0)
    return np.full(at.size, worst.max()) if shared else worst[at]


def _free_part(geo, code, seq, fb, b_pt, needy, shared, by_option):
    """The free options ``fb`` timed (``code``: each one's option in the geometry; ``seq``: the steps (rows,
    kinds · stages) of each geometry option where ``by_option``, else of each of ``fb``) as entries of every needy
    fabric at each point, each point's fastest (ties to the first base), and that fastest time per point (N,)
    (infinite where none)."""
    n_pt = needy.shape[1]
    fastest = seq.min(axis=1)
    if by_option:  # each distinct option's fastest, read at its entries
        fastest = fastest.take(code)
    if shared:
        at, pick = np.arange(n_pt), np.repeat(np.argmin(fastest), n_pt)
    else:
        seg = _segments(b_pt[fb], b_pt[fb])
        pick = segment_minima(fastest, seg)[1]
        at = b_pt[fb][seg]
    best_free = np.full(n_pt, np.inf)
    best_free[at] = fastest[pick]
    f_f, a_f = nonzero_2d(needy[:, at])
    entry = pick[a_f]
    return f_f, at[a_f], fb[entry], seq[code[entry] if by_option else entry], geo, code[entry], best_free


def _networked(rows, net_b, b_row, b_pt, needy, lat, bw, shared, reach):
    """The (fabric, point, base) entries of the networked bases ``net_b`` (options ``b_row``, into ``rows``) at
    their needy fabrics whose bound on that fabric reaches ``reach``, in that order, and their bounds.

    Pairs shared by every point: the bounds on the (fabric, point, base) grid, by broadcasting. Else a base whose
    bound on the needy fabrics' least latency and most bandwidth at its point exceeds the slowest needy fabric's
    time found there is left out before its entries are made (its bound on every fabric exceeds that fabric's
    time found: the same expression, each term no larger)."""
    r = b_row[net_b]
    lb0, n_lat, n_inv = rows["lb0"][r], rows["net_lat"][r], rows["net_inv_bw"][r]
    if shared:  # every base at every point
        lb = lb0 + n_lat * lat[..., None] + n_inv / bw[..., None]  # (F, N or 1, bases)
        keep = (lb <= reach[..., None] * (1.0 + BOUND_MARGIN)) & needy[..., None]
        idx = np.flatnonzero(keep)
        fp, o_i = np.divmod(idx, net_b.size)
        f_e, p_e = np.divmod(fp, keep.shape[1])
        lb_e = lb.reshape(-1)[idx] if lb.shape == keep.shape else lb[f_e, 0, o_i]
        return f_e, p_e, net_b[o_i], lb_e
    at = b_pt[net_b]
    with np.errstate(divide="ignore", invalid="ignore"):  # a point without a needy fabric: NaN, left out
        lb_min = (lb0 + n_lat * _at(np.where(needy, lat, np.inf).min(axis=0)[None], 0, at)
                  + n_inv / _at(np.where(needy, bw, 0.0).max(axis=0)[None], 0, at))
    net_b = net_b[lb_min <= _worst(needy, reach, shared, at) * (1.0 + BOUND_MARGIN)]
    f_e, o_e = nonzero_2d(needy[:, b_pt[net_b]])
    o_e = net_b[o_e]
    p_e = b_pt[o_e]
    r = b_row[o_e]
    lb_e = rows["lb0"][r] + rows["net_lat"][r] * _at(lat, f_e, p_e) + rows["net_inv_bw"][r] / _at(bw, f_e, p_e)
    keep = lb_e <= reach[f_e, p_e] * (1.0 + BOUND_MARGIN)
    return f_e[keep], p_e[keep], o_e[keep], lb_e[keep]


def _at(x, fab, point):
    """A fabric array (F, N or 1) at (fabric, point) entries."""
    x = np.asarray(x)
    return x[fab, 0 if x.shape[1] == 1 else point]


def _segments(a, b):
    """The first entry of each run of equal (``a``, ``b``) of entries ordered by them."""
    new = np.ones(a.size, dtype=bool)
    new[1:] = (a[1:] != a[:-1]) | (b[1:] != b[:-1])
    return np.flatnonzero(new)


def _row_options(s, pairs, pt, group, r, q):
    """Per row ``r`` of the first pass (an index array; ``q``: a pair of each, or None: ``r`` is every row): its
    degrees, its option — the most replicas whose data-parallel group stays inside a node (compute_side's
    placement) where that is fewer than its most (``valid``) — with its micro-batches per replica, and the
    option's fabric-free lower bound of the step per sequence [s] (``lb0``: the pipeline's compute and in-node
    part, the logits and the optimizer step of the cheapest ZeRO stage searched) and the terms the fabric's
    latency [s] and inverse bandwidth [s/B] add to it (its sends across nodes), and whether any fabric enters its
    step (``networked``)."""
    n_rows = r.size
    kind = pairs.kind.take(r)

    def per_row(key):  # a step term of the rows (rows,): held per row, or per kind (or once); as floats
        x = np.asarray(pairs.cs[key] if key in pairs.cs else pairs.cs_kind[key]).reshape(-1)
        if x.size == 1:
            return np.broadcast_to(x.astype(float), (n_rows,))
        return x.take(r if key in pairs.cs else kind).astype(float, copy=False)  # (gathered, then converted)

    def per_kind(key):
        x = np.asarray(pairs.plan_side[key], dtype=float).reshape(-1)
        return x.take(kind) if x.size > 1 else np.broadcast_to(x, (n_rows,))
    row_all = q is None  # every row (rows of several points), else a row per base
    if row_all:  # a pair of each row: its point's batch, node and memory bandwidth
        q = np.empty(n_rows, dtype=int)
        q[pairs.row] = np.arange(pairs.row.size)
    at = pairs.ni.take(q)
    ptc = _point_arrays(pairs, pt)

    def at_row(key):  # a point input at the rows (one value where the same at every point)
        x = np.asarray(ptc[key], dtype=float)
        return x.take(at) if x.size > 1 else np.broadcast_to(x, (n_rows,))
    crosses = per_row("crosses") > 0
    degrees, kind0 = np.divmod(pairs.candidate.take(r), group)
    batch = cut_constant_points(np.asarray(pt["global_batch"], dtype=float), 0)
    B = batch.take(at) if batch.size > 1 else batch.reshape(1)  # one batch: one value (fewer to tell apart)
    gpn = cut_constant_points(np.asarray(pt["gpus_per_node"], dtype=float), 0)
    fp8 = cut_constant_points(np.asarray(pt["fp8"]), 0)
    if B.size == 1 and gpn.size == 1:  # one batch and node size: each candidate's option once (whether or not
        # its pipeline crosses nodes), read at the rows
        cand = _candidates(s, pairs, pt)
        table = _option_terms(s, B, gpn, np.array([[False], [True]]), *(cand[i][::group] for i in (0, 1, 2, 3, 6, 7)))
        at_option = crosses * table[0].shape[1] + degrees
        d_o, m_o, divisor, slots, net_lat = (x.reshape(-1).take(at_option) for x in table)
        # the model states' bytes per parameter of the options likewise (with one FP8 choice)
        per_param = None if fp8.size > 1 else _state_bytes_per_parameter(s, pt, table[0] * cand[6][::group], fp8)
        per_param = None if per_param is None else per_param.reshape(-1).take(at_option)
    else:
        d_o, m_o, divisor, slots, net_lat = _option_terms(s, B, at_row("gpus_per_node"), crosses, *(
            pairs.plan[k].take(r) for k in ("tp", "pp", "micro_batch", "virtual_stages", "cp", "ep")))
        per_param = None
    valid = (d_o >= 1) & (d_o < pairs.replicas[0].take(r))
    params = per_kind("params_gpu")
    if not np.any(np.asarray(pt["experts"]) > 1):  # options whose states alone cannot fit are none
        if per_param is None:
            per_param = _state_bytes_per_parameter(s, pt, d_o * pairs.plan["cp"].take(r),
                                                   fp8 if fp8.size == 1 else at_row("fp8"))
        valid &= params * per_param <= at_row("memory_bytes") * USABLE_MEMORY_FRACTION * (1.0 + BOUND_MARGIN)
    fixed = (per_row("chunk_fixed") + np.where(per_row("ring_crosses") > 0, 0.0, per_row("chunk_ring_intra"))
             + 2.0 * np.where(crosses, 0.0, per_row("p2p_intra")))
    opt = optimizer_time(params / divisor, at_row("hbm_bytes_per_s"))
    with np.errstate(invalid="ignore", over="ignore"):
        lb0 = (fixed * slots + m_o * per_kind("logits") + opt) / B
        net_inv_bw = net_lat * per_row("p2p_bytes_node")
    networked = crosses | (per_row("ring_crosses") > 0) | (per_row("a2a_nodes") > 1)
    d = np.where(valid, d_o, 0.0)
    # each row's option as a number, the same for rows of the same degrees and replicas (rows of several points);
    # a row per base (its own point and degrees): its own
    option = _numbered(*_option_keys(degrees, d))[1] if row_all else np.arange(n_rows)
    return dict(degrees=degrees, kind0=kind0 // pairs.stages.size, valid=valid, d=d,
                m=np.where(valid, m_o, np.inf), lb0=np.where(valid, lb0, np.inf), net_lat=net_lat,
                net_inv_bw=net_inv_bw, networked=networked, option=option, row=r)


def _state_bytes_per_parameter(s, pt, dc, fp8):
    """A lower bound of the model states' bytes per parameter of options over ``dc`` ranks that hold the same
    weights, whatever their recompute kind and ZeRO stage: those at the most sharded stage searched without ZeRO-3's
    gathered layers (:func:`~model.memory.model_state_bytes` of one parameter, of the run's gradient bytes and
    ``fp8`` weight copies). Times an option's parameters per GPU, its states are at most those at any stage, and
    its activations only add: where that exceeds the usable memory (by more than :data:`BOUND_MARGIN`, for
    rounding), the option fits at no recompute kind and stage and is left out before its geometry. Not for routed
    experts (their states' share can be less than the others')."""
    grad = float(np.ravel(pt["grad_bytes"])[0])  # one gradient precision a run, as the layer memory reads it
    fp8_bytes = np.where(np.asarray(fp8, dtype=bool), FP8_WEIGHT_BYTES, 0.0)
    return model_state_bytes(dict(params=1.0, fp8=fp8_bytes, layer_params=0.0, grad=grad), dc, max(zero_stages(s)))


def _option_keys(degrees, d):
    """Whole-number keys of (replicas ``d``, degrees) pairs, ordered as those pairs (replicas first), and how many
    keys there can be: ``d`` holds whole numbers of replicas (0 where a row has no option). Where it does not
    (never in auto mode: a divisor of the batch, or 0), each distinct pair's number is its key."""
    whole = d.astype(np.int64)
    if whole.size and whole.min() >= 0 and np.array_equal(whole, d):
        n_degrees = int(degrees.max()) + 1
        return whole * n_degrees + degrees, (int(whole.max()) + 1) * n_degrees
    code = distinct_rows([degrees.astype(float), d], d.size)[1]
    return code, int(code.max(initial=-1)) + 1


def _numbered(keys, size):
    """The distinct values of the whole-number ``keys`` (from 0 to ``size``), numbered in increasing order: the
    first entry holding each and each entry's number, index arrays, as :func:`distinct_rows` gives them for the
    keys' order (a count over the keys rather than a sort: several times faster on a few thousand entries)."""
    seen = np.bincount(keys, minlength=size) > 0
    number = np.cumsum(seen) - 1
    code = number.take(keys)
    first = np.full(int(number[-1]) + 1 if number.size else 0, keys.size)
    np.minimum.at(first, code, np.arange(keys.size))
    return first, code


def _option_terms(s, B, gpn, crosses, t, p, b, v, c, e):
    """The options of the plans ``(t, p, b, v, c, e)`` whose pipelines do or do not cross nodes (``crosses``), at
    the global batch ``B`` on nodes of ``gpn`` GPUs: their replicas (:func:`_in_node_replicas`) and micro-batches
    per replica, what divides the parameters a GPU updates (its ``d·c`` sharding ranks where a ZeRO stage searched
    shards, else 1), the slots of their pipeline and the latency term of their sends across nodes per sequence
    [s/s] (:func:`_row_options`' ``net_lat``)."""
    d_o = _in_node_replicas(B, gpn, crosses, t, p, b, v, c, e)
    with np.errstate(divide="ignore", invalid="ignore"):
        m_o = B / (d_o * b)
    sharded = (max(zero_stages(s)) >= 1) & (d_o * c > 1)
    slots = m_o * v + p - 1.0
    with np.errstate(invalid="ignore", over="ignore"):
        net_lat = 2.0 * crosses * slots / B
    return d_o, m_o, np.where(sharded, d_o * c, 1.0), slots, net_lat


def _in_node_replicas(B, gpn, crosses, t, p, b, v, c, e):
    """The most replicas of the plans ``(t, p, b, v, c, e)`` whose data-parallel group stays inside a node of
    ``gpn`` GPUs (the pipeline's stages inside it too where it does not cross nodes) and that divide the global
    batch ``B`` as the plan's :func:`replica_rules` ask (0 where none does)."""
    per_rep, multiple = replica_rules(t, p, v, c, e)
    in_node = np.maximum(np.floor(gpn / np.where(crosses, t, t * p)), 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return multiple * largest_divisor_at_most(B, b * per_rep * multiple,
                                                  np.floor(np.floor(in_node / c) / multiple))


def _geometry(s, pairs, pt, rows, row, point, lightest=False):
    """The geometry of the options ``row`` (indices into ``rows``, :func:`_row_options`' arrays) at the points
    ``point``, each distinct one once (an option's geometry depends on its point only where the plan inputs change
    along the sweep beyond the GPUs: a cluster-size sweep's rows hold at several points, shared pairs at every
    point): a dict of rows (distinct option, recompute kind) against the ZeRO stages, and each option's distinct
    one. An option's recompute kinds lighter than its row's lightest (``kind0``) are left out: they did not fit on
    the most replicas, and memory only grows with fewer (``slot``: each option's row per kind, -1 where left out).
    ``lightest``: each option at that lightest kind only (a probe: any plan's time is a time found).
    """
    group, n_z = group_size(s), len(zero_stages(s))
    n_r = group // n_z
    # the distinct options: by their number (each row's, :func:`_row_options`)
    first, code = _numbered(rows["option"].take(row), rows["option"].size)
    o, at = row[first], (np.zeros(first.size, dtype=int) if pairs.shared else point[first])
    k0 = rows["kind0"][row]
    if first.size == row.size:
        kmin = k0[first]
    else:  # options that several rows share: from the lightest kind of any of them
        kmin = np.full(first.size, n_r)
        np.minimum.at(kmin, code, k0)
    used = (np.arange(n_r)[None, :] == kmin[:, None]) if lightest else (np.arange(n_r)[None, :] >= kmin[:, None])
    slot = np.full(used.shape, -1)
    slot[used] = np.arange(np.count_nonzero(used))

    def per_row(x):  # an option's value on each of its rows
        return np.broadcast_to(x[:, None], used.shape)[used]
    cand = _candidates(s, pairs, pt)
    ci = per_row(rows["degrees"][o] * group) + np.broadcast_to(np.arange(n_r) * n_z, used.shape)[used]
    at = per_row(at)
    d, m = (per_row(rows[k][o])[:, None] for k in ("d", "m"))
    plans = tuple(cand[i] for i in (0, 1, 2, 3, 4, 6, 7))  # t, p, b, v, rc, c, e
    ptc = _point_arrays(pairs, pt)
    if all(ptc[k].shape[0] == 1 for k in PLAN_SIDE_POINT_KEYS):
        # the first pass holds every candidate's plan side (the same model at every point): read, not recomputed
        side = {k: np.asarray(x).take(ci // n_z) if np.size(x) > 1 else np.asarray(x)
                for k, x in pairs.plan_side.items()}
    elif lightest and first.size == row.size:  # each option at its row's own kind: the plan side the first pass
        # holds for that row (its plan at its point), read, not recomputed
        at_kind = pairs.kind.take(rows["row"].take(o))
        side = {k: np.asarray(x).take(at_kind) if np.size(x) > 1 else np.asarray(x)
                for k, x in pairs.plan_side.items()}
    else:  # the layer terms read from the first pass's grid where it has one (its kinds at the same points)
        grid = pairs.memo.get(("layer side",)) if pairs.memo is not None else None
        side = plan_side_at({k: ptc[k] for k in PLAN_SIDE_POINT_KEYS}, at,
                            plans if grid is None else tuple(x[::n_z] for x in plans),
                            ci if grid is None else ci // n_z, grid=grid, spread=False)
    # an input the same at every point is one value (1, 1): the options' terms computed against it, not a copy per
    # option (the same values: elementwise)
    ptg = {k: (x.take(at) if x.shape[0] > 1 else x)[:, None] for k, x in ptc.items()}
    t, p, b, v, r, c, e = (x.take(ci)[:, None] for x in plans)
    zs = pairs.stages
    with np.errstate(divide="ignore", invalid="ignore"):
        cs = compute_side(ptg, t, p, b, v, r, zs[None, :], True, {k: np.asarray(x)[:, None] for k, x in side.items()},
                          c=c, replicas=(d, m), e=e)
        mem, fits = plan_memory(ptg, t, p, b, v, r, cs)
    n = ci.size
    geo = dict(ci=ci, d=d[:, 0], m=m[:, 0], side=side, mem=np.broadcast_to(mem, (n, zs.size)),
               fits=np.broadcast_to(fits, (n, zs.size)), overlap=np.broadcast_to(ptg["dp_overlap"], (n, 1)),
               seqs=weighted_sequences(m * d * b, t, p, c, d, ptg)[:, 0], cs={k: cs[k] for k in STEP_KEYS + CONGESTION_PLAN_KEYS}, n_r=n_r,
               slot=slot, cand=cand)
    return geo, code


def _point_arrays(pairs, pt):
    """The plan search's point arrays (:data:`PLAN_POINT_KEYS` of ``pt``), each one value (1,) where it is the same
    at every point: as the first pass holds them (kept with its pairs), else cut here."""
    kept = pairs.memo.get(("points",)) if pairs.memo is not None else None
    if kept is not None:
        return kept
    return {k: cut_constant_points(np.asarray(pt[k]), 0) for k in PLAN_POINT_KEYS}


def _candidates(s, pairs, pt):
    """:func:`plan_candidates` of the scenario at the points ``pt``: those the first pass searched (kept with its
    pairs), else listed here."""
    kept = pairs.memo.get(("candidates",)) if pairs.memo is not None else None
    return kept if kept is not None else plan_candidates(s, pt)


def _timed(geo, code, fab, point, bw, lat, congestion, n_free=0):
    """Steps per sequence [s] of (fabric, point, option) entries whose option's geometry is ``code``: (E,
    kinds · stages), infinite where a plan does not fit (or its kind was left out). ``bw`` None: options no
    fabric enters, timed without one (every network term is zero for them, on any fabric of finite bandwidth and
    latency). ``n_free``: the first entries are such options, timed so (at an infinite bandwidth, no latency and
    no slowdown: the same values) in the call that times the others (``fab``, ``point``: theirs)."""
    n_r = geo["n_r"]
    slots = geo["slot"][code].reshape(-1)
    used = slots >= 0
    every = used.all()
    rows = slots if every else slots[used]
    cs = {k: _rows(x, rows) for k, x in geo["cs"].items()}
    if bw is None:
        slow, bw_at, lat_at = 1.0, np.inf, 0.0
    else:
        if n_free:  # (fabric 0 at point 0 for them: read, then set aside)
            fab, point = (np.concatenate([np.zeros(n_free, dtype=x.dtype), x]) for x in (fab, point))
        fr, pr = np.repeat(fab, n_r), np.repeat(point, n_r)
        if not every:
            fr, pr = fr[used], pr[used]
        slow = congestion_slowdown(cs, congestion, (fr, pr), trailing=1)

        def fabric_at(x):
            x = np.asarray(x)
            return x[fr, 0 if x.shape[1] == 1 else pr][:, None]
        bw_at, lat_at = fabric_at(bw), fabric_at(lat)
        if n_free:
            free = (np.arange(code.size * n_r) < n_free * n_r)[used][:, None]
            bw_at, lat_at = np.where(free, np.inf, bw_at), np.where(free, 0.0, lat_at)
            if isinstance(slow, tuple):
                slow = tuple(np.where(free, 1.0, x) for x in slow)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        step = step_for_fabric(cs, _rows(geo["overlap"], rows), bw_at, lat_at, slow)[0]
        seq = step / geo["seqs"][rows][:, None]
    fits = geo["fits"][rows]
    seq = np.where(fits, np.broadcast_to(seq, fits.shape), np.inf)
    if not every:
        out = np.full((slots.size, fits.shape[1]), np.inf)
        out[used] = seq
        seq = out
    return seq.reshape(code.size, -1)


def _winners(s, pt, geo, code, entry, within):
    """The plans and terms of the winning entries (``entry``, ``within``: each winner's entry and (kind, stage)):
    arrays (winners,)."""
    n_z = geo["mem"].shape[1]
    ki, zi = np.divmod(within, n_z)
    g = geo["slot"][code[entry], ki]  # each winner's geometry row
    cand = geo["cand"]
    ci = geo["ci"][g]
    plan = {k: cand[i].take(ci) for k, i in _PLAN_ROWS.items()}
    plan["zero_stage"] = np.asarray(zero_stages(s), dtype=float)[zi]
    n = geo["ci"].size
    side = {k: np.ravel(x).take(g) if np.size(x) == n else np.broadcast_to(np.ravel(x)[:1], g.shape)
            for k, x in geo["side"].items()}  # (one value: a view, as the first pass's)
    side.update(replicas_d=geo["d"][g], replicas_m=geo["m"][g], memory_bytes=geo["mem"][g, zi])
    return plan, side


def _rows(x, rows):
    """``x`` (rows, Z), (rows, 1) or one value (1, 1) at the rows ``rows``."""
    x = np.asarray(x)
    if x.ndim < 2 or x.shape[0] == 1:
        return x
    return x.take(rows, axis=0)
