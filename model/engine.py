"""The engine: step time, utilisation and training days for every fabric at once.

Data flow: a :class:`~model.scenario.Scenario` is resolved into arrays — one
value per sweep point for cluster and workload inputs, one row per fabric for
fabric inputs — then every candidate parallel plan is evaluated for every
fabric and point in one pass of numpy broadcasting (axes: plan × fabric ×
point), the fastest plan that fits in memory is kept per fabric and point, and
the step-time breakdown is computed at that plan.

Step time of one iteration (Narayanan et al. 2021 §3; Korthikanti et al. 2022):

``step = m·(v·T_chunk + T_logits) + (p−1)·T_chunk + DP_exposed + T_optimizer``

with ``T_chunk = L_c·(T_fwd + T_bwd + T_recompute + TP comm) + 2·T_p2p`` the
time of one micro-batch through one model chunk of ``L_c = ⌈l/(p·v)⌉`` layers.
The second term is the 1F1B bubble ``(p−1)/(v·m)`` of the ideal time.

Loss and CPU are charged separately: the same step is computed with the
fabric's ideal bandwidth, with loss recovery, and with the host-CPU cap; the
differences are the "loss recovery" and "cpu" parts of the breakdown.
"""

from __future__ import annotations

import collections
import functools
import math
import threading
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import catalog, economics, reliability, topology
from .arrays import cut_constant_points, where_uniform
from .collectives import DDP_BUCKET_BYTES, NCCL_BASE_US, NCCL_NET_STEP_SW_US, NCCL_NVLINK_STEP_US, SWITCH_HOP_US, \
    bus_factor, collective_time, extra_tier_latency_us, in_node_collective_time, pcie_cap_gb_per_s, ring_steps, \
    tree_steps, window_cap_gb_per_s
from .compute import BYTES_BF16, hardware_flops_per_iteration, layer_times_forward, logits_time, \
    model_flops_per_iteration, optimizer_time, params_from_architecture, recompute_code
from .errors import ScenarioError, suggest
from .memory import USABLE_MEMORY_FRACTION, memory_with_replicas_bytes, stage_memory_bytes, stage_params
from .scenario import FabricSpec, Scenario
from .transport import LOSS_RECOVERY_CODE, RDMA_TRANSPORTS, TRANSPORT_CODE, cpu_cap_gbps, cpu_cores_busy, \
    loss_efficiency

BREAKDOWN_KEYS = ("compute", "tp_comm", "pp_comm", "dp_comm", "bubble", "loss_recovery", "cpu", "optimizer")
BREAKDOWN_LABELS = {
    "compute": "Compute", "tp_comm": "Tensor-parallel comm", "pp_comm": "Pipeline comm",
    "dp_comm": "Data-parallel comm (exposed)", "bubble": "Pipeline bubble", "loss_recovery": "Loss recovery",
    "cpu": "Host CPU limit", "optimizer": "Optimizer step",
}

TP_CANDIDATES = (1, 2, 4, 8, 16)
PP_CANDIDATES = (1, 2, 4, 8, 16, 32, 64, 128, 256)
MB_CANDIDATES = (1, 2, 4)
V_CANDIDATES = (1, 2, 4)

GRAD_BYTES = BYTES_BF16  # gradients reduced in bf16

SWEEPABLE = {
    "cluster.nodes": int, "cluster.gpus_per_node": int, "cluster.host_cores": int,
    "cluster.cpu_for_network_fraction": float,
    "workload.params_b": float, "workload.seq_len": int, "workload.global_batch": int,
    "workload.train_tokens_b": float,
    "reliability.gpu_host_interruptions_per_1m_gpu_hours": float, "reliability.restart_min": float,
    "reliability.storage_gb_per_s": float, "reliability.checkpoint_interval_min": float,
    "topology.oversubscription": float,
    "economics.cny_per_usd": float, "economics.years": float, "economics.electricity_cny_per_kwh": float,
    "economics.electricity_usd_per_kwh": float, "economics.pue": float, "economics.duty_cycle": float,
    "economics.gpu_idle_power_fraction": float, "economics.server_price_usd": float,
    "economics.operations_usd_per_node_year": float, "economics.gpu_hour_usd": float,
}
FABRIC_SWEEPABLE = ("link_gbps", "nics_per_node", "latency_us", "loss_rate", "achievable_fraction", "min_rto_ms",
                    "cpu_gbps_per_core", "net_interruptions_per_1m_node_hours", "switch_radix", "switch_price_usd",
                    "nic_price_usd", "link_price_usd", "network_cost_per_node_cny")


# --------------------------------------------------------------------------
# architecture
# --------------------------------------------------------------------------

GPT3_ASPECT = 128.0  # hidden / layers of GPT-3 175B (12288 / 96), Brown et al. 2020 Table 2.1
HEAD_DIM = 128.0
HIDDEN_MULTIPLE = 1024.0  # 8 heads of 128: tensor parallelism up to 8 divides the heads


def derive_architecture(params_b, vocab):
    """Layers, hidden size and heads for a parameter count [-].

    Rule: GPT-3's aspect ratio ``h ≈ 128·l`` (Brown et al. 2020, Table 2.1,
    175B) and head dimension 128. ``h`` solves ``12·l·h² + V·h = P`` at that
    aspect, rounded to a multiple of 1024 (so the head count divides by 8 and
    tensor parallelism up to 8 is possible, as in published model families);
    ``l`` is then the whole number of layers closest to ``P``. Reproduces
    175B → 96 × 12288 with 96 heads.
    """
    P = np.asarray(params_b, dtype=float) * 1e9
    V = np.asarray(vocab, dtype=float)
    l0 = np.maximum(np.round(np.cbrt(P / (12.0 * GPT3_ASPECT**2))), 1.0)
    h = (-V + np.sqrt(V**2 + 48.0 * l0 * P)) / (24.0 * l0)
    h = np.maximum(np.round(h / HIDDEN_MULTIPLE) * HIDDEN_MULTIPLE, HIDDEN_MULTIPLE)
    l = np.maximum(np.round((P - V * h) / (12.0 * h**2)), 1.0)
    return l, h, h / HEAD_DIM


# --------------------------------------------------------------------------
# resolving a scenario into arrays
# --------------------------------------------------------------------------

@dataclass
class FabricRow:
    """One fabric, resolved: its profile values merged with the scenario's overrides."""
    name: str
    label: str
    transport: str
    values: dict
    sources: dict
    guesses: tuple


def resolve_fabrics(s: Scenario) -> list[FabricRow]:
    """The compared fabrics with every value resolved against the active profile set."""
    prof = catalog.profile_set(s.fabric.profile_set)
    custom = s.fabric.custom_dict()
    rows = []
    for name in s.fabric.fabrics:
        spec = custom.get(name, FabricSpec())
        if name in prof["fabrics"]:
            base = prof["fabrics"][name]
            if spec.transport is not None and spec.transport != base["transport"]:
                base = catalog.transport_profile(s.fabric.profile_set, spec.transport)
        else:
            base = catalog.transport_profile(s.fabric.profile_set, spec.transport)
        vals, srcs = {}, {}
        for key in catalog.FABRIC_FIELDS:
            user = getattr(spec, key)
            if user is not None:
                vals[key], srcs[key] = user, "scenario"
            elif key in base:
                vals[key], srcs[key] = base[key], f"{prof['name']} profile"
            else:
                vals[key], srcs[key] = catalog.FABRIC_DEFAULTS[key], "engine default (guess)"
        if vals["transport"] not in RDMA_TRANSPORTS and srcs["loss_recovery"] == "scenario":
            raise ScenarioError(f"fabric.custom.{name}.loss_recovery", vals["loss_recovery"],
                                "left out for a TCP transport (tcp, iwarp: TCP recovers by itself); go_back_n, "
                                "selective_repeat or link_retry apply to roce and infiniband")
        label = spec.label or (base.get("label", name) if name in prof["fabrics"] else name)
        guesses = tuple(k for k in base.get("guesses", ()) if srcs.get(k, "").endswith("profile"))
        rows.append(FabricRow(name, label, vals["transport"], vals, srcs, guesses))
    return rows


def _plan_key(s: Scenario):
    """The scenario's plan-search settings: mode, fixed degrees and micro-batch (part of the plan-cache key)."""
    return (s.parallel.resolved_mode, s.parallel.tp, s.parallel.pp, s.parallel.virtual_stages,
            s.workload.micro_batch)


@dataclass
class Inputs:
    """Arrays the physics runs on, in shapes that broadcast against each other.

    From :func:`build_inputs` (evaluate, sweep; the tornado's swing cases are its points): point arrays
    have shape (N,), fabric arrays (F, N). Monte-Carlo bands add a sample axis last and keep length 1 on
    the axes along which a value does not vary: point arrays (N or 1, 1), fabric arrays (F, N or 1, S or 1).
    ``n`` is the number of points N either way.
    """
    n: int
    point: dict
    fabric: dict
    fabrics: list


def _fabric_array(rows, key, n, gpn):
    """One fabric input as an (F, N) array: each fabric's value at every point."""
    values = [r.values[key] for r in rows]
    out = np.empty((len(rows), n))
    if key == "nics_per_node" and "per_gpu" in values:
        for i, v in enumerate(values):
            out[i] = gpn if v == "per_gpu" else float(v)
    else:
        out[:] = np.array(values, dtype=float)[:, None]
    return out


def build_inputs(s: Scenario, field: str | None = None, values=None) -> Inputs:
    """Resolve ``s`` into arrays, with ``field`` replaced by ``values`` if given."""
    values_arr = None if field is None else np.atleast_1d(np.asarray(values, dtype=float))
    n = 1 if values_arr is None else values_arr.size
    c, w, p = s.cluster, s.workload, s.parallel
    g = catalog.gpu(c.gpu)
    pt = {
        "nodes": float(c.nodes), "gpus_per_node": float(c.gpus_per_node),
        "host_cores": float(c.host_cores if c.host_cores is not None else g["host_cores"]),
        "cpu_for_network_fraction": float(c.cpu_for_network_fraction),
        "params_b": float(w.params_b), "seq_len": float(w.seq_len), "global_batch": float(w.global_batch),
        "train_tokens_b": float(w.train_tokens_b), "vocab": float(w.vocab),
    }
    pt.update(economics.point_inputs(s))
    rows = resolve_fabrics(s)
    fab_override = None
    if field is not None:
        if field in SWEEPABLE:
            key = field.split(".", 1)[1]
            if key == "host_cores" or SWEEPABLE[field] is int:
                if np.any(values_arr != np.round(values_arr)):
                    raise ScenarioError(field, values, "whole numbers")
            _check_point_values(field, values_arr)
            pt[key] = values_arr
            if key in economics.OTHER_CURRENCY_FIELD:
                pt[economics.OTHER_CURRENCY_FIELD[key]] = np.nan
        else:
            fab_override = _parse_fabric_field(s, field)
    for k, x in pt.items():
        pt[k] = np.full(n, x, dtype=float) if np.ndim(x) == 0 else np.broadcast_to(np.asarray(x, dtype=float), (n,))
    gpn = pt["gpus_per_node"]
    if w.layers is not None:
        pt["layers"] = np.full(n, float(w.layers))
        pt["hidden"] = np.full(n, float(w.hidden))
        pt["heads"] = np.full(n, float(w.heads))
        pt["params"] = params_from_architecture(pt["layers"], pt["hidden"], pt["vocab"])
    else:
        pt["layers"], pt["hidden"], pt["heads"] = derive_architecture(pt["params_b"], pt["vocab"])
        pt["params"] = params_from_architecture(pt["layers"], pt["hidden"], pt["vocab"])
    pt["gpus"] = pt["nodes"] * gpn
    pt["peak_flops"] = np.full(n, g["peak_bf16_tflops"] * 1e12)
    pt["hbm_bytes_per_s"] = np.full(n, g["hbm_gb_per_s"] * 1e9)
    pt["memory_bytes"] = np.full(n, g["memory_gb"] * 1e9)
    pt["intra_busbw"] = np.full(n, g["intra_gb_per_s"] * 1e9 * g["intra_busbw_fraction"])
    pt["intra_p2p_bw"] = np.full(n, g["intra_gb_per_s"] * 1e9)
    pt["pcie_gb_per_s"] = np.full(n, float(pcie_cap_gb_per_s(g.get("pcie_gen", 5))))
    pt["recompute"] = np.full(n, recompute_code(w.recompute))
    pt["flash"] = np.full(n, w.flash_attention)
    pt["sp"] = np.full(n, p.sequence_parallel)
    pt["dp_overlap"] = np.full(n, p.dp_overlap)

    fab = {key: _fabric_array(rows, key, n, gpn) for key in catalog.FABRIC_FIELDS
           if key not in ("transport", "loss_recovery")}
    fab["transport"] = np.array([[TRANSPORT_CODE[r.transport]] for r in rows]) * np.ones((1, n), dtype=int)
    fab["loss_recovery"] = np.array([[LOSS_RECOVERY_CODE[r.values["loss_recovery"]]] for r in rows]) * np.ones(
        (1, n), dtype=int)
    if fab_override is not None:
        names, key = fab_override
        idx = [i for i, r in enumerate(rows) if r.name in names]
        fab[key][idx, :] = values_arr[None, :]
        _check_fabric_values(key, values_arr, field)
    return Inputs(n=n, point=pt, fabric=fab, fabrics=rows)


def _parse_fabric_field(s: Scenario, field: str):
    parts = field.split(".")
    names = s.fabric.fabrics
    if len(parts) == 2 and parts[0] == "fabric" and parts[1] in FABRIC_SWEEPABLE:
        return tuple(names), parts[1]
    if len(parts) == 3 and parts[0] == "fabric" and parts[2] in FABRIC_SWEEPABLE:
        if parts[1] not in names:
            raise ScenarioError(field, parts[1], "a compared fabric: " + ", ".join(names) + suggest(parts[1], names))
        return (parts[1],), parts[2]
    allowed = list(SWEEPABLE) + [f"fabric.{k}" for k in FABRIC_SWEEPABLE] + ["fabric.NAME.<key>"]
    raise ScenarioError("sweep field", field, "one of " + ", ".join(allowed) + suggest(field, allowed))


def _check_point_values(field, values):
    """Sweep values of the reliability/topology/economics sections get their fields' limits."""
    from .scenario import SECTIONS, validate_value

    section, key = field.split(".", 1)
    if section in ("reliability", "topology", "economics"):
        for v in np.unique(values):
            validate_value(SECTIONS[section], key, float(v), field)


def _check_fabric_values(key, values, field):
    """Range check of swept fabric values against the field's metadata, whole array at once."""
    from .scenario import validate_value

    for v in (values.min(), values.max()):
        validate_value(FabricSpec, key, int(v) if key == "nics_per_node" else float(v), field)
    if key == "nics_per_node" and np.any(values != np.round(values)):
        raise ScenarioError(field, values, "whole numbers")


# --------------------------------------------------------------------------
# the physics, over plan × fabric × point
# --------------------------------------------------------------------------

def _candidates(s: Scenario, pt=None):
    """Plan candidates (tp, pp, micro_batch, virtual_stages) as float arrays of shape (C,).

    Auto mode searches tensor parallelism inside a node, pipeline depths in
    powers of two (uneven layer splits allowed: a stage holds ⌈l/p⌉ layers),
    micro-batches of 1, 2 or 4 and 1, 2 or 4 virtual stages; candidates that no
    point of ``pt`` can use are dropped before evaluation.
    """
    p, w = s.parallel, s.workload
    explicit = p.resolved_mode == "explicit"
    tps = (p.tp or 1,) if explicit else TP_CANDIDATES
    pps = (p.pp or 1,) if explicit else PP_CANDIDATES
    mbs = (w.micro_batch,) if w.micro_batch is not None else MB_CANDIDATES
    vs = (p.virtual_stages,) if p.virtual_stages is not None else V_CANDIDATES
    grid = _candidate_grid(tps, pps, mbs, vs)  # (4, C)
    if grid.size == 0:  # only an explicit pp = 1 with virtual stages > 1, which validation refuses
        raise ScenarioError("parallel.virtual_stages", p.virtual_stages, "1 or left out when pp = 1")
    if pt is not None and not explicit:
        keep = ((grid[0] <= pt["gpus_per_node"].max()) & (grid[1] * grid[3] <= pt["layers"].max())
                & (grid[0] * grid[1] <= pt["gpus"].max()))
        grid = grid[:, keep] if np.any(keep) else grid[:, :1]
    return grid[0], grid[1], grid[2], grid[3]


# one grid per (tp, pp, micro_batch, virtual_stages) choice lists: auto mode has a handful (micro_batch and
# virtual_stages each free or fixed by the scenario), explicit mode one per plan the user types. 16 keeps those a
# session goes back and forth between; a miss only rebuilds at most 375 candidates (about 0.1 ms)
@functools.lru_cache(maxsize=16)
def _candidate_grid(tps, pps, mbs, vs):
    """Every (tp, pp, micro_batch, virtual_stages) combination as rows of a read-only (4, C) array."""
    grid = np.array([(t, q, b, v) for t in tps for q in pps for b in mbs for v in vs
                     if not (q == 1 and v > 1)], dtype=float).T.copy()
    grid.flags.writeable = False
    return grid


def _network_state(pt, fab):
    """What the fabric's switch tree adds (arrays broadcasting to (F, N)): levels, path latency, loaded RTT.

    ``rtt_us``: twice the one-way latency of the longest path (the fabric's latency plus
    :func:`~model.collectives.extra_tier_latency_us`) plus the queueing of a loaded path
    (:func:`~model.topology.queueing_us` of a link busy with a collective) — the round trip loss
    recovery and the window wait on. ``leaf``: :func:`~model.topology.leaf_geometry`; ``flows``: the
    connections hashed per NIC link (TCP sockets, or RDMA queue pairs).
    """
    levels = topology.levels_for(pt, fab)
    tcp_like = (fab["transport"] == TRANSPORT_CODE["tcp"]) | (fab["transport"] == TRANSPORT_CODE["iwarp"])
    packet = np.where(tcp_like, fab["mss_bytes"], fab["mtu_bytes"])
    hop_us = np.where(fab["transport"] == TRANSPORT_CODE["infiniband"], SWITCH_HOP_US["infiniband"],
                      SWITCH_HOP_US["roce"])
    one_way_us = fab["latency_us"] + extra_tier_latency_us(levels, hop_us)
    queue_us = topology.queueing_us(levels, packet, fab["link_gbps"], topology.COLLECTIVE_LINK_LOAD)
    return dict(levels=levels, one_way_us=one_way_us, rtt_us=2.0 * one_way_us + queue_us,
                leaf=topology.leaf_geometry(pt, fab, levels),
                flows=np.where(tcp_like, fab["parallel_flows_per_nic"], fab["qps_per_connection"]),
                adaptive=fab["adaptive_routing"] > 0)


def _inter_bandwidths(pt, fab, net):
    """Inter-node bandwidth per node [B/s]: ideal, with loss recovery, with loss and CPU cap.

    Ideal: line rate × achievable fraction, capped by the window NCCL keeps in flight over the loaded
    round trip. Loss recovery waits on every NIC link of the cluster (a collective goes at its slowest
    link); one link carries about twice a gradient bucket over the node's NICs per collective.
    """
    line_gbps = fab["link_gbps"] * fab["nics_per_node"]
    # per NIC: what the transport achieves, capped by the NIC's PCIe slot and by NCCL's channel window over the
    # loaded round trip (model.collectives)
    node_cap_gbps = 8.0 * np.minimum(pt["pcie_gb_per_s"], window_cap_gb_per_s(net["rtt_us"])) * fab["nics_per_node"]
    ideal = np.minimum(line_gbps * fab["achievable_fraction"], node_cap_gbps)
    # loss recovery is charged against the time a link moves data at the rate it reaches without loss
    eta = loss_efficiency(fab["transport"], fab["loss_recovery"], ideal / fab["nics_per_node"], net["rtt_us"],
                          fab["loss_rate"],
                          fab["mss_bytes"], fab["mtu_bytes"], fab["parallel_flows_per_nic"], fab["min_rto_ms"],
                          links=pt["nodes"] * fab["nics_per_node"],
                          message_bytes=2.0 * DDP_BUCKET_BYTES / fab["nics_per_node"])
    lossy = ideal * eta
    cap = cpu_cap_gbps(pt["host_cores"], pt["cpu_for_network_fraction"], fab["cpu_gbps_per_core"])
    final = np.minimum(lossy, cap)
    to_bytes = 1e9 / 8.0
    return ideal * to_bytes, lossy * to_bytes, final * to_bytes, eta


def _step_latency_s(net):
    """Latency of one inter-node step of a collective [s]: the longest path's one-way latency (the fabric's
    plus the further switch tiers) plus NCCL's software step. ``net``: :func:`_network_state`."""
    return (net["one_way_us"] + NCCL_NET_STEP_SW_US) * 1e-6


def _congestion_inputs(net):
    """The fabric side of :func:`~model.topology.dp_slowdown`, as keyword arrays of shape (F, N)."""
    return dict(nodes_per_leaf=net["leaf"]["nodes_per_leaf"], uplinks=net["leaf"]["uplinks"],
                flows_per_link=net["flows"], adaptive=net["adaptive"])


def _compute_side(pt, t, p, b, v, round_batch, plan_side=None):
    """Everything that does not depend on the fabric, for plans of any shape broadcasting with the point arrays.

    Returns the compute-side times and the "communication geometry": the
    coefficients that turn a fabric's per-node bandwidth and per-step latency
    into pipeline and data-parallel communication time with a few operations.
    The algebra is that of :func:`~model.collectives.hierarchical_all_reduce_time`
    and :func:`~model.collectives.p2p_time` (a test checks they agree).
    ``plan_side``: :func:`_plan_side` of the same plans, if already computed.
    """
    gpn = pt["gpus_per_node"]
    ps = _plan_side({k: pt[k] for k in PLAN_SIDE_POINT_KEYS}, t, p, b, v) if plan_side is None else plan_side
    d, m = _replicas(pt, t, p, b, round_batch)
    dist = d > 1
    opt = optimizer_time(ps["params_gpu"] / np.where(dist, d, 1.0), pt["hbm_bytes_per_s"])
    # data-parallel gradient reduction, hierarchical and bucketed: reduce-scatter and all-gather inside the
    # node (the same cost: same bus factor and steps), all-reduce of each rank's shard across nodes
    g_dp = np.minimum(d, np.maximum(np.floor(gpn / t), 1.0))
    n_dp = np.ceil(d / g_dp)
    buckets, per_bucket = ps["buckets"], ps["per_bucket"]
    rs = collective_time("reduce_scatter", per_bucket, g_dp, pt["intra_busbw"], NCCL_NVLINK_STEP_US * 1e-6)
    # NCCL pipelines the in-node and the network phases: their bandwidth terms overlap (the slower sets the pace),
    # their latencies add (model.collectives.nccl_collective)
    intra_bw = buckets * 2.0 * per_bucket * bus_factor("reduce_scatter", g_dp) / pt["intra_busbw"]
    intra = buckets * (rs + rs) - intra_bw
    has_inter = n_dp > 1
    steps = np.minimum(ring_steps("all_reduce", n_dp), tree_steps("all_reduce", n_dp))
    # what the step and memory read per plan: not the bucket size nor the parameters per GPU (in ``opt``)
    cs = {k: x for k, x in ps.items() if k not in ("per_bucket", "params_gpu")}
    cs.update(
        d=d, m=m, dist=dist, opt=opt, n_dp=n_dp, stride=np.ceil(t * p / gpn),
        slots=m * v + p - 1.0, m_logits=m * ps["logits"],
        dp_k0=intra + buckets * has_inter * NCCL_BASE_US * 1e-6, dp_intra_bw=intra_bw,
        dp_k1=buckets * has_inter * steps,
        dp_k2=buckets * has_inter * (per_bucket / g_dp) * bus_factor("all_reduce", n_dp) * gpn,
    )
    return cs


# point inputs of _plan_side: with none of them changing along a sweep, it runs once per candidate plan
PLAN_SIDE_POINT_KEYS = ("seq_len", "hidden", "heads", "layers", "vocab", "gpus_per_node", "recompute", "peak_flops",
                        "hbm_bytes_per_s", "sp", "flash", "intra_busbw", "intra_p2p_bw")


def _plan_side(pt, t, p, b, v):
    """What depends on the plan and the model but not on the number of GPUs (so not on ``d`` or ``m``).

    Layer times, tensor-parallel communication, the pipeline's point-to-point geometry and the
    gradient buckets; ``pt`` holds :data:`PLAN_SIDE_POINT_KEYS`.
    """
    s, h, a, l, V = pt["seq_len"], pt["hidden"], pt["heads"], pt["layers"], pt["vocab"]
    gpn = pt["gpus_per_node"]
    rc = pt["recompute"]
    lc = np.ceil(l / (p * v))
    dense_f, core_f = layer_times_forward(b, s, h, a, t, pt["peak_flops"], pt["hbm_bytes_per_s"], pt["sp"],
                                          pt["flash"])
    extra = np.where(rc == 2, dense_f + core_f, np.where(rc == 1, core_f, 0.0))
    layer_compute = 3.0 * (dense_f + core_f) + extra
    n_ar = 4.0 + 2.0 * (rc == 2)
    t_ar = in_node_collective_time("all_reduce", b * s * h * BYTES_BF16, t, pt["intra_busbw"], pt["intra_p2p_bw"])
    layer_tp = n_ar * t_ar
    logits = logits_time(b, s, h, V, t, pt["peak_flops"], pt["hbm_bytes_per_s"])
    params_gpu = stage_params(l, h, V, t, p)
    # pipeline point-to-point: across nodes when a pipeline group does not sit inside one node
    crosses = (p > 1) & ~_divides(t * p, gpn)
    msg = s * h * BYTES_BF16 * b / t  # scatter/gather over the t NICs (Narayanan et al. §4.1)
    p2p_intra = in_node_collective_time("sendrecv", msg, p, pt["intra_busbw"], pt["intra_p2p_bw"])
    grad_bytes = params_gpu * GRAD_BYTES
    buckets = np.maximum(np.ceil(grad_bytes / DDP_BUCKET_BYTES), 1.0)
    return dict(
        lc=lc, window=v * lc * (2.0 * (dense_f + core_f) + extra), params_gpu=params_gpu,
        layer_compute=layer_compute, layer_tp=layer_tp, logits=logits, chunk_fixed=lc * (layer_compute + layer_tp),
        crosses=crosses, p2p_bytes_node=msg * gpn, p2p_intra=p2p_intra,
        buckets=buckets, per_bucket=grad_bytes / buckets,
    )


def _replicas(pt, t, p, b, round_batch):
    """Data-parallel degree ``d`` and micro-batches per step ``m`` [-]."""
    # auto mode may leave the GPUs that do not fill a whole model replica idle (spares), as a practitioner would
    # on a cluster whose size is not a multiple of tp · pp; they still count in the utilisation of the cluster
    d = pt["gpus"] / (t * p)
    if round_batch:
        d = np.floor(d)
    m_exact = pt["global_batch"] / (d * b)
    # auto mode rounds the global batch up to a whole number of micro-batches per rank, as a practitioner
    # would (never below the batch asked for); plans are then compared by time per sequence
    m = np.maximum(np.ceil(m_exact - 1e-9), 1.0) if round_batch else m_exact
    return d, m


def _divides(divisor, n):
    """Whether the whole number ``divisor`` divides the whole number ``n`` (both held as floats) [bool].

    ``n / divisor`` is a whole number exactly when it divides: the quotient of whole numbers below 2⁵³ is
    exact when it is whole, and otherwise at least ``1/divisor`` from the nearest whole number, far more
    than its rounding error. Much cheaper than an integer or floating-point modulo.
    """
    q = n / divisor
    return np.floor(q) == q


def _degrees_valid(pt, t, p, b, v, round_batch):
    """Plans whose degrees are possible at a point (before memory) [bool].

    Whole-number arithmetic on floats, exact for these magnitudes (see :func:`_divides`; ``⌊a/b⌋`` and
    ``⌈a/b⌉`` are exact for the same reason).
    """
    gpn, G, l, B, heads = (pt[k] for k in ("gpus_per_node", "gpus", "layers", "global_batch", "heads"))
    tp = t * p
    ok = (t <= gpn) & _divides(t, gpn) & _divides(t, heads) & (p <= l)
    if not round_batch:  # an explicit plan uses every GPU: dp = GPUs / (tp · pp) exactly
        ok = ok & _divides(tp, G)
    db = np.maximum(np.floor(G / tp), 1.0) * b
    if round_batch:
        m = np.maximum(np.ceil(B / db), 1.0)  # round up, as _compute_side
    else:
        m = np.floor(B / db)
        ok = ok & _divides(db, B)
    ok = ok & ((G >= tp) & (m >= 1))
    ok = ok & ((v == 1) | ((p > 1) & (p * v <= l) & _divides(p, m)))
    return ok


def _memory(pt, t, p, b, v, cs):
    """Peak bytes per GPU for a plan, and whether it fits [B], [bool]."""
    stage = _stage_memory(pt, t, p, b, v)
    mem = memory_with_replicas_bytes(stage, p, cs["d"], cs["dist"], cs["m"])
    return mem, mem <= pt["memory_bytes"] * USABLE_MEMORY_FRACTION


def _stage_memory(pt, t, p, b, v):
    """The memory terms the model and the plan fix (:func:`~model.memory.stage_memory_bytes`)."""
    return stage_memory_bytes(pt["layers"], pt["hidden"], pt["heads"], pt["vocab"], pt["seq_len"], b, t, p, v,
                              pt["recompute"], pt["sp"], pt["flash"])


def _step_for_fabric(cs, dp_overlap, bw_node, step_latency_s, congestion):
    """Step time for a fabric's per-node bandwidth [B/s] and per-step latency [s] (few ops, any shape).

    ``congestion``: :func:`_congestion_inputs` in the shape of ``bw_node``; the data-parallel traffic that
    crosses the leaf uplinks is slowed by :func:`~model.topology.dp_slowdown` at each plan's placement.
    """
    inv_bw = 1.0 / bw_node
    p2p = np.where(cs["crosses"], step_latency_s + cs["p2p_bytes_node"] * inv_bw, cs["p2p_intra"])
    t_chunk = cs["chunk_fixed"] + 2.0 * p2p
    pipe = t_chunk * cs["slots"] + cs["m_logits"]
    slow = topology.dp_slowdown(cs["n_dp"], cs["stride"], **congestion)
    t_dp = cs["dp_k0"] + cs["dp_k1"] * step_latency_s + np.maximum(cs["dp_k2"] * inv_bw * slow, cs["dp_intra_bw"])
    exposed = where_uniform(dp_overlap, lambda: np.maximum(t_dp - cs["window"], t_dp / cs["buckets"]), lambda: t_dp)
    return pipe + exposed + cs["opt"], p2p, t_chunk, exposed


# point inputs the plan search reads (gathered per (point, plan) pair)
PLAN_POINT_KEYS = ("seq_len", "hidden", "heads", "layers", "vocab", "global_batch", "gpus", "gpus_per_node",
                   "recompute", "peak_flops", "hbm_bytes_per_s", "sp", "flash", "intra_busbw", "intra_p2p_bw",
                   "memory_bytes", "dp_overlap")


def _evaluate_inputs(s: Scenario, inp: Inputs, plan: dict | None = None, lean: bool = False):
    """All outputs for every fabric and point; the fastest plan is searched unless ``plan`` is given.

    ``plan`` (``tp``, ``pp``, ``micro_batch``, ``virtual_stages`` arrays broadcasting against the fabric
    arrays) evaluates that plan as it is, e.g. for Monte-Carlo samples around a nominal sweep.
    ``lean`` computes only what the headline metrics need (step, utilisation, days, reliability, money),
    not the per-mechanism breakdown.
    """
    net = _network_state(inp.point, inp.fabric)
    bandwidths = _inter_bandwidths(inp.point, inp.fabric, net)
    step_latency = _step_latency_s(net)
    if plan is None:
        chosen = _search_plans(s, inp, bandwidths[2], step_latency, net)
    else:
        chosen = _fixed_plan(s, inp, plan)
    # where no plan fits at any point, the placeholder plan's quantities are read and masked as NaN: no warnings
    quiet = {} if np.any(chosen[-2]) else dict(divide="ignore", invalid="ignore")
    with np.errstate(**quiet):
        return (_lean_outputs if lean else _outputs)(s, inp, bandwidths, step_latency, net, *chosen)


def _fixed_plan(s: Scenario, inp: Inputs, plan: dict):
    pt = inp.point
    round_batch = s.parallel.resolved_mode == "auto"
    tc, pc, bc, vc = (np.asarray(plan[k], dtype=float) for k in ("tp", "pp", "micro_batch", "virtual_stages"))
    good = np.isfinite(tc) & np.isfinite(pc) & np.isfinite(bc) & np.isfinite(vc)
    tc, pc, bc, vc = (np.where(good, x, 1.0) for x in (tc, pc, bc, vc))
    cs2 = _compute_side(pt, tc, pc, bc, vc, round_batch)
    mem, fits = _memory(pt, tc, pc, bc, vc, cs2)
    ok = _degrees_valid(pt, tc, pc, bc, vc, round_batch)
    return cs2, tc, pc, bc, vc, mem, good & ok & fits, good & ok


# One entry per set of plan-search inputs (plan settings and the point arrays of PLAN_POINT_KEYS). The app has
# up to five alive at once: the window's sweep and its point (one entry when the point rides on the sweep), the
# A/B pinned scenario's sweep and point along the window's x-axis, and the bands worker's nominal sweep (its own
# x values); the tornado and the exports reuse the window's. The sixth keeps the previous value while a slider
# is dragged back and forth. An entry holds a few arrays per (point, plan) pair that fits: 1-5 MB for a
# 256-point sweep of the presets.
_PAIR_CACHE: "collections.OrderedDict" = collections.OrderedDict()
_PAIR_CACHE_SIZE = 6
_PAIR_LOCK = threading.Lock()


def clear_plan_cache() -> None:
    """Forget the cached plan-search geometry (the next evaluations search from scratch; for benchmarks)."""
    with _PAIR_LOCK:
        _PAIR_CACHE.clear()


class PlanPairs(NamedTuple):
    """The plan search's fabric-independent part: (point, plan) pairs that fit, ordered by point."""
    ni: np.ndarray  # point of each pair
    has_degrees: np.ndarray  # (N,) some plan's degrees are possible at the point
    dp_overlap: np.ndarray  # per pair, or one value for all
    plan: tuple  # (tp, pp, micro_batch, virtual_stages) per pair
    cs: dict  # _compute_side per pair
    mem: np.ndarray  # bytes per GPU per pair
    usable: bool  # False: no pair fits anywhere (one placeholder pair)
    starts: np.ndarray  # first pair of each point that has pairs
    seg_of_pair: np.ndarray  # index into ``starts`` of each pair
    sequences: np.ndarray  # sequences per step of each pair (m · d · micro_batch)


def _plan_pairs(s: Scenario, pt: dict) -> PlanPairs:
    """Every (point, plan) pair whose degrees are possible and that fits in memory, with its geometry.

    Pure in the plan-search inputs, so cached (a few entries): dragging a fabric, reliability or money
    slider re-evaluates only the fabric-dependent few operations per pair.
    """
    round_batch = s.parallel.resolved_mode == "auto"
    key = _plan_key(s) + tuple(np.ascontiguousarray(pt[k]).tobytes() for k in PLAN_POINT_KEYS)
    with _PAIR_LOCK:
        hit = _PAIR_CACHE.get(key)
        if hit is not None:
            _PAIR_CACHE.move_to_end(key)
            return hit
    n_points = pt["gpus"].shape[0]
    t, p, b, v = _candidates(s, pt)
    # degrees and memory on the (point, candidate) grid. A sweep changes one or two inputs: the others keep
    # one value, so what depends only on them and the plan (most of the memory) costs (1, C) elements
    ptc = {k: cut_constant_points(pt[k], 0) for k in PLAN_POINT_KEYS}
    grid_pt = {k: x[:, None] for k, x in ptc.items()}
    grid_plan = (t[None, :], p[None, :], b[None, :], v[None, :])
    degrees_ok = np.broadcast_to(_degrees_valid(grid_pt, *grid_plan, round_batch), (n_points, t.size))
    has_degrees = degrees_ok.any(axis=1)
    with np.errstate(divide="ignore"):  # d = 0 where a plan needs more GPUs than there are: not a valid pair
        d, m = _replicas(grid_pt, *grid_plan[:3], round_batch)
    mem, fits = _memory(grid_pt, *grid_plan, dict(d=d, dist=d > 1, m=m))
    # the pairs that fit, ordered by point; only they go on (for large models most plans do not fit)
    ni, ci = np.nonzero(degrees_ok & fits)
    usable = ni.size > 0
    if not usable:  # one placeholder pair, marked unusable, keeps the shapes: the first with possible degrees
        ni, ci = (x[:1] for x in np.nonzero(degrees_ok)) if has_degrees.any() else (np.zeros(1, dtype=int),) * 2
    mem = np.broadcast_to(mem, degrees_ok.shape)[ni, ci]
    ptp = {k: (x[ni] if x.shape[0] > 1 else x) for k, x in ptc.items()}
    plan = (t[ci], p[ci], b[ci], v[ci])

    def at_pairs(per_candidate: dict):  # terms computed once per candidate, read at each pair's candidate
        return {k: (x[ci] if np.ndim(x) == 1 and x.shape[0] == t.size else x) for k, x in per_candidate.items()}

    # the unusable placeholder may have impossible degrees (d = 0): its geometry is never read, so no warnings
    with np.errstate(**({} if usable else dict(divide="ignore", invalid="ignore"))):
        if all(x.shape[0] == 1 for x in ptc.values()):  # the same inputs at every point (a fabric or money sweep)
            cs = at_pairs(_compute_side(ptc, t, p, b, v, round_batch))
        elif all(ptc[k].shape[0] == 1 for k in PLAN_SIDE_POINT_KEYS):  # the same model at every point
            cs = _compute_side(ptp, *plan, round_batch,
                               at_pairs(_plan_side({k: ptc[k] for k in PLAN_SIDE_POINT_KEYS}, t, p, b, v)))
        else:
            cs = _compute_side(ptp, *plan, round_batch)
        sequences = cs["m"] * cs["d"] * plan[2]
    new_point = np.r_[True, ni[1:] != ni[:-1]]
    entry = PlanPairs(ni, has_degrees, ptp["dp_overlap"], plan, cs, mem, usable,
                      starts=np.flatnonzero(new_point), seg_of_pair=np.cumsum(new_point) - 1, sequences=sequences)
    with _PAIR_LOCK:
        _PAIR_CACHE[key] = entry
        while len(_PAIR_CACHE) > _PAIR_CACHE_SIZE:
            _PAIR_CACHE.popitem(last=False)
    return entry


def _search_plans(s: Scenario, inp: Inputs, bw_final, step_latency, net):
    """The fastest plan per fabric and point at the effective bandwidth ``bw_final`` [B/s], shape (F, N).

    ``step_latency``: :func:`_step_latency_s` of the fabrics [s]; ``net``: :func:`_network_state`.
    """
    pt, fab = inp.point, inp.fabric
    n_fab = fab["latency_us"].shape[0]
    pairs = _plan_pairs(s, pt)
    ni, cs = pairs.ni, pairs.cs
    # a fabric's bandwidth and latency are usually the same at every point: then not copied per pair
    def at_pairs(x):
        x = cut_constant_points(np.broadcast_to(x, bw_final.shape), 1)
        return x if x.shape[1] == 1 else x[:, ni]

    congestion = {k: at_pairs(x) for k, x in _congestion_inputs(net).items()}
    step_pairs, _, _, _ = _step_for_fabric(cs, pairs.dp_overlap, at_pairs(bw_final), at_pairs(step_latency),
                                           congestion)
    # compare plans by time per sequence: a rounded-up batch must not look slower than it is
    step_pairs /= pairs.sequences  # (F, pairs)
    if not pairs.usable:
        step_pairs[:] = np.inf
    # fastest plan per point and fabric: pairs are ordered by point, so each point is one segment;
    # the segment minimum, then the first pair that reaches it (ties go to the earlier candidate)
    starts = pairs.starts
    points = ni[starts]
    seg_min = np.minimum.reduceat(step_pairs, starts, axis=1)  # (F, points with pairs)
    hit = np.where(step_pairs == seg_min[:, pairs.seg_of_pair], np.arange(ni.size)[None, :], ni.size)
    first = np.minimum.reduceat(hit, starts, axis=1)
    best_pair = np.zeros((n_fab, inp.n), dtype=int)
    any_valid = np.zeros((n_fab, inp.n), dtype=bool)
    best_pair[:, points] = first
    any_valid[:, points] = np.isfinite(seg_min)
    any_ok = pairs.has_degrees[None, :]

    # the chosen plan's quantities, gathered from the pairs (points without a pair read pair 0 and become NaN)
    n_pairs = ni.size
    cs2 = {k: (x[best_pair] if np.ndim(x) == 1 and x.shape[0] == n_pairs else x) for k, x in cs.items()}
    tc, pc, bc, vc = (x[best_pair] for x in pairs.plan)
    return cs2, tc, pc, bc, vc, pairs.mem[best_pair], any_valid, any_ok


def train_days(train_tokens_b, tokens_per_s):
    """Failure-free training time [days]: the tokens to train [10⁹] over the throughput [tokens/s]."""
    return train_tokens_b * 1e9 / tokens_per_s / 86400.0


def _lean_outputs(s: Scenario, inp: Inputs, bandwidths, inter_step, net, cs2, tc, pc, bc, vc, mem, any_valid,
                  any_ok):
    """Headline metrics only: one step evaluation at the effective bandwidth, then reliability and money."""
    pt, fab = inp.point, inp.fabric
    bw_final = bandwidths[2]
    nan = np.where(any_valid, 1.0, np.nan)
    step = _step_for_fabric(cs2, pt["dp_overlap"], bw_final, inter_step, _congestion_inputs(net))[0]
    step *= nan
    m = cs2["m"]
    global_batch = m * cs2["d"] * bc
    mf = model_flops_per_iteration(global_batch, pt["seq_len"], pt["layers"], pt["hidden"], pt["vocab"])
    # days as the full path computes them (bit for bit: the bands' nominal sample is the nominal curve)
    tokens_per_s = global_batch * pt["seq_len"] / step
    out = dict(
        step_time_s=step,
        mfu=(mf / (pt["gpus"] * pt["peak_flops"])) / step,
        tokens_per_s=tokens_per_s,
        train_days=train_days(pt["train_tokens_b"], tokens_per_s),
        breakdown_s=dict(compute=m * (vc * cs2["lc"] * cs2["layer_compute"] + cs2["logits"]) * nan,
                         optimizer=cs2["opt"] * nan),
        params=pt["params"],
        feasible=any_valid,
    )
    return _with_reliability_and_money(s, pt, fab, out, lean=True)


def _outputs(s: Scenario, inp: Inputs, bandwidths, inter_step, net, cs2, tc, pc, bc, vc, mem, any_valid, any_ok):
    """Every output, with the step-time breakdown by mechanism.

    ``bandwidths`` from :func:`_inter_bandwidths`, ``inter_step`` from :func:`_step_latency_s`,
    ``net`` from :func:`_network_state`.
    """
    pt, fab = inp.point, inp.fabric
    bw_ideal, bw_lossy, bw_final, eta = bandwidths
    congestion = _congestion_inputs(net)
    step_ideal, p2p, t_chunk, exposed = _step_for_fabric(cs2, pt["dp_overlap"], bw_ideal, inter_step, congestion)
    step_lossy, _, _, _ = _step_for_fabric(cs2, pt["dp_overlap"], bw_lossy, inter_step, congestion)
    step, _, _, _ = _step_for_fabric(cs2, pt["dp_overlap"], bw_final, inter_step, congestion)
    m, lc = cs2["m"], cs2["lc"]
    parts = dict(
        compute=m * (vc * lc * cs2["layer_compute"] + cs2["logits"]),
        tp_comm=m * vc * lc * cs2["layer_tp"],
        pp_comm=m * vc * 2.0 * p2p,
        bubble=(pc - 1.0) * t_chunk,
        dp_comm=exposed,
        loss_recovery=step_lossy - step_ideal,
        cpu=step - step_lossy,
        optimizer=np.broadcast_to(cs2["opt"], step.shape) + 0.0,
    )
    dist = cs2["dist"]
    global_batch = m * cs2["d"] * bc
    G = pt["gpus"]
    mf = model_flops_per_iteration(global_batch, pt["seq_len"], pt["layers"], pt["hidden"], pt["vocab"])
    hf = hardware_flops_per_iteration(global_batch, pt["seq_len"], pt["layers"], pt["hidden"], pt["vocab"],
                                      pt["recompute"])
    nan = np.where(any_valid, 1.0, np.nan)
    step = step * nan
    model_tflops = mf / (step * G) / 1e12
    hw_tflops = hf / (step * G) / 1e12
    tokens_per_s = global_batch * pt["seq_len"] / step
    peak_t = pt["peak_flops"] / 1e12
    line_gbps = fab["link_gbps"] * fab["nics_per_node"]
    out = dict(
        step_time_s=step,
        model_tflops_per_gpu=model_tflops,
        hardware_tflops_per_gpu=hw_tflops,
        mfu=model_tflops / peak_t,
        hfu=hw_tflops / peak_t,
        tokens_per_s=tokens_per_s,
        train_days=train_days(pt["train_tokens_b"], tokens_per_s),
        breakdown_s={k: parts[k] * nan for k in BREAKDOWN_KEYS},
        plan=dict(tp=tc * nan, pp=pc * nan, dp=cs2["d"] * nan, micro_batch=bc * nan, virtual_stages=vc * nan,
                  gpus_used=tc * pc * cs2["d"] * nan,
                  microbatches=cs2["m"] * nan, global_batch=global_batch * nan,
                  distributed_optimizer=dist & any_valid),
        memory_per_gpu_gb=mem / 1e9 * nan,
        feasible=any_valid,
        degrees_exist=np.broadcast_to(any_ok, any_valid.shape),
        node_bandwidth_gbps=dict(line=line_gbps, ideal=bw_ideal * 8e-9, with_loss=bw_lossy * 8e-9,
                                 effective=bw_final * 8e-9),
        loss_efficiency=eta,
        network=dict(loaded_rtt_us=net["rtt_us"], switch_levels=net["levels"],
                     dp_congestion_slowdown=topology.dp_slowdown(cs2["n_dp"], cs2["stride"], **congestion) * nan),
        cpu_cores_busy=cpu_cores_busy(bw_final * 8e-9, fab["cpu_gbps_per_core"]),
        params=np.broadcast_to(pt["params"], step.shape),
        architecture=dict(layers=pt["layers"], hidden=pt["hidden"], heads=pt["heads"]),
        model_flops_per_iter=mf,
        hardware_flops_per_iter=hf,
    )
    return _with_reliability_and_money(s, pt, fab, out)


def _with_reliability_and_money(s, pt, fab, out, lean=False):
    """Reliability, fabric counts and money (issue #3), appended to the engine's outputs."""
    out.update(reliability.outputs(pt, fab, out, lean=lean))
    out.update(topology.outputs(pt, fab))
    out.update(economics.outputs(s, pt, fab, out, lean=lean))
    return out


# --------------------------------------------------------------------------
# public results
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Result:
    """Engine output. Per-fabric arrays have shape (F,) from :func:`evaluate`, (F, N) from :func:`sweep`."""
    scenario: Scenario
    fabrics: tuple[str, ...]
    labels: tuple[str, ...]
    field: str | None
    x: np.ndarray | None
    data: dict
    fabric_rows: tuple

    def __getitem__(self, key):
        return self.data[key]

    def fabric_index(self, name: str) -> int:
        return self.fabrics.index(name)

    def at(self, fabric: str) -> dict:
        """Scalar view of one fabric (evaluate results only)."""
        i = self.fabric_index(fabric)
        return _index_tree(self.data, i)


def _index_tree(tree, i):
    if isinstance(tree, dict):
        return {k: _index_tree(v, i) for k, v in tree.items()}
    arr = np.asarray(tree)
    if arr.ndim == 0:
        return arr.item()
    return arr[i] if arr.shape[0] > i else arr


def _squeeze_tree(tree, n_fabrics):
    if isinstance(tree, dict):
        return {k: _squeeze_tree(v, n_fabrics) for k, v in tree.items()}
    arr = np.asarray(tree)
    if arr.ndim == 2:
        return arr[:, 0]
    if arr.ndim == 1:
        return arr[0] if arr.shape[0] == 1 else arr
    return arr


def _broadcast_tree(tree, shape):
    if isinstance(tree, dict):
        return {k: _broadcast_tree(v, shape) for k, v in tree.items()}
    arr = np.asarray(tree)
    if arr.ndim == 1 and shape[0] != arr.shape[0]:
        return np.broadcast_to(arr[None, :], shape).copy()
    return np.broadcast_to(arr, shape).copy() if arr.shape != shape else arr


def sweep(scenario: Scenario, field: str, values) -> Result:
    """Evaluate ``scenario`` with ``field`` over ``values``, for all fabrics at once.

    ``field`` is a dotted scenario path from :data:`SWEEPABLE`, or a fabric
    value for all fabrics (``"fabric.latency_us"``) or one
    (``"fabric.roce.loss_rate"``). Arrays in the result have shape (F, N).
    """
    inp = build_inputs(scenario, field, values)
    data = _evaluate_inputs(scenario, inp)
    shape = (len(inp.fabrics), inp.n)
    data = _broadcast_tree(data, shape)
    return Result(scenario, tuple(r.name for r in inp.fabrics), tuple(r.label for r in inp.fabrics), field,
                  np.asarray(values, dtype=float).reshape(-1), data, tuple(inp.fabrics))


def evaluate(scenario: Scenario, *, require_feasible: bool = True) -> Result:
    """Evaluate one scenario for all its fabrics. Arrays have shape (F,).

    Raises :class:`ScenarioError` when no plan fits (explicit degrees that do
    not divide the GPUs, or a model that does not fit in GPU memory), unless
    ``require_feasible`` is false.
    """
    inp = build_inputs(scenario)
    data = _evaluate_inputs(scenario, inp)
    F = len(inp.fabrics)
    data = _broadcast_tree(data, (F, 1))
    data = _squeeze_tree(data, F)
    res = Result(scenario, tuple(r.name for r in inp.fabrics), tuple(r.label for r in inp.fabrics), None, None,
                 data, tuple(inp.fabrics))
    if require_feasible and not np.all(data["feasible"]):
        raise infeasible_error(scenario)
    check_finishes(res)
    return res


def check_finishes(res: Result) -> None:
    """Refuse a scenario whose run never finishes (:data:`reliability.MAX_WALL_FACTOR`) for a fabric whose plan
    fits: its times would be NaN, not numbers. ``res`` is an :func:`evaluate` result (arrays (F,))."""
    days = np.asarray(res.data["train_days_with_interruptions"], dtype=float).reshape(-1)
    fits = np.asarray(res.data["feasible"], dtype=bool).reshape(-1)
    bad = np.flatnonzero(fits & ~np.isfinite(days))
    if bad.size == 0:
        return
    i = int(bad[0])
    d = res.at(res.fabrics[i])
    raise ScenarioError(
        "reliability", f"MTBF {d['mtbf_h']:.3g} h, checkpoint write {d['checkpoint_write_min']:.3g} min every "
                       f"{d['checkpoint_interval_min']:.3g} min",
        f"a run that finishes on {res.labels[i]} (expected time at most {reliability.MAX_WALL_FACTOR:g} × the "
        "failure-free time): raise reliability.storage_gb_per_s, shorten reliability.checkpoint_interval_min or lower the "
        "interruption rates")


def infeasible_error(s: Scenario) -> ScenarioError:
    """The clearest explanation of why no plan fits."""
    g = catalog.gpu(s.cluster.gpu)
    if s.parallel.resolved_mode == "explicit":
        tp, pp = s.parallel.tp or 1, s.parallel.pp or 1
        if tp > s.cluster.gpus_per_node:
            return ScenarioError("parallel.tp", tp, f"at most gpus_per_node = {s.cluster.gpus_per_node} "
                                                    "(tensor parallelism stays inside a node)")
        return ScenarioError("parallel", f"tp={tp}, pp={pp}",
                             f"a plan that fits in {g['memory_gb']} GB per GPU ({s.cluster.gpu}): raise pp or tp, "
                             "use recompute = \"full\", or a smaller micro_batch")
    return ScenarioError("workload.params_b", s.workload.params_b,
                         f"a model that fits on {s.cluster.nodes} × {s.cluster.gpus_per_node} {s.cluster.gpu} "
                         f"({g['memory_gb']} GB each) with some tp ≤ {s.cluster.gpus_per_node} and pp; "
                         "add nodes, use recompute = \"full\", or choose a larger GPU")


def describe_plan(plan: dict) -> str:
    def fmt(x):
        return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else str(int(x))
    return (f"TP {fmt(plan['tp'])} · PP {fmt(plan['pp'])} · DP {fmt(plan['dp'])} · "
            f"micro-batch {fmt(plan['micro_batch'])} · v {fmt(plan['virtual_stages'])}")


__all__ = ["evaluate", "sweep", "Result", "BREAKDOWN_KEYS", "BREAKDOWN_LABELS", "SWEEPABLE", "FABRIC_SWEEPABLE",
           "derive_architecture", "resolve_fabrics", "describe_plan"]


def nccl_inputs(scenario: Scenario) -> dict:
    """The scenario's compared fabrics as inputs of :func:`model.collectives.nccl_collective` (arrays of shape (F,)).

    Per NIC: what the fabric really delivers (achievable fraction, loss recovery, host-CPU share, PCIe and window
    caps: the engine's effective node bandwidth over its NICs); per network hop: the fabric's one-way latency plus
    its extra switch tiers. Also ``names``, ``labels`` and ``transports`` of the fabrics.
    """
    inp = build_inputs(scenario)
    pt, fab = inp.point, inp.fabric
    g = catalog.gpu(scenario.cluster.gpu)
    net = _network_state(pt, fab)
    bw_node = _inter_bandwidths(pt, fab, net)[2]
    bw_final = bw_node[:, 0]
    nics = fab["nics_per_node"][:, 0]
    hop_us = np.broadcast_to(net["one_way_us"], bw_node.shape)[:, 0]
    prof = catalog.profile_set(scenario.fabric.profile_set)["fabrics"]
    sharp = np.array([bool(prof.get(r.name, catalog.transport_profile(scenario.fabric.profile_set, r.transport))
                           .get("sharp", False)) for r in inp.fabrics])
    return dict(
        names=tuple(r.name for r in inp.fabrics), labels=tuple(r.label for r in inp.fabrics),
        transports=tuple(r.transport for r in inp.fabrics),
        ranks_per_node=float(pt["gpus_per_node"][0]), nodes=float(pt["nodes"][0]),
        nic_gb_per_s=bw_final / nics / 1e9, nics_per_node=nics, net_latency_us=hop_us,
        intra_busbw_gb_per_s=float(pt["intra_busbw"][0]) / 1e9, intra_p2p_gb_per_s=float(pt["intra_p2p_bw"][0]) / 1e9,
        nvls_busbw_gb_per_s=float(g.get("nvls_busbw_gb_per_s", 0.0)) if pt["gpus_per_node"][0] > 1 else 0.0,
        sharp=sharp, simple_hop_us=fab["nccl_simple_hop_us"][:, 0], ll128_hop_us=fab["nccl_ll128_hop_us"][:, 0],
        ll_hop_us=fab["nccl_ll_hop_us"][:, 0], fill_bytes=fab["nccl_fill_bytes"][:, 0],
        ll128_efficiency=fab["nccl_ll128_efficiency"][:, 0], tree_efficiency=fab["nccl_tree_efficiency"][:, 0],
    )
