"""From proof of concept to contract: the bus bandwidth a fabric must reach in nccl-tests, with a tolerance.

An acceptance table states, for the chosen fabric, each collective, message size and node count, what
``all_reduce_perf`` and its siblings must print as ``busbw`` for the delivered fabric to be accepted:

``minimum = expected × (1 − tolerance)``

- **expected**: the engine's collective model (:func:`model.nccl_model.nccl_collective`, NCCL's tuner with its
  protocols and algorithms) for the fabric at each node count, its tree, round trip, loss recovery and leaf
  congestion evaluated at that count (:func:`model.network.nccl_inputs` with ``nodes``), one model call per
  collective for every size × node count. The fabric's values are the scenario's (the published profile, a
  preset's) or, calibrated, the fit of the customer's own nccl-tests log (:func:`calibrated`).
- **tolerance**: how far real runs fall below the engine's figure, measured, never guessed. Uncalibrated it is the
  largest shortfall ``1 − measured / engine`` of any real inter-node nccl-tests log the engine is validated on
  (``assets/validation/nccl``, the network logs ``fabric-whatif validate`` judges), per size band
  (:data:`SIZE_BANDS`): a healthy fabric like those passes at every size, a broken one (the validation set's
  pathology log falls 3× short) does not. Where a calibration's log ran (its collective and node count) the
  calibrated fabric's own fit error applies, at least the calibration's own tolerance
  (:data:`model.nccl_accuracy.LARGE_TOLERANCE` at ≥ 64 MiB, :data:`model.nccl_accuracy.MEDIUM_TOLERANCE` below).
  Tolerances are whole percent, rounded up.

Below 1 MiB the call's fixed latency, not the fabric's bandwidth, dominates (:data:`model.nccl_accuracy.MEDIUM_BYTES`):
such sizes belong to a latency test, not to this table, and are refused.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from .nccl_model import nccl_collective
from .nccl_tuning import ALGORITHMS, PROTOCOLS
from .errors import ScenarioError
from .nccl_accuracy import LARGE_BYTES, LARGE_TOLERANCE, MEDIUM_BYTES, MEDIUM_TOLERANCE, NcclSetup, size_label, \
    within_tolerance
from .nccl_fit import ModelFit, fabric_from_model_fit, fit_model, parse_nccl_tests
from .nccl_table import CLI_COLLECTIVES, mismatch_text, setup_mismatches

ACCEPTANCE_SIZES = 2.0 ** np.arange(20, 34)  # 1 MiB … 8 GiB, doubling (nccl-tests -b 1M -e 8G -f 2)
MAX_SIZE_BYTES = 2.0 ** 34                   # 16 GiB, the largest size nccl-tests' default sweep reaches
DEFAULT_COLLECTIVES = ("all_reduce", "all_gather")
MIN_NODES = 2  # the fabric is what is accepted: one node measures NVLink

SIZE_BANDS = ((MEDIUM_BYTES, 16 * 2**20), (16 * 2**20, LARGE_BYTES), (LARGE_BYTES, math.inf))
"""Message-size bands [B] (lower bound included) with a tolerance each: the engine's error grows as sizes shrink
towards the latency-bound ones (``fabric-whatif validate``: median 2 % at ≥ 64 MiB, larger at 1–16 MiB)."""

UNITS = "bus bandwidth in GB/s (10^9 B/s) as nccl-tests prints busbw; sizes in bytes per rank; tolerance in %"


def band_index(size_bytes) -> np.ndarray:
    """The :data:`SIZE_BANDS` index of each size [-]."""
    edges = np.array([lo for lo, _ in SIZE_BANDS[1:]])
    return np.searchsorted(edges, np.asarray(size_bytes, dtype=float), side="right")


def band_label(i: int) -> str:
    lo, hi = SIZE_BANDS[i]
    return f"from {size_label(lo)}" if not math.isfinite(hi) else f"{size_label(lo)} to under {size_label(hi)}"


@functools.lru_cache(maxsize=1)
def validation_tolerances() -> tuple[float, ...]:
    """Per :data:`SIZE_BANDS` band, the largest shortfall below the engine of any judged inter-node real log
    (``scope = network`` in the validation index), ``1 − measured / engine`` [fraction, ≥ 0]."""
    from .validation import validate_network

    worst = np.zeros(len(SIZE_BANDS))
    for row in validate_network():
        if row.scope != "network" or row.engine is None:
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            short = 1.0 - np.asarray(row.measured, dtype=float) / np.asarray(row.engine, dtype=float)
        band = band_index(row.sizes)
        ok = np.isfinite(short) & (np.asarray(row.sizes) >= MEDIUM_BYTES)
        for i in range(len(SIZE_BANDS)):
            sel = ok & (band == i)
            if sel.any():
                worst[i] = max(worst[i], float(short[sel].max()))
    return tuple(float(x) for x in worst)


def _whole_percent_up(fraction) -> np.ndarray:
    return np.ceil(np.round(np.asarray(fraction, dtype=float) * 100.0, 6)) / 100.0


@dataclass(frozen=True)
class AcceptanceTable:
    """Arrays of shape (collectives C, node counts K, sizes S); busbw in GB/s, tolerance a fraction.

    ``basis`` says per entry where its tolerance comes from: ``"validation"`` or ``"calibration"``."""
    scenario_name: str
    fabric: str
    label: str
    profile_set: str
    collectives: tuple
    nodes: np.ndarray
    ranks_per_node: int
    size_bytes: np.ndarray
    expected_busbw_GBps: np.ndarray
    tolerance: np.ndarray
    algorithm: np.ndarray     # indices into model.nccl_tuning.ALGORITHMS
    protocol: np.ndarray      # indices into model.nccl_tuning.PROTOCOLS
    basis: np.ndarray
    calibration: str | None = None  # the log the fabric was calibrated from, if any
    warnings: tuple = ()  # the calibration's
    band_tolerances: tuple = field(default_factory=tuple)  # per SIZE_BANDS band, the uncalibrated tolerance

    @property
    def min_busbw_GBps(self) -> np.ndarray:
        """What a run must reach: expected × (1 − tolerance), rounded down to 0.1 GB/s (as the table prints)."""
        return np.floor(self.expected_busbw_GBps * (1.0 - self.tolerance) * 10.0 + 1e-9) / 10.0

    def rows(self) -> list[dict]:
        """One dict per (collective, node count, size), in that order: the table as a CSV lists it."""
        c, k, s = np.meshgrid(np.arange(len(self.collectives)), np.arange(self.nodes.size),
                              np.arange(self.size_bytes.size), indexing="ij")
        low = self.min_busbw_GBps
        return [{"collective": self.collectives[i], "nodes": int(self.nodes[j]),
                 "ranks": int(self.nodes[j]) * self.ranks_per_node, "size_bytes": int(self.size_bytes[m]),
                 "size": size_label(self.size_bytes[m]),
                 "expected_busbw_GBps": round(float(self.expected_busbw_GBps[i, j, m]), 1),
                 "tolerance_pct": int(round(float(self.tolerance[i, j, m]) * 100)),
                 "min_busbw_GBps": round(float(low[i, j, m]), 1),
                 "algorithm": ALGORITHMS[int(self.algorithm[i, j, m])],
                 "protocol": PROTOCOLS[int(self.protocol[i, j, m])], "basis": str(self.basis[i, j, m])}
                for i, j, m in zip(c.ravel(), k.ravel(), s.ravel())]


@dataclass(frozen=True)
class Calibration:
    """A fabric's calibration: the fit of the customer's log, where the log came from (a file name), and what a
    careful engineer says before trusting it (the fit's warnings, a log the fabric does not describe, a fit that
    misses its own log)."""
    fit: ModelFit
    source: str
    warnings: tuple = ()


def default_nodes(scenario) -> tuple[int, ...]:
    """The node counts a table covers by default: a pair (the first test of a proof of concept), 8 nodes and the
    whole cluster, those not above the cluster's size."""
    n = int(scenario.cluster.nodes)
    return tuple(sorted({k for k in (2, 8) if k <= n} | {max(n, MIN_NODES)}))


def check_request(scenario, fabric: str, collectives, sizes, nodes) -> tuple:
    """The request's collectives (model names), sizes and node counts as arrays, or a :class:`ScenarioError`
    naming the option as a user gives it."""
    from .fields import field_meta
    from .sections import Cluster

    if fabric not in scenario.fabric.fabrics:
        raise ScenarioError("fabric", fabric, "one of the scenario's fabrics: " + ", ".join(scenario.fabric.fabrics))
    if not collectives:
        raise ScenarioError("collectives", "none", "at least one of " + ", ".join(CLI_COLLECTIVES))
    kinds = []
    for c in collectives:
        if c not in CLI_COLLECTIVES:
            raise ScenarioError("collectives", c, "one of " + ", ".join(CLI_COLLECTIVES))
        kinds.append(c)
    if len(set(kinds)) != len(kinds):
        raise ScenarioError("collectives", ",".join(collectives), "each collective once")
    s = np.asarray(sizes, dtype=float).reshape(-1)
    if s.size == 0 or not np.all(np.isfinite(s)):
        raise ScenarioError("sizes", list(sizes), "message sizes from 1 MiB to 16 GiB")
    bad = s[(s < MEDIUM_BYTES) | (s > MAX_SIZE_BYTES)]
    if bad.size:
        raise ScenarioError("sizes", size_label(bad[0]), "message sizes from 1 MiB to 16 GiB (below 1 MiB the "
                                                         "call's latency, not the fabric's bandwidth, dominates)")
    hi = field_meta(Cluster, "nodes")["hi"]
    k = np.asarray(nodes, dtype=float).reshape(-1)
    if k.size == 0 or np.any((k < MIN_NODES) | (k > hi) | (k != np.round(k))):
        wrong = next((int(x) if x == round(x) else float(x) for x in k
                      if not (MIN_NODES <= x <= hi and x == round(x))), "none")
        raise ScenarioError("nodes", wrong, f"whole numbers from {MIN_NODES} to {hi} (one node measures NVLink, "
                                            "not the fabric)")
    return tuple(kinds), np.unique(s), np.unique(k).astype(int)


def acceptance_table(scenario, fabric: str | None = None, collectives=DEFAULT_COLLECTIVES, sizes=ACCEPTANCE_SIZES,
                     nodes=None, calibration: Calibration | None = None) -> AcceptanceTable:
    """The acceptance table of ``fabric`` (default: the scenario's fabric in focus, the chosen one).

    ``collectives``: keys of :data:`model.nccl_table.CLI_COLLECTIVES`; ``sizes`` [B] from 1 MiB to 16 GiB;
    ``nodes``: node counts ≥ 2 (default :func:`default_nodes`); ``calibration``: the fit the fabric's values come
    from (:func:`calibrated`), whose own error sets the tolerance where its log ran.
    """
    from .network import nccl_inputs

    fabric = fabric or scenario.fabric.focus_fabric
    kinds, S, K = check_request(scenario, fabric, collectives, sizes,
                                default_nodes(scenario) if nodes is None else nodes)
    per_fabric = ("nic_gb_per_s", "nics_per_node", "net_latency_us", "sharp", "simple_hop_us", "ll128_hop_us",
                  "ll_hop_us", "fill_bytes", "ll128_efficiency", "tree_efficiency")
    shared = ("intra_busbw_gb_per_s", "intra_p2p_gb_per_s", "nvls_busbw_gb_per_s", "architecture", "net_overhead_us")
    expected, algo, proto = [], [], []
    label = ranks_per_node = None
    for kind in kinds:  # one model call per collective covers every node count × size
        x = nccl_inputs(scenario, CLI_COLLECTIVES[kind], nodes=K)
        i = x["names"].index(fabric)
        label, ranks_per_node = x["labels"][i], int(x["ranks_per_node"])
        args = {k: np.asarray(x[k][i])[:, None] for k in per_fabric}
        args.update({k: x[k] for k in shared})
        r = nccl_collective(CLI_COLLECTIVES[kind], S[None, :], ranks_per_node=x["ranks_per_node"],
                            nodes=x["nodes"][:, None], ll_max_gb_per_s=x["ll_max_gb_per_s"][:, None], **args)
        expected.append(r["busbw_gb_per_s"])
        algo.append(r["algorithm"])
        proto.append(r["protocol"])
    band = band_index(S)
    bands = validation_tolerances()
    shape = (len(kinds), K.size, S.size)
    tol = np.broadcast_to(np.asarray(bands)[band], shape).copy()
    basis = np.full(shape, "validation", dtype=object)
    source, warnings = None, ()
    if calibration is not None:
        warnings = calibration.warnings
        log, e = calibration.fit.log, calibration.fit.errors
        if log.collective in [CLI_COLLECTIVES[k] for k in kinds] and log.nodes in K:
            own = np.where(S >= LARGE_BYTES, max(_finite(e.get("large_max_clean")), LARGE_TOLERANCE),
                           max(_finite(e.get("medium_max_clean")), MEDIUM_TOLERANCE))
            c = [CLI_COLLECTIVES[k] for k in kinds].index(log.collective)
            j = int(np.flatnonzero(K == log.nodes)[0])
            tol[c, j] = own
            basis[c, j] = "calibration"
        source = calibration.source
    return AcceptanceTable(scenario.name, fabric, label, scenario.fabric.profile_set, kinds, K, ranks_per_node, S,
                           np.stack(expected), _whole_percent_up(tol), np.stack(algo), np.stack(proto), basis,
                           source, warnings, tuple(float(t) for t in _whole_percent_up(bands)))


def _finite(x) -> float:
    return float(x) if x is not None and math.isfinite(x) else 0.0


def calibrated(scenario, fabric: str, log_text: str, *, source: str = "nccl-tests log", nodes: int | None = None,
               ranks: int | None = None):
    """The scenario with ``fabric`` calibrated from a customer's nccl-tests log, and the fit: the fabric's line rate,
    NICs per node, transport, latency and loss are the scenario's (the fit keeps them as the calibrate command
    does), its achievable fraction and NCCL's step costs the log's. Returns ``(scenario, Calibration)``."""
    from . import resolve_fabrics
    from .nccl_fit import apply_to_scenario

    if fabric not in scenario.fabric.fabrics:
        raise ScenarioError("fabric", fabric, "one of the scenario's fabrics: " + ", ".join(scenario.fabric.fabrics))
    row = next(r for r in resolve_fabrics(scenario) if r.name == fabric)
    nics = row.values.get("nics_per_node", 1)
    nics = scenario.cluster.gpus_per_node if not isinstance(nics, (int, float)) else int(nics)
    log = parse_nccl_tests(log_text, source=source, ranks=ranks, nodes=nodes)
    setup = NcclSetup(scenario.cluster.gpu, float(row.values["link_gbps"]), nics, row.transport, log.algorithm or "auto",
                      latency_us=float(row.values["latency_us"]), loss_rate=float(row.values["loss_rate"]))
    fit = fit_model(log, setup)
    values = fabric_from_model_fit(fit)
    values["label"] = row.label
    warnings = list(fit.warnings) + [mismatch_text(m, row.label) for m in setup_mismatches(scenario, fabric, log)]
    if not within_tolerance(fit.errors):
        warnings.append("where the log ran, the tolerance is the fit's own error; check the fabric's line rate "
                        "and NICs per node against the run's")
    return apply_to_scenario(scenario, fabric, values), Calibration(fit, source, tuple(warnings))


def csv_text(table: AcceptanceTable, engine_version: str) -> str:
    """The table as CSV: a header block of ``#`` lines (scenario, fabric, profile set, units, engine version,
    the tolerance's basis), then one row per collective × node count × size, numbers rounded to 0.1 GB/s."""
    import csv
    import io

    out = io.StringIO()
    bands = ", ".join(f"{band_label(i)} {t * 100:.0f} %" for i, t in enumerate(table.band_tolerances))
    head = [f"scenario: {table.scenario_name}", f"fabric: {table.label} ({table.fabric})",
            f"profile set: {table.profile_set}", f"units: {UNITS}", f"engine: fabric-whatif {engine_version}",
            "minimum = expected x (1 - tolerance); a run passes where nccl-tests busbw >= minimum",
            f"tolerance (validation): the largest shortfall of real inter-node nccl-tests logs below the engine, "
            f"per size band: {bands}"]
    if table.calibration:
        head.append(f"calibrated from: {table.calibration}; where that log ran the fit's own error applies "
                    f"(at least {LARGE_TOLERANCE * 100:.0f} % at >= 64 MiB, {MEDIUM_TOLERANCE * 100:.0f} % below)")
    head += [f"warning: {w}" for w in table.warnings]
    for line in head:
        out.write("# " + " ".join(line.split()) + "\n")  # one line each, whatever a name holds
    rows = table.rows()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(list(rows[0]))
    for r in rows:
        w.writerow(r.values())
    return out.getvalue()


__all__ = ["ACCEPTANCE_SIZES", "DEFAULT_COLLECTIVES", "SIZE_BANDS", "UNITS", "AcceptanceTable", "Calibration", "acceptance_table",
           "band_index", "band_label", "calibrated", "check_request", "csv_text", "default_nodes",
           "validation_tolerances"]
