"""Where a curve steps, and why: the parallel plan per sweep point, compared with its neighbour.

The engine picks the fastest parallel plan (tensor-, pipeline-, data-parallel degrees and
micro-batch, Megatron-LM's layout: Narayanan et al., "Efficient Large-Scale Language Model
Training on GPU Clusters Using Megatron-LM", SC'21) at every sweep point. Curves step
where that plan changes. Some of those changes are not physics but whole-number rules:
the data-parallel degree is the largest whole number of replicas that fits and divides the
global batch into micro-batches (the batch is the user's and never changes; GPUs left over
sit idle), and an interleaved schedule (virtual stages) needs the micro-batches per step to
be a multiple of the pipeline depth. A plan change is called a *whole-number step* here
when the previous point's plan, moved to this point, would break one of these (leave GPUs
idle, lose its interleaving), while at the previous point it did not;
or when the plan changes for one point only and changes back (a blip at a GPU count
with few divisors). The label says what the previous plan would need, so the reader can
judge; nothing here claims more than that.

Everything is vectorised over (fabric, point); no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.results import BREAKDOWN_KEYS

from model.results import keep_last

PLAN_KEYS = ("tp", "pp", "micro_batch", "virtual_stages")  # what makes a plan; dp follows the GPU count


def _plan(result) -> dict | None:
    if result is None:
        return None
    return {k: np.atleast_2d(np.asarray(getattr(result.plan, k), dtype=float)) for k in PLAN_KEYS + ("dp", "global_batch")}


def gpus_per_point(result) -> np.ndarray:
    """Total GPUs at each sweep point, shape (N,)."""
    s = result.scenario
    x = np.asarray(result.x, dtype=float)
    gpn = float(s.cluster.gpus_per_node)
    if result.field == "cluster.nodes":
        return x * gpn
    if result.field == "cluster.gpus_per_node":
        return x * float(s.cluster.nodes)
    return np.full(x.shape, float(s.cluster.nodes) * gpn)


def _fit(gpus, batch, tp, pp, mb):
    """Plan (tp, pp, mb) at ``gpus`` as the engine places it: idle GPUs, the batch it runs, micro-batches per
    step. The global batch is never changed: the replicas are the largest whole number that fits and divides
    ``batch / mb`` (:func:`model.engine.largest_divisor_at_most`); the GPUs left over idle."""
    from model.engine import largest_divisor_at_most

    with np.errstate(divide="ignore", invalid="ignore"):
        cap = np.floor(gpus / (tp * pp))
        shape = np.broadcast(cap, mb).shape
        ok = np.isfinite(np.broadcast_to(cap, shape)) & np.isfinite(np.broadcast_to(mb, shape))
        dp = np.zeros(shape)
        if np.any(ok):
            dp[ok] = largest_divisor_at_most(np.full(int(ok.sum()), float(batch)), np.broadcast_to(mb, shape)[ok],
                                             np.broadcast_to(cap, shape)[ok])
        dp = np.maximum(dp, 1.0)
        idle = gpus - dp * tp * pp
        m = batch / (dp * mb)
    return idle, m * dp * mb, m


def _clean(gpus, batch, tp, pp, mb, v):
    """Whether plan (tp, pp, mb, v) uses every GPU, the batch exactly and its interleaving at ``gpus`` [bool]."""
    idle, run, m = _fit(gpus, batch, tp, pp, mb)
    with np.errstate(divide="ignore", invalid="ignore"):
        interleave_ok = (v <= 1) | (np.floor(m / pp) == m / pp)
    return (idle == 0) & (run == batch) & interleave_ok


@keep_last
def plan_steps(result) -> dict | None:
    """Plan changes along a sweep ``result`` (the last result's are kept: every chart of a sweep asks).

    Returns ``{"changed": (F, N) bool, "whole_number": (F, N) bool}``: ``changed[f, i]`` when
    fabric ``f``'s plan at point ``i`` differs from point ``i - 1``; ``whole_number`` marks
    those a whole-number rule explains (see the module text). ``None`` when the result
    carries no plan.
    """
    plan = _plan(result)
    if plan is None:
        return None
    stack = np.stack([plan[k] for k in PLAN_KEYS])  # (4, F, N)
    F, N = stack.shape[1:]
    changed = np.zeros((F, N), dtype=bool)
    whole = np.zeros((F, N), dtype=bool)
    if N < 2:
        return dict(changed=changed, whole_number=whole)
    finite = np.isfinite(stack).all(axis=0)
    diff = (stack[:, :, 1:] != stack[:, :, :-1]).any(axis=0) & finite[:, 1:] & finite[:, :-1]
    changed[:, 1:] = diff
    gpus = gpus_per_point(result)[None, :]
    batch = float(result.scenario.workload.global_batch)
    # the previous point's plan, here and where it was chosen: both in one pass (two halves side by side)
    prev = tuple(np.concatenate([plan[k][:, :-1]] * 2, axis=1) for k in PLAN_KEYS)
    clean = _clean(np.concatenate([gpus[:, 1:], gpus[:, :-1]], axis=1), batch, *prev)
    prev_here, prev_there = clean[:, :N - 1], clean[:, N - 1:]
    whole[:, 1:] = diff & prev_there & ~prev_here
    # a blip: the plan changes at i and changes back at i + 1
    if N >= 3:
        back = (stack[:, :, 2:] == stack[:, :, :-2]).all(axis=0) & diff[:, :-1] & diff[:, 1:]
        whole[:, 1:-1] |= back
        whole[:, 2:] |= back  # ... and the step back
    return dict(changed=changed, whole_number=whole)


def idle_by_rule(result) -> np.ndarray | None:
    """(F, N) bool: the plan leaves GPUs idle at that point because the batch does not divide, not
    because it is too small. The engine keeps the global batch: the replicas are the largest whole
    number that fits the GPUs and divides the batch into micro-batches, and the GPUs left over sit
    idle, so between the node counts where the batch divides the utilisation saw-tooths. A point is
    marked when GPUs sit idle and the replicas have not yet spread the batch one micro-batch each
    (``dp × micro_batch < global batch``): more replicas would be useful, only a divisor is missing.
    Where every replica already runs a single micro-batch the batch is simply too small for the
    cluster, which is the workload, not a rounding rule. ``None`` when the result carries no plan."""
    if result is None:
        return None
    plan = result.plan
    used = np.atleast_2d(np.asarray(plan.gpus_used, dtype=float))
    dp = np.atleast_2d(np.asarray(plan.dp, dtype=float))
    mb = np.atleast_2d(np.asarray(plan.micro_batch, dtype=float))
    gpus = gpus_per_point(result)[None, :]
    batch = float(result.scenario.workload.global_batch)
    with np.errstate(invalid="ignore"):
        return np.isfinite(used) & (gpus - used > 0.5) & (dp * mb < batch)


@dataclass(frozen=True)
class PlanAt:
    """One fabric's parallel plan at one sweep point, as whole numbers."""
    tp: int  # tensor-parallel degree
    pp: int  # pipeline stages
    micro_batch: int  # sequences a micro-batch
    virtual_stages: int  # interleaved chunks a stage (1: none)
    dp: int  # data-parallel replicas


@dataclass(frozen=True)
class PlanFit:
    """What a plan would need at a sweep point (:func:`plan_fit`)."""
    idle: int  # GPUs left idle
    batch: int  # the global batch it would run [sequences]
    asked: int  # the global batch asked for [sequences]
    interleave_ok: bool  # its interleaving (virtual stages > 1) would still work


def plan_at(result, f: int, i: int) -> PlanAt | None:
    """Fabric ``f``'s plan at sweep point ``i`` as whole numbers (``None`` where no plan fits)."""
    plan = _plan(result)
    if plan is None:
        return None
    out = {}
    for k in PLAN_KEYS + ("dp",):
        v = plan[k][min(f, plan[k].shape[0] - 1), i]
        if not np.isfinite(v):
            return None
        out[k] = int(v)
    return PlanAt(**out)


def plan_fit(result, i: int, plan: PlanAt) -> PlanFit:
    """What ``plan`` would need at point ``i``: ``idle`` GPUs, the ``batch`` it would run (the batch
    asked for is ``asked``), and whether its interleaving (``virtual_stages`` > 1) would still work."""
    gpus = float(gpus_per_point(result)[i])
    batch = float(result.scenario.workload.global_batch)
    idle, run, m = _fit(gpus, batch, plan.tp, plan.pp, plan.micro_batch)
    return PlanFit(idle=int(idle), batch=int(run), asked=int(batch),
                   interleave_ok=bool(plan.virtual_stages <= 1 or m % plan.pp == 0))


def largest_change(result, f: int, i: int) -> tuple[str, float] | None:
    """The step-time part that changed most from point ``i - 1`` to ``i`` (key, change in seconds)."""
    if i < 1:
        return None
    best = None
    for k in BREAKDOWN_KEYS:
        arr = getattr(result.breakdown, k)
        a = np.atleast_2d(np.asarray(arr, dtype=float))
        row = a[min(f, a.shape[0] - 1)]
        if row.shape[0] <= i:
            continue
        d = float(row[i] - row[i - 1])
        if np.isfinite(d) and (best is None or abs(d) > abs(best[1])):
            best = (k, d)
    return best


__all__ = ["PLAN_KEYS", "PlanAt", "PlanFit", "gpus_per_point", "idle_by_rule", "largest_change", "plan_at", "plan_fit", "plan_steps"]
