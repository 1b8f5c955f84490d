"""NCCL's tuning constants and the caps a NIC and a channel meet, for the NCCL-like collective model.

The tables of NCCL's tuner (``src/graph/tuning.cc``: base and per-hop latencies per
algorithm and protocol, protocol bandwidth factors, tree and CollNet efficiencies, the
LL protocol's and each channel's bus bandwidth limits by GPU generation and host), the
LL128 tree's chunking (``src/enqueue.cc``), and the caps a NIC meets (its PCIe slot,
its channels' window over the round trip, the extra switch tiers' latency); each
constant's source is given where it is defined. The model that uses them is
:mod:`model.nccl_model`.

References
----------
1. NVIDIA NCCL, ``src/graph/tuning.cc`` (base and per-hop latencies per algorithm
   and protocol, protocol bandwidth factors, tree and CollNet efficiencies).
2. NVIDIA/nccl-tests issues 212 (NVLS ≈ 480 GB/s busbw on 8 × H100), 290 and 309
   (46-48 GB/s per NDR NIC; 2-node ring ≈ 390 GB/s on 8 × NDR).
"""

from __future__ import annotations

import math

import numpy as np

PROTOCOLS = ("LL", "LL128", "Simple")
ALGORITHMS = ("ring", "tree", "nvls", "sharp")
# tuning.cc baseLat [µs]: Tree {LL, LL128, Simple}, Ring {LL, LL128, Simple}
BASE_LAT_US = {"ring": np.array([6.6, 14.0, 8.4]), "tree": np.array([6.8, 14.0, 8.4])}
# tuning.cc hwLat [µs] per hop: NVLink and NET rows, Ring and Tree columns
NVLINK_HOP_US = {"ring": np.array([0.47, 1.9, 3.4]), "tree": np.array([0.52, 1.2, 28.0])}
NET_HOP_US = {"ring": np.array([2.7, 4.0, 9.6]), "tree": np.array([5.0, 8.5, 50.0])}
# NVLSTree's network hop, Simple [µs]: tuning.cc hwLat NET row, NVLSTree column: 14 in NCCL 2.19-2.27 (20.9 from
# 2.29), the tree's own 50 µs being for the (non-NVLS) tree
NVLS_TREE_NET_HOP_US = 14.0
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
# NVLink SHARP's channels and chunks (NCCL 2.18-2.30; read in NCCL 2.30.7): NVLS runs its own channel count,
# not the ring's (src/enqueue.cc topoGetAlgoInfo: nc = comm->nvlsChannels), 16 on Hopper (src/transport/nvls.cc
# NVLS_NCHANNELS_SM90), on Blackwell 24 in one NVLink domain and 32 across nodes (NVLS_NCHANNELS_SM100_NVL,
# NVLS_NCHANNELS_SM100); one head per GPU of the node, or per GPU with a NIC across nodes (src/graph/search.cc:
# "NVLS channels correspond to GPUs pulling from NVLS"). Each loop of a channel moves one chunk per head through
# three stages (src/device/all_reduce.h, NVLS: scatter to the heads' buffers, multimem reduce and multicast store,
# gather), and NCCL shrinks the chunk from NCCL_NVLS_CHUNKSIZE (128 KiB) while the message is small against
# channels × heads × chunk (src/enqueue.cc calcCollChunking): (times channels × heads × chunk under which, the
# chunk it drops to), applied in order
NVLS_CHANNELS = {"hopper": (16.0, 16.0), "blackwell": (24.0, 32.0)}  # (one node, across nodes)
NVLS_CHUNK_BYTES = 131072.0
NVLS_CHUNK_RULE = ((64.0, 65536.0), (8.0, 32768.0), (2.0, 16384.0))
# NVLSTree across nodes (NCCL 2.23-2.30): the chunk is at most 64 KiB from 4 nodes on (NCCL_NVLSTREE_MAX_CHUNKSIZE
# default), then the same kind of rule with its own steps
NVLS_TREE_MAX_CHUNK_BYTES = 65536.0  # from 4 nodes
NVLS_TREE_CHUNK_RULE = ((32.0, 262144.0), (16.0, 131072.0), (4.0, 65536.0), (1.0, 32768.0))
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


def nvls_channels(architecture, nodes):
    """NVLS's channel count for a GPU generation (:data:`NVLS_CHANNELS`; Hopper's for any other) at ``nodes``."""
    one, more = NVLS_CHANNELS.get(architecture, NVLS_CHANNELS["hopper"])
    return np.where(np.asarray(nodes, dtype=float) > 1, more, one)


def nvls_largest_chunk_bytes(nodes):
    """The chunk NCCL's NVLS / NVLSTree all-reduce starts from [B]: :data:`NVLS_CHUNK_BYTES`, NVLSTree from 4
    nodes :data:`NVLS_TREE_MAX_CHUNK_BYTES`."""
    return np.where(np.asarray(nodes, dtype=float) >= 4, NVLS_TREE_MAX_CHUNK_BYTES, NVLS_CHUNK_BYTES)


def _halving_limits(rule, start):
    """Where NCCL's chunk-shrinking conditions halve a chunk of ``start`` bytes, as message bytes per concurrent
    chunk (ascending): each condition drops a chunk above ``to`` to ``to`` under ``times × concurrent × chunk``
    bytes, and each ``to`` is half the one before it, so condition i fires exactly when the message is under
    ``times × concurrent × 2 × to`` and ``to`` < ``start``."""
    return np.sort([times * 2.0 * to for times, to in rule if to < start])


_NVLS_LIMITS = _halving_limits(NVLS_CHUNK_RULE, NVLS_CHUNK_BYTES)
_NVLS_TREE_LIMITS = {start: _halving_limits(NVLS_TREE_CHUNK_RULE, start)
                     for start in (NVLS_CHUNK_BYTES, NVLS_TREE_MAX_CHUNK_BYTES)}


def _shrunk(start, limits, per_concurrent):
    """``start`` halved once per limit the message (bytes per concurrent chunk) is under."""
    return start * 0.5 ** (len(limits) - np.searchsorted(limits, per_concurrent, side="right"))


def nvls_chunk_bytes(size_bytes, channels, heads, nodes):
    """The chunk NCCL's NVLS (one node) or NVLSTree (across nodes) all-reduce moves per head and step [B] (arrays):
    :func:`nvls_largest_chunk_bytes`, halved by :data:`NVLS_CHUNK_RULE` / :data:`NVLS_TREE_CHUNK_RULE` while the
    message is under the rule's multiple of ``channels × heads × chunk`` (src/enqueue.cc calcCollChunking)."""
    N = np.asarray(nodes, dtype=float)
    r = np.asarray(size_bytes, dtype=float) / (np.asarray(channels, dtype=float) * np.asarray(heads, dtype=float))
    multi = N > 1
    one = (lambda: _shrunk(NVLS_CHUNK_BYTES, _NVLS_LIMITS, r))
    tree = (lambda: np.where(N >= 4, *(_shrunk(c, _NVLS_TREE_LIMITS[c], r)
                                       for c in (NVLS_TREE_MAX_CHUNK_BYTES, NVLS_CHUNK_BYTES))))
    if multi.all():
        return tree()
    return one() if not multi.any() else np.where(multi, tree(), one())
