"""Fat-tree sizing: switches, links and optics for N nodes × NICs per node.

Each NIC port is one endpoint. With switch radix ``k`` and leaf
oversubscription ``o`` (downlinks : uplinks), a leaf has ``d = ⌊k·o/(1+o)⌋``
ports down and ``u = k − d`` up:

- 1 level: ``E ≤ k`` endpoints on one switch;
- 2 levels: ``⌈E/d⌉`` leaves, their ``U = leaves·u`` uplinks on ``⌈U/k⌉``
  spines; fits while leaves ≤ k, i.e. ``E ≤ k·d`` (= k²/2 non-blocking);
- 3 levels: leaves as above, a non-blocking aggregation layer of ``⌈U/(k/2)⌉``
  switches and ``⌈U₂/k⌉`` core switches above it (= 5E/k switches and 3E links
  when non-blocking; capacity k³/4). Larger fabrics are sized as 3 levels.

Links: one per endpoint plus one per uplink at each level. Optics: two
transceivers per switch-to-switch link, and two per NIC link when NIC links
are optical.

Congestion at scale (:func:`dp_slowdown`, :func:`pp_slowdown`, :func:`queueing_us`):

- **Where the plan puts data and pipeline parallelism.** Ranks are placed in
  Megatron-LM's order (``tp-cp-ep-dp-pp``, ``RankGenerator`` in
  ``megatron/core/parallel_state.py``): tensor parallelism innermost, inside a
  node, then context/expert, then data parallelism, pipeline parallelism
  outermost. A pipeline stage is then the ``t·c·d`` consecutive GPUs of its
  tensor, context and data-parallel ranks: a data-parallel group sits on
  consecutive nodes, and a pipeline neighbour is a stage, ``δ = t·c·d/GPUs per
  node`` nodes, away. Rail-optimised wiring (NVIDIA DGX SuperPOD reference
  architecture: NIC ``i`` of every node on rail leaf ``i``) keeps traffic
  between GPUs of the same local rank under that rail's leaf while both nodes
  sit under it; traffic between other local ranks first moves over NVLink to
  the GPU on the destination's rail (NCCL's PXN, NCCL 2.12 release notes), so
  all inter-node traffic is rail traffic. A leaf of ``d`` down ports serves
  ``d`` consecutive nodes. A data-parallel group of ``n`` nodes keeps
  ``min(n, d)`` of them under one leaf; the rest of its traffic crosses the
  leaf's uplinks (peers spread evenly: NCCL's trees, and rings whose order does
  not follow the leaves). Unless the whole pipeline sits under one leaf,
  ``min(δ, d)`` of a leaf's nodes have their pipeline neighbour under another
  leaf: their sends cross the uplinks (a stage sends forward or backward at a
  time, so one link's worth per crossing node). An expert-parallel all-to-all
  group (``t·c·e`` consecutive GPUs) spreads its peers over its nodes as a
  data-parallel group does; context-parallel rings span at most a few adjacent
  nodes and are not slowed. A pipeline that fits inside a
  node stays there (the engine then places replicas side by side, as
  Megatron-LM's ``tp-pp-dp`` mapping does), and sends nothing over the fabric. Above
  the leaves the tree is non-blocking (as :func:`fat_tree` sizes it), so
  oversubscription acts at the leaf tier only.
- **Oversubscription** ``o`` divides the uplink capacity: the crossing traffic
  of ``d`` ports shares ``d/o`` uplinks (N:1 at a tier divides the
  bandwidth of traffic crossing it by up to N: Gangidi et al., "RDMA over Ethernet for
  Distributed AI Training at Meta Scale", SIGCOMM 2024).
- **ECMP imbalance.** Each connection is hashed onto one uplink: ``m`` flows on
  ``u`` uplinks leave the busiest with about ``m/u + √(2·(m/u)·ln u)`` flows
  (balls into bins: M. Raab, A. Steger, "Balls into bins — a simple and tight
  analysis", RANDOM 1998), and a collective waits for the flows on it. More
  queue pairs per connection (``NCCL_IB_QPS_PER_CONNECTION``) or TCP sockets
  make more, smaller flows; Meta needed both QP scaling and enhanced ECMP for
  its RoCE training fabric (Gangidi et al., "RDMA over Ethernet for
  Distributed AI Training at Meta Scale", SIGCOMM 2024; Alibaba HPN, Qian et
  al., SIGCOMM 2024, for the same reason). Adaptive routing (InfiniBand,
  NVIDIA Spectrum-X) spreads packets over the uplinks: no imbalance.
- **Latency grows with switch tiers**: a path through an ``L``-level tree
  crosses ``2L−1`` switches; the fabric's latency includes one, each further
  switch adds :data:`model.nccl_tuning.SWITCH_HOP_US` of the transport
  (:func:`model.nccl_tuning.extra_tier_latency_us`). Under load each switch queues a packet for
  ``t_pkt·ρ/(2(1−ρ))`` (M/D/1, L. Kleinrock, *Queueing Systems* vol. 1, 1975)
  at the link's load ``ρ`` (:data:`COLLECTIVE_LINK_LOAD`) — the round trip that loss recovery waits on.

References
----------
1. M. Al-Fares, A. Loukissas, A. Vahdat, "A scalable, commodity data center
   network architecture", SIGCOMM 2008 (k-ary fat tree).
2. NVIDIA DGX SuperPOD reference architectures: H100, 4 scalable units,
   1,024 GPU ports → 32 leaf + 16 spine = 48 switches; B200, 16 SUs,
   4,096 GPUs → 128 leaf + 128 spine + 64 core = 320 switches, 3 × 4,096
   cables.
"""

from __future__ import annotations

import numpy as np

MAX_LINK_LOAD = 0.99  # keeps the M/D/1 queue finite at a fully loaded link
COLLECTIVE_LINK_LOAD = 0.9  # load of a link while a bulk collective runs (guess): 4.5 packets queued per switch


def leaf_ports(radix, oversubscription=1.0):
    """Leaf ports down and up for a downlink : uplink ratio ``o`` [-]."""
    k = np.asarray(radix, dtype=float)
    down = np.floor(k * np.asarray(oversubscription, dtype=float) / (1.0 + oversubscription))
    return down, k - down


def fat_tree(endpoints, radix, oversubscription=1.0):
    """Switch and link counts of a fat tree (dict of arrays) [1, 2].

    Parameters
    ----------
    endpoints : array_like
        NIC ports to connect [-].
    radix : array_like
        Ports per switch [-].
    oversubscription : array_like
        Leaf downlinks : uplinks, ≥ 1 [-].

    Returns
    -------
    dict with ``levels``, ``leaf``, ``spine``, ``core``, ``switches``,
    ``links`` (all cables, NIC links included) and ``switch_links``.
    """
    e = np.asarray(endpoints, dtype=float)
    k = np.asarray(radix, dtype=float)
    down, up = leaf_ports(k, oversubscription)
    levels = np.where(e <= k, 1.0, np.where(e <= k * down, 2.0, 3.0))
    leaves = np.ceil(e / down)
    uplinks = leaves * up
    two = levels == 2.0
    three = levels == 3.0
    aggregation = np.ceil(uplinks / (k / 2.0))
    uplinks2 = aggregation * (k / 2.0)
    leaf = np.where(levels == 1.0, np.where(e > 0, 1.0, 0.0), leaves)
    spine = np.where(two, np.ceil(uplinks / k), np.where(three, aggregation, 0.0))
    core = np.where(three, np.ceil(uplinks2 / k), 0.0)
    switch_links = np.where(two, uplinks, np.where(three, uplinks + uplinks2, 0.0))
    return dict(levels=levels, leaf=leaf, spine=spine, core=core, switches=leaf + spine + core,
                links=e + switch_links, switch_links=switch_links)


def optics_count(nic_links, switch_links, nic_links_optical=True):
    """Transceivers: two per switch-to-switch link, two per NIC link if optical [-]."""
    return 2.0 * np.asarray(switch_links, dtype=float) + np.where(nic_links_optical, 2.0, 0.0) * nic_links


def outputs(pt: dict, fab: dict, tree: dict | None = None) -> dict:
    """Fabric counts per fabric and point: arrays that broadcast to (F, N) (Monte-Carlo: (F, N, 1)).

    Keys: ``nics``, ``switches``, ``links``, ``optics`` and ``fat_tree``
    (a dict of ``levels``, ``leaf``, ``spine``, ``core``). ``tree``: :func:`fat_tree` of these NICs, if the
    caller has it (its levels are copied: the caller keeps its own).
    """
    nics = pt["nodes"] * fab["nics_per_node"]
    if tree is None:
        tree = fat_tree(nics, fab["switch_radix"], pt["oversubscription"])
    else:
        tree = dict(tree, levels=np.array(tree["levels"]))
    optics = optics_count(nics, tree["switch_links"], pt["nic_links_optical"] > 0)
    return dict(nics=nics, switches=tree["switches"], links=tree["links"], optics=optics,
                fat_tree={k: tree[k] for k in ("levels", "leaf", "spine", "core")})


def levels_for(pt: dict, fab: dict):
    """Switch levels of each fabric's tree at each point [-], shape (F, N)."""
    return fat_tree(pt["nodes"] * fab["nics_per_node"], fab["switch_radix"], pt["oversubscription"])["levels"]


def queueing_us(levels, packet_bytes, link_gbps, load):
    """One-way M/D/1 queueing over the ``2L−1`` switches of the longest path at link load ``ρ`` [µs]."""
    rho = np.minimum(np.asarray(load, dtype=float), MAX_LINK_LOAD)
    t_pkt_us = np.asarray(packet_bytes, dtype=float) * 8.0 / (np.asarray(link_gbps, dtype=float) * 1e3)
    return (2.0 * np.asarray(levels, dtype=float) - 1.0) * t_pkt_us * rho / (2.0 * (1.0 - rho))


def leaf_geometry(pt: dict, fab: dict, levels=None) -> dict:
    """Per fabric and point: the nodes one rail leaf serves and its uplinks (arrays broadcasting to (F, N)).

    ``nodes_per_leaf`` is infinite when every NIC sits on one switch (no uplinks to cross).
    """
    levels = levels_for(pt, fab) if levels is None else levels
    down, up = leaf_ports(fab["switch_radix"], pt["oversubscription"])
    return dict(nodes_per_leaf=np.where(levels <= 1.0, np.inf, down), uplinks=up)


def ecmp_busiest_flows(flows, uplinks):
    """Expected flows on the busiest of ``u`` uplinks when ``m`` flows are hashed onto them [-] (Raab & Steger)."""
    m = np.asarray(flows, dtype=float)
    u = np.maximum(np.asarray(uplinks, dtype=float), 1.0)
    mean = m / u
    return mean + np.sqrt(2.0 * mean * np.log(u))


def uplink_load_terms(nodes_per_leaf, uplinks, flows_per_link, adaptive):
    """The busiest uplink's load per crossing share: ``(mean, spread)`` [-].

    With a share ``f`` of a leaf's ``d`` ports sending across its ``u`` uplinks, ``q`` flows per NIC link,
    the busiest uplink carries ``f·mean + √(f·spread)`` links' worth of traffic: ``mean = d/u`` (≈ the
    oversubscription) and ``spread = 2·mean·ln(u)/q``, :func:`ecmp_busiest_flows` of the ``d·f·q`` flows
    over ``q``; ``spread = 0`` under adaptive routing. Leaves that hold every NIC (``d`` infinite): 0, 0.
    """
    q = np.maximum(np.asarray(flows_per_link, dtype=float), 1.0)
    u = np.maximum(np.asarray(uplinks, dtype=float), 1.0)
    mean = np.where(np.isfinite(nodes_per_leaf), nodes_per_leaf, 0.0) / u
    return mean, np.where(adaptive, 0.0, 2.0 * mean * np.log(u) / q)


def slowdown_from_load(crossing_share, mean, spread):
    """How much slower traffic crossing the uplinks goes than its NIC links allow [≥ 1]: ``max(1, busiest
    uplink's load)`` for the share of ports crossing and :func:`uplink_load_terms` ``mean``, ``spread``."""
    return np.maximum(1.0, crossing_share * mean + np.sqrt(crossing_share * spread))


def crossing_slowdown(crossing_share, nodes_per_leaf, uplinks, flows_per_link, adaptive):
    """How much slower traffic crossing a leaf's uplinks goes than its NIC links allow [≥ 1].

    Parameters
    ----------
    crossing_share : share of a leaf's ports whose traffic leaves the leaf [-]
    nodes_per_leaf, uplinks : from :func:`leaf_geometry` (oversubscription ``o`` ≈ leaf ports / uplinks)
    flows_per_link : connections hashed per NIC link (TCP sockets, RDMA queue pairs) [-]
    adaptive : adaptive routing (true: no hashing imbalance) [bool]

    The busiest uplink carries ``load = busiest flows / flows per link`` links' worth
    of traffic; with ``d`` leaf ports, a share ``f`` of them crossing and
    ``u = d/o`` uplinks, the mean is ``o·f``. Slowdown ``max(1, load)``.
    """
    return slowdown_from_load(crossing_share, *uplink_load_terms(nodes_per_leaf, uplinks, flows_per_link, adaptive))


def ring_crossing_share(group_nodes, nodes_per_leaf, fragmented=False):
    """Share of a leaf's ports whose ring traffic leaves the leaf, a ring (one per NCCL channel) over
    ``group_nodes`` nodes [-].

    Contiguous (the group's nodes fill whole leaves in rank order, as NCCL orders a ring by node): each leaf
    the ring passes holds ``d`` of its nodes and sends one edge up, ``1/d``, when the ring spans more than one
    leaf; 0 inside one leaf. Fragmented (no two nodes share a leaf): every inter-node edge crosses, 1.
    """
    n = np.maximum(np.asarray(group_nodes, dtype=float), 1.0)
    d = np.asarray(nodes_per_leaf, dtype=float)
    contiguous = np.where(n > d, 1.0 / np.maximum(d, 1.0), 0.0)
    return np.where(np.asarray(fragmented) > 0, np.where(n > 1.0, 1.0, 0.0), contiguous)


def all_to_all_crossing_share(group_nodes, nodes_per_leaf, fragmented=False):
    """Share of a group member's all-to-all peers under another leaf [-]: :func:`dp_crossing_share` for a
    contiguous group (``1 − d/n``), every inter-node peer for a fragmented one (1)."""
    n = np.asarray(group_nodes, dtype=float)
    return np.where(np.asarray(fragmented) > 0, np.where(n > 1.0, 1.0, 0.0), dp_crossing_share(n, nodes_per_leaf))


def dp_crossing_share(dp_nodes, nodes_per_leaf):
    """Share of a data-parallel group member's peers under another leaf, the group on ``dp_nodes``
    consecutive nodes: ``1 − min(n, d)/n`` [-]."""
    n = np.maximum(np.asarray(dp_nodes, dtype=float), 1.0)
    return 1.0 - np.minimum(nodes_per_leaf, n) / n


def pp_crossing_share(stage_nodes, stages, nodes_per_leaf):
    """Share of a leaf's nodes whose pipeline neighbour, ``δ = stage_nodes`` nodes away, is under another leaf [-].

    ``stages`` stages span ``stages·δ`` consecutive nodes: when they all sit under one leaf (``d`` nodes)
    nothing crosses; otherwise ``min(δ, d)/d`` (a stage smaller than a node crosses only between adjacent
    nodes: ``δ`` counts as 1).
    """
    delta = np.maximum(np.asarray(stage_nodes, dtype=float), 1.0)
    spread = delta * np.asarray(stages, dtype=float) > nodes_per_leaf
    return np.where(spread, np.minimum(delta, nodes_per_leaf) / nodes_per_leaf, 0.0)


def dp_slowdown(dp_nodes, nodes_per_leaf, uplinks, flows_per_link, adaptive):
    """:func:`crossing_slowdown` of a data-parallel group on ``dp_nodes`` consecutive nodes
    (:func:`dp_crossing_share`) [≥ 1]."""
    return crossing_slowdown(dp_crossing_share(dp_nodes, nodes_per_leaf), nodes_per_leaf, uplinks, flows_per_link,
                             adaptive)


def pp_slowdown(stage_nodes, stages, nodes_per_leaf, uplinks, flows_per_link, adaptive):
    """:func:`crossing_slowdown` of the pipeline sends between stages ``stage_nodes`` apart
    (:func:`pp_crossing_share`) [≥ 1]."""
    return crossing_slowdown(pp_crossing_share(stage_nodes, stages, nodes_per_leaf), nodes_per_leaf, uplinks,
                             flows_per_link, adaptive)
