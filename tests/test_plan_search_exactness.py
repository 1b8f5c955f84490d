"""The fast plan search (pruning by the slowest fabric, shared pairs, cached geometry) gives the plans and step
times of a brute-force search that times every (recompute, ZeRO stage) choice the search keeps, bit for bit."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import model
from model import engine, sweep

PRESETS = ("default", "tier_small", "case2_autodriving_24xA100_30B", "moe_mixtral_8x22b", "moe_deepseek_v3_shape")
SWEEPS = {
    "cluster.nodes": np.array([1, 2, 3, 8, 24, 64, 100, 200, 512, 1024, 4096]),
    "fabric.latency_us": np.geomspace(0.5, 1000, 9),
    "workload.global_batch": np.array([64, 96, 256, 1000, 1152, 4096]),
    "workload.seq_len": np.array([2048, 8192, 32768, 131072]),
    "workload.params_b": np.array([1.0, 7.0, 13.0, 70.0, 175.0, 400.0]),
    "topology.oversubscription": np.array([1.0, 2.0, 4.0]),
}


def _brute_force(monkeypatch):
    """Time every (point, plan) pair whose degrees are possible and that fits: no pruning by a bound."""
    def keep_all(pairs, bw, lat, slow):
        return None, pairs.ni, pairs.cs, pairs.starts, pairs.seg_of_pair, pairs.dp_overlap, slow

    def keep_all_shared(pairs, bw, lat, congestion):
        return None, pairs.cs, pairs.dp_overlap
    monkeypatch.setattr(engine, "_pairs_that_can_win", keep_all)
    monkeypatch.setattr(engine, "_shared_pairs_that_can_win", keep_all_shared)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("field", list(SWEEPS))
def test_the_fast_plan_search_matches_a_brute_force_search(monkeypatch, preset, field):
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    if field == "workload.params_b" and s.workload.experts and s.workload.experts > 1:
        pytest.skip("a mixture-of-experts preset fixes its architecture, not a dense model size")
    x = SWEEPS[field]
    engine.clear_plan_cache()
    try:
        fast = sweep(s, field, x)
        with monkeypatch.context() as m:
            _brute_force(m)
            engine.clear_plan_cache()
            slow = sweep(s, field, x)
    finally:
        engine.clear_plan_cache()
    assert np.any(fast["feasible"])  # a comparison of nothing would prove nothing
    np.testing.assert_array_equal(fast["feasible"], slow["feasible"])
    for k in engine.PLAN_ARRAY_KEYS:
        np.testing.assert_array_equal(fast["plan"][k], slow["plan"][k], err_msg=k)
    for k in ("step_time_s", "tokens_per_s", "memory_per_gpu_gb"):
        np.testing.assert_array_equal(fast[k], slow[k], err_msg=k)


def _cheapest_reference(ok, n_r, n_z):
    """The ZeRO/recompute choice rule written plainly: per group and recompute kind the first fitting stage, kept
    if every lighter kind's first fitting stage is higher."""
    keep = np.zeros_like(ok)
    for i in range(ok.shape[0]):
        for g in range(ok.shape[1] // (n_r * n_z)):
            best_lighter = n_z
            for r in range(n_r):
                cols = [g * n_r * n_z + r * n_z + z for z in range(n_z)]
                z_min = next((z for z in range(n_z) if ok[i, cols[z]]), n_z)
                if z_min < best_lighter:
                    keep[i, cols[z_min]] = True
                best_lighter = min(best_lighter, z_min)
    return keep


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(2, 3), (3, 4), (1, 3), (3, 1), (2, 2)]), st.integers(1, 4), st.integers(1, 5),
       st.randoms(use_true_random=False))
def test_the_zero_and_recompute_choice_keeps_what_the_plain_rule_keeps(shape, points, groups, rnd):
    n_r, n_z = shape
    ok = np.array([[rnd.random() < 0.5 for _ in range(groups * n_r * n_z)] for _ in range(points)])
    s = model.load_scenario("assets/presets/default.toml")
    zs, rcs = (0, 1, 2, 3)[:n_z], (0, 1, 2)[:n_r]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(engine, "_zero_stages", lambda s: zs)
        m.setattr(engine, "_recompute_kinds", lambda s: rcs)
        got = engine._cheapest_that_fit(ok, s)
    np.testing.assert_array_equal(got, _cheapest_reference(ok, n_r, n_z) if n_r * n_z > 1 else ok)
