"""The plan search's lower bounds never exceed a plan's step time, and the least of a range of points is that of
its points: what lets the search time only the plans that may win and still find the fastest (the search's
exactness itself: tests/test_plan_search_exactness.py)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import model
from model import engine, network, plan_search
from model.arrays import cut_constant_points, range_min


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 3), st.integers(1, 70), st.integers(1, 40), st.integers(0, 2 ** 32 - 1))
def test_the_least_of_a_range_is_that_of_its_points(rows, points, ranges, seed):
    rng = np.random.default_rng(seed)
    x = rng.choice([-2.5, 0.0, 1.0, 3.0, np.inf], size=(rows, points)) + rng.uniform(0, 1e-3, (rows, points))
    first = rng.integers(0, points, ranges)
    last = first + rng.integers(0, points - first)
    want = np.array([[x[r, f:l + 1].min() for f, l in zip(first, last)] for r in range(rows)])
    np.testing.assert_array_equal(range_min(x, first, last), want)


def _search_inputs(s, field, values):
    inp = engine.build_inputs(s, field, values, fabric_points_cut=True)
    net = network.network_state(inp.point, inp.fabric)
    bw = cut_constant_points(network.inter_bandwidths(inp.point, inp.fabric, net)[2], 1)
    lat = cut_constant_points(network.inter_step_latency_s(net), 1)
    congestion = {k: cut_constant_points(np.broadcast_to(x, (bw.shape[0], inp.n)), 1)
                  for k, x in network.congestion_inputs(net).items()}
    return inp, bw, lat, congestion


NODES = np.unique(np.round(np.geomspace(1, 2048, 120)))


@pytest.mark.parametrize("preset,changes", [
    ("default", {}), ("default", {"parallel.dp_overlap": False}), ("default", {"topology.oversubscription": 4.0}),
    ("tier_small", {}), ("moe_mixtral_8x22b", {}), ("moe_deepseek_v3_shape", {"parallel.ep_overlap": True}),
    ("case2_autodriving_24xA100_30B", {"parallel.zero_stage": 3}),
])
def test_the_bounds_of_a_cluster_size_sweep_never_exceed_a_plans_time(preset, changes):
    """Each row of pairs (a plan over the run of points where its replicas stay) is bounded once, stage by stage,
    at the least latency and inverse bandwidth of its points: the bound never exceeds the time of the plan's
    fastest stage worth timing at any of its points, on any fabric; nor does it at each pair's own point."""
    s = model.load_scenario(f"assets/presets/{preset}.toml").replace_many(changes)
    engine.clear_plan_cache()
    inp, bw, lat, congestion = _search_inputs(s, "cluster.nodes", NODES)
    pairs = plan_search.plan_pairs(s, inp.point)
    engine.clear_plan_cache()
    assert pairs.stage_bound is not None and pairs.row_points is not None  # rows of several points: what is tested
    assert np.any(pairs.row_points[1] > pairs.row_points[0])
    n_fab, n = bw.shape[0], pairs.ni.size
    at = pairs.ni
    for f in range(n_fab):
        bw_p, lat_p = ((x[f, 0] if x.shape[1] == 1 else x[f, at]) + np.zeros(n) for x in (bw, lat))
        exact = plan_search.search.per_sequence(pairs, np.arange(n), bw_p[:, None], lat_p[:, None], congestion,
                                     (np.full(n, f), at)).min(axis=-1)
        row_lb = plan_search.bounds.stage_bound_at(pairs.stage_bound, *((x[f] if x.shape[1] == 1 else range_min(
            x[f:f + 1], *pairs.row_points)[0]) for x in (lat, 1.0 / bw)))[pairs.row]
        stage_lb = plan_search.bounds.stage_bound_at(pairs.stage_bound[:, pairs.row], lat_p, 1.0 / bw_p)
        tolerance = exact * (1.0 + 1e-12)
        assert np.all(row_lb <= tolerance), inp.fabrics[f].name
        assert np.all(stage_lb <= tolerance), inp.fabrics[f].name
        assert np.all(row_lb <= stage_lb * (1.0 + 1e-12))  # the least latency and bandwidth give the least bound


@pytest.mark.parametrize("preset,field,values", [
    ("default", "fabric.latency_us", np.geomspace(0.5, 1000, 40)),
    ("default", "fabric.link_gbps", np.geomspace(10, 800, 12)),
    ("moe_mixtral_8x22b", "topology.oversubscription", np.array([1.0, 2.0, 4.0, 8.0])),
    ("tier_small", "economics.pue", np.array([1.1, 1.5])),
])
def test_the_bounds_of_pairs_every_point_shares_never_exceed_a_plans_time(preset, field, values):
    """Where every point has the same pairs (a fabric, topology or money sweep), both bounds of each pair at
    each point and on each fabric are at most the time of its fastest stage worth timing there."""
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    engine.clear_plan_cache()
    inp, bw, lat, congestion = _search_inputs(s, field, values)
    pairs = plan_search.plan_pairs(s, inp.point)
    engine.clear_plan_cache()
    assert pairs.shared and pairs.stage_bound is not None and pairs.bound is not None
    rows = np.arange(pairs.ni.size)
    exact = plan_search.search.per_sequence(pairs, rows, bw[..., None, None], lat[..., None, None], congestion,
                                 trailing=2).min(axis=-1)  # (F, N or 1, pairs)
    tolerance = exact * (1.0 + 1e-12)
    bound = plan_search.bounds.stage_bound_at(pairs.stage_bound, lat[..., None], 1.0 / bw[..., None])
    assert np.all(bound <= tolerance)
    assert np.all(plan_search.bounds.bound_at(pairs.bound, lat[..., None], 1.0 / bw[..., None]) <= tolerance)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 3), st.integers(1, 60), st.integers(1, 5), st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_bounds_taken_per_block_of_points_keep_what_bounding_every_point_keeps(n_fab, points, n_pairs, one_point,
                                                                             seed):
    """A pair kept by the blocks of points (its bound at a block's least latency and inverse bandwidth first) is
    one whose bound reaches the time found at some point, and every such pair is kept: NaN and infinite bounds,
    times and inputs included, and a fabric whose inputs are the same at every point."""
    rng = np.random.default_rng(seed)
    def some(shape, rare):  # mostly uniform in [0, 1), now and then one of the ``rare`` values
        return np.where(rng.random(shape) < 0.9, rng.random(shape), rng.choice(rare, size=shape))
    coefficients = some((6, n_pairs), [0.0, np.inf])
    coefficients[[0, 3]] -= rng.uniform(0.0, 1.0, (2, n_pairs))  # the constant terms may be negative
    lat, inv_bw = (some((n_fab, 1 if one_point else points), rare) for rare in ([0.0], [0.0, np.inf]))
    blocks = plan_search.search.PointBlocks(lat, inv_bw, n_fab, points)
    fab, col = np.divmod(np.arange(n_fab * n_pairs), n_pairs)

    def bound(e, lat_at, inv_at):
        return plan_search.bounds.bound_at(coefficients[:, col[e], None], lat_at, inv_at)
    with np.errstate(invalid="ignore"):
        every = bound(slice(None), np.broadcast_to(lat, (n_fab, points))[fab],
                      np.broadcast_to(inv_bw, (n_fab, points))[fab])  # (fabric · pair, points)
        # the times found: near some pair's bound at each point, or none (infinite), or NaN
        near = every.reshape(n_fab, n_pairs, points)[:, rng.integers(0, n_pairs), :]
        reach = np.where(rng.random((n_fab, points)) < 0.8, near * rng.uniform(0.9, 1.1, (n_fab, points)),
                         rng.choice([0.5, np.inf, np.nan], size=(n_fab, points)))
        kept = blocks.reaches(bound, fab, reach)
        every = every <= reach[fab]
    np.testing.assert_array_equal(kept, every.any(axis=1))
