"""Memory footprint per GPU and the pipeline schedule.

Constants
---------
==============================  =====  ==========================================================
``STATE_BYTES_PER_PARAM``       18     bf16 weight 2 + fp32 main grad 4 + fp32 master, m, v 12
                                       (Megatron-LM mixed precision; Rajbhandari et al. 2020 §3)
``OPTIMIZER_BYTES_PER_PARAM``   12     the part ZeRO-1 / the distributed optimizer shards
``USABLE_MEMORY_FRACTION``      0.90   CUDA context, NCCL buffers, fragmentation (guess)
``WEIGHT_BYTES``                2      bf16 weights, sharded over data parallel by ZeRO-3 / FSDP
``GRAD_STATE_BYTES``            4      fp32 main gradients, sharded by ZeRO-2 and 3
``FP8_WEIGHT_BYTES``            1      FP8 copy of the weights Transformer Engine keeps (and its
                                       transpose's scale state), guess: 1 byte per parameter
``ZERO3_GATHERED_LAYERS``       2      layers whose weights ZeRO-3 holds gathered at once: the
                                       current one and the prefetched next (PyTorch FSDP
                                       forward/backward prefetch)
==============================  =====  ==========================================================

ZeRO stages (Rajbhandari et al. 2020, §5): stage 1 divides the 12 optimizer bytes
by ``dp``, stage 2 also the 4 gradient bytes, stage 3 (FSDP) also the 2 weight bytes.

References
----------
1. V. Korthikanti et al., "Reducing Activation Recomputation in Large
   Transformer Models", 2022, §4 (activation memory, 1F1B and interleaving).
2. S. Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion
   Parameter Models", SC 2020.
3. D. Narayanan et al., SC 2021, §2.2 (1F1B and interleaved schedules).
"""

from __future__ import annotations

import numpy as np

from .compute import layer_activation_bytes

STATE_BYTES_PER_PARAM = 18.0
OPTIMIZER_BYTES_PER_PARAM = 12.0
USABLE_MEMORY_FRACTION = 0.90
WEIGHT_BYTES = 2.0
GRAD_STATE_BYTES = 4.0
FP8_WEIGHT_BYTES = 1.0
ZERO3_GATHERED_LAYERS = 2.0


def bubble_fraction(pp, microbatches, virtual_stages=1):
    """Pipeline bubble as a fraction of ideal time: ``(p−1)/(v·m)`` (Narayanan et al. 2021, §2.2)."""
    p = np.asarray(pp, dtype=float)
    m = np.asarray(microbatches, dtype=float)
    v = np.asarray(virtual_stages, dtype=float)
    return (p - 1.0) / (v * m)


def stage_params(layers, hidden, vocab, tp, pp, layer_weights=None, untied_embeddings=False):
    """Parameters held by one GPU of the largest pipeline stage [-].

    ``ceil(l/p)`` layers of ``12h²(1 + 13/(12h))`` each (``W + 13h`` with ``layer_weights`` ``W``), plus the
    embedding or output layer ``V·h`` (first or last stage; both when ``p = 1`` and they are untied), all split
    over ``t`` ranks.
    """
    return _stage_params(np.ceil(np.asarray(layers, dtype=float) / pp), hidden, vocab, tp, pp, layer_weights,
                         untied_embeddings)


def _stage_params(layers_stage, hidden, vocab, tp, pp, layer_weights=None, untied_embeddings=False):
    """:func:`stage_params` of the largest stage's ``layers_stage`` layers (``ceil(l/p)``), where the caller holds it."""
    h = np.asarray(hidden, dtype=float)
    w = 12.0 * h**2 if layer_weights is None else np.asarray(layer_weights, dtype=float)
    per_layer = w + 13.0 * h
    embedding = np.asarray(vocab, dtype=float) * h
    untied = np.asarray(untied_embeddings, dtype=bool)
    if untied.any():  # both matrices on the one stage where p = 1; tied embeddings (most models): a factor 1, skipped
        embedding = embedding * (1.0 + (untied & (np.asarray(pp) == 1)))
    return (layers_stage * per_layer + embedding) / tp


def memory_per_gpu_bytes(layers, hidden, heads, vocab, seq_len, micro_batch, tp, pp, dp, virtual_stages,
                         recompute_code, sequence_parallel, flash_attention, distributed_optimizer,
                         microbatches):
    """Peak bytes on the busiest GPU (first pipeline stage) [B].

    Model states: 18 bytes per parameter, the 12 optimizer bytes divided by
    ``dp`` with the distributed optimizer. Activations per layer by
    Korthikanti et al. eq. 1-4: everything with no recomputation, the linear part
    with selective recomputation, only the layer input (``2·s·b·h``, split by
    ``t`` with sequence parallelism) with full recomputation, plus one layer's
    working set while it is recomputed. The first stage of 1F1B keeps
    ``min(p, m)`` micro-batches in flight; interleaving multiplies that by
    ``1 + (p−1)/(p·v)``.
    """
    stage = stage_memory_bytes(layers, hidden, heads, vocab, seq_len, micro_batch, tp, pp, virtual_stages,
                               recompute_code, sequence_parallel, flash_attention)
    return memory_with_replicas_bytes(stage, pp, dp, distributed_optimizer, microbatches)


def stage_memory_bytes(layers, hidden, heads, vocab, seq_len, micro_batch, tp, pp, virtual_stages,
                       recompute_code, sequence_parallel, flash_attention, layer_weights=None, mlp_ratio=1.0,
                       untied_embeddings=False, fp8=False):
    """The terms of :func:`memory_per_gpu_bytes` that the model and the plan fix, before ``dp`` and ``m``.

    A dict: ``params`` (parameters on the GPU), ``activations`` (one micro-batch's stored activations
    of the stage's layers [B]), ``interleave`` (factor [-]), ``working`` (a recomputed layer's working
    set [B]) and ``logits`` [B], ``layer_params`` (one layer's parameters on the GPU, what ZeRO-3 gathers)
    and ``fp8`` (FP8 weight copies kept [B/parameter]). The plan search computes them once per candidate plan.
    """
    layer = layer_memory_bytes(hidden, heads, vocab, seq_len, micro_batch, tp, recompute_code, sequence_parallel,
                               flash_attention, layer_weights, mlp_ratio, fp8)
    return stage_memory_from_layer(layer, layers, hidden, vocab, tp, pp, virtual_stages, layer_weights,
                                   untied_embeddings)


def layer_memory_bytes(hidden, heads, vocab, seq_len, micro_batch, tp, recompute_code, sequence_parallel,
                       flash_attention, layer_weights=None, mlp_ratio=1.0, fp8=False):
    """The terms of :func:`stage_memory_bytes` that do not depend on the number of layers nor on the pipeline:
    ``per_layer`` (one layer's stored activations of one micro-batch [B]), ``working``, ``logits``,
    ``layer_params`` and ``fp8``."""
    b, s, h, a, t = micro_batch, seq_len, hidden, heads, tp
    w = 12.0 * np.asarray(hidden, dtype=float)**2 if layer_weights is None else layer_weights
    lin, core = layer_activation_bytes(b, s, h, a, t, sequence_parallel, flash_attention, mlp_ratio)
    sp = np.asarray(sequence_parallel, dtype=bool)
    layer_input = 2.0 * s * b * h
    layer_input = np.where(sp, layer_input / t, layer_input)
    rc = np.asarray(recompute_code)
    full, selective, stored = rc == 2, rc == 1, lin + core
    per_layer = np.where(full, layer_input, np.where(selective, lin, stored))
    working = np.where(full, stored, np.where(selective, core, 0.0))
    logits = 4.0 * b * s * np.asarray(vocab, dtype=float) / t * 2.0
    return dict(per_layer=per_layer, working=working, logits=logits,
                layer_params=(w + 13.0 * np.asarray(hidden, dtype=float)) / t,
                fp8=np.where(np.asarray(fp8, dtype=bool), FP8_WEIGHT_BYTES, 0.0))


def interleave_factor(pp, virtual_stages):
    """The factor interleaving multiplies the first stage's in-flight activations by: ``1 + (p−1)/(p·v)`` with
    ``v > 1`` virtual stages, else 1 [-] (Korthikanti et al. 2022, §4)."""
    return np.where(np.asarray(virtual_stages) > 1, 1.0 + (pp - 1.0) / (pp * virtual_stages), 1.0)


def stage_memory_from_layer(layer, layers, hidden, vocab, tp, pp, virtual_stages, layer_weights=None,
                            untied_embeddings=False, interleave=None):
    """:func:`stage_memory_bytes` from its :func:`layer_memory_bytes` terms ``layer``. ``interleave``: the
    plans' :func:`interleave_factor`, if already computed (the plan search computes it once per candidate)."""
    layers_stage = np.ceil(np.asarray(layers, dtype=float) / pp)
    params = _stage_params(layers_stage, hidden, vocab, tp, pp, layer_weights, untied_embeddings)
    interleave = interleave_factor(pp, virtual_stages) if interleave is None else interleave
    return dict(params=params, activations=layers_stage * layer["per_layer"], interleave=interleave,
                working=layer["working"], logits=layer["logits"], layer_params=layer["layer_params"],
                fp8=layer["fp8"])


def model_state_bytes(stage, dp, zero_stage):
    """Weights, gradients and optimizer state per GPU under a ZeRO stage [B].

    ``P·(2 + 4 + 12)`` with the parts stage ``z`` shards divided by ``dp`` (Rajbhandari et al. 2020, §5);
    ZeRO-3 adds the :data:`ZERO3_GATHERED_LAYERS` layers' bf16 weights it holds gathered.
    """
    z = np.asarray(zero_stage)
    inv_d = 1.0 / np.maximum(dp, 1.0)
    per_param = (np.where(z >= 3, inv_d, 1.0) * WEIGHT_BYTES + np.where(z >= 2, inv_d, 1.0) * GRAD_STATE_BYTES
                 + np.where(z >= 1, inv_d, 1.0) * OPTIMIZER_BYTES_PER_PARAM + stage["fp8"])
    gathered = np.where(z >= 3, ZERO3_GATHERED_LAYERS * WEIGHT_BYTES * stage["layer_params"], 0.0)
    return stage["params"] * per_param + gathered


def model_state_bytes_by_stage(stage, dp, stages):
    """:func:`model_state_bytes` of plans (rows, 1) at each ZeRO stage of ``stages`` (Z,) where ``dp > 1``, else
    at stage 0 (nothing to shard), as an array (rows, Z) [B]: computed a stage at a time, element by element the
    same expressions (with ``dp ≤ 1`` every share ``1/max(dp, 1)`` is 1, as at stage 0; only ZeRO-3's gathered
    layers need the test). Held stage by stage (each stage's rows contiguous: the transpose is a C-ordered (Z, rows)
    array), so that a stage is written, and the stages read, along the rows."""
    inv_d = 1.0 / np.maximum(dp, 1.0)
    sharded = dp > 1
    # each sharded part's bytes per parameter once, for every stage that shards it (``1.0 · bytes`` is the bytes)
    top = max(stages, default=0)
    weight = inv_d * WEIGHT_BYTES if top >= 3 else None
    grad = inv_d * GRAD_STATE_BYTES if top >= 2 else None
    opt = inv_d * OPTIMIZER_BYTES_PER_PARAM if top >= 1 else None
    out = np.empty((len(stages), np.shape(dp)[0])).T
    for i, z in enumerate(stages):
        per_param = ((weight if z >= 3 else WEIGHT_BYTES) + (grad if z >= 2 else GRAD_STATE_BYTES)
                     + (opt if z >= 1 else OPTIMIZER_BYTES_PER_PARAM) + stage["fp8"])
        col = np.multiply(stage["params"], per_param, out=out[:, i:i + 1])  # written in place: no temporary
        if z >= 3:
            np.add(col, np.where(sharded, ZERO3_GATHERED_LAYERS * WEIGHT_BYTES * stage["layer_params"], 0.0), out=col)
    return out


def activation_bytes(stage, pp, microbatches):
    """Activations, a recomputed layer's working set and the logits on the first stage [B]."""
    inflight = np.minimum(np.asarray(pp, dtype=float), np.asarray(microbatches, dtype=float))
    return stage["activations"] * inflight * stage["interleave"] + stage["working"] + stage["logits"]


def memory_with_replicas_bytes(stage, pp, dp, distributed_optimizer, microbatches, zero_stage=None):
    """:func:`memory_per_gpu_bytes` from its :func:`stage_memory_bytes` terms, ``dp`` and ``m`` [B].

    ``zero_stage`` (0-3) when given; otherwise 1 where ``distributed_optimizer`` else 0.
    """
    z = np.where(np.asarray(distributed_optimizer, dtype=bool), 1, 0) if zero_stage is None else zero_stage
    stage = stage if "fp8" in stage else dict(stage, fp8=0.0, layer_params=0.0)
    return model_state_bytes(stage, dp, z) + activation_bytes(stage, pp, microbatches)
