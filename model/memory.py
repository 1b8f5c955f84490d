"""Memory footprint per GPU and the pipeline schedule.

Constants
---------
==============================  =====  ==========================================================
``STATE_BYTES_PER_PARAM``       18     bf16 weight 2 + fp32 main grad 4 + fp32 master, m, v 12
                                       (Megatron-LM mixed precision; Rajbhandari et al. 2020 §3)
``OPTIMIZER_BYTES_PER_PARAM``   12     the part ZeRO-1 / the distributed optimizer shards
``GIB_PER_GB``                  1.074  a datasheet's "80 GB" of HBM is 80 GiB: nvidia-smi reports 81,920 MiB
                                       on an A100 80 GB and 81,559 MiB on an H100 SXM 80 GB (the rest is
                                       ECC and firmware reserve); 2³⁰/10⁹ bytes per catalogue GB
``FRAGMENTATION_FRACTION``      0.15   what PyTorch's caching allocator reserves beyond the activations it
                                       holds: fragmentation 15 % on average over eight LLM trainings on
                                       A100 80 GB (Guo et al., "GMLake", ASPLOS 2024, abstract: the share
                                       its defragmentation removes). Applied to the activations only:
                                       Megatron-LM allocates weights, gradients and optimizer state as
                                       contiguous buffers that do not fragment. Kept for every schedule: the
                                       caching allocator reuses blocks of exactly the sizes freed (PyTorch docs,
                                       CUDA semantics, ``expandable_segments``), but virtual pipelines and
                                       recomputation change tensors' lifetimes and fragment it (GMLake; Huang
                                       et al. 2025, "Reducing GPU Memory Fragmentation via Spatio-Temporal
                                       Planning", abstract: up to 43 % of memory)
``RUNTIME_RESERVE_FRACTION``    0.02   CUDA context, cuBLAS workspaces, NCCL buffers: ~1.5 GB of
                                       80 GB (guess)
``USABLE_MEMORY_FRACTION``      1.052  ``GIB_PER_GB · (1 − reserve)`` of the catalogue's GB
``WEIGHT_BYTES``                2      bf16 weights, sharded over data parallel by ZeRO-3 / FSDP
``GRAD_STATE_BYTES``            4      fp32 main gradients, sharded by ZeRO-2 and 3 (Megatron-LM accumulates
                                       and reduces gradients in fp32 with bf16 unless told otherwise)
``GRAD_BF16_BYTES``             2      bf16 gradient buffer (Megatron-Core ``grad_reduce_in_fp32 = False``,
                                       as NVIDIA's performance recipes set it, Megatron-Bridge
                                       ``scripts/performance``); the optimizer then casts its shard to
                                       fp32: ``MAIN_GRAD_SHARD_BYTES`` 4 more, sharded with the optimizer.
                                       Megatron-LM's distributed-optimizer table: 6 + 12/d bytes per
                                       parameter with fp32 gradients, 4 + 16/d with 16-bit ones
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
3. D. Narayanan et al., SC 2021, §2.2 (1F1B and interleaved schedules); Megatron-LM
   ``megatron/core/pipeline_parallel/schedules.py`` (warm-up forwards per rank).
4. A. Dubey et al., "The Llama 3 Herd of Models", 2024, §3.3.2 (one layer fewer on the
   first and last stage; no activation checkpointing at sequence 8,192).
"""

from __future__ import annotations

import numpy as np

from .arrays import any_true
from .compute import HALF_RECOMPUTE_SHARE, layer_activation_bytes

STATE_BYTES_PER_PARAM = 18.0
OPTIMIZER_BYTES_PER_PARAM = 12.0
GIB_PER_GB = 2.0**30 / 1e9
FRAGMENTATION_FRACTION = 0.15
RUNTIME_RESERVE_FRACTION = 0.02
USABLE_MEMORY_FRACTION = GIB_PER_GB * (1.0 - RUNTIME_RESERVE_FRACTION)
WEIGHT_BYTES = 2.0
GRAD_STATE_BYTES = 4.0
GRAD_BF16_BYTES = 2.0
MAIN_GRAD_SHARD_BYTES = 4.0
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

    Layers of ``12h²(1 + 13/(12h))`` each (``W + 13h`` with ``layer_weights`` ``W``), ``L = ceil(l/p)`` a stage,
    plus the embedding (first stage) or the output layer (last stage; Megatron-LM keeps a copy of tied embeddings
    there), ``V·h``, both on one stage when ``p = 1`` and they are untied; all split over ``t`` ranks. Where the
    layers do not fill the stages, the first and last stages are one layer short (Llama 3's split, Dubey et al.
    2024 §3.3.2: ``p·L − l = 2``), and a middle stage's ``L`` layers may outweigh them.
    """
    return _stage_params(np.asarray(layers, dtype=float), np.ceil(np.asarray(layers, dtype=float) / pp), hidden,
                         vocab, tp, pp, layer_weights, untied_embeddings)


def _short_ends(layers, layers_stage, pp):
    """1 where the first and last stages are each one layer short of ``layers_stage`` (``p·L − l ≥ 2``), else 0."""
    return ((np.asarray(pp) > 1) & (pp * layers_stage - layers >= 2.0)).astype(float)


def _stage_params(layers, layers_stage, hidden, vocab, tp, pp, layer_weights=None, untied_embeddings=False):
    """:func:`stage_params` of a model of ``layers`` layers, ``layers_stage`` (``ceil(l/p)``) a stage, where the
    caller holds it."""
    h = np.asarray(hidden, dtype=float)
    w = 12.0 * h**2 if layer_weights is None else np.asarray(layer_weights, dtype=float)
    per_layer = w + 13.0 * h
    embedding = np.asarray(vocab, dtype=float) * h
    untied = np.asarray(untied_embeddings, dtype=bool)
    if untied.any():  # both matrices on the one stage where p = 1; tied embeddings (most models): a factor 1, skipped
        embedding = embedding * (1.0 + (untied & (np.asarray(pp) == 1)))
    short = _short_ends(layers, layers_stage, pp)
    ends = (layers_stage - short) * per_layer + embedding
    middle = np.where(np.asarray(pp) > 2, layers_stage * per_layer, 0.0)
    return np.maximum(ends, middle) / tp


def memory_per_gpu_bytes(layers, hidden, heads, vocab, seq_len, micro_batch, tp, pp, dp, virtual_stages,
                         recompute_code, sequence_parallel, flash_attention, distributed_optimizer,
                         microbatches):
    """Peak bytes on the busiest GPU (first pipeline stage) [B].

    Model states: 18 bytes per parameter, the 12 optimizer bytes divided by
    ``dp`` with the distributed optimizer. Activations per layer by
    Korthikanti et al. eq. 1-4: everything with no recomputation, the linear part
    with selective recomputation, only the layer input (``2·s·b·h``, split by
    ``t`` with sequence parallelism) with full recomputation, plus one layer's
    working set while it is recomputed. The busiest rank holds the layers of the
    forwards Megatron-LM's schedule runs before its first backward
    (:func:`held_layers`): ``p`` micro-batches of its layers with 1F1B and
    ``m ≥ p``, ``1 + (p−1)/(p·v)`` times that interleaved, every micro-batch
    of the step where the warm-up reaches them all.
    """
    stage = stage_memory_bytes(layers, hidden, heads, vocab, seq_len, micro_batch, tp, pp, virtual_stages,
                               recompute_code, sequence_parallel, flash_attention)
    return memory_with_replicas_bytes(stage, pp, dp, distributed_optimizer, microbatches)


def stage_memory_bytes(layers, hidden, heads, vocab, seq_len, micro_batch, tp, pp, virtual_stages,
                       recompute_code, sequence_parallel, flash_attention, layer_weights=None, mlp_ratio=1.0,
                       untied_embeddings=False, fp8=False):
    """The terms of :func:`memory_per_gpu_bytes` that the model and the plan fix, before ``dp`` and ``m``.

    A dict: ``params`` (parameters on the GPU), ``activations`` (one layer's stored activations of one
    micro-batch [B]), the schedule's terms (:func:`pipeline_schedule`), ``working`` (a recomputed layer's working
    set [B]) and ``logits`` [B], ``layer_params`` (one layer's parameters on the GPU, what ZeRO-3 gathers)
    and ``fp8`` (FP8 weight copies kept [B/parameter]). The plan search computes them once per candidate plan.
    """
    layer = layer_memory_bytes(hidden, heads, vocab, seq_len, micro_batch, tp, recompute_code, sequence_parallel,
                               flash_attention, layer_weights, mlp_ratio, fp8)
    return stage_memory_from_layer(layer, layers, hidden, vocab, tp, pp, virtual_stages, layer_weights,
                                   untied_embeddings)


def layer_memory_bytes(hidden, heads, vocab, seq_len, micro_batch, tp, recompute_code, sequence_parallel,
                       flash_attention, layer_weights=None, mlp_ratio=1.0, fp8=False, kv_heads=None,
                       grad_bytes=GRAD_STATE_BYTES, attn_inside=None, norm_bytes=None, fc2_input_share=0.5,
                       fp8_inputs=None):
    """The terms of :func:`stage_memory_bytes` that do not depend on the number of layers nor on the pipeline:
    ``per_layer`` (one layer's stored activations of one micro-batch [B]), ``working``, ``logits``,
    ``layer_params``, ``fp8`` and ``grad`` (the gradient buffer's bytes per parameter: :data:`GRAD_STATE_BYTES`,
    or :data:`GRAD_BF16_BYTES` where gradients are accumulated and reduced in bf16). ``attn_inside``: the attention's
    stored activations and ``norm_bytes`` the normalisations' where not standard
    (:func:`~model.compute.layer_activation_bytes`). ``fp8_inputs``: whether the GEMMs' inputs are kept as their FP8
    casts with ``fc2_input_share`` of the MLP's intermediates the second GEMM's input (``fp8`` where not given; false
    where the recipe's stored bytes come term by term, :func:`~model.layer_terms.stored_activation_terms`).

    ``logits``: the output layer's input and the fp32 logits of the cross-entropy, ``4·s·b·(h + V)/t`` (Megatron-LM,
    ``theoretical_memory_usage.py``), held on the last stage.
    """
    b, s, h, a, t = micro_batch, seq_len, hidden, heads, tp
    w = 12.0 * np.asarray(hidden, dtype=float)**2 if layer_weights is None else layer_weights
    lin, core = layer_activation_bytes(b, s, h, a, t, sequence_parallel, flash_attention, mlp_ratio, kv_heads,
                                       attn_inside, norm_bytes, fp8 if fp8_inputs is None else fp8_inputs,
                                       fc2_input_share)
    sp = np.asarray(sequence_parallel, dtype=bool)
    layer_input = 2.0 * s * b * h
    layer_input = np.where(sp, layer_input / t, layer_input)
    rc = np.asarray(recompute_code)
    full, selective, stored = rc == 2, rc == 1, lin + core
    per_layer = np.where(full, layer_input, np.where(selective, lin, stored))
    working = np.where(full, stored, np.where(selective, core, 0.0))
    if any_true(rc == 3):  # half: half the chunk's layers keep their input only, the others everything (block method)
        half = rc == 3
        per_layer = np.where(half, HALF_RECOMPUTE_SHARE * layer_input + (1.0 - HALF_RECOMPUTE_SHARE) * stored,
                             per_layer)
        working = np.where(half, stored, working)
    logits = 4.0 * b * s * (np.asarray(h, dtype=float) + np.asarray(vocab, dtype=float)) / t
    return dict(per_layer=per_layer, working=working, logits=logits,
                layer_params=(w + 13.0 * np.asarray(hidden, dtype=float)) / t,
                fp8=np.where(np.asarray(fp8, dtype=bool), FP8_WEIGHT_BYTES, 0.0), grad=grad_bytes)


def stage_memory_from_layer(layer, layers, hidden, vocab, tp, pp, virtual_stages, layer_weights=None,
                            untied_embeddings=False, forwards=None):
    """:func:`stage_memory_bytes` from its :func:`layer_memory_bytes` terms ``layer``.

    ``activations`` is one layer's stored bytes for one micro-batch; the schedule terms ``chunk_layers``,
    ``short``, ``forwards`` and ``forwards_second`` and ``chunks`` (:func:`pipeline_schedule`) say how many of
    them the busiest rank holds once the number of micro-batches is known (:func:`activation_bytes`).
    ``forwards``: :func:`schedule_forwards` of the same plans, if already computed."""
    layers = np.asarray(layers, dtype=float)
    layers_stage = np.ceil(layers / pp)
    params = _stage_params(layers, layers_stage, hidden, vocab, tp, pp, layer_weights, untied_embeddings)
    schedule = pipeline_schedule(layers, pp, virtual_stages, forwards)
    return dict(params=params, activations=layer["per_layer"], **schedule,
                working=layer["working"], logits=np.where(np.asarray(pp) == 1, layer["logits"], 0.0),
                layer_params=layer["layer_params"], fp8=layer["fp8"], grad=layer.get("grad", GRAD_STATE_BYTES))


def pipeline_schedule(layers, pp, virtual_stages, forwards=None):
    """What the busiest pipeline rank's activations depend on, before the number of micro-batches is known.

    Megatron-LM's schedules (``megatron/core/pipeline_parallel/schedules.py``, ``get_pp_rank_microbatches``; the
    same counts as PyTorch's ``ScheduleInterleaved1F1B``, which Llama 3's flexible schedule became): rank ``r`` runs
    ``w = p − r − 1`` warm-up forwards without interleaving and ``w = 2(p − r − 1) + (v − 1)·p`` (model chunk,
    micro-batch) forwards with ``v`` chunks of ``c`` layers, the first ``p`` micro-batches of each chunk in turn;
    then one more forward before its first backward frees one: ``w + 1`` forwards held (``forwards`` for rank 0,
    ``forwards_second`` for rank 1, 0 where ``p ≤ 2``). Where the layers do not fill the ``p·v`` chunks
    (``p·v·c − l ≥ 2``), the first and last stage's end chunks are one layer short (``short`` = 1; Llama 3,
    Dubey et al. 2024 §3.3.2: the first chunk of the first stage the embedding alone, the last chunk of the last
    stage the output projection and the loss), so rank 0's first-chunk forwards hold one layer less.
    ``chunk_layers``: ``c`` (``L = ceil(l/p)`` without interleaving, as one chunk); ``chunks``: ``v``.
    ``forwards``: :func:`schedule_forwards` of the same ``pp`` and ``virtual_stages``, if already computed.
    """
    layers = np.asarray(layers, dtype=float)
    p = np.asarray(pp, dtype=float)
    v = np.asarray(virtual_stages, dtype=float)
    chunk = np.ceil(layers / (p * v))
    short = ((p > 1) & (p * v * chunk - layers >= 2.0)).astype(float)
    fw = schedule_forwards(p, v) if forwards is None else forwards
    return dict(chunk_layers=chunk, short=short, forwards=fw["forwards"], forwards_second=fw["forwards_second"],
                chunks=v)


def schedule_forwards(pp, virtual_stages):
    """The terms of :func:`pipeline_schedule` that the pipeline alone fixes, whatever the layers: the forwards rank
    0 and rank 1 hold before their first backward, ``forwards`` and ``forwards_second``. The plan search computes
    them once per candidate's degrees and reads them at each (point, plan)."""
    p = np.asarray(pp, dtype=float)
    v = np.asarray(virtual_stages, dtype=float)
    interleaved = v > 1
    first = np.where(interleaved, 2.0 * (p - 1.0) + (v - 1.0) * p + 1.0, p)
    second = np.where(p > 2, np.where(interleaved, 2.0 * (p - 2.0) + (v - 1.0) * p + 1.0, p - 1.0), 0.0)
    return dict(forwards=first, forwards_second=second)


def held_layers(schedule, pp, microbatches, held=None):
    """Layer activations of one micro-batch the busiest pipeline rank holds at its peak [layers × micro-batches].

    From :func:`pipeline_schedule`'s terms and ``m`` micro-batches a step: rank ``r`` holds ``min(w_r + 1, m·v)``
    (chunk, micro-batch) forwards of ``c`` layers each (Megatron-LM: where the warm-up reaches the ``m·v``
    forwards of the step, every forward runs before the first backward, ``are_all_microbatches_in_warmup``; with
    ``m = p`` micro-batches every rank at or before the middle of the pipeline holds all ``m`` micro-batches of all
    its layers); of rank 0's, those of its first chunk (the first ``p`` of every ``p·v``) hold one layer less where
    ``short``. The busier of the first two ranks: the second holds two fewer forwards of full chunks.

    Without interleaving and with ``m ≥ p``, rank 0 holds ``p·L``, Korthikanti et al. 2022's "``L`` layers' worth"
    (§4.2.3); interleaved, ``c·(v·p + p − 1) = p·L·(1 + (p − 1)/(p·v))``, their interleaving factor (Megatron-LM's
    ``theoretical_memory_usage.py`` applies it whatever ``m``). ``held``: :func:`held_forwards` of the same
    plans and micro-batches, if already computed.
    """
    first, second, first_chunk = held_forwards(schedule, pp, microbatches) if held is None else held
    c = schedule["chunk_layers"]
    return np.maximum(c * first - schedule["short"] * first_chunk, c * second)


def held_forwards(schedule, pp, microbatches):
    """What :func:`held_layers` reads of the pipeline and the micro-batches alone, whatever the layers: the forwards
    of rank 0 and of rank 1 held at the peak and rank 0's forwards of its first chunk, ``(first, second,
    first_chunk)``. Reads ``chunks``, ``forwards`` and ``forwards_second`` of ``schedule`` only (the plan search
    computes these once per candidate's degrees where the micro-batches are the same at every point)."""
    p = np.asarray(pp, dtype=float)
    v = schedule["chunks"]
    cap = np.asarray(microbatches, dtype=float) * v
    first = np.minimum(schedule["forwards"], cap)
    second = np.minimum(schedule["forwards_second"], cap)
    rounds = np.floor(first / (p * v))
    first_chunk = rounds * p + np.minimum(first - rounds * p * v, p)
    return first, second, first_chunk


def inflight_layers(layers, pp, virtual_stages, microbatches=np.inf):
    """Layer activations of one micro-batch held at once on the busiest pipeline rank with ``microbatches`` a step
    (as many as the schedule's warm-up asks where not given) [layers × micro-batches]: :func:`held_layers` of
    :func:`pipeline_schedule`. Rank 1 of Llama 3's split (126 layers, 16 stages) holds more than rank 0."""
    return held_layers(pipeline_schedule(layers, pp, virtual_stages), pp, microbatches)


def _grad_and_optimizer_bytes(stage):
    """The gradient buffer's bytes per parameter and the optimizer's (sharded by ZeRO-1), from ``stage["grad"]``."""
    grad = stage.get("grad", GRAD_STATE_BYTES)
    return grad, OPTIMIZER_BYTES_PER_PARAM + np.where(np.asarray(grad) < GRAD_STATE_BYTES, MAIN_GRAD_SHARD_BYTES, 0.0)


def model_state_bytes(stage, dp, zero_stage):
    """Weights, gradients and optimizer state per GPU under a ZeRO stage [B].

    ``P·(2 + g + o)`` with the parts stage ``z`` shards divided by ``dp`` (Rajbhandari et al. 2020, §5): ``g``
    the gradient buffer (4 in fp32, 2 in bf16), ``o`` the optimizer (fp32 master, m, v: 12, and an fp32 copy of
    the gradient shard, 4, where the buffer is bf16); ZeRO-3 adds the :data:`ZERO3_GATHERED_LAYERS` layers' bf16
    weights it holds gathered.
    """
    z = np.asarray(zero_stage)
    inv_d = 1.0 / np.maximum(dp, 1.0)
    grad, opt = _grad_and_optimizer_bytes(stage)
    per_param = (np.where(z >= 3, inv_d, 1.0) * WEIGHT_BYTES + np.where(z >= 2, inv_d, 1.0) * grad
                 + np.where(z >= 1, inv_d, 1.0) * opt + stage["fp8"])
    gathered = np.where(z >= 3, ZERO3_GATHERED_LAYERS * WEIGHT_BYTES * stage["layer_params"], 0.0)
    out = stage["params"] * per_param + gathered
    if "expert_params" in stage:  # the routed experts' states shard over their own data-parallel ranks only
        diff = _expert_share(stage, dp) - inv_d
        out = out + stage["expert_params"] * (np.where(z >= 3, diff, 0.0) * WEIGHT_BYTES
                                              + np.where(z >= 2, diff, 0.0) * grad + np.where(z >= 1, diff, 0.0) * opt)
    return out


def _expert_share(stage, dp):
    """The share of a routed expert's sharded states one GPU holds: one over its expert-data-parallel degree, the
    ``dp`` ranks that hold the same attention weights times ``stage["expert_ratio"]`` (``t/(e·et)``: Megatron-Core's
    distributed optimizer shards expert parameters over the expert-data-parallel group, ``t·c·d/(e·et)`` ranks)."""
    return 1.0 / np.maximum(dp * stage["expert_ratio"], 1.0)


def model_state_bytes_by_stage(stage, dp, stages):
    """:func:`model_state_bytes` of plans (rows, 1) at each ZeRO stage of ``stages`` (Z,) where ``dp > 1``, else
    at stage 0 (nothing to shard), as an array (rows, Z) [B]: computed a stage at a time, element by element the
    same expressions (with ``dp ≤ 1`` every share ``1/max(dp, 1)`` is 1, as at stage 0; only ZeRO-3's gathered
    layers need the test). Held stage by stage (each stage's rows contiguous: the transpose is a C-ordered (Z, rows)
    array), so that a stage is written, and the stages read, along the rows."""
    inv_d = 1.0 / np.maximum(dp, 1.0)
    sharded = dp > 1
    grad_bytes, opt_bytes = _grad_and_optimizer_bytes(stage)
    # each sharded part's bytes per parameter once, for every stage that shards it (``1.0 · bytes`` is the bytes)
    top = max(stages, default=0)
    weight = inv_d * WEIGHT_BYTES if top >= 3 else None
    grad = inv_d * grad_bytes if top >= 2 else None
    opt = inv_d * opt_bytes if top >= 1 else None
    out = np.empty((len(stages), np.shape(dp)[0])).T
    for i, z in enumerate(stages):
        per_param = ((weight if z >= 3 else WEIGHT_BYTES) + (grad if z >= 2 else grad_bytes)
                     + (opt if z >= 1 else opt_bytes) + stage["fp8"])
        col = np.multiply(stage["params"], per_param, out=out[:, i:i + 1])  # written in place: no temporary
        if z >= 3:
            np.add(col, np.where(sharded, ZERO3_GATHERED_LAYERS * WEIGHT_BYTES * stage["layer_params"], 0.0), out=col)
        if z >= 1 and "expert_params" in stage:  # as model_state_bytes: the experts' states over their own ranks,
            # where the stage is in effect (dp > 1), as everything else here
            diff = np.where(sharded, _expert_share(stage, dp) - inv_d, 0.0)
            np.add(col, stage["expert_params"] * (diff * opt_bytes + (z >= 2) * diff * grad_bytes
                                                  + (z >= 3) * diff * WEIGHT_BYTES), out=col)
    return out


def activation_bytes(stage, pp, microbatches, held=None):
    """Activations, a recomputed layer's working set and the logits on the busiest stage, with the allocator's
    :data:`FRAGMENTATION_FRACTION` on top [B]: one layer's bytes times the :func:`held_layers` of the stage's
    schedule with ``microbatches`` a step (``held``: its :func:`held_forwards`, if already computed)."""
    held = stage["activations"] * held_layers(stage, pp, microbatches, held) + stage["working"] + stage["logits"]
    return held * (1.0 + FRAGMENTATION_FRACTION)


def memory_with_replicas_bytes(stage, pp, dp, distributed_optimizer, microbatches, zero_stage=None):
    """:func:`memory_per_gpu_bytes` from its :func:`stage_memory_bytes` terms, ``dp`` and ``m`` [B].

    ``zero_stage`` (0-3) when given; otherwise 1 where ``distributed_optimizer`` else 0.
    """
    z = np.where(np.asarray(distributed_optimizer, dtype=bool), 1, 0) if zero_stage is None else zero_stage
    stage = stage if "fp8" in stage else dict(stage, fp8=0.0, layer_params=0.0)
    return model_state_bytes(stage, dp, z) + activation_bytes(stage, pp, microbatches)
