"""Compute: FLOPs, matmul efficiency and memory-bound time of a transformer layer.

Every function is pure and broadcasts over numpy arrays; scalars work too.

Notation (Narayanan et al. 2021; Korthikanti et al. 2022): ``b`` micro-batch
[sequences], ``s`` sequence length [tokens], ``h`` hidden size, ``a`` attention
heads, ``l`` layers, ``V`` vocabulary, ``t`` tensor-parallel degree.

Constants
---------
================================  ========  =====================================================
name                              value     source
================================  ========  =====================================================
``GEMM_EFF_MAX``                  0.75      large BF16 GEMMs reach ~75-80% of tensor-core peak with
                                            cuBLAS; calibrated on the Megatron runs
                                            (assets/validation), one value for all GPUs
``GEMM_HALF_DIM``                 96        GEMM dimension at which efficiency is half of max
                                            (tile/wave quantisation; Calculon models efficiency
                                            by operation size the same way); calibrated
``MEM_PASSES``                    2.0       bytes moved by non-matmul kernels per byte of
                                            stored activation (Korthikanti et al. eq. 1 gives
                                            the stored bytes); calibrated
``FP8_GEMM_FRACTION``             0.75      achieved FP8 GEMM rate over the FP8 peak, relative to BF16
                                            GEMMs' (casts and scaling around each GEMM); chosen so
                                            that FP8 speeds a Llama-2 70B-like layer up ~1.3-1.4×, as
                                            NVIDIA reports for Transformer Engine FP8 on H100 (NeMo
                                            performance summary); a fit to a published ratio, not
                                            a measurement
``TP_OVERLAP_GEMM_SLOWDOWN``      0.023     dense GEMMs' slowdown when tensor-parallel communication overlaps
                                            them: the SMs its kernels take (of H100's 132), weighted by the
                                            layer's GEMMs. Megatron-Bridge's userbuffers configuration for
                                            Llama 3.1 405B on H100 (TP 8): forward proj 24 SMs and fc2 8
                                            (pipelined, SMs reserved), QKV and fc1 by ring exchange on copy
                                            engines; backward QKV wgrad 24, QKV dgrad, fc1 dgrad and wgrad
                                            2 each (bulk); weighted by a Llama layer's GEMMs: 3.2 % of the
                                            forward, 1.8 % of the backward, 2.3 % overall (derived)
``ADAM_BYTES_PER_PARAM``          32        fp32 master, m, v, fp32 grad read; master, m, v,
                                            bf16 weight written (mixed-precision Adam,
                                            Micikevicius et al. 2018; Rajbhandari et al. 2020)
================================  ========  =====================================================

The three calibrated constants are physical (a peak efficiency, a size scale and
a traffic multiplier), shared by every GPU and every run; see
``model/validation.py`` for how they were fitted and what error remains.

References
----------
1. D. Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
   Clusters Using Megatron-LM", SC 2021, eq. 3.
2. V. Korthikanti et al., "Reducing Activation Recomputation in Large
   Transformer Models", arXiv:2205.05198, 2022, §4 and §5.
3. Calculon (calculon-ai/calculon): compute efficiency by operation size.
4. T. Dao et al., "FlashAttention", NeurIPS 2022 (attention without
   materialising the s x s score matrix).
"""

from __future__ import annotations

import numpy as np

from .arrays import any_true

GEMM_EFF_MAX = 0.75
GEMM_HALF_DIM = 96.0
MEM_PASSES = 2.0
ADAM_BYTES_PER_PARAM = 32.0
BYTES_BF16 = 2.0
FP8_GEMM_FRACTION = 0.75
TP_OVERLAP_GEMM_SLOWDOWN = 0.023

RECOMPUTE_KINDS = ("none", "selective", "full", "half")
# the share of each model chunk's layers recomputed whole, per recompute code: "half" is Megatron-LM's block method
# (``--recompute-granularity full --recompute-method block --recompute-num-layers N``: the first N layers of each
# pipeline stage's chunk are recomputed whole, the others store everything) with N half the chunk's layers
HALF_RECOMPUTE_SHARE = 0.5


def layer_matmul_weights(hidden, heads, kv_heads=None, ffn_hidden=None):
    """Matmul weights of one transformer layer [parameters].

    Attention: query and output projections ``2h²`` plus keys and values ``2·h·k·h/a`` for ``k``
    key/value heads (grouped-query attention, Ainslie et al. 2023; ``k = a`` is multi-head attention).
    MLP: a GPT MLP of ``4h`` (two matrices, ``8h²``) when ``ffn_hidden`` is NaN or omitted, else a SwiGLU MLP
    of three ``h × f`` matrices (Shazeer 2020; Touvron et al. 2023, Llama). GPT: ``12h²`` as Narayanan et al.
    """
    h = np.asarray(hidden, dtype=float)
    a = np.asarray(heads, dtype=float)
    k = a if kv_heads is None else np.where(np.isnan(kv_heads), a, kv_heads)
    attn = 2.0 * h**2 + 2.0 * h * k * (h / a)
    if ffn_hidden is None:
        return attn + 8.0 * h**2
    f = np.asarray(ffn_hidden, dtype=float)
    return attn + np.where(np.isnan(f), 8.0 * h**2, 3.0 * h * f)


def mlp_activation_ratio(hidden, ffn_hidden=None):
    """Stored MLP intermediate activations relative to a GPT MLP of ``4h`` [-].

    Korthikanti et al. store ``16·s·b·h`` bytes of MLP intermediates (the first GEMM's output, the GeLU's input,
    and the GeLU's output, the second GEMM's input: ``4h`` each, 2 bytes). A SwiGLU MLP stores its first GEMM's
    output, gate and up (``2f``, the fused SwiGLU's saved input) and the SwiGLU's output (``f``, the second GEMM's
    saved input): ``6·s·b·f`` bytes (Megatron-Core ``bias_swiglu`` and Transformer Engine ``Linear`` save exactly
    these): ratio ``3f/(8h)``. 1 for a GPT MLP.
    """
    if ffn_hidden is None:
        return 1.0
    f = np.asarray(ffn_hidden, dtype=float)
    return np.where(np.isnan(f), 1.0, 3.0 * f / (8.0 * np.asarray(hidden, dtype=float)))


def params_from_architecture(layers, hidden, vocab, layer_weights=None, untied_embeddings=False):
    """Parameter count of a GPT model [parameters].

    ``P = 12·l·h²·(1 + 13/(12h)) + V·h`` (Narayanan et al. 2021, §5.1), which
    counts attention and MLP weights with biases, layer norms and the embedding.
    ``layer_weights`` (:func:`layer_matmul_weights`) replaces ``12h²`` for
    grouped-query attention or SwiGLU; untied embeddings add the output layer ``V·h``.
    """
    l = np.asarray(layers, dtype=float)
    h = np.asarray(hidden, dtype=float)
    v = np.asarray(vocab, dtype=float)
    w = 12.0 * h**2 if layer_weights is None else np.asarray(layer_weights, dtype=float)
    return l * (w + 13.0 * h) + v * h * (1.0 + np.asarray(untied_embeddings, dtype=float))


def _flop_terms(B, s, l, h, V, layer_weights, core_width=None):
    """Dense, attention-core and output-layer FLOPs of forward + backward [FLOP] (three times the forward).
    ``core_width``: what stands for ``h`` in the attention core (multi-head latent attention's ``a·(d_qk + d_v)/2``,
    :func:`~model.layer_terms.attention_geometry`); ``h`` when omitted."""
    w = 12.0 * h**2 if layer_weights is None else np.asarray(layer_weights, dtype=float)
    core = h if core_width is None else np.asarray(core_width, dtype=float)
    return 6.0 * B * s * l * w, 12.0 * B * l * s**2 * core, 6.0 * B * s * h * V


def model_flops_per_iteration(batch, seq_len, layers, hidden, vocab, layer_weights=None, core_width=None):
    """Model FLOPs per iteration, without recomputation [FLOP].

    ``72·B·l·s·h²·(1 + s/(6h) + V/(12·h·l))`` (Korthikanti et al. 2022, §6.3),
    written as ``6·B·s·l·W + 12·B·l·s²·h + 6·B·s·h·V`` with ``W = 12h²`` the
    matmul weights of a layer, or :func:`layer_matmul_weights` for grouped-query
    attention and SwiGLU (the Llama 3 paper counts FLOPs the same way).
    This is the numerator of MFU.
    """
    B, s, l, h, V = (np.asarray(x, dtype=float) for x in (batch, seq_len, layers, hidden, vocab))
    dense, attn, out = _flop_terms(B, s, l, h, V, layer_weights, core_width)
    return dense + attn + out


def flops_per_iteration(batch, seq_len, layers, hidden, vocab, recompute, layer_weights=None, core_width=None):
    """:func:`model_flops_per_iteration` and :func:`hardware_flops_per_iteration` of the same run [FLOP], from one
    evaluation of their shared terms (the engine reports both for every fabric and point)."""
    B, s, l, h, V = (np.asarray(x, dtype=float) for x in (batch, seq_len, layers, hidden, vocab))
    dense, attn, out = _flop_terms(B, s, l, h, V, layer_weights, core_width)
    core = dense + attn
    code = recompute_code(recompute)
    # full: one more forward pass of the layers (a third of forward + backward); half: of half of them
    hw = np.where(code == 2, core * (4.0 / 3.0), np.where(code == 1, dense + 2.0 * attn, core))
    if any_true(code == 3):
        hw = np.where(code == 3, core * (1.0 + HALF_RECOMPUTE_SHARE / 3.0), hw)
    return core + out, hw + out


def hardware_flops_per_iteration(batch, seq_len, layers, hidden, vocab, recompute, layer_weights=None):
    """FLOPs the GPUs execute per iteration, including recomputation [FLOP].

    - ``full``: one extra forward pass, Narayanan et al. eq. 3:
      ``96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h))``.
    - ``selective``: the attention core is recomputed, Korthikanti et al.:
      ``72·B·l·s·h²·(1 + s/(3h) + V/(12·h·l))``.
    - ``half``: Megatron-LM's block method on half of each chunk's layers: half of ``full``'s extra forward.
    - ``none``: equal to :func:`model_flops_per_iteration`.

    ``recompute`` is a string or an array of codes (0 none, 1 selective, 2 full, 3 half).
    With ``layer_weights`` the same terms as :func:`model_flops_per_iteration`:
    full recomputation adds a third to the dense and attention terms, selective
    doubles the attention term.
    """
    return flops_per_iteration(batch, seq_len, layers, hidden, vocab, recompute, layer_weights)[1]


def recompute_code(recompute):
    """Map ``"none"/"selective"/"full"/"half"`` (or codes 0/1/2/3) to an int array."""
    if isinstance(recompute, str):
        return np.asarray(RECOMPUTE_KINDS.index(recompute))
    return np.asarray(recompute, dtype=int)


def gemm_efficiency(dim, eff_max=None, half_dim=None):
    """Achievable fraction of tensor-core peak for a GEMM whose smallest dimension is ``dim``.

    ``eff = eff_max · dim / (dim + half_dim)``: small operations leave tiles
    and SM waves partly empty, large ones approach ``eff_max``. The same
    saturating shape as Calculon's per-size efficiency tables, reduced to two
    physical constants.

    Parameters
    ----------
    dim : array_like
        Smallest dimension of the GEMM [elements].
    """
    eff_max = GEMM_EFF_MAX if eff_max is None else eff_max
    half_dim = GEMM_HALF_DIM if half_dim is None else half_dim
    d = np.asarray(dim, dtype=float)
    return eff_max * d / (d + half_dim)


def layer_gemm_flops_forward(b, s, h, t, layer_weights=None):
    """Forward FLOPs of the dense GEMMs of one layer on one tensor-parallel rank [FLOP].

    QKV (6bsh²), attention projection (2bsh²) and MLP (16bsh²): ``24·b·s·h²/t``;
    ``2·b·s·W/t`` for a layer of ``W`` matmul weights (:func:`layer_matmul_weights`).
    """
    if layer_weights is None:
        return 24.0 * b * s * h**2 / t
    return 2.0 * b * s * layer_weights / t


def layer_attention_flops_forward(b, s, h, t):
    """Forward FLOPs of the attention core (QKᵀ and score·V) per rank [FLOP]: ``4·b·s²·h/t``."""
    return 4.0 * b * s**2 * h / t


def layer_activation_bytes(b, s, h, a, t, sequence_parallel, flash_attention, mlp_ratio=1.0, kv_heads=None,
                           attn_inside=None, norm_bytes=None, fp8=False, fc2_input_share=0.5):
    """Activation bytes one layer stores for one micro-batch on one rank [B].

    Korthikanti et al. 2022, eq. 1-4 (§4.1, mixed precision), tensor by tensor, per token:

    - outside the tensor-parallel regions (split by ``t`` only with sequence parallelism): the two layer norms'
      inputs ``4h`` and outputs ``4h`` (the QKV and first MLP GEMMs' inputs), and the two dropout masks ``2h``;
    - inside them (split by ``t``): the query ``2h``, keys and values ``4h·k/a`` (``k`` key/value heads,
      grouped-query attention; ``4h`` with multi-head attention), the attention output ``2h`` (the output
      projection's input) and the MLP intermediates ``16h·mlp_ratio`` (:func:`mlp_activation_ratio`);
    - the attention core: softmax output, its dropout mask and output, ``5·a·s²·b``, never stored with
      FlashAttention (Dao et al. 2022, Algorithm 2: recomputed in the backward pass from the saved query, keys,
      values, output and the softmax's logsumexp ``L``, one fp32 value per head and token: ``4·a·s·b`` bytes, split
      by ``t`` with the heads, counted inside).

    ``attn_inside``: the attention's part inside, per token in units of ``2h`` bytes, where it is not ``4 + 4k/a``
    (multi-head latent attention, :func:`~model.layer_terms.attention_geometry`); ``norm_bytes``: the normalisations'
    inputs and outputs where not ``8`` (:func:`~model.layer_terms.stored_activation_terms`).

    Multi-head attention, a GPT MLP and dropout give the paper's ``s·b·h·(10 + 24/t)`` without and
    ``34·s·b·h/t`` with sequence parallelism. Recipes that run FlashAttention (Llama, Mixtral, NeMo's GPT-3)
    train without dropout (their published configurations: ``attention_dropout = hidden_dropout = 0``), so no
    dropout masks are counted with ``flash_attention``: Megatron-LM's own estimate for these recipes
    (``megatron/training/theoretical_memory_usage.py``, ``s·b·h·(18 + 4·f/h)/t``) omits them likewise.

    With FP8 matmuls (``fp8``) Transformer Engine keeps each GEMM's input for the weight gradient as its FP8 cast,
    one byte an element, not the BF16 tensor (``transformer_engine/pytorch/module/linear.py`` and
    ``layernorm_linear.py``: ``saved_inputmat = inputmat``, the FP8 tensor, unless the weight gradient is overridden
    to higher precision): the two layer norms' outputs ``4h`` become ``2h``; the second MLP GEMM's input, the share
    ``fc2_input_share`` of the MLP intermediates (a GPT MLP's GeLU output, ``1/2``; a SwiGLU's output, ``1/3``),
    is halved; the output projection keeps an FP8 copy ``h`` of its input besides the attention's BF16 output
    (the fused attention's backward reads that).
    Where a recipe's stored bytes come term by term (``norm_bytes``, ``attn_inside`` and ``mlp_ratio`` of
    :func:`~model.layer_terms.stored_activation_terms`, which count its FP8 caches themselves), ``fp8`` is false.

    Returns
    -------
    (linear_bytes, attention_core_bytes)
        The part that scales with ``s·b·h`` and the ``a·s²·b`` part.
    """
    sp = np.asarray(sequence_parallel, dtype=bool)
    flash = np.asarray(flash_attention, dtype=bool)
    a_ = np.asarray(a, dtype=float)
    kv = 1.0 if kv_heads is None else np.where(np.isnan(kv_heads), a_, kv_heads) / a_
    mlp = 16.0 * np.asarray(mlp_ratio, dtype=float)
    outside = (8.0 if norm_bytes is None else np.asarray(norm_bytes, dtype=float)) + np.where(flash, 0.0, 2.0)
    inside = (4.0 + 4.0 * kv if attn_inside is None else np.asarray(attn_inside, dtype=float)) + mlp
    inside = inside + np.where(flash, 4.0 * a_ / np.asarray(h, dtype=float), 0.0)  # the fp32 logsumexp, a per token
    if any_true(fp8):
        f8 = np.asarray(fp8, dtype=bool)
        outside = outside - np.where(f8, 2.0, 0.0)
        inside = inside + np.where(f8, 1.0 - 0.5 * mlp * np.asarray(fc2_input_share, dtype=float), 0.0)
    lin = np.where(sp, s * b * h * (outside + inside) / t, s * b * h * (outside + inside / t))
    core = np.where(flash, 0.0, 5.0 * a * s**2 * b / t)
    return lin, core


def layer_times_forward(b, s, h, a, t, peak_flops, hbm_bytes_per_s, sequence_parallel,
                        flash_attention, mem_passes=None, layer_weights=None, mlp_ratio=1.0, gemm_peak_flops=None,
                        core_width=None, core_dim=None):
    """Forward time of one layer for one micro-batch on one rank [s].

    ``time = GEMM FLOPs / (peak · eff(h/t)) + attention FLOPs / (peak · eff(h/a))
    + MEM_PASSES · activation bytes / HBM bandwidth``.

    Returns
    -------
    (dense_s, attention_core_s)
        Dense GEMM and elementwise time, and the attention-core time (its GEMMs
        and its memory traffic), separated because selective recomputation
        repeats only the latter.

    ``gemm_peak_flops``: the dense GEMMs' rate when it differs from ``peak_flops`` (FP8 GEMMs,
    :func:`gemm_rates`); the attention core stays in BF16 (FlashAttention). ``core_width`` stands for ``h`` in the
    core's FLOPs and ``core_dim`` for its head dimension ``h/a`` (multi-head latent attention,
    :func:`~model.layer_terms.attention_geometry`).
    """
    mem_passes = MEM_PASSES if mem_passes is None else mem_passes
    gemm_peak = peak_flops if gemm_peak_flops is None else gemm_peak_flops
    dense_flops = layer_gemm_flops_forward(b, s, h, t, layer_weights)
    attn_flops = layer_attention_flops_forward(b, s, h if core_width is None else core_width, t)
    lin_bytes, core_bytes = layer_activation_bytes(b, s, h, a, t, sequence_parallel, flash_attention, mlp_ratio)
    dense_s = dense_flops / (gemm_peak * gemm_efficiency(h / t)) + mem_passes * lin_bytes / hbm_bytes_per_s
    core_s = (attn_flops / (peak_flops * gemm_efficiency(h / a if core_dim is None else core_dim))
              + mem_passes * core_bytes / hbm_bytes_per_s)
    return dense_s, core_s


def logits_time(b, s, h, vocab, t, peak_flops, hbm_bytes_per_s, mem_passes=None):
    """Forward + backward time of the output layer and loss for one micro-batch [s].

    ``6·b·s·h·V/t`` FLOPs (Narayanan et al. eq. 3, last term) at ``eff(min(h, V/t))``,
    plus the fp32 logits (4 bytes each) through the softmax-cross-entropy.
    """
    mem_passes = MEM_PASSES if mem_passes is None else mem_passes
    flops = 6.0 * b * s * h * vocab / t
    eff = gemm_efficiency(np.minimum(h, vocab / t))
    return flops / (peak_flops * eff) + mem_passes * 3.0 * 4.0 * b * s * vocab / t / hbm_bytes_per_s


def gemm_rates(gpu: dict, fp8: bool = False):
    """The attention core's and the dense GEMMs' peak rates for :func:`layer_times_forward` [FLOP/s].

    Both are the datasheet's peaks scaled so that :func:`gemm_efficiency`'s ceiling :data:`GEMM_EFF_MAX` becomes
    the GPU's own ``gemm_efficiency_bf16`` / ``gemm_efficiency_fp8`` (assets/gpus.toml, each with its source):
    the attention core runs in BF16 (FlashAttention), the dense GEMMs in the matmul precision. A GPU without its
    own figures takes :data:`GEMM_EFF_MAX` and, for FP8, :data:`FP8_GEMM_FRACTION` of it.

    With tensor-parallel overlap the step time slows the dense GEMMs further by :data:`TP_OVERLAP_GEMM_SLOWDOWN`.
    """
    bf16_eff = gpu.get("gemm_efficiency_bf16", GEMM_EFF_MAX)
    attn = gpu["peak_bf16_tflops"] * 1e12 * bf16_eff / GEMM_EFF_MAX
    if fp8:
        eff = gpu.get("gemm_efficiency_fp8", GEMM_EFF_MAX * FP8_GEMM_FRACTION)
        dense = gpu["peak_fp8_tflops"] * 1e12 * eff / GEMM_EFF_MAX
    else:
        dense = attn
    return attn, dense


def optimizer_time(params_per_gpu, hbm_bytes_per_s, bytes_per_param=ADAM_BYTES_PER_PARAM):
    """Adam step over the parameters a GPU owns: memory bound [s]."""
    return bytes_per_param * params_per_gpu / hbm_bytes_per_s
