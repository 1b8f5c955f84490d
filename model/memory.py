"""Memory footprint per GPU and the pipeline schedule.

Constants
---------
==============================  =====  ==========================================================
``STATE_BYTES_PER_PARAM``       18     bf16 weight 2 + fp32 main grad 4 + fp32 master, m, v 12
                                       (Megatron-LM mixed precision; Rajbhandari et al. 2020 §3)
``OPTIMIZER_BYTES_PER_PARAM``   12     the part ZeRO-1 / the distributed optimizer shards
``USABLE_MEMORY_FRACTION``      0.90   CUDA context, NCCL buffers, fragmentation (guess)
==============================  =====  ==========================================================

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


def bubble_fraction(pp, microbatches, virtual_stages=1):
    """Pipeline bubble as a fraction of ideal time: ``(p−1)/(v·m)`` (Narayanan et al. 2021, §2.2)."""
    p = np.asarray(pp, dtype=float)
    m = np.asarray(microbatches, dtype=float)
    v = np.asarray(virtual_stages, dtype=float)
    return (p - 1.0) / (v * m)


def stage_params(layers, hidden, vocab, tp, pp):
    """Parameters held by one GPU of the largest pipeline stage [-].

    ``ceil(l/p)`` layers of ``12h²(1 + 13/(12h))`` each, plus the embedding or
    output layer ``V·h`` (first or last stage), all split over ``t`` ranks.
    """
    l = np.asarray(layers, dtype=float)
    h = np.asarray(hidden, dtype=float)
    per_layer = 12.0 * h**2 * (1.0 + 13.0 / (12.0 * h))
    return (np.ceil(l / pp) * per_layer + np.asarray(vocab, dtype=float) * h) / tp


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
                       recompute_code, sequence_parallel, flash_attention):
    """The terms of :func:`memory_per_gpu_bytes` that the model and the plan fix, before ``dp`` and ``m``.

    A dict: ``params`` (parameters on the GPU), ``activations`` (one micro-batch's stored activations
    of the stage's layers [B]), ``interleave`` (factor [-]), ``working`` (a recomputed layer's working
    set [B]) and ``logits`` [B]. The plan search computes them once per candidate plan.
    """
    b, s, h, a, t = micro_batch, seq_len, hidden, heads, tp
    params = stage_params(layers, hidden, vocab, tp, pp)
    lin, core = layer_activation_bytes(b, s, h, a, t, sequence_parallel, flash_attention)
    sp = np.asarray(sequence_parallel, dtype=bool)
    layer_input = np.where(sp, 2.0 * s * b * h / t, 2.0 * s * b * h)
    rc = np.asarray(recompute_code)
    per_layer = np.where(rc == 2, layer_input, np.where(rc == 1, lin, lin + core))
    working = np.where(rc == 2, lin + core, np.where(rc == 1, core, 0.0))
    layers_stage = np.ceil(np.asarray(layers, dtype=float) / pp)
    interleave = np.where(np.asarray(virtual_stages) > 1, 1.0 + (pp - 1.0) / (pp * virtual_stages), 1.0)
    logits = 4.0 * b * s * np.asarray(vocab, dtype=float) / t * 2.0
    return dict(params=params, activations=layers_stage * per_layer, interleave=interleave, working=working,
                logits=logits)


def memory_with_replicas_bytes(stage, pp, dp, distributed_optimizer, microbatches):
    """:func:`memory_per_gpu_bytes` from its :func:`stage_memory_bytes` terms, ``dp`` and ``m`` [B]."""
    dist = np.asarray(distributed_optimizer, dtype=bool)
    states = stage["params"] * (STATE_BYTES_PER_PARAM - OPTIMIZER_BYTES_PER_PARAM
                                + np.where(dist, OPTIMIZER_BYTES_PER_PARAM / np.maximum(dp, 1),
                                           OPTIMIZER_BYTES_PER_PARAM))
    inflight = np.minimum(np.asarray(pp, dtype=float), np.asarray(microbatches, dtype=float))
    return states + stage["activations"] * inflight * stage["interleave"] + stage["working"] + stage["logits"]
