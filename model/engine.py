"""The engine: step time, utilisation and training days for every fabric at once.

Data flow: a :class:`~model.scenario.Scenario` is resolved into arrays — one
value per sweep point for cluster and workload inputs, one row per fabric for
fabric inputs — then the fastest candidate parallel plan that fits in memory
is found for every fabric and point in a few vectorised passes (every ZeRO
stage that fits is timed; a plan whose lower bound on a fabric is slower than
a plan already timed there is not: the result is that of timing every plan),
and that plan is evaluated with its step-time breakdown, as a given plan is.

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

from . import catalog, collectives, economics, reliability, topology
from .arrays import cut_constant_points, range_min, where_uniform
from .collectives import CHANNELS_PER_NIC, DDP_BUCKET_BYTES, NCCL_BASE_US, NCCL_NET_STEP_SW_US, NCCL_NVLINK_STEP_US, \
    SWITCH_HOP_US, bus_factor, collective_latency_s, collective_time, extra_tier_latency_us, gpu_ll_max_bus_gb_per_s, \
    in_node_collective_time, p2p_time, pcie_cap_gb_per_s, ring_steps, tree_steps, window_cap_gb_per_s
from .compute import BYTES_BF16, RECOMPUTE_KINDS, flops_per_iteration, fp8_gemm_peak, \
    layer_matmul_weights, layer_times_forward, logits_time, mlp_activation_ratio, model_flops_per_iteration, \
    optimizer_time, params_from_architecture, recompute_code
from .errors import ScenarioError, suggest
from .memory import USABLE_MEMORY_FRACTION, activation_bytes, interleave_factor, layer_memory_bytes, \
    memory_with_replicas_bytes, model_state_bytes_by_stage, stage_memory_from_layer, stage_params
from .scenario import FabricSpec, Scenario
from .transport import GPUDIRECT_TCP_VALUES, LOSS_RECOVERY_CODE, RDMA_TRANSPORTS, TRANSPORT_CODE, cpu_cap_gbps, \
    cpu_cores_busy, loss_efficiency

BREAKDOWN_KEYS = ("compute", "tp_comm", "cp_comm", "ep_comm", "pp_comm", "dp_comm", "bubble", "loss_recovery", "cpu",
                  "optimizer")
BREAKDOWN_LABELS = {
    "compute": "Compute", "tp_comm": "Tensor-parallel comm", "cp_comm": "Context-parallel ring (exposed)",
    "ep_comm": "Expert all-to-all", "pp_comm": "Pipeline comm",
    "dp_comm": "Data-parallel comm (exposed)", "bubble": "Pipeline bubble", "loss_recovery": "Loss recovery",
    "cpu": "Host CPU limit", "optimizer": "Optimizer step",
}

TP_CANDIDATES = (1, 2, 4, 8, 16)
PP_CANDIDATES = (1, 2, 4, 8, 16, 32, 64, 128, 256)
MB_CANDIDATES = (1, 2, 4)
V_CANDIDATES = (1, 2, 4)
RECOMPUTE_CANDIDATES = (0, 1, 2)  # none, selective, full: lightest first
ZERO_CANDIDATES = (1, 2, 3)  # searched sharding stages, cheapest first (stage 0 only when asked for)
CP_CANDIDATES = (1, 2, 4, 8, 16)
EP_CANDIDATES = (1, 2, 4, 8, 16, 32, 64)  # expert parallelism, searched for mixture-of-experts models
MOE_ALL_TO_ALLS = 4.0  # dispatch and combine, forward and backward, per MoE layer and micro-batch
# auto mode tries context parallelism only while every rank keeps at least this many tokens of a sequence: below,
# the ring's blocks are too small to hide behind attention (guess, after Megatron-LM's advice to use CP for
# sequences of 8k and more; NVIDIA's published runs use CP from 16k tokens)
CP_MIN_TOKENS_PER_RANK = 4096
RING_PASSES = 3.0  # K/V blocks go around the ring once forward, K/V and their gradients once backward (Liu et al.)

GRAD_BYTES = BYTES_BF16  # gradient buckets are sized in bf16 (Megatron-LM, PyTorch DDP)
# bytes per gradient element on the wire, by ``workload.grad_precision``: bf16 by default; FP8 gradients with FP8
# training (DeepSeek-V3 report §3.3 casts activations and gradients on the wire to FP8 for MoE dispatch and
# combine; Peng et al. 2023, "FP8-LM", reduce gradients in FP8); FP32 as Llama 3 405B did ("reduce-scatter
# gradients in FP32 across data parallel workers", Dubey et al. 2024 §3.3.2)
GRAD_WIRE_BYTES = {"bf16": 2.0, "fp8": 1.0, "fp32": 4.0}

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


_NO_OVERRIDES = FabricSpec()  # a fabric the scenario leaves as its profile has it (frozen: one shared)


def resolve_fabrics(s: Scenario) -> list[FabricRow]:
    """The compared fabrics with every value resolved against the active profile set."""
    prof = catalog.profile_set(s.fabric.profile_set)
    custom = s.fabric.custom_dict()
    profile_source = f"{prof['name']} profile"
    rows = []
    for name in s.fabric.fabrics:
        spec = custom.get(name, _NO_OVERRIDES)
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
                vals[key], srcs[key] = base[key], profile_source
            else:
                vals[key], srcs[key] = catalog.FABRIC_DEFAULTS[key], "engine default (guess)"
        if vals["transport"] not in RDMA_TRANSPORTS and srcs["loss_recovery"] == "scenario":
            raise ScenarioError(f"fabric.custom.{name}.loss_recovery", vals["loss_recovery"],
                                "left out for a TCP transport (tcp, iwarp: TCP recovers by itself); go_back_n, "
                                "selective_repeat or link_retry apply to roce and infiniband")
        if vals["gpudirect_tcp"]:
            if vals["transport"] != "tcp":
                raise ScenarioError(f"fabric.custom.{name}.gpudirect_tcp", "true",
                                    "false for transport " + vals["transport"] + ": GPUDirect TCP applies to tcp")
            for key, (value, source) in GPUDIRECT_TCP_VALUES.items():  # what the host path no longer limits
                if srcs[key] != "scenario":
                    vals[key], srcs[key] = value, source
        label = spec.label or (base.get("label", name) if name in prof["fabrics"] else name)
        guesses = tuple(k for k in base.get("guesses", ()) if srcs.get(k, "").endswith("profile"))
        rows.append(FabricRow(name, label, vals["transport"], vals, srcs, guesses))
    return rows


# the fabric inputs held as numbers (the transport and its loss recovery are codes, apart)
NUMERIC_FABRIC_FIELDS = tuple(k for k in catalog.FABRIC_FIELDS if k not in ("transport", "loss_recovery"))


class _Fabrics(NamedTuple):
    """A scenario's fabrics resolved: the rows, their numeric inputs and their codes."""
    rows: tuple  # FabricRow per fabric
    numbers: np.ndarray  # (K, F) read-only: NUMERIC_FABRIC_FIELDS per fabric (NICs per GPU: 0, set per point)
    codes: np.ndarray  # (2, F, 1) read-only: the transport's and the loss recovery's code per fabric


# the last fabric section resolved, by identity: a section is frozen (and its custom fabrics), and a session sweeps
# the same scenario, or copies of it that change another section, again and again
_LAST_FABRICS = [(None, None)]


def _resolved_fabrics(s: Scenario) -> _Fabrics:
    """:func:`resolve_fabrics` of ``s`` with its numbers and codes, kept for the last fabric section (the rows are
    not changed once made)."""
    section, fabrics = _LAST_FABRICS[0]
    if section is not s.fabric:
        rows = tuple(resolve_fabrics(s))
        per_gpu = any(r.values["nics_per_node"] == "per_gpu" for r in rows)
        numbers = np.array([[0.0 if k == "nics_per_node" and per_gpu else r.values[k] for r in rows]
                            for k in NUMERIC_FABRIC_FIELDS], dtype=float)
        codes = np.array([[[TRANSPORT_CODE[r.transport]] for r in rows],
                          [[LOSS_RECOVERY_CODE[r.values["loss_recovery"]]] for r in rows]])
        numbers.flags.writeable = codes.flags.writeable = False
        fabrics = _Fabrics(rows, numbers, codes)
        _LAST_FABRICS[0] = (s.fabric, fabrics)
    return fabrics


def _plan_key(s: Scenario):
    """The scenario's plan-search settings: mode, fixed degrees and micro-batch (part of the plan-cache key)."""
    return (s.parallel.resolved_mode, s.parallel.tp, s.parallel.pp, s.parallel.virtual_stages,
            s.workload.micro_batch, s.workload.recompute, _zero_stages(s), s.parallel.cp, s.parallel.ep,
            s.workload.experts)


def _zero_stages(s: Scenario) -> tuple:
    """The ZeRO stages the plan search may use: the user's, or stage 0/1 from ``distributed_optimizer``."""
    p = s.parallel
    if p.zero_stage is not None:
        return (p.zero_stage,)
    if p.distributed_optimizer is not None:
        return (1,) if p.distributed_optimizer else (0,)
    return ZERO_CANDIDATES


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
    # what fixes the network inputs (:data:`NETWORK_POINT_KEYS` and the fabric arrays) when no swept value is one of
    # them: the scenario's cluster, topology and fabric sections (by identity), the points and the fabric width;
    # else None
    network_key: tuple | None = None


def _constant_rows(values: dict, n: int) -> dict:
    """One float array (n,) per scalar of ``values``: the rows of one table (one allocation, not one each)."""
    table = np.empty((len(values), n))
    table[:] = np.array(list(values.values()), dtype=float)[:, None]
    return dict(zip(values, table))


def _fabric_arrays(fabrics: _Fabrics, n, gpn):
    """The fabric inputs as (F, n) arrays, each fabric's value at every point (``n`` 1: at one point for all),
    but NICs per GPU, which follow the GPUs per node ``gpn`` at every point; the numeric ones are the blocks of
    one table (one allocation, not one each)."""
    table = np.empty(fabrics.numbers.shape + (n,))
    table[:] = fabrics.numbers[:, :, None]
    fab = dict(zip(NUMERIC_FABRIC_FIELDS, table))
    nics = [r.values["nics_per_node"] for r in fabrics.rows]
    if "per_gpu" in nics:
        out = np.empty((len(nics), gpn.size))
        for i, v in enumerate(nics):
            out[i] = gpn if v == "per_gpu" else float(v)
        fab["nics_per_node"] = out
    fab["transport"] = fabrics.codes[0] * np.ones((1, n), dtype=int)
    fab["loss_recovery"] = fabrics.codes[1] * np.ones((1, n), dtype=int)
    return fab


def build_inputs(s: Scenario, field: str | None = None, values=None, fabric_points_cut: bool = False) -> Inputs:
    """Resolve ``s`` into arrays, with ``field`` replaced by ``values`` if given.

    ``fabric_points_cut``: the fabric inputs that are the same at every point (all but a swept fabric value and
    NICs per GPU along a GPUs-per-node sweep) have shape (F, 1), so that what depends only on the fabric is
    computed once per fabric, not once per point as well.
    """
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
    fabrics = _resolved_fabrics(s)
    rows = list(fabrics.rows)
    fab_override, swept = None, {}
    if field is not None:
        if field in SWEEPABLE:
            key = field.split(".", 1)[1]
            if key == "host_cores" or SWEEPABLE[field] is int:
                if np.any(values_arr != np.round(values_arr)):
                    raise ScenarioError(field, values, "whole numbers")
            _check_point_values(field, values_arr)
            swept[key] = np.broadcast_to(values_arr, (n,))
            if key in economics.OTHER_CURRENCY_FIELD:
                pt[economics.OTHER_CURRENCY_FIELD[key]] = np.nan
        else:
            fab_override = _parse_fabric_field(s, field)
    # every point input but the swept one holds one value here
    pt.update(_constant_rows({k: x for k, x in pt.items() if k not in swept}, n))
    pt.update(swept)
    gpn = pt["gpus_per_node"]
    experts = float(w.experts or 1)
    top_k = float(w.top_k or (2 if experts > 1 else 1))
    fp8 = w.precision == "fp8"
    const = _constant_rows({
        **({} if w.layers is None else {"layers": w.layers, "hidden": w.hidden, "heads": w.heads}),
        **({} if w.kv_heads is None else {"kv_heads": w.kv_heads}),
        "ffn": np.nan if w.ffn_hidden is None else float(w.ffn_hidden), "zeros": 0.0, "experts": experts,
        "moe_tokens": top_k * (w.capacity_factor if experts > 1 else 1.0),  # token copies per token
        "untied": float(w.untied_embeddings), "peak_flops": g["peak_bf16_tflops"] * 1e12, "fp8": float(fp8),
        "grad_ratio": GRAD_WIRE_BYTES[w.grad_precision] / GRAD_BYTES,
        "gemm_peak": fp8_gemm_peak(g["peak_fp8_tflops"] * 1e12) if fp8 else g["peak_bf16_tflops"] * 1e12,
        "hbm_bytes_per_s": g["hbm_gb_per_s"] * 1e9, "memory_bytes": g["memory_gb"] * 1e9,
        "intra_busbw": g["intra_gb_per_s"] * 1e9 * g["intra_busbw_fraction"],
        "intra_p2p_bw": g["intra_gb_per_s"] * 1e9,
        "nvls_busbw": g.get("nvls_busbw_gb_per_s", 0.0) * 1e9,  # NVLink SHARP in the node (0: none)
        "ll_max_node": float(gpu_ll_max_bus_gb_per_s(g, 1)) * 1e9,  # LL protocol's cap in the node
        "pcie_gb_per_s": float(pcie_cap_gb_per_s(g.get("pcie_gen", 5))),
        "cp_min_tokens": CP_MIN_TOKENS_PER_RANK if p.cp is None else 0.0,
        "tp_overlap": float(p.tp_overlap), "ep_overlap": float(p.ep_overlap)}, n)
    if w.layers is not None:
        pt["layers"], pt["hidden"], pt["heads"] = const["layers"], const["hidden"], const["heads"]
    else:
        pt["layers"], pt["hidden"], pt["heads"] = derive_architecture(pt["params_b"], pt["vocab"])
    pt["kv_heads"] = pt["heads"] if w.kv_heads is None else const["kv_heads"]
    ffn = const["ffn"]
    # mixture-of-experts: every layer's MLP is ``E`` experts, each token goes to ``K`` of them (padded to the
    # capacity factor); the FLOPs follow the ``K`` active experts, the parameters all ``E``
    full = layer_matmul_weights(pt["hidden"], pt["heads"], pt["kv_heads"], ffn)
    attn = layer_matmul_weights(pt["hidden"], pt["heads"], pt["kv_heads"], const["zeros"])
    mlp = full - attn
    pt["experts"] = const["experts"]
    pt["attn_weights"] = attn
    pt["expert_weights"] = experts * mlp + (experts > 1) * pt["hidden"] * experts  # with the router
    pt["layer_weights"] = attn + top_k * mlp  # active: model FLOPs
    pt["moe_tokens"] = const["moe_tokens"]
    pt["layer_weights_time"] = attn + pt["moe_tokens"] * mlp
    pt["mlp_ratio"] = np.broadcast_to(mlp_activation_ratio(pt["hidden"], ffn), (n,)) * pt["moe_tokens"]
    pt["untied"] = const["untied"]
    pt["params"] = params_from_architecture(pt["layers"], pt["hidden"], pt["vocab"], attn + pt["expert_weights"],
                                            pt["untied"])
    pt["gpus"] = pt["nodes"] * gpn
    pt.update((k, const[k]) for k in ("peak_flops", "fp8", "grad_ratio", "gemm_peak", "hbm_bytes_per_s",
                                      "memory_bytes", "intra_busbw", "intra_p2p_bw", "nvls_busbw", "ll_max_node",
                                      "pcie_gb_per_s"))
    pt["flash"] = np.full(n, w.flash_attention)
    pt["cp_min_tokens"] = const["cp_min_tokens"]
    pt["sp"] = np.full(n, p.sequence_parallel)
    pt["dp_overlap"] = np.full(n, p.dp_overlap)
    pt["tp_overlap"], pt["ep_overlap"] = const["tp_overlap"], const["ep_overlap"]

    width = 1 if fabric_points_cut else n
    # cut to one point, NICs per GPU are one value per fabric too where the GPUs per node do not change
    fab = _fabric_arrays(fabrics, width, cut_constant_points(gpn, 0) if fabric_points_cut else gpn)
    if fab_override is not None:
        names, key = fab_override
        idx = [i for i, r in enumerate(rows) if r.name in names]
        fab[key] = np.broadcast_to(fab[key], (len(rows), n)).copy()
        fab[key][idx, :] = values_arr[None, :]
        _check_fabric_values(key, values_arr, field)
    network_key = None
    if field is None or field.split(".", 1)[0] not in ("cluster", "topology", "fabric"):
        network_key = (s.cluster, s.topology, s.fabric, n, width)
    return Inputs(n=n, point=pt, fabric=fab, fabrics=rows, network_key=network_key)


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
    """Sweep values get their fields' limits, as a scenario's own value does (a cluster or workload field's range
    by its smallest and largest value; every distinct value of the other sections)."""
    from .scenario import SECTIONS, validate_value

    section, key = field.split(".", 1)
    if section in ("cluster", "workload"):
        whole = SWEEPABLE.get(field) is int
        for v in (values.min(), values.max()):
            validate_value(SECTIONS[section], key, int(v) if whole else float(v), field)
    elif section in ("reliability", "topology", "economics"):
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
    """Plan candidates (tp, pp, micro_batch, virtual_stages, recompute, zero_stage, cp, ep): float arrays of shape (C,).

    Auto mode searches tensor parallelism inside a node, pipeline depths in
    powers of two (the layers must split into the stages, see :func:`_degrees_valid`),
    micro-batches of 1, 2 or 4 and 1, 2 or 4 virtual stages; every mode searches
    the recompute kinds and ZeRO stages the scenario leaves open, and context parallelism for long sequences
    (:data:`CP_MIN_TOKENS_PER_RANK`). The candidates
    come in groups of the same degrees, one per (recompute, zero stage), recompute
    outer: the plan search keeps the cheapest of a group that fits. Candidates that
    no point of ``pt`` can use are dropped before evaluation (whole groups).
    """
    p, w = s.parallel, s.workload
    explicit = p.resolved_mode == "explicit"
    tps = (p.tp or 1,) if explicit else TP_CANDIDATES
    pps = (p.pp or 1,) if explicit else PP_CANDIDATES
    mbs = (w.micro_batch,) if w.micro_batch is not None else MB_CANDIDATES
    vs = (p.virtual_stages,) if p.virtual_stages is not None else V_CANDIDATES
    rcs = _recompute_kinds(s)
    cps = (p.cp or 1,) if (explicit or p.cp is not None) else CP_CANDIDATES
    if p.ep is not None or not w.experts or w.experts == 1:
        eps = (p.ep or 1,)
    else:
        eps = tuple(e for e in EP_CANDIDATES if w.experts % e == 0)
    choices = (tps, pps, mbs, vs, rcs, _zero_stages(s), cps, eps)
    grid = _candidate_grid(*choices)  # (8, C)
    if grid.size == 0:  # only an explicit pp = 1 with virtual stages > 1, which validation refuses
        raise ScenarioError("parallel.virtual_stages", p.virtual_stages, "1 or left out when pp = 1")
    if pt is not None and not explicit:
        grid = _usable_candidates(choices, *(float(pt[k].max()) for k in ("gpus_per_node", "layers", "gpus")),
                                  float(pt["seq_len"].max()) if p.cp is None else None)
    return tuple(grid)


# the grids kept for the largest GPUs per node, layers, GPUs and sequence of a sweep: one per (scenario, sweep
# range) a session goes back and forth between
@functools.lru_cache(maxsize=32)
def _usable_candidates(choices, gpn_max, layers_max, gpus_max, seq_len_max):
    """:func:`_candidate_grid` of ``choices`` without the candidates no point can use: tensor parallelism beyond
    the largest node, more model chunks than the most layers, more ranks than the most GPUs, and (``seq_len_max``
    given: context parallelism searched) a context-parallel rank short of :data:`CP_MIN_TOKENS_PER_RANK` of the
    longest sequence; whole groups, so the first group (one per recompute kind and ZeRO stage) when none is left.
    A read-only (8, C) array."""
    grid = _candidate_grid(*choices)
    group = len(choices[4]) * len(choices[5])  # consecutive candidates of the same degrees
    t, p, v, c = (grid[i, ::group] for i in (0, 1, 3, 6))
    # once per group, in place on a few arrays: a cold call's fixed cost (C is about 11,000 in auto mode)
    keep = t <= gpn_max
    keep &= p * v <= layers_max
    ranks = t * p
    ranks *= c
    keep &= ranks <= gpus_max
    if seq_len_max is not None:
        keep &= (c == 1) | (seq_len_max / c >= CP_MIN_TOKENS_PER_RANK)
    grid = grid.compress(np.repeat(keep, group), axis=1) if keep.any() else grid[:, :group]
    grid.flags.writeable = False
    return grid


# one grid per choice lists: auto mode has a handful (micro_batch, virtual_stages, recompute and the ZeRO stage each
# free or fixed by the scenario), explicit mode one per plan the user types. 16 keeps those a session goes back and
# forth between; a miss only rebuilds at most a few thousand candidates (about 1 ms)
@functools.lru_cache(maxsize=16)
def _candidate_grid(tps, pps, mbs, vs, rcs=(1,), zs=(1,), cps=(1,), eps=(1,)):
    """Every (tp, pp, micro_batch, virtual_stages, recompute, zero_stage, cp, ep) combination: a read-only (8, C) array.

    Rows in that order; the columns vary the ZeRO stage fastest, then the recompute kind (one group of the same
    degrees), then ep, cp, v, micro_batch, pp and tp.
    """
    grid = np.array([(t, q, b, v, r, z, c, e) for t in tps for q in pps for b in mbs for v in vs for c in cps
                     for e in eps for r in rcs for z in zs if not (q == 1 and v > 1)], dtype=float).T.copy()
    grid.flags.writeable = False
    return grid


def _network_state(pt, fab):
    """What the fabric's switch tree adds (arrays broadcasting to (F, N)): levels, path latency, loaded RTT.

    ``rtt_us``: twice the one-way latency of the longest path (the fabric's latency plus
    :func:`~model.collectives.extra_tier_latency_us`) plus the queueing of a loaded path
    (:func:`~model.topology.queueing_us` of a link busy with a collective) — the round trip loss
    recovery and the window wait on. ``leaf``: :func:`~model.topology.leaf_geometry`; ``flows``: the
    connections hashed per NIC link (TCP sockets, or RDMA queue pairs); ``tree``: the whole
    :func:`~model.topology.fat_tree` the levels come from (the fabric counts read it too); ``congestion``:
    :func:`_congestion_inputs` (the plan search and the outputs read it).
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
               flows=np.where(fab["transport"] == TRANSPORT_CODE["tcp"],
                              CHANNELS_PER_NIC * fab["sockets_per_connection"], fab["qps_per_connection"]),
               adaptive=fab["adaptive_routing"] > 0, tree=tree)
    net["congestion"] = _congestion_inputs(net)
    return net


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
NETWORK_POINT_KEYS = ("nodes", "oversubscription", "pcie_gb_per_s", "host_cores", "cpu_for_network_fraction")
# the last network state and bandwidths with their Inputs.network_key: a sweep along a model, batch, reliability or
# money input, and the point beside it, leave them alone from call to call
_LAST_NETWORK = [(None, None)]


def _network(inp: Inputs):
    """:func:`_network_state` and :func:`_inter_bandwidths` of ``inp``, kept for the last ``inp.network_key``.

    They read only :data:`NETWORK_POINT_KEYS` (handed to them alone) and the fabric arrays, which the key fixes.
    Kept ones are handed out as copies: their arrays become outputs, which their receiver owns. A point input the
    same at every point (all of them along a model, batch or money sweep) is cut to one point: the switch tree,
    the loaded round trip and the loss recovery are then computed once per fabric, not once per point as well.
    """
    pt = {k: cut_constant_points(inp.point[k], 0) for k in NETWORK_POINT_KEYS}
    key = inp.network_key
    held_key, held = _LAST_NETWORK[0]
    if key is None or held_key is None or not (all(a is b for a, b in zip(key[:3], held_key[:3]))
                                               and key[3:] == held_key[3:]):
        net = _network_state(pt, inp.fabric)
        held = (net, _inter_bandwidths(pt, inp.fabric, net))
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


def _step_latency_s(net):
    """Latency of one inter-node step of a collective [s]: the longest path's one-way latency (the fabric's
    plus the further switch tiers) plus NCCL's software step. ``net``: :func:`_network_state`."""
    return (net["one_way_us"] + NCCL_NET_STEP_SW_US) * 1e-6


def _congestion_inputs(net):
    """The fabric side of the leaf-uplink congestion, as arrays of shape (F, N): the nodes under a leaf and
    :func:`~model.topology.uplink_load_terms` ``mean`` and ``spread``."""
    leaf = net["leaf"]
    mean, spread = topology.uplink_load_terms(leaf["nodes_per_leaf"], leaf["uplinks"], net["flows"], net["adaptive"])
    return dict(nodes_per_leaf=leaf["nodes_per_leaf"], mean=mean, spread=spread)


def _compute_side(pt, t, p, b, v, rc, z, round_batch, plan_side=None, c=1.0, replicas=None, e=1.0, search=False):
    """Everything that does not depend on the fabric, for plans of any shape broadcasting with the point arrays.

    Returns the compute-side times and the "communication geometry": the
    coefficients that turn a fabric's per-node bandwidth and per-step latency
    into pipeline and data-parallel communication time with a few operations.
    The algebra is that of :func:`~model.collectives.hierarchical_all_reduce_time`
    and :func:`~model.collectives.p2p_time` (a test checks they agree).
    ``rc``: recompute code (0 none, 1 selective, 2 full); ``z``: ZeRO stage (0-3); ``c``: context-parallel
    degree (the ``d·c`` ranks that hold the same weights reduce gradients and shard states together, as
    Megatron-LM's distributed optimizer does over data × context parallelism).
    ``plan_side``: :func:`_plan_side` of the same plans, if already computed; ``replicas``: their
    :func:`_replicas` ``(d, m)``, likewise (with ``round_batch``, whole numbers of replicas, as it gives them).
    ``search``: only what the plan search reads (:data:`STEP_KEYS`, :data:`CONGESTION_PLAN_KEYS`, ``d`` and ``m``),
    not the plan's own degrees and stage (``cp``, ``ep``, ``rc``, ``zero``, ``dist``) that its rows already hold.

    ZeRO traffic (Rajbhandari et al. 2020, §7): stages 0 and 1 move one all-reduce's volume per step
    (stage 1 as a reduce-scatter and an all-gather), overlapped with the last micro-batch's backward;
    stage 2 reduce-scatters every micro-batch's gradients (``m`` reduce-scatters and one all-gather: a
    factor ``(m + 1)/2``) during each backward; stage 3 (FSDP) also all-gathers the weights before each
    micro-batch's forward and backward (``3m`` halves: a factor ``1.5·m``), overlapped with forward and backward
    by prefetching one layer ahead (PyTorch FSDP). One bucket (one layer's gather) stays exposed.
    """
    gpn = pt["gpus_per_node"]
    ps = _plan_side({k: pt[k] for k in PLAN_SIDE_POINT_KEYS}, t, p, b, v, rc, c, e) if plan_side is None else plan_side
    d_seq, m = _replicas(pt, t, p, b, round_batch, c) if replicas is None else replicas
    d = d_seq * c  # ranks that hold the same weights
    g = pt["grad_ratio"]
    by_stage = (np.ndim(z) == 2 and np.shape(z)[0] == 1 and np.ndim(d) == 2 and np.shape(d)[1] == 1
                and np.shape(d)[0] >= GRID_MIN_ENTRIES)
    # without data parallelism there is nothing to shard; rows against a row of stages: on (stages, rows), seen
    # as (rows, stages) (numpy broadcasts along a short last axis several times slower)
    if not (search and by_stage):  # else only the stage terms read the stage, a stage at a time
        zero = np.where(d.T > 1, np.asarray(z).T, 0.0).T if by_stage else np.where(d > 1, z, 0.0)
        dist = zero >= 1
    if by_stage:  # the plan search's many rows against a row of stages: the stage terms a stage at a time
        opt, volume, window = _stage_columns(np.asarray(z)[0], d > 1, d, m, g, ps, pt["hbm_bytes_per_s"])
    else:
        opt = optimizer_time(ps["params_gpu"] / np.where(dist, d, 1.0), pt["hbm_bytes_per_s"])
    # data-parallel gradient reduction, hierarchical and bucketed: reduce-scatter and all-gather inside the
    # node (the same cost: same bus factor and steps), all-reduce of each rank's shard across nodes
    # (operations into this call's own temporaries, ``out=_own(x)``, where the other operands broadcast into them:
    # the same values, fewer arrays of the rows' size)
    in_node = gpn / t
    in_node = np.maximum(np.floor(in_node, out=_own(in_node)), 1.0, out=_own(in_node))
    g_dp = np.minimum(np.maximum(d, 1.0), in_node)  # d = 0: a plan that cannot be
    n_dp = d / g_dp
    n_dp = np.ceil(n_dp, out=_own(n_dp))
    buckets, per_bucket = ps["buckets"], ps["per_bucket"]
    # the reduce-scatter's bus factor and latency, and the all-reduce's steps and bus factor across nodes: functions
    # of the few whole numbers g_dp and n_dp take, computed once per number on the plan search's many rows
    # whole g_dp: the search's replicas in auto mode are whole (a floor, or a divisor of the batch: _replicas) of
    # whole degrees, and the in-node cap is a floor
    bf_rs, lat_rs = _at_whole_values(g_dp, _reduce_scatter_terms, whole=search and round_batch)
    steps, bf_ar = _at_whole_values(n_dp, _all_reduce_terms, whole=True)  # whole: a ceil
    beta = per_bucket * bf_rs / pt["intra_busbw"]
    rs = np.where(g_dp > 1, lat_rs + beta, 0.0)  # collective_time("reduce_scatter", per_bucket, g_dp, ...)
    # NCCL pipelines the in-node and the network phases: their bandwidth terms overlap (the slower sets the pace),
    # their latencies add (model.collectives.nccl_collective)
    intra_bw = buckets * 2.0 * per_bucket * bf_rs / pt["intra_busbw"]
    intra = np.add(rs, rs, out=rs)  # buckets · (rs + rs) − intra_bw, in rs (it holds the shapes of all three)
    intra = np.subtract(np.multiply(buckets, intra, out=intra), intra_bw, out=intra)
    inter_buckets = buckets * (n_dp > 1)  # the buckets that cross nodes
    # one all-reduce's network latency and bandwidth terms, in their own arrays (intra holds the shapes of both)
    inter_lat = inter_buckets * NCCL_BASE_US
    inter_lat = np.add(intra, np.multiply(inter_lat, 1e-6, out=_own(inter_lat)), out=intra)
    inter_bw = per_bucket / g_dp
    inter_bw = np.multiply(np.multiply(inter_buckets, inter_bw, out=_own(inter_bw)), bf_ar, out=_own(inter_bw))
    inter_bw = np.multiply(inter_bw, gpn, out=_own(inter_bw))
    # halves of an all-reduce's volume: reduce-scatters of gradients (in ``grad_precision``, ratio ``g`` to bf16)
    # and all-gathers (of bf16 weights with ZeRO ≥ 1; of gradients, the all-reduce's second half, with stage 0)
    if not by_stage:
        rs_halves = np.where(zero >= 2, m, 1.0)
        ag_halves = np.where(zero >= 3, 2.0 * m, 1.0) * np.where(zero == 0, g, 1.0)
        volume = 0.5 * (rs_halves * g + ag_halves)
        window = np.where(zero >= 2, m * (ps["window"] + (zero >= 3) * ps["fwd_window"]), ps["window"])
    # what the step and memory read per plan: not the bucket size nor the parameters per GPU (in ``opt``)
    cs = {k: x for k, x in ps.items() if k not in ("per_bucket", "params_gpu", "fwd_window")}
    if not search:
        cs.update(dist=dist, cp=_float_copy(c, np.shape(d)), ep=_float_copy(e, np.shape(d)),
                  rc=_float_copy(rc, np.shape(d)), zero=zero)
    slots = m * v + p
    cs.update(
        d=d_seq, m=m, opt=opt, window=window, n_dp=n_dp,
        stage_nodes=t * c * d_seq / gpn,  # pipeline placement; the depth: the rows' own array in the search
        stages=p if search and np.shape(p) == np.shape(d) else _float_copy(p, np.shape(d)),
        dp_volume=volume, buckets=buckets,
        slots=np.subtract(slots, 1.0, out=_own(slots)), m_logits=m * ps["logits"],
        # one all-reduce's volume (``dp_volume`` all-reduces' worth per step: the ZeRO stage's traffic):
        # intra + inter_buckets · NCCL_BASE_US · 1e-6, inter_buckets · (per_bucket / g_dp) · bf_ar · gpn
        dp_k0=inter_lat, dp_intra_bw=intra_bw,
        dp_k1=inter_buckets * steps,
        dp_k2=inter_bw,
    )
    return cs


def _own(x):
    """``x`` as the ``out`` of an elementwise operation on it: ``x`` itself where it is an array (a temporary of the
    caller's own, overwritten in place: the same values without a new array), else None (a number: a new one)."""
    return x if type(x) is np.ndarray else None


def _reduce_scatter_terms(g):
    """The in-node reduce-scatter of ``g`` ranks' bus factor and latency [s], the two terms of
    :func:`~model.collectives.collective_time` over NVLink: ``latency + size · factor / busbw`` for ``g > 1``."""
    return bus_factor("reduce_scatter", g), collective_latency_s("reduce_scatter", g, NCCL_NVLINK_STEP_US * 1e-6)


def _all_reduce_terms(n):
    """The all-reduce of ``n`` nodes' latency steps (the fewer of ring and tree) and bus factor."""
    return np.minimum(ring_steps("all_reduce", n), tree_steps("all_reduce", n)), bus_factor("all_reduce", n)


def _at_whole_values(x, fn, whole=False):
    """``fn(x)`` (a tuple of arrays, elementwise in ``x``), computed once per value where ``x`` holds whole numbers
    from 0 to a quarter of its size (the data-parallel ranks in and across nodes of the plan search's rows): on
    those numbers, then read at each entry. Elsewhere ``fn(x)`` itself; the same values either way (the same
    elementwise operations on the same numbers). ``whole``: ``x`` holds whole numbers wherever it is finite (a
    ``ceil``'s result): then the range alone is checked (a NaN or an infinity fails it), not each entry."""
    x = np.asarray(x, dtype=float)
    if x.size >= GRID_MIN_ENTRIES:
        top = x.max()
        if 0.0 <= x.min() and top < x.size // 4:
            idx = x.astype(np.intp)
            if whole or np.array_equal(idx, x):
                return tuple(np.take(y, idx) for y in fn(np.arange(top + 1.0)))
    return fn(x)


def _stage_columns(stages, sharded, d, m, g, ps, hbm):
    """:func:`_compute_side`'s ZeRO-stage terms ``opt``, ``dp_volume`` and ``window`` for plans (rows, 1) against
    the stages ``stages`` (Z,): arrays (rows, Z), computed a stage at a time from what differs between stages
    (the optimizer step is that of any sharded stage), element by element the same expressions; ``opt`` (rows, 1)
    where every stage shards (one column: the same at each, broadcasting against the others).
    ``sharded``: ``d > 1`` (the stage applies; else stage 0).

    Each stage's expression is computed straight into its column (``out=``, operands in the same order), and the
    rows that do not shard then take stage 0's value (``copyto``): no temporaries of the rows' size to copy in,
    and no masking where every row shards (the plan search's rows mostly have data parallelism)."""
    n = np.shape(d)[0]
    unsharded = None if sharded.all() else ~sharded
    opt_sharded = optimizer_time(ps["params_gpu"] / (d if unsharded is None else np.where(sharded, d, 1.0)), hbm)
    opt_whole = optimizer_time(ps["params_gpu"] / 1.0, hbm) if np.any(np.asarray(stages) < 1) else None
    volume_0 = 0.5 * (1.0 * g + 1.0 * g)  # stage 0: the all-reduce's two halves of gradients
    w, fwd = ps["window"], ps["fwd_window"]
    volume, window = np.empty((n, len(stages))), np.empty((n, len(stages)))
    opt = opt_sharded if opt_whole is None else np.empty((n, len(stages)))
    m_g = None
    for i, z in enumerate(stages):
        vol, win = volume[:, i:i + 1], window[:, i:i + 1]
        if opt_whole is not None:
            opt[:, i:i + 1] = opt_sharded if z >= 1 else opt_whole
        if z < 1:
            vol[...] = volume_0
        else:  # 0.5 · (rs_halves · g + ag_halves): halves (1, 1) at stage 1, (m, 1) at 2, (m, 2m) at 3 (ag: bf16)
            if z == 1:
                vol[...] = 0.5 * (1.0 * g + 1.0)
            else:
                m_g = m * g if m_g is None else m_g
                if z == 2:
                    np.add(m_g, 1.0, out=vol)
                else:
                    np.multiply(2.0, m, out=vol)
                    np.add(m_g, vol, out=vol)
                vol *= 0.5
            if unsharded is not None:
                np.copyto(vol, volume_0, where=unsharded)
        if z >= 2:  # m · (w + forward windows): at stage 3 the weights gathered before each forward, else 0 · those
            if z >= 3:
                np.add(w, fwd, out=win)
            else:
                np.multiply(0.0, fwd, out=win)
                np.add(w, win, out=win)
            np.multiply(m, win, out=win)
            if unsharded is not None:
                np.copyto(win, w, where=unsharded)
        else:
            win[...] = w
    return opt, volume, window


# the terms of _plan_side that _compute_side computes with (the others it passes on)
COMPUTE_SIDE_PLAN_KEYS = ("params_gpu", "buckets", "per_bucket", "window", "fwd_window", "logits")


# point inputs of _plan_side: with none of them changing along a sweep, it runs once per candidate plan
PLAN_SIDE_POINT_KEYS = ("experts", "attn_weights", "expert_weights", "layer_weights_time", "moe_tokens",
                        "seq_len", "hidden", "heads", "kv_heads", "layers", "vocab", "gpus_per_node", "peak_flops",
                        "hbm_bytes_per_s", "sp", "flash", "intra_busbw", "intra_p2p_bw", "layer_weights", "mlp_ratio",
                        "gemm_peak", "untied", "nvls_busbw", "ll_max_node", "tp_overlap", "ep_overlap")


def _plan_side(pt, t, p, b, v, rc, c=1.0, e=1.0):
    """What depends on the plan and the model but not on the number of GPUs (so not on ``d`` or ``m``).

    Layer times, tensor-parallel communication, the pipeline's point-to-point geometry and the
    gradient buckets; ``pt`` holds :data:`PLAN_SIDE_POINT_KEYS`, ``rc`` is the recompute code.

    Context parallelism ``c`` (Megatron-LM context parallel, ring attention: Liu et al., "Ring Attention with
    Blockwise Transformers", 2023) gives each rank ``s/c`` tokens: dense work, activations, tensor-parallel
    and pipeline messages shrink by ``c``; attention, ``s/c`` queries against all ``s`` keys (causal,
    load-balanced), by ``c`` as well. The key/value blocks travel the ring: :data:`RING_PASSES` ·
    ``(c−1)`` steps per layer and micro-batch of ``2·b·(s/c)·k·(h/a)/t`` bf16 elements, hidden behind the
    attention core; across nodes when the ``t·c`` ranks do not fit in one.

    Mixture-of-experts (Lepikhin et al. 2021, GShard; Megatron-LM MoE): the experts are split over ``e``
    expert-parallel ranks; each MoE layer moves every token's ``K·capacity`` copies (``s/c·b/t`` tokens of ``h``
    bf16 values a rank, sequence-parallel) through :data:`MOE_ALL_TO_ALLS` all-to-alls a micro-batch, on the
    critical path: over NVLink among the ranks in a node, over the fabric for the share ``1 − g/e`` that leaves
    it (``g`` ranks of the group per node), at the node's bandwidth, one latency step per other node.
    """
    return _stage_side(pt, _layer_side(pt, t, b, rc, c, e), t, p, v, c, e)


def _layer_side(pt, t, b, rc, c=1.0, e=1.0):
    """The terms of :func:`_plan_side` of one layer: they depend on the model but not on its number of layers,
    and on the plan but not on its pipeline depth nor virtual stages.

    Along a model-size sweep the hidden size takes a few values (multiples of :data:`HIDDEN_MULTIPLE`) while
    the layer count changes at almost every point: :func:`_plan_side_of` computes these once per distinct
    (model without its layer count, tp, micro-batch, recompute, cp, ep).
    """
    s_full, h, a, V = pt["seq_len"], pt["hidden"], pt["heads"], pt["vocab"]
    s = s_full / c
    gpn = pt["gpus_per_node"]
    dense_f, core_f = layer_times_forward(b, s, h, a, t, pt["peak_flops"], pt["hbm_bytes_per_s"], pt["sp"],
                                          pt["flash"], layer_weights=pt["layer_weights_time"], mlp_ratio=pt["mlp_ratio"],
                                          gemm_peak_flops=pt["gemm_peak"])
    core_f = core_f * c  # s/c queries against all s keys
    extra = np.where(rc == 2, dense_f + core_f, np.where(rc == 1, core_f, 0.0))
    layer_compute = 3.0 * (dense_f + core_f) + extra
    n_ar = 4.0 + 2.0 * (rc == 2)
    t_ar = in_node_collective_time("all_reduce", b * s * h * BYTES_BF16, t, pt["intra_busbw"], pt["intra_p2p_bw"],
                                   pt["nvls_busbw"], pt["ll_max_node"])
    layer_tp = n_ar * t_ar
    # tensor-parallel overlap: each all-gather / reduce-scatter is split into t steps pipelined with the partial
    # GEMMs they feed (Wang et al., ASPLOS 2023; Transformer Engine userbuffers): the first step stays exposed, and
    # whatever the layer's dense forward and backward cannot hide
    hidden_tp = np.maximum(layer_tp - 3.0 * dense_f, 0.0) + layer_tp / t
    layer_tp = np.where(pt["tp_overlap"] > 0, np.minimum(hidden_tp, layer_tp), layer_tp)
    logits = logits_time(b, s, h, V, t, pt["peak_flops"], pt["hbm_bytes_per_s"])
    msg = s * h * BYTES_BF16 * b / t  # scatter/gather over the t NICs (Narayanan et al. §4.1)
    # one in-node send between two pipeline stages (the stage side keeps it where there are stages)
    p2p_send = in_node_collective_time("sendrecv", msg, 2.0, pt["intra_busbw"], pt["intra_p2p_bw"],
                                       ll_max_bytes_per_s=pt["ll_max_node"])
    # ring attention: one step's block per GPU, the steps per layer, and what hides them (the attention core)
    ring_block = 2.0 * b * s * pt["kv_heads"] * (h / a) / t * BYTES_BF16
    ring_steps_layer = RING_PASSES * (c - 1.0)
    ring_crosses = (c > 1) & (t * c > gpn)
    ring_intra = ring_steps_layer * p2p_time(ring_block, pt["intra_p2p_bw"], NCCL_NVLINK_STEP_US * 1e-6)
    hide = 3.0 * core_f
    # what hides a ring crossing nodes and the bytes it sends there: read only where a ring crosses nodes (the
    # step's ring term), so one value 0 where none does (no context parallelism): not read at every plan
    ring_net = (ring_block * gpn, hide) if np.any(ring_crosses) else (np.zeros((1,) * max(np.ndim(hide), 1)),) * 2
    # expert-parallel all-to-all: bytes a rank sends, its share inside the node and across nodes
    a2a_bytes = pt["moe_tokens"] * b * s * h * BYTES_BF16 / t * (pt["experts"] > 1)
    g_ep = np.minimum(e, np.maximum(np.floor(gpn / (t * c)), 1.0))
    a2a_intra = collective_time("all_to_all", a2a_bytes * g_ep / e, g_ep, pt["intra_busbw"],
                                NCCL_NVLINK_STEP_US * 1e-6)
    return dict(
        layer_compute=layer_compute, layer_tp=layer_tp, logits=logits, p2p_send=p2p_send,
        p2p_bytes_node=msg * gpn, ring_crosses=ring_crosses, ring_steps_layer=ring_steps_layer,
        ring_bytes_node=ring_net[0], hide=ring_net[1], ring_gap=np.maximum(ring_intra - hide, 0.0),
        a2a_bytes=a2a_bytes, a2a_out=1.0 - g_ep / e, a2a_intra=a2a_intra, a2a_nodes=np.ceil(e / g_ep),
        window_layer=2.0 * (dense_f + core_f) + extra, fwd_layer=dense_f + core_f,
        fixed_layer=layer_compute + layer_tp + MOE_ALL_TO_ALLS * a2a_intra,
    )


def _stage_side(pt, ls, t, p, v, c=1.0, e=1.0, params_gpu=None, crosses=None):
    """:func:`_plan_side` from its :func:`_layer_side` terms ``ls``: a model chunk's and a pipeline stage's.
    ``params_gpu``: the stage's parameters per GPU (:func:`~model.memory.stage_params`, what the memory of the
    same plans holds as ``params``), if already computed; ``crosses``: whether each plan's pipeline sends cross
    nodes, likewise."""
    l, h, V = pt["layers"], pt["hidden"], pt["vocab"]
    gpn = pt["gpus_per_node"]
    lc = l / (p * v)
    lc = np.ceil(lc, out=_own(lc))
    v_lc = v * lc  # layers of a stage's chunks
    if params_gpu is None:
        params_gpu = stage_params(l, h, V, t, p, pt["attn_weights"] + pt["expert_weights"] / e, pt["untied"])
    # pipeline point-to-point: across nodes when a pipeline group does not sit inside one node
    crosses = _pipeline_crosses(t, p, c, gpn) if crosses is None else crosses
    grad_bytes = params_gpu * GRAD_BYTES
    buckets = grad_bytes / DDP_BUCKET_BYTES
    buckets = np.maximum(np.ceil(buckets, out=_own(buckets)), 1.0, out=_own(buckets))
    return dict(
        # expert-parallel overlap (DeepSeek-AI 2024, DeepSeek-V3 report §3.2.1, DualPipe: one micro-batch's
        # dispatch and combine run while another's chunk computes): the part across nodes hides behind a chunk's
        # forward and backward compute; the NVLink part stays on the critical path
        a2a_hide=_unless_zero(pt["ep_overlap"], lambda: pt["ep_overlap"] * lc * ls["layer_compute"]),
        a2a_steps=_unless_zero(ls["a2a_nodes"] - 1.0, lambda: MOE_ALL_TO_ALLS * lc * (ls["a2a_nodes"] - 1.0)),
        a2a_nodes=ls["a2a_nodes"],
        a2a_bytes_node=_unless_zero(ls["a2a_bytes"],
                                    lambda: MOE_ALL_TO_ALLS * lc * ls["a2a_bytes"] * ls["a2a_out"] * gpn,
                                    ls["a2a_out"]),
        ring_crosses=ls["ring_crosses"],
        ring_steps=_unless_zero(ls["ring_steps_layer"], lambda: ls["ring_steps_layer"] * lc),
        ring_bytes_node=ls["ring_bytes_node"], ring_hide=_unless_zero(ls["hide"], lambda: lc * ls["hide"]),
        chunk_ring_intra=_unless_zero(ls["ring_gap"], lambda: lc * ls["ring_gap"] * ~ls["ring_crosses"]),
        lc=lc, window=v_lc * ls["window_layer"], fwd_window=v_lc * ls["fwd_layer"],
        params_gpu=params_gpu, layer_compute=ls["layer_compute"], layer_tp=ls["layer_tp"], logits=ls["logits"],
        chunk_fixed=lc * ls["fixed_layer"],
        chunk_a2a_intra=_unless_zero(ls["a2a_intra"], lambda: lc * MOE_ALL_TO_ALLS * ls["a2a_intra"]),
        crosses=crosses,
        p2p_bytes_node=ls["p2p_bytes_node"], p2p_intra=np.where(p > 1, ls["p2p_send"], 0.0),
        buckets=buckets, per_bucket=grad_bytes / buckets,
    )


def _pipeline_crosses(t, p, c, gpn):
    """Whether a pipeline group's sends cross nodes [bool]: there are stages, and the ``t·c·p`` ranks of a group do
    not sit inside one node of ``gpn`` GPUs."""
    return (p > 1) & ~_divides(t * c * p, gpn)


def _unless_zero(x, product, *others):
    """``product()``, a product of ``x`` with the number of layers per chunk (finite, positive), layer times
    (finite, not negative: FLOPs and bytes over the GPU's positive rates), positive constants and ``others``; or
    its value, +0.0, as one value when ``x`` is one value +0.0 and ``others`` are finite and not negative (the
    terms of context or expert parallelism where the sweep never uses it: not computed for every plan)."""
    if _one_value(x, 0.0) and all(np.all(np.isfinite(y) & (np.asarray(y) >= 0)) for y in others):
        return np.zeros((1,) * max(np.ndim(x), 1))
    return product()


# point inputs of _layer_side: the model but its number of layers, the GPU and the node
LAYER_SIDE_POINT_KEYS = tuple(k for k in PLAN_SIDE_POINT_KEYS if k != "layers")


def _plan_side_of(pt, at, plans, ci, params_gpu=None, models=None, plan_at=None):
    """:func:`_plan_side` of the candidates ``ci`` at the points ``at`` (index arrays (K,)): arrays (K,), bit for bit.

    ``pt``: :data:`PLAN_SIDE_POINT_KEYS` arrays of shape (N,) or (1,); ``plans``: the candidates' ``(t, p, b, v,
    rc, c, e)``, arrays (C,). The layer terms (:func:`_layer_side`, most of the work: layer times and the in-node
    collectives) come from :func:`_layer_terms`; the stage terms are computed per entry. ``params_gpu``: the
    entries' parameters per GPU (K,), if already computed (the memory's stage parameters); ``models``: the
    points' distinct models for :func:`_layer_terms`, likewise; ``plan_at``: the plans of the entries, ``(t, p, b,
    v, rc, c, e)`` at ``ci`` (K,), likewise.
    """
    t, p, b, v, r, c, e = plans
    n = np.size(at)
    t_at, p_at, b_at, v_at, r_at, c_at, e_at = (np.take(x, ci) for x in plans) if plan_at is None else plan_at
    if n < GRID_MIN_ENTRIES:  # few entries: directly
        pt_at = {k: (np.take(x, at, axis=0) if np.shape(x)[0] > 1 else x) for k, x in pt.items()}
        ls = _layer_side(pt_at, t_at, b_at, r_at, c_at, e_at)
    else:
        ls = _layer_terms(pt, LAYER_SIDE_POINT_KEYS, at, (t, b, r, c, e), ci, _layer_side, models=models)
        pt_at = {k: (np.take(x, at, axis=0) if np.shape(x)[0] > 1 else x)
                 for k, x in ((k, np.asarray(pt[k])) for k in STAGE_SIDE_POINT_KEYS)}
    # whether the pipeline crosses nodes: a function of the plan alone where the node size is one (a model-size
    # sweep), then computed per candidate and read at each entry
    gpn = np.asarray(pt["gpus_per_node"])
    crosses = np.take(_pipeline_crosses(t, p, c, gpn), ci) if n >= GRID_MIN_ENTRIES and gpn.size == 1 else None
    out = _stage_side(pt_at, ls, t_at, p_at, v_at, c_at, e_at, params_gpu, crosses)
    return {k: x if np.shape(x) == (n,) else np.broadcast_to(x, (n,)) for k, x in out.items()}


def _layer_terms(pt, keys, at, plans, ci, layer_fn, trailing=(), models=None):
    """``layer_fn(point arrays, *plan arrays)`` (one layer's terms) at the points ``at`` and the candidates ``ci``
    (index arrays (K,)): arrays (K, *trailing), bit for bit.

    ``pt``: point arrays (N or 1,) holding ``keys``, what ``layer_fn`` reads, which do not include the number of
    layers; ``plans``: the candidates' plan arrays (C,) it reads; ``trailing``: the shape of axes its outputs
    add (inputs get them as length-1 axes). Along a model-size sweep the hidden size takes a few values
    (multiples of :data:`HIDDEN_MULTIPLE`) while the layer count changes at almost every point: the terms are
    computed once per distinct (point model up to its layer count, plan) when that grid is much smaller than K,
    then read at each entry. ``models``: :func:`_point_models` of ``pt`` over ``keys`` or more, if already known.
    """
    n = np.size(at)
    ax = (None,) * len(trailing)
    pts = {k: np.asarray(pt[k]) for k in keys}
    if n >= GRID_MIN_ENTRIES:
        rep, cls = _point_models(pt, keys) if models is None else models
        first, sub = _distinct_rows(list(plans), plans[0].size)
        if rep.size * first.size * 4 <= n:
            grid = layer_fn({k: (x[rep] if x.shape[0] > 1 else x)[(slice(None), None) + ax] for k, x in pts.items()},
                            *(x[first][(None, slice(None)) + ax] for x in plans))
            return _read_grid(grid, (rep.size, first.size), (cls * first.size).take(at) + sub.take(ci), len(trailing))
    return layer_fn({k: (x.take(at, axis=0) if x.shape[0] > 1 else x)[(slice(None),) + ax] for k, x in pts.items()},
                    *(np.take(x, ci)[(slice(None),) + ax] for x in plans))


def _point_models(pt, keys):
    """The distinct models of the points: :func:`_distinct_rows` of the point arrays ``keys`` of ``pt`` that change
    along the sweep (N entries, N the longest array of ``pt``)."""
    return _distinct_rows([np.asarray(pt[k], dtype=float) for k in keys if np.shape(pt[k])[0] > 1],
                          max(np.shape(x)[0] for x in pt.values()))


def _read_grid(grid, shape, idx, n_trailing):
    """The terms ``grid`` (arrays broadcasting to ``shape`` (models, plans) and up to ``n_trailing`` more axes) at the
    flat grid entries ``idx`` (K,): arrays (K, ...), bit for bit.

    A term of one value (a term of a parallelism the sweep never uses; compared as bytes) stays one value. The
    others are read together, one gather per dtype and trailing shape from one stacked table: a gather per term
    would allocate as many arrays of K entries, whose fresh pages cost more than the gather itself. A term with
    trailing axes is held with the entries along memory's fastest axis (seen as (K, ...)): what is computed from
    it against arrays (K, 1) then runs along the entries, not along the short trailing axis.
    """
    out, tables = {}, {}
    for k, x in grid.items():
        x = np.asarray(x)
        x = x.reshape((1,) * (2 + n_trailing - x.ndim) + x.shape)
        raw = x.tobytes()
        if raw == raw[:x.itemsize] * x.size:
            out[k] = x.reshape(-1)[:1].reshape((1,) * (1 + n_trailing))
        else:
            tables.setdefault((x.dtype, x.shape[2:]), []).append(k)
            out[k] = x
    for (dtype, tail), keys in tables.items():
        table = np.empty((len(keys),) + tail + (shape[0] * shape[1],), dtype=dtype)
        for i, k in enumerate(keys):
            table[i].reshape(tail + shape)[...] = np.moveaxis(out[k], (0, 1), (-2, -1))
        for k, x in zip(keys, np.take(table, idx, axis=-1)):
            out[k] = np.moveaxis(x, -1, 0)
    return out


def _distinct_rows(columns, n):
    """The distinct rows of equal-length ``columns`` (a sequence of arrays, or a 2-D array of one column per row;
    no columns: ``n`` entries all alike): the first entry of each distinct row and each entry's row number, index
    arrays (one ``lexsort``, not numpy's slower ``unique`` along an axis). The columns are compared as one table
    of their common type (floats for the plan search's columns).

    Sorted, compared and numbered on that one table, with gathers along its rows (``take``, ``compress``): on the
    plan search's few hundred entries numpy's fixed cost per call is most of the work, so the fewer calls the
    better (a sweep calls this half a dozen times).
    """
    if len(columns) == 0:
        return np.zeros(1, dtype=int), np.zeros(n, dtype=int)
    table = np.asarray(columns)
    n = table.shape[1]
    order = np.lexsort(table)
    table = table.take(order, axis=1)
    new = np.empty(n, dtype=bool)
    new[0] = True
    new[1:] = (table[:, 1:] != table[:, :-1]).any(axis=0)
    code = np.empty(n, dtype=int)
    code[order] = new.cumsum() - 1
    return order.compress(new), code  # lexsort is stable: the first of a run is its first entry


# entries from which _layer_terms computes on a grid of distinct models and plans, and _compute_side the ZeRO-stage
# terms a stage at a time: below, the extra steps cost more than they save (measured on the default preset: 300
# entries)
GRID_MIN_ENTRIES = 2048
# point inputs of _stage_side
STAGE_SIDE_POINT_KEYS = ("layers", "hidden", "vocab", "gpus_per_node", "attn_weights", "expert_weights", "untied",
                         "ep_overlap")


def _replicas(pt, t, p, b, round_batch, c=1.0):
    """Data-parallel degree ``d`` and micro-batches per step ``m`` [-]; ``d · m · b`` is the user's global batch.

    Auto mode may leave GPUs that do not fill a whole model replica idle (spares), as a practitioner would on a
    cluster whose size is not a multiple of tp · pp, and never changes the global batch ``B``: ``d`` is the
    largest whole number of replicas that fit and divides ``B/b`` (Megatron-LM requires ``B`` to be a multiple
    of ``b · d``). ``d = 0`` (``m`` infinite) where none does. Explicit mode uses every GPU: ``d = G/(t·p·c)``
    with context parallelism ``c``.
    """
    d = pt["gpus"] / (t * p * c)
    B = pt["global_batch"]
    if round_batch:
        d = np.floor(d)
        short = ~_divides(d * b, B) & (d >= 1)  # most plans: the whole replicas already divide the batch
        if short.any():
            d = np.where(short, largest_divisor_at_most(B, b, d), d)
    with np.errstate(divide="ignore"):
        return d, B / (d * b)


def largest_divisor_at_most(B, b, cap):
    """The largest divisor of ``B/b`` that is at most ``cap`` (0 where ``B/b`` is not whole) [-].

    Vectorised: the divisors of each distinct ``B/b`` (pairs ``k``, ``n/k`` for ``k ≤ √n``) are sorted
    into one array with a row offset per value (:func:`_divisor_table`, kept for the few distinct quotients a
    session uses), and one ``searchsorted`` answers every query.
    """
    B_u, B_i = _distinct(B)
    b_u, b_i = _distinct(b)
    n = (B_u[:, None] / b_u[None, :]).reshape(-1)  # (rows,)
    row = B_i * b_u.size + b_i
    flat, big = _divisor_table(tuple(n.tolist()))
    q = np.minimum(np.maximum(cap, 0.0), big - 1.0) + row * big
    idx = np.searchsorted(flat, q, side="right") - 1
    return flat[idx] - row * big


def _distinct(x):
    """The distinct values of ``x`` (as floats, sorted) and the index of each entry's value, in ``x``'s shape
    (:func:`numpy.unique` with its inverse): :func:`_distinct_rows` of its one column."""
    x = np.asarray(x, dtype=float)
    flat = x.reshape(-1)
    first, code = _distinct_rows([flat], flat.size)
    return flat.take(first), code.reshape(x.shape)


@functools.lru_cache(maxsize=64)
def _divisor_table(quotients: tuple):
    """:func:`largest_divisor_at_most`'s sorted divisors of the quotients ``n`` (a tuple of floats): the divisors
    of the ``i``-th, 0 where there is none, plus ``i · big`` with ``big = max n + 1``, in one read-only array,
    and ``big``. A session meets a handful of (global batch, micro-batch) quotients: kept per tuple of them."""
    n = np.array(quotients, dtype=float)
    k = np.arange(1.0, max(math.isqrt(int(n.max())), 1) + 1.0)  # at least 1: a micro-batch above the batch
    is_div = np.mod(n[:, None], k[None, :]) == 0.0
    divs = np.sort(np.concatenate([np.where(is_div, k, 0.0), np.where(is_div, n[:, None] / k, 0.0)], axis=1),
                   axis=1)
    big = n.max() + 1.0
    flat = (divs + np.arange(n.size)[:, None] * big).reshape(-1)
    flat.flags.writeable = False
    return flat, big


def _divides(divisor, n):
    """Whether the whole number ``divisor`` divides the whole number ``n`` (both held as floats) [bool].

    ``n / divisor`` is a whole number exactly when it divides: the quotient of whole numbers below 2⁵³ is
    exact when it is whole, and otherwise at least ``1/divisor`` from the nearest whole number, far more
    than its rounding error. Much cheaper than an integer or floating-point modulo.
    """
    q = n / divisor
    return np.floor(q) == q


def _degrees_valid(pt, t, p, b, v, d, m, c=1.0, e=1.0):
    """Plans whose degrees are possible at a point (before memory) [bool], given ``d`` and ``m`` of :func:`_replicas`.

    Whole-number arithmetic on floats, exact for these magnitudes (see :func:`_divides`). The layers must split
    into the ``p·v`` model chunks: evenly, or as Llama 3 405B did (126 layers on 16 stages; Llama 3 paper §3.3.2),
    with the first and last stage one layer short to balance the embedding and the output layer (``l + 1`` or
    ``l + 2`` divisible, at least two layers a chunk); Megatron-LM rejects other splits.

    On the plan search's grid of points (N, 1) against candidates (1, C) where the model changes along the sweep,
    the tests of the heads and of the layers take few distinct plan values (tp; pp and virtual stages): they are
    computed once per distinct value and read at each candidate (:func:`_at_distinct_plans`), the same booleans.
    """
    gpn, G, l, heads, kv = (pt[k] for k in ("gpus_per_node", "gpus", "layers", "heads", "kv_heads"))
    tp = t * p * c

    def heads_split(hh, kk, tt):
        return _divides(tt, hh) & _divides(tt, kk)

    def layers_split(ll, pp, vv):  # evenly or one layer short at both ends; and the layer count fills each chunk
        ppvv = pp * vv
        split = (pp <= ll) & (_divides(ppvv, ll) | ((pp > 1) & (2.0 * ppvv <= ll + 2.0)
                                                     & (_divides(ppvv, ll + 1.0) | _divides(ppvv, ll + 2.0))))
        return split, ppvv <= ll
    grid = (np.ndim(l) == 2 and np.shape(l)[0] > 1 and np.ndim(t) == 2 and np.shape(t)[0] == 1
            and np.shape(l)[0] * np.shape(t)[1] >= GRID_MIN_ENTRIES)
    at = _at_distinct_plans if grid else (lambda fn, points, *cols: fn(*points, *cols))
    split, fills = at(layers_split, (l,), p, v)
    # the tests of the plan and the replicas alone first: on a model-size sweep they are (1, C), the grid's (N, C)
    ok = (t <= gpn) & _divides(t, gpn) & (G >= tp) & (d >= 1) & (m >= 1) & (np.floor(m) == m)
    ok = ok & at(heads_split, (heads, kv), t) & split
    if (np.asarray(e) != 1).any():  # expert parallelism splits the experts and is carved out of data × context
        ok = ok & _divides(e, pt["experts"]) & _divides(e, d * c)
    if (np.asarray(c) != 1).any():  # load-balanced ring: 2c chunks of a sequence, each long enough
        ok = ok & ((c == 1) | (_divides(2.0 * c, pt["seq_len"]) & (pt["seq_len"] >= c * pt["cp_min_tokens"])))
    ok = ok & ((v == 1) | ((p > 1) & _divides(p, m) & fills))
    return np.ascontiguousarray(ok)


def _at_distinct_plans(fn, points, *cols):
    """``fn(*points, *cols)``, boolean arrays (N, C) of point arrays ``points`` (N, 1) (or (1, 1)) and plan arrays
    ``cols`` (1, C), computed once per distinct plan value (one column per distinct row of ``cols``) and read at
    each candidate. ``fn`` may return a tuple of such arrays.

    Computed on the transposed grid, the distinct plan values (P, 1) against the points seen as (1, N): numpy's
    loops then run along the many points rather than along the few plan values (several times faster on a few
    hundred points), and the candidates' values are whole rows of the result (the fast gather), seen as (N, C).
    """
    shape = np.broadcast_shapes(*(np.shape(x) for x in cols))
    plan_rows = [np.broadcast_to(x, shape)[0] for x in cols]
    first, code = _distinct_rows(plan_rows, shape[1])
    out = fn(*(np.asarray(x).T for x in points), *(x.take(first)[:, None] for x in plan_rows))
    read = [np.take(x, code, axis=0).T for x in (out if isinstance(out, tuple) else (out,))]
    return tuple(read) if isinstance(out, tuple) else read[0]


def _memory(pt, t, p, b, v, rc, cs):
    """Peak bytes per GPU for a plan, and whether it fits [B], [bool]."""
    stage = _stage_memory(pt, t, p, b, v, rc, cs["cp"], cs["ep"])
    mem = memory_with_replicas_bytes(stage, p, cs["d"] * cs["cp"], None, cs["m"], zero_stage=cs["zero"])
    return mem, mem <= pt["memory_bytes"] * USABLE_MEMORY_FRACTION


def _stage_memory(pt, t, p, b, v, rc, c=1.0, e=1.0, layer=None, interleave=None):
    """The memory terms the model and the plan fix (:func:`~model.memory.stage_memory_bytes`); a rank of a
    context-parallel group holds ``s/c`` tokens of each sequence. ``layer``: their :func:`_layer_memory`, if
    already computed; ``interleave``: the plans' :func:`~model.memory.interleave_factor`, likewise."""
    layer = _layer_memory(pt, t, b, rc, c, e) if layer is None else layer
    return stage_memory_from_layer(layer, pt["layers"], pt["hidden"], pt["vocab"], t, p, v,
                                   pt["attn_weights"] + pt["expert_weights"] / e, pt["untied"], interleave)


# point inputs _stage_memory reads given the layer terms
STAGE_MEMORY_POINT_KEYS = ("layers", "hidden", "vocab", "attn_weights", "expert_weights", "untied")
# point inputs of _layer_memory
LAYER_MEMORY_POINT_KEYS = ("hidden", "heads", "vocab", "seq_len", "sp", "flash", "attn_weights", "expert_weights",
                           "mlp_ratio", "fp8")
# point inputs of the memory's and the plan side's layer terms: what tells one model up to its layer count from another
LAYER_POINT_KEYS = tuple(dict.fromkeys(LAYER_MEMORY_POINT_KEYS + LAYER_SIDE_POINT_KEYS))


def _layer_memory(pt, t, b, rc, c=1.0, e=1.0):
    """The memory terms of one layer (:func:`~model.memory.layer_memory_bytes`), as :func:`_stage_memory`'s."""
    return layer_memory_bytes(pt["hidden"], pt["heads"], pt["vocab"], pt["seq_len"] / c, b, t, rc, pt["sp"],
                              pt["flash"], pt["attn_weights"] + pt["expert_weights"] / e, pt["mlp_ratio"], pt["fp8"])


CONGESTION_PLAN_KEYS = ("n_dp", "crosses", "stage_nodes", "stages", "a2a_nodes")  # what the congestion reads
CONGESTION_KINDS = ("dp", "pp", "ep")  # data-parallel reduction, pipeline sends, expert all-to-all


def _congestion_slowdown(cs, congestion, index=None, trailing=0):
    """How much the leaf uplinks slow each plan in ``cs`` under :func:`_congestion_inputs` ``congestion``.

    The slowdowns of the traffic of :data:`CONGESTION_KINDS` — the data-parallel reduction
    (:func:`~model.topology.dp_crossing_share`), the pipeline sends (:func:`~model.topology.pp_crossing_share`)
    and the expert-parallel all-to-all (peers spread over its nodes as a data-parallel group's are) — as a tuple
    of arrays of one shape (or the scalar 1.0 where every NIC is under one switch). ``index``: the point of each pair, to
    read (F, N) congestion arrays at the pairs, or a (fabric, point) pair of index arrays (one value per entry);
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
    return tuple(np.broadcast_arrays(*(_slowdown_at(cs, at, k) for k in CONGESTION_KINDS)))  # views, not stacked


def _slowdown_at(plans, at, kind):
    """One of :data:`CONGESTION_KINDS` of :func:`_congestion_slowdown` for the plans ``plans`` against congestion
    arrays ``at`` that broadcast with them."""
    leaf = at["nodes_per_leaf"]
    if kind == "ep" and _one_value(plans["a2a_nodes"], 1.0) and (np.asarray(leaf) >= 1.0).all():
        # no expert all-to-all across nodes: nothing crosses (share 0 of finite load terms), exactly 1
        return 1.0
    if kind == "pp":
        share = np.where(plans["crosses"], topology.pp_crossing_share(plans["stage_nodes"], plans["stages"], leaf),
                         0.0)
    else:
        share = topology.dp_crossing_share(plans["n_dp" if kind == "dp" else "a2a_nodes"], leaf)
    return topology.slowdown_from_load(share, at["mean"], at["spread"])


def _one_value(x, value):
    """Whether ``x`` is one value (an array of size 1), ``value`` with its sign (+0.0 is not -0.0)."""
    x = np.asarray(x)
    if x.size != 1:
        return False
    v = x.reshape(-1)[0]
    return bool(v == value) and math.copysign(1.0, v) == math.copysign(1.0, value)  # the sign: as np.signbit's


def _split_slowdown(slow):
    """The slowdowns of :func:`_congestion_slowdown`, one per :data:`CONGESTION_KINDS`."""
    if isinstance(slow, tuple):
        return slow
    return (slow,) * len(CONGESTION_KINDS) if np.ndim(slow) == 0 else slow


def _step_for_fabric(cs, dp_overlap, bw_node, step_latency_s, slow=1.0):
    """Step time for a fabric's per-node bandwidth [B/s] and per-step latency [s] (few ops, any shape).

    ``slow``: :func:`_congestion_slowdown` broadcasting with ``bw_node``: the data-parallel, pipeline and
    expert all-to-all traffic that crosses the leaf uplinks is slowed at each plan's placement (oversubscription,
    ECMP).
    """
    inv_bw = 1.0 / bw_node
    dp_slow, pp_slow, ep_slow = _split_slowdown(slow)
    p2p = np.where(cs["crosses"], step_latency_s + _slowed(cs["p2p_bytes_node"] * inv_bw, pp_slow), cs["p2p_intra"])
    ring = where_uniform(cs["ring_crosses"], lambda: np.where(
        cs["ring_crosses"], np.maximum(cs["ring_steps"] * (step_latency_s + cs["ring_bytes_node"] * inv_bw)
                                       - cs["ring_hide"], 0.0), cs["chunk_ring_intra"]), lambda: cs["chunk_ring_intra"])
    if (all(_one_value(cs[k], 0.0) for k in ("a2a_steps", "a2a_bytes_node", "a2a_hide"))
            and np.isfinite(inv_bw).all() and np.isfinite(step_latency_s).all() and np.isfinite(ep_slow).all()):
        a2a = 0.0  # no expert parallelism: max(0·λ + 0·x·s − 0, 0) of finite λ, x and s, +0.0
    else:
        a2a = np.maximum(cs["a2a_steps"] * step_latency_s + _slowed(cs["a2a_bytes_node"] * inv_bw, ep_slow)
                         - cs["a2a_hide"], 0.0)
    # the sums below in the order of ``a + b + c``, into the first sum's own array where it has the result's shape
    t_chunk = _add_into(_add_into(cs["chunk_fixed"] + ring, 2.0 * p2p), a2a)
    pipe = _add_into(t_chunk * cs["slots"], cs["m_logits"])
    # one all-reduce's volume, then the ZeRO stage's traffic; at least one bucket of one all-reduce stays exposed
    t_dp1 = cs["dp_k0"] + cs["dp_k1"] * step_latency_s + np.maximum(_slowed(cs["dp_k2"] * inv_bw, dp_slow),
                                                                     cs["dp_intra_bw"])
    t_dp = cs["dp_volume"] * t_dp1

    def overlapped():  # the traffic beyond its window, at least one bucket
        gap = t_dp - cs["window"]
        floor = t_dp1 / cs["buckets"]
        return np.maximum(gap, floor, out=gap) if _fills(gap, floor) else np.maximum(gap, floor)
    exposed = where_uniform(dp_overlap, overlapped, lambda: t_dp)
    return _add_into(pipe + exposed, cs["opt"]), p2p, t_chunk, exposed


def _slowed(x, slow):
    """``x · slow``: ``x`` itself where ``slow`` is the scalar 1.0 (nothing crosses an uplink), the same values
    (``x · 1.0`` is ``x``, bit for bit) without a pass over the plan search's entries."""
    return x if type(slow) is float and slow == 1.0 else x * slow


def _add_into(total, x):
    """``total + x``, into ``total`` when it is a new array of the sum's shape (a sum's own intermediate): the
    same values without another temporary."""
    if type(total) is np.ndarray and _fills(total, x):
        return np.add(total, x, out=total)
    return total + x


# the per-plan quantities :func:`_step_for_fabric` reads: what the plan search gathers at the pairs it keeps
STEP_KEYS = ("crosses", "p2p_bytes_node", "p2p_intra", "ring_crosses", "ring_steps", "ring_bytes_node", "ring_hide",
             "chunk_ring_intra", "chunk_fixed", "a2a_steps", "a2a_bytes_node", "a2a_hide", "slots", "m_logits",
             "dp_k0", "dp_k1", "dp_k2", "dp_intra_bw", "dp_volume", "window", "buckets", "opt")
# a pair is dropped only when its lower bound exceeds the best time found by more than this share: the bound and
# the step are different expressions of the same terms, whose rounding differs by some 1e-16 of the step
BOUND_MARGIN = 1e-9
# at most this many pairs per point are timed directly, without bounding them first: the bound's own pass (each
# fabric's lowest-bound pair timed at each point) costs about as much as timing a few pairs outright (measured on
# the explicit-plan sweep of the default preset: 3 pairs, 4.9 → 3.9 ms for the sweep)
FEW_PAIRS = 4


# point inputs the plan search reads (gathered per (point, plan) pair)
PLAN_POINT_KEYS = ("seq_len", "hidden", "heads", "kv_heads", "layers", "vocab", "global_batch", "gpus",
                   "gpus_per_node", "peak_flops", "hbm_bytes_per_s", "sp", "flash", "intra_busbw", "intra_p2p_bw",
                   "nvls_busbw", "ll_max_node",
                   "memory_bytes", "dp_overlap", "layer_weights", "mlp_ratio", "gemm_peak", "untied", "fp8",
                   "cp_min_tokens", "experts", "attn_weights", "expert_weights", "layer_weights_time", "moe_tokens",
                   "grad_ratio", "tp_overlap", "ep_overlap")


def _evaluate_inputs(s: Scenario, inp: Inputs, plan: dict | None = None, lean: bool = False):
    """All outputs for every fabric and point; the fastest plan is searched unless ``plan`` is given.

    ``plan`` (``tp``, ``pp``, ``micro_batch``, ``virtual_stages``, ``recompute`` (code), ``zero_stage``, ``cp``,
    ``ep`` arrays broadcasting against the fabric arrays) evaluates that plan as it is, e.g. for Monte-Carlo
    samples around a nominal sweep. A searched plan is evaluated the same way: one output path. ``lean``
    computes only what the headline metrics need (step, utilisation, days, reliability, money), not the
    per-mechanism breakdown.
    """
    net, bandwidths = _network(inp)
    step_latency = _step_latency_s(net)
    found, plan_side = None, None
    if plan is None:
        plan = _the_only_plan(s)
    if plan is None:
        plan, plan_side, *found = _search_plans(s, inp, bandwidths[2], step_latency, net)
    chosen = _fixed_plan(s, inp, plan, plan_side, judge=found is None)
    if found is not None:  # the search's verdicts: some plan fits; some plan's degrees are possible
        chosen = chosen[:-2] + tuple(found)
    # where no plan fits at any point, the placeholder plan's quantities are read and masked as NaN: no warnings
    quiet = {} if chosen[-2].any() else dict(divide="ignore", invalid="ignore")
    with np.errstate(**quiet):
        return _outputs(s, inp, bandwidths, step_latency, net, *chosen, lean=lean)


PLAN_ARRAY_KEYS = ("tp", "pp", "micro_batch", "virtual_stages", "recompute", "zero_stage", "cp", "ep")


def _the_only_plan(s: Scenario) -> dict | None:
    """The plan when the scenario fixes every choice (explicit degrees, micro-batch, virtual stages, recompute,
    ZeRO stage): there is nothing to search, and evaluating it as a given plan (its possibility and fit judged
    per point) gives what the search would; else None."""
    if s.parallel.resolved_mode != "explicit":
        return None
    cand = _candidates(s)
    if cand[0].size != 1:
        return None
    return {k: x[0] for k, x in zip(PLAN_ARRAY_KEYS, cand)}


def _fixed_plan(s: Scenario, inp: Inputs, plan: dict, plan_side=None, judge=True):
    """The quantities of a given plan (NaN entries: no plan there) and whether it is possible and fits.

    ``plan_side``: :func:`_plan_side` of the plan, if the search has it, with the plan's replicas and memory where
    the search gives them (:func:`_chosen_plan`: not recomputed). ``judge`` False (a searched plan, whose verdicts
    the search gives): whether it is possible and fits is not computed (None, None)."""
    pt = inp.point
    round_batch = s.parallel.resolved_mode == "auto"
    arrays = [np.asarray(plan[k], dtype=float) for k in PLAN_ARRAY_KEYS]
    # the plan's arrays of one shape (a searched plan's): one table, a few calls rather than one per array and term
    if arrays[0].ndim and all(x.shape == arrays[0].shape for x in arrays):
        table = np.stack(arrays)
        good = np.isfinite(table).all(axis=0)
        tc, pc, bc, vc, rcc, zc, cc, ec = np.where(good, table, 1.0)
    else:
        good = functools.reduce(np.logical_and, [np.isfinite(x) for x in arrays])
        tc, pc, bc, vc, rcc, zc, cc, ec = (np.where(good, x, 1.0) for x in arrays)
    with np.errstate(divide="ignore", invalid="ignore"):  # placeholder plans where there is none are masked later
        replicas = found_mem = None
        if plan_side is not None and "replicas_d" in plan_side:  # the search's, where it found a plan
            plan_side = dict(plan_side)
            replicas = (plan_side.pop("replicas_d"), plan_side.pop("replicas_m"))
            found_mem = plan_side.pop("memory_bytes")
        cs2 = _compute_side(pt, tc, pc, bc, vc, rcc, zc, round_batch, plan_side, c=cc, replicas=replicas, e=ec)
        if found_mem is not None and not judge:  # the search's (read by the outputs where it found a plan only)
            return cs2, tc, pc, bc, vc, found_mem, None, None
        mem, fits = _memory(pt, tc, pc, bc, vc, rcc, cs2)
        if not judge:
            return cs2, tc, pc, bc, vc, mem, None, None
        ok = _degrees_valid(pt, tc, pc, bc, vc, cs2["d"], cs2["m"], cc, ec)
    return cs2, tc, pc, bc, vc, mem, good & ok & fits, good & ok


# One entry per set of plan-search inputs (plan settings and the point arrays of PLAN_POINT_KEYS). The app has
# up to five alive at once: the window's sweep and its point (one entry when the point rides on the sweep), the
# A/B pinned scenario's sweep and point along the window's x-axis, and the bands worker's nominal sweep (its own
# x values); the tornado and the exports reuse the window's. The sixth keeps the previous value while a slider
# is dragged back and forth. An entry holds a few arrays per (point, plan) pair that fits: 0.1-8 MB for a
# 256-point sweep of the presets.
_PAIR_CACHE: "collections.OrderedDict" = collections.OrderedDict()
_PAIR_CACHE_SIZE = 6
_PAIR_LOCK = threading.Lock()
_PAIR_STATS = {"hits": 0, "misses": 0}
# The plan search's answers (the fastest plan per fabric and point), one per set of pairs and fabric timing inputs
# (bandwidth, latency, congestion): a reliability or money slider changes none of them, so its drag re-evaluates
# only the chosen plans' outputs. Kept and cleared with the pairs.
_SEARCH_CACHE: "collections.OrderedDict" = collections.OrderedDict()


class PlanCacheInfo(NamedTuple):
    """How the plan-search cache has served lookups (as :func:`functools.lru_cache`'s ``cache_info``)."""
    hits: int  # plan searches answered from the cache
    misses: int  # plan searches run from scratch
    size: int  # entries held now


def clear_plan_cache() -> None:
    """Forget the cached plan-search geometry and its counts, and the memos a session's repeated sweeps of one
    scenario reuse (the resolved fabric rows, the network state, the usable candidates per sweep range, the
    divisor tables, the single in-node collectives): the next evaluation computes everything from scratch, as a
    cold call (benchmarks time it so).
    """
    with _PAIR_LOCK:
        _PAIR_CACHE.clear()
        _SEARCH_CACHE.clear()
        _PAIR_STATS.update(hits=0, misses=0)
    _LAST_FABRICS[0] = (None, None)
    _LAST_NETWORK[0] = (None, None)
    _usable_candidates.cache_clear()
    _divisor_table.cache_clear()
    collectives.clear_memo()


def plan_cache_info() -> PlanCacheInfo:
    """Hits, misses and size of the plan-search cache since it was last cleared."""
    with _PAIR_LOCK:
        return PlanCacheInfo(_PAIR_STATS["hits"], _PAIR_STATS["misses"], len(_PAIR_CACHE))


class PlanPairs(NamedTuple):
    """The plan search's fabric-independent part: (point, plan) pairs that fit, ordered by point.

    A pair is a point and a plan up to its ZeRO stage. Its quantities are held per row: a row serves the pairs
    of the same plan and replicas at several points along a cluster-size sweep, else one pair. The ZeRO stages
    are a trailing axis of length Z: row quantities that depend on the stage have shape (rows, Z), the others
    (rows, 1).
    """
    ni: np.ndarray  # point of each pair
    row: np.ndarray  # row of each pair
    has_degrees: np.ndarray  # (N,) some plan's degrees are possible at the point
    dp_overlap: np.ndarray  # per row (rows, 1), or one value for all
    plan: dict  # PLAN_ARRAY_KEYS but the ZeRO stage: the plan of each row, (rows,)
    stages: np.ndarray  # (Z,) the ZeRO stages searched
    allowed: np.ndarray  # (rows, Z) the stages worth timing (see _stages_worth_timing)
    cs: dict  # STEP_KEYS and the placement (CONGESTION_PLAN_KEYS) of _compute_side per row, but cs_kind's
    kind: np.ndarray  # (rows,) the row's (degrees, recompute kind) when the model is the same at every point, else
    # the row itself
    cs_kind: dict  # the step's plan-side terms per kind (kinds, 1)
    plan_side: dict  # every _plan_side term per kind (kinds,)
    usable: bool  # False: no pair fits anywhere (one placeholder pair)
    shared: bool  # True: the plan inputs are the same at every point and the pairs (of point 0) hold at each
    starts: np.ndarray  # first pair of each point that has pairs
    sequences: np.ndarray  # (rows, 1) sequences per step of each row (m · d · micro_batch)
    bound: np.ndarray | None  # _bound_coefficients of the rows (6, rows) where a row is a pair, else None
    stage_bound: np.ndarray | None = None  # _bound_table of the rows (columns, rows) where rows serve several points
    # (``row_points``, or all: ``shared``), else None; neither: every pair is timed (few pairs)
    row_points: tuple | None = None  # the first and last point of each row's pairs (rows,) where rows serve several
    # points (a cluster-size sweep), else None (a row per pair)
    replicas: tuple | None = None  # each row's data-parallel degree and micro-batches ``(d, m)`` (rows,), as
    # _replicas gives them at the row's points (the same for every point a row serves), or None (no pair fits)
    unit_replicas: tuple | None = None  # ``(d, m)`` of the placeholder plan (every degree and the micro-batch 1)
    # at each point (N or 1,), read where no plan fits
    memory: tuple | None = None  # the peak memory per GPU [B] of every row at every stage: a flat table and each
    # row's entry at stage 0 and the stride between stages, ``table[at + zi · stride]``; or None (no pair fits)


def _pair_key(s: Scenario, pt: dict) -> tuple:
    """The plan-search inputs that fix the pairs: the plan settings and the point arrays of PLAN_POINT_KEYS."""
    return _plan_key(s) + tuple(np.ascontiguousarray(pt[k]).tobytes() for k in PLAN_POINT_KEYS)


def _plan_pairs(s: Scenario, pt: dict, key: tuple | None = None) -> PlanPairs:
    """Every (point, plan) pair whose degrees are possible and that fits in memory, with its geometry.

    Pure in the plan-search inputs, so cached (a few entries): dragging a fabric, reliability or money
    slider re-evaluates only the fabric-dependent few operations per pair. ``key``: :func:`_pair_key`, if known.
    """
    round_batch = s.parallel.resolved_mode == "auto"
    key = _pair_key(s, pt) if key is None else key
    with _PAIR_LOCK:
        hit = _PAIR_CACHE.get(key)
        if hit is not None:
            _PAIR_CACHE.move_to_end(key)
            _PAIR_STATS["hits"] += 1
            return hit
        _PAIR_STATS["misses"] += 1
    n_points = pt["gpus"].shape[0]
    t, p, b, v, r, z, c, e = _candidates(s, pt)
    # degrees and memory on the (point, candidate) grid. A sweep changes one or two inputs: the others keep
    # one value, so what depends only on them and the plan (most of the memory) costs (1, C) elements
    ptc = {k: cut_constant_points(pt[k], 0) for k in PLAN_POINT_KEYS}
    grid_pt = {k: x[:, None] for k, x in ptc.items()}
    # degrees depend on (tp, pp, micro_batch, v) only: evaluated once per group of candidates, (N, C0). Memory is
    # weights and optimizer (by ZeRO stage) plus activations (by recompute kind): the two parts on (N, C0, Z) and
    # (N, C0, R), their sums on (N, C0, R, Z), the candidate order
    group = _group_size(s)
    n_z = len(_zero_stages(s))
    rs, zs = r[:group:n_z], z[:n_z]
    g = slice(None, None, group)
    grid_plan = (t[None, g], p[None, g], b[None, g], v[None, g])
    cg, eg = c[None, g], e[None, g]
    with np.errstate(divide="ignore", invalid="ignore"):  # d = 0 where no replica fits: not a valid pair
        if grid_pt["gpus"].shape[0] > 1:  # the replicas depend on the plan through t·p·c and the micro-batch only:
            ranks = t[g] * p[g] * c[g]  # along a cluster-size sweep, computed once per distinct pair at each point
            first, col = _distinct_rows([ranks, b[g]], ranks.size)
            d, m = (x[:, col] for x in _replicas(grid_pt, ranks[None, first], 1.0, b[None, g][:, first],
                                                 round_batch))
        else:
            d, m = _replicas(grid_pt, *grid_plan[:3], round_batch, cg)
        # the replicas of the placeholder plan (every degree and the micro-batch 1) that the evaluation reads where
        # no plan fits: those of its candidates' column, if the search has one, else computed (N or 1,)
        unit = np.flatnonzero((t[g] == 1.0) & (p[g] == 1.0) & (b[g] == 1.0) & (c[g] == 1.0))
        if unit.size:
            unit_replicas = (d[:, unit[0]], m[:, unit[0]])
        else:
            one = np.ones((1, 1))
            unit_replicas = tuple(x[:, 0] for x in _replicas(grid_pt, one, one, one, round_batch, one))
        # the same plan inputs at every point (a fabric or money sweep): one point's pairs, repeated below
        n_eff = 1 if all(x.shape[0] == 1 for x in ptc.values()) else n_points
        degrees_ok = np.broadcast_to(_degrees_valid(grid_pt, *grid_plan, d, m, cg, eg), (n_eff, t.size // group))
    has_degrees = np.broadcast_to(degrees_ok.any(axis=1), (n_points,))
    flat = np.flatnonzero(degrees_ok)  # the (point, degrees) pairs that can be; memory only for them
    nb, cb = np.divmod(flat, degrees_ok.shape[1])

    def at_base(x):  # one flat gather rather than a two-index one
        x = np.asarray(x)
        if x.ndim < 2:
            return x
        x = np.broadcast_to(x, x.shape[:1] + (degrees_ok.shape[1],) + x.shape[2:])
        if x.shape[0] == 1:
            return x[0].take(cb, axis=0)
        if x.shape[0] == degrees_ok.shape[0]:
            return x.reshape((-1,) + x.shape[2:]).take(flat, axis=0)
        return x[nb, cb]
    d_b, m_b = at_base(d), at_base(m)
    # along a cluster-size sweep only the replicas (d, m) change with the point: pairs of the same degrees and
    # replicas have the same memory and geometry, computed once as one row for the consecutive points that share
    # them (all of them when the replicas never decrease along the sweep, as with growing clusters; a row is any
    # grouping of pairs of the same geometry). Elsewhere a row is a (point, degrees) pair
    dedupe = n_eff > 1 and all(x.shape[0] == 1 for k, x in ptc.items() if k != "gpus")
    if dedupe:  # a row per run of consecutive points of a column (degrees) with the same replicas: no sort
        same = np.zeros(degrees_ok.shape, dtype=bool)
        same[1:] = degrees_ok[1:] & degrees_ok[:-1] & (d[1:] == d[:-1])
        new_run = (degrees_ok & ~same).T  # (degrees, points)
        inv = (np.cumsum(new_run.reshape(-1)) - 1).reshape(new_run.shape)[cb, nb]
        rep = np.empty(np.count_nonzero(new_run), dtype=int)
        rep[inv] = np.arange(inv.size)  # a point of each run
        ends = degrees_ok.copy()
        ends[:-1] &= ~same[1:]
        run_points = (np.flatnonzero(new_run) % n_points, np.flatnonzero(ends.T) % n_points)  # its first and last
        nb_r, cb_r, d_r, m_r = nb[rep], cb[rep], d_b[rep], m_b[rep]
    else:
        nb_r, cb_r, d_r, m_r = nb, cb, d_b, m_b
    same_model = all(ptc[k].shape[0] == 1 for k in PLAN_SIDE_POINT_KEYS)
    if same_model:  # the same model at every point: per candidate
        stage = _stage_memory({k: x[..., None] for k, x in grid_pt.items()}, *(x[..., None] for x in grid_plan),
                              rs, cg[..., None], eg[..., None])
        stage = {k: np.take(np.broadcast_to(x, (1, degrees_ok.shape[1]) + np.shape(x)[2:])[0], cb_r, axis=0)
                 if np.ndim(x) >= 2 else x for k, x in stage.items()}  # (rows, R or 1)
    else:  # the model changes along the sweep: only at the pairs whose degrees are possible
        # the points' distinct models up to their layer counts, for the memory's and the plan side's layer terms
        models = _point_models(ptc, LAYER_POINT_KEYS)
        pt_b = {k: (ptc[k].take(nb) if ptc[k].shape[0] > 1 else ptc[k])[:, None] for k in STAGE_MEMORY_POINT_KEYS}
        layer = _layer_terms(ptc, LAYER_MEMORY_POINT_KEYS, nb, (t[g], b[g], c[g], e[g]), cb,
                             lambda q, tt, bb, cc, ee: _layer_memory(q, tt, bb, rs, cc, ee), trailing=rs.shape,
                             models=models)
        # the interleave factor, a function of the plan alone: per candidate, read at each pair
        stage = _stage_memory(pt_b, *(_at_candidates(x[0], cb)[:, None] for x in grid_plan), rs,
                              _at_candidates(cg[0], cb)[:, None], _at_candidates(eg[0], cb)[:, None], layer=layer,
                              interleave=_at_candidates(interleave_factor(p[g], v[g]), cb)[:, None])
        stage = {k: np.broadcast_to(x, (nb.size,) + np.shape(x)[1:]) if np.ndim(x) == 2 else x
                 for k, x in stage.items()}
    dc = d_r * _at_candidates(c[g], cb_r)
    states = model_state_bytes_by_stage({k: x[:, :1] if np.ndim(x) == 2 else x for k, x in stage.items()},
                                        dc[:, None], zs)
    act = activation_bytes(stage, p[g].take(cb_r)[:, None], m_r[:, None])
    # the sums on (R, Z, rows), seen as (rows, R, Z): numpy broadcasts along a short last axis several times slower
    mem_b = np.ascontiguousarray(act.T)[:, None, :] + np.ascontiguousarray(states.T)[None, :, :]
    cap = ptc["memory_bytes"] * USABLE_MEMORY_FRACTION
    fits = (mem_b <= (cap[nb_r] if cap.shape[0] > 1 else cap)).transpose(2, 0, 1)
    # the rows worth timing, one per (degrees, recompute kind) with a stage worth timing (for large models most
    # plans do not fit)
    # with the expert all-to-all overlapped behind a chunk's compute, a heavier recompute can be faster: the
    # compute it adds fills time the all-to-all leaves idle, and its longer backward hides more data-parallel
    # traffic; then every recompute kind that fits is timed
    worth = fits if np.any(ptc["ep_overlap"]) else _stages_worth_timing(fits)
    # the rows: (pair, recompute kind) with a stage worth timing. ``worth`` is a view (pairs, R, Z) of memory
    # (R, Z, pairs): the rows are found and read there, along the pairs; numpy copies into the (pairs, R, Z) order,
    # whose last axes are short, several times slower than the rest of this costs
    by_kind = np.ascontiguousarray(worth.transpose(1, 2, 0))  # (R, Z, pairs): no copy
    n_pairs = by_kind.shape[2]
    any_stage = functools.reduce(np.logical_or, (by_kind[:, i] for i in range(n_z)))  # (R, pairs), elementwise
    worth_any = np.empty((n_pairs, by_kind.shape[0]), dtype=bool)  # (pairs, R), filled a recompute kind at a time
    for i, x in enumerate(any_stage):
        worth_any[:, i] = x
    rows_flat = np.flatnonzero(worth_any)  # in (pair, recompute kind) order, as a 2-D nonzero but faster
    ui, ri = np.divmod(rows_flat, worth.shape[1])
    # each row's stages, a stage at a time from the row's entry in (R, Z, pairs) (a gather of (rows, Z) entries
    # at once needs an index array built along the short stage axis, slower)
    row_entry = ri * (n_z * n_pairs) + ui  # each row's entry at stage 0 in the (R, Z, pairs) tables
    allowed = np.empty((ui.size, n_z), dtype=bool)
    for zi in range(n_z):
        allowed[:, zi] = by_kind.reshape(-1).take(row_entry + zi * n_pairs)
    # (gathers by ``take``: some twice as fast as fancy indexing for these arrays of a few thousand entries)
    ci = cb_r.take(ui) * group + ri * n_z  # the row's candidate at the first stage
    dm = (d_r.take(ui)[:, None], m_r.take(ui)[:, None])
    pt_of_row = nb_r.take(ui)  # a point of each row (in a cluster-size sweep: one with its replicas)
    # each row's parameters per GPU, as its memory holds them, for the plan side where the model changes
    row_params = None if same_model or not ui.size else stage["params"][:, 0].take(ui)
    if dedupe:  # each (point, degrees) pair takes its rows: those of its (degrees, replicas), kinds in order
        counts = np.bincount(ui, minlength=rep.size)
        per_pair = counts[inv]
        pair_of = np.repeat(np.arange(inv.size), per_pair)
        row = (np.cumsum(counts) - counts)[inv[pair_of]] + np.arange(pair_of.size) - np.repeat(
            np.cumsum(per_pair) - per_pair, per_pair)
        ni = nb[pair_of]
        row_points = tuple(x[ui] for x in run_points)
    else:
        row_points = None
        row, ni = np.arange(ui.size), nb.take(ui)
    shared = n_eff < n_points  # the pairs of point 0 hold at every point: not repeated per point
    usable = ni.size > 0
    if not usable:  # one placeholder pair, marked unusable, keeps the shapes: the first with possible degrees
        ni, ci = (nb[:1], cb[:1] * group) if nb.size else (np.zeros(1, dtype=int),) * 2
        pt_of_row, row = ni, np.zeros(1, dtype=int)
        allowed, dm = np.zeros((1, n_z), dtype=bool), None
    ptp = {k: (x.take(pt_of_row) if x.shape[0] > 1 else x)[:, None] for k, x in ptc.items() if k in ROW_POINT_KEYS}
    col = tuple(_at_candidates(x, ci) for x in (t, p, b, v, r, c, e))
    t_p, p_p, b_p, v_p, r_p, c_p, e_p = (x[:, None] for x in col)

    # the unusable placeholder may have impossible degrees (d = 0): its geometry is never read, so no warnings
    with np.errstate(**({} if usable else dict(divide="ignore", invalid="ignore"))):
        kinds = slice(None, None, n_z)  # one candidate per (degrees, recompute kind): the plan side ignores the stage
        if same_model:  # the same model at every point: per candidate
            firsts = np.arange(t.size)[kinds]
            per_kind = _plan_side_of({k: ptc[k] for k in PLAN_SIDE_POINT_KEYS}, np.zeros(firsts.size, dtype=int),
                                     (t, p, b, v, r, c, e), firsts)
            kind, own_kind = ci // n_z, False
        else:  # the model changes along the sweep: per row, each row its own kind; its parameters per GPU are
            # those its memory holds (the same expression of the same inputs: the row's pair and plan)
            per_kind = _plan_side_of({k: ptc[k] for k in PLAN_SIDE_POINT_KEYS}, pt_of_row,
                                     tuple(x[kinds] for x in (t, p, b, v, r, c, e)), ci // n_z,
                                     params_gpu=row_params,
                                     models=models, plan_at=col)  # the row's candidate ci: kind ci // n_z
            kind, own_kind = row, True  # each row its own kind (a row per pair: 0, 1, ...): the terms as they are
        # what _compute_side computes with, at the rows; the step's other plan-side terms stay per kind
        plan_side = {k: (per_kind[k] if own_kind else per_kind[k][kind])[:, None] for k in COMPUTE_SIDE_PLAN_KEYS}
        # a term the same for every kind (no context or expert parallelism: their terms are zero) is kept once
        cs_kind = {k: cut_constant_points(per_kind[k][:, None], 0) for k in STEP_KEYS + CONGESTION_PLAN_KEYS
                   if k in per_kind and k not in COMPUTE_SIDE_PLAN_KEYS}
        cs = _compute_side(ptp, t_p, p_p, b_p, v_p, r_p, zs[None, :], round_batch, plan_side, c=c_p, replicas=dm,
                           e=e_p, search=True)
        sequences = cs["m"] * cs["d"] * b_p
        # a term the same for every row (no context or expert parallelism: their terms are zero) is kept once
        cs = {k: cut_constant_points(np.broadcast_to(cs[k], (ci.size, 1)) if np.ndim(cs[k]) < 2 else cs[k], 0)
              for k in STEP_KEYS + CONGESTION_PLAN_KEYS if k not in cs_kind}
        new_point = np.r_[True, ni[1:] != ni[:-1]]
        bound = stage_bound = None  # not needed where every pair is timed (few pairs per point)
        if usable and not _few_pairs(ni.size, np.count_nonzero(new_point)):
            # rows of several points: the tighter bound, once per row; a row per pair: the simpler bound (the
            # table would cost more than the pairs it spares); pairs shared by every point: both
            if dedupe or shared:
                stage_bound = _bound_table(cs, allowed, sequences, None if own_kind else kind, cs_kind,
                                           ptp["dp_overlap"])
            if not dedupe:
                bound = _bound_coefficients(cs, allowed, sequences, None if own_kind else kind, cs_kind)
    entry = PlanPairs(ni, row, has_degrees, ptp["dp_overlap"],
                      dict(zip(("tp", "pp", "micro_batch", "virtual_stages", "recompute", "cp", "ep"), col)), zs,
                      allowed, cs, kind, cs_kind, per_kind, usable, shared,
                      starts=np.flatnonzero(new_point),
                      sequences=sequences, bound=bound, stage_bound=stage_bound,
                      row_points=row_points if usable else None,
                      replicas=None if dm is None else tuple(x[:, 0] for x in dm), unit_replicas=unit_replicas,
                      # the sums on (R, Z, rows of the replicas): a row's (recompute kind, stage, row of its replicas)
                      memory=None if dm is None else (mem_b.reshape(-1), row_entry, n_pairs))
    with _PAIR_LOCK:
        _PAIR_CACHE[key] = entry
        while len(_PAIR_CACHE) > _PAIR_CACHE_SIZE:
            _PAIR_CACHE.popitem(last=False)
    return entry


def _at_candidates(x, ci):
    """The candidates' values ``x`` (C,) at the candidates ``ci``: gathered, or a read-only view of one value where
    every candidate holds the same (a degree the search does not vary: context and expert parallelism on most
    models), which then costs the rows neither a gather nor an array of their size (compared as bytes)."""
    one = cut_constant_points(x, 0)
    return np.broadcast_to(one, np.shape(ci)) if one.size == 1 else x.take(ci)


# the point inputs _compute_side reads given the plan side (and the replicas, but for the placeholder pair where no
# pair fits), and the pairs keep: gathered per row
ROW_POINT_KEYS = ("gpus_per_node", "hbm_bytes_per_s", "intra_busbw", "grad_ratio", "dp_overlap", "gpus",
                  "global_batch")


def _group_size(s: Scenario) -> int:
    """Candidates per group of the same degrees: one per (recompute kind, ZeRO stage) searched."""
    return len(_recompute_kinds(s)) * len(_zero_stages(s))


def _recompute_kinds(s: Scenario) -> tuple:
    """The recompute codes the plan search may use: the user's, or all, lightest first.

    With FlashAttention the attention core stores nothing (Dao et al. 2022), so selective recomputation saves no
    memory and only costs time: it is then never the fastest plan that fits and is not searched.
    """
    w = s.workload
    if w.recompute is not None:
        return (int(recompute_code(w.recompute)),)
    return tuple(r for r in RECOMPUTE_CANDIDATES if not (w.flash_attention and r == 1))


def _stages_worth_timing(fits):
    """Of each group of candidates with the same degrees, the (recompute kind, ZeRO stage) choices worth timing.

    ``fits`` (..., R, Z): the candidates that fit, recompute kinds lightest first. At the same ZeRO stage a
    heavier recompute kind only adds compute (its larger overlap window hides less than the time it adds), so
    at each stage only the lightest kind that fits is kept (not so with the expert all-to-all overlapped:
    the caller then times every kind). The stages themselves are not ordered: a higher
    stage moves more data-parallel traffic but overlaps more of it (ZeRO-2's per-micro-batch reduce-scatters
    can hide what ZeRO-1's one all-reduce leaves exposed), so every stage that fits is timed.

    The copies keep the memory layout of ``fits``: the plan search's (pairs, R, Z) is a view of (R, Z, pairs)
    memory, whose elementwise operations then run along the pairs, not along the short stage axis.
    """
    keep = fits.copy(order="K")
    lighter = fits[..., 0, :].copy(order="K")
    for ri in range(1, fits.shape[-2]):
        keep[..., ri, :] &= ~lighter
        lighter |= fits[..., ri, :]
    return keep


def _rows(x, rows, n):
    """``x`` at the pairs ``rows`` (any index shape) when it has one row per pair (of ``n``), else ``x``.

    ``take`` along the first axis: several times faster than fancy indexing for rows of a few values (the array's
    own method: the search gathers some fifty terms a pass, and ``np.take`` and ``np.ndim`` add a call each)."""
    if type(x) is np.ndarray:
        return x.take(rows, axis=0) if x.ndim and x.shape[0] == n else x
    return np.take(x, rows, axis=0) if np.ndim(x) >= 1 and np.shape(x)[0] == n else x


def _fills(out, x):
    """Whether ``x`` broadcasts against the array ``out`` without growing it: ``out`` can then take the result of
    an elementwise operation of the two in place (the same values as a new array, without the temporary)."""
    return np.broadcast(out, x).shape == out.shape


def _at_shape(x, shape):
    """``x`` broadcast to ``shape`` (a read-only view), or ``x`` itself where it has that shape already:
    ``broadcast_to`` costs some microseconds a call, and an evaluation makes dozens."""
    return x if np.shape(x) == shape else np.broadcast_to(x, shape)


def _float_copy(x, shape):
    """``np.broadcast_to(x, shape) + 0.0`` without the view: a new float array of ``shape`` (-0.0 made +0.0)."""
    return np.add(x, 0.0, out=np.empty(shape))


def _pipeline_bound_terms(cs_kind, kind, n):
    """The pipeline part of a pair's step without congestion, linear in the step latency ``λ`` and the inverse
    node bandwidth ``x``: per chunk ``fixed + per_lat·λ + per_inv_bw·x`` at most a chunk's time, arrays (n,).

    From :func:`_step_for_fabric`: the pipeline's point-to-point and all-to-all times are linear in ``λ`` and ``x``
    (congestion only slows them), the ring attention's at least its in-node part, the all-to-all's hidden part
    (``a2a_hide``) subtracted without its floor at zero. ``kind``, ``cs_kind``: plan-side terms held per kind
    (:class:`PlanPairs`), a term the same for every kind held once; ``kind`` None: each row its own kind (the
    terms are read as they are, not gathered).
    """
    ck = cs_kind
    crosses = ck["crosses"]
    fixed = (ck["chunk_fixed"] + np.where(ck["ring_crosses"], 0.0, ck["chunk_ring_intra"])
             + 2.0 * np.where(crosses, 0.0, ck["p2p_intra"]))
    # one value +0.0 (no expert parallelism): subtracting it, or adding it to 2·crosses (2 or +0.0), changes nothing
    if not _one_value(ck["a2a_hide"], 0.0):
        fixed = fixed - ck["a2a_hide"]
    two_crosses = 2.0 * crosses
    no_steps = _one_value(ck["a2a_steps"], 0.0) and np.asarray(crosses).dtype == bool
    per_lat = two_crosses if no_steps else two_crosses + ck["a2a_steps"]
    per_inv_bw = two_crosses * ck["p2p_bytes_node"] + ck["a2a_bytes_node"]
    return tuple(_at_shape(x if kind is None or np.shape(x)[0] == 1 else x[kind], (n, 1))[:, 0]
                 for x in (fixed, per_lat, per_inv_bw))


def _bound_table(cs, allowed, sequences, kind, cs_kind, dp_overlap):
    """The coefficients of a lower bound of each row's step time per sequence on any fabric, tighter than
    :func:`_bound_coefficients`' (stage by stage): one table (8 + 3·Z, rows), read by :func:`_stage_bound`.

    Its rows: the pipeline part per sequence ``q0, q1, q2`` (:func:`_pipeline_bound_terms` over a step's slots,
    with the logits), one all-reduce's ``k0, k1, k2`` and in-node bandwidth term, the exposed floor's factor
    (one bucket per sequence with overlap, else 0), then per stage its traffic factor, its window (0 without
    overlap) and its optimizer step, per sequence (the optimizer infinite at a stage not worth timing). From
    :func:`_step_for_fabric`: congestion only slows traffic, so one all-reduce takes at least
    ``L = k0 + k1·λ + max(k2·x, in-node)`` at step latency ``λ`` [s] and inverse node bandwidth ``x`` [s/B], a
    stage's data-parallel traffic at least its factor times ``L``, and its exposed part at least that less its
    window and at least ``L`` over the buckets. ``kind``, ``cs_kind``: plan-side terms held per kind
    (:class:`PlanPairs`); ``dp_overlap`` per row or one value.
    """
    n, n_z = allowed.shape

    def one(x):
        return _at_shape(x, (n, 1))[:, 0]
    fixed, per_lat, per_inv_bw = _pipeline_bound_terms(cs_kind, kind, n)
    per_seq, slots = 1.0 / one(sequences), one(cs["slots"])
    overlap = np.broadcast_to(np.asarray(dp_overlap, dtype=bool), (n, 1))[:, 0]
    table = np.empty((8 + 3 * n_z, n))
    np.multiply(fixed, slots, out=table[0])
    table[0] += one(cs["m_logits"])
    table[0] *= per_seq
    np.multiply(per_lat * slots, per_seq, out=table[1])
    np.multiply(per_inv_bw * slots, per_seq, out=table[2])
    for i, k in enumerate(("dp_k0", "dp_k1", "dp_k2", "dp_intra_bw")):
        table[3 + i] = one(cs[k])
    np.divide(per_seq, one(cs["buckets"]), out=table[7])
    stages = (slice(8, 8 + n_z), slice(8 + n_z, 8 + 2 * n_z), slice(8 + 2 * n_z, None))
    for rows, k in zip(stages, ("dp_volume", "window", "opt")):  # (rows, Z) terms as Z table rows
        np.multiply(np.broadcast_to(cs[k], (n, n_z)).T, per_seq, out=table[rows])
    if not overlap.all():  # without overlap the whole traffic is exposed: no window, no floor
        table[7:8][:, ~overlap] = 0.0
        table[stages[1]][:, ~overlap] = 0.0
    np.copyto(table[stages[2]], np.inf, where=~allowed.T)
    return table


def _bound_coefficients(cs, allowed, sequences, kind, cs_kind):
    """A lower bound of each row's step time per sequence on any fabric, over its stages worth timing.

    One table (6, rows) of rows ``p0, p1, p2, d0, d1, d2``: the bound at step latency ``λ`` [s] and inverse node
    bandwidth ``x`` [s/B] is ``p0 + p1·λ + p2·x + max(d0 + d1·λ + d2·x, 0)`` (:func:`_bound`), growing with
    both. The pipeline part is :func:`_pipeline_bound_terms`; one all-reduce's data-parallel time is at least
    its network part without congestion, and the exposed part of a stage at least its traffic less its overlap
    window: at least the smallest traffic factor of the row's stages times that, less the largest window.
    ``kind``, ``cs_kind``: plan-side terms held per kind (:class:`PlanPairs`). Each row is computed in place in
    the table, in the order of ``(a·b + c + d) / s`` (the same roundings as those expressions).

    The optimizer step is the same at every stage that shards (it divides by ``d`` where ``d > 1``), so
    :func:`_stage_columns` holds it in one column where no stage is 0: then every row (each has a stage worth
    timing) takes that column, without the masked minimum over the stages.
    """
    n = allowed.shape[0]

    def one(x):  # a quantity that does not depend on the stage, as (pairs,)
        return _at_shape(x, (n, 1))[:, 0]

    def over_stages(x, pick, empty):  # elementwise over the few stages: no reduction along a short axis
        # a stage's column masked at a time, picked into the first's in order: a pass over a column each, no
        # masked copy of the whole (rows, Z) table
        x = _at_shape(x, allowed.shape)
        best = np.where(allowed[:, 0], x[:, 0], empty)
        for i in range(1, x.shape[1]):
            pick(best, np.where(allowed[:, i], x[:, i], empty), out=best)
        return best
    fixed, per_lat, per_inv_bw = _pipeline_bound_terms(cs_kind, kind, n)
    seq, slots = one(sequences), one(cs["slots"])
    table = np.empty((6, n))
    p0, p1, p2, d0, d1, d2 = table
    np.multiply(fixed, slots, out=p0)
    p0 += one(cs["m_logits"])
    opt = np.asarray(cs["opt"])
    p0 += one(opt) if opt.shape[-1] == 1 else over_stages(opt, np.minimum, np.inf)
    volume = over_stages(cs["dp_volume"], np.minimum, np.inf)
    np.multiply(volume, one(cs["dp_k0"]), out=d0)
    d0 -= over_stages(cs["window"], np.maximum, -np.inf)
    for row, a, b in ((p1, per_lat, slots), (p2, per_inv_bw, slots), (d1, volume, one(cs["dp_k1"])),
                      (d2, volume, one(cs["dp_k2"]))):
        np.multiply(a, b, out=row)
    table /= seq
    return table


def _stage_bound(table, step_latency_s, inv_bw):
    """:func:`_bound_table`'s lower bound per sequence [s] of the rows whose columns ``table`` holds, at a step
    latency [s] and inverse node bandwidth [s/B] broadcasting against them (rows,): the smallest over the
    stages worth timing of the pipeline part, the stage's optimizer step and its exposed traffic."""
    n_z = (table.shape[0] - 8) // 3
    pipe = table[0] + table[1] * step_latency_s + table[2] * inv_bw
    one_all_reduce = table[3] + table[4] * step_latency_s + np.maximum(table[5] * inv_bw, table[6])
    floor = one_all_reduce * table[7]
    best = None
    for z in range(n_z):
        exposed = np.maximum(table[8 + z] * one_all_reduce - table[8 + n_z + z], floor)
        exposed += table[8 + 2 * n_z + z]
        best = exposed if best is None else np.minimum(best, exposed, out=best)
    return pipe + best


def _few_pairs(n_pairs, n_points):
    """Whether ``n_pairs`` over ``n_points`` points are few enough to time every one (:data:`FEW_PAIRS`)."""
    return n_pairs <= FEW_PAIRS * n_points


def _bound(coefficients, step_latency_s, inv_bw):
    """:func:`_bound_coefficients`' lower bound at a step latency [s] and inverse node bandwidth [s/B]."""
    p0, p1, p2, d0, d1, d2 = coefficients  # the rows of the table
    # p0 + p1·λ + p2·x + max(d0 + d1·λ + d2·x, 0), summed in that order in place: large arrays (fabric × pair)
    shape = np.broadcast(*coefficients, step_latency_s, inv_bw).shape  # (broadcast_shapes: several times slower)
    lb, term, dp = np.empty(shape), np.empty(shape), np.empty(shape)
    np.multiply(p1, step_latency_s, out=lb)
    lb += p0
    np.multiply(p2, inv_bw, out=term)
    lb += term
    np.multiply(d1, step_latency_s, out=dp)
    dp += d0
    np.multiply(d2, inv_bw, out=term)
    dp += term
    np.maximum(dp, 0.0, out=dp)
    lb += dp
    return lb


class _RowsRead(dict):
    """The pairs' step terms (:class:`PlanPairs` ``cs``, and ``cs_kind`` at the rows' kinds) at the pairs ``rows``,
    each gathered when first read: the step does not read every term (the context-parallel ring's where no ring
    crosses a node, the placement where nothing crosses a leaf uplink), and a gather is a pass over the entries.

    ``stages_first``: the terms laid out for entries on the last axis (:func:`_rows_stages_first`), else as the
    pairs hold them (:func:`_rows`)."""

    def __init__(self, pairs, rows, n, stages_first=False):
        super().__init__()
        self._pairs, self._rows, self._n = pairs, rows, n
        self._at = None
        self._gather = _rows_stages_first if stages_first else _rows

    def __missing__(self, key):
        pairs = self._pairs
        if key in pairs.cs:
            x = self._gather(pairs.cs[key], self._rows, self._n)
        else:
            if self._at is None:
                self._at = pairs.kind[self._rows]
            x = self._gather(pairs.cs_kind[key], self._at, pairs.plan_side["lc"].shape[0])
        self[key] = x
        return x


def _rows_stages_first(x, rows, n):
    """:func:`_rows` of a pairs' term (rows, 1 or Z), laid out with the entries last: (entries,) or (Z, entries),
    and a term held once for all rows, (1, 1 or Z), as (1 or Z, 1).

    Elementwise operations of a (Z, entries) term with an (entries,) one run along the entries; in the pairs'
    (entries, Z) layout against (entries, 1) numpy loops over the short stage axis, several times slower."""
    x = x if type(x) is np.ndarray else np.asarray(x)
    if x.ndim != 2:
        return x
    if x.shape[0] != n:
        return x.T
    if x.shape[1] == 1:
        return x[:, 0].take(rows)
    return np.take(x, rows * x.shape[1] + np.arange(x.shape[1])[:, None])  # the flat (row, stage) indices


def _per_sequence(pairs, rows, bw, lat, congestion, point=None, trailing=1, stages_first=False):
    """Step time per sequence of every stage of the pairs ``rows`` [s], infinite at stages not worth timing.

    ``bw``, ``lat`` broadcast against the pairs' (rows, Z) quantities; ``congestion`` (:func:`_congestion_inputs`
    arrays (F, N or 1)) is read at ``point`` (the point of each row, or None) with ``trailing`` axes added.
    Compared per sequence, so that a batch run in fewer sequences does not look faster than it is.
    ``stages_first``: the pairs' quantities as (Z, rows) (:func:`_rows_stages_first`), ``bw``, ``lat`` and the
    congestion (``trailing`` 0) one value per row: the times (Z, rows).
    """
    n, rows = pairs.allowed.shape[0], pairs.row[rows]
    gather = _rows_stages_first if stages_first else _rows
    cs = _RowsRead(pairs, rows, n, stages_first)
    slow = _congestion_slowdown(cs, congestion, point, trailing)
    step = _step_for_fabric(cs, gather(pairs.dp_overlap, rows, n), bw, lat, slow)[0]
    if stages_first:  # one stage: its terms were gathered as (rows,)
        step = step.reshape(pairs.stages.size, -1)
    if not pairs.usable:
        return np.full_like(step, np.inf)
    # the step is this call's own array: divided and masked in place (no further temporaries of the entries' size)
    sequences = gather(pairs.sequences, rows, n)
    step = np.divide(step, sequences, out=step) if _fills(step, sequences) else step / sequences
    allowed = gather(pairs.allowed, rows, n)
    if not _fills(step, allowed):
        return np.where(allowed, step, np.inf)
    np.copyto(step, np.inf, where=~allowed)
    return step


def _pairs_that_can_win(pairs, bw, lat, congestion):
    """Which pairs may be fastest for which fabric at their point: (F, pairs) [bool].

    Per fabric and point, each pair's lower bound against the best time found among a few pairs: those with the
    lowest bound for each fabric, timed on every fabric. A pair whose bound exceeds that time (by more than
    :data:`BOUND_MARGIN`) cannot win on that fabric: the result is exactly that of timing every pair. Where a
    row serves several points (a cluster-size sweep), the bound is :func:`_stage_bound`, computed once per row
    at the least step latency and inverse bandwidth of its points (it grows with both) and read at its pairs;
    else :func:`_bound`, per pair. ``bw``, ``lat``: (F, N or 1).
    """
    ni, n = pairs.ni, pairs.ni.size
    n_fab = bw.shape[0]
    if pairs.bound is None and pairs.stage_bound is None:
        return np.ones((n_fab, n), dtype=bool)
    edges = np.empty(pairs.starts.size + 1, dtype=pairs.starts.dtype)
    edges[:-1], edges[-1] = pairs.starts, n
    counts = edges[1:] - edges[:-1]  # pairs of each point that has pairs, in order

    def at_pairs(x):  # (F, points) → (F, pairs): each point's value repeated over its pairs (cheaper than a gather)
        return np.repeat(x, counts, axis=1)
    if pairs.row_points is not None:  # rows of several points
        lb = np.take(_stage_bound(pairs.stage_bound, *((x if x.shape[1] == 1 else range_min(x, *pairs.row_points))
                                                       for x in (lat, 1.0 / bw))), pairs.row, axis=1)
    else:  # a row per pair
        lb = _bound(pairs.bound, *((x if x.shape[1] == 1 else at_pairs(x[:, ni[pairs.starts]]))
                                   for x in (lat, 1.0 / bw)))
    # each fabric's lowest bound at each point: the (fabric, point) segments of the bounds
    first = _segment_minima(lb, pairs.starts)[1]
    cand = np.sort(first, axis=0)  # (F, points) pairs, in order (n where none: a NaN bound)
    # fabrics often share their candidate: each distinct one of a point is timed once on every fabric
    new = np.ones(cand.shape, dtype=bool)
    new[1:] = cand[1:] != cand[:-1]
    cand, per_point = cand.T[new.T], np.count_nonzero(new, axis=0)  # ordered by point
    at = ni[cand]
    best = _per_sequence(pairs, cand, *((x if x.shape[1] == 1 else x[:, at])[..., None] for x in (bw, lat)),
                         congestion, at)
    best = np.minimum.reduceat(_stage_min(best), np.cumsum(per_point) - per_point, axis=1)  # (F, points)
    return lb <= at_pairs(best * (1.0 + BOUND_MARGIN))


def _shared_pairs_that_can_win(pairs, bw, lat, congestion):
    """:func:`_pairs_that_can_win` for pairs that hold at every point: the pairs that may be fastest for each
    fabric at some point, (F, pairs) [bool], or None (every pair is timed: few pairs); ``bw``, ``lat``:
    (F, N or 1). The pairs that :func:`_bound` keeps are then bounded again, on their fabric, by
    :func:`_stage_bound`."""
    if pairs.bound is None:
        return None
    n_fab, n_pt = np.broadcast(bw, lat, congestion["nodes_per_leaf"]).shape
    inv_bw = 1.0 / bw
    lb = _bound(pairs.bound, lat[..., None], inv_bw[..., None])  # (F, N or 1, pairs)
    cand = np.broadcast_to(np.argmin(lb, axis=-1), (n_fab, n_pt)).reshape(-1)  # (F · points)
    at = np.tile(np.arange(n_pt), n_fab)
    best = _per_sequence(pairs, cand, *(np.broadcast_to(x, (n_fab, n_pt))[:, at, None] for x in (bw, lat)),
                         congestion, at if congestion["nodes_per_leaf"].shape[1] > 1 else None)
    reach = _stage_min(best).reshape(n_fab, n_fab, n_pt).min(axis=1) * (1.0 + BOUND_MARGIN)  # (F, points)
    kept = np.any(lb <= reach[..., None], axis=1)
    fi, rows = _nonzero_2d(kept)  # (fabric, pair) entries: the tighter bound at every point
    lb = _stage_bound(pairs.stage_bound[:, rows, None], lat[fi], inv_bw[fi])  # (entries, N or 1)
    kept[fi, rows] = np.any(lb <= reach[fi], axis=1)
    return kept


def _stage_min(x):
    """The minimum of ``x`` over its last axis (the few ZeRO stages), elementwise over the stages: numpy reduces
    along a short last axis several times slower (the same values: the minimum is exact, NaN propagates)."""
    return functools.reduce(np.minimum, (x[..., i] for i in range(x.shape[-1])))


def _segment_minima(x, starts):
    """Each segment's minimum of the 1-D ``x`` and the first index reaching it (ties go to the earlier entry).

    ``starts``: the first index of each segment, increasing from 0, none empty. The first index is ``x.size``
    where nothing equals the minimum (a NaN). The entries equal to their segment's minimum are few: they are
    located from their flat indices rather than by a reduction over an index array of the size of ``x``.
    A 2-D ``x`` has the same segments along its last axis in every row: arrays (rows, segments) of each row's
    minima and first indices within the row (its width where none).
    """
    if x.ndim == 2:  # the rows one after another: the segments of every row at once
        n_rows, width = x.shape
        offsets = np.arange(n_rows)[:, None] * width
        seg_min, first = _segment_minima(x.reshape(-1), (offsets + starts).reshape(-1))
        return seg_min.reshape(n_rows, -1), np.minimum(first.reshape(n_rows, -1) - offsets, width)
    seg_min = np.minimum.reduceat(x, starts)
    lengths = np.empty_like(starts)
    lengths[:-1], lengths[-1] = starts[1:] - starts[:-1], x.size - starts[-1]
    hits = np.flatnonzero(x == np.repeat(seg_min, lengths))
    seg = np.searchsorted(starts, hits, side="right") - 1
    new = np.ones(hits.size, dtype=bool)
    new[1:] = seg[1:] != seg[:-1]
    first = np.full(starts.size, x.size)
    first[seg[new]] = hits[new]
    return seg_min, first


def _nonzero_2d(mask):
    """``np.nonzero`` of a 2-D ``mask``: the row and column indices of its true entries, in row-major order.

    Through the flat indices: a 2-D ``nonzero`` is several times slower on the search's (fabric, pair) masks."""
    return np.divmod(np.flatnonzero(mask), mask.shape[1])


def _chosen_plan(pairs, best, shape, any_valid):
    """The plan arrays of flat (pair, stage) indices ``best``, NaN where ``any_valid`` is false, and their
    :func:`_plan_side` with their replicas (``replicas_d``, ``replicas_m``: :func:`_replicas`' ``(d, m)``, which the
    search computed for every row; where ``any_valid`` is false, the placeholder plan's, every degree 1, that the
    evaluation computes with there) and their peak memory per GPU (``memory_bytes``,
    as :func:`_memory`'s, the search's sums of the same terms; some row's where ``any_valid`` is false, which the
    outputs mask)."""
    pair, zi = np.divmod(best, pairs.stages.size)
    row = pairs.row[pair]
    nan = np.where(any_valid, 1.0, np.nan)
    plan = {k: _at_shape(x[row] * nan, shape) for k, x in pairs.plan.items()}
    plan["zero_stage"] = _at_shape(pairs.stages[zi] * nan, shape)
    side = _gather_terms(pairs.plan_side, pairs.kind[row], shape)
    if pairs.replicas is not None:
        side["replicas_d"], side["replicas_m"] = (_at_shape(np.where(any_valid, x.take(row), y), shape)
                                                  for x, y in zip(pairs.replicas, pairs.unit_replicas))
        table, at, stride = pairs.memory
        side["memory_bytes"] = _at_shape(table.take(at.take(row) + zi * stride), shape)
    return plan, side


def _gather_terms(terms, at, shape):
    """Each array of ``terms`` (one value per kind) at the kinds ``at``, broadcast to ``shape``.

    The terms of one dtype are gathered together, as one table: one indexing operation rather than one per term;
    but when the kinds outnumber the entries read (the chosen plans among many kinds), stacking the table would
    copy more than it saves: each term is read on its own.
    """
    if np.size(at) < min(x.shape[0] for x in terms.values()):
        return {k: _at_shape(x.take(at, axis=0), shape) for k, x in terms.items()}
    out = {}
    for dtype in {x.dtype for x in terms.values()}:
        keys = [k for k, x in terms.items() if x.dtype == dtype]
        picked = np.stack([terms[k] for k in keys])[:, at]
        out.update((k, picked[i] if picked[i].shape == shape else np.broadcast_to(picked[i], shape))
                   for i, k in enumerate(keys))
    return {k: out[k] for k in terms}


def _search_shared_plans(pairs, inp: Inputs, bw, lat, congestion):
    """:func:`_search_pairs` when every point has the same pairs: each fabric times, at every point, the pairs
    that may win on it somewhere (all, on (fabric, point, pair, stage), when they are few)."""
    n_fab, n_z = bw.shape[0], pairs.stages.size
    shape = (n_fab, inp.n)
    kept = _shared_pairs_that_can_win(pairs, bw, lat, congestion)
    if kept is not None and np.all(kept.any(axis=1)):
        # each fabric times the pairs that may win on it at some point: steps on (point, entry, stage), an entry
        # a (fabric, pair), ordered by fabric and pair; each fabric's entries are one segment
        fi, rows = _nonzero_2d(kept)

        def at_entries(x):  # (F, N or 1) → (N or 1, entries, 1)
            return np.asarray(x)[fi].T[..., None]
        step = _per_sequence(pairs, rows, at_entries(bw), at_entries(lat),
                             {k: at_entries(x) for k, x in congestion.items()}, trailing=0)
        step = step.reshape(step.shape[0], -1)  # (N or 1, entries · Z)
        counts = np.bincount(fi, minlength=n_fab) * n_z
        starts = np.cumsum(counts) - counts
        seg_min, first = _segment_minima(step, starts)  # (N or 1, F); the first (pair, stage) reaching it
        first = first.T
        any_valid = np.broadcast_to(np.isfinite(seg_min).T, shape)
        return (rows[first // n_z] * n_z + first % n_z, any_valid,
                np.broadcast_to(pairs.has_degrees[None, :], shape))
    rows = np.arange(pairs.ni.size) if kept is None else np.flatnonzero(kept.any(axis=0))
    step = _per_sequence(pairs, rows, bw[..., None, None], lat[..., None, None], congestion, trailing=2)
    step = step.reshape(step.shape[:-2] + (-1,))
    first = np.argmin(step, axis=-1)  # ties go to the earlier candidate
    best = np.take_along_axis(step, first[..., None], axis=-1)[..., 0]
    first = rows[first // n_z] * n_z + first % n_z
    any_valid = np.broadcast_to(np.isfinite(best), shape)
    return first, any_valid, np.broadcast_to(pairs.has_degrees[None, :], shape)


def _search_plans(s: Scenario, inp: Inputs, bw_final, step_latency, net):
    """The fastest plan per fabric and point at the effective bandwidth ``bw_final`` [B/s], shape (F, N).

    ``step_latency``: :func:`_step_latency_s` of the fabrics [s]; ``net``: :func:`_network_state`. Returns the
    plan (:data:`PLAN_ARRAY_KEYS` arrays, NaN where none fits), its :func:`_plan_side` (or None), where some plan
    fits and where some plan's degrees are possible.
    """
    pairs, best, any_valid, has_degrees, code = _search_choices(s, inp, bw_final, step_latency, net)

    def at_points(x):  # (F, distinct points) → (F, N)
        return x.take(code, axis=1) if np.shape(x)[1] > 1 else np.broadcast_to(x, np.shape(x)[:1] + (inp.n,))
    if code is not None and not pairs.shared and (pairs.unit_replicas is None
                                                  or all(np.size(y) == 1 for y in pairs.unit_replicas)):
        # the plan read once, at every point: the few choice arrays copied out to the points rather than the
        # plan's some thirty arrays (not where the pairs hold values per distinct point: shared pairs, the
        # placeholder plan's replicas along a cluster-size sweep)
        best, any_valid, has_degrees = (at_points(x) for x in (best, any_valid, has_degrees))
        code = None
    if code is None:
        plan, plan_side = _chosen_plan(pairs, best, (bw_final.shape[0], inp.n), any_valid)
        return plan, plan_side, any_valid.copy(), has_degrees.copy()  # the verdicts become the caller's own
    plan, plan_side = _chosen_plan(pairs, best, (bw_final.shape[0], code.max() + 1), any_valid)
    return ({k: at_points(x) for k, x in plan.items()}, {k: at_points(x) for k, x in plan_side.items()},
            at_points(any_valid), at_points(has_degrees))


def _search_choices(s: Scenario, inp: Inputs, bw_final, step_latency, net, distinct_points=False):
    """:func:`_search_plans`' choices: the pairs searched and, per fabric and point, the flat (pair, stage) index
    of the fastest plan (:func:`_chosen_plan` reads the plan there), where some plan fits and where some plan's
    degrees are possible (read-only arrays, (F, N or 1)), and None; or, where points repeat, those at each
    distinct point (the pairs of those points) and each point's distinct one (an index array).
    ``distinct_points``: no two points hold the same search inputs (the distinct points of
    :func:`_repeated_points`), so they are not looked for again.
    """
    pt = inp.point
    repeated = None if distinct_points else _repeated_points(pt, (bw_final, step_latency,
                                                                   *net["congestion"].values()), inp.n)
    if repeated is not None:  # the search at each distinct point only, read back at every point
        first, code = repeated
        sub = Inputs(first.size, {k: x.take(first) if x.shape[0] > 1 else x for k, x in pt.items()}, inp.fabric,
                     inp.fabrics)

        def at_first(x):
            return x.take(first, axis=1) if x.shape[1] > 1 else x
        return (*_search_choices(s, sub, at_first(bw_final), at_first(step_latency),
                                 {"congestion": {k: at_first(x) for k, x in net["congestion"].items()}},
                                 distinct_points=True)[:4], code)
    pair_key = _pair_key(s, pt)
    pairs = _plan_pairs(s, pt, pair_key)
    # a fabric's bandwidth and latency are usually the same at every point: then not copied per pair
    bw, lat = (cut_constant_points(x, 1) for x in (bw_final, step_latency))
    congestion = {k: cut_constant_points(_at_shape(x, bw_final.shape), 1)
                  for k, x in net["congestion"].items()}
    key = (pair_key, inp.n) + tuple((x.shape, x.dtype.str, x.tobytes()) for x in (bw, lat, *congestion.values()))
    with _PAIR_LOCK:
        found = _SEARCH_CACHE.get(key)
        if found is not None:
            _SEARCH_CACHE.move_to_end(key)
    if found is None:
        found = _search_pairs(pairs, inp, bw, lat, congestion)
        for x in found:
            if isinstance(x, np.ndarray):
                x.flags.writeable = False  # shared by every evaluation that hits this entry
        with _PAIR_LOCK:
            _SEARCH_CACHE[key] = found
            while len(_SEARCH_CACHE) > _PAIR_CACHE_SIZE:
                _SEARCH_CACHE.popitem(last=False)
    return (pairs, *found, None)


def _repeated_points(pt, fabric_arrays, n):
    """Where several points of a sweep hold the same search inputs: the first point of each distinct one, in point
    order, and each point's distinct one (index arrays), or None (every point its own, or inputs with a sample
    axis).

    The plan search answers each point from its own inputs only — the point arrays of :data:`PLAN_POINT_KEYS`
    and each fabric's bandwidth, latency and congestion there (``fabric_arrays``, (F, N or 1)) — so points that
    hold the same ones get the same plans, bit for bit. A model-size sweep meets them: its small models round to
    the same hidden size and layer count at neighbouring points (237 distinct models of 256 on the default
    preset), and those points carry the most plans that fit.
    """
    if n < 2 or any(np.ndim(x) != 1 for x in pt.values()) or any(np.ndim(x) != 2 for x in fabric_arrays):
        return None
    # the inputs that change along the sweep, as one table of floats (one copy); an input the same at every
    # point (compared as bytes, as cut_constant_points does) tells no two points apart
    table = np.array([x for x in (pt[k] for k in PLAN_POINT_KEYS) if x.shape[0] > 1]
                     + [row for x in fabric_arrays if x.shape[1] > 1 for row in x], dtype=float)
    if table.size:
        bits = table.view(np.int64)
        table = table.compress(~(bits == bits[:, :1]).all(axis=1), axis=0)
    if not table.size:
        return None
    # a swept value that grows (or falls) at every point: every point is its own (no sort); the steps of every
    # column in one pass (a sweep holds some 30 columns: a pass per column cost more than the test saves)
    with np.errstate(invalid="ignore"):  # inf − inf: NaN, neither growing nor falling
        step = table[:, 1:] - table[:, :-1]
    if ((step > 0).all(axis=1) | (step < 0).all(axis=1)).any():
        return None
    first, code = _distinct_rows(table, n)
    if first.size == n:
        return None
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return first.take(order), rank.take(code)


def _search_pairs(pairs, inp: Inputs, bw, lat, congestion):
    """:func:`_search_choices` on the pairs, at bandwidth and latency (F, N or 1) and the congestion arrays: the
    flat (pair, stage) index of each fabric's and point's fastest plan, where some plan fits and where some plan's
    degrees are possible."""
    n_fab = inp.fabric["latency_us"].shape[0]
    if pairs.shared:
        return _search_shared_plans(pairs, inp, bw, lat, congestion)
    ni = pairs.ni
    # each fabric times only the pairs that may win on it: (fabric, pair) entries, ordered by fabric and point
    fi, pair = _nonzero_2d(_pairs_that_can_win(pairs, bw, lat, congestion))
    at = ni[pair]
    step = _per_sequence(pairs, pair, *((x[:, 0].take(fi) if x.shape[1] == 1 else x[fi, at]) for x in (bw, lat)),
                         congestion, (fi, at), trailing=0, stages_first=True)  # (Z, entries): time per sequence
    # fastest plan per fabric and point: each (fabric, point) is one segment of entries; the segment minimum,
    # then the first (pair, stage) that reaches it (ties go to the earlier candidate): the first entry whose
    # fastest stage reaches it, and that entry's first stage that does
    new_seg = np.ones(max(fi.size, 1), dtype=bool)  # as np.r_[True, ...] (several times slower)
    new_seg[1:] = (fi[1:] != fi[:-1]) | (at[1:] != at[:-1])
    starts = np.flatnonzero(new_seg)
    seg_min, entry = _segment_minima(functools.reduce(np.minimum, step), starts)
    stage = np.argmax(step[:, entry] == seg_min, axis=0)
    best = np.zeros((n_fab, inp.n), dtype=int)
    any_valid = np.zeros((n_fab, inp.n), dtype=bool)
    best[fi[starts], at[starts]] = pair[entry] * pairs.stages.size + stage
    any_valid[fi[starts], at[starts]] = np.isfinite(seg_min)
    return best, any_valid, np.broadcast_to(pairs.has_degrees[None, :], any_valid.shape)


def train_days(train_tokens_b, tokens_per_s):
    """Failure-free training time [days]: the tokens to train [10⁹] over the throughput [tokens/s]."""
    return train_tokens_b * 1e9 / tokens_per_s / 86400.0


def _outputs(s: Scenario, inp: Inputs, bandwidths, inter_step, net, cs2, tc, pc, bc, vc, mem, any_valid, any_ok,
             lean=False):
    """Every output of a plan, with the step-time breakdown by mechanism; ``lean``: the headline metrics only.

    ``bandwidths`` from :func:`_inter_bandwidths`, ``inter_step`` from :func:`_step_latency_s`,
    ``net`` from :func:`_network_state`; the plan's quantities from :func:`_fixed_plan`. The lean outputs
    (Monte-Carlo bands: step, utilisation, days, reliability, money) are the same expressions, so the bands'
    nominal sample is the nominal curve bit for bit; they leave out the steps at the ideal and the lossy
    bandwidth that only the breakdown reads.
    """
    pt, fab = inp.point, inp.fabric
    bw_ideal, bw_lossy, bw_final, eta = bandwidths
    slow = _congestion_slowdown(cs2, net["congestion"])
    step = _step_for_fabric(cs2, pt["dp_overlap"], bw_final, inter_step, slow)[0]
    m, lc = cs2["m"], cs2["lc"]
    global_batch = m * cs2["d"] * bc
    G = pt["gpus"]
    if lean:
        mf = model_flops_per_iteration(global_batch, pt["seq_len"], pt["layers"], pt["hidden"], pt["vocab"],
                                       pt["layer_weights"])
    else:  # with the FLOPs the GPUs execute (recomputation included), from the same terms
        mf, hf = flops_per_iteration(global_batch, pt["seq_len"], pt["layers"], pt["hidden"], pt["vocab"], cs2["rc"],
                                     pt["layer_weights"])
    nan = np.where(any_valid, 1.0, np.nan)
    step_nan = step * nan
    model_tflops = mf / (step_nan * G) / 1e12
    tokens_per_s = global_batch * pt["seq_len"] / step_nan
    peak_t = pt["peak_flops"] / 1e12
    parts = dict(compute=m * (vc * lc * cs2["layer_compute"] + cs2["logits"]),
                 optimizer=_float_copy(cs2["opt"], step.shape))
    out = dict(
        step_time_s=step_nan,
        mfu=model_tflops / peak_t,
        tokens_per_s=tokens_per_s,
        train_days=train_days(pt["train_tokens_b"], tokens_per_s),
        params=np.broadcast_to(pt["params"], step.shape),
        feasible=any_valid,
    )
    if lean:
        out["breakdown_s"] = {k: x * nan for k, x in parts.items()}
        return _with_reliability_and_money(s, pt, fab, out, lean=True, tree=net["tree"])
    # the communication parts at the ideal bandwidth; what loss recovery and the CPU cap add, apart
    step_ideal, p2p, t_chunk, exposed = _step_for_fabric(cs2, pt["dp_overlap"], bw_ideal, inter_step, slow)
    # a bandwidth the same as one already timed (no loss, or no CPU cap) gives the same step: not timed again
    step_lossy = (step if _same_values(bw_lossy, bw_final) else step_ideal if _same_values(bw_lossy, bw_ideal)
                  else _step_for_fabric(cs2, pt["dp_overlap"], bw_lossy, inter_step, slow)[0])
    dp_slow, pp_slow, ep_slow = _split_slowdown(slow)
    # a chunk's time beyond its compute, tensor-parallel and pipeline parts: the experts' all-to-all (over NVLink
    # and the fabric) and what the context-parallel ring leaves exposed
    a2a_net = np.maximum(cs2["a2a_steps"] * inter_step + cs2["a2a_bytes_node"] / bw_ideal * ep_slow
                         - cs2["a2a_hide"], 0.0)
    a2a = cs2["chunk_a2a_intra"] + a2a_net
    ring = np.maximum(t_chunk - cs2["chunk_fixed"] - 2.0 * p2p - a2a_net, 0.0)
    parts.update(
        tp_comm=m * vc * lc * cs2["layer_tp"],
        cp_comm=m * vc * ring,
        ep_comm=m * vc * a2a,
        pp_comm=m * vc * 2.0 * p2p,
        bubble=(pc - 1.0) * t_chunk,
        dp_comm=exposed,
        loss_recovery=step_lossy - step_ideal,
        cpu=step - step_lossy,
    )
    hw_tflops = hf / (step_nan * G) / 1e12
    line_gbps = fab["link_gbps"] * fab["nics_per_node"]
    out.update(
        model_tflops_per_gpu=model_tflops,
        hardware_tflops_per_gpu=hw_tflops,
        hfu=hw_tflops / peak_t,
        breakdown_s={k: parts[k] * nan for k in BREAKDOWN_KEYS},
        plan=dict(tp=tc * nan, pp=pc * nan, dp=cs2["d"] * nan, micro_batch=bc * nan, virtual_stages=vc * nan,
                  gpus_used=tc * pc * cs2["cp"] * cs2["d"] * nan,
                  microbatches=cs2["m"] * nan, global_batch=global_batch * nan,
                  recompute=cs2["rc"] * nan, zero_stage=cs2["zero"] * nan, cp=cs2["cp"] * nan, ep=cs2["ep"] * nan,
                  distributed_optimizer=cs2["dist"] & any_valid),
        global_batch_used=global_batch * nan,
        global_batch_kept=np.broadcast_to(any_ok, any_valid.shape),  # some plan runs the batch as given
        memory_per_gpu_gb=mem / 1e9 * nan,
        degrees_exist=np.broadcast_to(any_ok, any_valid.shape),
        node_bandwidth_gbps=dict(line=line_gbps, ideal=bw_ideal * 8e-9, with_loss=bw_lossy * 8e-9,
                                 effective=bw_final * 8e-9),
        loss_efficiency=eta,
        network=dict(loaded_rtt_us=net["rtt_us"], switch_levels=net["levels"],
                     dp_congestion_slowdown=dp_slow * nan, pp_congestion_slowdown=pp_slow * nan,
                     ep_congestion_slowdown=ep_slow * nan),
        cpu_cores_busy=cpu_cores_busy(bw_final * 8e-9, fab["cpu_gbps_per_core"]),
        architecture=dict(layers=pt["layers"], hidden=pt["hidden"], heads=pt["heads"], kv_heads=pt["kv_heads"]),
        model_flops_per_iter=mf,
        hardware_flops_per_iter=hf,
    )
    return _with_reliability_and_money(s, pt, fab, out, tree=net["tree"])


def _same_values(a, b):
    """Whether arrays ``a`` and ``b`` have the same shape and the same values, bit for bit."""
    return np.shape(a) == np.shape(b) and np.asarray(a).tobytes() == np.asarray(b).tobytes()


def _with_reliability_and_money(s, pt, fab, out, lean=False, tree=None):
    """Reliability, fabric counts and money, appended to the engine's outputs; ``tree``: the fabrics'
    :func:`~model.topology.fat_tree`, if already built (:func:`_network_state`)."""
    out.update(reliability.outputs(pt, fab, out, lean=lean))
    out.update(topology.outputs(pt, fab, tree))
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
    """Every array of the nested dict ``tree`` at the sweep's ``shape``: as it is when it has that shape, else a
    writable copy (cheaper than ``broadcast_to``'s); a point array (N,) is repeated per fabric. The leaves of a
    level are handled in its loop, one call per dict (a result holds some hundred arrays)."""
    out = {}
    for k, x in tree.items():
        if isinstance(x, dict):
            out[k] = _broadcast_tree(x, shape)
            continue
        arr = x if type(x) is np.ndarray else np.asarray(x)
        if arr.shape != shape:
            full = np.empty(shape, dtype=arr.dtype)
            full[...] = arr[None, :] if arr.ndim == 1 and shape[0] != arr.shape[0] else arr
            arr = full
        out[k] = arr
    return out


def sweep(scenario: Scenario, field: str, values) -> Result:
    """Evaluate ``scenario`` with ``field`` over ``values``, for all fabrics at once.

    ``field`` is a dotted scenario path from :data:`SWEEPABLE`, or a fabric
    value for all fabrics (``"fabric.latency_us"``) or one
    (``"fabric.roce.loss_rate"``). Arrays in the result have shape (F, N).
    """
    inp = build_inputs(scenario, field, values, fabric_points_cut=True)
    data = _evaluate_inputs(scenario, inp)
    shape = (len(inp.fabrics), inp.n)
    data = _broadcast_tree(data, shape)
    return Result(scenario, tuple(r.name for r in inp.fabrics), tuple(r.label for r in inp.fabrics), field,
                  np.asarray(values, dtype=float).reshape(-1), data, tuple(inp.fabrics))


def evaluate(scenario: Scenario, *, require_feasible: bool = True, memory_limit: bool = True) -> Result:
    """Evaluate one scenario for all its fabrics. Arrays have shape (F,).

    Raises :class:`ScenarioError` when no plan fits (explicit degrees that do
    not divide the GPUs, or a model that does not fit in GPU memory), unless
    ``require_feasible`` is false. ``memory_limit = False`` times plans whatever the engine's memory estimate
    (still reported in ``memory_per_gpu_gb``): for published runs whose paper states that they ran, by means the
    memory model does not describe (model.validation).
    """
    inp = build_inputs(scenario)
    if not memory_limit:
        inp.point["memory_bytes"] = np.full(inp.n, np.inf)
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
    text = (f"TP {fmt(plan['tp'])} · PP {fmt(plan['pp'])} · DP {fmt(plan['dp'])} · "
            f"micro-batch {fmt(plan['micro_batch'])} · v {fmt(plan['virtual_stages'])}")
    if plan.get("cp") is not None and not math.isnan(plan["cp"]) and plan["cp"] > 1:
        text += f" · CP {fmt(plan['cp'])}"
    if plan.get("ep") is not None and not math.isnan(plan["ep"]) and plan["ep"] > 1:
        text += f" · EP {fmt(plan['ep'])}"
    if plan.get("zero_stage") is not None and not math.isnan(plan["zero_stage"]):
        text += f" · ZeRO {fmt(plan['zero_stage'])}"
    if plan.get("recompute") is not None and not math.isnan(plan["recompute"]):
        text += f" · recompute {RECOMPUTE_KINDS[int(plan['recompute'])]}"
    return text


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
        ll_max_gb_per_s=float(gpu_ll_max_bus_gb_per_s(g, pt["nodes"][0])),
    )
