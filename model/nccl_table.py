"""What nccl-tests would print for a scenario's fabric, and a measured log beside it.

:func:`scenario_table` is what ``fabric-whatif nccl`` prints: the rows of an nccl-tests
run (``-b 8 -e 16G -f 2``) by the NCCL-like collective model, one model call for all
sizes; :func:`compare_table` puts a measured log's rows beside them. :func:`compare_setup`
takes the layout and algorithm of the comparison from the log unless given, and
:func:`setup_mismatches` names what the log states about its network that the
scenario's fabric does not match.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import ScenarioError
from .nccl_log import NcclLog
from .nccl_model import nccl_collective


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
