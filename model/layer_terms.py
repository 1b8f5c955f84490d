"""A layer's shape and stored activations as the engine reads them: the attention's geometry (standard or
multi-head latent attention), the bytes a recipe keeps for the backward pass where it recomputes or caches in
FP8, the work its recomputation moves into the backward, and the MLP's share of the stored bytes.

Point-input terms of :func:`model.inputs.build_inputs`, arrays (n,), in the units of
:func:`model.compute.layer_activation_bytes`.
"""

from __future__ import annotations

import numpy as np

from .arrays import at_shape
from .compute import mlp_activation_ratio


def attention_geometry(w, hidden, heads, kv_heads, n) -> dict:
    """The attention's shape beyond its weights, as the layer terms read it (arrays (n,)).

    ``core_width``: what stands for ``h`` in the attention core's FLOPs ``4·b·s²·h`` (two GEMMs, ``QKᵀ`` of the
    query/key head dimension and ``score·V`` of the value head dimension, over every head: ``a·(d_qk + d_v)/2``);
    ``core_dim``: the core GEMMs' head dimension for their efficiency (``h/a``); ``kv_width``: each of keys and
    values per token (``k·h/a``; what context parallelism's ring sends); ``attn_inside``: stored activations of
    the attention inside the tensor-parallel region per token, in units of ``2h`` bytes (query ``2h``, keys and
    values ``4h·k/a``, output ``2h``: ``4 + 4k/a``, Korthikanti et al. 2022 eq. 1-4).

    Multi-head latent attention (DeepSeek-AI 2024, "DeepSeek-V2", §2.1; DeepSeek-V3 report §2.1.1), with ``workload``'s
    ``kv_lora_rank`` ``r_kv``, ``q_lora_rank`` ``r_q``, ``qk_nope_head_dim`` ``d_n``, ``qk_rope_head_dim`` ``d_r`` and
    ``v_head_dim`` ``d_v``: weights ``h·r_q + r_q·a·(d_n + d_r)`` (query; ``h·a·(d_n + d_r)`` without ``r_q``) ``+
    h·(r_kv + d_r) + r_kv·a·(d_n + d_v)`` (compressed key/value and their up-projections) ``+ a·d_v·h`` (output);
    the core's query/key dimension ``d_n + d_r`` (192 for DeepSeek-V3) and value dimension ``d_v``; training
    stores the latents (``r_q``, ``r_kv + d_r``), the expanded query, keys, values and the output: ``mla_weights``
    besides the four terms above; ``recompute_weights``: the up-projections' weights, which ``light_recompute``
    runs again in the backward pass (0 otherwise); ``norm_bytes``: the normalisations' stored bytes (8).
    """
    h, a, k = (at_shape(np.asarray(x, dtype=float), (n,)) for x in (hidden, heads, kv_heads))
    if w.kv_lora_rank is None:
        return dict(core_width=h, core_dim=h / a, kv_width=k * (h / a), attn_inside=4.0 + 4.0 * k / a,
                    norm_bytes=np.full(n, 8.0), recompute_weights=np.zeros(n))
    d_n = h / a if w.qk_nope_head_dim is None else np.full(n, float(w.qk_nope_head_dim))
    d_r = float(64 if w.qk_rope_head_dim is None else w.qk_rope_head_dim)
    d_v = h / a if w.v_head_dim is None else np.full(n, float(w.v_head_dim))
    r_kv = float(w.kv_lora_rank)
    d_qk = d_n + d_r
    if w.q_lora_rank is None:
        query, q_latent = h * a * d_qk, 0.0
    else:
        query, q_latent = w.q_lora_rank * (h + a * d_qk), float(w.q_lora_rank)
    weights = query + h * (r_kv + d_r) + r_kv * a * (d_n + d_v) + a * d_v * h
    stored = q_latent + r_kv + d_r + 2.0 * a * d_qk + 2.0 * a * d_v  # latents, q and k, v and the output
    # the up-projections the backward pass runs again with ``light_recompute``
    up = (0.0 if w.q_lora_rank is None else w.q_lora_rank * a * d_qk) + r_kv * a * (d_n + d_v)
    return dict(core_width=a * (d_qk + d_v) / 2.0, core_dim=(d_qk + d_v) / 2.0, kv_width=a * (d_qk + d_v) / 2.0,
                attn_inside=2.0 * stored / h, mla_weights=weights, norm_bytes=np.full(n, 8.0),
                recompute_weights=up * float(w.light_recompute))


def stored_activation_terms(w, hidden, heads, ffn, n) -> dict:
    """What a layer stores for its backward pass where the recipe recomputes or caches in FP8 (``light_recompute``,
    ``fp8_activations``; DeepSeek-V3 report §3.2.3 and §3.3.3), in the units of
    :func:`~model.compute.layer_activation_bytes` (bytes per token and ``h``):

    - ``norm_bytes``: the two normalisations' inputs (residual stream, bf16: 4) and outputs (the QKV and MLP GEMMs'
      inputs: 4 in bf16, 2 in FP8, none when recomputed);
    - ``attn_inside``: with latent attention, the latents (FP8 or bf16), the expanded query, keys and values
      (bf16; none when the up-projections are recomputed) and the output (the output projection's input);
      standard attention keeps its query, keys and values (the attention core's inputs) and its output;
    - ``mlp_bytes``: one MLP's intermediates per token copy, SwiGLU's input ``2f`` (FP8 or bf16) and output ``f``
      (none when recomputed; a GPT MLP: ``4h`` each), and ``expert_input_bytes``: a routed copy's input ``h``.
    """
    h, a = (np.broadcast_to(np.asarray(x, dtype=float), (n,)) for x in (hidden, heads))
    lin = 1.0 if w.fp8_activations else 2.0  # a GEMM input's bytes
    out = dict(norm_bytes=np.full(n, 4.0 + (0.0 if w.light_recompute else 2.0 * lin)))
    if w.kv_lora_rank is not None:
        d_n = h / a if w.qk_nope_head_dim is None else float(w.qk_nope_head_dim)
        d_r = float(64 if w.qk_rope_head_dim is None else w.qk_rope_head_dim)
        d_v = h / a if w.v_head_dim is None else float(w.v_head_dim)
        latents = float(w.q_lora_rank or 0) + w.kv_lora_rank + d_r
        expanded = 0.0 if w.light_recompute else 2.0 * (2.0 * a * (d_n + d_r) + a * d_v)
        out["attn_inside"] = (lin * (latents + a * d_v) + expanded) / h
    f = np.where(np.isnan(ffn), 4.0 * h, ffn) if ffn is not None else 4.0 * h
    gated = np.where(np.isnan(ffn), 1.0, 2.0) if ffn is not None else 1.0  # SwiGLU's input is gate and up
    out["mlp_bytes"] = gated * f * lin + (0.0 if w.light_recompute else 2.0 * f)
    out["expert_input_bytes"] = lin * h
    # what the backward pass writes again with ``light_recompute``: the normalisations' outputs (as they are cached)
    # and one SwiGLU output ``2f`` (bf16) per token copy
    out["recomputed_norm_bytes"] = np.full(n, 2.0 * lin if w.light_recompute else 0.0)
    out["recomputed_mlp_bytes"] = 2.0 * f * float(w.light_recompute)
    return out


def recomputed_activation_terms(pt, n) -> dict:
    """The elementwise work :func:`stored_activation_terms`' ``light_recompute`` moves into the backward pass, in the
    units of :func:`~model.compute.layer_activation_bytes`: ``recomputed_mlp_ratio``, the SwiGLU outputs the forward
    pass writes without keeping them (over ``16h`` bytes a token, as ``mlp_ratio``: the layer's forward time counts
    every tensor it writes, kept or not); ``recompute_bytes``, what the backward pass writes again (the
    normalisations' outputs and those SwiGLU outputs, bytes per token and ``h``). Zero without ``light_recompute``.

    The kernels that do this keep a SwiGLU's two inputs and recompute its product in the backward (xformers'
    fused SwiGLU, ``xformers/ops/swiglu_op.py``: ``save_for_backward(x, w1, w2, w3, x1, x2)``; DeepSeek-V3 report
    §3.3.3) and recompute RMSNorm from its input (DeepSeek-V3 report §3.2.3; Megatron-Core ``recompute_modules``
    ``layernorm``): memory-bound passes, priced like the forward's elementwise work
    (:data:`~model.compute.MEM_PASSES` per byte written)."""
    if "recomputed_mlp_bytes" not in pt:
        zero = np.zeros(n)
        return dict(recomputed_mlp_ratio=zero, recompute_bytes=zero)
    h = pt["hidden"]
    mlp = pt.pop("recomputed_mlp_bytes") * (pt["moe_tokens"] + pt["shared_experts"])
    return dict(recomputed_mlp_ratio=at_shape(mlp / (16.0 * h), (n,)),
                recompute_bytes=at_shape(pt.pop("recomputed_norm_bytes") + mlp / h, (n,)))


def fp8_mlp_input_share(pt, ffn, moe, n):
    """The share of a layer's stored MLP activations (``16h·mlp_ratio`` bytes, :func:`moe_mlp_ratio`) that GEMMs keep
    only as their input for the weight gradient, which FP8 recipes save as the one-byte cast
    (``fc2_input_share`` of :func:`~model.compute.layer_activation_bytes`): the second GEMM's input, a GPT MLP's
    GeLU output (``8h`` of ``16h``) or a SwiGLU's output (``f`` of ``3f``), of each token copy, and a routed copy's
    input (the experts' first GEMM's, ``2h``)."""
    h = pt["hidden"]
    dense_share = np.where(np.isnan(ffn), 0.5, 1.0 / 3.0) if ffn is not None else 0.5
    one_mlp = at_shape(mlp_activation_ratio(h, ffn), (n,)) * 16.0 * h  # one MLP's bytes per token copy
    fc2 = dense_share * one_mlp * (pt["moe_tokens"] + pt["shared_experts"])
    routed = moe * pt["moe_tokens"] * 2.0 * h
    return at_shape((fc2 + routed) / (16.0 * h * pt["mlp_ratio"]), (n,)).astype(float)


def moe_mlp_ratio(w, pt, ffn, moe, n):
    """The MLP activations of a layer over a GPT MLP's ``16h`` bytes per token [-] (``mlp_ratio`` of
    :func:`~model.compute.layer_activation_bytes`): one MLP's (:func:`~model.compute.mlp_activation_ratio`) for each
    token copy the experts compute (``K·capacity``) and each shared expert, and the routed copies' inputs (the
    permuted tokens the experts' first GEMM keeps for its weight gradient: ``2h`` bytes a copy in bf16). With
    :func:`stored_activation_terms`, the bytes it gives."""
    h = pt["hidden"]
    copies = pt["moe_tokens"] + pt["shared_experts"]
    if "mlp_bytes" in pt:
        return (pt.pop("mlp_bytes") * copies + moe * pt["moe_tokens"] * pt.pop("expert_input_bytes")) / (16.0 * h)
    ratio = at_shape(mlp_activation_ratio(h, ffn), (n,)) * copies
    return ratio + pt["moe_tokens"] * 2.0 * h / (16.0 * h) if moe else ratio
