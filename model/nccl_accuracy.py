"""How well the NCCL-like collective model reproduces a measured nccl-tests log.

The setup a log states about its cluster (:class:`NcclSetup`) and the model's nccl-tests
figures for it (:func:`predict`); the bus bandwidth error per size and its summaries at
the sizes a fabric is judged at (≥ 64 MiB and ≥ 1 MiB, with :data:`LARGE_TOLERANCE` and
:data:`MEDIUM_TOLERANCE`), the log's own dips left out; the warnings a careful engineer
gives about a log, the one-line error summary, and the refusal of a log no fit can
calibrate a fabric from. The fit itself is :mod:`model.nccl_fit`; the acceptance table
(:mod:`model.acceptance`) and the validation (:mod:`model.validation`) judge with the same.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import catalog
from .errors import ScenarioError
from .nccl_log import NcclLog
from .nccl_model import nccl_collective
from .nccl_tuning import gpu_ll_max_bus_gb_per_s, net_overhead_us, pcie_cap_gb_per_s, per_nic_gb_per_s

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
