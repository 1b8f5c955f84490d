"""A brute-force plan search for the tests: every candidate plan timed at every point and fabric, no pruning.

Written plainly from the engine's formulas (candidates, degrees, memory, step time), so it shares none of the
plan search's shortcuts: the (recompute, ZeRO stage) choice, the pairs, the bound, the shared-pairs path. In auto
mode each plan's number of replicas is found by trying every count that divides the batch, largest first, until
the plan's degrees are possible (not from the engine's divisor table and rules).
"""

import numpy as np

from model import engine, network, plan_fit, plan_search, scale, step_time


def brute_force_plans(s, field=None, values=None):
    """The fastest plan per fabric and point: plan arrays (F, N) of ``engine.PLAN_ARRAY_KEYS`` and its step
    time [s], NaN where no plan fits."""
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
        per_sequence = np.where(ok[None], step / (cs["m"] * cs["d"] * b), np.inf)  # (F, N, C)
    best = np.argmin(per_sequence, axis=-1)  # the first candidate that reaches the minimum
    found = np.isfinite(np.take_along_axis(per_sequence, best[..., None], axis=-1)[..., 0])
    plan = {k: np.where(found, x[best], np.nan) for k, x in zip(engine.PLAN_ARRAY_KEYS, cand)}
    # the stage in effect: without data parallelism there is nothing to shard (stage 0)
    zero = np.broadcast_to(cs["zero"], ok.shape)
    plan["zero_stage"] = np.where(found, np.take_along_axis(zero[None], best[..., None], axis=-1)[..., 0], np.nan)
    # the step as the engine reports it: with the stragglers of the plan's hosts (model.scale), after the choice
    hosts = np.ceil(t * p * c * cs["d"] / ptn["gpus_per_node"])
    step = step * scale.straggler_factor(hosts, ptn["slow_host_fraction"])
    return plan, np.where(found, np.take_along_axis(step, best[..., None], axis=-1)[..., 0], np.nan)


def _largest_possible_replicas(pt, t, p, b, v, c, e):
    """``(d, m)`` per point and candidate: the most whole replicas that fit in the GPUs, divide the global batch
    and make the plan's degrees possible, tried one count at a time (0 and an infinite ``m`` where none does)."""
    shape = np.broadcast_shapes(*(np.shape(x) for x in (pt["gpus"], pt["global_batch"], t, p, b, c)))
    cap = np.broadcast_to(np.floor(pt["gpus"] / (t * p * c)), shape)
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
