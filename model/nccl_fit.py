"""Calibrate a fabric from the user's own nccl-tests output.

Two fits: the α–β line below (the command's one-line summary), and
:func:`fit_model`, which fits the NCCL-like collective model's own parameters
(achievable fraction per NIC, NCCL's step costs: the LL / LL128 / Simple per-hop
costs, i.e. the protocol crossovers, the Simple pipeline fill, the LL128 and
tree bandwidth efficiencies) and reports its error at ≥ 64 MiB and ≥ 1 MiB with
warnings (two-node default-algorithm runs, pathologies, the log's own dips).
The fabric's own one-way latency and packet loss are inputs, not fitted: they
also set its loss recovery and window, which the log cannot show, so the
calibrated fabric keeps them (the achievable fraction it saves is the one before
that loss, :func:`fabric_from_model_fit`).

The fit is bounded whatever the log's length: it runs on at most
:data:`FIT_ROWS` rows spread evenly over log size (every row is still judged),
and evaluates its grids in chunks of at most :data:`GRID_CHUNK_ELEMENTS` model
points.
The calibrate command and dialog save it as a fabric. How a fit is judged (its
errors at the sizes a fabric is judged at, the log's dips, the warnings, the refusal
of a log no fit can use) is :mod:`model.nccl_accuracy`; what ``fabric-whatif nccl``
prints, :mod:`model.nccl_table`.

``all_reduce_perf`` and its siblings print one row per message size with the
time and the algorithm and bus bandwidths (nccl-tests ``doc/PERFORMANCE.md``).
This module parses that text, fits the α–β model the engine uses,

``t(S) = α + S · factor(n) / busbw``      (factor: 2(n−1)/n for all-reduce, (n−1)/n otherwise)

by weighted least squares (weights 1/t, so small and large messages count
alike), and turns the fit into a user fabric: the achievable fraction is the
fitted bus bandwidth over the node's line rate (for an inter-node collective,
nccl-tests' busbw is the per-node network bandwidth: e.g. 86–91 GB/s on
4 × HDR, NVIDIA/nccl issue 1048), and the per-step latency follows from
``α = NCCL base + steps · (latency + NCCL software step)`` with the engine's
steps for the node count.

Every problem is a :class:`~model.errors.ScenarioError` naming the line.

References
----------
1. NVIDIA nccl-tests, ``doc/PERFORMANCE.md`` (algbw, busbw, factors).
2. R. Hockney, "The communication challenge for MPP: Intel Paragon and Meiko
   CS-2", Parallel Computing 20(3), 1994 (the α–β model).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import nccl_log
from .collectives import bus_factor
from .errors import ScenarioError
from .fields import field_meta
from .nccl_accuracy import LARGE_BYTES, LARGE_TOLERANCE, MEDIUM_BYTES, MEDIUM_TOLERANCE, NcclSetup, \
    check_fittable, log_dips, log_warnings, predict, size_errors, size_label, within_tolerance
from .nccl_log import NcclLog
from .nccl_tuning import SIMPLE_FILL_BYTES, TREE_EFF
from .sections import FabricSpec


def parse_nccl_tests(text: str, *, source: str = "nccl-tests log", collective: str | None = None,
                     ranks: int | None = None, nodes: int | None = None) -> NcclLog:
    """Read an nccl-tests run (every variant :mod:`model.nccl_log` lists); ranks and nodes must be known.

    ``collective``, ``ranks`` and ``nodes`` are taken from the log unless given.
    """
    log = nccl_log.parse_nccl_tests(text, source=source, collective=collective, ranks=ranks, nodes=nodes)
    if not log.nodes:
        raise ScenarioError(source, "nodes", "a log with its '# Rank N ... on HOST device' lines, or give ranks "
                                             "and nodes")
    return log


@dataclass(frozen=True)
class NcclFit:
    """α–β fit of a log: ``t = alpha_us + S·factor/busbw``."""
    log: NcclLog
    alpha_us: float
    busbw_gb_per_s: float
    rms_relative_error: float

    def predict_time_us(self, size_bytes):
        f = bus_factor(self.log.collective, self.log.ranks)
        return self.alpha_us + np.asarray(size_bytes, dtype=float) * f / (self.busbw_gb_per_s * 1e9) * 1e6


def fit_alpha_beta(log: NcclLog) -> NcclFit:
    """Weighted least squares of ``t = α + c·S`` (weights 1/t), α ≥ 0, then busbw = factor/c."""
    check_fittable(log)
    S, t = log.size_bytes / 2**20, log.time_us  # MiB: the normal equations stay well scaled
    w = 1.0 / t
    # weighted least squares by its 2 × 2 normal equations (a closed form: no LAPACK call to fail)
    a11, a12, a22 = np.sum(w * w), np.sum(w * w * S), np.sum(w * w * S * S)
    b1, b2 = np.sum(w * w * t), np.sum(w * w * S * t)
    det = a11 * a22 - a12 * a12
    alpha, c = ((a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det) if det > 0 else (-1.0, 0.0)
    if not alpha >= 0:
        alpha, c = 0.0, b2 / a22
    if not (math.isfinite(c) and c > 0):
        raise ScenarioError("nccl-tests log", "times", "times that grow with message size")
    factor = float(bus_factor(log.collective, log.ranks))
    busbw = factor / (c / 2**20) / 1e9 * 1e6  # c is us per MiB
    pred = alpha + c * S
    rms = float(np.sqrt(np.mean(((pred - t) / t) ** 2)))
    return NcclFit(log, float(alpha), float(busbw), rms)


def fabric_changes(scenario, name: str, values: dict) -> dict:
    """The dotted changes that save the calibrated fabric as ``[fabric.custom.NAME]`` (and compare it)."""
    changes = {f"fabric.custom.{name}.{k}": v for k, v in values.items()}
    if scenario.fabric.compare is not None and name not in scenario.fabric.compare:
        changes["fabric.compare"] = list(scenario.fabric.compare) + [name]
    return changes


def apply_to_scenario(scenario, name: str, values: dict):
    """The scenario with the calibrated fabric saved as ``[fabric.custom.NAME]`` (and compared)."""
    return scenario.replace_many(fabric_changes(scenario, name, values))


# --------------------------------------------------------------------------
# fit of the collective model (model.nccl_model.nccl_collective) itself
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class ModelFit:
    """The collective model fitted to a log: achievable fraction per NIC and NCCL's per-hop step costs of its three
    protocols (LL, LL128, Simple), which set where each overtakes the other: the protocol crossovers. The fabric's
    latency (``latency_us``) and loss (``setup.loss_rate``) are the inputs it was fitted with.

    ``achievable_fraction`` is what the run reached (the model's prediction uses it); ``fabric_fraction`` is the
    achievable fraction the calibrated fabric keeps: the same before the stated loss's recovery cost."""
    log: NcclLog
    setup: NcclSetup
    achievable_fraction: float
    latency_us: float
    simple_hop_us: float
    prediction: dict
    errors: dict
    warnings: tuple
    ll128_hop_us: float = float("nan")
    ll_hop_us: float = float("nan")
    fill_bytes: float = float("nan")
    ll128_efficiency: float = float("nan")
    tree_efficiency: float = float("nan")
    fabric_fraction: float = float("nan")

    @property
    def nic_gb_per_s(self) -> float:
        return float(self.setup.link_gbps / 8.0 * self.achievable_fraction)

    def predict(self, size_bytes) -> dict:
        return predict(self.setup, self.log.collective, size_bytes, ranks_per_node=self.log.ranks_per_node,
                       nodes=self.log.nodes, achievable_fraction=self.achievable_fraction,
                       latency_us=self.latency_us, simple_hop_us=self.simple_hop_us,
                       ll128_hop_us=self.ll128_hop_us, ll_hop_us=self.ll_hop_us, fill_bytes=self.fill_bytes,
                       ll128_efficiency=self.ll128_efficiency, tree_efficiency=self.tree_efficiency)

    @property
    def crossovers(self) -> list[tuple[int, str, str]]:
        """Sizes [B] where the fitted model's tuner changes algorithm/protocol: (size, algorithm, protocol)."""
        from .nccl_tuning import ALGORITHMS, PROTOCOLS
        S = 2.0 ** np.arange(3, 35)
        p = self.predict(S)
        out, last = [], None
        for s, a, q in zip(S, p["algorithm"], p["protocol"]):
            cur = (ALGORITHMS[int(a)], PROTOCOLS[int(q)])
            if cur != last:
                out.append((int(s),) + cur)
                last = cur
        return out


FIT_PARAMETERS = ("achievable_fraction", "latency_us", "simple_hop_us", "ll128_hop_us", "ll_hop_us", "fill_bytes",
                  "ll128_efficiency", "tree_efficiency")
# the parameters refined together: bandwidth, the Simple protocol's step cost and fill; the LL/LL128 block (the
# fabric's latency, index 1, is an input and never searched)
_FIT_BLOCKS = ((0, 2, 5), (3, 4, 6, 7))
# The fit's cost does not grow with the log: at most this many rows take part, spread evenly over log size (the
# median row of each of FIT_ROWS equal bins in log2 size; 64 bins are 1/2 octave over 8 B … 16 GiB, finer than
# any feature of the model), and each grid is evaluated in chunks of at most this many (grid point, row) pairs
# (the model holds about 30 arrays of algorithms × protocols × that many float64: ~100 MB a chunk).
FIT_ROWS = 64
GRID_CHUNK_ELEMENTS = 2**16
# the schema's own limits (model.scenario.FabricSpec) bound every fitted value
_HOP_LIMITS_US = (1e-3, 5_000.0)  # a step cost above 5 ms is no longer NCCL's: grids stay inside the schema's 1e6


def _limits(name: str) -> tuple[float, float]:
    meta = field_meta(FabricSpec, name)
    return float(meta["lo"]), float(meta["hi"])


def fit_rows(size_bytes, use) -> np.ndarray:
    """Indices of at most :data:`FIT_ROWS` of the rows ``use`` marks (sizes sorted ascending): all of them when
    there are that few, else the median row of each of ``FIT_ROWS`` equal bins in log2 size."""
    idx = np.flatnonzero(use)
    if idx.size <= FIT_ROWS:
        return idx
    ls = np.log2(size_bytes[idx])
    edges = np.linspace(ls[0], ls[-1], FIT_ROWS + 1)
    b = np.clip(np.searchsorted(edges, ls, side="right") - 1, 0, FIT_ROWS - 1)
    first = np.flatnonzero(np.r_[True, b[1:] != b[:-1]])
    counts = np.diff(np.r_[first, b.size])
    return idx[first + (counts - 1) // 2]


def fit_model(log: NcclLog, setup: NcclSetup) -> ModelFit:
    """Fit the collective model's achievable fraction per NIC and NCCL's per-hop step costs of its LL, LL128 and
    Simple protocols (with the Simple pipeline fill and the LL128 / tree efficiencies), the fabric's latency
    (``setup.fabric_latency_us``) held as stated.

    Weighted least squares on log time (weights 3 at ≥ 64 MiB, 1 at ≥ 1 MiB, 0.05 below: the sizes a fabric is
    judged at) over at most :data:`FIT_ROWS` rows (:func:`fit_rows`). Block coordinate search: each step evaluates
    one block's whole grid (the other parameters fixed) in vectorised model calls of at most
    :data:`GRID_CHUNK_ELEMENTS` points and keeps the best point; blocks alternate over shrinking grids. Every
    value stays inside the scenario schema's limits. The protocol crossovers follow from the fitted step costs
    (the tuner picks LL / LL128 / Simple per size).
    """
    check_fittable(log)
    with np.errstate(all="ignore"):
        return _fit_model(log, setup)


def _fit_model(log: NcclLog, setup: NcclSetup) -> ModelFit:
    latency = setup.fabric_latency_us
    clean = (log.time_us > 0) & ~log_dips(log)[0]
    rows = fit_rows(log.size_bytes, clean)
    S, t = log.size_bytes[rows], log.time_us[rows]
    w = np.where(S >= LARGE_BYTES, 3.0, np.where(S >= MEDIUM_BYTES, 1.0, 0.05))
    large, medium = S >= LARGE_BYTES, S >= MEDIUM_BYTES
    g = log.ranks_per_node
    log_t = np.log(t)

    def run(x, sizes=S):
        return predict(setup, log.collective, sizes, ranks_per_node=g, nodes=log.nodes, achievable_fraction=x[0],
                       latency_us=x[1], simple_hop_us=x[2], ll128_hop_us=x[3], ll_hop_us=x[4],
                       fill_bytes=x[5], ll128_efficiency=x[6], tree_efficiency=x[7])

    def search(x, block, axes, worst=False):
        grids = [G.ravel() for G in np.meshgrid(*axes, indexing="ij")]
        chunk = max(GRID_CHUNK_ELEMENTS // S.size, 1)
        best_cost, best = np.inf, None
        for lo in range(0, grids[0].size, chunk):
            trial = list(x)
            for k, G in zip(block, grids):
                trial[k] = G[lo:lo + chunk, None]
            pred = run(trial)["time_us"]
            cost = np.sum(w * (np.log(pred) - log_t) ** 2, axis=-1)
            if worst:  # the acceptance itself: the worst busbw error over its tolerance (least squares breaks ties)
                r = np.abs(t / pred - 1.0)
                worst_large = np.max(np.where(large, r, 0.0), axis=-1) / LARGE_TOLERANCE
                worst_medium = np.max(np.where(medium, r, 0.0), axis=-1) / MEDIUM_TOLERANCE
                cost = np.maximum(worst_large, worst_medium) + 1e-3 * cost
            cost = np.broadcast_to(np.where(np.isfinite(cost), cost, np.inf), (grids[0][lo:lo + chunk].size,))
            i = int(np.argmin(cost))
            if cost[i] < best_cost or best is None:
                best_cost, best = float(cost[i]), lo + i
        out = list(x)
        for k, G in zip(block, grids):
            out[k] = float(G[best])
        return out

    nan = float("nan")
    f_lo, f_hi = _limits("achievable_fraction")
    e_lo = 0.05  # an LL128 or tree efficiency under 5 %: not a protocol NCCL's tuner would pick
    hops = np.geomspace(*_HOP_LIMITS_US, 40)
    # the tree's efficiency only where the log can show it (an all-reduce the tuner may run as a tree); otherwise
    # it stays NCCL's own (NaN), so that a ring-only log does not set how the fabric's trees run
    fit_tree = log.collective == "all_reduce" and setup.algorithm in ("auto", "tree")
    blocks = _FIT_BLOCKS if fit_tree else tuple(tuple(k for k in b if k != 7) for b in _FIT_BLOCKS)
    x = [1.0, latency, 1.0, nan, nan, SIMPLE_FILL_BYTES, 0.92, TREE_EFF if fit_tree else nan]
    x = search(x, (0, 2), (np.geomspace(f_lo, f_hi, 48), hops))
    x = search(x, (3, 4), (hops, hops))
    x = search(x, (5, 6), (np.geomspace(4096.0, 64.0 * 2**20, 49), np.linspace(0.3, 1.0, 15)))
    x = search(x, (0, 2), (np.geomspace(f_lo, f_hi, 48), hops))
    if fit_tree:  # the LL128 tree's bandwidth and pipeline fill follow both efficiencies: searched together
        x = search(x, (6, 7), (np.linspace(0.3, 1.0, 15), np.linspace(0.3, 1.0, 15)))
    for worst, steps in ((False, (1.3, 1.15, 1.04, 1.01)), (True, (1.3, 1.15, 1.07, 1.03, 1.01))):
        for step in steps:
            for block in blocks:
                axes = []
                for k in block:
                    if k in (0, 6, 7):
                        ax = np.clip(np.geomspace(x[k] / step, x[k] * step, 7), f_lo if k == 0 else e_lo, f_hi)
                    else:
                        ax = np.geomspace(x[k] / step ** 3, x[k] * step ** 3, 7)
                        ax = np.clip(ax, *(_HOP_LIMITS_US if k != 5 else (1.0, 2.0**40)))
                    axes.append(ax)
                x = search(x, block, axes, worst)
    pred = run(x, log.size_bytes)  # every row judged, one model call
    errors = size_errors(log, pred["busbw_gb_per_s"])
    warnings = log_warnings(log, setup)
    if rows.size < np.count_nonzero(clean):
        warnings.append(f"{log.size_bytes.size:,} rows: the fit used {rows.size} spread evenly over the sizes "
                        "(every row is judged)")
    if errors["dip_bytes"]:
        shown = errors["dip_bytes"][:6]
        warnings.append(f"busbw dips by up to {errors['dip_depth']:.0%} at "
                        + ", ".join(size_label(b) for b in shown)
                        + (f" and {len(errors['dip_bytes']) - len(shown)} more sizes" if len(errors["dip_bytes"])
                           > len(shown) else "")
                        + " below the smaller sizes (the log's own noise): left out of the fit, the error there "
                          "is reported")
    if not within_tolerance(errors):
        warnings.append("the fitted model misses this log by up to "
                        + (f"{errors['large_max_clean']:.0%} at ≥ 64 MiB and " if math.isfinite(
                            errors["large_max_clean"]) else "")
                        + f"{errors['medium_max_clean']:.0%} at ≥ 1 MiB (tolerance {LARGE_TOLERANCE:.0%} / "
                          f"{MEDIUM_TOLERANCE:.0%})")
    f, lat, hop, hop128, hop_ll, fill, eff128, eff_tree = x
    fabric_fraction, note = _before_loss(log, setup, f)
    if note:
        warnings.append(note)
    return ModelFit(log, setup, f, lat, hop, pred, errors, tuple(warnings), ll128_hop_us=hop128, ll_hop_us=hop_ll,
                    fill_bytes=fill, ll128_efficiency=eff128, tree_efficiency=eff_tree,
                    fabric_fraction=fabric_fraction)


def _before_loss(log: NcclLog, setup: NcclSetup, fraction: float) -> tuple[float, str | None]:
    """The achievable fraction before the stated loss's recovery cost, by the engine's own per-NIC bandwidth
    (:func:`model.engine.nccl_inputs`: a fabric with the stated loss and latency delivers what the run measured),
    and a note when the loss costs something or more than the run lost."""
    if setup.loss_rate <= 0 or log.nodes < 2:
        return fraction, None
    from .engine import nccl_inputs
    from .scenario import scenario_from_dict
    from .sections import Cluster

    gpn = int(min(max(log.ranks_per_node, 1), field_meta(Cluster, "gpus_per_node")["hi"]))
    nodes = int(min(log.nodes, field_meta(Cluster, "nodes")["hi"]))
    f_lo, f_hi = _limits("achievable_fraction")

    def nic(frac, loss):
        spec = {"transport": setup.transport, "link_gbps": float(setup.link_gbps),
                "nics_per_node": int(setup.nics_per_node), "achievable_fraction": float(frac),
                "latency_us": setup.fabric_latency_us, "loss_rate": float(loss)}
        scen = scenario_from_dict({"cluster": {"gpu": setup.gpu, "nodes": nodes, "gpus_per_node": gpn},
                                   "fabric": {"profile_set": "published", "compare": ["lab"],
                                              "custom": {"lab": spec}}})
        return float(nccl_inputs(scen)["nic_gb_per_s"][0])

    frac = fraction
    for _ in range(3):  # the loss cost may depend on the rate itself: a few fixed-point steps
        kept = nic(frac, setup.loss_rate) / nic(frac, 0.0)
        if not (math.isfinite(kept) and kept > 0):
            return fraction, None
        frac = fraction / kept
        if frac >= f_hi:
            return f_hi, (f"the stated loss {setup.loss_rate:g} would cost {1 - kept:.0%} of the bandwidth at "
                          f"{log.nodes} nodes, more than this run lost: it saw less loss (achievable kept at "
                          f"{f_hi:g})")
    frac = float(np.clip(frac, f_lo, f_hi))
    if kept > 0.995:
        return frac, None  # the loss costs under 0.5 %: nothing to say
    return frac, (f"achievable {fraction:.3f} measured = {frac:.3f} before the stated loss {setup.loss_rate:g}, "
                  f"whose recovery costs {1 - kept:.0%} at {log.nodes} nodes: the fabric keeps {frac:.3f} and its "
                  "loss")


def fabric_from_model_fit(fit: ModelFit) -> dict:
    """User-fabric values from a model fit: NCCL's fitted step costs and the achievable fraction before loss, with
    the fabric's own latency and loss as stated (they also set its loss recovery and window, which the log
    cannot show). Every value is inside the scenario schema's limits."""
    from .fields import validate_value

    if fit.log.nodes < 2:
        raise ScenarioError("nccl-tests log", f"{fit.log.nodes} node",
                            "a run across at least two nodes: on one node it measures NVLink/PCIe, not the fabric")
    frac = fit.fabric_fraction if math.isfinite(fit.fabric_fraction) else fit.achievable_fraction
    values = {"transport": fit.setup.transport, "link_gbps": float(fit.setup.link_gbps),
              "nics_per_node": int(fit.setup.nics_per_node), "achievable_fraction": round(frac, 4),
              "latency_us": round(fit.latency_us, 3), "loss_rate": float(fit.setup.loss_rate),
              "nccl_simple_hop_us": round(fit.simple_hop_us, 3), "nccl_ll128_hop_us": round(fit.ll128_hop_us, 3),
              "nccl_ll_hop_us": round(fit.ll_hop_us, 3), "nccl_fill_bytes": float(round(fit.fill_bytes)),
              "nccl_ll128_efficiency": round(fit.ll128_efficiency, 4),
              "nccl_tree_efficiency": round(fit.tree_efficiency, 4)}
    values = {k: v for k, v in values.items() if not (isinstance(v, float) and np.isnan(v))}  # NaN: NCCL's own
    for key, value in values.items():
        validate_value(FabricSpec, key, value, f"calibrated {key}")
    return values
