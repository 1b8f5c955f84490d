"""A brute-force plan search for the tests: every candidate plan timed at every point and fabric, no pruning.

Written plainly from the engine's formulas (candidates, degrees, memory, step time), so it shares none of the
plan search's shortcuts: the (recompute, ZeRO stage) choice, the pairs, the bound, the shared-pairs path. In auto
mode each plan's number of replicas is found by trying every count that divides the batch, largest first, until
the plan's degrees are possible (not from the engine's divisor table and rules); then the most replicas whose
data-parallel group stays inside a node, found the same way, are timed too, and replace that choice where they are
strictly faster (ties: the first plan shape, the lightest recompute kind, the lowest ZeRO stage). Each plan's
step carries the stragglers of the hosts it uses, as the engine reports it, before the choice.
"""

import numpy as np

from model import engine, network, plan_fit, plan_search, scale, step_time


def brute_force_plans(s, field=None, values=None):
    """The fastest plan per fabric and point: plan arrays (F, N) of ``engine.PLAN_ARRAY_KEYS`` and its replicas
    ``dp``, and its step time [s], NaN where no plan fits."""
    inp = engine.build_inputs(s) if field is None else engine.build_inputs(s, field, values)
    pt, fab = inp.point, inp.fabric
    net = network.network_state(pt, fab)
    bw = network.inter_bandwidths(pt, fab, net)[2]
    lat = network.inter_step_latency_s(net)
    cand = plan_search.plan_candidates(s)  # every candidate, none dropped
    grid = [x[None, :] for x in cand]  # (1, C) against points (N, 1)
    ptn = {k: np.asarray(x)[:, None] for k, x in pt.items()}
    round_batch = s.parallel.resolved_mode == "auto"
    with np.errstate(divide="ignore", invalid="ignore"):
        t, p, b, v, r, z, c, e = grid
        replicas = _largest_possible_replicas(ptn, t, p, b, v, c, e) if round_batch else None
        cs = step_time.compute_side(ptn, t, p, b, v, r, z, round_batch, c=c, e=e, replicas=replicas)
        _, fits = plan_fit.plan_memory(ptn, t, p, b, v, r, cs)
        ok = plan_fit.degrees_valid(ptn, t, p, b, v, cs["d"], cs["m"], c, e) & fits  # (N, C)
        congestion = {k: np.broadcast_to(x, bw.shape)[..., None] for k, x in network.congestion_inputs(net).items()}
        slow = network.congestion_slowdown(cs, congestion)
        step = step_time.step_for_fabric(cs, ptn["dp_overlap"], bw[..., None], lat[..., None], slow)[0]
        step = step * _stragglers(ptn, t, p, c, cs["d"])  # as the engine reports it: the choice weighs them too
        per_sequence = np.where(ok[None], step / (cs["m"] * cs["d"] * b), np.inf)  # (F, N, C)
    best = np.argmin(per_sequence, axis=-1)  # the first candidate that reaches the minimum
    found = np.isfinite(np.take_along_axis(per_sequence, best[..., None], axis=-1)[..., 0])
    zero = np.broadcast_to(cs["zero"], ok.shape)
    plan = {k: np.where(found, x[best], np.nan) for k, x in zip(engine.PLAN_ARRAY_KEYS, cand)}
    # the stage in effect: without data parallelism there is nothing to shard (stage 0)
    plan["zero_stage"] = np.where(found, np.take_along_axis(zero[None], best[..., None], axis=-1)[..., 0], np.nan)
    step_best = np.where(found, np.take_along_axis(step, best[..., None], axis=-1)[..., 0], np.nan)
    plan["dp"] = np.where(found, np.take_along_axis(np.broadcast_to(cs["d"], ok.shape)[None], best[..., None],
                                                    axis=-1)[..., 0], np.nan)
    if round_batch:
        _fewer_replicas(s, ptn, grid, replicas[0], bw, lat, congestion, cand, plan, step_best,
                        np.where(found, np.take_along_axis(per_sequence, best[..., None], axis=-1)[..., 0], np.inf))
    return plan, step_best


def _stragglers(ptn, t, p, c, d):
    """The stragglers' factor of each candidate's hosts (model.scale), as the engine multiplies the step by it."""
    return scale.straggler_factor(scale.plan_hosts(t, p, c, d, ptn["gpus_per_node"]), ptn["slow_host_fraction"])


def _fewer_replicas(s, ptn, grid, d_most, bw, lat, congestion, cand, plan, step_best, best_seq):
    """Every candidate on the most replicas whose data-parallel group stays inside a node (tried one count at a
    time, as on a cluster that size), where that is fewer than its most, timed; where one is strictly faster per
    sequence than ``best_seq`` (F, N), it replaces the plan and step (in place; ties to the first candidate)."""
    t, p, b, v, r, z, c, e = grid
    gpn = ptn["gpus_per_node"]
    # the node's ranks of one stage: a pipeline inside a node leaves it gpn/(t·p), else gpn/t
    inside = (p == 1) | (np.mod(gpn, t * c * p) == 0)
    in_node = np.maximum(np.floor(gpn / np.where(inside, t * p, t)), 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        d, m = _largest_possible_replicas(ptn, t, p, b, v, c, e, cap=np.floor(in_node / c))
        cs = step_time.compute_side(ptn, t, p, b, v, r, z, True, c=c, e=e, replicas=(d, m))
        fits = plan_fit.plan_memory(ptn, t, p, b, v, r, cs)[1]
        ok = (d >= 1) & (d < d_most) & plan_fit.degrees_valid(ptn, t, p, b, v, d, m, c, e) & fits
        slow = network.congestion_slowdown(cs, congestion)
        step = step_time.step_for_fabric(cs, ptn["dp_overlap"], bw[..., None], lat[..., None], slow)[0]
        step = step * _stragglers(ptn, t, p, c, d)
        seq = np.where(ok[None], step / (cs["m"] * cs["d"] * b), np.inf)
    i = np.argmin(seq, axis=-1)
    better = np.take_along_axis(seq, i[..., None], axis=-1)[..., 0] < best_seq
    for key, x in zip(engine.PLAN_ARRAY_KEYS, cand):
        plan[key][better] = x[i][better]
    for key, x in (("zero_stage", cs["zero"]), ("dp", d)):
        plan[key][better] = np.take_along_axis(np.broadcast_to(x, ok.shape)[None], i[..., None], axis=-1)[..., 0][better]
    step_best[better] = np.take_along_axis(np.broadcast_to(step, seq.shape), i[..., None], axis=-1)[..., 0][better]


def _largest_possible_replicas(pt, t, p, b, v, c, e, cap=None):
    """``(d, m)`` per point and candidate: the most whole replicas that fit in the GPUs (at most ``cap``, if
    given), divide the global batch and make the plan's degrees possible, tried one count at a time (0 and an
    infinite ``m`` where none does)."""
    shape = np.broadcast_shapes(*(np.shape(x) for x in (pt["gpus"], pt["global_batch"], t, p, b, c)))
    most = np.floor(pt["gpus"] / (t * p * c))
    cap = np.broadcast_to(most if cap is None else np.minimum(most, cap), shape)
    batch = np.broadcast_to(pt["global_batch"], shape)
    quotients = {int(q) for q in np.unique(batch / np.broadcast_to(b, shape)) if q == int(q)}
    counts = sorted({k for q in quotients for k in range(1, q + 1) if q % k == 0}, reverse=True)
    d = np.zeros(shape)
    for k in counts:
        m = batch / (k * np.broadcast_to(b, shape))
        kk = np.full(shape, float(k))
        ok = (d == 0) & (k <= cap) & (m == np.floor(m)) & plan_fit.degrees_valid(pt, t, p, b, v, kk, m, c, e)
        d = np.where(ok, kk, d)
    return d, batch / (d * np.broadcast_to(b, shape))
