"""Collectives: the α–β model the engine's step uses, and an NCCL-like model of what nccl-tests measures.

:func:`nccl_collective` (below the α–β helpers) models NCCL's algorithms (ring,
tree, NVLS, InfiniBand SHARP) and protocols (LL, LL128, Simple) with the tuner's
choice per size, the in-node and network phases pipelined, and the caps a NIC
meets (PCIe slot, channel window over the round trip); its constants and their
sources are listed where they are defined. The engine's gradient all-reduce uses
the α–β helpers with the same pipelining (:func:`hierarchical_all_reduce_time`).

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
4. NVIDIA NCCL, ``src/graph/tuning.cc`` (base and per-hop latencies per algorithm
   and protocol, protocol bandwidth factors, tree and CollNet efficiencies).
5. R. L. Graham et al., "Scalable Hierarchical Aggregation Protocol (SHArP)",
   COM-HPC 2016 (InfiniBand in-network reduction).
6. NVIDIA/nccl-tests issues 212 (NVLS ≈ 480 GB/s busbw on 8 × H100), 290 and 309
   (46-48 GB/s per NDR NIC; 2-node ring ≈ 390 GB/s on 8 × NDR).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .errors import ScenarioError

NCCL_BASE_US = 6.6
NCCL_NVLINK_STEP_US = 0.6
NCCL_NET_STEP_SW_US = 1.9
DDP_BUCKET_BYTES = 25.0 * 2**20

BUS_FACTOR = {
    "all_reduce": lambda n: 2.0 * (n - 1.0) / n,
    "reduce_scatter": lambda n: (n - 1.0) / n,
    "all_gather": lambda n: (n - 1.0) / n,
    "all_to_all": lambda n: (n - 1.0) / n,
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


# --------------------------------------------------------------------------
# NCCL-like collective model: algorithms × protocols, pipelined phases
# --------------------------------------------------------------------------
#
# What nccl-tests would measure for one collective, for any number of fabrics and sizes at once.
#
# Bandwidth (per algorithm, pipelined: the slowest phase sets the pace, phases do not add up):
#
# - ring (flat over n = g·N ranks, NCCL's rings thread the node's GPUs over NVLink and leave each
#   node once per channel): every node sends 2(n−1)/n·S through its NICs, so bus bandwidth is
#   min(node NIC bandwidth, in-node ring bus bandwidth) — "busbw ≈ NICs × achievable per NIC,
#   capped by NVLink" (nccl-tests doc/PERFORMANCE.md; 8 × NDR 400G → 370-390 GB/s,
#   NVIDIA/nccl-tests issue 309; 8 × HDR 200G → 180-190 GB/s).
# - tree (in-node chain, network double binary tree; Sanders et al. 2009): each node moves
#   2(N−1)/N·S over its NICs, so algbw = min(in-node algbw, node bandwidth·N/(2(N−1))), times
#   NCCL's tree efficiency 0.9. On 2 nodes this is why the default algorithm reports busbw above
#   the NICs' line rate (the bus factor counts 2(n−1)/n over all ranks).
# - NVLS (NVLink SHARP, NVSwitch 3 in H100/H200/B200 nodes, NCCL ≥ 2.17): the switch reduces, the
#   in-node all-reduce runs at the GPU's NVLS bus bandwidth; across nodes NVLS-tree pairs it with
#   the network tree.
# - InfiniBand SHARP (CollNet; Graham et al., COM-HPC 2016, "Scalable Hierarchical Aggregation
#   Protocol"): the switches reduce, each node sends and receives S once: algbw = min(in-node
#   algbw, node bandwidth) · 0.9 (tuning.cc CollNet factor).
#
# Protocols (NCCL src/graph/tuning.cc, NVIDIA/nccl; facts, not code): LL moves 8-byte flag+data
# words (busbw × 1/2 on a ring, × 1/3.8 on a tree, both capped by the tuner's LL ceiling: 39 GB/s
# across two Intel-hosted nodes, 20.4 across more, 22.5 / 19 on AMD hosts, 87.7-282 on one node by
# GPU generation; NCCL 2.21-2.29), LL128 120 of 128 bytes (× 0.92 ring, × 0.915 tree), Simple
# the full bandwidth with a larger per-step latency; the tuner takes the fastest (algorithm,
# protocol) per size, which is the LL → LL128 → Simple crossover. (NCCL also gives a medium-size
# collective fewer channels while it is under channels × threads × threshold bytes, enqueue.cc:
# 32 KiB a channel for Simple, so from 1 MiB on a 16-32-channel ring it keeps them all.)
#
# Latency: base per (algorithm, protocol) + steps × per-hop latency: a ring has 2(n−1) steps of
# which 2(N−1) cross the network, a tree 2((g−1) hops in node + log2 N across); the network hop
# is NCCL's per-protocol network latency with InfiniBand's ~0.8 µs wire latency replaced by the
# fabric's own one-way latency plus the extra switch tiers.

PROTOCOLS = ("LL", "LL128", "Simple")
ALGORITHMS = ("ring", "tree", "nvls", "sharp")
# tuning.cc baseLat [µs]: Tree {LL, LL128, Simple}, Ring {LL, LL128, Simple}
BASE_LAT_US = {"ring": np.array([6.6, 14.0, 8.4]), "tree": np.array([6.8, 14.0, 8.4])}
# tuning.cc hwLat [µs] per hop: NVLink and NET rows, Ring and Tree columns
NVLINK_HOP_US = {"ring": np.array([0.47, 1.9, 3.4]), "tree": np.array([0.52, 1.2, 28.0])}
NET_HOP_US = {"ring": np.array([2.7, 4.0, 9.6]), "tree": np.array([5.0, 8.5, 50.0])}
IB_WIRE_US = 0.8  # ib_send_lat one-way on HDR/NDR (perftest ib_send_lat results table in a published thesis) inside NCCL's NET hop
# protocol bandwidth efficiency (tuning.cc "model refinements"; ring LL × 0.5 since NCCL 2.21, capped below)
RING_PROTO_EFF = np.array([1.0 / 2.0, 0.92, 1.0])
# LL protocol bus bandwidth cap [GB/s], tuning.cc llMaxBws (NCCL 2.21-2.29): on one node by GPU generation; across
# nodes by the host's CPU vendor, for 2 nodes and for more (the LL protocol's flag polling tops out there)
LL_MAX_ONE_NODE_GB_PER_S = {"volta": 39.0, "ampere": 87.7, "hopper": 141.0, "blackwell": 282.0}
# (tuning.cc picks the AMD row for AMD or mixed hosts and the Intel row for every other vendor, Arm included)
LL_MAX_NODES_GB_PER_S = {"intel": (39.0, 20.4), "amd": (22.5, 19.0), "arm": (39.0, 20.4)}
TREE_PROTO_EFF = np.array([1.0 / 3.8, 0.915, 1.0])
TREE_EFF = 0.9     # tuning.cc: tree busBw × 0.9
SHARP_EFF = 0.9    # tuning.cc: CollNet busBw × 0.9
# (tuning.cc also raises ring/Simple latency × 1.9 across nodes as a tuner bias; measured logs do not show it as
# time — NVIDIA/nccl-tests issue 309 reaches 95 % of its plateau at 256 MiB — so it is left out)
# LL128 bus bandwidth per channel for all-reduce (tuning.cc ll128MaxBwPerCh), tree × 7/9 and algbw = busBw/2: the cap
# where the GPU generation is not given (the in-node collectives of the engine's step)
LL128_MAX_BW_PER_CHANNEL = 16.7
# NCCL's per-channel bus bandwidth limits by GPU generation, for 1 node, 2 nodes and more (tuning.cc
# perChMaxRingLL128Bws, perChMaxTreeLL128Bws, perChMaxTreeBws, perChMaxNVLSTreeBws; the same in NCCL 2.23-2.29).
# They are per channel of NCCL's topology search, and a run has twice as many channels as the search found
# (src/graph/connect.cc duplicates each one): SEARCH_CHANNEL_SHARE of the model's channels. They agree with what
# is measured: 8 search channels of an H100 node (one per 400G NIC) × 57.7 = 462 GB/s NVLSTree busbw on 2 nodes
# (467 in the dstack/Nebius log), × 45.5 = 364 on 4 and more (published 4-8 node H100 runs: 320-366)
PER_CHANNEL_LIMITS_GB_PER_S = {
    # generation: (ring LL128, tree LL128 (1, 2, >2 nodes), tree (1, 2, >2 nodes), NVLSTree (1, 2, >2 nodes))
    "volta": (20.0, (20.0, 20.0, 20.0), (26.5, 18.5, 10.0), (np.inf, 18.5, 10.0)),
    "ampere": (20.0, (20.0, 20.0, 20.0), (24.0, 23.6, 17.8), (np.inf, 23.6, 17.8)),
    "hopper": (36.7, (36.7, 36.7, 29.0), (38.7, 41.4, 36.0), (np.inf, 57.7, 45.5)),
    "blackwell": (40.0, (55.6, 31.67, 20.0), (70.0, 42.8, 24.0), (np.inf, 96.0, 43.8)),
}
SEARCH_CHANNEL_SHARE = 0.5  # search channels per channel a run opens (connect.cc: "Duplicate channels")
# Simple protocol pipeline fill: each hop holds a slice before the next starts; with NCCL's smallest Simple chunk
# of 128 KiB (enqueue.cc shrinks chunks to it for medium sizes) half a chunk is in flight per hop on average
# (derived, not fitted to any log)
SIMPLE_FILL_BYTES = 64.0 * 1024
# LL128 tree pipeline (NCCL src/enqueue.cc calcCollChunking, unchanged since NCCL 2.7.3; src/init.cc buffer sizes):
# a step of the LL128 buffer is NCCL_LL128_ELEMS_PER_THREAD 120 × NCCL_LL128_MAX_NTHREADS 640 × 8 B = 614,400 B, of
# which 15 of every 16 words carry data: the tree's largest chunk. NCCL halves it while a channel would get fewer
# than nstepsLL128 × 64 / ppn chunks (not below 128 KiB), then fewer than nstepsLL128 × 16 / ppn (not below
# 32 KiB), where nstepsLL128 = 1 + log2(nodes) + 0.1 × GPUs per node is NCCL's depth of the tree's pipeline in
# chunks for one direction: one chunk to start, one per network level (a proxy sends a whole step: store and
# forward), a tenth per GPU of the node (LL128 streams 128-byte lines over NVLink). Up and down the tree, a
# collective of k chunks per channel takes k + 2 × nstepsLL128 chunk times: with few chunks the pipeline never
# fills (the medium sizes 1-16 MiB)
LL128_TREE_CHUNK_BYTES = 614400.0 * 15.0 / 16.0
LL128_TREE_CHUNK_FLOORS_BYTES = (131072.0, 32768.0)   # the two halving loops' lower limits
LL128_TREE_CHUNKS_PER_DEPTH = (64.0, 16.0)             # chunks per channel they aim for, × nstepsLL128 / ppn
# per-step cost of the network proxy (src/graph/tuning.cc getNetOverhead: 1 µs on Intel and other hosts, 2 µs on
# AMD; NCCL charges it to every ring step across nodes): a network stage of the pipeline never passes a chunk
# faster than its proxy posts one
NET_OVERHEAD_US = {"intel": 1.0, "amd": 2.0}
SINGLE_NODE_CHANNELS = 16.0  # NCCL on 8 NVSwitch-connected GPUs opens 16+ channels (NCCL INFO logs); a guess
NVLS_BASE_US = 23.0  # NVLS Simple base latency: a guess (NCCL's NVLS path pays multicast set-up per call)
# NCCL_BUFFSIZE default 4 MiB per channel and peer (NCCL environment-variable documentation)
NCCL_BUFFSIZE_BYTES = 4.0 * 2**20
# channels per NIC: 16 channels over 8 NICs on DGX A100/H100 in NCCL INFO logs (NVIDIA/nccl issues); a guess
# for other nodes
CHANNELS_PER_NIC = 2.0
# extra switch tier: InfiniBand port-to-port 130 ns (NVIDIA QM8700 datasheet); Ethernet 100-300 ns per ASIC
# (WWT switch-latency note) — the upper end, taken for Ethernet
SWITCH_HOP_US = {"infiniband": 0.13, "roce": 0.3, "iwarp": 0.3, "tcp": 0.3}

KINDS = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "sendrecv")
BUS_FACTOR["sendrecv"] = lambda n: np.ones_like(n)


def pcie_cap_gb_per_s(pcie_gen, lanes=16):
    """Achievable DMA bandwidth of a NIC's PCIe slot, one direction [GB/s].

    Raw: 2, 4, 8 GB/s per lane at Gen 3, 4, 5 (PCI-SIG: 8, 16, 32 GT/s, 128b/130b); NICs reach about
    80 %: ~25 GB/s on Gen4 x16 (A100 nodes: a 400G NIC cannot exceed it), ~50 GB/s on Gen5 x16
    (ib_write_bw of NDR 400G: 48-49 GB/s, NVIDIA ConnectX-7 user manual).
    """
    gen = np.asarray(pcie_gen, dtype=float)
    raw_per_lane = 2.0 ** (gen - 3.0) * 128.0 / 130.0  # Gen3 ≈ 0.985 GB/s per lane, Gen4 1.97, Gen5 3.94
    return 0.8 * raw_per_lane * lanes


def window_cap_gb_per_s(rtt_us, channels_per_nic=CHANNELS_PER_NIC, buffer_bytes=NCCL_BUFFSIZE_BYTES):
    """Bandwidth one NIC's NCCL channels can keep in flight over a round trip [GB/s]: channels × buffer / RTT."""
    rtt_s = np.maximum(np.asarray(rtt_us, dtype=float), 1e-3) * 1e-6
    return channels_per_nic * buffer_bytes / rtt_s / 1e9


def extra_tier_latency_us(levels, hop_us=SWITCH_HOP_US["infiniband"]):
    """One-way latency the switch tiers above the first add [µs]: up and down through each extra level,
    ``hop_us`` per switch (:data:`SWITCH_HOP_US` of the transport)."""
    return 2.0 * np.maximum(np.asarray(levels, dtype=float) - 1.0, 0.0) * np.asarray(hop_us, dtype=float)


def per_nic_gb_per_s(link_gbps, achievable_fraction, efficiency=1.0, *, pcie_gb_per_s=np.inf, rtt_us=0.0,
                     channels_per_nic=CHANNELS_PER_NIC):
    """Bandwidth one NIC delivers to NCCL [GB/s]: line · achievable · loss/congestion factor, then capped by its
    PCIe slot and by the channel window over the round trip."""
    net = np.asarray(link_gbps, dtype=float) / 8.0 * np.asarray(achievable_fraction, dtype=float) * efficiency
    return np.minimum(np.minimum(net, pcie_gb_per_s), window_cap_gb_per_s(rtt_us, channels_per_nic))


def ll_max_bus_gb_per_s(architecture, host_cpu_vendor, nodes):
    """The LL protocol's bus bandwidth cap of NCCL's tuner [GB/s] (tuning.cc llMaxBws, NCCL 2.21-2.29).

    One node: by GPU generation (:data:`LL_MAX_ONE_NODE_GB_PER_S`); across nodes: by the hosts' CPU vendor, for
    2 nodes and for more (:data:`LL_MAX_NODES_GB_PER_S`). ``nodes`` may be an array; an unknown generation or
    vendor has no cap.
    """
    nodes = np.asarray(nodes, dtype=float)
    two, more = LL_MAX_NODES_GB_PER_S.get(host_cpu_vendor, (np.inf, np.inf))
    return np.where(nodes <= 1, LL_MAX_ONE_NODE_GB_PER_S.get(architecture, np.inf),
                    np.where(nodes <= 2, two, more))


def net_overhead_us(host_cpu_vendor) -> float:
    """The network proxy's per-step cost of NCCL's tuner for the hosts' CPU vendor [µs] (:data:`NET_OVERHEAD_US`;
    Intel's for any other vendor, as ``getNetOverhead`` in tuning.cc)."""
    return NET_OVERHEAD_US.get(host_cpu_vendor, NET_OVERHEAD_US["intel"])


# halvings of NCCL's loops until the LL128 tree's chunk reaches each floor (the loops stop there)
_LL128_MOST_HALVINGS = tuple(max(math.ceil(math.log2(LL128_TREE_CHUNK_BYTES / f)), 0)
                             for f in LL128_TREE_CHUNK_FLOORS_BYTES)


def ll128_tree_pipeline(size_bytes, channels, nodes, ranks_per_node):
    """The LL128 tree's chunk and pipeline depth as NCCL sets them (:data:`LL128_TREE_CHUNK_BYTES`): ``(chunk
    bytes per channel step, in-node depth, network depth)`` in chunks for one direction of the tree (arrays).

    NCCL's two loops in closed form: each halves the chunk while a channel gets fewer chunks than it wants
    (integer division: fewer than the next whole number) and the chunk is above its floor. The chunk is no larger
    than a channel's share of the message; the in-node depth is 1 + 0.1 × GPUs per node, the network depth
    log2(nodes) (NCCL's nstepsLL128 split in what streams and what a proxy stores and forwards).
    """
    S, C, N, g = (np.asarray(x, dtype=float) for x in (size_bytes, channels, nodes, ranks_per_node))
    (most1, most2), (want1, want2) = _LL128_MOST_HALVINGS, LL128_TREE_CHUNKS_PER_DEPTH
    levels = np.floor(np.log2(np.maximum(N, 1.0)))  # log2i in NCCL
    in_node = 1.0 + 0.1 * g
    per_ppn = (in_node + levels) / g
    spread = np.log2(C * LL128_TREE_CHUNK_BYTES / np.maximum(S, 1.0))
    m1 = np.minimum(np.maximum(np.ceil(np.log2(np.ceil(want1 * per_ppn)) + spread), 0.0), most1)
    m2 = np.minimum(np.maximum(np.ceil(np.log2(np.ceil(want2 * per_ppn)) + spread - m1), 0.0),
                    np.maximum(most2 - m1, 0.0))
    return np.minimum(LL128_TREE_CHUNK_BYTES / np.exp2(m1 + m2), S / C), in_node, levels


def tree_node_load(nodes):
    """Bytes the busiest node's NICs send (and receive) in NCCL's double binary tree all-reduce, per byte of the
    message [-]: 1 on 2 nodes, 1.5 on 3, 2 from 4 nodes on.

    In each of the two trees (half of the data each) a node sends and receives half a message per tree neighbour
    (up in the reduction, down in the broadcast). From 4 nodes on some node has a parent and two children in one
    tree and a parent in the other: 4 halves. Counted on ``ncclGetDtree`` (NCCL ``src/graph/trees.cc``) for 2 to
    2,000 nodes; NCCL's tuner states the same (tree bandwidth from ``bwInter`` with algbw = busBw / 2 beyond 2
    nodes, and ``bwIntra`` up to twice ``bwInter`` on 2, ``src/graph/search.cc``).
    """
    return np.minimum(np.maximum(np.asarray(nodes, dtype=float), 2.0), 4.0) / 2.0


def per_channel_limits_gb_per_s(architecture, nodes):
    """NCCL's per-channel bus bandwidth limits for a GPU generation [GB/s per search channel]
    (:data:`PER_CHANNEL_LIMITS_GB_PER_S`): ``(ring LL128, tree LL128, tree, NVLSTree)`` at ``nodes`` (arrays);
    None for a generation NCCL's tables do not have."""
    row = PER_CHANNEL_LIMITS_GB_PER_S.get(architecture)
    if row is None:
        return None
    nodes = np.asarray(nodes, dtype=float)
    pick = (lambda v: np.where(nodes <= 1, v[0], np.where(nodes <= 2, v[1], v[2])))
    return row[0], pick(row[1]), pick(row[2]), pick(row[3])


def gpu_ll_max_bus_gb_per_s(gpu: dict, nodes):
    """:func:`ll_max_bus_gb_per_s` for a GPU catalogue entry (``architecture``, ``host_cpu_vendor``) [GB/s]."""
    return ll_max_bus_gb_per_s(gpu.get("architecture"), gpu.get("host_cpu_vendor"), nodes)


def in_node_collective_time(kind, size_bytes, ranks, intra_busbw_bytes_per_s, intra_p2p_bytes_per_s,
                            nvls_busbw_bytes_per_s=0.0, ll_max_bytes_per_s=np.inf):
    """One collective among ``ranks`` GPUs of one node by :func:`nccl_collective` (protocols, ring/tree/NVLS,
    pipeline fill; NCCL's own constants) [s]; 0 where ``ranks`` ≤ 1. Tensor-parallel all-reduces and in-node
    pipeline sends (``kind`` "sendrecv") of the engine's step.

    ``intra_busbw_bytes_per_s`` / ``intra_p2p_bytes_per_s``: the GPU's in-node ring bus bandwidth and one GPU's
    point-to-point bandwidth [B/s]. ``nvls_busbw_bytes_per_s``: the node's NVLink SHARP all-reduce bus
    bandwidth, 0 without NVSwitch multicast [B/s]. NCCL (≥ 2.17) opens NVLS for any communicator of two or more
    GPUs on a multicast-capable NVSwitch (``ncclNvlsInit`` in ``src/transport/nvls.cc``), so a tensor-parallel
    group of any size inside the node gets it where its tuner finds it faster. ``ll_max_bytes_per_s``: the LL
    protocol's bus bandwidth cap on one node (:func:`ll_max_bus_gb_per_s`) [B/s].
    """
    ranks = np.asarray(ranks, dtype=float)
    size = np.asarray(size_bytes, dtype=float)
    busbw, p2p, nvls, ll_max = (np.asarray(x, dtype=float) for x in (
        intra_busbw_bytes_per_s, intra_p2p_bytes_per_s, nvls_busbw_bytes_per_s, ll_max_bytes_per_s))
    shape = np.broadcast(size, ranks, busbw, p2p, nvls, ll_max).shape
    if not (ranks > 1).any():  # no group spans two GPUs (e.g. no pipeline): nothing to time
        return np.zeros(shape)
    if math.prod(shape) == 1 or all((x == x.flat[0]).all() for x in (size, ranks, busbw, p2p, nvls, ll_max)):
        # one collective, maybe at every point of a sweep that leaves the model and plan alone: remembered
        t = _one_in_node_time(kind, float(size.flat[0]), float(ranks.flat[0]), float(busbw.flat[0]),
                              float(p2p.flat[0]), float(nvls.flat[0]), float(ll_max.flat[0]))
        return np.full(shape, t)
    if (kind != "sendrecv" and math.prod(shape) >= DISTINCT_MIN_SIZE
            and all((x == x.flat[0]).all() for x in (busbw, p2p, nvls, ll_max))):
        # many (size, ranks) of few distinct values (the plan search's pairs): each distinct one computed once
        pairs, inverse = np.unique(np.broadcast_to(size, shape) + 1j * np.broadcast_to(ranks, shape),
                                   return_inverse=True)
        if pairs.size >= DISTINCT_MIN_SIZE:  # as many distinct ones: computed directly (not sorted again)
            return _in_node_direct(kind, pairs.real, pairs.imag, busbw, p2p, nvls, ll_max)[inverse].reshape(shape)
        return in_node_collective_time(kind, pairs.real, pairs.imag, busbw.flat[0], p2p.flat[0], nvls.flat[0],
                                       ll_max.flat[0])[
            inverse].reshape(shape)
    return _in_node_direct(kind, size, ranks, busbw, p2p, nvls, ll_max)


def _in_node_direct(kind, size, ranks, busbw, p2p, nvls, ll_max):
    """:func:`in_node_collective_time` of float arrays computed at every entry by :func:`nccl_collective` [s]."""
    r = nccl_collective(kind, size, ranks_per_node=2.0 if kind == "sendrecv" else np.maximum(ranks, 2.0),
                        nodes=1.0, nic_gb_per_s=np.inf, nics_per_node=1.0,
                        intra_busbw_gb_per_s=busbw / 1e9, intra_p2p_gb_per_s=p2p / 1e9,
                        nvls_busbw_gb_per_s=nvls / 1e9, ll_max_gb_per_s=ll_max / 1e9)
    t = r["time_us"] * 1e-6
    if isinstance(t, np.ndarray) and (ranks > 1).all() and np.broadcast(t, ranks).shape == t.shape:
        return t  # every group spans GPUs (the engine's): the np.where below would copy it
    return np.where(ranks > 1, t, 0.0)


@functools.lru_cache(maxsize=256)
def _one_in_node_time(kind, size, ranks, busbw, p2p, nvls, ll_max) -> float:
    """:func:`in_node_collective_time` of one collective [s], remembered: a sweep whose model and plan are the
    same at every point asks the same few at every call."""
    r = nccl_collective(kind, np.asarray(size), ranks_per_node=2.0 if kind == "sendrecv" else max(ranks, 2.0),
                        nodes=1.0, nic_gb_per_s=np.inf, nics_per_node=1.0,
                        intra_busbw_gb_per_s=np.asarray(busbw / 1e9), intra_p2p_gb_per_s=np.asarray(p2p / 1e9),
                        nvls_busbw_gb_per_s=np.asarray(nvls / 1e9), ll_max_gb_per_s=np.asarray(ll_max / 1e9))
    return float(np.asarray(r["time_us"]).reshape(-1)[0]) * 1e-6 if ranks > 1 else 0.0


def clear_memo() -> None:
    """Forget the remembered single in-node collectives (:func:`in_node_collective_time`'s; for cold timings)."""
    _one_in_node_time.cache_clear()


# arrays at least this large are computed at their distinct (size, ranks) only: sorting them costs less than the
# collective model's ring and tree, three protocols each, per element (measured on the plan search's pairs: 15 000
# all-reduces 6.5 ms, 2.0 ms through their distinct values). Not for send/receive: one path, cheaper than the sort
DISTINCT_MIN_SIZE = 4096


def _value(x):
    """``x``, or what it returns when it is a function of no arguments (a branch computed only when needed)."""
    return x() if callable(x) else x


class _Mask:
    """A boolean array over the collective's layout, with whether it holds anywhere and everywhere.

    Where it is the same at every entry, ``np.where`` over it is just one of its branches and the other need not
    be computed: in the engine's in-node calls no entry spans two nodes, so every network term is left out.
    """

    __slots__ = ("mask", "any", "all")

    def __init__(self, mask):
        self.mask = mask
        if mask.ndim == 0:
            self.any = self.all = bool(mask)
        else:
            self.any = bool(mask.any())
            self.all = self.any and bool(mask.all())

    def where(self, a, b, mixed=None):
        """``np.where(mask, a, b)``: ``a`` where the mask holds everywhere, ``b`` where nowhere, else ``mixed()``
        (default: the ``np.where``). A branch may be a function of no arguments, called only when it is used.
        The values are those of ``np.where``; the shape may be smaller (it broadcasts to the same result)."""
        if self.all:
            return _value(a)
        if not self.any:
            return _value(b)
        return mixed() if mixed is not None else np.where(self.mask, _value(a), _value(b))


def _all_finite(x) -> bool:
    """Whether every entry of the float array ``x`` is finite (a scalar without numpy's array machinery)."""
    return math.isfinite(x) if x.ndim == 0 else bool(np.isfinite(x).all())


def _any_finite(x) -> bool:
    """Whether some entry of the float array ``x`` is finite (e.g. an override that is not NaN everywhere)."""
    return math.isfinite(x) if x.ndim == 0 else bool(np.isfinite(x).any())


class _ProtocolTables:
    """NCCL's per-protocol constants along the protocol axis ``(3, 1, …, 1)`` in front of a layout of ``ndim``
    dimensions, and that axis's masks: the model evaluates LL, LL128 and Simple at once along it. Read-only (shared
    by every call)."""

    def __init__(self, ndim):
        self.p = np.arange(3).reshape((3,) + (1,) * ndim)
        self.is_ll, self.is_ll128, self.is_simple = (self.p == i for i in range(3))
        self.not_ll128 = self.p != 1
        axis = self.p.shape
        self.base_ring, self.base_tree = (BASE_LAT_US[a].reshape(axis) for a in ("ring", "tree"))
        self.net_ring, self.net_tree = (NET_HOP_US[a].reshape(axis) for a in ("ring", "tree"))
        self.nvl_ring, self.nvl_tree = (NVLINK_HOP_US[a].reshape(axis) for a in ("ring", "tree"))
        # across nodes NVLink's LL hop costs × 1.8 (tuning.cc)
        self.nvl_ring_multi, self.nvl_tree_multi = (x * np.where(self.is_ll, 1.8, 1.0)
                                                    for x in (self.nvl_ring, self.nvl_tree))
        self.ring_eff = RING_PROTO_EFF.reshape(axis)
        self.tree_eff = TREE_PROTO_EFF.reshape(axis)
        for x in vars(self).values():
            x.flags.writeable = False


# made once for the layouts calls use (up to 7 dimensions); a call with more makes its own
_PROTOCOL_TABLES = tuple(_ProtocolTables(ndim) for ndim in range(8))


def _protocol_tables(ndim) -> _ProtocolTables:
    """:class:`_ProtocolTables` for a layout of ``ndim`` dimensions."""
    return _PROTOCOL_TABLES[ndim] if ndim < len(_PROTOCOL_TABLES) else _ProtocolTables(ndim)


# why a forced algorithm cannot run, as the user can change it
WHY_UNAVAILABLE = {
    "tree": "a tree needs two GPUs or two nodes",
    "nvls": "NVLS needs NVLink SHARP in the node (NVSwitch 3: H100, H200, B200) and two GPUs of it in the group",
    "sharp": "SHARP needs a fabric with sharp = true (InfiniBand in-network reduction) and at least two nodes",
}


def _unavailable(algorithm, times, algos) -> str:
    """The one-line reason a forced ``algorithm`` runs nowhere, with the algorithms that do run here."""
    runs = [ALGORITHMS[int(a)] for a, t in zip(algos, times) if np.isfinite(t).any()]
    return f"{WHY_UNAVAILABLE.get(algorithm, 'not available here')}; one of: {', '.join(runs) or 'none'}"


def _next_row(times, algos, algorithm_index):
    """The first unused row of ``times`` (one algorithm's times, protocols × layout), taken for the algorithm of
    index ``algorithm_index`` (appended to ``algos``)."""
    algos.append(algorithm_index)
    return times[len(algos) - 1]


def nccl_collective(kind, size_bytes, *, ranks_per_node, nodes, nic_gb_per_s, nics_per_node, intra_busbw_gb_per_s,
                    intra_p2p_gb_per_s=None, net_latency_us=IB_WIRE_US, nvls_busbw_gb_per_s=0.0, sharp=False,
                    algorithm="auto", protocol="auto", overhead_us=0.0, fill_bytes=SIMPLE_FILL_BYTES,
                    simple_hop_us=None, ll128_hop_us=None, ll_hop_us=None, ll128_efficiency=np.nan,
                    tree_efficiency=np.nan, ll_max_gb_per_s=np.inf, architecture=None,
                    net_overhead_us=NET_OVERHEAD_US["intel"]):
    """What nccl-tests would report for one collective (all arguments broadcast together).

    Parameters
    ----------
    kind : one of :data:`KINDS`
    size_bytes : nccl-tests "size" per rank [B]
    ranks_per_node, nodes : layout [-] (``g``, ``N``)
    nic_gb_per_s : what one NIC delivers after loss, congestion, PCIe and window caps [GB/s]
    nics_per_node : NICs per node [-]
    intra_busbw_gb_per_s : in-node ring all-reduce bus bandwidth per GPU (NVLink) [GB/s]
    intra_p2p_gb_per_s : one GPU's in-node point-to-point bandwidth [GB/s] (default: intra busbw)
    net_latency_us : the fabric's one-way latency per network hop incl. extra switch tiers [µs]
    nvls_busbw_gb_per_s : in-node NVLS all-reduce bus bandwidth, 0 when the node has no NVLink SHARP [GB/s]
    sharp : InfiniBand SHARP (CollNet) available [bool]
    algorithm, protocol : "auto" (NCCL's tuner: the fastest) or one of :data:`ALGORITHMS` / :data:`PROTOCOLS`
    overhead_us : added to every call (e.g. a fitted launch overhead) [µs]
    fill_bytes : Simple-protocol bytes per channel in flight per hop before the pipeline runs full [B]; NaN:
        :data:`SIMPLE_FILL_BYTES`. A message smaller than that per channel fills the pipeline with what it has
        (pipelined store-and-forward: the fill costs hops × min(fill, S / channels) / per-channel bandwidth)
    simple_hop_us : Simple protocol's per-hop latency on NVLink and (before the fabric's own latency) on the
        network [µs]; None or NaN: tuning.cc's. Calibration fits it: it sets where Simple overtakes LL/LL128
    ll128_hop_us, ll_hop_us : the same for the LL128 and LL protocols [µs]; None or NaN: tuning.cc's. Fitted
        together they place both crossovers (LL → LL128 → Simple) where the measured log has them
    ll128_efficiency : share of the Simple protocol's bandwidth LL128 reaches [-]; NaN: tuning.cc's 0.92 (ring) /
        0.915 (tree). Calibration fits it where a log's LL128 plateau sits below Simple's
    tree_efficiency : share of the slower of its in-node and network bandwidths a tree reaches [-]; NaN:
        tuning.cc's :data:`TREE_EFF`. Calibration fits it from a default-algorithm log's plateau
    ll_max_gb_per_s : the LL protocol's bus bandwidth cap, :func:`ll_max_bus_gb_per_s` [GB/s]; infinite: none
    architecture : GPU generation ("volta", "ampere", "hopper", "blackwell"): NCCL's per-channel limits of the
        ring's LL128, the tree and NVLSTree (:data:`PER_CHANNEL_LIMITS_GB_PER_S`); None or another: the generic
        LL128 cap alone
    net_overhead_us : the network proxy's cost per step, :func:`net_overhead_us` of the hosts [µs]: a network
        stage of the LL128 tree's pipeline passes a chunk no faster, and a ring's step across nodes takes no less
        (× 3 for Simple)

    The LL128 tree pays its pipeline's fill (:func:`ll128_tree_pipeline`): 2 × depth chunk times of a channel,
    which NCCL's chunking keeps to a small share of large messages but which dominates 1-16 MiB.

    Across nodes the tree and NVLSTree move :func:`tree_node_load` × S through the busiest node's NICs, so their
    algorithm bandwidth never exceeds the node's NIC bandwidth over that load: from 4 nodes on their busbw stays
    under the NICs' (as NCCL's maintainers put it, beyond 2 nodes the network bounds every algorithm); only on 2
    nodes (load 1) can it exceed line rate, and only in-network reduction (SHARP) beyond.

    Returns
    -------
    dict of arrays: ``time_us``, ``algbw_gb_per_s``, ``busbw_gb_per_s``, ``algorithm`` and ``protocol``
    (indices into :data:`ALGORITHMS` and :data:`PROTOCOLS`).
    """
    if kind not in KINDS:
        raise ValueError(f"collective {kind!r}: one of {', '.join(KINDS)}")
    S = np.asarray(size_bytes, dtype=float)
    g = np.maximum(np.asarray(ranks_per_node, dtype=float), 1.0)
    N = np.maximum(np.asarray(nodes, dtype=float), 1.0)
    n = g * N
    node_bw = np.asarray(nic_gb_per_s, dtype=float) * np.asarray(nics_per_node, dtype=float)
    intra = np.asarray(intra_busbw_gb_per_s, dtype=float)
    p2p_intra = intra if intra_p2p_gb_per_s is None else np.asarray(intra_p2p_gb_per_s, dtype=float)
    nvls = np.asarray(nvls_busbw_gb_per_s, dtype=float)
    multi = _Mask(N > 1)
    net_hop_shift = np.asarray(net_latency_us, dtype=float) - IB_WIRE_US
    hops = [np.asarray(h, dtype=float) for h in (simple_hop_us, ll128_hop_us, ll_hop_us) if h is not None]
    fill_bytes = np.asarray(fill_bytes, dtype=float)
    if not _all_finite(fill_bytes):
        fill_bytes = np.where(np.isfinite(fill_bytes), fill_bytes, SIMPLE_FILL_BYTES)
    shape = np.broadcast(S, g, N, node_bw, intra, p2p_intra, nvls, net_hop_shift, np.asarray(sharp), fill_bytes,
                         np.asarray(ll128_efficiency, dtype=float), np.asarray(tree_efficiency, dtype=float),
                         *hops).shape
    f = bus_factor(kind, n)
    big = np.inf
    channels = multi.where(lambda: CHANNELS_PER_NIC * np.asarray(nics_per_node, dtype=float), SINGLE_NODE_CHANNELS)
    limits = per_channel_limits_gb_per_s(architecture, N)
    if limits is None:
        ll128_cap = LL128_MAX_BW_PER_CHANNEL * channels  # bus bandwidth LL128 can reach [GB/s]
        tree_ll128_alg_cap = ll128_cap * 7.0 / 9.0 * 0.5  # the tree's LL128 algorithm bandwidth [GB/s]
        tree_alg_cap = nvls_bus_cap = big
    else:  # NCCL's per-channel limits over the search channels (algbw = busBw / 2 for the tree)
        search_channels = SEARCH_CHANNEL_SHARE * channels
        ll128_cap = limits[0] * search_channels
        tree_ll128_alg_cap = 0.5 * limits[1] * search_channels
        tree_alg_cap = 0.5 * limits[2] * search_channels
        nvls_bus_cap = limits[3] * search_channels
    ll_cap = np.asarray(ll_max_gb_per_s, dtype=float)  # bus bandwidth LL can reach [GB/s]
    t = _protocol_tables(len(shape))  # the protocol axis, its masks and NCCL's per-protocol constants along it
    p = t.p
    net_ring = t.net_ring + net_hop_shift
    net_tree = t.net_tree + net_hop_shift
    # tuning.cc: LL × 1.8 on NVLink across nodes
    nvl_ring = multi.where(t.nvl_ring_multi, t.nvl_ring, lambda: t.nvl_ring * np.where(multi.mask & t.is_ll, 1.8, 1.0))
    nvl_tree = multi.where(t.nvl_tree_multi, t.nvl_tree, lambda: t.nvl_tree * np.where(multi.mask & t.is_ll, 1.8, 1.0))
    # tuning.cc: a ring across nodes launches every step through the network proxy, so its in-node step costs at
    # least the proxy's per-step overhead (× 3 for Simple, which also flushes the GPUDirect RDMA writes it received)
    ring_intra = multi.where(lambda: np.maximum(nvl_ring, net_overhead_us * np.where(t.is_simple, 3.0, 1.0)),
                             nvl_ring)
    for proto, hop in ((0, ll_hop_us), (1, ll128_hop_us), (2, simple_hop_us)):
        if hop is None:
            continue
        hop = np.asarray(hop, dtype=float)
        use = (p == proto) & np.isfinite(hop)  # NaN where a fabric keeps NCCL's own (a fitted step cost has it all)
        net_ring, net_tree = (np.where(use, hop + net_hop_shift + IB_WIRE_US, x) for x in (net_ring, net_tree))
        nvl_ring, nvl_tree, ring_intra = (np.where(use, hop, x) for x in (nvl_ring, nvl_tree, ring_intra))
    base_ring = t.base_ring
    base_tree = t.base_tree
    ring_eff = t.ring_eff
    tree_eff = t.tree_eff
    ll128_eff = np.asarray(ll128_efficiency, dtype=float)
    if _any_finite(ll128_eff):
        ring_eff, tree_eff = (np.where(t.is_ll128 & np.isfinite(ll128_eff), ll128_eff, x) for x in (ring_eff, tree_eff))
    # each algorithm's times (3 protocols, *shape), written in place in the order of ALGORITHMS: its latency, then
    # the Simple protocol's pipeline fill on Simple's row only (on the others it would add 0 to a latency that is
    # never −0), then the bytes over the bandwidth: the same sums in the same order at every entry
    times = np.empty((len(ALGORITHMS) if kind == "all_reduce" else 1, 3) + shape)
    algos = []  # the algorithm index of each row of times

    if kind in ("all_reduce", "all_gather", "reduce_scatter"):
        fill = np.minimum(fill_bytes, S / channels)  # bytes per channel and hop in the Simple protocol's pipeline
        steps = 2.0 * (n - 1.0) if kind == "all_reduce" else n - 1.0
        inter_steps = multi.where(lambda: 2.0 * (N - 1.0) if kind == "all_reduce" else N - 1.0, 0.0)
        lat = base_ring + (steps - inter_steps) * ring_intra + inter_steps * net_ring
        # across nodes one of a node's g ring edges per channel leaves through a NIC: NVLink carries (g−1)/g
        ring_bus = multi.where(lambda: np.minimum(node_bw, intra * g / np.maximum(g - 1.0, 1.0)), intra) * ring_eff
        ring_bus = np.where(t.is_ll128, np.minimum(ring_bus, ll128_cap), np.where(t.is_ll, np.minimum(ring_bus, ll_cap),
                                                                                   ring_bus))
        out = _next_row(times, algos, 0)
        out[...] = lat
        out[2] += steps * fill / (ring_bus[2] / channels) * 1e-3  # Simple's pipeline fill
        out += S * f / ring_bus * 1e-3
    if kind == "all_reduce":
        # tree: in-node chain plus network double binary tree (one node: the chain alone)
        group = _Mask(g > 1)
        group_factor = bus_factor("all_reduce", g)
        intra_alg = group.where(lambda: intra / group_factor, big)  # the in-node chain's algorithm bandwidth
        net_alg = multi.where(lambda: node_bw / tree_node_load(N), big)  # the network tree's: the busiest node's NICs
        depth = np.ceil(np.log2(N))  # of the network tree
        tree_fit = np.asarray(tree_efficiency, dtype=float)
        if not _all_finite(tree_fit):
            tree_fit = np.where(np.isfinite(tree_fit), tree_fit, TREE_EFF)
        tree_alg = (np.minimum(intra_alg, net_alg) if multi.any else intra_alg) * tree_fit
        if limits is not None:  # NCCL caps the tree per channel before the protocol's share (tuning.cc)
            tree_alg = np.minimum(tree_alg, tree_alg_cap)
        tree_alg = tree_alg * tree_eff
        tree_alg = np.where(t.is_ll128, np.minimum(tree_alg, tree_ll128_alg_cap),
                            np.where(t.is_ll, np.minimum(tree_alg, ll_cap * 0.5), tree_alg))  # algbw = busBw / 2
        tree_hops = 2.0 * (g - 1.0 + depth)
        lat_t = base_tree + 2.0 * ((g - 1.0) * nvl_tree + depth * net_tree)
        out = _next_row(times, algos, 1)
        out[...] = lat_t
        out[2] += tree_hops * fill / (tree_alg[2] / channels) * 1e-3  # Simple's pipeline fill
        # LL128's pipeline fill: NCCL's chunk and depth, up and down; a network stage waits for its proxy
        chunk, in_node, levels = ll128_tree_pipeline(S, channels, N, g)
        chunk_us = chunk * channels / tree_alg[1] * 1e-3
        fill_ll128 = in_node * chunk_us
        if multi.any:
            fill_ll128 = fill_ll128 + levels * np.maximum(chunk_us, net_overhead_us)
        out[1] += 2.0 * fill_ll128
        out += S / tree_alg * 1e-3
        if not (multi.all or group.all):  # a single GPU on one node has no tree
            np.copyto(out, big, where=~(multi.mask | group.mask))
        # An algorithm that runs nowhere in this call (NVLS without NVLink SHARP, InfiniBand SHARP off or on one
        # node) takes infinite time everywhere; after ring and tree it can never be the first fastest, so unless it
        # is the one asked for it is left out rather than computed on full arrays
        # NVLS (Simple only): in-node NVLink SHARP, across nodes paired with the network tree
        if algorithm == "nvls" or (nvls > 0).any():
            has_nvls = (nvls > 0) & group.mask
            # NCCL's tuner holds the NVLS bus bandwidth constant over the group size (tuning.cc); the algorithm
            # bandwidth cannot exceed what one GPU's NVLink moves (each GPU sends and receives S): a cap for groups
            # of 2
            nvls_alg = np.where(has_nvls, np.minimum(nvls / group_factor, p2p_intra), np.nan)
            nvls_alg = np.minimum(nvls_alg, net_alg)
            if limits is not None and multi.any:  # NVLSTree's per-channel limit, on its bus bandwidth
                nvls_alg = np.where(multi.mask, np.minimum(nvls_alg, nvls_bus_cap / f), nvls_alg)
            nvls_hops = 2.0 + 2.0 * depth
            lat_n = (NVLS_BASE_US + np.where(multi.mask, 2.0 * depth * net_tree[2], 0.0)
                     + nvls_hops * fill / (nvls_alg / channels) * 1e-3)
            t_nvls = np.where(has_nvls & t.is_simple, lat_n + S / nvls_alg * 1e-3, big)
            _next_row(times, algos, 2)[...] = t_nvls
        # InfiniBand SHARP (CollNet, Simple and LL; no LL128 in CollNet)
        if algorithm == "sharp" or multi.any and np.asarray(sharp).any():
            sharp_on = np.asarray(sharp, dtype=bool) & multi.mask
            sharp_alg = np.minimum(intra_alg, node_bw) * SHARP_EFF
            lat_s = base_tree + 2.0 * (g - 1.0) * nvl_tree + net_tree
            t_sharp = np.where(sharp_on & t.not_ll128,
                               lat_s + S / (sharp_alg * np.where(t.is_ll, 1.0 / 6.0, 1.0)) * 1e-3, big)
            _next_row(times, algos, 3)[...] = t_sharp
    if kind == "all_to_all":
        # every rank sends S/n to every other rank: (N−1)/N of a node's g·S crosses its NICs, the rest NVLink
        t_net = multi.where(lambda: g * S * (N - 1.0) / N / node_bw, 0.0)
        t_nvl = S * (g - 1.0) / n / p2p_intra
        lat = base_ring + nvl_ring + multi.where(net_ring, 0.0) + (n - 1.0) * 0.05  # ~50 ns per peer posted: guess
        _next_row(times, algos, 0)[...] = lat + np.maximum(t_net, t_nvl) * 1e-3 / ring_eff  # B / (GB/s) = ns -> µs
    if kind == "sendrecv":
        # ring of pairs: across nodes the crossing pair uses one NIC (rail-optimised, one NIC per GPU)
        bw = multi.where(lambda: np.minimum(node_bw / np.maximum(np.minimum(np.asarray(nics_per_node, float), g), 1.0)
                                            * np.maximum(np.asarray(nics_per_node, float) / g, 1.0), p2p_intra),
                         p2p_intra)
        lat = base_ring + multi.where(net_ring, nvl_ring)
        _next_row(times, algos, 0)[...] = lat + S / (bw * ring_eff) * 1e-3
    times = times[:len(algos)]  # (A, 3, *shape)
    algos = np.array(algos)
    if algorithm != "auto":
        keep = algos == ALGORITHMS.index(algorithm)
        if not keep.any():
            raise ValueError(f"algorithm {algorithm!r} does not run {kind}")
        if not np.isfinite(times[keep]).any():  # asked for where it runs nowhere (SHARP off, no NVLink SHARP)
            raise ScenarioError("algorithm", algorithm, _unavailable(algorithm, times, algos))
        times, algos = times[keep], algos[keep]
    if protocol != "auto":
        times = times[:, PROTOCOLS.index(protocol):PROTOCOLS.index(protocol) + 1]
        proto_ids = np.array([PROTOCOLS.index(protocol)])
    else:
        proto_ids = np.arange(3)
    flat = times.reshape((-1,) + shape)
    best = np.argmin(flat, axis=0)
    t_us = flat.reshape(flat.shape[0], -1)[best.reshape(-1), np.arange(best.size)].reshape(best.shape) + overhead_us
    algbw = S / (t_us * 1e-6) / 1e9
    algorithm_row, protocol_row = np.divmod(best, len(proto_ids))
    return dict(time_us=t_us, algbw_gb_per_s=algbw, busbw_gb_per_s=algbw * f,
                algorithm=algos[algorithm_row], protocol=proto_ids[protocol_row])
