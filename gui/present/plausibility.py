"""The credibility guard: where an output stops being a forecast, and what the views say instead.

A what-if explorer produces points no engineer would believe as forecasts: a slider at 50 %
packet loss, the article's 0.75 % loss on kernel TCP, a fabric a hundred times slower than the
next. The engine still computes them (they stay in ``evaluate --json`` and in each view's
detail on demand), but every view that shows a customer a number — the point table, the charts
and their read-out, the recommendation, the proposal sheet and ``fabric-whatif evaluate`` —
shows such a fabric as "stalls — <cause>" instead, through this one module.

A fabric *stalls* at a point when any of:

- its run (with interruptions) takes longer than :data:`MAX_RUN_DAYS` — no one plans a
  training run longer than the hardware's first year;
- it takes more than :data:`MAX_TIMES_BEST` times the best compared fabric's run — the
  engine's median error against published runs is a few per cent
  (``model.validation.MEDIAN_TOLERANCE``), and no published comparison of data-centre fabrics
  on one cluster reports an order of magnitude;
- its model FLOPs utilisation is under :data:`MIN_MFU` — a GPU busy under 1 % of the time is
  waiting, not training.

The three bounds are judgement (guesses, labelled so in the app's assumptions): they mark
where the model's regime has left the measured one, not a physical limit.

The cause is read from the step-time breakdown: the part of the run (in days) by which the
stalled fabric exceeds the best one most — loss recovery (on TCP: its window and tail-loss probes),
congested or slow communication, the host CPU, the pipeline bubble, or interruptions; GPUs left idle only
where no network part grew (a plan idles GPUs on a slow network because more of them would be slower). A
fabric that
stalls on the year's bound while no part of its run exceeds the best fabric's (it is the best, or as
slow) is named by the largest part of its own run instead; where that is the compute itself, the
cluster is too small for the model and its tokens.

No Qt here (``gui.present`` is Qt-free; see :mod:`gui.present.text`).
"""

from __future__ import annotations

import weakref

import numpy as np

from gui.present.text import QT_TRANSLATE_NOOP, translate
from model.recommend import TIE_THRESHOLD

MAX_RUN_DAYS = 365.0
"""Longest run shown as a forecast [days, with interruptions] (guess: one year)."""
MAX_TIMES_BEST = 10.0
"""Largest ratio to the best compared fabric's run shown as a forecast [-] (guess)."""
MIN_MFU = 0.01
"""Lowest model FLOPs utilisation shown as a forecast [fraction] (guess: 1 %)."""

_COMM_KEYS = ("tp_comm", "cp_comm", "ep_comm", "pp_comm", "dp_comm")
# the step's parts grouped into the causes a reader knows; "interruptions" is the run's restarts
_GROUPS = {"loss_recovery": ("loss_recovery",), "communication": _COMM_KEYS, "cpu": ("cpu",),
           "bubble": ("bubble",), "compute": ("compute", "optimizer")}
# a communication part whose traffic congestion slows by at least this much is named as congestion, else by the
# traffic itself (guess: a tenth above the uncongested time is what a network engineer would call congested)
CONGESTED = 1.1
# the network result's congestion slowdown of each communication part (tensor-parallel and context-parallel
# traffic runs inside a node or on its own rail here: no congestion term)
_CONGESTION_OF = {"dp_comm": "dp_congestion_slowdown", "pp_comm": "pp_congestion_slowdown",
                  "ep_comm": "ep_congestion_slowdown"}
TCP_TRANSPORTS = ("tcp", "iwarp")  # iWARP is RDMA over TCP (RFC 5040): TCP's retransmission timer recovers a loss
CAUSE_ORDER = ("loss_recovery", "communication", "cpu", "bubble", "compute", "interruptions")

CAUSES = {
    "loss_recovery_tcp": QT_TRANSLATE_NOOP("Plausibility", "loss recovery (TCP window and tail-loss probes)"),
    "loss_recovery": QT_TRANSLATE_NOOP("Plausibility", "loss recovery (retransmitting lost packets)"),
    "communication": QT_TRANSLATE_NOOP("Plausibility", "congested, slow communication"),
    "congestion": QT_TRANSLATE_NOOP("Plausibility", "congestion (flows colliding on the switches' uplinks)"),
    "dp_comm": QT_TRANSLATE_NOOP("Plausibility", "data-parallel traffic (gradients, ZeRO gathers)"),
    "tp_comm": QT_TRANSLATE_NOOP("Plausibility", "tensor-parallel traffic"),
    "pp_comm": QT_TRANSLATE_NOOP("Plausibility", "pipeline traffic"),
    "ep_comm": QT_TRANSLATE_NOOP("Plausibility", "expert all-to-all traffic"),
    "cp_comm": QT_TRANSLATE_NOOP("Plausibility", "context-parallel ring traffic"),
    "few_nodes": QT_TRANSLATE_NOOP("Plausibility", "the plan keeps to few nodes: on this network more would be slower"),
    "cpu": QT_TRANSLATE_NOOP("Plausibility", "host CPU limit of the transport"),
    "bubble": QT_TRANSLATE_NOOP("Plausibility", "pipeline bubble"),
    "compute": QT_TRANSLATE_NOOP("Plausibility", "GPUs left idle by the plan"),
    "interruptions": QT_TRANSLATE_NOOP("Plausibility", "interruptions (failures and restarts)"),
    "too_few_gpus": QT_TRANSLATE_NOOP("Plausibility", "too few GPUs for the model and its tokens"),
}
# the same causes in two or three words, for a narrow table cell
SHORT_CAUSES = {
    "loss_recovery_tcp": QT_TRANSLATE_NOOP("Plausibility", "TCP loss recovery"),
    "loss_recovery": QT_TRANSLATE_NOOP("Plausibility", "retransmission"),
    "communication": QT_TRANSLATE_NOOP("Plausibility", "slow communication"),
    "congestion": QT_TRANSLATE_NOOP("Plausibility", "congestion"),
    "dp_comm": QT_TRANSLATE_NOOP("Plausibility", "data-parallel traffic"),
    "tp_comm": QT_TRANSLATE_NOOP("Plausibility", "tensor-parallel traffic"),
    "pp_comm": QT_TRANSLATE_NOOP("Plausibility", "pipeline traffic"),
    "ep_comm": QT_TRANSLATE_NOOP("Plausibility", "expert all-to-all"),
    "cp_comm": QT_TRANSLATE_NOOP("Plausibility", "context-parallel ring"),
    "few_nodes": QT_TRANSLATE_NOOP("Plausibility", "cannot scale out"),
    "cpu": QT_TRANSLATE_NOOP("Plausibility", "host CPU"),
    "bubble": QT_TRANSLATE_NOOP("Plausibility", "pipeline bubble"),
    "compute": QT_TRANSLATE_NOOP("Plausibility", "idle GPUs"),
    "interruptions": QT_TRANSLATE_NOOP("Plausibility", "restarts"),
    "too_few_gpus": QT_TRANSLATE_NOOP("Plausibility", "too few GPUs"),
}
STALLS = QT_TRANSLATE_NOOP("Plausibility", "stalls — {cause}")
STALLS_SHORT = QT_TRANSLATE_NOOP("Plausibility", "stalls")
NOT_FORECAST = QT_TRANSLATE_NOOP("Plausibility", "past the plausibility bound (a run over {days} days, over {times}× "
                                                 "the best fabric, or MFU under {mfu} %): not a forecast; "
                                                 "the engine's figure is {value}")
BOUND_NOTE = QT_TRANSLATE_NOOP("Plausibility", "“stalls”: the engine's figure is past the plausibility bound (a run "
                                               "over {days} days, over {times}× the best fabric, or MFU under "
                                               "{mfu} %; a guess at where forecasts end), so it is not shown as a "
                                               "forecast")

def stalled(days, mfu) -> np.ndarray:
    """Which fabrics stall: bool of ``days``' shape, fabrics on the first axis ((F,) at a point, (F, N)
    along a sweep). ``days`` is the run with interruptions [days], ``mfu`` a fraction; NaN (no plan
    fits) never stalls."""
    days = np.asarray(days, dtype=float)
    mfu = np.broadcast_to(np.asarray(mfu, dtype=float), days.shape)
    if days.size == 0:
        return np.zeros(days.shape, dtype=bool)
    with np.errstate(invalid="ignore"):
        best = np.min(np.where(np.isfinite(days), days, np.inf), axis=0) if days.ndim else days
        ok = np.isfinite(days)
        return ok & ((days > MAX_RUN_DAYS) | (days > MAX_TIMES_BEST * best) | (mfu < MIN_MFU))


def _parts_days(data) -> dict:
    """Each cause's share of the run [days], (F,) or (F, N): the step's parts scaled to the run's days,
    and the interruptions' extra days."""
    step = np.asarray(data.throughput.step_time_s, dtype=float)
    days = np.asarray(data.throughput.train_days, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_s = days / step
        out = {g: sum(np.asarray(getattr(data.breakdown, k), dtype=float) for k in keys) * per_s
               for g, keys in _GROUPS.items()}
    out["interruptions"] = np.asarray(data.reliability.train_days_with_interruptions, dtype=float) - days
    return out


_CAUSES_SEEN: list = []  # (weak reference to a result, its causes): the last few results' (each frozen)
_CAUSES_KEPT = 8


def _kept(store, result, make):
    """``make(result)`` kept for the last few results (a result is frozen: its answer never changes); ``store`` a
    list of (weak reference, answer)."""
    for ref, answer in store:
        if ref() is result:
            return answer
    answer = make(result)
    try:
        ref = weakref.ref(result)
    except TypeError:  # an object that takes no weak reference: not kept
        return answer
    store.insert(0, (ref, answer))
    del store[_CAUSES_KEPT:]
    return answer


def causes(result) -> np.ndarray:
    """Each fabric's stall cause code (:data:`CAUSES`) at each point, str array of the days' shape:
    the part of the run by which it exceeds the best fabric at that point most ('' where it does
    not stall). A result is frozen, so its causes are worked out once: every chart, the table and the
    hover read them at each redraw (kept for the last few results; a read-only array)."""
    def make(res):
        codes = _causes(res)
        codes.setflags(write=False)
        return codes
    return _kept(_CAUSES_SEEN, result, make)


def split_causes(result, parts) -> None:
    """Keep the causes of results cut from ``result`` without working them out again: ``parts`` pairs a result
    with the index that picks its points from ``result``'s causes (a slice of the sweep, or one point's column).
    Each point's causes are those of its fabrics there alone (every term compares the fabrics at that point), so
    a point cut from a sweep has that column's causes (a test checks them against its own)."""
    codes = causes(result)
    for part, at in parts:
        picked = np.array(codes[(slice(None), at)], dtype=object)
        picked.setflags(write=False)
        _kept(_CAUSES_SEEN, part, lambda res, picked=picked: picked)


# the cause codes as whole numbers while they are worked out (comparisons of ints, not of Python strings per
# point), named at the end
_CODES = tuple(CAUSES)
_CODE = {c: i for i, c in enumerate(_CODES)}
_ORDER_CODES = np.array([_CODE[c] for c in CAUSE_ORDER])
_COMM_CODES = np.array([_CODE[k] for k in _COMM_KEYS])
_CODE_NAMES = np.asarray(_CODES, dtype=object)


def _causes(result) -> np.ndarray:
    days = np.asarray(result.reliability.train_days_with_interruptions, dtype=float)
    mask = stalled(days, result.throughput.mfu)
    out = np.full(days.shape, "", dtype=object)
    if not mask.any():
        return out
    parts = _parts_days(result)
    with np.errstate(invalid="ignore"):
        best = np.nanargmin(np.where(np.isfinite(days), days, np.inf), axis=0)
    stack = np.stack([np.broadcast_to(parts[g], days.shape) for g in CAUSE_ORDER])  # (C, F, ...)
    excess = np.nan_to_num(stack - _at_best(stack, best, days), nan=-np.inf)
    names = _ORDER_CODES
    # compute grows against the best only where the plan idles GPUs; where a network part grew too, the plan
    # idles them because that part makes more GPUs slower (fewer replicas win): the network part is the cause
    network = np.where((names == _CODE["compute"]).reshape((-1,) + (1,) * days.ndim), -np.inf, excess)
    code = np.where(np.max(network, axis=0) > 0, names[np.argmax(network, axis=0)], names[np.argmax(excess, axis=0)])
    # nothing grew against the best fabric (it is the best, or as slow): the largest part of its own run, the
    # compute itself meaning a cluster too small for the run
    own = names[np.argmax(np.nan_to_num(stack, nan=-np.inf), axis=0)]
    own = np.where(own == _CODE["compute"], _CODE["too_few_gpus"], own)
    code = np.where(np.max(excess, axis=0) <= 1e-9 * np.nan_to_num(days, nan=0.0), own, code)
    # the best fabric past the bound as well, and this one within the tie threshold of it: both stall for the best's
    # reason (a cluster too small for the run), not for what little this one adds (a few more restarts)
    best_days = _at_best(days[None], best, days)[0]
    with np.errstate(invalid="ignore"):
        tied = _at_best(mask[None], best, days)[0] & (days <= best_days * (1.0 + TIE_THRESHOLD))
    code = np.where(tied, _at_best(np.broadcast_to(own, days.shape)[None], best, days)[0], code)
    tcp = np.array([row.transport in TCP_TRANSPORTS for row in result.fabric_rows]).reshape((-1,) + (1,) * (days.ndim - 1))
    code = np.where((code == _CODE["loss_recovery"]) & tcp, _CODE["loss_recovery_tcp"], code)
    code = _communication_part(result, code, best, days)
    # GPUs idle against the best fabric, and what grew besides is compute or traffic inside a node: the plan
    # keeps to few nodes because any plan across more is slower on this network (fewer replicas won)
    idle = np.asarray(result.plan.gpus_idle, dtype=float)
    inside = (code == _CODE["compute"]) | (code == _CODE["tp_comm"]) | (code == _CODE["cp_comm"])
    retreat = (idle > _at_best(idle[None], best, days)[0]) & inside
    code = np.where(retreat, _CODE["few_nodes"], code)
    out[mask] = _CODE_NAMES[np.broadcast_to(code, days.shape)[mask]]
    return out


def _at_best(stack, best, days):
    """The best fabric's values of ``stack`` (K, F, ...) at each point, (K, 1, ...): ``best`` its index (per
    point along a sweep, ``days`` (F, N))."""
    if days.ndim > 1:
        return stack[:, best, np.arange(days.shape[1])][:, None, :]
    return stack[:, int(best)][:, None]


def _communication_part(result, code, best, days):
    """``code`` with each "communication" cause named by the communication part that grew most against the best
    fabric (its own largest where it is the best): the traffic by its kind, or congestion where that traffic's
    congestion slowdown is at least :data:`CONGESTED`. A network engineer reads "congestion" as flows colliding,
    not as a slow link, so a slow link's traffic is named as traffic."""
    comm = code == _CODE["communication"]
    if not np.any(comm):
        return code
    step = np.asarray(result.throughput.step_time_s, dtype=float)
    parts = np.stack([np.broadcast_to(np.asarray(getattr(result.breakdown, k), dtype=float), step.shape)
                      for k in _COMM_KEYS])  # (K, F, ...) [s]
    excess = np.nan_to_num(parts - _at_best(parts, best, days), nan=-np.inf)
    own = np.nan_to_num(parts, nan=-np.inf)
    pick = np.where(np.max(excess, axis=0) > 0, np.argmax(excess, axis=0), np.argmax(own, axis=0))
    named = _COMM_CODES[pick]
    for key, attr in _CONGESTION_OF.items():
        slow = np.broadcast_to(np.asarray(getattr(result.network, attr), dtype=float), step.shape)
        named = np.where((named == _CODE[key]) & (np.nan_to_num(slow, nan=1.0) >= CONGESTED), _CODE["congestion"],
                         named)
    return np.where(comm, named, code)


def point_stalls(point) -> dict[str, str]:
    """``{fabric: cause code}`` for the fabrics that stall at a point result (an ``evaluate`` result)."""
    codes = np.atleast_1d(causes(point))
    return {f: str(c) for f, c in zip(point.fabrics, codes) if c}


def series_stall(result, f: int) -> str:
    """One cause for fabric ``f`` along a sweep: the one named at most of its stalled points, of two as
    common the one at the longer run ('' when it never stalls). Worked out once per result (every chart kind
    asks for every fabric at each redraw)."""
    return _kept(_SERIES_SEEN, result, lambda res: tuple(_series_stall(res, i) for i in range(
        np.atleast_2d(causes(res)).shape[0])))[f]


_SERIES_SEEN: list = []  # (weak reference to a result, each fabric's cause along it)


def _series_stall(result, f: int) -> str:
    codes = np.atleast_2d(causes(result))[f]
    if not any(codes):
        return ""
    days = np.atleast_2d(np.asarray(result.reliability.train_days_with_interruptions, dtype=float))[f]
    longest = {}  # cause: (points, longest run), in the order met along the sweep (ties go to the first)
    for c, d in zip(codes, np.where(np.isfinite(days), days, -np.inf)):
        if c:
            n, top = longest.get(c, (0, -np.inf))
            longest[c] = (n + 1, max(top, d))
    return str(max(longest, key=longest.get))


def cause_text(code: str) -> str:
    """The cause in the reader's language."""
    return translate("Plausibility", CAUSES.get(code, CAUSES["communication"]))


def short_cause(code: str) -> str:
    """The cause in two or three words, in the reader's language (a narrow cell, a chart's caption)."""
    return translate("Plausibility", SHORT_CAUSES.get(code, SHORT_CAUSES["communication"]))


def stall_text(code: str, short: bool = False) -> str:
    """"stalls — loss recovery (TCP window and tail-loss probes)" in the reader's language; ``short``: "stalls —
    TCP loss recovery" (a table cell)."""
    cause = short_cause(code) if short \
        else cause_text(code)
    return translate("Plausibility", STALLS).format(cause=cause)


def bound_note() -> str:
    """The one sentence a table prints once where it shows a "stalls" label."""
    return translate("Plausibility", BOUND_NOTE).format(days=f"{MAX_RUN_DAYS:,.0f}", times=f"{MAX_TIMES_BEST:g}",
                                                        mfu=f"{MIN_MFU * 100:g}")


def figure_note(value_text: str) -> str:
    """What a hover or tooltip adds under a "stalls" label: why, and the engine's own figure (on demand)."""
    return translate("Plausibility", NOT_FORECAST).format(days=f"{MAX_RUN_DAYS:,.0f}", times=f"{MAX_TIMES_BEST:g}",
                                                          mfu=f"{MIN_MFU * 100:g}", value=value_text)


__all__ = ["CAUSES", "CAUSE_ORDER", "SHORT_CAUSES", "MAX_RUN_DAYS", "MAX_TIMES_BEST", "MIN_MFU", "bound_note", "cause_text", "causes",
           "figure_note", "point_stalls", "series_stall", "short_cause", "stall_text", "stalled"]
