"""The fast plan search (the (recompute, ZeRO stage) choice, pruning by the slowest fabric, shared pairs, cached
geometry) gives the plans and step times of a brute-force search over every candidate plan, bit for bit."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import model
from model import arrays, engine, plan_fit, plan_search, step_time, sweep
from plan_brute_force import brute_force_plans  # tests/plan_brute_force.py

PRESETS = ("default", "tier_small", "case2_autodriving_24xA100_30B", "moe_mixtral_8x22b", "moe_deepseek_v3_shape")
SWEEPS = {
    "cluster.nodes": np.array([1, 2, 3, 8, 24, 64, 100, 200, 512, 1024, 4096]),
    "fabric.latency_us": np.geomspace(0.5, 1000, 9),
    "workload.global_batch": np.array([64, 96, 256, 1000, 1152, 4096]),
    "workload.seq_len": np.array([2048, 8192, 32768, 131072]),
    "workload.params_b": np.array([1.0, 7.0, 13.0, 70.0, 175.0, 400.0]),
    "topology.oversubscription": np.array([1.0, 2.0, 4.0]),
}


def _assert_search_is_exact(s, field, x, some_fit=True):
    engine.clear_plan_cache()
    try:
        fast = sweep(s, field, x)
    finally:
        engine.clear_plan_cache()
    plan, step = brute_force_plans(s, field, x)
    found = np.isfinite(step)
    assert np.any(found) or not some_fit  # a comparison of nothing would prove nothing
    np.testing.assert_array_equal(fast.plan.feasible, found)
    for k in engine.PLAN_ARRAY_KEYS + ("dp",):
        np.testing.assert_array_equal(getattr(fast.plan, k), plan[k], err_msg=k)
    np.testing.assert_array_equal(fast.throughput.step_time_s, step)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("field", list(SWEEPS))
def test_the_fast_plan_search_matches_a_brute_force_search(preset, field):
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    if field == "workload.params_b" and s.workload.experts and s.workload.experts > 1:
        pytest.skip("a mixture-of-experts preset fixes its architecture, not a dense model size")
    _assert_search_is_exact(s, field, SWEEPS[field])


@pytest.mark.parametrize("preset", ["default", "tier_small", "case2_autodriving_24xA100_30B"])
@pytest.mark.parametrize("probe_min_options", [0, 10 ** 9])
def test_the_fewer_replicas_pass_is_exact_with_and_without_its_probe(preset, probe_min_options, monkeypatch):
    """The second pass times its options after a probe where they are many (a long model-size sweep), else all
    in one geometry: either way a brute-force search's plans, here on a short model-size sweep made to take
    each way."""
    monkeypatch.setattr(plan_search.fewer, "PROBE_MIN_OPTIONS", probe_min_options)
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    _assert_search_is_exact(s, "workload.params_b", SWEEPS["workload.params_b"])


@pytest.mark.parametrize("changes", [{}, {"topology.oversubscription": 4.0}, {"parallel.zero_stage": 2},
                                     {"workload.recompute": "full"}, {"parallel.distributed_optimizer": False}])
def test_the_search_is_exact_over_zero_stages_and_recompute_kinds(changes):
    """Every ZeRO stage that fits is timed: a higher stage can be the fastest (ZeRO-2's reduce-scatters per
    micro-batch overlap what ZeRO-1's one all-reduce leaves exposed), here on the Mixtral preset's nodes."""
    s = model.load_scenario("assets/presets/moe_mixtral_8x22b.toml").replace_many(changes)
    _assert_search_is_exact(s, "cluster.nodes", np.unique(np.round(np.geomspace(4, 1024, 24))))


def test_a_higher_zero_stage_wins_somewhere():
    """The case the exactness above guards: the fastest plan's ZeRO stage is not the lowest that fits."""
    s = model.load_scenario("assets/presets/moe_mixtral_8x22b.toml")
    res = sweep(s, "cluster.nodes", np.unique(np.round(np.geomspace(4, 1024, 24))))
    assert np.nanmax(res.plan.zero_stage) >= 2


def _worth_reference(fits):
    """The (recompute, ZeRO stage) rule written plainly: at each stage, the lightest recompute kind that fits."""
    keep = np.zeros_like(fits)
    for idx in np.ndindex(fits.shape[:-2]):
        for zi in range(fits.shape[-1]):
            kinds = [ri for ri in range(fits.shape[-2]) if fits[idx + (ri, zi)]]
            if kinds:
                keep[idx + (kinds[0], zi)] = True
    return keep


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(2, 3), (3, 4), (1, 3), (3, 1), (2, 2)]), st.integers(1, 4), st.integers(1, 5),
       st.randoms(use_true_random=False))
def test_the_zero_and_recompute_choice_keeps_what_the_plain_rule_keeps(shape, points, groups, rnd):
    n_r, n_z = shape
    fits = np.array([rnd.random() < 0.5 for _ in range(points * groups * n_r * n_z)]).reshape(
        points * groups, n_r, n_z)
    np.testing.assert_array_equal(plan_search.candidates.stages_worth_timing(fits), _worth_reference(fits))


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["default", "tier_small", "moe_mixtral_8x22b", "case3_centre_128xH100_1T"]),
       st.sampled_from(["A100-SXM-80GB", "H100-SXM", "A10"]), st.sampled_from([4, 8]),
       st.sampled_from([1.0, 3.0]), st.sampled_from([512, 1536]), st.sampled_from([2048, 16384]),
       st.sampled_from(["cluster.nodes", "fabric.latency_us", "workload.global_batch"]))
def test_the_fast_plan_search_matches_a_brute_force_search_on_mixed_scenarios(preset, gpu, gpus_per_node,
                                                                                oversubscription, batch, seq_len,
                                                                                field):
    s = model.load_scenario(f"assets/presets/{preset}.toml").replace_many({
        "cluster.gpu": gpu, "cluster.gpus_per_node": gpus_per_node, "topology.oversubscription": oversubscription,
        "workload.global_batch": batch, "workload.seq_len": seq_len})
    x = {"cluster.nodes": np.array([1, 5, 16, 48, 130, 700]), "fabric.latency_us": np.array([0.8, 30.0, 400.0]),
         "workload.global_batch": np.array([128, 384, 2048])}[field]
    _assert_search_is_exact(s, field, x, some_fit=False)




@pytest.mark.parametrize("field,values", [
    ("fabric.latency_us", np.geomspace(0.5, 1000, 7)),
    ("workload.params_b", np.array([1.0, 30.0, 175.0, 1000.0])),  # the largest does not fit: gaps
    ("cluster.gpus_per_node", np.array([2, 4, 8])),
    ("workload.seq_len", np.array([1024, 8192, 65536])),
])
def test_a_plan_the_scenario_fixes_whole_evaluates_as_its_search_would(field, values, monkeypatch):
    """Every plan choice given: the engine evaluates that plan directly instead of searching one candidate;
    every output is the search's, bit for bit, gaps included."""
    s = model.load_scenario("assets/presets/default.toml").replace_many({
        "parallel.mode": "explicit", "parallel.tp": 8, "parallel.pp": 1, "workload.global_batch": 1152,
        "workload.micro_batch": 1, "workload.recompute": "selective", "parallel.zero_stage": 1,
        "parallel.virtual_stages": 1})
    engine.clear_plan_cache()
    direct = sweep(s, field, values)
    monkeypatch.setattr(engine, "_the_only_plan", lambda scenario: None)
    engine.clear_plan_cache()
    searched = sweep(s, field, values)
    engine.clear_plan_cache()
    assert np.any(direct.plan.feasible)
    for (name, a), (_, b) in zip(direct.arrays(), searched.arrays()):
        np.testing.assert_array_equal(a, b, err_msg=name)


@pytest.mark.parametrize("preset,field,values", [
    ("default", "workload.params_b", np.geomspace(1, 1000, 256)),
    ("case3_centre_128xH100_1T", "workload.params_b", np.geomspace(50, 2000, 64)),
    ("moe_mixtral_8x22b", "workload.seq_len", np.array([4096, 8192, 16384, 32768, 65536])),
])
def test_plan_terms_on_the_grid_of_distinct_layers_are_those_of_each_plan(preset, field, values):
    """The plan search computes one layer's terms once per distinct (model up to its layer count, tp, micro-batch,
    recompute, cp, ep) and reads them at each (point, plan): every term is that of the plan at its point, bit for
    bit."""
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    pt = engine.build_inputs(s, field, values).point
    plans = plan_search.plan_candidates(s, pt)
    t, p, b, v, r, z, c, e = plans
    ptc = {k: arrays.cut_constant_points(pt[k], 0) for k in step_time.PLAN_SIDE_POINT_KEYS}
    classes = arrays.distinct_rows([x for k, x in ptc.items() if k != "layers" and x.size > 1], values.size)[0]
    kinds = arrays.distinct_rows([t, b, r, c, e], t.size)[0]
    assert 1 < classes.size < values.size or field != "workload.params_b"  # models that differ in layers only
    n = max(plan_fit.GRID_MIN_ENTRIES, 4 * classes.size * kinds.size)  # enough entries for the grid to be taken
    rng = np.random.default_rng(7)
    at, ci = rng.integers(0, values.size, n), rng.integers(0, t.size, n)
    grouped = plan_search.pairs.plan_side_at(ptc, at, (t, p, b, v, r, c, e), ci)
    with np.errstate(divide="ignore", invalid="ignore"):
        each = step_time.plan_side_terms({k: x[at] for k, x in pt.items()}, t[ci], p[ci], b[ci], v[ci], r[ci], c[ci],
                                         e[ci])
    assert grouped.keys() == each.keys()
    for k, x in each.items():
        np.testing.assert_array_equal(grouped[k], np.broadcast_to(x, (n,)), err_msg=k)


@pytest.mark.parametrize("preset", ["default", "moe_mixtral_8x22b", "moe_deepseek_v3_shape",
                                    "llama3_405b_16k_h100"])
def test_plan_terms_of_one_model_once_per_distinct_layer_plan_are_those_of_each_plan(preset):
    """Few entries of one model (every point input one value): the plan side computes one layer's terms once per
    distinct (tp, micro-batch, recompute, cp, ep) and reads them at each entry: every term is that of the plan
    itself, bit for bit, entries repeated and in any order."""
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    pt = engine.build_inputs(s, "fabric.latency_us", np.array([1.0, 2.0])).point
    t, p, b, v, r, z, c, e = plan_search.plan_candidates(s, pt)
    ptc = {k: arrays.cut_constant_points(pt[k], 0)[:1] for k in step_time.PLAN_SIDE_POINT_KEYS}
    rng = np.random.default_rng(11)
    for n in (1, 7, min(t.size, plan_fit.GRID_MIN_ENTRIES - 1)):
        ci = rng.integers(0, t.size, n)
        grouped = plan_search.pairs.plan_side_at(ptc, np.zeros(n, dtype=int), (t, p, b, v, r, c, e), ci)
        with np.errstate(divide="ignore", invalid="ignore"):
            each = step_time.plan_side_terms(ptc, t[ci], p[ci], b[ci], v[ci], r[ci], c[ci], e[ci])
        assert grouped.keys() == each.keys()
        for k, x in each.items():
            np.testing.assert_array_equal(grouped[k], np.broadcast_to(x, (n,)), err_msg=f"{preset} {n} {k}")


def test_memory_terms_on_the_grid_of_distinct_layers_are_those_of_each_plan():
    """The plan search's memory of each (point, degrees) pair of a model-size sweep, its layer terms computed once
    per distinct (model up to its layer count, tp, micro-batch, cp, ep): that of the plan at its point, bit for
    bit, every recompute kind."""
    s = model.load_scenario("assets/presets/default.toml")
    values = np.geomspace(1, 1000, 256)
    pt = engine.build_inputs(s, "workload.params_b", values).point
    t, p, b, v, r, z, c, e = plan_search.plan_candidates(s, pt)
    rs = np.array([0.0, 1.0, 2.0])
    ptc = {k: arrays.cut_constant_points(pt[k], 0) for k in plan_search.PLAN_POINT_KEYS}
    n = 4 * plan_fit.GRID_MIN_ENTRIES
    rng = np.random.default_rng(11)
    at, ci = rng.integers(0, values.size, n), rng.integers(0, t.size, n)
    cols = (t, b, c, e)
    assert (arrays.distinct_rows([ptc["hidden"]], values.size)[0].size
            * arrays.distinct_rows(list(cols), t.size)[0].size * 4 <= n)  # the grid is taken
    layer = plan_search.pairs.layer_terms(ptc, plan_fit.LAYER_MEMORY_POINT_KEYS, at, cols, ci,
                                lambda q, tt, bb, cc, ee: plan_fit.layer_memory(q, tt, bb, rs, cc, ee),
                                trailing=rs.shape)
    pt_at = {k: x[at][:, None] for k, x in pt.items()}
    plan = [x[ci][:, None] for x in (t, p, b, v)]
    grouped = plan_fit.stage_memory(pt_at, *plan, rs, c[ci][:, None], e[ci][:, None], layer=layer)
    each = plan_fit.stage_memory(pt_at, *plan, rs, c[ci][:, None], e[ci][:, None])
    assert grouped.keys() == each.keys()
    for k, x in each.items():
        np.testing.assert_array_equal(np.broadcast_to(grouped[k], np.broadcast_shapes(np.shape(x), (n, 1))),
                                      np.broadcast_to(x, np.broadcast_shapes(np.shape(x), (n, 1))), err_msg=k)


@pytest.mark.parametrize("x,axis,cut", [
    (np.array([[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]), 0, True),
    (np.array([[1.0, 2.0], [5.0, 2.0], [1.0, 2.0]]), 0, False),  # the ends alike, a middle point not
    (np.array([[np.nan], [np.nan]]), 0, True),  # NaN is the same value as NaN
    (np.array([[0.0], [-0.0]]), 0, False),  # -0.0 is not 0.0
    (np.array([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]), 1, True),
    (np.array([[1.0, 1.0, 3.0], [2.0, 2.0, 2.0]]), 1, False),
    (np.array([3.0, 3.0, 3.0]), 0, True),
    (np.array([3.0, 4.0, 3.0]), 0, False),
    (np.broadcast_to(np.array([[7.0, -0.0]]), (4, 2)), 0, True),  # a broadcast view: one value along the points
    (np.broadcast_to(np.array([[7.0], [8.0]]), (2, 5)), 1, True),
    (np.broadcast_to(np.array([[7.0], [8.0]]), (2, 5)), 0, False),  # broadcast along the other axis only
    (np.broadcast_to(np.array([-0.0]), (3,)), 0, True),
])
def test_a_value_the_same_at_every_point_is_kept_once(x, axis, cut):
    out = arrays.cut_constant_points(x, axis)
    assert out.shape[axis] == (1 if cut else x.shape[axis])
    np.testing.assert_array_equal(np.broadcast_to(out, x.shape), x)


@pytest.mark.parametrize("stages", [(1.0, 2.0, 3.0), (0.0,), (2.0,), (0.0, 1.0, 3.0)])
def test_the_zero_stage_terms_of_many_plans_a_stage_at_a_time_are_those_of_each_plan(stages):
    """The plan search computes the ZeRO-stage terms of many plans against a row of stages one stage at a time:
    every output is that of the plans and stages taken together, bit for bit, data parallelism or none."""
    s = model.load_scenario("assets/presets/default.toml")
    values = np.geomspace(1, 1000, 64)
    pt = engine.build_inputs(s, "workload.params_b", values).point
    t, p, b, v, r, z, c, e = plan_search.plan_candidates(s, pt)
    n = 2 * plan_fit.GRID_MIN_ENTRIES
    rng = np.random.default_rng(5)
    at, ci = rng.integers(0, values.size, n), rng.integers(0, t.size, n)
    pt_at = {k: x[at][:, None] for k, x in pt.items()}
    plan = [x[ci][:, None] for x in (t, p, b, v, r)]
    zs = np.array(stages)
    with np.errstate(divide="ignore", invalid="ignore"):
        d, m = plan_fit.data_parallel_replicas(pt_at, *plan[:3], True, c[ci][:, None])
        assert np.any(d * c[ci][:, None] > 1) and np.any(d * c[ci][:, None] <= 1)  # sharded and not
        by_stage = step_time.compute_side(pt_at, *plan, zs[None, :], True, c=c[ci][:, None], e=e[ci][:, None])
        together = step_time.compute_side(pt_at, *plan, np.broadcast_to(zs, (n, zs.size)), True, c=c[ci][:, None],
                                        e=e[ci][:, None])
    assert by_stage.keys() == together.keys()
    for k in ("opt", "dp_volume", "window", "zero", "dist"):
        np.testing.assert_array_equal(np.broadcast_to(by_stage[k], together[k].shape), together[k], err_msg=k)
    # where every stage shards, the optimizer step is the same at each: held once, one column
    assert by_stage["opt"].shape == (n, 1 if min(stages) >= 1 else len(stages))
    for k, x in together.items():
        np.testing.assert_array_equal(np.broadcast_to(by_stage[k], np.shape(x)), x, err_msg=k)


def test_the_search_is_exact_where_one_layer_chunks_are_candidates():
    """Llama 3's 126 layers asked for 8 chunks a stage: the paper's 16 stages of one-layer chunks (with the
    embedding's and the loss's chunks, 128) are among the candidates the fast search times, and it finds the plans
    the brute-force search does, that pipeline among them."""
    s = model.load_scenario("assets/presets/llama3_405b_16k_h100.toml").replace("parallel.virtual_stages", 8)
    x = np.array([256.0, 1024.0, 2048.0])
    _assert_search_is_exact(s, "cluster.nodes", x)
    assert np.any(sweep(s, "cluster.nodes", x).plan.pp == 16)
