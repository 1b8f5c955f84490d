"""The fabric gap of a mixture-of-experts run against its dense twin (model.moe_gap, fabric-whatif moe-gap)."""

import json

import numpy as np
import pytest

from gui.cli import main as cli
from model import ScenarioError, load_scenario, moe_gap

MIXTRAL = "assets/presets/moe_mixtral_8x22b.toml"
DEEPSEEK = "assets/presets/moe_deepseek_v3_shape.toml"


def test_mixtrals_dense_twin_is_the_dense_preset():
    twin = moe_gap.dense_twin(load_scenario(MIXTRAL))
    dense = load_scenario("assets/presets/moe_dense_39b.toml").workload
    for key in ("layers", "hidden", "heads", "kv_heads", "ffn_hidden", "experts", "top_k", "seq_len",
                "global_batch"):
        assert getattr(twin.workload, key) == getattr(dense, key), key
    assert twin.workload.params_b == pytest.approx(dense.params_b, rel=0.01)  # 39 B active


def test_the_gap_is_wider_for_moe_when_experts_span_nodes():
    gap = moe_gap.fabric_gap(load_scenario(DEEPSEEK))
    f = list(gap["fabrics"])
    assert gap["moe_slowdown"][f.index("infiniband")] == 0.0
    assert gap["moe_slowdown"][f.index("roce")] > gap["dense_slowdown"][f.index("roce")] + 0.05


def test_a_dense_scenario_is_refused_by_name(capsys):
    with pytest.raises(ScenarioError) as e:
        moe_gap.dense_twin(load_scenario("assets/presets/moe_dense_39b.toml"))
    assert "workload.experts" in str(e.value)
    assert cli.main(["moe-gap", "assets/presets/moe_dense_39b.toml"]) == 2
    assert "workload.experts" in capsys.readouterr().err


def test_cli_json_along_the_gap(capsys):
    assert cli.main(["moe-gap", DEEPSEEK, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["fabrics"] == ["ethernet", "roce", "iwarp", "infiniband"]
    assert np.all(np.isfinite(doc["moe_slowdown"])) and doc["gap"][1] > 0
    assert cli.main(["moe-gap", DEEPSEEK]) == 0
    assert "dense ÷ best" in capsys.readouterr().out


def test_gap_along_a_sweep_has_one_value_per_point():
    gap = moe_gap.fabric_gap(load_scenario(DEEPSEEK), "cluster.nodes", [128, 256])
    assert np.shape(gap["moe_slowdown"]) == (4, 2) and np.all(np.isfinite(gap["gap"]))


@pytest.mark.parametrize("preset", [DEEPSEEK, MIXTRAL])
def test_the_breakdown_shows_the_expert_all_to_all_and_sums_to_the_step(preset):
    from model import BREAKDOWN_KEYS, evaluate

    res = evaluate(load_scenario(preset))
    total = sum(np.asarray(getattr(res.breakdown, k)) for k in BREAKDOWN_KEYS)
    np.testing.assert_allclose(total, res.throughput.step_time_s, rtol=1e-9)
    ep = np.asarray(res.breakdown.ep_comm)
    assert np.all(ep > 0)
    if preset == DEEPSEEK:  # experts over 8 nodes: the all-to-all crosses the fabric, slower on RoCE than on IB
        f = list(res.fabrics)
        assert ep[f.index("roce")] > ep[f.index("infiniband")]
    twin = evaluate(moe_gap.dense_twin(load_scenario(preset)))
    assert np.all(np.asarray(twin.breakdown.ep_comm) == 0.0)


def test_expert_parallel_overlap_hides_the_all_to_all_across_nodes():
    """DualPipe-style overlap: the fabric part of the all-to-all hides behind another micro-batch's compute."""
    import dataclasses

    from model import evaluate

    base = load_scenario(DEEPSEEK)
    plan = dict(tp=2, pp=2, virtual_stages=1, ep=64, zero_stage=1)
    wl = dataclasses.replace(base.workload, micro_batch=1, recompute="full")
    runs = {ov: evaluate(dataclasses.replace(base, workload=wl, parallel=dataclasses.replace(
        base.parallel, mode="explicit", ep_overlap=ov, **plan))) for ov in (False, True)}
    off, on = runs[False], runs[True]
    np.testing.assert_allclose(on.breakdown.compute, off.breakdown.compute)
    f = list(on.fabrics)
    for fab in ("roce", "infiniband"):
        i = f.index(fab)
        assert on.breakdown.ep_comm[i] < 0.7 * off.breakdown.ep_comm[i]
        assert on.throughput.step_time_s[i] < off.throughput.step_time_s[i]
    # the NVLink part stays: never below the in-node all-to-all
    assert np.all(np.asarray(on.breakdown.ep_comm) > 0)
