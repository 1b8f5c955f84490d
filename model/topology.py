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


def outputs(pt: dict, fab: dict) -> dict:
    """Fabric counts per fabric and point: arrays that broadcast to (F, N) (Monte-Carlo: (F, N, 1)).

    Keys: ``nics``, ``switches``, ``links``, ``optics`` and ``fat_tree``
    (a dict of ``levels``, ``leaf``, ``spine``, ``core``).
    """
    nics = pt["nodes"] * fab["nics_per_node"]
    tree = fat_tree(nics, fab["switch_radix"], pt["oversubscription"])
    optics = optics_count(nics, tree["switch_links"], pt["nic_links_optical"] > 0)
    return dict(nics=nics, switches=tree["switches"], links=tree["links"], optics=optics,
                fat_tree={k: tree[k] for k in ("levels", "leaf", "spine", "core")})
