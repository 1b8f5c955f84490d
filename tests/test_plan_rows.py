"""The plan search's shortcuts on a model-size sweep (each point its own model) give what the direct expressions
give, bit for bit."""

import numpy as np
import pytest

import model
from model import arrays, engine, inputs, plan_fit, plan_search


@pytest.mark.parametrize("preset,field,values", [
    ("default", "workload.params_b", np.geomspace(1, 1000, 256)),
    ("case3_centre_128xH100_1T", "workload.params_b", np.geomspace(50, 2000, 64)),
    ("tier_small", "workload.params_b", np.geomspace(0.5, 200, 128)),
])
def test_degrees_on_the_grid_of_points_and_candidates_are_those_of_each_point(preset, field, values):
    """On the plan search's (point, candidate) grid the heads and layer tests are taken once per distinct plan
    value: every verdict is that of the candidates at each point on its own."""
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    pt = engine.build_inputs(s, field, values).point
    t, p, b, v, r, z, c, e = plan_search.plan_candidates(s, pt)
    grid_pt = {k: arrays.cut_constant_points(x, 0)[:, None] for k, x in pt.items()}
    plan = [x[None, :] for x in (t, p, b, v)]
    with np.errstate(divide="ignore", invalid="ignore"):
        d, m = plan_fit.data_parallel_replicas(grid_pt, *plan[:3], True, c[None, :])
        grid = plan_fit.degrees_valid(grid_pt, *plan, d, m, c[None, :], e[None, :])
        assert grid_pt["layers"].shape[0] > 1 and values.size * t.size >= plan_fit.GRID_MIN_ENTRIES  # the grid
        for i in range(0, values.size, 7):
            at = {k: x[i if x.shape[0] > 1 else 0] for k, x in grid_pt.items()}
            one = plan_fit.degrees_valid(at, *(x[0] for x in plan), d[i if d.shape[0] > 1 else 0],
                                        m[i if m.shape[0] > 1 else 0], c, e)
            np.testing.assert_array_equal(grid[i], one, err_msg=f"point {i}")
    assert grid.any() and not grid.all()


def test_the_candidates_a_sweep_can_use_follow_its_largest_cluster_model_and_sequence():
    """The candidates kept for a sweep (cached by its largest GPUs per node, layers, GPUs and sequence) are those
    of the rule at each sweep's own maxima, whatever was asked before."""
    s = model.load_scenario("assets/presets/default.toml")
    every = np.stack(plan_search.plan_candidates(s))
    for field, values in [("cluster.nodes", np.array([1.0, 2.0])), ("workload.params_b", np.array([1.0, 5.0])),
                          ("cluster.nodes", np.array([4.0, 256.0])), ("workload.seq_len", np.array([2048.0, 65536.0])),
                          ("cluster.nodes", np.array([1.0, 2.0]))]:
        pt = engine.build_inputs(s, field, values).point
        t, p, b, v, r, z, c, e = every
        keep = ((t <= pt["gpus_per_node"].max()) & (p * v <= pt["layers"].max()) & (t * p * c <= pt["gpus"].max())
                & ((c == 1) | (pt["seq_len"].max() / c >= inputs.CP_MIN_TOKENS_PER_RANK)))
        np.testing.assert_array_equal(np.stack(plan_search.plan_candidates(s, pt)), every[:, keep], err_msg=field)


@pytest.mark.parametrize("n_columns,n,values", [(1, 198, 4), (3, 256, 3), (7, 237, 2), (2, 1, 5)])
def test_distinct_rows_number_the_rows_as_numpys_unique(n_columns, n, values):
    """The distinct rows of a few columns (a list of arrays or one 2-D table) are numpy's ``unique`` rows: each
    entry's row number tells the same entries apart, and the first entry of each row holds that row."""
    rng = np.random.default_rng(n_columns)
    columns = [rng.integers(0, values, n).astype(float) for _ in range(n_columns)]
    _, inverse = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
    for given in (columns, np.stack(columns)):
        first, code = arrays.distinct_rows(given, n)
        assert first.size == code.max() + 1 == inverse.max() + 1
        np.testing.assert_array_equal(code[:, None] == code[None, :],
                                      inverse.reshape(-1)[:, None] == inverse.reshape(-1)[None, :])
        np.testing.assert_array_equal(code[first], np.arange(first.size))
        assert all(first[code[i]] <= i for i in range(n))  # the first entry of its row


def test_repeated_points_are_the_points_that_hold_the_same_search_inputs():
    """A model-size sweep's points that round to the same model (and the same fabric inputs) share a distinct
    point: the first of them, in point order; points whose inputs differ in any swept input are apart."""
    s = model.load_scenario("assets/presets/default.toml")
    values = np.geomspace(1, 1000, 256)
    pt = engine.build_inputs(s, "workload.params_b", values).point
    fabric = [np.ones((4, 1)), np.tile(np.where(values > 500, 2.0, 1.0), (4, 1))]
    first, point_of = plan_search.search.repeated_points(pt, fabric, values.size)
    inputs = np.stack([np.asarray(pt[k], dtype=float) for k in plan_search.PLAN_POINT_KEYS] + [fabric[1][0]], axis=1)
    _, inverse = np.unique(inputs, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    assert 1 < first.size < values.size
    np.testing.assert_array_equal(point_of[:, None] == point_of[None, :], inverse[:, None] == inverse[None, :])
    np.testing.assert_array_equal(first, np.sort(first))
    np.testing.assert_array_equal(first, [np.flatnonzero(inverse == inverse[i])[0] for i in first])
    assert plan_search.search.repeated_points(pt, [np.tile(values, (4, 1))], values.size) is None  # every point its own
