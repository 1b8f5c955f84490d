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
The calibrate command and dialog save it as a fabric. :func:`scenario_table` is what
``fabric-whatif nccl`` prints.

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

from . import catalog, nccl_log
from .collectives import bus_factor
from .nccl_model import nccl_collective
from .nccl_tuning import SIMPLE_FILL_BYTES, TREE_EFF, gpu_ll_max_bus_gb_per_s, net_overhead_us, pcie_cap_gb_per_s, \
    per_nic_gb_per_s
from .errors import ScenarioError
from .nccl_log import COLLECTIVES, NcclLog  # noqa: F401  (COLLECTIVES: public, the GUI lists it)
from .fields import field_meta
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

LARGE_BYTES = 64 * 2**20   # "large message": bandwidth-bound on every fabric here
MEDIUM_BYTES = 2**20       # from 1 MiB the protocol crossover is behind the tuner
LARGE_TOLERANCE = 0.05     # a calibrated fabric reproduces its own log within these
MEDIUM_TOLERANCE = 0.15
PATHOLOGY_FRACTION = 0.30  # busbw under 30 % of line rate: a broken or misconfigured run
# doubling the size from 1 MiB adds under 10 % to the time: a fixed floor dominates (latency-bound sizes are below
# 1 MiB on every fabric the engine models: NCCL's tuner already moves most of a 2 MiB all-reduce at these rates)
FLOOR_GROWTH = 1.10


@dataclass(frozen=True)
class NcclSetup:
    """What a log's source states about its cluster (the inputs the collective model needs).

    ``latency_us`` and ``loss_rate`` are the fabric's own one-way latency per network hop and packet loss: inputs
    of the fit, kept by the calibrated fabric (NaN latency: the transport's published figure,
    :func:`published_latency_us`)."""
    gpu: str
    link_gbps: float
    nics_per_node: int
    transport: str = "infiniband"
    algorithm: str = "auto"  # "ring" when the run forced NCCL_ALGO=Ring
    sharp: bool = False
    latency_us: float = float("nan")
    loss_rate: float = 0.0

    def gpu_entry(self) -> dict:
        return catalog.gpu(self.gpu)

    @property
    def line_gb_per_s(self) -> float:
        """Node line rate [GB/s]."""
        return self.link_gbps * self.nics_per_node / 8.0

    @property
    def fabric_latency_us(self) -> float:
        """The fabric's one-way latency per hop the fit keeps [µs]: the stated one, else the published one."""
        return float(self.latency_us) if math.isfinite(self.latency_us) else published_latency_us(self.transport)


def published_latency_us(transport: str) -> float:
    """One-way latency per network hop of a transport in the published profile set [µs] (its sources are in
    ``assets/profiles``)."""
    return float(catalog.transport_profile("published", transport)["latency_us"])


def published_loss_rate(transport: str) -> float:
    """Packet loss of a transport in the published profile set [-]."""
    return float(catalog.transport_profile("published", transport)["loss_rate"])


def predict(setup: NcclSetup, kind: str, size_bytes, *, ranks_per_node, nodes, achievable_fraction, latency_us,
            simple_hop_us=None, ll128_hop_us=None, ll_hop_us=None, fill_bytes=np.nan, ll128_efficiency=np.nan,
            tree_efficiency=np.nan):
    """nccl-tests figures of the collective model for a setup (parameters broadcast: a whole grid at once)."""
    g = setup.gpu_entry()
    nic = per_nic_gb_per_s(setup.link_gbps, achievable_fraction, pcie_gb_per_s=pcie_cap_gb_per_s(g.get("pcie_gen", 5)),
                           rtt_us=2.0 * np.asarray(latency_us, dtype=float))
    return nccl_collective(kind, size_bytes, ranks_per_node=ranks_per_node, nodes=nodes, nic_gb_per_s=nic,
                           nics_per_node=setup.nics_per_node,
                           intra_busbw_gb_per_s=g["intra_gb_per_s"] * g["intra_busbw_fraction"],
                           intra_p2p_gb_per_s=g["intra_gb_per_s"],
                           net_latency_us=latency_us,
                           nvls_busbw_gb_per_s=g.get("nvls_busbw_gb_per_s", 0.0) if ranks_per_node > 1 else 0.0,
                           sharp=setup.sharp, algorithm=setup.algorithm, simple_hop_us=simple_hop_us,
                           ll128_hop_us=ll128_hop_us, ll_hop_us=ll_hop_us, fill_bytes=fill_bytes,
                           ll128_efficiency=ll128_efficiency, tree_efficiency=tree_efficiency,
                           ll_max_gb_per_s=gpu_ll_max_bus_gb_per_s(g, nodes), architecture=g.get("architecture"),
                           net_overhead_us=net_overhead_us(g.get("host_cpu_vendor")))


DIP_FRACTION = 0.05  # a row this far under the best bus bandwidth of the smaller sizes is a dip in the log


def size_label(size_bytes: float) -> str:
    """A message size as nccl-tests users say it: 512 MiB, 4 GiB, 64 KiB, 8 B."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size_bytes >= scale:
            return f"{size_bytes / scale:g} {unit}"
    return f"{size_bytes:g} B"


def log_dips(log: NcclLog):
    """Rows ≥ 1 MiB whose busbw falls more than :data:`DIP_FRACTION` under the best busbw of the smaller sizes:
    the log's own non-monotonicity (noise, a shared or mis-tuned run), which no model of the collective follows.

    Returns a boolean mask over the rows and the depth of the worst dip (0: a monotone log).
    """
    b = log.busbw_gb_per_s
    before = np.concatenate([[0.0], np.maximum.accumulate(b)[:-1]])
    dip = (log.size_bytes >= MEDIUM_BYTES) & (b < (1.0 - DIP_FRACTION) * before)
    depth = float(np.max(np.where(dip, 1.0 - b / np.maximum(before, 1e-30), 0.0))) if np.any(dip) else 0.0
    return dip, depth


def size_errors(log: NcclLog, busbw_pred) -> dict:
    """Relative busbw errors (model / measured − 1) per row, and their summaries at ≥ 64 MiB and ≥ 1 MiB.

    ``large_*`` / ``medium_*`` summarise every row; ``*_clean`` leave out the log's dips (:func:`log_dips`),
    which ``dip_bytes`` names with ``dip_depth`` (the worst drop, a measure of the log's own noise). A summary
    of no rows (a log without sizes ≥ 64 MiB) is NaN.
    """
    meas = log.busbw_gb_per_s
    ok = meas > 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        err = np.where(ok, np.asarray(busbw_pred, dtype=float) / np.where(ok, meas, 1.0) - 1.0, np.nan)
    ok &= np.isfinite(err)
    large = ok & (log.size_bytes >= LARGE_BYTES)
    medium = ok & (log.size_bytes >= MEDIUM_BYTES)
    dip, depth = log_dips(log)

    def stat(mask, fn):
        return float(fn(np.abs(err[mask]))) if np.any(mask) else float("nan")
    return dict(per_row=err, large_median=stat(large, np.median), large_max=stat(large, np.max),
                medium_median=stat(medium, np.median), medium_max=stat(medium, np.max),
                large_median_clean=stat(large & ~dip, np.median), medium_median_clean=stat(medium & ~dip, np.median),
                large_max_clean=stat(large & ~dip, np.max), medium_max_clean=stat(medium & ~dip, np.max),
                dip_bytes=tuple(int(x) for x in log.size_bytes[dip]), dip_depth=depth, size_bytes=log.size_bytes,
                rms=float(np.sqrt(np.mean(err[medium] ** 2))) if np.any(medium) else float("nan"))


def within_tolerance(errors: dict) -> bool:
    """A calibrated fabric reproduces its own log: ≤ 5 % at ≥ 64 MiB and ≤ 15 % at each size ≥ 1 MiB, the log's
    own dips left out (they are reported, not fitted). A log without sizes ≥ 64 MiB is judged at ≥ 1 MiB alone."""
    large = errors["large_max_clean"]
    return (errors["medium_max_clean"] <= MEDIUM_TOLERANCE
            and (not math.isfinite(large) or large <= LARGE_TOLERANCE))


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def error_summary(errors: dict) -> str:
    """The fit error in one line, as the command and the calibrate dialog report it: median and max over the same
    rows (the log's dips, named after it, left out of both)."""
    parts = []
    for label, key in (("≥ 64 MiB", "large"), ("≥ 1 MiB", "medium")):
        if math.isfinite(errors[f"{key}_max_clean"]):
            parts.append(f"at {label} median {_pct(errors[f'{key}_median_clean'])} max "
                         f"{_pct(errors[f'{key}_max_clean'])}")
        else:
            parts.append(f"no size {label} outside the dips")
    text = (f"busbw error {', '.join(parts)} (tolerance {LARGE_TOLERANCE:.0%} / {MEDIUM_TOLERANCE:.0%}: "
            + ("within" if within_tolerance(errors) else "missed") + ")")
    if errors["dip_bytes"]:
        at_dips = np.abs(errors["per_row"][np.isin(errors["size_bytes"], errors["dip_bytes"])])
        at_dips = at_dips[np.isfinite(at_dips)]
        text += (f"; the log's own dips at " + ", ".join(size_label(b) for b in errors["dip_bytes"])
                 + f" (up to {errors['dip_depth']:.0%} deep) are left out"
                 + (f": error there up to {at_dips.max() * 100:.0f}%" if at_dips.size else ""))
    return text


def log_warnings(log: NcclLog, setup: NcclSetup) -> list[str]:
    """What a careful engineer says about a log before trusting it as a fabric's capability."""
    out = []
    peak = float(np.max(log.busbw_gb_per_s))
    line = setup.line_gb_per_s
    if log.nodes < 2:
        out.append("one node: the run measures NVLink/PCIe inside the node, not the fabric")
    elif peak > line:
        out.append(f"busbw {peak:.0f} GB/s is above the NICs' line rate {line:.0f} GB/s: a {log.nodes}-node run with "
                   "NCCL's default algorithm (tree/NVLS) counts in-node traffic too; measure the fabric with "
                   "NCCL_ALGO=Ring")
    if log.nodes >= 2 and peak < PATHOLOGY_FRACTION * line:
        out.append(f"busbw {peak:.1f} GB/s is under {PATHOLOGY_FRACTION:.0%} of the NICs' line rate "
                   f"{line:.0f} GB/s: a misconfigured or broken run (GPU-NIC affinity, PCIe, QPs, routing), "
                   "not the fabric's capability")
    big = log.size_bytes >= LARGE_BYTES
    if np.sum(big) >= 3:
        b = log.busbw_gb_per_s[big]
        drops = b[1:] < 0.9 * np.maximum.accumulate(b)[:-1]
        if np.any(drops):
            out.append("busbw drops by more than 10 % between large sizes (a noisy or shared run): the fit "
                       "cannot follow every row")
    return out


def floor_note(log: NcclLog) -> str | None:
    """A note for an uncalibrated prediction when the log's time hardly grows from its first size ≥ 1 MiB to the
    next (under :data:`FLOOR_GROWTH`): a per-collective floor of that run's setup, which the engine's model of
    NCCL's default tuning does not have (calibration can fit it). ``None`` otherwise."""
    medium = np.flatnonzero(log.size_bytes >= MEDIUM_BYTES)
    if medium.size < 2 or log.size_bytes[medium[1]] < 2.0 * log.size_bytes[medium[0]]:
        return None
    t0, t1 = log.time_us[medium[0]], log.time_us[medium[1]]
    if t1 >= FLOOR_GROWTH * t0:
        return None
    return (f"the time hardly grows from {size_label(log.size_bytes[medium[0]])} to "
            f"{size_label(log.size_bytes[medium[1]])} ({t0:.0f} → {t1:.0f} µs): a per-collective floor of this "
            "run's setup (forced channels, algorithm or protocol settings), not a property of the fabric; the "
            "engine models NCCL's default tuning, not this floor")


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


def check_fittable(log: NcclLog) -> None:
    """Refuse, by name, a log no fit can calibrate a fabric from: nodes unknown, or no size above 1 MiB (below
    it every fabric is latency-bound: the bandwidth cannot show)."""
    if log.nodes < 1:
        raise ScenarioError("nccl-tests log", "nodes", "the number of nodes of the run")
    largest = float(np.max(log.size_bytes))
    if largest <= MEDIUM_BYTES:
        raise ScenarioError("nccl-tests log", f"largest size {size_label(largest)}",
                            "sizes above 1 MiB (run nccl-tests up to -e 1G or more): below that every fabric is "
                            "latency-bound and its bandwidth does not show")


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


# --------------------------------------------------------------------------
# what nccl-tests would print for a scenario's fabric
# --------------------------------------------------------------------------

NCCL_TESTS_SIZES = 2.0 ** np.arange(3, 35)  # 8 B … 16 GiB, nccl-tests -b 8 -e 16G -f 2
CLI_COLLECTIVES = {"all_reduce": "all_reduce", "all_gather": "all_gather", "reduce_scatter": "reduce_scatter",
                   "alltoall": "all_to_all", "sendrecv": "sendrecv"}
FLOAT_BYTES = 4  # nccl-tests default -d float


def scenario_table(scenario, fabric: str, collective: str, nodes: int | None = None, sizes=NCCL_TESTS_SIZES,
                   algorithm: str = "auto", gpus_per_node: int | None = None) -> dict:
    """The rows nccl-tests would print for one of the scenario's fabrics (one model call for all sizes).

    ``collective``: a key of :data:`CLI_COLLECTIVES` (or the model's name for it); ``nodes`` and
    ``gpus_per_node`` (ranks per node) override ``cluster.nodes`` and ``cluster.gpus_per_node``; ``algorithm``
    "auto" (NCCL's tuner) or one forced as with ``NCCL_ALGO``.
    Returns ``bytes``, ``count``, ``time_us``, ``algbw_GBps``, ``busbw_GBps``, ``algorithm``, ``protocol``
    and the setup (``fabric``, ``label``, ``nodes``, ``ranks``).
    """
    from .nccl_tuning import ALGORITHMS, PROTOCOLS
    from .engine import nccl_inputs

    collective = {v: k for k, v in CLI_COLLECTIVES.items()}.get(collective, collective)
    if collective not in CLI_COLLECTIVES:
        raise ScenarioError("collective", collective, ", ".join(CLI_COLLECTIVES))
    if nodes is not None:
        if nodes < 1:
            raise ScenarioError("nodes", nodes, "a whole number ≥ 1")
        scenario = scenario.replace("cluster.nodes", int(nodes))
    if gpus_per_node is not None:
        scenario = scenario.replace("cluster.gpus_per_node", int(gpus_per_node))
    names = scenario.fabric.fabrics
    if fabric not in names:
        raise ScenarioError("fabric", fabric, "one of the scenario's fabrics: " + ", ".join(names))
    x = nccl_inputs(scenario, CLI_COLLECTIVES[collective])
    i = x["names"].index(fabric)
    per_fabric = ("nic_gb_per_s", "nics_per_node", "net_latency_us", "sharp", "simple_hop_us", "ll128_hop_us",
                  "ll_hop_us", "fill_bytes", "ll128_efficiency", "tree_efficiency")
    args = {k: (x[k][i] if k in per_fabric else x[k]) for k in
            ("ranks_per_node", "nodes", "intra_busbw_gb_per_s", "intra_p2p_gb_per_s", "nvls_busbw_gb_per_s",
             "ll_max_gb_per_s", "architecture", "net_overhead_us") + per_fabric}
    S = np.asarray(sizes, dtype=float)
    try:
        r = nccl_collective(CLI_COLLECTIVES[collective], S, algorithm=algorithm, **args)
    except ScenarioError:  # an algorithm the fabric lacks, named by the model with why
        raise
    except ValueError:
        raise ScenarioError("algorithm", algorithm, f"one that runs {collective}: ring runs every collective, "
                                                    "tree/NVLS/SHARP only all_reduce") from None
    ranks = int(x["ranks_per_node"] * x["nodes"])
    count = S / FLOAT_BYTES
    return {"fabric": fabric, "label": x["labels"][i], "collective": collective, "nodes": int(x["nodes"]),
            "ranks": ranks, "bytes": S, "count": count, "time_us": r["time_us"], "algbw_GBps": r["algbw_gb_per_s"],
            "busbw_GBps": r["busbw_gb_per_s"],
            "algorithm": [ALGORITHMS[int(a)] for a in r["algorithm"]],
            "protocol": [PROTOCOLS[int(p)] for p in r["protocol"]]}


def compare_table(table: dict, log: NcclLog) -> dict:
    """Measured busbw and time beside the prediction, per predicted size (NaN where the log has no row)."""
    if CLI_COLLECTIVES[table["collective"]] != log.collective:
        raise ScenarioError("compare log", log.collective, f"a log of {table['collective']}, like the prediction")
    idx = {float(s): i for i, s in enumerate(log.size_bytes)}
    at = np.array([idx.get(float(s), -1) for s in table["bytes"]])
    have = at >= 0
    meas_bus = np.where(have, log.busbw_gb_per_s[np.maximum(at, 0)], np.nan)
    meas_t = np.where(have, log.time_us[np.maximum(at, 0)], np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        err = np.where(have & (meas_bus > 0), table["busbw_GBps"] / meas_bus - 1.0, np.nan)
    return {"measured_time_us": meas_t, "measured_busbw_GBps": meas_bus, "busbw_error": err}


# --------------------------------------------------------------------------
# a measured log beside a scenario's fabric: what the log states, what differs
# --------------------------------------------------------------------------

TRANSPORT_LABELS = {"tcp": "TCP", "roce": "RoCE", "iwarp": "iWARP", "infiniband": "InfiniBand"}


@dataclass(frozen=True)
class CompareSetup:
    """The layout and algorithm to predict a log's run with: the log's own unless the caller states them."""
    nodes: int
    gpus_per_node: int
    algorithm: str
    notes: tuple  # where each came from


def compare_setup(scenario, log: NcclLog, *, nodes: int | None = None, ranks: int | None = None,
                  algorithm: str | None = None) -> CompareSetup:
    """Nodes, ranks per node and algorithm of the prediction compared with ``log``: given ones first, then the
    log's (its hosts, its rank count, its forced ``NCCL_ALGO``), nodes from the ranks and the scenario's GPUs per
    node when the log names no hosts. A layout that cannot be (ranks not a multiple of nodes) is refused by name.
    """
    notes = []
    ranks = ranks or log.ranks
    n = nodes or log.nodes
    if not n:
        gpn = scenario.cluster.gpus_per_node
        n = max(ranks // gpn, 1) if ranks % gpn == 0 else 1 if ranks <= gpn else 0
        if not n:
            raise ScenarioError("nodes", f"unknown ({ranks} ranks)", "the nodes of the log's run (it names no hosts)")
        notes.append(f"{n} node(s): the log's {ranks} ranks over the scenario's {gpn} GPUs per node")
    elif not nodes:
        notes.append(f"{n} node(s) from the log ({log.nodes_from or 'given'})")
    if ranks % n:
        raise ScenarioError("ranks", ranks, f"a multiple of the nodes ({n}): the same number of ranks on every node")
    algo = algorithm or log.algorithm or "auto"
    if not algorithm and log.algorithm != "auto":
        notes.append(f"algorithm {log.algorithm} as the log forced it (NCCL_ALGO)")
    return CompareSetup(int(n), int(ranks // n), algo, tuple(notes))


def setup_mismatches(scenario, fabric: str, log: NcclLog) -> list[tuple[str, object, object]]:
    """What the log states about its network that the scenario's fabric does not match: ``(what, log's, fabric's)``
    with ``what`` "transport" or "nics_per_node" (transports as their ids)."""
    from . import resolve_fabrics

    row = next((r for r in resolve_fabrics(scenario) if r.name == fabric), None)
    if row is None:
        return []
    out = []
    if log.transport and log.transport != row.transport:
        out.append(("transport", log.transport, row.transport))
    nics = row.values.get("nics_per_node", 1)
    if not isinstance(nics, (int, float)):
        nics = scenario.cluster.gpus_per_node  # "per_gpu"
    if log.nics_per_node and int(nics) != log.nics_per_node:
        out.append(("nics_per_node", log.nics_per_node, int(nics)))
    return out


def mismatch_text(mismatch: tuple[str, object, object], fabric_label: str) -> str:
    """One mismatch of :func:`setup_mismatches` as a sentence (the command line's; the window translates its own)."""
    what, theirs, ours = mismatch
    if what == "transport":
        return (f"the log ran over {TRANSPORT_LABELS.get(theirs, theirs)}, the compared fabric ({fabric_label}) over "
                f"{TRANSPORT_LABELS.get(ours, ours)}: the comparison is between different fabrics")
    return (f"the log's run used {theirs} NIC(s) per node, {fabric_label} has {ours}: the comparison is between "
            "different fabrics")
