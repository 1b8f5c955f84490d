"""Modern published runs (assets/validation/modern_runs.csv) are judged with the Megatron-LM rows' tolerance."""

import numpy as np
import pytest

from gui.cli import main as cli
from model import memory, validation
from model.engine import evaluate


@pytest.fixture(scope="module")
def rows():
    return validation.validate(validation.MODERN_CSV_PATH)


def test_modern_rows_are_judged_within_the_row_tolerance(rows):
    judged = [r for r in rows if not r.not_judged_because]
    assert len(judged) >= 5
    bad = [(r.id, round(r.error, 3)) for r in judged if abs(r.error) > validation.ROW_TOLERANCE]
    assert not bad
    every = [r for _, table in validation.validate_all() for r in table if not r.not_judged_because]
    moe = [r for r in validation.validate(validation.MOE_CSV_PATH) if not r.not_judged_because]
    at_scale = [r for r in validation.validate(validation.SCALE_CSV_PATH) if not r.not_judged_because]
    assert len(every) == len(judged) + len(moe) + len(at_scale) + 18 and validation.summary(every)["passed"]


def test_rows_are_timed_as_a_user_gets_them(rows):
    # no row is timed past the memory limit: a recipe the engine cannot fit is refused and says why
    assert "memory_limit" not in validation.read_runs(validation.MODERN_CSV_PATH)[0]
    for r in rows:
        if r.plan == "no plan fits":
            assert r.engine == 0.0 and r.memory_note.startswith("refused") and r.not_judged_because


RECIPES = {r.id: r for r in validation.memory_table()}


@pytest.mark.parametrize("run_id", sorted(RECIPES))
def test_recipe_known_to_fit_gets_a_plan_without_recomputation_on_80_gb(run_id):
    """A published recipe that ran without recomputation: the engine, as a user runs it (memory limit on,
    recompute none), finds a plan for it on the GPU's 80 GB."""
    from model.errors import ScenarioError
    runs = {r["id"]: r for p in (validation.MODERN_CSV_PATH, validation.MOE_CSV_PATH) for r in validation.read_runs(p)}
    try:
        res = evaluate(validation.recipe_scenario(runs[run_id]))
    except ScenarioError as exc:  # pragma: no cover - the failure this test reports
        pytest.fail(f"{run_id}: {exc}")
    assert np.all(res.plan.recompute == 0) and RECIPES[run_id].fits
    assert RECIPES[run_id].memory_gb == 80 and res.at("run").plan.memory_per_gpu_gb <= RECIPES[run_id].usable_gb


def _llama3_layer_and_stage_weights(dp, every_tensor=True):
    """One layer's stored activations of one micro-batch by Korthikanti et al.'s tensors for Llama 3 405B's
    architecture (norms 8, query 2, keys and values 4·8/128, output 2, logsumexp 4·a/h, SwiGLU 6f/h, all s·b·h/t;
    with the recipe's light recomputation the norms keep their inputs, 4, and the SwiGLU its two inputs, 4f/h)
    [B], and 8 layers' weights (13h a layer for norms, as the engine counts every layer) at 2 + 4 + 12/d bytes
    a parameter [B]."""
    s, h, a, kv, f, t = 8192, 16384, 128, 8, 53248, 8
    norms, mlp = (8, 6 * f / h) if every_tensor else (4, 4 * f / h)
    layer = s * h / t * (norms + 2 + 4 * kv / a + 2 + 4 * a / h + mlp)
    weights = h * h * (2 + 2 * kv / a) + 3 * h * f + 13 * h
    return layer, 8 * weights / t * (2 + 4 + 12 / dp)


def _llama3_plan(run_id, every_tensor):
    runs = {r["id"]: r for r in validation.read_runs(validation.MODERN_CSV_PATH)}
    scen = validation.recipe_scenario(runs[run_id])
    if every_tensor:
        scen = scen.replace_many({"workload.light_recompute": False})
    return evaluate(scen, memory_limit=False).at("run").plan


@pytest.mark.parametrize("every_tensor", [True, False])
def test_llama3_at_16k_gpus_holds_every_micro_batch_of_a_stage(every_tensor):
    # 16 micro-batches a replica (Table 4: batch/DP 16) on 16 interleaved stages of 8 one-layer chunks: Megatron-LM's
    # warm-up (2·(p − r − 1) + (v − 1)·p forwards) reaches the step's 16·v, so every forward runs before the first
    # backward and the second rank holds its 8 layers for all 16 micro-batches. With every tensor Megatron-Core
    # keeps, 97.9 GB, over the limit; with the recipe's light recomputation, 72.0 GB
    plan = _llama3_plan("llama3-405b-16k", every_tensor)
    layer, states = _llama3_layer_and_stage_weights(128, every_tensor)
    expected = 16 * 8 * layer * (1 + memory.FRAGMENTATION_FRACTION) + states
    assert int(plan.virtual_stages) == 8
    assert float(plan.memory_per_gpu_gb) == pytest.approx(expected / 1e9, rel=1e-6)
    assert (float(plan.memory_per_gpu_gb) > RECIPES["llama3-405b-16k"].usable_gb) == every_tensor
    if every_tensor:
        assert RECIPES["llama3-405b-16k"].every_tensor_gb == pytest.approx(float(plan.memory_per_gpu_gb))


@pytest.mark.parametrize("every_tensor", [True, False])
def test_llama3_at_8k_gpus_holds_the_warm_up_of_its_one_layer_chunks(every_tensor):
    # 32 micro-batches a replica (Table 4: batch/DP 32) on 16 stages of 8 one-layer chunks (§3.3.2): the second rank
    # runs 2·(p − 2) + (v − 1)·p = 140 warm-up forwards (Megatron-LM's schedule with N = p contiguous micro-batches
    # a chunk, the fewest its microbatch_group_size_per_vp_stage accepts; PyTorch's ScheduleInterleaved1F1B runs 32
    # micro-batches in rounds of 16, the same count), then one more before its first backward: 141 layers'
    # activations. The first rank's 143 forwards hold 31 of its embedding-only chunk: 112 layers. With every
    # tensor kept 106.2 GB; with the recipe's light recomputation 77.6 GB
    plan = _llama3_plan("llama3-405b-8k", every_tensor)
    layer, states = _llama3_layer_and_stage_weights(64, every_tensor)
    expected = 141 * layer * (1 + memory.FRAGMENTATION_FRACTION) + states
    assert int(plan.virtual_stages) == 8 and float(memory.inflight_layers(126, 16, 8, 32)) == 141
    assert float(plan.memory_per_gpu_gb) == pytest.approx(expected / 1e9, rel=1e-6)
    assert (float(plan.memory_per_gpu_gb) > RECIPES["llama3-405b-8k"].usable_gb) == every_tensor


def test_light_recomputation_costs_its_recomputed_passes():
    # the backward writes the normalisations' outputs and the SwiGLU products again: a longer step than keeping
    # them, never a shorter one, and by less than 1 % (memory-bound passes beside a layer's GEMMs)
    runs = {r["id"]: r for r in validation.read_runs(validation.MODERN_CSV_PATH)}
    scen = validation.recipe_scenario(runs["llama3-405b-8k"])
    light = float(evaluate(scen, memory_limit=False).throughput.step_time_s[0])
    kept = float(evaluate(scen.replace_many({"workload.light_recompute": False}),
                          memory_limit=False).throughput.step_time_s[0])
    assert kept < light < 1.01 * kept


def test_memory_table_lists_the_recipes_that_ran_without_recomputation():
    assert set(RECIPES) >= {"llama3-405b-8k", "nemo-llama3-70b", "mbridge-llama31-405b", "mcore-mixtral-8x7b"}
    assert all(r.fits for r in RECIPES.values())
    # the recipes that fit by kernels keeping fewer tensors say what every tensor kept would need
    light = {i for i, r in RECIPES.items() if np.isfinite(r.every_tensor_gb)}
    assert {"llama3-405b-8k", "llama3-405b-16k"} <= light
    assert all(RECIPES[i].every_tensor_gb > RECIPES[i].estimate_gb for i in light)


def test_llama3_is_read_as_the_paper_states_it():
    runs = {r["id"]: r for r in validation.read_runs(validation.MODERN_CSV_PATH)}
    d = validation.run_to_scenario_dict(runs["llama3-405b-8k"])
    assert d["fabric"]["custom"]["run"]["qps_per_connection"] == 16  # §3.3.1: 16 flows per GPU pair
    assert d["workload"]["recompute"] == "none"  # §3.3.2: "without activation checkpointing"
    assert d["workload"]["grad_precision"] == "fp32"  # §3.3.2: reduce-scatter gradients in FP32
    assert d["workload"]["kv_heads"] == 8 and d["workload"]["ffn_hidden"] == 53248
    assert d["parallel"]["zero_stage"] == 1
    # no activation checkpointing; the layer keeps the normalisations' and the SwiGLU's inputs only
    assert d["workload"]["light_recompute"] is True
    # §3.3.2: one layer fewer on the first and last stage leaves the first chunk "only the embedding": one layer a
    # chunk, (126 + 2)/16 = 8 chunks a stage
    assert d["parallel"]["virtual_stages"] == 8


def test_twice_the_gpus_at_the_same_batch_lose_throughput_per_gpu(rows):
    # timed past the memory limit (the engine's estimate puts the recipe over 80 GB): the scaling alone
    runs = {r["id"]: r for r in validation.read_runs(validation.MODERN_CSV_PATH)}
    from model.scenario import scenario_from_dict
    tf = {i: float(evaluate(scenario_from_dict(validation.run_to_scenario_dict(runs[i])),
                            memory_limit=False).throughput.model_tflops_per_gpu[0]) for i in ("llama3-405b-8k", "llama3-405b-16k")}
    assert runs["llama3-405b-16k"]["value"] < runs["llama3-405b-8k"]["value"]
    assert tf["llama3-405b-16k"] < tf["llama3-405b-8k"]


def test_cli_validate_judges_the_modern_runs(capsys):
    assert cli.main(["validate"]) == 0
    out = capsys.readouterr().out
    assert "Modern runs" in out and "llama3-405b-16k" in out and "nemo-gpt3-175b-512" in out
    assert "memory: published recipes" in out and "fit without recomputation" in out
    assert "outside the tolerance" not in out
    moe = out.split("Mixture-of-experts runs")[1].split("runs: median")[0]
    assert "mcore-mixtral-8x7b" in moe and "OUTSIDE" not in moe and "deepseek-v3" in moe
    n = 18 + sum(not r["not_judged_because"] for p in (validation.MODERN_CSV_PATH, validation.MOE_CSV_PATH,
                                                      validation.SCALE_CSV_PATH)
                 for r in validation.read_runs(p))
    assert f"{n} runs: median" in out and "PASS" in out.split(f"{n} runs: median")[1].splitlines()[0]
    assert np.isfinite([r.engine for _, t in validation.validate_all() for r in t]).all()


@pytest.fixture(scope="module")
def moe_rows():
    return {r.id: r for r in validation.validate(validation.MOE_CSV_PATH)}


@pytest.mark.parametrize("path", [validation.CSV_PATH, validation.MODERN_CSV_PATH, validation.MOE_CSV_PATH,
                                  validation.SCALE_CSV_PATH])
def test_every_validation_row_has_exactly_its_header_columns(path):
    import csv
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert [i for i, r in enumerate(rows) if len(r) != len(rows[0])] == []


def test_mixture_of_experts_columns_are_read():
    # the judged modern table carries the MoE columns (empty for the dense rows: no experts reach the scenario)
    modern = validation.read_runs(validation.MODERN_CSV_PATH)
    assert {"experts", "top_k", "ep"} <= set(modern[0])
    assert all("experts" not in validation.run_to_scenario_dict(r)["workload"] for r in modern)
    runs = {r["id"]: r for r in validation.read_runs(validation.MOE_CSV_PATH)}
    d = validation.run_to_scenario_dict(runs["mcore-mixtral-8x7b"])
    assert (d["workload"]["experts"], d["workload"]["top_k"], d["parallel"]["ep"]) == (8, 2, 8)
    assert d["workload"]["kv_heads"] == 8 and d["workload"]["ffn_hidden"] == 14336


def test_mixtral_rows_are_evaluated_with_their_expert_parallelism(moe_rows):
    assert set(moe_rows) == {"mcore-mixtral-8x7b", "mcore-mixtral-8x22b", "deepseek-v3"}
    mixtral = [r for i, r in moe_rows.items() if i.startswith("mcore-mixtral")]
    assert all(np.isfinite(r.engine) and r.engine > 0 and "EP 8" in r.plan for r in mixtral)
    # MoE parallel folding: the 8x22B recipe's experts at expert TP 1 beside the attention's TP 2
    assert "TP 2" in moe_rows["mcore-mixtral-8x22b"].plan and "expert TP 1" in moe_rows["mcore-mixtral-8x22b"].plan
    # the experts cost time: the same run with one dense MLP of the same active width is faster per FLOP
    runs = {r["id"]: r for r in validation.read_runs(validation.MOE_CSV_PATH)}
    from model.engine import evaluate
    from model.scenario import scenario_from_dict
    d = validation.run_to_scenario_dict(runs["mcore-mixtral-8x7b"])
    d["workload"].update(experts=None, top_k=None, ffn_hidden=2 * 14336)
    d["parallel"].pop("ep")
    dense = float(evaluate(scenario_from_dict(d), memory_limit=False).throughput.model_tflops_per_gpu[0])
    assert dense > moe_rows["mcore-mixtral-8x7b"].engine


def test_mixture_of_experts_rows_are_judged_within_the_tolerance(moe_rows):
    # every row is judged: the MoE terms (imbalance, permutation, expert TP) and H100's BF16 efficiency refitted on
    # dense runs bring the Mixtral rows within the tolerance; a row the engine stops meeting must say why
    assert all(not r.not_judged_because for r in moe_rows.values())
    bad = [(i, round(r.error, 3)) for i, r in moe_rows.items() if abs(r.error) > validation.ROW_TOLERANCE]
    assert not bad


def test_mixtral_flops_are_counted_as_megatron_core_logs_them():
    # Megatron-LM training.py num_floating_point_operations (the TFLOP/s its throughput log prints):
    # 12·B·s·L·h²·((1 + g/a + s/h) + (f/h)·K·3/2 + V/(2·L·h)) with K routed experts and SwiGLU
    runs = {r["id"]: r for r in validation.read_runs(validation.MOE_CSV_PATH)}
    r = runs["mcore-mixtral-8x7b"]
    B, s, L, h, a, V = (float(r[k]) for k in ("global_batch", "seq_len", "layers", "hidden", "heads", "vocab"))
    g, f, K = float(r["kv_heads"]), float(r["ffn_hidden"]), float(r["top_k"])
    megatron = 12 * B * s * L * h**2 * ((1 + g / a + s / h) + f / h * K * 1.5 + V / (2 * L * h))
    from model.engine import evaluate
    from model.scenario import scenario_from_dict
    res = evaluate(scenario_from_dict(validation.run_to_scenario_dict(r)), memory_limit=False)
    engine = float(res.throughput.model_tflops_per_gpu[0]) * 1e12 * float(res.throughput.step_time_s[0]) * int(r["gpus"])
    assert engine == pytest.approx(megatron, rel=1e-9)
