"""Calibrate a fabric from the user's own nccl-tests output.

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
import re
from dataclasses import dataclass

import numpy as np

from .collectives import NCCL_BASE_US, NCCL_NET_STEP_SW_US, bus_factor, ring_steps, tree_steps
from .errors import ScenarioError

COLLECTIVES = {
    "all_reduce": "all_reduce", "allreduce": "all_reduce",
    "all_gather": "all_gather", "allgather": "all_gather",
    "reduce_scatter": "reduce_scatter", "reducescatter": "reduce_scatter",
    "alltoall": "all_to_all", "all_to_all": "all_to_all",
}
_PREFIX = re.compile(r"^\s*\[\d+(?:,\d+)?\]\s?")  # mpirun --tag-output
_RANK = re.compile(r"#\s*Rank\s+(\d+).*?\bon\s+(\S+)\s+device", re.IGNORECASE)
_COLL = re.compile(r"(all_reduce|allreduce|all_gather|allgather|reduce_scatter|reducescatter|alltoall|all_to_all)"
                   r"_perf", re.IGNORECASE)


@dataclass(frozen=True)
class NcclLog:
    """The measured points of one nccl-tests run."""
    collective: str
    ranks: int
    nodes: int
    size_bytes: np.ndarray
    time_us: np.ndarray
    busbw_gb_per_s: np.ndarray


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


def parse_nccl_tests(text: str, *, source: str = "nccl-tests log", collective: str | None = None,
                     ranks: int | None = None, nodes: int | None = None) -> NcclLog:
    """Read the size/time/busbw rows of an nccl-tests run.

    ``collective``, ``ranks`` and ``nodes`` are taken from the log (the
    ``*_perf`` name, the ``# Rank … on HOST`` lines) unless given.
    """
    header = None
    rank_hosts: dict[int, str] = {}
    sizes, times, busbws = [], [], []
    found_coll = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _PREFIX.sub("", raw).rstrip()
        if not line.strip():
            continue
        m = _COLL.search(line)
        if m and found_coll is None:
            found_coll = COLLECTIVES[m.group(1).lower()]
        if line.lstrip().startswith("#"):
            rm = _RANK.search(line)
            if rm:
                rank_hosts[int(rm.group(1))] = rm.group(2)
            toks = line.lstrip("#").split()
            if "size" in toks and "time" in toks and header is None:
                header = toks
            continue
        toks = line.split()
        if not toks or not toks[0].isdigit():
            continue  # NCCL INFO lines and other chatter
        if header is None:
            raise ScenarioError(f"{source}, line {lineno}", line.strip()[:60],
                                "a data row after the nccl-tests column header (# size count type ... time algbw busbw)")
        i_time = header.index("time")
        try:
            size = int(toks[0])
            t_us = float(toks[i_time])
            busbw = float(toks[i_time + 2])
        except (ValueError, IndexError):
            raise ScenarioError(f"{source}, line {lineno}", line.strip()[:60],
                                f"a row with size, count, type, ... time, algbw, busbw ({len(header)} columns)") \
                from None
        if not (math.isfinite(t_us) and t_us > 0 and size > 0):
            raise ScenarioError(f"{source}, line {lineno}", line.strip()[:60], "a positive size and time")
        sizes.append(size)
        times.append(t_us)
        busbws.append(busbw)
    coll = collective or found_coll
    if coll is None:
        raise ScenarioError(source, "collective", "a log that names its test (e.g. all_reduce_perf), or give the "
                                                  "collective: all_reduce, all_gather, reduce_scatter, alltoall")
    if coll not in COLLECTIVES.values():
        coll = COLLECTIVES.get(coll.lower().replace("-", "_"))
        if coll is None:
            raise ScenarioError("collective", collective, "all_reduce, all_gather, reduce_scatter or alltoall")
    if len(set(sizes)) < 2:
        raise ScenarioError(source, f"{len(sizes)} data rows", "at least two message sizes (run with -b and -e "
                                                                "apart, e.g. -b 8 -e 8G -f 2)")
    n_ranks = ranks or len(rank_hosts)
    n_nodes = nodes or len(set(rank_hosts.values()))
    if not n_ranks or not n_nodes:
        raise ScenarioError(source, "ranks", "a log with its '# Rank N ... on HOST device' lines, or give ranks "
                                             "and nodes")
    return NcclLog(coll, int(n_ranks), int(n_nodes), np.array(sizes, float), np.array(times, float),
                   np.array(busbws, float))


def fit_alpha_beta(log: NcclLog) -> NcclFit:
    """Weighted least squares of ``t = α + c·S`` (weights 1/t), α ≥ 0, then busbw = factor/c."""
    S, t = log.size_bytes, log.time_us
    w = 1.0 / t
    A = np.stack([np.ones_like(S), S], axis=1) * w[:, None]
    (alpha, c), *_ = np.linalg.lstsq(A, t * w, rcond=None)
    if alpha < 0:
        alpha = 0.0
        c = float(np.sum(w * w * S * t) / np.sum(w * w * S * S))
    if c <= 0:
        raise ScenarioError("nccl-tests log", "times", "times that grow with message size")
    factor = float(bus_factor(log.collective, log.ranks))
    busbw = factor / c / 1e9 * 1e6  # c is us per byte
    pred = alpha + c * S
    rms = float(np.sqrt(np.mean(((pred - t) / t) ** 2)))
    return NcclFit(log, float(alpha), float(busbw), rms)


def fabric_from_fit(fit: NcclFit, *, link_gbps: float, nics_per_node: int, transport: str) -> dict:
    """User-fabric values from a fit of an inter-node run.

    Returns ``{"transport", "link_gbps", "nics_per_node", "achievable_fraction", "latency_us"}``.
    """
    if fit.log.nodes < 2:
        raise ScenarioError("nccl-tests log", f"{fit.log.nodes} node",
                            "a run across at least two nodes: on one node it measures NVLink/PCIe, not the fabric")
    line_gb_per_s = link_gbps * nics_per_node / 8.0
    frac = fit.busbw_gb_per_s / line_gb_per_s
    if not 0 < frac <= 1.0:
        raise ScenarioError("link_gbps × nics_per_node", f"{link_gbps} × {nics_per_node}",
                            f"a line rate above the measured bus bandwidth {fit.busbw_gb_per_s:.1f} GB/s "
                            f"({fit.busbw_gb_per_s * 8:.0f} Gb/s per node)")
    n = fit.log.nodes
    kind = fit.log.collective
    steps = float(min(ring_steps(kind, n), tree_steps(kind, n)))
    latency = max(0.0, (fit.alpha_us - NCCL_BASE_US) / steps - NCCL_NET_STEP_SW_US)
    return {"transport": transport, "link_gbps": float(link_gbps), "nics_per_node": int(nics_per_node),
            "achievable_fraction": round(float(frac), 4), "latency_us": round(float(latency), 3)}


def fabric_changes(scenario, name: str, values: dict) -> dict:
    """The dotted changes that save the calibrated fabric as ``[fabric.custom.NAME]`` (and compare it)."""
    changes = {f"fabric.custom.{name}.{k}": v for k, v in values.items()}
    if scenario.fabric.compare is not None and name not in scenario.fabric.compare:
        changes["fabric.compare"] = list(scenario.fabric.compare) + [name]
    return changes


def apply_to_scenario(scenario, name: str, values: dict):
    """The scenario with the calibrated fabric saved as ``[fabric.custom.NAME]`` (and compared)."""
    return scenario.replace_many(fabric_changes(scenario, name, values))
