"""The NCCL-like collective model: what nccl-tests would measure, NCCL's algorithms × protocols.

:func:`nccl_collective` models NCCL's algorithms (ring, tree, NVLS, InfiniBand SHARP)
and protocols (LL, LL128, Simple) with the tuner's choice per size, the in-node and
network phases pipelined, for any number of fabrics and sizes at once;
:func:`in_node_collective_time` times the engine's in-node collectives (tensor-parallel
all-reduces, pipeline sends) with it. NCCL's constants, with their sources, and the
caps a NIC meets are :mod:`model.nccl_tuning`; the α–β helpers :mod:`model.collectives`.

References
----------
1. NVIDIA NCCL, ``src/graph/tuning.cc`` and ``src/enqueue.cc`` (the tuner, chunking).
2. P. Sanders, J. Speck, J. L. Träff, "Two-tree algorithms for full bandwidth
   broadcast, reduction and scan", Parallel Computing 2009.
3. R. L. Graham et al., "Scalable Hierarchical Aggregation Protocol (SHArP)",
   COM-HPC 2016 (InfiniBand in-network reduction).
4. NVIDIA nccl-tests, ``doc/PERFORMANCE.md`` (algbw, busbw).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .collectives import bus_factor
from .errors import ScenarioError
from .nccl_tuning import ALGORITHMS, BASE_LAT_US, CHANNELS_PER_NIC, IB_WIRE_US, KINDS, LL128_MAX_BW_PER_CHANNEL, \
    NET_HOP_US, NET_OVERHEAD_US, NVLINK_HOP_US, NVLS_BASE_US, PROTOCOLS, RING_PROTO_EFF, SEARCH_CHANNEL_SHARE, \
    SHARP_EFF, SIMPLE_FILL_BYTES, SINGLE_NODE_CHANNELS, TREE_EFF, TREE_PROTO_EFF, ll128_tree_pipeline, \
    NVLS_CHANNELS, NVLS_CHUNK_BYTES, NVLS_TREE_NET_HOP_US, nvls_chunk_bytes, nvls_largest_chunk_bytes, per_channel_limits_gb_per_s, \
    tree_node_load

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
#   the network tree. At medium sizes it runs NCCL's smaller chunks on its own channels and fills
#   its scatter / reduce / gather loop (:func:`_nvls_in_node_us`).
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
    links = (busbw, p2p, nvls, ll_max)
    if (math.prod(shape) >= FEW_DISTINCT_MIN_SIZE and (kind == "sendrecv" or math.prod(shape) < DISTINCT_MIN_SIZE)
            and np.unique(size).size > FEW_DISTINCT):
        # more distinct sizes than the few kept and not enough entries to compute at the distinct ones: directly
        # (the plan search's layer terms along a model-size sweep), without sorting the (size, ranks) pairs first
        return _in_node_direct(kind, size, ranks, busbw, p2p, nvls, ll_max)
    if math.prod(shape) >= FEW_DISTINCT_MIN_SIZE and all((x == x.flat[0]).all() for x in links):
        # many (size, ranks) of few distinct values: each distinct one computed once. The plan search's pairs
        # (thousands of all-reduces); its candidates (a few hundred collectives of a dozen (size, ranks),
        # micro-batch × degree), whose times a model-size drag meets again at every move: remembered
        pairs, inverse = np.unique(np.broadcast_to(size, shape) + 1j * np.broadcast_to(ranks, shape),
                                   return_inverse=True)
        if kind != "sendrecv" and math.prod(shape) >= DISTINCT_MIN_SIZE:
            if pairs.size >= DISTINCT_MIN_SIZE:  # as many distinct ones: computed directly (not sorted again)
                return _in_node_direct(kind, pairs.real, pairs.imag, *links)[inverse].reshape(shape)
            return in_node_collective_time(kind, pairs.real, pairs.imag, *(x.flat[0] for x in links))[
                inverse].reshape(shape)
        if pairs.size <= FEW_DISTINCT:
            return _few_in_node_times(kind, pairs, links)[inverse].reshape(shape)
    return _in_node_direct(kind, size, ranks, busbw, p2p, nvls, ll_max)


# collectives of at most this many distinct (size, ranks) among at least FEW_DISTINCT_MIN_SIZE entries are timed
# once per distinct collective, and remembered (_FEW_KEPT: (kind, size + 1j·ranks, links) → s), not entry by entry
FEW_DISTINCT = 24
FEW_DISTINCT_MIN_SIZE = 64
_FEW_KEPT: dict = {}
_FEW_KEPT_MAX = 4096  # entries; a session meets a few dozen (kind, size, degree, GPU)


def _few_in_node_times(kind, pairs, links):
    """The times [s] of the distinct collectives ``pairs`` (size + 1j·ranks) on the node's ``links`` (one value
    each): those kept, and the others timed together as entries of the general model (the same bits as
    :func:`_in_node_direct` at every entry), then kept."""
    at = tuple(float(x.flat[0]) for x in links)
    keys = [(kind, complex(z), at) for z in pairs]
    out = np.array([_FEW_KEPT.get(k, np.nan) for k in keys])
    new = np.flatnonzero(np.isnan(out))
    if new.size:
        out[new] = _in_node_direct(kind, pairs.real[new], pairs.imag[new], *(x.reshape(-1)[:1] for x in links))
        if len(_FEW_KEPT) > _FEW_KEPT_MAX:
            _FEW_KEPT.clear()
        _FEW_KEPT.update((keys[i], float(out[i])) for i in new)
    return out


def _in_node_direct(kind, size, ranks, busbw, p2p, nvls, ll_max):
    """:func:`in_node_collective_time` of float arrays computed at every entry by :func:`nccl_collective` [s]."""
    r = nccl_collective(kind, size, ranks_per_node=2.0 if kind == "sendrecv" else np.maximum(ranks, 2.0),
                        nodes=1.0, nic_gb_per_s=np.inf, nics_per_node=1.0,
                        intra_busbw_gb_per_s=busbw / 1e9, intra_p2p_gb_per_s=p2p / 1e9,
                        nvls_busbw_gb_per_s=nvls / 1e9, ll_max_gb_per_s=ll_max / 1e9, time_only=True)
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
                        nvls_busbw_gb_per_s=np.asarray(nvls / 1e9), ll_max_gb_per_s=np.asarray(ll_max / 1e9),
                        time_only=True)
    return float(np.asarray(r["time_us"]).reshape(-1)[0]) * 1e-6 if ranks > 1 else 0.0


def clear_memo() -> None:
    """Forget the remembered single in-node collectives (:func:`in_node_collective_time`'s; for cold timings)."""
    _one_in_node_time.cache_clear()
    _FEW_KEPT.clear()


# arrays at least this large are computed at their distinct (size, ranks) only: sorting them costs less than the
# collective model's ring and tree, three protocols each, per element (measured on the plan search's pairs: 15 000
# all-reduces 6.5 ms, 2.0 ms through their distinct values). Not for send/receive: one path, cheaper than the sort
DISTINCT_MIN_SIZE = 4096


def _nvls_in_node_us(size, g, nodes, multi, nics_per_node, nvls_alg, step_us, fitted_fill, architecture):
    """What NCCL's NVLS / NVLSTree all-reduce adds inside the node to its bytes over its bandwidth [µs] (arrays):
    the fill of its pipeline and the extra steps of the smaller chunks NCCL takes at medium sizes.

    A channel (:data:`NVLS_CHANNELS`) moves one chunk per head (:func:`nvls_chunk_bytes`; a head per GPU, across
    nodes per GPU with a NIC) a loop, through scatter, reduce-and-multicast and gather: the gather starts two loops
    after the scatter (the network tree's hops are the caller's). Each step also pays the Simple protocol's
    NVLink step (``step_us``, tuning.cc's per-hop latency: the handshake of a step between GPUs). ``nvls_alg`` is
    the bandwidth measured with NCCL's largest chunk, which holds that chunk's steps: a smaller chunk pays the
    steps it adds. ``fitted_fill``: a fitted fill per channel and stage instead of NCCL's loop (NaN: NCCL's).
    """
    one, more = NVLS_CHANNELS.get(architecture, NVLS_CHANNELS["hopper"])
    channels = multi.where(more, one, lambda: np.where(multi.mask, more, one))
    heads = multi.where(lambda: np.minimum(g, np.asarray(nics_per_node, dtype=float)), g)
    chunk = nvls_chunk_bytes(size, channels, heads, nodes)
    largest = multi.where(lambda: nvls_largest_chunk_bytes(nodes), NVLS_CHUNK_BYTES)
    per_channel = size / channels
    loop = np.minimum(heads * chunk, per_channel)
    if _any_finite(fitted_fill):
        loop = np.where(np.isfinite(fitted_fill), np.minimum(fitted_fill, per_channel), loop)
    return loop * (2e-3 * channels) / nvls_alg + per_channel / heads * (1.0 / chunk - 1.0 / largest) * step_us


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
                    algorithm="auto", protocol="auto", overhead_us=0.0, fill_bytes=np.nan,
                    simple_hop_us=None, ll128_hop_us=None, ll_hop_us=None, ll128_efficiency=np.nan,
                    tree_efficiency=np.nan, ll_max_gb_per_s=np.inf, architecture=None,
                    net_overhead_us=NET_OVERHEAD_US["intel"], time_only=False):
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
        (pipelined store-and-forward: the fill costs hops × min(fill, S / channels) / per-channel bandwidth).
        NVLS fills its in-node stages with NCCL's own loop (:func:`nvls_chunk_bytes` per head) where it is NaN
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
    (indices into :data:`ALGORITHMS` and :data:`PROTOCOLS`); ``time_only``: ``time_us`` alone (the engine's step
    reads no more).
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
    fitted_fill = fill_bytes  # NaN where NCCL's own (the NVLS loop's fill is NCCL's loop there)
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
        # the in-node chain's algorithm bandwidth (a lone GPU, factor 0, has no chain: not divided by)
        intra_alg = group.where(lambda: intra / group_factor, big,
                                lambda: np.where(group.mask, intra / np.where(group.mask, group_factor, 1.0), big))
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
            nvls_alg = np.where(has_nvls, np.minimum(nvls / np.where(has_nvls, group_factor, 1.0), p2p_intra), np.nan)
            nvls_alg = np.minimum(nvls_alg, net_alg)
            # NVLSTree's network hop is its own entry of tuning.cc, not the tree's; a fitted Simple hop replaces both
            nvls_tree_net = NVLS_TREE_NET_HOP_US + net_hop_shift
            if simple_hop_us is not None:
                nvls_tree_net = np.where(np.isfinite(np.asarray(simple_hop_us, dtype=float)), net_tree[2], nvls_tree_net)
            if limits is not None and multi.any:  # NVLSTree's per-channel limit, on its bus bandwidth
                nvls_alg = np.where(multi.mask, np.minimum(nvls_alg, nvls_bus_cap / f), nvls_alg)
            lat_n = (NVLS_BASE_US + np.where(multi.mask, 2.0 * depth * nvls_tree_net, 0.0)
                     + 2.0 * depth * fill / (nvls_alg / channels) * 1e-3  # the network tree's hops
                     + _nvls_in_node_us(S, g, N, multi, nics_per_node, nvls_alg, nvl_ring[2], fitted_fill, architecture))
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
    t_us = flat.min(axis=0) + overhead_us  # the fastest (NaN where any is, as argmin below picks it)
    if time_only:
        return dict(time_us=t_us)
    best = np.argmin(flat, axis=0)
    algbw = S / (t_us * 1e-6) / 1e9
    algorithm_row, protocol_row = np.divmod(best, len(proto_ids))
    return dict(time_us=t_us, algbw_gb_per_s=algbw, busbw_gb_per_s=algbw * f,
                algorithm=algos[algorithm_row], protocol=proto_ids[protocol_row])
