"""The plan search's rows take the same data-parallel geometry and the same lower bound as the direct
expressions do, bit for bit, where the engine computes them per distinct value or skips a reduction."""

import numpy as np
import pytest

import model
from model import arrays, engine, plan_fit, plan_search, step_time
from model.collectives import NCCL_BASE_US, NCCL_NVLINK_STEP_US, bus_factor, collective_time, ring_steps, tree_steps


def _reference_geometry(pt, t, p, d, ps):
    """The data-parallel geometry of :func:`step_time.compute_side` as the collective functions give it: a node
    holds ``gpn/(t·p)`` ranks of a data-parallel group where a whole pipeline fits in it, else ``gpn/t``."""
    gpn = pt["gpus_per_node"]
    inside = (p == 1) | (np.mod(gpn, t * p) == 0)
    g_dp = np.minimum(np.maximum(d, 1.0), np.maximum(np.floor(gpn / np.where(inside, t * p, t)), 1.0))
    n_dp = np.ceil(d / g_dp)
    buckets, per_bucket = ps["buckets"], ps["per_bucket"]
    rs = collective_time("reduce_scatter", per_bucket, g_dp, pt["intra_busbw"], NCCL_NVLINK_STEP_US * 1e-6)
    intra_bw = buckets * 2.0 * per_bucket * bus_factor("reduce_scatter", g_dp) / pt["intra_busbw"]
    intra = buckets * (rs + rs) - intra_bw
    has_inter = n_dp > 1
    steps = np.minimum(ring_steps("all_reduce", n_dp), tree_steps("all_reduce", n_dp))
    return dict(n_dp=n_dp, dp_intra_bw=intra_bw, dp_k0=intra + buckets * has_inter * NCCL_BASE_US * 1e-6,
                dp_k1=buckets * has_inter * steps,
                dp_k2=buckets * has_inter * (per_bucket / g_dp) * bus_factor("all_reduce", n_dp) * gpn)


@pytest.mark.parametrize("rows", [7, 5000])  # below and above the size the geometry is computed per value from
def test_the_rows_data_parallel_geometry_is_that_of_the_collective_functions(rows):
    s = model.load_scenario("assets/presets/default.toml")
    pt = {k: np.asarray(x)[:1][:, None] for k, x in engine.build_inputs(s).point.items()}
    rng = np.random.default_rng(7)
    t = rng.choice([1.0, 2.0, 4.0, 8.0], (rows, 1))
    p = rng.choice([1.0, 2.0, 4.0, 16.0], (rows, 1))
    b = rng.choice([1.0, 2.0], (rows, 1))
    d = np.floor(rng.uniform(0.0, 40.0, (rows, 1)))  # whole replicas, none (0) included
    m = np.full((rows, 1), 8.0)
    ps = dict(params_gpu=rng.uniform(1e8, 1e10, (rows, 1)), window=rng.uniform(0.1, 1.0, (rows, 1)),
              fwd_window=rng.uniform(0.1, 1.0, (rows, 1)), logits=rng.uniform(0.0, 0.1, (rows, 1)))
    ps["buckets"] = np.maximum(np.ceil(ps["params_gpu"] * 4.0 / 25e6), 1.0)
    ps["per_bucket"] = ps["params_gpu"] * 4.0 / ps["buckets"]
    with np.errstate(divide="ignore"):
        cs = step_time.compute_side(pt, t, p, b, 1.0, 0.0, np.array([[1.0, 2.0, 3.0]]), True, plan_side=ps,
                                  replicas=(d, m), search=True)
    for k, want in _reference_geometry(pt, t, p, d, ps).items():
        np.testing.assert_array_equal(np.broadcast_to(cs[k], want.shape), want, err_msg=k)
        assert np.broadcast_to(cs[k], want.shape).tobytes() == want.tobytes(), k


def test_values_computed_per_whole_number_are_those_of_each_entry():
    x = np.floor(np.random.default_rng(3).uniform(0.0, 300.0, (4096, 1)))
    fn = step_time.all_reduce_terms
    for got, want in zip(step_time.at_whole_values(x, fn), fn(x)):
        assert got.shape == want.shape and got.tobytes() == want.tobytes()
    halves = x + 0.5  # not whole numbers: computed at each entry
    for got, want in zip(step_time.at_whole_values(halves, fn), fn(halves)):
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("odd", [np.nan, np.inf, -np.inf, 5000.0])
def test_values_of_whole_numbers_by_construction_are_those_of_each_entry(odd):
    """Told its numbers are whole where finite (a ceil's), the lookup checks their range only: a NaN, an infinity
    or a number beyond the table falls back to each entry."""
    x = np.ceil(np.random.default_rng(4).uniform(0.0, 300.0, (4096, 1)))
    fn = step_time.all_reduce_terms
    for values in (x, np.where(np.arange(4096)[:, None] == 17, odd, x)):
        with np.errstate(invalid="ignore"):  # an infinite number of ranks: inf / inf in the bus factor
            pairs = list(zip(step_time.at_whole_values(values, fn, whole=True), fn(values)))
        for got, want in pairs:
            assert got.shape == want.shape and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("preset,field,values,own_kind,changes", [
    ("default", "workload.params_b", np.geomspace(1, 1000, 96), True, {}),
    ("default", "workload.params_b", np.geomspace(1, 1000, 96), True, {"parallel.zero_stage": 2}),
    ("default", "fabric.latency_us", np.geomspace(0.5, 1000, 40), False, {}),
])
def test_the_lower_bound_with_one_optimizer_column_is_the_masked_minimum_over_the_stages(preset, field, values,
                                                                                         own_kind, changes):
    """Where every stage shards the optimizer step alike, held in one column, the bound takes that column: the same
    table as the minimum over the stages worth timing of the step repeated at each stage."""
    s = model.load_scenario(f"assets/presets/{preset}.toml").replace_many(changes)
    engine.clear_plan_cache()
    inp = engine.build_inputs(s, field, values, fabric_points_cut=True)
    pairs = plan_search.plan_pairs(s, inp.point)
    engine.clear_plan_cache()
    assert pairs.bound is not None
    kind = None if own_kind else pairs.kind
    opt = np.asarray(pairs.cs["opt"])
    assert (opt == opt[:, :1]).all()  # no stage 0 among those searched: every stage shards it alike
    args = (pairs.allowed, pairs.sequences, kind, pairs.cs_kind)
    masked = plan_search.bounds.bound_coefficients(dict(pairs.cs, opt=np.broadcast_to(opt[:, :1], pairs.allowed.shape)),
                                                   *args)
    one_column = plan_search.bounds.bound_coefficients(dict(pairs.cs, opt=opt[:, :1]), *args)
    assert masked.tobytes() == one_column.tobytes()
    assert masked.tobytes() == pairs.bound.tobytes()


def test_the_plan_side_of_rows_given_their_plans_is_that_of_their_candidates():
    """The rows' plans, gathered once by the search and handed over, give the plan side the candidates give."""
    s = model.load_scenario("assets/presets/default.toml")
    values = np.geomspace(1, 1000, 64)
    pt = engine.build_inputs(s, "workload.params_b", values).point
    plans = plan_search.plan_candidates(s, pt)
    plans = plans[:5] + plans[6:]  # (t, p, b, v, rc, cp, ep): the plan side ignores the ZeRO stage
    ptc = {k: arrays.cut_constant_points(pt[k], 0) for k in step_time.PLAN_SIDE_POINT_KEYS}
    rng = np.random.default_rng(5)
    n = 2 * plan_fit.GRID_MIN_ENTRIES
    at, ci = rng.integers(0, values.size, n), rng.integers(0, plans[0].size, n)
    given = plan_search.pairs.plan_side_at(ptc, at, plans, ci, plan_at=tuple(x[ci] for x in plans))
    for k, x in plan_search.pairs.plan_side_at(ptc, at, plans, ci).items():
        assert given[k].tobytes() == x.tobytes(), k


@pytest.mark.parametrize("stages,lowest_d", [([0.0, 1.0, 2.0, 3.0], 0.0), ([1.0, 2.0, 3.0], 0.0),
                                              ([3.0, 2.0], 2.0), ([2.0], 0.0), ([1.0, 3.0], 2.0)])
def test_the_stage_terms_of_many_rows_are_those_of_each_row_and_stage(stages, lowest_d):
    """Rows against a row of stages (the plan search, computed a stage at a time into the stage columns) give the
    ZeRO-stage terms the elementwise expressions give on the full (rows, stages) grid, bit for bit, with and
    without rows that do not shard (``d`` ≤ 1)."""
    s = model.load_scenario("assets/presets/default.toml")
    pt = {k: np.asarray(x)[:1][:, None] for k, x in engine.build_inputs(s).point.items()}
    rows = 2 * plan_fit.GRID_MIN_ENTRIES
    rng = np.random.default_rng(11)
    t = rng.choice([1.0, 2.0, 4.0, 8.0], (rows, 1))
    p = rng.choice([1.0, 2.0, 4.0], (rows, 1))
    d = np.floor(rng.uniform(lowest_d, 40.0, (rows, 1)))
    m = np.floor(rng.uniform(1.0, 64.0, (rows, 1)))
    ps = dict(params_gpu=rng.uniform(1e8, 1e10, (rows, 1)), window=rng.uniform(0.1, 1.0, (rows, 1)),
              fwd_window=rng.uniform(0.1, 1.0, (rows, 1)), logits=rng.uniform(0.0, 0.1, (rows, 1)))
    ps["buckets"] = np.maximum(np.ceil(ps["params_gpu"] * 4.0 / 25e6), 1.0)
    ps["per_bucket"] = ps["params_gpu"] * 4.0 / ps["buckets"]
    z = np.array([stages])
    with np.errstate(divide="ignore"):
        by_stage = step_time.compute_side(pt, t, p, 1.0, 1.0, 0.0, z, True, plan_side=ps, replicas=(d, m),
                                        search=True)
        grid = step_time.compute_side(pt, t, p, 1.0, 1.0, 0.0, np.repeat(z, rows, axis=0), True, plan_side=ps,
                                    replicas=(d, m), search=True)
    for k in ("opt", "dp_volume", "window"):
        got = np.broadcast_to(by_stage[k], (rows, len(stages)))
        assert got.tobytes() == np.broadcast_to(grid[k], got.shape).tobytes(), k


@pytest.mark.parametrize("stages", [(0.0, 1.0, 2.0, 3.0), (1.0, 3.0), (2.0,)])
def test_the_replica_terms_once_per_column_are_those_of_each_row(stages):
    """The data-parallel reduction's terms of the degrees and replicas alone (and the stages' volume), computed once
    per column of degrees and read at each row as the plan search does on a model-size sweep: every compute-side
    term is that computed at the rows, bit for bit, with columns of no replica (d = 0) and rows that do not shard."""
    s = model.load_scenario("assets/presets/default.toml")
    pt = {k: np.asarray(x)[:1][:, None] for k, x in engine.build_inputs(s).point.items()}
    cols, rows = 150, 2 * plan_fit.GRID_MIN_ENTRIES
    rng = np.random.default_rng(5)
    t, p, c = (rng.choice(v, (cols, 1)) for v in ([1.0, 2.0, 4.0, 8.0], [1.0, 2.0, 4.0, 16.0], [1.0, 1.0, 2.0]))
    d = np.floor(rng.uniform(-3.0, 300.0, (cols, 1))).clip(0.0)
    m = np.where(d > 0, np.floor(rng.uniform(1.0, 64.0, (cols, 1))), np.inf)
    col = rng.choice(np.flatnonzero(d[:, 0] > 0), rows)
    t_r, p_r, c_r, d_r, m_r = (x.take(col, axis=0) for x in (t, p, c, d, m))
    ps = dict(params_gpu=rng.uniform(1e8, 1e10, (rows, 1)), window=rng.uniform(0.1, 1.0, (rows, 1)),
              fwd_window=rng.uniform(0.1, 1.0, (rows, 1)), logits=rng.uniform(0.0, 0.1, (rows, 1)))
    ps["buckets"] = np.maximum(np.ceil(ps["params_gpu"] * 4.0 / 25e6), 1.0)
    ps["per_bucket"] = ps["params_gpu"] * 4.0 / ps["buckets"]
    z = np.array(stages)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_col = step_time.replica_side_terms(pt["gpus_per_node"], t, p, c, d * c, True)
        per_col["dp_volume"] = step_time.stage_volume(z, d * c > 1, m, pt["grad_ratio"])
    given = {k: x.take(col, axis=0) for k, x in per_col.items()}
    each = step_time.compute_side(pt, t_r, p_r, 1.0, 1.0, 0.0, z[None, :], True, plan_side=ps, c=c_r,
                                  replicas=(d_r, m_r), search=True)
    read = step_time.compute_side(pt, t_r, p_r, 1.0, 1.0, 0.0, z[None, :], True, plan_side=ps, c=c_r,
                                  replicas=(d_r, m_r), search=True, replica_side=given)
    assert read.keys() == each.keys()
    for k, x in each.items():
        assert np.shape(read[k]) == np.shape(x) and np.asarray(read[k]).tobytes() == np.asarray(x).tobytes(), k
    assert np.unique(each["dp_k2"]).size > 100


@pytest.mark.parametrize("preset,field,values", [
    ("default", "workload.params_b", np.geomspace(1, 1000, 64)),
    ("moe_mixtral_8x22b", "cluster.nodes", np.array([4.0, 8.0, 16.0, 32.0, 64.0])),
    ("moe_deepseek_v3_shape", "fabric.latency_us", np.geomspace(0.5, 100, 8)),
])
def test_the_pipeline_bound_terms_are_the_direct_expressions(preset, field, values):
    """The bound's pipeline terms skip adding the expert all-to-all's terms where they are one value +0.0 (no
    expert parallelism): the same bits as the full expressions, with and without experts."""
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    engine.clear_plan_cache()
    pairs = plan_search.plan_pairs(s, engine.build_inputs(s, field, values, fabric_points_cut=True).point)
    engine.clear_plan_cache()
    ck, n = pairs.cs_kind, pairs.allowed.shape[0]
    kind = pairs.kind if pairs.plan_side["lc"].shape[0] != n else None
    crosses = ck["crosses"]
    want = (ck["chunk_fixed"] + np.where(ck["ring_crosses"], 0.0, ck["chunk_ring_intra"])
            + 2.0 * np.where(crosses, 0.0, ck["p2p_intra"]) - ck["a2a_hide"],
            2.0 * crosses + ck["a2a_steps"], 2.0 * crosses * ck["p2p_bytes_node"] + ck["a2a_bytes_node"])
    for got, x in zip(plan_search.bounds.pipeline_bound_terms(ck, kind, n), want):
        x = np.broadcast_to(x if kind is None or x.shape[0] == 1 else x[kind], (n, 1))[:, 0]
        assert got.tobytes() == x.tobytes()


@pytest.mark.parametrize("x", [np.broadcast_to(np.array([0.0]), (300,)), np.broadcast_to(np.array([-0.0]), (300,)),
                               np.full(300, 2.5), np.arange(300.0), np.ones(1),
                               np.broadcast_to(np.array([True]), (300,))])
def test_a_plan_side_term_held_once_is_the_cut_of_its_kinds(x):
    """A view of one value (the terms of a parallelism the sweep never uses) is cut without comparing copies of
    it: the same array as cutting the same values held in memory by their bytes, writable like it."""
    got = arrays.cut_constant_points(x[:, None], 0)
    want = arrays.cut_constant_points(np.ascontiguousarray(x)[:, None], 0)
    assert got.shape == want.shape and got.dtype == want.dtype and got.tobytes() == want.tobytes()
    assert got.flags.writeable
