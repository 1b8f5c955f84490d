"""The fabric seen by a step: switch tree, loaded round trip, bandwidth caps and leaf-uplink congestion.

:func:`network_state` (levels, path latency, loaded round trip, the congestion inputs) and
:func:`inter_bandwidths` (a node's bandwidth: ideal, with loss recovery, with the host-CPU cap) for every fabric
and point; :func:`network_for` keeps them for a session's repeated sweeps. :func:`congestion_slowdown` turns a
plan's placement into the slowdown of its traffic that crosses the leaf uplinks; :func:`nccl_inputs` gives the
compared fabrics as inputs of the collective model.
"""

from __future__ import annotations

import numpy as np

from . import catalog, topology
from .arrays import at_shape, cut_constant_points, one_value
from .collectives import DDP_BUCKET_BYTES, NCCL_NET_STEP_SW_US
from .nccl_tuning import CHANNELS_PER_NIC, SWITCH_HOP_US, extra_tier_latency_us, gpu_ll_max_bus_gb_per_s, \
    net_overhead_us, window_cap_gb_per_s
from .inputs import Inputs, build_inputs
from .scenario import Scenario
from .transport import TRANSPORT_CODE, cpu_cap_gbps, loss_efficiency


def network_state(pt, fab):
    """What the fabric's switch tree adds (arrays broadcasting to (F, N)): levels, path latency, loaded RTT.

    ``rtt_us``: twice the one-way latency of the longest path (the fabric's latency plus
    :func:`~model.nccl_tuning.extra_tier_latency_us`) plus the queueing of a loaded path
    (:func:`~model.topology.queueing_us` of a link busy with a collective) — the round trip loss
    recovery and the window wait on. ``leaf``: :func:`~model.topology.leaf_geometry`; ``flows``: the
    flows hashed per NIC link: NCCL's channels per NIC × the flows of one connection (TCP sockets, RDMA queue
    pairs); ``fragmented``: the job's placement (``topology.placement``); ``tree``: the whole
    :func:`~model.topology.fat_tree` the levels come from (the fabric counts read it too); ``congestion``:
    :func:`congestion_inputs` (the plan search and the outputs read it).
    """
    tree = topology.fat_tree(pt["nodes"] * fab["nics_per_node"], fab["switch_radix"], pt["oversubscription"])
    levels = tree["levels"]
    tcp_like = (fab["transport"] == TRANSPORT_CODE["tcp"]) | (fab["transport"] == TRANSPORT_CODE["iwarp"])
    packet = np.where(tcp_like, fab["mss_bytes"], fab["mtu_bytes"])
    hop_us = np.where(fab["transport"] == TRANSPORT_CODE["infiniband"], SWITCH_HOP_US["infiniband"],
                      SWITCH_HOP_US["roce"])
    one_way_us = fab["latency_us"] + extra_tier_latency_us(levels, hop_us)
    queue_us = topology.queueing_us(levels, packet, fab["link_gbps"], topology.COLLECTIVE_LINK_LOAD)
    net = dict(levels=levels, one_way_us=one_way_us, rtt_us=2.0 * one_way_us + queue_us,
               leaf=topology.leaf_geometry(pt, fab, levels),
               flows=CHANNELS_PER_NIC * np.where(fab["transport"] == TRANSPORT_CODE["tcp"],
                                                 fab["sockets_per_connection"], fab["qps_per_connection"]),
               adaptive=fab["adaptive_routing"] > 0, tree=tree, fragmented=pt.get("fragmented", 0.0))
    net["congestion"] = congestion_inputs(net)
    return net


def inter_bandwidths(pt, fab, net):
    """Inter-node bandwidth per node [B/s]: ideal, with loss recovery, with loss and CPU cap.

    Ideal: line rate × achievable fraction, capped by the window NCCL keeps in flight over the loaded
    round trip. Loss recovery waits on every NIC link of the cluster (a collective goes at its slowest
    link); one link carries about twice a gradient bucket over the node's NICs per collective.
    """
    line_gbps = fab["link_gbps"] * fab["nics_per_node"]
    # per NIC: what the transport achieves, capped by the NIC's PCIe slot and by NCCL's channel window over the
    # loaded round trip (model.nccl_tuning)
    node_cap_gbps = 8.0 * np.minimum(pt["pcie_gb_per_s"], window_cap_gb_per_s(net["rtt_us"])) * fab["nics_per_node"]
    ideal = np.minimum(line_gbps * fab["achievable_fraction"], node_cap_gbps)
    # loss recovery is charged against the time a link moves data at the rate it reaches without loss
    # flows per NCCL connection: TCP's sockets, iWARP's queue pairs
    per_connection = np.where(fab["transport"] == TRANSPORT_CODE["tcp"], fab["sockets_per_connection"],
                              fab["qps_per_connection"])
    eta = loss_efficiency(fab["transport"], fab["loss_recovery"], ideal / fab["nics_per_node"], net["rtt_us"],
                          fab["loss_rate"], fab["mss_bytes"], fab["mtu_bytes"], per_connection, fab["min_rto_ms"],
                          links=pt["nodes"] * fab["nics_per_node"],
                          message_bytes=2.0 * DDP_BUCKET_BYTES / fab["nics_per_node"],
                          nics_per_node=fab["nics_per_node"])
    lossy = ideal * eta
    cap = cpu_cap_gbps(pt["host_cores"], pt["cpu_for_network_fraction"], fab["cpu_gbps_per_core"])
    final = np.minimum(lossy, cap)
    to_bytes = 1e9 / 8.0
    return ideal * to_bytes, lossy * to_bytes, final * to_bytes, eta


# the point inputs the network state and the node bandwidths read (from the cluster and topology sections)
NETWORK_POINT_KEYS = ("nodes", "oversubscription", "pcie_gb_per_s", "host_cores", "cpu_for_network_fraction",
                      "fragmented")
# the last network state and bandwidths with their Inputs.network_key: a sweep along a model, batch, reliability or
# money input, and the point beside it, leave them alone from call to call
_LAST_NETWORK = [(None, None)]


def network_for(inp: Inputs):
    """:func:`network_state` and :func:`inter_bandwidths` of ``inp``, kept for the last ``inp.network_key``.

    They read only :data:`NETWORK_POINT_KEYS` (handed to them alone) and the fabric arrays, which the key fixes (its
    sections compared by value: a scenario changed elsewhere, as a model-size slider changes it, rebuilds them).
    Kept ones are handed out as copies: their arrays become outputs, which their receiver owns. A point input the
    same at every point (all of them along a model, batch or money sweep) is cut to one point: the switch tree,
    the loaded round trip and the loss recovery are then computed once per fabric, not once per point as well.
    """
    pt = {k: cut_constant_points(inp.point[k], 0) for k in NETWORK_POINT_KEYS}
    key = inp.network_key
    held_key, held = _LAST_NETWORK[0]
    if key is None or held_key is None or not (all(a is b or a == b for a, b in zip(key[:3], held_key[:3]))
                                               and key[3:] == held_key[3:]):
        net = network_state(pt, inp.fabric)
        held = (net, inter_bandwidths(pt, inp.fabric, net))
        if key is None:
            return held
        _LAST_NETWORK[0] = (key, held)
    return _copied(held)


def _copied(tree):
    """A copy of the arrays of nested dicts and tuples (other leaves as they are)."""
    if isinstance(tree, dict):
        return {k: _copied(x) for k, x in tree.items()}
    if isinstance(tree, tuple):
        return tuple(_copied(x) for x in tree)
    return tree.copy() if isinstance(tree, np.ndarray) else tree


def inter_step_latency_s(net):
    """Latency of one inter-node step of a collective [s]: the longest path's one-way latency (the fabric's
    plus the further switch tiers) plus NCCL's software step. ``net``: :func:`network_state`."""
    return (net["one_way_us"] + NCCL_NET_STEP_SW_US) * 1e-6


def congestion_inputs(net):
    """The fabric side of the leaf-uplink congestion, as arrays of shape (F, N): the nodes under a leaf,
    :func:`~model.topology.uplink_load_terms` ``mean`` and ``spread``, and the job's placement (``fragmented``)."""
    leaf = net["leaf"]
    mean, spread = topology.uplink_load_terms(leaf["nodes_per_leaf"], leaf["uplinks"], net["flows"], net["adaptive"])
    fragmented = at_shape(np.asarray(net["fragmented"], dtype=float), np.shape(mean))
    return dict(nodes_per_leaf=leaf["nodes_per_leaf"], mean=mean, spread=spread, fragmented=fragmented)


CONGESTION_PLAN_KEYS = ("n_dp", "crosses", "stage_nodes", "stages", "a2a_nodes")  # what the congestion reads
CONGESTION_KINDS = ("dp", "pp", "ep")  # data-parallel reduction, pipeline sends, expert all-to-all


def congestion_slowdown(cs, congestion, index=None, trailing=0):
    """How much the leaf uplinks slow each plan in ``cs`` under :func:`congestion_inputs` ``congestion``.

    The slowdowns of the traffic of :data:`CONGESTION_KINDS`, each from the share of its bytes its own graph sends
    across the leaf uplinks at the job's placement — the data-parallel reduction, NCCL rings over the group's
    nodes (:func:`~model.topology.ring_crossing_share`), the pipeline sends
    (:func:`~model.topology.pp_crossing_share`) and the expert-parallel all-to-all
    (:func:`~model.topology.all_to_all_crossing_share`) — as a tuple
    of arrays of one shape (or the scalar 1.0 where every NIC is under one switch). ``index``: the point of each
    pair, to read (F, N) congestion arrays at the pairs, or a (fabric, point) pair of index arrays (one value per entry);
    ``trailing``: axes added after the congestion arrays' own, for the pair (and stage) axes of ``cs`` to
    broadcast against.
    """
    if not np.isfinite(congestion["nodes_per_leaf"]).any():
        return 1.0  # every NIC on one switch: nothing crosses an uplink
    at = congestion
    if isinstance(index, tuple):  # (fabric, point) of each entry
        at = {k: np.asarray(x)[index[0], 0 if np.shape(x)[1] == 1 else index[1]] for k, x in at.items()}
    elif index is not None:
        at = {k: (x if np.shape(x)[1] == 1 else x[:, index]) for k, x in at.items()}
    if trailing:
        at = {k: np.asarray(x)[(...,) + (None,) * trailing] for k, x in at.items()}
    slow = [np.asarray(_slowdown_at(cs, at, k), dtype=float) for k in CONGESTION_KINDS]
    shape = np.broadcast_shapes(*(x.shape for x in slow))
    return tuple(at_shape(x, shape) for x in slow)  # one shape, as views where broadcast (not stacked)


def _slowdown_at(plans, at, kind):
    """One of :data:`CONGESTION_KINDS` of :func:`congestion_slowdown` for the plans ``plans`` against congestion
    arrays ``at`` that broadcast with them."""
    leaf, fragmented = at["nodes_per_leaf"], at["fragmented"]
    if kind == "ep" and one_value(plans["a2a_nodes"], 1.0) and (np.asarray(leaf) >= 1.0).all():
        # no expert all-to-all across nodes: nothing crosses (share 0 of finite load terms), exactly 1
        return 1.0
    if kind == "pp":
        share = np.where(plans["crosses"],
                         np.where(fragmented > 0, 1.0,
                                  topology.pp_crossing_share(plans["stage_nodes"], plans["stages"], leaf)), 0.0)
    elif kind == "dp":
        share = topology.ring_crossing_share(plans["n_dp"], leaf, fragmented)
    else:
        share = topology.all_to_all_crossing_share(plans["a2a_nodes"], leaf, fragmented)
    return topology.slowdown_from_load(share, at["mean"], at["spread"])


def split_slowdown(slow):
    """The slowdowns of :func:`congestion_slowdown`, one per :data:`CONGESTION_KINDS`."""
    if isinstance(slow, tuple):
        return slow
    return (slow,) * len(CONGESTION_KINDS) if np.ndim(slow) == 0 else slow


def collective_slowdown(collective, nodes, congestion):
    """How much the leaf uplinks slow one collective over ``nodes`` nodes [≥ 1], per fabric and point.

    The share of its bytes that crosses the uplinks from its own graph at the job's placement: an all-to-all
    (:func:`~model.topology.all_to_all_crossing_share`), every other collective as NCCL's rings over the
    nodes (:func:`~model.topology.ring_crossing_share`; send/recv as nccl-tests runs it, a shift along the
    ring). ``congestion``: :func:`congestion_inputs`, arrays of shape (F, N) that ``nodes`` broadcasts with; the
    same load terms as the training step's.
    """
    at = {k: np.asarray(x, dtype=float) for k, x in congestion.items()}
    leaf = at["nodes_per_leaf"]
    if collective == "all_to_all":
        share = topology.all_to_all_crossing_share(nodes, leaf, at["fragmented"])
    else:
        share = topology.ring_crossing_share(nodes, leaf, at["fragmented"])
    return np.where(np.isfinite(leaf), topology.slowdown_from_load(share, at["mean"], at["spread"]), 1.0)


def nccl_inputs(scenario: Scenario, collective: str | None = None, nodes=None) -> dict:
    """The scenario's compared fabrics as inputs of :func:`model.nccl_model.nccl_collective` (arrays of shape (F,)).

    Per NIC: what the fabric really delivers (achievable fraction, loss recovery, host-CPU share, PCIe and window
    caps: the engine's effective node bandwidth over its NICs), slowed for ``collective`` (a model name such as
    ``"all_to_all"``) by the leaf uplinks it crosses (:func:`collective_slowdown`, the training step's
    congestion model; ``congestion_slowdown`` in the result); per network hop: the fabric's one-way latency plus
    its extra switch tiers. Also ``names``, ``labels`` and ``transports`` of the fabrics.

    ``nodes``: node counts (K,) to evaluate at instead of ``cluster.nodes`` (the fabric's tree, round trip, loss
    recovery and congestion at each); then the per-fabric arrays have shape (F, K) and ``nodes`` and
    ``ll_max_gb_per_s`` shape (K,), one pass for every node count.
    """
    inp = build_inputs(scenario) if nodes is None else build_inputs(scenario, "cluster.nodes", nodes)
    pt, fab = inp.point, inp.fabric
    g = catalog.gpu(scenario.cluster.gpu)
    net = network_state(pt, fab)
    bw_node = inter_bandwidths(pt, fab, net)[2]
    shape = bw_node.shape
    slow = (np.broadcast_to(collective_slowdown(collective, pt["nodes"], net["congestion"]), shape)
            if collective is not None else np.ones(shape))
    at = (lambda x: np.broadcast_to(x, shape)[:, 0]) if nodes is None else (lambda x: np.broadcast_to(x, shape))
    point = (lambda x: float(np.asarray(x)[0])) if nodes is None else (lambda x: np.asarray(x, dtype=float))
    nics = at(fab["nics_per_node"])
    sharp = np.array([bool(r.values["sharp"]) for r in inp.fabrics])  # resolved: the scenario's, else the profile's
    return dict(
        names=tuple(r.name for r in inp.fabrics), labels=tuple(r.label for r in inp.fabrics),
        transports=tuple(r.transport for r in inp.fabrics),
        ranks_per_node=float(pt["gpus_per_node"][0]), nodes=point(pt["nodes"]),
        nic_gb_per_s=at(bw_node / slow) / nics / 1e9, nics_per_node=nics, net_latency_us=at(net["one_way_us"]),
        intra_busbw_gb_per_s=float(pt["intra_busbw"][0]) / 1e9, intra_p2p_gb_per_s=float(pt["intra_p2p_bw"][0]) / 1e9,
        nvls_busbw_gb_per_s=float(g.get("nvls_busbw_gb_per_s", 0.0)) if pt["gpus_per_node"][0] > 1 else 0.0,
        sharp=sharp if nodes is None else sharp[:, None], simple_hop_us=at(fab["nccl_simple_hop_us"]),
        ll128_hop_us=at(fab["nccl_ll128_hop_us"]), ll_hop_us=at(fab["nccl_ll_hop_us"]),
        fill_bytes=at(fab["nccl_fill_bytes"]), ll128_efficiency=at(fab["nccl_ll128_efficiency"]),
        tree_efficiency=at(fab["nccl_tree_efficiency"]),
        ll_max_gb_per_s=point(gpu_ll_max_bus_gb_per_s(g, pt["nodes"])), congestion_slowdown=at(slow),
        architecture=g.get("architecture"), net_overhead_us=net_overhead_us(g.get("host_cpu_vendor")),
    )


def clear_cache() -> None:
    """Forget the last network state kept (:func:`~model.plan_search.clear_plan_cache` calls this)."""
    _LAST_NETWORK[0] = (None, None)
