"""Collectives by the α–β model: the times the engine's step uses.

The engine's gradient all-reduce uses these helpers with NCCL's pipelining of its
in-node and network phases (:func:`hierarchical_all_reduce_time`). What nccl-tests
would measure, NCCL's algorithms and protocols with its tuner's choice per size, is
:mod:`model.nccl_model`, with NCCL's tuning constants and a NIC's caps in
:mod:`model.nccl_tuning`.

A collective over ``n`` ranks moving ``S`` bytes per rank takes
``t = α_total + S · factor(n) / busbw`` where ``busbw`` is the bus bandwidth
nccl-tests would report and ``factor`` is its conversion from algorithm to bus
bandwidth:

=================  ================
collective         factor(n)
=================  ================
all-reduce         2(n−1)/n
reduce-scatter     (n−1)/n
all-gather         (n−1)/n
all-to-all         (n−1)/n
=================  ================

Latency: a ring takes ``2(n−1)`` steps for an all-reduce, a (double binary)
tree ``2⌈log2 n⌉``; NCCL picks the faster (Sanders et al. 2009; NCCL 2.4
release notes on trees). Each step costs the per-step latency of the link it
crosses plus NCCL's per-step software cost.

Constants
---------
=========================  =======  ============================================================
``NCCL_BASE_US``           6.6      NCCL base latency per collective (tuning.cc, as used by
                                    PyTorch ``torch/_inductor/comm_analysis.py``)
``NCCL_NVLINK_STEP_US``    0.6      per NVLink step (same source)
``NCCL_NET_STEP_SW_US``    1.9      software part of NCCL's 2.7 µs inter-node step after the
                                    ~0.8 µs InfiniBand wire latency (ib_send_lat) — derived
``DDP_BUCKET_BYTES``       25 MiB   PyTorch DDP ``bucket_cap_mb`` default
=========================  =======  ============================================================

References
----------
1. NVIDIA nccl-tests, ``doc/PERFORMANCE.md`` (algbw, busbw).
2. R. Thakur, R. Rabenseifner, W. Gropp, "Optimization of Collective
   Communication Operations in MPICH", IJHPCA 2005 (α–β costs of ring and tree).
3. P. Sanders, J. Speck, J. L. Träff, "Two-tree algorithms for full bandwidth
   broadcast, reduction and scan", Parallel Computing 2009.
4. NVIDIA NCCL, ``src/graph/tuning.cc`` (base and per-step latencies).
"""

from __future__ import annotations

import numpy as np

NCCL_BASE_US = 6.6
NCCL_NVLINK_STEP_US = 0.6
NCCL_NET_STEP_SW_US = 1.9
DDP_BUCKET_BYTES = 25.0 * 2**20

BUS_FACTOR = {
    "all_reduce": lambda n: 2.0 * (n - 1.0) / n,
    "reduce_scatter": lambda n: (n - 1.0) / n,
    "all_gather": lambda n: (n - 1.0) / n,
    "all_to_all": lambda n: (n - 1.0) / n,
    "sendrecv": lambda n: np.ones(np.shape(n)),
}


def bus_factor(kind, n):
    """nccl-tests conversion busbw = algbw · factor(n) [-]."""
    n = np.asarray(n, dtype=float)
    return BUS_FACTOR[kind](np.maximum(n, 1.0))


def algbw_from_busbw(kind, busbw, n):
    """Algorithm bandwidth S/t from bus bandwidth [same unit as busbw]."""
    f = bus_factor(kind, n)
    return np.where(f > 0, np.asarray(busbw, dtype=float) / np.where(f > 0, f, 1.0), np.inf)


def ring_steps(kind, n):
    """Latency steps of a ring collective: 2(n−1) for all-reduce, n−1 otherwise."""
    n = np.maximum(np.asarray(n, dtype=float), 1.0)
    return 2.0 * (n - 1.0) if kind == "all_reduce" else (n - 1.0)


def tree_steps(kind, n):
    """Latency steps of a double-binary-tree collective: 2⌈log2 n⌉ (all-reduce), ⌈log2 n⌉ otherwise."""
    n = np.maximum(np.asarray(n, dtype=float), 1.0)
    depth = np.ceil(np.log2(n))
    return 2.0 * depth if kind == "all_reduce" else depth


def collective_time(kind, size_bytes, n, busbw_bytes_per_s, step_latency_s,
                    algorithm="best", base_latency_s=NCCL_BASE_US * 1e-6):
    """Time of one collective by the α–β model [s].

    Parameters
    ----------
    kind : {"all_reduce", "reduce_scatter", "all_gather", "all_to_all"}
    size_bytes : array_like
        Bytes per rank ``S`` (the nccl-tests "size") [B].
    n : array_like
        Ranks [-]. ``n <= 1`` costs nothing.
    busbw_bytes_per_s : array_like
        Bus bandwidth the links really reach [B/s].
    step_latency_s : array_like
        Latency of one algorithm step [s].
    algorithm : {"ring", "tree", "best"}
        ``best`` takes the faster, as NCCL's tuner does.
    """
    S = np.asarray(size_bytes, dtype=float)
    n = np.asarray(n, dtype=float)
    beta = S * bus_factor(kind, n) / np.asarray(busbw_bytes_per_s, dtype=float)
    return np.where(n > 1, collective_latency_s(kind, n, step_latency_s, algorithm, base_latency_s) + beta, 0.0)


def collective_latency_s(kind, n, step_latency_s, algorithm="best", base_latency_s=NCCL_BASE_US * 1e-6):
    """The latency term of :func:`collective_time` for ``n > 1`` ranks [s]: the base latency and the algorithm's
    steps, the fewer-step one of ring and tree for ``best`` (the bandwidth term is the same for both, and adding it
    after the minimum rounds to the same sum: rounding keeps the order)."""
    n = np.asarray(n, dtype=float)
    if algorithm == "ring":
        return base_latency_s + ring_steps(kind, n) * step_latency_s
    if algorithm == "tree":
        return base_latency_s + tree_steps(kind, n) * step_latency_s
    return np.minimum(base_latency_s + ring_steps(kind, n) * step_latency_s,
                      base_latency_s + tree_steps(kind, n) * step_latency_s)


def hierarchical_all_reduce_time(size_bytes, ranks_per_node, nodes, intra_busbw, inter_busbw_per_rank,
                                 intra_step_s, inter_step_s, bucket_bytes=DDP_BUCKET_BYTES):
    """All-reduce over ``ranks_per_node × nodes`` ranks, split in buckets [s].

    Reduce-scatter inside the node, all-reduce of each rank's 1/g shard across
    nodes (all ranks of a node at once, each with its share of the node's NICs),
    all-gather inside the node, pipelined as NCCL runs them: the latencies add,
    the bandwidth terms overlap (the slower phase sets the pace). Each bucket
    pays the latency terms; the bytes pay bandwidth once. With one rank per node this is the plain inter-node
    ring/tree whose busbw is the per-rank NIC share, as nccl-tests reports.

    Parameters
    ----------
    size_bytes : gradient bytes per rank [B]
    ranks_per_node, nodes : group layout [-]
    intra_busbw : intra-node bus bandwidth [B/s]
    inter_busbw_per_rank : inter-node bandwidth available to one rank [B/s]
    intra_step_s, inter_step_s : per-step latency [s]
    bucket_bytes : gradient bucket size [B]
    """
    S = np.asarray(size_bytes, dtype=float)
    g = np.maximum(np.asarray(ranks_per_node, dtype=float), 1.0)
    N = np.maximum(np.asarray(nodes, dtype=float), 1.0)
    buckets = np.maximum(np.ceil(S / bucket_bytes), 1.0)
    per_bucket = S / buckets
    intra = (collective_time("reduce_scatter", per_bucket, g, intra_busbw, intra_step_s)
             + collective_time("all_gather", per_bucket, g, intra_busbw, intra_step_s))
    inter = collective_time("all_reduce", per_bucket / g, N, inter_busbw_per_rank, inter_step_s)
    # pipelined (NCCL): the in-node and network bandwidth terms overlap, the slower sets the pace
    intra_bw = 2.0 * per_bucket * bus_factor("reduce_scatter", g) / np.asarray(intra_busbw, dtype=float)
    inter_bw = per_bucket / g * bus_factor("all_reduce", N) / np.asarray(inter_busbw_per_rank, dtype=float)
    inter_bw = np.where(N > 1, inter_bw, 0.0)
    return buckets * (intra + inter - np.minimum(intra_bw, inter_bw)), buckets


def p2p_time(size_bytes, bandwidth_bytes_per_s, latency_s):
    """One point-to-point send [s]: ``α + S/B``."""
    return np.asarray(latency_s, dtype=float) + np.asarray(size_bytes, dtype=float) / np.asarray(
        bandwidth_bytes_per_s, dtype=float)
