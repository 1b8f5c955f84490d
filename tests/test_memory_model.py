"""The memory model against the formulas it is built from (Korthikanti et al. 2022; Megatron-LM)."""

import numpy as np
from numpy.testing import assert_allclose

from model import memory


def test_first_stage_holds_a_whole_model_of_layers_interleaved_or_not():
    # Korthikanti et al. §4.2.3: the first stage of 1F1B holds p micro-batches of l/p layers, interleaving
    # multiplies that by 1 + (p-1)/(p·v)
    l, p = 96.0, 8.0
    assert_allclose(memory.inflight_layers(l, p, 1), l)
    for v in (2.0, 3.0, 6.0):
        assert_allclose(memory.inflight_layers(l, p, v), l * (1 + (p - 1) / (p * v)))


def test_short_first_stage_moves_the_peak_to_the_second():
    # Llama 3 405B on 16 stages: 126 layers, the first and last stage one layer short (7 + 14 × 8 + 7); the
    # first holds 16 micro-batches of 7 layers (112), the second 15 of 8 (120)
    assert_allclose(memory.inflight_layers(126, 16, 1), 120)
    # interleaved with 4 chunks of 2 layers: the first chunk holds one layer; rank 1 holds 2·(64 + 16 − 3)
    assert_allclose(memory.inflight_layers(126, 16, 4), 2 * (64 + 16 - 3))
    assert memory.inflight_layers(126, 16, 4) < memory.inflight_layers(128, 16, 4)


def test_a_warm_up_longer_than_the_step_holds_every_micro_batch_once():
    # Megatron-LM schedules.py (get_pp_rank_microbatches): where a rank's warm-up reaches the m·v forwards of the
    # step, all of them run before the first backward. Llama 3 405B at 16,384 GPUs: 16 micro-batches a replica on
    # 16 stages of 8 one-layer chunks; rank 1 warms up 2·14 + 7·16 = 140 > 128 forwards, so it holds its 8 layers
    # for each of the 16 micro-batches, 128, not 141; rank 0 (its first chunk the embedding alone) 16 · 7 = 112
    assert_allclose(memory.inflight_layers(126, 16, 8, 16), 16 * 8)
    assert_allclose(memory.inflight_layers(126, 16, 8, 32), 2 * 14 + 7 * 16 + 1)  # 32 micro-batches: 141
    # the same holds for any chunking of the 16 micro-batches, and without interleaving rank 1 holds 15 · 8
    assert_allclose(memory.inflight_layers(126, 16, 4, 16), 16 * 8)
    assert_allclose(memory.inflight_layers(126, 16, 1, 16), 15 * 8)
    # fewer micro-batches than stages without interleaving: every rank holds all of them, rank 1 its full stage
    assert_allclose(memory.inflight_layers(126, 16, 1, 4), 4 * 8)
    # rank 0 by the schedule's own order (the first p forwards of every p·v are its first chunk), counted
    p, v, m, c = 4, 3, 8, 2
    order = [k // p % v for k in range(m * v)]  # the chunk of each forward, rounds of p micro-batches a chunk
    held = sum(c - (chunk == 0) for chunk in order[:2 * (p - 1) + (v - 1) * p + 1])
    assert_allclose(memory.inflight_layers(p * v * c - 2, p, v, m), max(held, c * (2 * (p - 2) + (v - 1) * p + 1)))


def test_stage_params_take_the_heaviest_stage():
    # tied embeddings on 16 stages: the ends hold 7 layers and V·h, a middle stage 8 layers
    h, V = 16384, 128256
    w = 12 * h**2 + 13 * h
    assert_allclose(memory.stage_params(126, h, V, 1, 16), max(7 * w + V * h, 8 * w))
    assert_allclose(memory.stage_params(128, h, V, 1, 16), 8 * w + V * h)


def _states(grad_bytes, dp):
    layer = dict(per_layer=0.0, working=0.0, logits=0.0, layer_params=0.0, fp8=0.0, grad=grad_bytes)
    stage = memory.stage_memory_from_layer(layer, 8, 1024, 0, 1, 1, 1, layer_weights=1e9 - 13 * 1024)
    return memory.model_state_bytes(stage, dp, 1) / stage["params"]


def test_bytes_per_parameter_follow_megatron_distributed_optimizer_table():
    # Megatron-LM docs (distributed optimizer): bf16 params with fp32 grads 6 + 12/d, 16-bit grads 4 + 16/d
    for d in (1.0, 8.0, 64.0):
        assert_allclose(_states(memory.GRAD_STATE_BYTES, d), 6 + 12 / d)
        assert_allclose(_states(memory.GRAD_BF16_BYTES, d), 4 + 16 / d)


def test_fragmentation_is_charged_on_activations_not_on_states():
    stage = dict(params=1e9, activations=1e9, working=0.0, logits=0.0, layer_params=0.0, fp8=0.0,
                 **memory.pipeline_schedule(1, 1, 1))
    act = memory.activation_bytes(stage, 1, 1)
    assert_allclose(act, 1e9 * (1 + memory.FRAGMENTATION_FRACTION))
    total = memory.memory_with_replicas_bytes(stage, 1, 1, False, 1)
    assert_allclose(total - act, 1e9 * 18)  # 18 bytes a parameter with one replica, nothing added


def test_usable_memory_is_the_gibibytes_less_the_runtime():
    assert_allclose(memory.USABLE_MEMORY_FRACTION, 2**30 / 1e9 * (1 - memory.RUNTIME_RESERVE_FRACTION))
    assert 80 < 80 * memory.USABLE_MEMORY_FRACTION < 2**30 * 80 / 1e9


def test_fp8_keeps_the_gemm_inputs_for_the_weight_gradient_in_one_byte():
    # Transformer Engine saves each FP8 GEMM's input as its FP8 cast: a GPT layer with sequence parallelism and
    # FlashAttention stores 32·s·b·h/t bytes in BF16 (8 outside, 4 + 4 + 16 inside); in FP8 the two layer norms'
    # outputs drop from 4h to 2h, the GeLU output (the second GEMM's input, 8h) to 4h, and the output projection
    # keeps an FP8 copy h of the attention output: 27·s·b·h/t; both with FlashAttention's fp32 logsumexp, 4·a/h
    from model.compute import layer_activation_bytes
    s, b, h, a, t = 2048, 1, 12288, 96, 4
    lse = 4 * a / h
    bf16 = layer_activation_bytes(b, s, h, a, t, True, True)[0]
    fp8 = layer_activation_bytes(b, s, h, a, t, True, True, fp8=True)[0]
    assert_allclose(bf16, (32 + lse) * s * b * h / t)
    assert_allclose(fp8, (27 + lse) * s * b * h / t)
    # a SwiGLU of f = 3.25h stores 6f (2f gate and up, f its output, two bytes each); FP8 halves its output: 5f
    f = 3.25 * h
    ratio = 3 * f / (8 * h)
    swiglu = layer_activation_bytes(b, s, h, a, t, True, True, ratio, fp8=True, fc2_input_share=1 / 3)[0]
    assert_allclose(swiglu, (8 - 2 + 4 + 4 + 1 + lse) * s * b * h / t + 5 * f * s * b / t)


def test_fp8_moe_layers_keep_the_second_gemms_and_the_routed_copies_inputs_in_one_byte():
    # an FP8 mixture-of-experts layer: of its stored MLP bytes, each token copy's SwiGLU output (f of 3f, two bytes)
    # and each routed copy's input (h, two bytes) are GEMM inputs kept for the weight gradient, halved as FP8 casts;
    # a recipe that states its stored bytes term by term (DeepSeek-V3's) is not reduced again
    from model import load_scenario
    from model.inputs import build_inputs
    s = load_scenario("assets/presets/moe_deepseek_v3_shape.toml")
    pt = build_inputs(s).point
    h, f, copies = float(pt["hidden"][0]), 2048.0, float(pt["moe_tokens"][0])
    saving = 0.5 * 16.0 * h * float(pt["mlp_ratio"][0]) * float(pt["fc2_input_share"][0])
    assert_allclose(saving, copies * (f + h))
    assert float(pt["fp8_inputs"][0]) == 1.0
    recipe = build_inputs(s.replace_many({"workload.light_recompute": True, "workload.fp8_activations": True})).point
    assert float(recipe["fp8_inputs"][0]) == 0.0
    assert float(build_inputs(s.replace("workload.precision", "bf16")).point["fp8_inputs"][0]) == 0.0
