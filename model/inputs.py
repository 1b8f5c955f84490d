"""A scenario resolved into the arrays the physics runs on.

:func:`build_inputs` turns a :class:`~model.scenario.Scenario` (and a swept field with its values) into
:class:`Inputs`: one value per sweep point for the cluster, workload and money inputs, one row per fabric for
the fabric inputs (:func:`resolve_fabrics` merges each fabric's profile with the scenario's overrides); it
checks swept values against their fields' limits. :func:`derive_architecture` gives a model's layers, hidden
size and heads from its parameter count.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import catalog, economics
from .arrays import at_shape, cut_constant_points
from .nccl_tuning import gpu_ll_max_bus_gb_per_s, pcie_cap_gb_per_s
from .memory import GIB_PER_GB, GRAD_BF16_BYTES, GRAD_STATE_BYTES
from .compute import BYTES_BF16, gemm_rates, layer_matmul_weights, params_from_architecture
from .errors import ScenarioError, suggest
from .layer_terms import (attention_geometry, fp8_mlp_input_share, moe_mlp_ratio, recomputed_activation_terms,
                          stored_activation_terms)
from .scale import compute_time_scale, nccl_channels, overlap_compute_tax
from .scenario import Scenario
from .sections import FabricSpec
from .transport import GPUDIRECT_TCP_VALUES, LOSS_RECOVERY_CODE, RDMA_TRANSPORTS, TRANSPORT_CODE


# auto mode tries context parallelism only while every rank keeps at least this many tokens of a sequence: below,
# the ring's blocks are too small to hide behind attention (guess, after Megatron-LM's advice to use CP for
# sequences of 8k and more; NVIDIA's published runs use CP from 16k tokens)
CP_MIN_TOKENS_PER_RANK = 4096

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
    "reliability.storage_gb_per_s": float, "reliability.storage_gb_per_s_per_node": float,
    "reliability.checkpoint_interval_min": float,
    "topology.oversubscription": float,
    "economics.cny_per_usd": float, "economics.years": float, "economics.electricity_cny_per_kwh": float,
    "economics.electricity_usd_per_kwh": float, "economics.pue": float, "economics.duty_cycle": float,
    "economics.gpu_idle_power_fraction": float, "economics.server_price_usd": float,
    "economics.operations_usd_per_node_year": float, "economics.gpu_hour_usd": float,
}
FABRIC_SWEEPABLE = ("link_gbps", "nics_per_node", "latency_us", "loss_rate", "achievable_fraction", "min_rto_ms",
                    "cpu_gbps_per_core", "net_interruptions_per_1m_node_hours", "switch_radix", "switch_price_usd",
                    "nic_price_usd", "link_price_usd", "network_cost_per_node_cny")

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
    l0 = np.maximum(np.rint(np.cbrt(P / (12.0 * GPT3_ASPECT**2))), 1.0)
    h = (-V + np.sqrt(V**2 + 48.0 * l0 * P)) / (24.0 * l0)
    h = np.maximum(np.rint(h / HIDDEN_MULTIPLE) * HIDDEN_MULTIPLE, HIDDEN_MULTIPLE)
    l = np.maximum(np.rint((P - V * h) / (12.0 * h**2)), 1.0)
    return l, h, h / HEAD_DIM


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
    rows = []
    for name in s.fabric.fabrics:
        spec = custom.get(name, _NO_OVERRIDES)
        if spec is _NO_OVERRIDES and name in prof["fabrics"]:  # as the profile has it: resolved once, copied
            vals, srcs, guesses = _profile_row(s.fabric.profile_set, name)
            vals, srcs = dict(vals), dict(srcs)
        else:
            vals, srcs, guesses = _resolved_row(s.fabric.profile_set, name, spec)
        label = spec.label or _own_label(prof["fabrics"].get(name), name, vals["transport"])
        rows.append(FabricRow(name, label, vals["transport"], vals, srcs, guesses))
    return _distinct_labels(rows)


def _resolved_row(profile_set: str, name: str, spec: FabricSpec):
    """One fabric's values, their sources and the profile's guesses among them: the scenario's ``spec``, else the
    profile's, else the engine's default (a guess)."""
    prof = catalog.profile_set(profile_set)
    profile_source = f"{prof['name']} profile"
    if name in prof["fabrics"]:
        base = prof["fabrics"][name]
        if spec.transport is not None and spec.transport != base["transport"]:
            base = catalog.transport_profile(profile_set, spec.transport)
    else:
        base = catalog.transport_profile(profile_set, spec.transport)
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
    guesses = tuple(k for k in base.get("guesses", ()) if srcs.get(k, "").endswith("profile"))
    return vals, srcs, guesses


@functools.lru_cache(maxsize=64)
def _profile_row(profile_set: str, name: str):
    """:func:`_resolved_row` of a built-in fabric the scenario leaves as the profile has it: from the catalogue
    alone, so resolved once per profile set and fabric (read-only: callers copy the dicts)."""
    return _resolved_row(profile_set, name, _NO_OVERRIDES)


# a transport as a label names it (a built-in fabric the scenario moves to another transport)
TRANSPORT_NAMES = {"tcp": "TCP", "roce": "RoCE", "iwarp": "iWARP", "infiniband": "InfiniBand"}


def _own_label(builtin: dict | None, name: str, transport: str) -> str:
    """A fabric's label when the scenario gives none: a built-in's own (with the transport it was moved to, as
    \"InfiniBand over TCP\": never the label of the fabric whose transport it took), else its name."""
    if builtin is None:
        return name
    label = builtin.get("label", name)
    return label if transport == builtin["transport"] else f"{label} over {TRANSPORT_NAMES.get(transport, transport)}"


def _distinct_labels(rows: list[FabricRow]) -> list[FabricRow]:
    """The rows with every label told apart: two fabrics given the same label get their names after it."""
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.label] = counts.get(r.label, 0) + 1
    for r in rows:
        if counts[r.label] > 1:
            r.label = f"{r.label} [{r.name}]"
    return rows


# the fabric inputs held as numbers (the transport and its loss recovery are codes, apart)
NUMERIC_FABRIC_FIELDS = tuple(k for k in catalog.FABRIC_FIELDS if k not in ("transport", "loss_recovery"))


class _Fabrics(NamedTuple):
    """A scenario's fabrics resolved: the rows, their numeric inputs and their codes."""
    rows: tuple  # FabricRow per fabric
    numbers: np.ndarray  # (K, F) read-only: NUMERIC_FABRIC_FIELDS per fabric (NICs per GPU: 0, set per point)
    codes: np.ndarray  # (2, F, 1) read-only: the transport's and the loss recovery's code per fabric


# the last fabric section resolved (compared by value): a section is frozen (and its custom fabrics), and a session
# sweeps the same scenario, or copies of it that change another section, again and again
_LAST_FABRICS = [(None, None)]


def _resolved_fabrics(s: Scenario) -> _Fabrics:
    """:func:`resolve_fabrics` of ``s`` with its numbers and codes, kept for the last fabric section (the rows are
    not changed once made)."""
    section, fabrics = _LAST_FABRICS[0]
    if section is not s.fabric and section != s.fabric:  # by value: a changed model rebuilds every section
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
    # what fixes the network inputs (:data:`NETWORK_POINT_KEYS` and the fabric arrays): the scenario's cluster,
    # topology and fabric sections (compared by value), the points and the fabric width, and a swept value of those
    # sections with its values; None: not kept
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


def build_inputs(s: Scenario, field: str | None = None, values=None, fabric_points_cut: bool = False,
                 points_cut: bool = False) -> Inputs:
    """Resolve ``s`` into arrays, with ``field`` replaced by ``values`` if given.

    ``fabric_points_cut``: the fabric inputs that are the same at every point (all but a swept fabric value and
    NICs per GPU along a GPUs-per-node sweep) have shape (F, 1), so that what depends only on the fabric is
    computed once per fabric, not once per point as well. ``points_cut``: likewise the point inputs, shape (1,),
    where ``field`` is a fabric value (none of them changes from point to point) and the caller's physics
    broadcasts them (a given plan's; the plan search reads a point per entry).
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
    # every point input but the swept one holds one value here; cut to one point where none is swept (points_cut):
    # what depends on them alone is then computed once, and broadcasts against the fabric arrays
    n_pt = 1 if points_cut and not swept else n
    pt.update(_constant_rows({k: x for k, x in pt.items() if k not in swept}, n_pt))
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
        # the attention core's and the dense GEMMs' rates at the GPU's own efficiency per precision
        "core_peak": gemm_rates(g)[0], "gemm_peak": float(gemm_rates(g, fp8)[1]),
        # the gradient buffer: fp32 where gradients are reduced in fp32, else 16-bit (Megatron-Core's buffer is
        # in the reduction's precision)
        "grad_bytes": GRAD_STATE_BYTES if w.grad_precision == "fp32" else GRAD_BF16_BYTES,
        "hbm_bytes_per_s": g["hbm_gb_per_s"] * 1e9, "memory_bytes": g["memory_gb"] * 1e9 / (GIB_PER_GB if g.get("memory_decimal") else 1.0),
        "intra_busbw": g["intra_gb_per_s"] * 1e9 * g["intra_busbw_fraction"],
        "intra_p2p_bw": g["intra_gb_per_s"] * 1e9,
        "nvls_busbw": g.get("nvls_busbw_gb_per_s", 0.0) * 1e9,  # NVLink SHARP in the node (0: none)
        "ll_max_node": float(gpu_ll_max_bus_gb_per_s(g, 1)) * 1e9,  # LL protocol's cap in the node
        "pcie_gb_per_s": float(pcie_cap_gb_per_s(g.get("pcie_gen", 5))),
        "cp_min_tokens": CP_MIN_TOKENS_PER_RANK if p.cp is None else 0.0,
        "tp_overlap": float(p.tp_overlap), "ep_overlap": float(p.ep_overlap),
        "expert_tp": float(p.expert_tp or 0), "uneven": float(p.uneven_stages),
        # the framework's compute rate and the share of slow hosts (model.scale)
        "compute_time_scale": compute_time_scale(w.framework), "slow_host_fraction": s.cluster.slow_host_fraction,
        # the compute NCCL's channels take while data-parallel traffic overlaps it (model.step_time)
        "overlap_tax": overlap_compute_tax(g["sm_count"], nccl_channels(g["intra_link"]))}, n_pt)
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
    pt.update(attention_geometry(w, pt["hidden"], pt["heads"], pt["kv_heads"], n_pt))
    if w.light_recompute or w.fp8_activations:  # the activations a recipe keeps, by the bytes of each
        pt.update(stored_activation_terms(w, pt["hidden"], pt["heads"], ffn, n_pt))
    if w.kv_lora_rank is not None:  # multi-head latent attention: its own projections
        attn = pt.pop("mla_weights")
    pt["experts"] = const["experts"]
    pt["moe_tokens"] = const["moe_tokens"]
    pt.update(moe_layer_weights(w, attn, mlp, pt["hidden"], pt["layers"], experts, top_k, pt["moe_tokens"], n_pt))
    pt.update(recomputed_activation_terms(pt, n_pt))
    pt["mlp_ratio"] = moe_mlp_ratio(w, pt, ffn, experts > 1, n_pt)
    recomputed = pt.pop("recomputed_mlp_ratio")  # the forward's SwiGLU products not kept, with light recomputation
    pt["mlp_ratio_time"] = pt["mlp_ratio"] + recomputed if w.light_recompute else pt["mlp_ratio"]
    pt["fc2_input_share"] = fp8_mlp_input_share(pt, ffn, experts > 1, n_pt)
    pt["untied"] = const["untied"]
    pt["params"] = params_from_architecture(pt["layers"], pt["hidden"], pt["vocab"], pt.pop("model_layer_weights"),
                                            pt["untied"])
    pt["gpus"] = pt["nodes"] * gpn
    pt.update((k, const[k]) for k in ("peak_flops", "core_peak", "grad_bytes", "fp8", "grad_ratio", "gemm_peak",
                                      "hbm_bytes_per_s",
                                      "memory_bytes", "intra_busbw", "intra_p2p_bw", "nvls_busbw", "ll_max_node",
                                      "pcie_gb_per_s"))
    pt["flash"] = np.full(n_pt, w.flash_attention)
    pt["cp_min_tokens"] = const["cp_min_tokens"]
    pt["sp"] = np.full(n_pt, p.sequence_parallel)
    pt["dp_overlap"] = np.full(n_pt, p.dp_overlap)
    pt["tp_overlap"], pt["ep_overlap"] = const["tp_overlap"], const["ep_overlap"]
    pt["expert_tp"], pt["uneven"] = const["expert_tp"], const["uneven"]
    pt["compute_time_scale"], pt["slow_host_fraction"] = const["compute_time_scale"], const["slow_host_fraction"]
    pt["overlap_tax"] = const["overlap_tax"]
    # Transformer Engine's FP8 casts of the GEMM inputs, where the recipe's stored bytes are not given term by term
    pt["fp8_inputs"] = pt["fp8"] * float(not (w.light_recompute or w.fp8_activations))

    width = 1 if fabric_points_cut else n
    # cut to one point, NICs per GPU are one value per fabric too where the GPUs per node do not change
    fab = _fabric_arrays(fabrics, width, cut_constant_points(gpn, 0) if fabric_points_cut else gpn)
    if fab_override is not None:
        names, key = fab_override
        idx = [i for i, r in enumerate(rows) if r.name in names]
        fab[key] = np.broadcast_to(fab[key], (len(rows), n)).copy()
        fab[key][idx, :] = values_arr[None, :]
        _check_fabric_values(key, values_arr, field)
    network_key = (s.cluster, s.topology, s.fabric, n, width)
    if field is not None and field.split(".", 1)[0] in ("cluster", "topology", "fabric"):
        network_key += (field, values_arr.tobytes())  # the swept values too (a model-size drag's cluster sweep)
    return Inputs(n=n, point=pt, fabric=fab, fabrics=rows, network_key=network_key)


# the busiest expert-parallel rank's routed tokens over the mean, minus one, where the scenario does not say:
# Megatron MoE Model Zoo, best_practice/mixtral/run_mixtral_8x22B.sh: about 445 TFLOP/s dropless against 465 with
# forced balance on H100 (a 4.5 % longer step, with the auxiliary load-balancing loss of that recipe). Derived from
# that published pair, not measured per rank: 0.07 makes this engine's step of that recipe 4.5 % longer than with
# balanced routing (its experts' GEMMs, permutations and all-to-all are about 60 % of the step)
EXPERT_IMBALANCE_DEFAULT = 0.07


def moe_layer_weights(w, attn, mlp, hidden, layers, experts, top_k, moe_tokens, n) -> dict:
    """A layer's matmul weights in the roles the engine reads them [parameters], arrays (n,).

    ``attn_weights``: what every rank of a tensor-parallel group holds a share of and no expert parallelism splits
    (the attention and the shared experts, DeepSeekMoE: every token runs them); ``expert_weights``: the routed
    experts and the router (``E`` experts of ``mlp`` each and the router's ``h·E``); ``layer_weights``: the
    active weights a token meets, averaged over the layers (model FLOPs): the ``K`` routed and the shared experts
    in a MoE layer, the dense MLP (``dense_ffn_hidden``, SwiGLU) in the first ``dense_layers``;
    ``layer_weights_time``: a MoE layer's weights at the token copies it computes (``K·capacity``, the shared experts
    and the router): the busiest pipeline stage holds only MoE layers; ``routed_weights_time``: the routed experts'
    part of it (their GEMMs run at the experts' tensor parallelism and wait for the busiest rank);
    ``model_layer_weights``: every weight of a layer on average (the parameter count). A dense model: ``attn + mlp``
    each, ``routed_weights_time`` 0.
    """
    moe = experts > 1
    shared = float(w.shared_experts) if moe else 0.0
    h = at_shape(np.asarray(hidden, dtype=float), (n,))
    attn_w = attn + shared * mlp
    expert_w = experts * mlp + moe * h * experts  # with the router
    out = dict(attn_weights=attn_w, expert_weights=expert_w, layer_weights=attn + (top_k + shared) * mlp,
               layer_weights_time=attn_w + moe_tokens * mlp + moe * h * experts,
               routed_weights_time=moe_tokens * mlp if moe else np.zeros(n),
               shared_experts=np.full(n, shared),
               imbalance=np.full(n, (EXPERT_IMBALANCE_DEFAULT if w.expert_imbalance is None else w.expert_imbalance)
                                 if moe else 0.0),
               routed_nodes=np.full(n, float(w.max_routed_nodes or 0)))
    if not moe:
        out["layer_weights_time"] = attn + moe_tokens * mlp  # a dense layer's own sum
    model_w = attn_w + expert_w
    if w.dense_layers:  # the first layers dense: the averages over the layers
        if np.any(np.asarray(layers) <= w.dense_layers):
            raise ScenarioError("workload.dense_layers", w.dense_layers,
                                f"fewer than the model's {int(np.min(layers))} layers (derived from params_b)")
        dense_mlp = 3.0 * h * w.dense_ffn_hidden if w.dense_ffn_hidden is not None else (top_k + shared) * mlp
        l = np.broadcast_to(np.asarray(layers, dtype=float), (n,))
        frac = w.dense_layers / l
        out["layer_weights"] = frac * (attn + dense_mlp) + (1.0 - frac) * out["layer_weights"]
        model_w = frac * (attn + dense_mlp) + (1.0 - frac) * model_w
    out["model_layer_weights"] = model_w
    return out


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
    from .fields import validate_value
    from .sections import SECTIONS

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
    from .fields import validate_value

    for v in (values.min(), values.max()):
        validate_value(FabricSpec, key, int(v) if key == "nics_per_node" else float(v), field)
    if key == "nics_per_node" and np.any(values != np.round(values)):
        raise ScenarioError(field, values, "whole numbers")


def clear_cache() -> None:
    """Forget the last fabric section resolved (:func:`~model.plan_search.clear_plan_cache` calls this)."""
    _LAST_FABRICS[0] = (None, None)
