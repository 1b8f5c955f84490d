"""Modern published runs (assets/validation/modern_runs.csv) are judged with the Megatron-LM rows' tolerance."""

import numpy as np
import pytest

from gui import cli
from model import validation


@pytest.fixture(scope="module")
def rows():
    return validation.validate(validation.MODERN_CSV_PATH)


def test_modern_rows_are_judged_within_the_row_tolerance(rows):
    assert len(rows) >= 6
    bad = [(r.id, round(r.error, 3)) for r in rows if abs(r.error) > validation.ROW_TOLERANCE]
    assert not bad
    every = [r for _, table in validation.validate_all() for r in table]
    assert len(every) == len(rows) + 18 and validation.summary(every)["passed"]


def test_llama3_is_read_as_the_paper_states_it():
    runs = {r["id"]: r for r in validation.read_runs(validation.MODERN_CSV_PATH)}
    d = validation.run_to_scenario_dict(runs["llama3-405b-8k"])
    assert d["fabric"]["custom"]["run"]["qps_per_connection"] == 16  # §3.3.1: 16 flows per GPU pair
    assert d["workload"]["recompute"] == "none"  # §3.3.2: "without activation checkpointing"
    assert d["workload"]["grad_precision"] == "fp32"  # §3.3.2: reduce-scatter gradients in FP32
    assert d["workload"]["kv_heads"] == 8 and d["workload"]["ffn_hidden"] == 53248
    assert d["parallel"]["zero_stage"] == 1


def test_twice_the_gpus_at_the_same_batch_lose_throughput_per_gpu(rows):
    by_id = {r.id: r for r in rows}
    small, big = by_id["llama3-405b-8k"], by_id["llama3-405b-16k"]
    assert big.published < small.published and big.engine < small.engine


def test_llama3_without_the_papers_recipe_misses(rows):
    # the old reading (full recomputation) is what the engine missed by about a fifth: the recipe matters
    runs = {r["id"]: r for r in validation.read_runs(validation.MODERN_CSV_PATH)}
    from model.engine import evaluate
    from model.scenario import scenario_from_dict
    d = validation.run_to_scenario_dict(runs["llama3-405b-8k"])
    d["workload"]["recompute"] = "full"
    full = float(evaluate(scenario_from_dict(d))["model_tflops_per_gpu"][0])
    by_id = {r.id: r for r in rows}
    assert full < 0.85 * by_id["llama3-405b-8k"].engine


def test_cli_validate_judges_the_modern_runs(capsys):
    assert cli.main(["validate"]) == 0
    out = capsys.readouterr().out
    assert "Modern runs" in out and "llama3-405b-16k" in out and "nemo-gpt3-175b-512" in out
    assert "outside the tolerance" not in out
    n = 18 + len(validation.read_runs(validation.MODERN_CSV_PATH))
    assert f"{n} runs: median" in out and "PASS" in out.split(f"{n} runs: median")[1].splitlines()[0]
    assert np.isfinite([r.engine for _, t in validation.validate_all() for r in t]).all()
