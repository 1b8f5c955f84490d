"""Mixture of experts as published runs do it: load imbalance, token permutation, the experts' own tensor
parallelism (MoE parallel folding), node-limited routing, shared experts and dense first layers, uneven pipeline
stages, multi-head latent attention; the DeepSeek-V3 row and the scenario fields that describe it."""

import dataclasses

import numpy as np
import pytest

from gui.cli import main as cli
from model import ScenarioError, load_scenario, moe_gap, validation
from model.engine import build_inputs, evaluate, sweep
from model.files import parse_scenario_text, save_scenario
from model.scenario import scenario_from_dict

RUNS = {r["id"]: r for r in validation.read_runs(validation.MOE_CSV_PATH)}


def _run(run_id, **changes):
    """The row's scenario document, with ``section.key`` changes (None removes the key)."""
    d = validation.run_to_scenario_dict(RUNS[run_id])
    for path, value in changes.items():
        section, key = path.split("__")
        if value is None:
            d[section].pop(key, None)
        else:
            d[section][key] = value
    return d


def _evaluate(d, **kw):
    return evaluate(scenario_from_dict(d), **kw)


@pytest.fixture(scope="module")
def moe_rows():
    return {r.id: r for r in validation.validate(validation.MOE_CSV_PATH)}


def test_deepseek_v3_is_judged_within_the_row_tolerance(moe_rows):
    r = moe_rows["deepseek-v3"]
    assert not r.not_judged_because and abs(r.error) <= validation.ROW_TOLERANCE
    assert "PP 16" in r.plan and "EP 64" in r.plan and "TP 1" in r.plan and "recompute none" in r.plan
    # 180K H800 GPU-hours per trillion tokens (DeepSeek-V3 report §1): the row's throughput per GPU
    assert float(RUNS["deepseek-v3"]["value"]) == pytest.approx(1e12 / (180e3 * 3600), rel=1e-3)


def test_deepseek_v3_is_read_as_the_report_states_it():
    d = _run("deepseek-v3")
    w, p = d["workload"], d["parallel"]
    assert (w["experts"], w["top_k"], w["shared_experts"], w["dense_layers"]) == (256, 8, 1, 3)
    assert (w["kv_lora_rank"], w["q_lora_rank"], w["qk_rope_head_dim"], w["max_routed_nodes"]) == (512, 1536, 64, 4)
    assert (p["tp"], p["pp"], p["ep"], p["zero_stage"]) == (1, 16, 64, 1)
    assert p["uneven_stages"] and p["ep_overlap"] and d["cluster"]["gpu"] == "H800"
    # the architecture as described gives the report's 671 B parameters
    res = _evaluate(d)
    assert float(np.ravel(res.workload.params)[0]) / 1e9 == pytest.approx(671.0, abs=0.5)


def test_latent_attention_weights_are_deepseek_v3s():
    # per layer: W_DQ 7168·1536, W_UQ 1536·128·192, W_DKV 7168·(512 + 64), W_UK,UV 512·128·256, W_O 128·128·7168
    inp = build_inputs(scenario_from_dict(_run("deepseek-v3")))
    want = 7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168
    shared = 3 * 7168 * 2048  # the shared expert, held beside the attention by every expert-parallel rank
    assert float(inp.point["attn_weights"][0]) == want + shared
    # the attention core's FLOPs over every head at d_qk = 192 and d_v = 128 (not h = 7,168)
    assert float(inp.point["core_width"][0]) == 128 * (192 + 128) / 2


def test_deepseeks_stored_activations_per_token_are_what_its_recipe_keeps():
    """Per token and layer, in bytes over h: the residual stream's two norm inputs in bf16 (4; the norm outputs
    recomputed), the latents (1,536 + 512 + 64) and the attention output (128·128) in FP8 (the expanded query, keys
    and values recomputed), and per routed copy (8) and shared expert (1) the SwiGLU input 2·2,048 in FP8 (its
    output recomputed), plus each routed copy's input 7,168 in FP8."""
    pt = build_inputs(scenario_from_dict(_run("deepseek-v3"))).point
    h = 7168
    assert float(pt["norm_bytes"][0]) == 4.0
    assert float(pt["attn_inside"][0]) == pytest.approx((1536 + 512 + 64 + 128 * 128) / h, rel=1e-12)
    assert float(pt["mlp_ratio"][0]) == pytest.approx((9 * 2 * 2048 + 8 * h) / (16 * h), rel=1e-12)
    plain = build_inputs(scenario_from_dict(_run("deepseek-v3", workload__light_recompute=False,
                                                 workload__fp8_activations=False))).point
    assert float(plain["norm_bytes"][0]) == 8.0
    # latents, q and k (192 a head), v and the output (128 a head), 2 bytes each
    assert float(plain["attn_inside"][0]) == pytest.approx(
        2 * (1536 + 512 + 64 + 2 * 128 * 192 + 2 * 128 * 128) / h, rel=1e-12)


def test_61_layers_on_16_stages_need_uneven_stages():
    with pytest.raises(ScenarioError) as e:
        _evaluate(_run("deepseek-v3", parallel__uneven_stages=False))
    assert "pp=16" in str(e.value)
    assert np.isfinite(_evaluate(_run("deepseek-v3")).throughput.step_time_s).all()


def test_deepseeks_memory_recipe_is_what_makes_it_fit():
    """Without recomputing the norms and up-projections and caching the GEMM inputs in FP8, the recipe's
    activations do not fit 80 GB (as without them it did not run)."""
    full = _evaluate(_run("deepseek-v3", workload__light_recompute=False, workload__fp8_activations=False),
                     memory_limit=False)
    light = _evaluate(_run("deepseek-v3"))
    assert float(light.at("run").plan.memory_per_gpu_gb) < 80 < float(full.at("run").plan.memory_per_gpu_gb)
    # recomputing the up-projections costs time
    assert float(light.throughput.step_time_s[0]) > float(_evaluate(_run("deepseek-v3", workload__light_recompute=False),
                                                            memory_limit=False).throughput.step_time_s[0])


def test_parallel_folding_keeps_the_experts_all_to_all_inside_the_node():
    folded = _evaluate(_run("mcore-mixtral-8x22b")).at("run")
    tied = _evaluate(_run("mcore-mixtral-8x22b", parallel__expert_tp=None)).at("run")
    assert folded.plan.expert_tp == 1 and tied.plan.expert_tp == 2
    # EP 8 × expert TP 1 fills one node; tied to TP 2 it spans two and sends over InfiniBand
    assert float(folded.breakdown.ep_comm) < float(tied.breakdown.ep_comm)
    assert float(folded.breakdown.tp_comm) < float(tied.breakdown.tp_comm)


def test_the_plan_line_names_the_experts_tensor_parallelism(tmp_path, capsys):
    path = tmp_path / "folded.toml"
    save_scenario(scenario_from_dict(_run("mcore-mixtral-8x22b")), path)
    assert cli.main(["evaluate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "TP 2 · PP 8 · DP 8 · micro-batch 1 · v 7 · EP 8 · expert TP 1 · ZeRO 1" in out
    assert cli.main(["evaluate", str(path), "--json"]) == 0
    assert '"expert_tp": 1' in capsys.readouterr().out


def test_expert_tp_must_tile_the_stage_ranks():
    # expert TP 4 with EP 8 needs 32 ranks per stage's data × tensor ranks; the recipe's stage has TP 2 × DP 8 = 16
    with pytest.raises(ScenarioError):
        _evaluate(_run("mcore-mixtral-8x22b", parallel__expert_tp=4))


def test_load_imbalance_slows_the_experts_by_the_published_ratio():
    """The default imbalance is derived from the Model Zoo's 8x22B: 445 TFLOP/s dropless against 465 balanced."""
    step = {imb: float(_evaluate(_run("mcore-mixtral-8x22b", workload__expert_imbalance=imb)).throughput.step_time_s[0])
            for imb in (0.0, 0.07, 0.3)}
    default = float(_evaluate(_run("mcore-mixtral-8x22b")).throughput.step_time_s[0])
    assert default == step[0.07]
    assert step[0.0] < step[0.07] < step[0.3]
    assert step[0.07] / step[0.0] == pytest.approx(465 / 445, abs=0.003)


def test_node_limited_routing_sends_fewer_copies_over_the_fabric():
    d = _run("deepseek-v3", parallel__ep_overlap=False)
    limited = _evaluate(d, memory_limit=False).at("run")
    d["workload"]["max_routed_nodes"] = None
    unlimited = _evaluate(d, memory_limit=False).at("run")
    assert float(limited.breakdown.ep_comm) < 0.7 * float(unlimited.breakdown.ep_comm)
    # at least as many nodes as routed experts: no limit at all
    d["workload"]["max_routed_nodes"] = 8
    eight = _evaluate(d, memory_limit=False).at("run")
    assert float(eight.breakdown.ep_comm) <= float(unlimited.breakdown.ep_comm)


def test_shared_experts_and_dense_layers_count_in_the_model_flops():
    base = _run("deepseek-v3")
    flops = {}
    for name, changes in {"as published": {}, "no shared": {"workload__shared_experts": 0},
                          "no dense": {"workload__dense_layers": 0, "workload__dense_ffn_hidden": None}}.items():
        res = _evaluate({**base, **_run("deepseek-v3", **changes)}, memory_limit=False)
        flops[name] = float(res.throughput.model_flops_per_iter[0])
    # one shared expert of 2,048 in 58 MoE layers: 6·tokens·58·3·7168·2048 FLOPs a step
    tokens = 15360 * 4096
    assert flops["as published"] - flops["no shared"] == pytest.approx(6 * tokens * 58 * 3 * 7168 * 2048, rel=1e-9)
    # 3 dense layers of 18,432 in place of MoE layers of 9 active experts of 2,048
    assert flops["as published"] - flops["no dense"] == pytest.approx(
        6 * tokens * 3 * 3 * 7168 * (18432 - 9 * 2048), rel=1e-9)


def test_permutation_costs_memory_traffic_not_flops():
    from model import step_time
    d = _run("mcore-mixtral-8x7b")
    res = _evaluate(d)
    saved = step_time.PERMUTE_PASSES
    try:
        step_time.PERMUTE_PASSES = 0.0
        from model.engine import clear_plan_cache
        clear_plan_cache()
        without = _evaluate(d)
    finally:
        step_time.PERMUTE_PASSES = saved
        clear_plan_cache()
    assert float(without.throughput.step_time_s[0]) < float(res.throughput.step_time_s[0])
    assert float(without.throughput.model_flops_per_iter[0]) == float(res.throughput.model_flops_per_iter[0])


def test_the_plan_search_finds_the_fastest_plan_with_the_new_fields():
    """Auto mode on a DeepSeek-like model with every new field set: the fast search's plans and steps are a
    brute-force search's, bit for bit."""
    from plan_brute_force import brute_force_plans  # tests/plan_brute_force.py
    from model.engine import clear_plan_cache

    d = _run("deepseek-v3")
    d["parallel"] = {"mode": "auto", "ep": 64, "zero_stage": 1, "ep_overlap": True, "uneven_stages": True,
                     "expert_tp": 1}
    s = scenario_from_dict(d)
    x = np.array([128.0, 256.0, 512.0])
    clear_plan_cache()
    try:
        fast = sweep(s, "cluster.nodes", x)
    finally:
        clear_plan_cache()
    plan, step = brute_force_plans(s, "cluster.nodes", x)
    assert np.isfinite(step).any()
    np.testing.assert_array_equal(fast.throughput.step_time_s, step)
    for k in ("tp", "pp", "micro_batch", "virtual_stages", "ep"):
        np.testing.assert_array_equal(getattr(fast.plan, k), plan[k], err_msg=k)


ALL_NEW = """
[cluster]
gpu = "H800"
nodes = 256
[workload]
params_b = 671.0
layers = 61
hidden = 7168
heads = 128
ffn_hidden = 2048
experts = 256
top_k = 8
vocab = 129280
seq_len = 4096
global_batch = 15360
precision = "fp8"
shared_experts = 1
dense_layers = 3
dense_ffn_hidden = 18432
expert_imbalance = 0.05
max_routed_nodes = 4
kv_lora_rank = 512
q_lora_rank = 1536
qk_nope_head_dim = 128
qk_rope_head_dim = 64
v_head_dim = 128
light_recompute = true
fp8_activations = true
[parallel]
ep = 64
expert_tp = 1
uneven_stages = true
"""


def test_new_fields_round_trip_through_a_file(tmp_path):
    s = parse_scenario_text(ALL_NEW)
    path = save_scenario(s, tmp_path / "deepseek.toml")
    again = load_scenario(path)
    assert again == s
    assert again.workload.kv_lora_rank == 512 and again.parallel.expert_tp == 1 and again.parallel.uneven_stages


def test_existing_files_load_with_the_new_fields_at_their_defaults():
    s = load_scenario("assets/presets/moe_mixtral_8x22b.toml")
    assert (s.workload.shared_experts, s.workload.dense_layers, s.parallel.expert_tp) == (0, 0, None)
    assert s.workload.kv_lora_rank is None and s.parallel.uneven_stages and not s.workload.light_recompute


@pytest.mark.parametrize("change,needles", [
    ("[parallel]\nexpert_tp = 0\n", ["parallel.expert_tp", "0"]),
    ("[parallel]\nexpert_tp = 16\n", ["parallel.expert_tp", "16", "gpus_per_node"]),
    ("[workload]\nexpert_imbalance = -0.1\n", ["workload.expert_imbalance", "-0.1"]),
    ("[workload]\nmax_routed_nodes = 0\n", ["workload.max_routed_nodes", "0"]),
    ("[workload]\nshared_experts = 65\n", ["workload.shared_experts", "65"]),
    ("[workload]\ndense_layers = 61\n", ["workload.dense_layers", "61", "fewer than layers"]),
    ("[workload]\nkv_lora_rank = 0\n", ["workload.kv_lora_rank", "0"]),
    ("[workload]\nqk_rope_head_dim = -1\n", ["workload.qk_rope_head_dim", "-1"]),
    ("[workload]\nprecision = \"bf16\"\n", ["workload.fp8_activations", "precision = bf16"]),
    ("[parallel]\nuneven_stages = \"yes\"\n", ["parallel.uneven_stages", "true or false"]),
])
def test_bad_new_fields_exit_2_with_one_named_line(tmp_path, capsys, change, needles):
    text = ALL_NEW
    section = change.split("]")[0] + "]"
    key = change.split("\n")[1].split(" = ")[0]
    lines = [ln for ln in text.splitlines() if not ln.startswith(key + " =")]
    text = "\n".join(lines).replace(section, change.rstrip("\n"), 1) + "\n"
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["evaluate", str(path)]) == 2
    out = capsys.readouterr()
    line = out.err.strip()
    assert out.out == "" and "\n" not in line and "Traceback" not in line
    for n in needles:
        assert n in line, (n, line)


@pytest.mark.parametrize("text,field", [
    ("[workload]\nshared_experts = 1\n", "workload.shared_experts"),
    ("[workload]\nmax_routed_nodes = 4\n", "workload.max_routed_nodes"),
    ("[parallel]\nexpert_tp = 1\n", "parallel.expert_tp"),
    ("[workload]\nq_lora_rank = 1536\n", "workload.q_lora_rank"),
    ("[workload]\nexperts = 8\ndense_ffn_hidden = 1000\n", "workload.dense_ffn_hidden"),
])
def test_fields_that_need_another_are_refused_by_name(text, field):
    with pytest.raises(ScenarioError) as e:
        parse_scenario_text(text)
    assert field in str(e.value) and "\n" not in str(e.value)


def test_dense_layers_beyond_a_derived_model_are_refused_by_name():
    s = parse_scenario_text("[workload]\nparams_b = 1.0\nexperts = 8\ndense_layers = 500\n")
    with pytest.raises(ScenarioError) as e:
        evaluate(s)
    assert "workload.dense_layers" in str(e.value) and "500" in str(e.value)


def test_the_dense_twin_of_a_deepseek_description_keeps_its_active_width():
    s = parse_scenario_text(ALL_NEW)
    twin = moe_gap.dense_twin(s)
    assert twin.workload.experts is None and twin.workload.shared_experts == 0 and twin.workload.dense_layers == 0
    assert twin.workload.ffn_hidden == 9 * 2048 and twin.parallel.expert_tp is None
    # about the 37 B a token meets (DeepSeek-V3 report: 37 B activated)
    assert 30.0 < twin.workload.params_b < 45.0


def test_a_dense_scenario_gives_the_same_outputs_without_the_new_fields():
    s = load_scenario("assets/presets/default.toml")
    same = dataclasses.replace(s, workload=dataclasses.replace(s.workload, light_recompute=False),
                               parallel=dataclasses.replace(s.parallel, uneven_stages=False))
    np.testing.assert_array_equal(evaluate(s).throughput.step_time_s, evaluate(same).throughput.step_time_s)


def test_expert_states_shard_over_the_expert_data_parallel_ranks_only():
    """Megatron-Core's distributed optimizer shards a routed expert's states over its expert-data-parallel group
    (t·c·d/(e·et) ranks), the rest over the d·c ranks: 1 B parameters, 0.5 B of them experts, d = 16, e = 8, et = t."""
    from model.memory import model_state_bytes, model_state_bytes_by_stage

    stage = dict(params=np.array([[1e9]]), expert_params=np.array([[0.5e9]]), expert_ratio=np.array([[1 / 8]]),
                 fp8=0.0, layer_params=np.array([[1e7]]), grad=4.0)
    dp = np.array([[16.0]])
    # ZeRO-1: 2 + 4 bytes whole, 12 optimizer bytes over 16 ranks; the experts' over 16/8 = 2
    want = 1e9 * (2 + 4 + 12 / 16) + 0.5e9 * 12 * (1 / 2 - 1 / 16)
    assert float(model_state_bytes(stage, dp, 1)[0, 0]) == pytest.approx(want, rel=1e-12)
    by_stage = model_state_bytes_by_stage(stage, dp, (0, 1, 2, 3))
    for i, z in enumerate((0, 1, 2, 3)):
        assert by_stage[0, i] == pytest.approx(float(model_state_bytes(stage, dp, z)[0, 0]), rel=1e-12)
    # without data parallelism beyond the experts' own there is nothing to shard them over
    assert float(model_state_bytes(stage, np.array([[8.0]]), 1)[0, 0]) == pytest.approx(
        1e9 * (2 + 4 + 12 / 8) + 0.5e9 * 12 * (1 - 1 / 8), rel=1e-12)


@pytest.mark.parametrize("changes", [
    {"parallel.expert_tp": 1},
    {"parallel.expert_tp": 2, "workload.expert_imbalance": 0.2},
    {"workload.max_routed_nodes": 1, "parallel.ep_overlap": True},
    {"workload.shared_experts": 1, "workload.dense_layers": 2, "parallel.uneven_stages": True},
])
def test_the_plan_search_is_exact_on_mixtral_with_each_new_field(changes):
    """The Mixtral 8x22B preset in auto mode (tp, pp, ep, micro-batch, recompute and ZeRO searched) with a new
    field set: the fast search's plans and steps are a brute-force search's, bit for bit, along the nodes."""
    from plan_brute_force import brute_force_plans  # tests/plan_brute_force.py
    from model.engine import clear_plan_cache

    s = load_scenario("assets/presets/moe_mixtral_8x22b.toml").replace_many(changes)
    x = np.array([2.0, 8.0, 16.0, 48.0, 128.0])
    clear_plan_cache()
    try:
        fast = sweep(s, "cluster.nodes", x)
    finally:
        clear_plan_cache()
    plan, step = brute_force_plans(s, "cluster.nodes", x)
    assert np.isfinite(step).any()
    np.testing.assert_array_equal(fast.throughput.step_time_s, step)
    for k in ("tp", "pp", "micro_batch", "virtual_stages", "recompute", "zero_stage", "ep"):
        np.testing.assert_array_equal(getattr(fast.plan, k), plan[k], err_msg=k)
