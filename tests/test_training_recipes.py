"""Today's training recipes: ZeRO/FSDP sharding, recompute and batch in the plan search, GQA, SwiGLU, FP8."""

import json

import numpy as np
import pytest

import model
from model import ScenarioError, evaluate, presets, sweep
from model.compute import RECOMPUTE_KINDS, model_flops_per_iteration, params_from_architecture, layer_matmul_weights

LLAMA3 = "assets/presets/llama3_405b_16k_h100.toml"


def _scen(**sections):
    return model.scenario_from_dict(sections)


def test_the_global_batch_is_never_grown():
    """A 7B run asked for 4,096 sequences is evaluated at 4,096 for every fabric and cluster size."""
    s = _scen(cluster={"gpu": "H100-SXM", "nodes": 8}, workload={"params_b": 7, "global_batch": 4096})
    res = sweep(s, "cluster.nodes", np.array([8, 96, 512, 1024]))
    assert np.all(res.plan.feasible)
    assert np.all(res.plan.global_batch_used == 4096)
    assert np.all(res.plan.global_batch == 4096)
    # on 1,024 nodes (8,192 GPUs) some GPUs idle rather than the batch growing
    assert np.all(res.plan.gpus_used[:, -1] <= 8192)


def test_an_odd_batch_idles_gpus_instead_of_changing():
    s = _scen(cluster={"gpu": "H100-SXM", "nodes": 2}, workload={"params_b": 1, "global_batch": 15})
    res = evaluate(s)
    assert np.all(res.plan.global_batch_used == 15)
    used = res.plan.gpus_used
    assert np.all(used < 16) and np.all(15 % res.plan.dp == 0)


@pytest.mark.parametrize("layers, pp, uneven, ok", [
    (32, 8, False, True), (31, 8, False, True), (62, 8, False, True), (126, 16, False, True),
    (180, 64, False, False), (29, 8, False, False), (60, 8, False, False),
    (180, 64, True, True), (29, 8, True, True), (60, 8, True, True)])
def test_layers_split_evenly_with_first_and_last_stage_short_or_unevenly(layers, pp, uneven, ok):
    """Megatron-LM splits layers evenly; Llama 3 made the first and last stage one layer short; Megatron-Core's
    first/last stage layer counts allow any split whose stages each hold a layer (the default, ``uneven_stages``)."""
    _check_split(layers, pp, 1, uneven, ok)


@pytest.mark.parametrize("layers, pp, v, ok", [(180, 16, 2, False), (126, 16, 4, True), (64, 8, 2, True)])
def test_interleaved_chunks_split_evenly_or_one_short_even_with_uneven_stages(layers, pp, v, ok):
    """Uneven stages free a pipeline without interleaving; interleaved chunks still split evenly or with the
    first and last one layer short (Llama 3 405B: 126 layers on 16 stages of 4 chunks)."""
    _check_split(layers, pp, v, True, ok)


@pytest.mark.parametrize("uneven", [False, True])
@pytest.mark.parametrize("layers, pp, v, ok", [(126, 16, 8, True), (30, 8, 4, True), (31, 8, 4, True),
                                               (29, 8, 4, False), (126, 32, 4, True), (125, 16, 8, False)])
def test_one_layer_chunks_leave_the_embedding_and_the_loss_a_chunk_of_their_own(layers, pp, v, ok, uneven):
    """Llama 3's balanced pipeline takes one layer from the first and from the last stage, "so that the first model
    chunk on the first stage has only the embedding, and the last model chunk on the last stage has only output
    projection and loss calculation" (Dubey et al. 2024 §3.3.2): 126 layers on 16 stages of 8 one-layer chunks.
    Megatron-Core runs it (``account_for_embedding_in_pipeline_split``, ``account_for_loss_in_pipeline_split``:
    ``l + 1`` or ``l + 2`` divisible by ``p``, and by ``p·v`` interleaved); a layer count 3 short is not."""
    _check_split(layers, pp, v, uneven, ok)


def _check_split(layers, pp, v, uneven, ok):
    s = _scen(cluster={"gpu": "H100-SXM", "nodes": 64},
              workload={"layers": layers, "hidden": 2048, "heads": 16, "global_batch": 1024, "micro_batch": 1},
              parallel={"tp": 1, "pp": pp, "virtual_stages": v, "uneven_stages": uneven})
    res = evaluate(s, require_feasible=False)
    assert bool(np.all(res.plan.feasible)) is ok


@pytest.mark.parametrize("uneven", [False, True])
def test_auto_plans_split_the_layers(uneven):
    s = _scen(cluster={"gpu": "A100-SXM-80GB", "nodes": 64}, workload={"params_b": 70, "global_batch": 1024},
              parallel={"uneven_stages": uneven})
    res = sweep(s, "cluster.nodes", np.array([16, 64, 256]))
    l = res.workload.layers
    chunks = res.plan.pp * res.plan.virtual_stages
    even = (l % chunks == 0) | (((l + 1) % chunks == 0) | ((l + 2) % chunks == 0))
    ok = even | ((chunks <= l) & (res.plan.virtual_stages == 1)) if uneven else even
    assert np.all(ok[res.plan.feasible])


def test_a_model_whose_layers_no_stage_count_divides_still_gets_a_pipeline():
    """Case 3's 1T model has 180 layers: on 1,024 H100 no pipeline of 8-32 stages divides them, and without uneven
    stages the search fell back to ZeRO-3 on TP 2 (InfiniBand 24.8 days on the published set, Ethernet 242). With
    Megatron-Core's uneven first and last stages it runs a 16-stage pipeline, its busiest stage holding 12 layers."""
    s = presets.switch_profile_set(presets.load_preset("case3"), "published", presets.article_values("case3"))
    even = evaluate(s.replace_many({"parallel.uneven_stages": False}))
    res = evaluate(s)
    ib = res.fabric_index("infiniband")
    assert np.all(res.workload.layers == 180) and res.plan.pp[ib] >= 8
    assert np.asarray(res.workload.layers).flat[0] % (res.plan.pp[ib] * res.plan.virtual_stages[ib]) != 0
    assert res.throughput.train_days[ib] < 0.6 * even.throughput.train_days[ib]
    days = dict(zip(res.fabrics, res.throughput.train_days))
    assert max(days.values()) < 2.0 * days["infiniband"]  # on the published set no fabric is twice InfiniBand's


def test_recompute_is_searched_when_omitted():
    """A plan that fits only with recomputation is found when recompute is left open (the lightest kind that fits:
    here half the layers, Megatron-LM's block method), refused when it is none."""
    base = dict(cluster={"gpu": "A100-SXM-80GB", "nodes": 8},
                workload={"params_b": 65, "seq_len": 16384, "global_batch": 64, "micro_batch": 1},
                parallel={"tp": 8, "pp": 1, "zero_stage": 1})
    res = evaluate(_scen(**base))
    assert np.all(res.plan.recompute == RECOMPUTE_KINDS.index("half"))
    base["workload"]["recompute"] = "none"
    with pytest.raises(ScenarioError):
        evaluate(_scen(**base))


def test_half_recompute_lies_between_none_and_full():
    """Recomputing half of each stage's layers (block method): memory between none and full, the step between
    them, and half of full's extra forward pass in the hardware FLOPs."""
    base = dict(cluster={"gpu": "A100-SXM-80GB", "nodes": 8},
                workload={"params_b": 30, "seq_len": 4096, "global_batch": 64, "micro_batch": 1},
                parallel={"tp": 8, "pp": 2, "zero_stage": 1})
    res = {}
    for kind in ("none", "half", "full"):
        base["workload"]["recompute"] = kind
        res[kind] = evaluate(_scen(**base), require_feasible=False)
    mem = {k: float(r.plan.memory_per_gpu_gb[0]) for k, r in res.items()}
    step = {k: float(r.throughput.step_time_s[0]) for k, r in res.items()}
    assert mem["full"] < mem["half"] < mem["none"] and step["none"] < step["half"] < step["full"]
    hw = {k: float(r.throughput.hardware_flops_per_iter[0]) for k, r in res.items()}
    np.testing.assert_allclose(hw["half"] - hw["none"], (hw["full"] - hw["none"]) / 2, rtol=1e-9)


def test_llama3_405b_published_plan_fits_only_with_sharded_weights():
    """The paper's TP 8, PP 16 on 2,048 nodes: by the engine's memory estimate it fits only with the weights
    sharded (ZeRO-3) or recomputation; the preset itself searches the plan, at every cluster size."""
    s = model.load_scenario(LLAMA3)
    published = s.replace_many({"parallel.mode": "explicit", "parallel.tp": 8, "parallel.pp": 16,
                                "parallel.zero_stage": 3})
    res = evaluate(published)
    # within what the engine lets a plan use of the 80 GB (80 GiB less the runtime reserve, 84.2 GB)
    assert np.all(res.plan.feasible) and np.all(res.plan.memory_margin_gb > 0)
    assert 400e9 < res.at("roce").workload.params < 410e9
    with pytest.raises(ScenarioError):
        evaluate(published.replace_many({"parallel.zero_stage": 0, "workload.recompute": "selective"}))
    nodes = np.array([64, 100, 500, 1000, 1500, 2048, 3000])
    assert np.all(model.sweep(s, "cluster.nodes", nodes).plan.feasible)


def test_zero3_costs_fabric_traffic_that_zero1_does_not():
    s = _scen(cluster={"gpu": "H100-SXM", "nodes": 16},
              workload={"params_b": 13, "global_batch": 512, "micro_batch": 1}, parallel={"tp": 2, "pp": 1})
    z1 = evaluate(s.replace("parallel.zero_stage", 1))
    z3 = evaluate(s.replace("parallel.zero_stage", 3))
    i = z1.fabric_index("ethernet")
    assert z3.breakdown.dp_comm[i] > 2 * z1.breakdown.dp_comm[i]
    assert np.all(z3.plan.memory_per_gpu_gb < z1.plan.memory_per_gpu_gb)


def test_distributed_optimizer_key_sets_or_conflicts_with_the_zero_stage():
    s = _scen(cluster={"gpu": "H100-SXM", "nodes": 4}, workload={"params_b": 7},
              parallel={"distributed_optimizer": False})
    assert np.all(evaluate(s).plan.zero_stage == 0)
    with pytest.raises(ScenarioError, match="distributed_optimizer"):
        _scen(parallel={"distributed_optimizer": False, "zero_stage": 2})


def test_grouped_query_attention_and_swiglu_change_parameters_and_flops():
    h, a = 8192.0, 64.0
    mha = layer_matmul_weights(h, a)
    gqa = layer_matmul_weights(h, a, kv_heads=8.0)
    assert mha == pytest.approx(12 * h**2)
    assert gqa == pytest.approx(2 * h**2 + 2 * h * 8 * 128 + 8 * h**2)
    # Llama 2 70B: 80 layers, 8192, 64 heads, 8 KV heads, SwiGLU 28672, vocab 32000 untied -> 69B
    w = layer_matmul_weights(h, a, 8.0, 28672.0)
    p = params_from_architecture(80, h, 32000, w, True)
    assert 68.5e9 < p < 69.5e9
    # 6 · params · tokens plus attention: the FLOPs follow the layer's weights
    assert model_flops_per_iteration(1, 4096, 80, h, 32000, gqa) < model_flops_per_iteration(1, 4096, 80, h, 32000)
    assert model_flops_per_iteration(1, 4096, 80, h, 32000, w) > model_flops_per_iteration(1, 4096, 80, h, 32000)


def test_gqa_lowers_memory_and_raises_speed_in_the_engine():
    arch = {"layers": 32, "hidden": 4096, "heads": 32, "global_batch": 256}
    s = _scen(cluster={"gpu": "H100-SXM", "nodes": 4}, workload=arch)
    g = _scen(cluster={"gpu": "H100-SXM", "nodes": 4}, workload=dict(arch, kv_heads=8))
    assert g.workload.kv_heads == 8
    assert np.all(evaluate(g).throughput.step_time_s < evaluate(s).throughput.step_time_s)


def test_kv_heads_must_divide_heads():
    with pytest.raises(ScenarioError, match="kv_heads"):
        _scen(workload={"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 5})


def test_fp8_speeds_up_h100_and_is_refused_without_fp8_tensor_cores():
    s = _scen(cluster={"gpu": "H100-SXM", "nodes": 8}, workload={"params_b": 30, "global_batch": 512})
    bf16, fp8 = evaluate(s), evaluate(s.replace("workload.precision", "fp8"))
    i = bf16.fabric_index("infiniband")
    ratio = bf16.throughput.step_time_s[i] / fp8.throughput.step_time_s[i]
    assert 1.1 < ratio < 2.0
    with pytest.raises(ScenarioError, match="precision"):
        _scen(cluster={"gpu": "A100-SXM-80GB"}, workload={"precision": "fp8"})


def test_cli_json_reports_the_recipe(capsys):
    from gui.cli.main import main

    assert main(["evaluate", LLAMA3, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    roce = doc["fabrics"]["roce"]
    assert roce["global_batch_used"] == 2048 and roce["global_batch_kept"] is True
    plan = roce["plan"]
    assert plan["zero_stage"] == 1 and plan["recompute"] in ("none", "selective", "full")
    assert plan["kv_heads"] == 8 and plan["ffn_hidden"] == 53248 and plan["precision"] == "bf16"
    assert plan["cp"] >= 1 and plan["ep"] == 1 and plan["experts"] == 1 and plan["top_k"] == 1


@pytest.mark.parametrize("changes", [{}, {"topology.oversubscription": 4.0}])
def test_pruning_by_the_slowest_fabric_changes_no_plan(changes):
    """Dropping pairs that cannot win on the slowest fabric gives the plans a comparison of every plan gives,
    also where oversubscription slows the data-parallel traffic differently per fabric and plan."""
    from plan_brute_force import brute_force_plans  # tests/plan_brute_force.py

    s = model.load_scenario("assets/presets/default.toml").replace_many(changes)
    x = np.array([2, 8, 24, 64, 200, 1024])
    pruned = sweep(s, "cluster.nodes", x)
    plan, step = brute_force_plans(s, "cluster.nodes", x)
    for k in model.engine.PLAN_ARRAY_KEYS:
        np.testing.assert_array_equal(getattr(pruned.plan, k), plan[k])
    np.testing.assert_array_equal(pruned.throughput.step_time_s, step)


def _long_context(seq_len, **parallel):
    return _scen(cluster={"gpu": "H100-SXM", "nodes": 64},
                 workload={"layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8, "ffn_hidden": 28672,
                           "vocab": 128256, "untied_embeddings": True, "seq_len": seq_len, "global_batch": 128},
                 parallel=parallel)


def test_context_parallelism_is_searched_for_long_sequences_only():
    """A 70B model at 32k and 128k tokens finds context-parallel plans; at 4k it does not split sequences. (At 128k
    on the seed set's RoCE a ZeRO-3 plan with full recomputation is as good: the search may keep whole sequences.)"""
    res = sweep(_long_context(4096), "workload.seq_len", np.array([4096, 32768, 131072]))
    assert np.all(res.plan.feasible)
    cp = res.plan.cp
    assert np.all(cp[:, 0] == 1)
    assert cp[res.fabric_index("infiniband"), 1] >= 2 and cp[res.fabric_index("roce"), 1] >= 2
    assert cp[res.fabric_index("infiniband"), 2] >= 2
    assert np.all(res.plan.global_batch_used == 128)


def test_ring_attention_traffic_costs_more_on_a_slower_fabric_across_nodes():
    """CP 16 with TP 1 spans two nodes: the ring's blocks cross the fabric, more on the slower one."""
    s = _long_context(131072, mode="explicit", tp=1, pp=8, cp=16)
    res = evaluate(s, require_feasible=False)
    assert np.all(res.plan.cp == 16)
    fast = evaluate(s.replace("fabric.custom.infiniband.link_gbps", 3200.0)).at("infiniband").throughput.step_time_s
    slow = evaluate(s.replace("fabric.custom.infiniband.link_gbps", 25.0)).at("infiniband").throughput.step_time_s
    assert slow > fast * 1.05


def test_cp_must_split_the_sequence():
    with pytest.raises(ScenarioError, match="parallel.cp"):
        _scen(workload={"seq_len": 4008}, parallel={"cp": 16})


MIXTRAL = "assets/presets/moe_mixtral_8x22b.toml"
DENSE_TWIN = "assets/presets/moe_dense_39b.toml"


def test_mixtral_shape_counts_all_experts_but_computes_the_active_ones():
    moe, dense = evaluate(model.load_scenario(MIXTRAL)), evaluate(model.load_scenario(DENSE_TWIN))
    assert 139e9 < moe.at("roce").workload.params < 142e9
    assert 38e9 < dense.at("roce").workload.params < 40e9
    np.testing.assert_allclose(moe.throughput.model_flops_per_iter, dense.throughput.model_flops_per_iter, rtol=1e-12)


def test_expert_all_to_all_across_nodes_opens_a_fabric_gap_a_dense_run_does_not_have():
    """EP 16 with TP 1 spans two nodes: on a slow fabric the MoE run loses more than its dense twin."""
    fixed = {"parallel.mode": "explicit", "parallel.tp": 1, "parallel.pp": 4, "parallel.zero_stage": 1,
             "workload.recompute": "full", "workload.micro_batch": 1}
    moe = model.load_scenario(MIXTRAL).replace_many(dict(fixed, **{"workload.experts": 16, "parallel.ep": 16,
                                                                   "workload.top_k": 4, "workload.ffn_hidden": 8192}))
    dense = model.load_scenario(DENSE_TWIN).replace_many(fixed)

    def slowdown(s):
        fast = evaluate(s.replace("fabric.custom.roce.link_gbps", 3200.0)).at("roce").throughput.step_time_s
        slow = evaluate(s.replace("fabric.custom.roce.link_gbps", 50.0)).at("roce").throughput.step_time_s
        return slow / fast
    np.testing.assert_allclose(evaluate(moe).throughput.model_flops_per_iter, evaluate(dense).throughput.model_flops_per_iter,
                               rtol=1e-12)
    assert slowdown(moe) > slowdown(dense) * 1.2


def test_expert_parallelism_is_searched_and_must_divide_the_experts():
    res = evaluate(model.load_scenario(MIXTRAL))
    assert np.all(res.plan.ep >= 1) and np.all(8 % res.plan.ep == 0)
    with pytest.raises(ScenarioError, match="parallel.ep"):
        model.load_scenario(MIXTRAL).replace("parallel.ep", 3)
    with pytest.raises(ScenarioError, match="top_k"):
        model.load_scenario(MIXTRAL).replace("workload.top_k", 9)


def test_deepseek_v3_shape_is_feasible_with_ep64():
    res = evaluate(model.load_scenario("assets/presets/moe_deepseek_v3_shape.toml"))
    assert np.all(res.plan.ep == 64)
    i, j = res.fabric_index("infiniband"), res.fabric_index("ethernet")
    assert res.throughput.train_days[j] > 1.3 * res.throughput.train_days[i]


def test_context_parallel_ring_has_its_own_part_of_the_breakdown():
    """A ring across nodes on a slow link is exposed: its own part of the breakdown, which still sums to the step."""
    from model import BREAKDOWN_KEYS

    s = _scen(cluster={"gpu": "H100-SXM", "nodes": 16},
              workload={"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
                        "seq_len": 16384, "global_batch": 16, "micro_batch": 1, "recompute": "full"},
              parallel={"tp": 8, "pp": 1, "cp": 8, "zero_stage": 1},
              fabric={"profile_set": "published", "compare": ["roce", "infiniband"],
                      "custom": {"roce": {"link_gbps": 25}}})
    res = evaluate(s)
    total = sum(np.asarray(getattr(res.breakdown, k)) for k in BREAKDOWN_KEYS)
    np.testing.assert_allclose(total, res.throughput.step_time_s, rtol=1e-9)
    ring = np.asarray(res.breakdown.cp_comm)
    assert ring[0] > 10 * ring[1] and ring[0] > 0.0  # 25G RoCE leaves far more of the ring exposed than InfiniBand
    assert np.all(np.asarray(res.breakdown.ep_comm) == 0.0)
