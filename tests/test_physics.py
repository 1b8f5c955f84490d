"""Known values for each mechanism, scalar and array input (pvlib style)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from model import collectives, compute, memory, nccl_tuning, transport
from model.engine import derive_architecture


# --- compute -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("layers,hidden,params_b", [
    (24, 2304, 1.7), (36, 4096, 7.5), (96, 12288, 175.0), (128, 25600, 1008.0),
])
def test_params_from_architecture_matches_narayanan_table1(layers, hidden, params_b):
    # Narayanan et al. 2021 Table 1 lists these parameter counts (rounded to 0.1 B) for these shapes (V = 51200)
    assert abs(compute.params_from_architecture(layers, hidden, 51200) / 1e9 - params_b) <= 0.05 + 0.01 * params_b


def test_params_array_input():
    out = compute.params_from_architecture(np.array([24, 96]), np.array([2304, 12288]), 51200)
    assert out.shape == (2,)
    assert_allclose(out / 1e9, [1.65, 174.6], rtol=0.01)


def test_model_flops_reproduce_korthikanti_mfu():
    # 22B, 8 GPUs, batch 4: MFU 41.5% at 1.10 s per iteration (Korthikanti et al. 2022 Tables 3 and 5)
    f = compute.model_flops_per_iteration(4, 2048, 48, 6144, 51200)
    assert_allclose(f / (8 * 312e12 * 1.10), 0.415, rtol=0.01)


def test_flops_formulas_by_hand():
    # B=1, s=6, l=1, h=1, V=12: model = 72*6*(1 + 1 + 1) = 1296
    assert_allclose(compute.model_flops_per_iteration(1, 6, 1, 1, 12), 1296.0)
    # full recompute, eq. 3: 96*6*(1 + 1 + 12/16) = 1584
    assert_allclose(compute.hardware_flops_per_iteration(1, 6, 1, 1, 12, "full"), 1584.0)
    # selective: 72*6*(1 + 2 + 1) = 1728
    assert_allclose(compute.hardware_flops_per_iteration(1, 6, 1, 1, 12, "selective"), 1728.0)
    assert_allclose(compute.hardware_flops_per_iteration(1, 6, 1, 1, 12, "none"), 1296.0)
    codes = np.array([0, 1, 2])
    assert_allclose(compute.hardware_flops_per_iteration(1, 6, 1, 1, 12, codes), [1296.0, 1728.0, 1584.0])


def test_model_and_hardware_flops_together_match_each_alone():
    # the engine's one call for both: the model FLOPs bit for bit as model_flops_per_iteration's, the hardware FLOPs
    # per recompute code (by hand above), over a model-size sweep with several layer-weight counts
    rng = np.random.default_rng(3)
    batch, layers = rng.integers(1, 4096, 64) * 1.0, rng.integers(1, 128, 64) * 1.0
    hidden = 1024.0 * rng.integers(1, 16, 64)
    weights = 12.0 * hidden**2 * rng.uniform(0.5, 2.0, 64)
    model_f, hardware_f = compute.flops_per_iteration(batch, 4096, layers, hidden, 128000, np.arange(64) % 3, weights)
    assert model_f.tobytes() == compute.model_flops_per_iteration(batch, 4096, layers, hidden, 128000,
                                                                   weights).tobytes()
    m1, h1 = compute.flops_per_iteration(1, 6, 1, 1, 12, np.array([0, 1, 2]))
    assert_allclose(m1, 1296.0)
    assert_allclose(h1, [1296.0, 1728.0, 1584.0])


def test_recompute_adds_a_third_of_dense_flops():
    # without the attention and vocabulary terms, full recompute is 4/3 of model FLOPs
    h = 1e9
    ratio = compute.hardware_flops_per_iteration(1, 1, 1, h, 0, "full") / compute.model_flops_per_iteration(1, 1, 1,
                                                                                                          h, 0)
    assert_allclose(ratio, 4.0 / 3.0, rtol=1e-6)


def test_gemm_efficiency_half_point_and_limit():
    assert_allclose(compute.gemm_efficiency(compute.GEMM_HALF_DIM), compute.GEMM_EFF_MAX / 2)
    assert_allclose(compute.gemm_efficiency(1e12), compute.GEMM_EFF_MAX, rtol=1e-6)
    eff = compute.gemm_efficiency(np.array([64, 768, 3200]))
    assert np.all(np.diff(eff) > 0)


def test_activation_bytes_korthikanti_eq1():
    s, b, h, a = 2048, 1, 12288, 96
    lin, core = compute.layer_activation_bytes(b, s, h, a, 1, False, False)
    # t = 1, no sequence parallelism: s*b*h*(34 + 5*a*s/h)
    assert_allclose(lin + core, s * b * h * (34 + 5 * a * s / h))
    lin, core = compute.layer_activation_bytes(b, s, h, a, 8, True, False)
    assert_allclose(lin + core, s * b * h / 8 * (34 + 5 * a * s / h))
    lin, core = compute.layer_activation_bytes(b, s, h, a, 8, False, True)
    assert core == 0.0  # FlashAttention recipes train without dropout: the two masks (2·s·b·h) go too
    assert_allclose(lin, s * b * h * (8 + (24 + 4 * a / h) / 8))  # and it keeps an fp32 logsumexp a head


def test_activation_bytes_grouped_query_attention_and_swiglu():
    """Llama 3 405B's layer against Korthikanti et al. 2022's 34·s·b·h + 5·a·s²·b, tensor by tensor with sequence
    parallelism (all over t): the two norms' inputs 4 and outputs 4 (the QKV and gate/up GEMMs' inputs); query 2
    and keys and values 2·2·8/128 (grouped-query attention, 8 key/value heads, not 4); the attention output 2 (the
    output projection's input, FlashAttention's saved O); FlashAttention's fp32 logsumexp 4·a/h, not the 5·a·s/h of
    softmax, its dropout mask and output; SwiGLU's input 4f/h (gate and up) and output 2f/h (the down GEMM's
    input), not a GeLU's 8 + 8; no dropout masks (Korthikanti's 2: the recipe has no dropout)."""
    s, b, h, a, kv, f, t = 8192, 1, 16384, 128, 8, 53248, 8
    lin, core = compute.layer_activation_bytes(b, s, h, a, t, True, True, compute.mlp_activation_ratio(h, f), kv)
    assert core == 0.0
    norms, attention, lse, swiglu = 4 + 4, 2 + 2 * 2 * kv / a + 2, 4 * a / h, 4 * f / h + 2 * f / h
    assert_allclose(lin, s * b * h / t * (norms + attention + lse + swiglu))
    assert_allclose(lin / 1e6, 533.2, atol=0.05)  # 31.78 s·b·h/t: 533.2 MB a layer and micro-batch
    # Megatron-LM's own estimate for such a layer, s·b·h·(18 + 4f/h)/t, is within a few per cent of it
    assert_allclose(lin, s * b * h / t * (18 + 4 * f / h), rtol=0.03)


# --- collectives ---------------------------------------------------------------------------------------------

def test_bus_factors_nccl_tests_conventions():
    assert_allclose(collectives.bus_factor("all_reduce", 8), 1.75)
    assert_allclose(collectives.bus_factor("all_gather", 8), 0.875)
    assert_allclose(collectives.bus_factor("reduce_scatter", np.array([2, 4])), [0.5, 0.75])
    # algbw = busbw / factor
    assert_allclose(collectives.algbw_from_busbw("all_reduce", 175.0, 8), 100.0)


def test_collective_time_ring_and_tree_by_hand():
    # 1 GB all-reduce over 4 ranks at 100 GB/s busbw, 10 us steps, no base latency
    kw = dict(base_latency_s=0.0)
    ring = collectives.collective_time("all_reduce", 1e9, 4, 100e9, 10e-6, "ring", **kw)
    tree = collectives.collective_time("all_reduce", 1e9, 4, 100e9, 10e-6, "tree", **kw)
    assert_allclose(ring, 1.5e9 / 100e9 + 6 * 10e-6)
    assert_allclose(tree, 1.5e9 / 100e9 + 4 * 10e-6)
    assert_allclose(collectives.collective_time("all_reduce", 1e9, 4, 100e9, 10e-6, **kw), tree)
    assert collectives.collective_time("all_reduce", 1e9, 1, 100e9, 10e-6) == 0.0
    arr = collectives.collective_time("all_reduce", np.array([1e6, 1e9]), 4, 100e9, 10e-6, "ring", **kw)
    assert arr.shape == (2,) and arr[1] > arr[0]


def test_hierarchical_all_reduce_one_rank_per_node_is_plain_ring():
    t, buckets = collectives.hierarchical_all_reduce_time(100e6, 1, 8, 200e9, 25e9, 1e-6, 5e-6,
                                                          bucket_bytes=1e12)
    plain = collectives.collective_time("all_reduce", 100e6, 8, 25e9, 5e-6)
    assert buckets == 1
    assert_allclose(t, plain)


def test_hierarchical_all_reduce_inside_one_node_uses_nvlink_only():
    t, _ = collectives.hierarchical_all_reduce_time(100e6, 8, 1, 200e9, 1.0, 1e-6, 1.0, bucket_bytes=1e12)
    # RS + AG = one all-reduce's volume at intra busbw; the 1 B/s inter link is never used
    assert t < 0.01


def test_engine_geometry_matches_collective_functions():
    """The engine's few-op communication path is the same algebra as the documented functions."""
    from model import inputs, load_scenario
    from model.engine import build_inputs
    from model.memory import stage_params
    from model.step_time import compute_side, step_for_fabric

    s = load_scenario("assets/presets/default.toml")
    inp = build_inputs(s)
    pt = inp.point
    t, p, b, v = 2.0, 8.0, 1.0, 1.0  # t·p = 16 > 8 GPUs per node: the pipeline crosses nodes
    cs = compute_side(pt, t, p, b, v, 1.0, 1.0, True)
    bw_node, step_s = 50e9, 20e-6
    _, p2p, _, exposed = step_for_fabric(cs, np.array([False]), bw_node, step_s)  # no congestion
    gpn = pt["gpus_per_node"]
    g = np.minimum(cs["d"], np.floor(gpn / t))
    n = np.ceil(cs["d"] / g)
    params_gpu = stage_params(pt["layers"], pt["hidden"], pt["vocab"], t, p)
    ref, _ = collectives.hierarchical_all_reduce_time(params_gpu * inputs.GRAD_BYTES, g, n, pt["intra_busbw"],
                                                      bw_node / gpn, collectives.NCCL_NVLINK_STEP_US * 1e-6,
                                                      step_s)
    assert_allclose(exposed, ref, rtol=1e-9)
    msg = pt["seq_len"] * pt["hidden"] * 2 * b / t
    assert_allclose(p2p, collectives.p2p_time(msg, bw_node / gpn, step_s), rtol=1e-9)


# --- transport -----------------------------------------------------------------------------------------------

def test_mathis_reference_value():
    # MSS 1460 B, RTT 100 us, p = 1e-3 -> ~4.5 Gb/s (Mathis et al., CCR 1997, derived)
    assert_allclose(transport.mathis_flow_gbps(1460, 100, 1e-3), 4.5, rtol=0.02)
    assert transport.mathis_flow_gbps(1460, 100, 0.0) == np.inf


def test_tcp_without_loss_keeps_the_link_busy():
    assert transport.tcp_efficiency(400, 8960, 100, 0.0, 1, hops=128, channels=16) == 1.0


def test_tcp_mid_stream_loss_costs_about_a_round_trip_not_a_timeout():
    """SACK + RACK: a loss in the middle of a step is repaired in RTT·5/4; the 200 ms minimum RTO only waits
    behind a lost tail probe, so raising it barely matters at moderate loss and matters at heavy loss."""
    linux = transport.tcp_efficiency(400, 8960, 20, 1e-4, 1, min_rto_ms=200.0, hops=16, channels=16)
    tuned = transport.tcp_efficiency(400, 8960, 20, 1e-4, 1, min_rto_ms=1.0, hops=16, channels=16)
    assert 0.97 * tuned < linux <= tuned
    heavy = [transport.tcp_efficiency(400, 8960, 20, 3e-2, 1, min_rto_ms=rto, hops=16, channels=16)
             for rto in (200.0, 1.0)]
    assert heavy[0] < 0.8 * heavy[1]
    # one link, one channel: the tail probe (2·SRTT + Linux's 2 ms floor) at p per step, far below a timeout
    one = transport.tcp_efficiency(400, 8960, 20, 1e-5, 1)
    step_s = transport.NCCL_STEP_BYTES / (400e9 / 8 / 2)
    assert one > 1.0 / (1.0 + 1e-5 * (transport.LINUX_TLP_FLOOR_MS * 1e-3 + 3 * 20e-6 + 1e-5 * 0.2) / step_s
                         + 0.01)


def test_tcp_tail_stalls_add_up_over_the_ring():
    """A probe timeout outlasts NCCL's buffering, so every hop of a channel's ring adds its stalls."""
    eff = [transport.tcp_efficiency(400, 8960, 20, 1e-4, 1, hops=n, channels=16) for n in (2, 16, 128, 1024)]
    assert np.all(np.diff(eff) < 0)
    assert eff[0] > 0.9 and eff[-1] < 0.1


def test_more_sockets_add_window_but_also_tails():
    """Each socket's task ends in its own tail; each socket brings its own window: more sockets help where the
    window binds (a long round trip, heavy loss) and cost where tail stalls dominate (many hops, light loss)."""
    def eff(sockets, rtt_us, loss, hops):
        return transport.tcp_efficiency(400, 1460, rtt_us, loss, sockets, hops=hops, channels=16)
    assert eff(8, 500, 1e-3, 2) > 2 * eff(1, 500, 1e-3, 2)
    assert eff(8, 20, 1e-5, 512) < eff(1, 20, 1e-5, 512)


GBN, SR, LLR = (transport.LOSS_RECOVERY_CODE[k] for k in ("go_back_n", "selective_repeat", "link_retry"))


def test_rdma_recovery_modes_order():
    """At the same loss go-back-N loses a round trip per loss, selective repeat and link retry far less."""
    gbn, sr, llr = (transport.rdma_efficiency(400, 4096, 10, 1e-3, code, links=16) for code in (GBN, SR, LLR))
    assert gbn < 0.8 and 0.9 < sr < 1.0 and 0.9 < llr < 1.0
    assert transport.rdma_efficiency(400, 4096, 10, 0.0, GBN, links=1024) == 1.0


def test_go_back_n_one_link_without_tail_is_the_textbook_formula():
    # no tail losses (an endless message): one link loses 1 + m packets' time per loss
    eff = transport.rdma_efficiency(400, 4096, 10, 1e-3, GBN, links=1, message_bytes=np.inf)
    assert_allclose(eff, transport.go_back_n_efficiency(400, 4096, 10, 1e-3), rtol=0.01)


def test_expected_max_events_grows_with_links():
    lam = 1e-3
    one, many = transport.expected_max_events(lam, 1), transport.expected_max_events(lam, 1000)
    assert_allclose(one, lam)
    assert_allclose(many, 1 - np.exp(-1000 * lam), rtol=1e-3)  # rare: the chance some link has one
    # a few links, rare events: the exact series, not the Gaussian bound (which would say 0.08)
    assert_allclose(transport.expected_max_events(1e-3, 16), 1 - np.exp(-16e-3), rtol=1e-2)
    # exact against a direct sum of the Poisson distribution's maximum
    from math import exp, factorial
    cdf = np.cumsum([exp(-2.0) * 2.0**j / factorial(j) for j in range(60)])
    assert_allclose(transport.expected_max_events(2.0, 50), np.sum(1 - cdf**50), rtol=1e-2)  # read from its table
    for lam in (2e-4, 3e-3, 0.5, 5.0):
        pmf = [exp(-lam)]
        for j in range(1, 80):
            pmf.append(pmf[-1] * lam / j)
        survival = np.maximum(1 - np.cumsum(pmf), 0.0)
        for links in (3, 1024, 1e5):
            series = np.sum(-np.expm1(links * np.log1p(-survival)))
            assert_allclose(transport.expected_max_events(lam, links), series, rtol=1e-2)
    big = transport.expected_max_events(100.0, 1000)
    assert 100 < big < 100 + np.sqrt(2 * 100 * np.log(1000)) + 1e-9


def test_loss_efficiency_dispatches_by_transport():
    codes = np.array([transport.TRANSPORT_CODE[k] for k in transport.TRANSPORTS])
    eta = transport.loss_efficiency(codes, GBN, 100.0, 10.0, 1e-3, 1460, 4096, 4, 200.0, 8, 1e7, nics_per_node=2)
    assert_allclose(eta[0], transport.tcp_efficiency(100, 1460, 10, 1e-3, 4, 200.0, hops=4, message_bytes=1e7,
                                                     channels=2 * transport.CHANNELS_PER_NIC))
    assert_allclose(eta[1], transport.rdma_efficiency(100, 4096, 10, 1e-3, GBN, 8, 1e7, 200.0))
    assert_allclose(eta[2], eta[0])  # iWARP: offloaded TCP
    assert_allclose(eta[3], eta[1])  # InfiniBand: the same RC recovery


def test_loss_efficiency_mixed_rows_and_scalar_codes_match_the_per_row_path():
    """The per-row path (one transport per row) and the mixed path read the same code -> formula table."""
    codes = np.array([transport.TRANSPORT_CODE[k] for k in transport.TRANSPORTS])
    latency = np.array([[2.0, 5.0, 40.0]])
    args = (1e-3, 1460, 4096, 16, 1.0, 8)
    per_row = transport.loss_efficiency(codes[:, None] * np.ones((1, 3), dtype=int), SR, 100.0, latency, *args)
    mixed = transport.loss_efficiency(codes[None, :] * np.ones((3, 1), dtype=int), SR, 100.0, latency.T, *args)
    np.testing.assert_array_equal(mixed, per_row.T)
    for i, c in enumerate(codes):
        assert transport.loss_efficiency(int(c), SR, 100.0, 5.0, *args) == per_row[i, 1]
    unknown = len(transport.TRANSPORTS)
    assert np.isnan(transport.loss_efficiency(unknown, SR, 100.0, 5.0, *args))
    assert np.isnan(transport.loss_efficiency(np.array([[unknown]]), SR, 100.0, 5.0, *args)).all()


def test_window_caps_a_nic_at_long_round_trips():
    assert nccl_tuning.window_cap_gb_per_s(2.0) * 8 > 10_000  # inside a data hall the window never binds
    assert_allclose(nccl_tuning.window_cap_gb_per_s(2000.0), 2 * 4 * 2**20 / 2e-3 / 1e9)


def test_cpu_cap_and_cores_busy():
    # 64 cores, half for the network, 4.464 Gb/s per core -> ~143 Gb/s
    assert_allclose(transport.cpu_cap_gbps(64, 0.5, 4.464), 142.85, rtol=1e-3)
    assert_allclose(transport.cpu_cores_busy(100.0, 4.464), 22.4, rtol=1e-3)
    assert transport.cpu_cap_gbps(64, 0.5, np.inf) == np.inf


# --- memory and pipeline -------------------------------------------------------------------------------------

def test_bubble_fraction():
    assert_allclose(memory.bubble_fraction(8, 64, 1), 7 / 64)
    assert_allclose(memory.bubble_fraction(8, 64, 2), 7 / 128)
    assert_allclose(memory.bubble_fraction(np.array([1, 4]), 16), [0.0, 3 / 16])


def test_stage_params_sum_to_model():
    l, h, V = 96, 12288, 51200
    per_stage = memory.stage_params(l, h, V, 1, 1)
    assert_allclose(per_stage, compute.params_from_architecture(l, h, V))
    assert_allclose(memory.stage_params(l, h, V, 8, 8) * 8,
                    12 * h**2 * (1 + 13 / (12 * h)) * 12 + V * h, rtol=1e-9)


def test_untied_embeddings_put_both_matrices_on_a_single_stage_only():
    """Untied embeddings: a single stage (p = 1) holds the input embedding and the output layer, ``2·V·h`` more
    than its layers; deeper pipelines put one on the first stage and one on the last. Tied: ``V·h`` at any depth."""
    l, h, V = 32, 4096, 32000
    pp = np.array([1.0, 2.0, 4.0])
    layers = np.ceil(l / pp) * 12 * h**2 * (1 + 13 / (12 * h))
    assert_allclose(memory.stage_params(l, h, V, 1, pp, untied_embeddings=True), layers + V * h * np.array([2, 1, 1]))
    assert_allclose(memory.stage_params(l, h, V, 1, pp, untied_embeddings=False), layers + V * h)
    assert_allclose(memory.stage_params(l, h, V, 1, pp, untied_embeddings=np.array([False, True, True])),
                    layers + V * h)  # untied only where p > 1: one matrix a stage


def test_memory_shrinks_with_recompute_and_sharding():
    args = dict(layers=96, hidden=12288, heads=96, vocab=51200, seq_len=2048, micro_batch=1, tp=8, pp=8, dp=8,
                virtual_stages=1, sequence_parallel=True, flash_attention=False, microbatches=64)
    none = memory.memory_per_gpu_bytes(recompute_code=0, distributed_optimizer=False, **args)
    sel = memory.memory_per_gpu_bytes(recompute_code=1, distributed_optimizer=False, **args)
    full = memory.memory_per_gpu_bytes(recompute_code=2, distributed_optimizer=False, **args)
    sharded = memory.memory_per_gpu_bytes(recompute_code=2, distributed_optimizer=True, **args)
    assert none > sel > full > sharded


# --- architecture rule ---------------------------------------------------------------------------------------

def test_derive_architecture_reproduces_gpt3():
    l, h, a = derive_architecture(175.0, 51200)
    assert (l, h, a) == (96, 12288, 96)


def test_derive_architecture_array_and_param_count():
    sizes = np.array([1.0, 30.0, 1000.0])
    l, h, a = derive_architecture(sizes, 51200)
    p = compute.params_from_architecture(l, h, 51200) / 1e9
    assert_allclose(p, sizes, rtol=0.08)
    assert np.all(h % 128 == 0) and np.all(a == h / 128)
