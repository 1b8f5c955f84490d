"""Interruptions, checkpoints and the training time they cost.

A job stops when any GPU or host fails, or when the network fails it. Failures
are taken as a Poisson process whose rate has two parts:

``λ = λ_gpu·G + λ_net·N``   [1/h]

with ``λ_gpu`` per GPU-hour (the profile set's ``[reliability]`` table) and
``λ_net`` per node-hour for each fabric (the profile's fabric rows), over the
GPUs ``G`` and nodes ``N`` the job occupies: GPUs a plan leaves idle are not in
the job, and their failures do not stop it. The job checkpoints every ``τ``, a
checkpoint takes ``δ`` (state size over the storage bandwidth, by default the
bandwidth per node times the cluster's nodes: storage is built with the
cluster) and a restart ``R`` (detect and relaunch, plus reading the checkpoint
back). Daly's model then gives the expected wall-clock time of a run whose
failure-free time is ``T_s``, and the optimal ``τ``.

Checked against Llama 3 405B on 16,384 H100 (Dubey et al. 2024, §3.3.4): 419
unexpected interruptions in 54 days (a mean time between them of 3.1 h) and
"higher than 90 % effective training time"; its storage, 2 TB/s sustained for
24,576 GPUs (§3.3.1), is the default bandwidth per node.

Constants
---------
=========================  =====  ==================================================
``PER_MILLION``            1e-6   rates are stated per million GPU- or node-hours
``MIN_RATE_PER_H``         1e-15  floor that keeps the formulas finite at zero rate
=========================  =====  ==================================================

References
----------
1. J. W. Young, "A first order approximation to the optimum checkpoint
   interval", Communications of the ACM 17(9):530-531, 1974.
2. J. T. Daly, "A higher order estimate of the optimum checkpoint interval
   for restart dumps", Future Generation Computer Systems 22(3):303-312, 2006
   (the higher-order optimum and the expected wall time of the complete model).
3. A. Dubey et al., "The Llama 3 Herd of Models", 2024, §3.3.4 (interruption
   counts by cause; the published profile set's rates).
"""

from __future__ import annotations

import numpy as np

PER_MILLION = 1e-6
MIN_RATE_PER_H = 1e-15
# A run expected to take more than this many times its failure-free time never finishes in practice
# (goodput under 0.1 %: interruptions come faster than checkpoints are written). Its times are NaN, like a
# plan that does not fit, instead of overflowing to infinity; a design limit of this tool, not a published figure.
MAX_WALL_FACTOR = 1000.0


def interruption_rate_per_h(gpus, nodes, gpu_host_per_1m_gpu_hours, net_per_1m_node_hours):
    """Job interruptions per hour of the whole cluster [1/h].

    Parameters
    ----------
    gpus, nodes : array_like
        GPUs and nodes in the job [-].
    gpu_host_per_1m_gpu_hours : array_like
        GPU and host failures per million GPU-hours [1/(10⁶ GPU·h)].
    net_per_1m_node_hours : array_like
        Network-caused interruptions per million node-hours [1/(10⁶ node·h)].
    """
    return (np.asarray(gpus, dtype=float) * gpu_host_per_1m_gpu_hours
            + np.asarray(nodes, dtype=float) * net_per_1m_node_hours) * PER_MILLION


def storage_bandwidth_gb_per_s(storage_gb_per_s, per_node_gb_per_s, nodes):
    """The checkpoint storage's aggregate bandwidth [GB/s]: ``storage_gb_per_s`` where given (finite), else
    ``per_node_gb_per_s`` times the cluster's ``nodes``."""
    agg = np.asarray(storage_gb_per_s, dtype=float)
    return np.where(np.isfinite(agg), agg, np.asarray(per_node_gb_per_s, dtype=float) * nodes)


def checkpoint_time_h(params, bytes_per_param, storage_gb_per_s):
    """Time to write (or read) one checkpoint [h]: state bytes over storage bandwidth.

    Parameters
    ----------
    params : array_like
        Model parameters [-].
    bytes_per_param : array_like
        Checkpoint bytes per parameter [B] (14: bf16 weights, fp32 master and
        two Adam moments).
    storage_gb_per_s : array_like
        Aggregate storage bandwidth [GB/s].
    """
    return np.asarray(params, dtype=float) * bytes_per_param / (np.asarray(storage_gb_per_s, dtype=float) * 1e9) \
        / 3600.0


def young_interval(checkpoint, mtbf):
    """Young's optimal checkpoint interval ``τ = √(2δM)`` (same unit as the inputs).

    The first-order form of :func:`daly_interval`, good when ``δ ≪ M`` [1].

    References
    ----------
    1. J. W. Young, CACM 17(9):530, 1974.
    """
    return np.sqrt(2.0 * np.asarray(checkpoint, dtype=float) * np.asarray(mtbf, dtype=float))


def daly_interval(checkpoint, mtbf):
    """Daly's optimal checkpoint interval (same unit as the inputs) [1].

    ``τ = √(2δM)·[1 + ⅓·√(δ/2M) + (1/9)·(δ/2M)] − δ`` for ``δ < 2M``, else ``τ = M``.

    Parameters
    ----------
    checkpoint : array_like
        Time to write one checkpoint ``δ``.
    mtbf : array_like
        Mean time between interruptions ``M``, same unit.

    References
    ----------
    1. J. T. Daly, FGCS 22(3):303, 2006. His examples: M = 24 h,
       δ = 5 min → 117 min; M = 6 h → 57 min.
    """
    d = np.asarray(checkpoint, dtype=float)
    m = np.asarray(mtbf, dtype=float)
    x = d / (2.0 * m)
    tau = np.sqrt(2.0 * d * m) * (1.0 + np.sqrt(x) / 3.0 + x / 9.0) - d
    return np.where(d < 2.0 * m, tau, m)


def expected_wall_time(solve, interval, checkpoint, restart, rate):
    """Expected wall-clock time of a run with failures and checkpoints [1].

    ``T_w = e^{Rλ}·(e^{(τ+δ)λ} − 1)/(λτ) · T_s``

    Parameters
    ----------
    solve : array_like
        Failure-free compute time ``T_s`` (any time unit, the output has it).
    interval, checkpoint, restart : array_like
        ``τ``, ``δ`` and ``R`` in the same unit.
    rate : array_like
        Interruptions per that unit ``λ = 1/M``; 0 gives ``T_s·(τ+δ)/τ``.

    Where ``T_w/T_s`` exceeds :data:`MAX_WALL_FACTOR` the run never finishes and the result is NaN.

    References
    ----------
    1. J. T. Daly, FGCS 22(3):303, 2006 (exponential failures, a
       restart that can itself be interrupted).
    """
    lam = np.maximum(np.asarray(rate, dtype=float), MIN_RATE_PER_H)
    tau = np.asarray(interval, dtype=float)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        factor = np.exp(restart * lam) * np.expm1((tau + checkpoint) * lam) / (lam * tau)
    # beyond MAX_WALL_FACTOR the run never finishes: NaN (not an overflow to infinity)
    return np.where(factor <= MAX_WALL_FACTOR, factor, np.nan) * solve


def run_times(train_days, interval_h, checkpoint_h, restart_h, rate_per_h):
    """The run's failure-free hours, expected wall-clock hours and wall-clock days [h], [h], [days].

    :func:`expected_wall_time` of the failure-free time in hours; ``interval_h``, ``checkpoint_h`` and
    ``restart_h`` in hours, ``rate_per_h`` interruptions per hour.
    """
    solve_h = train_days * 24.0
    wall_h = expected_wall_time(solve_h, interval_h, checkpoint_h, restart_h, rate_per_h)
    return solve_h, wall_h, wall_h / 24.0


def outputs(pt: dict, fab: dict, out: dict, lean: bool = False, job=None) -> dict:
    """Reliability results per fabric and point: arrays that broadcast to (F, N), or (F, N, S) for Monte-Carlo samples.

    Keys: ``mtbf_h``, ``interruptions_per_day``, ``network_interruptions_per_day``,
    ``checkpoint_write_min``, ``checkpoint_interval_min`` (Daly's optimum
    unless the scenario fixes it), ``interruptions`` (expected over one run),
    ``goodput`` (failure-free time / wall time), ``hours_lost`` and
    ``train_days_with_interruptions``. ``lean`` (Monte-Carlo bands) leaves out
    ``interruptions``, ``goodput`` and ``hours_lost``. ``job``: the GPUs and nodes the plan occupies ``(gpus,
    nodes)``, arrays broadcasting to (F, N); None: every GPU of the cluster.
    """
    gpus, nodes = (pt["gpus"], pt["nodes"]) if job is None else job
    rate = interruption_rate_per_h(gpus, nodes, pt["gpu_host_interruptions_per_1m_gpu_hours"],
                                   fab["net_interruptions_per_1m_node_hours"])
    net_rate = nodes * fab["net_interruptions_per_1m_node_hours"] * PER_MILLION
    # the point's parameter count, not its copy per fabric (and Monte-Carlo sample) in ``out``: the checkpoint
    # then costs one value per point
    storage = storage_bandwidth_gb_per_s(pt["storage_gb_per_s"], pt["storage_gb_per_s_per_node"], pt["nodes"])
    delta = checkpoint_time_h(pt["params"], pt["checkpoint_bytes_per_param"], storage)
    mtbf = 1.0 / np.maximum(rate, MIN_RATE_PER_H)
    fixed = pt["checkpoint_interval_min"] / 60.0
    tau = np.where(np.isfinite(fixed), fixed, daly_interval(delta, mtbf))
    restart = pt["restart_min"] / 60.0 + delta  # relaunch, then read the checkpoint back
    res = dict(
        mtbf_h=np.where(rate > 0, mtbf, np.inf),
        interruptions_per_day=rate * 24.0,
        network_interruptions_per_day=net_rate * 24.0,
        checkpoint_write_min=np.broadcast_to(delta * 60.0, np.broadcast(delta, out["params"]).shape),
        checkpoint_interval_min=tau * 60.0,
    )
    solve_h, wall_h, wall_days = run_times(out["train_days"], tau, delta, restart, rate)
    if lean:
        res["train_days_with_interruptions"] = wall_days
        return res
    res.update(
        interruptions=wall_h * rate,
        goodput=solve_h / wall_h,
        hours_lost=wall_h - solve_h,
        train_days_with_interruptions=wall_days,
    )
    return res
