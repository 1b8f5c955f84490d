"""The plan search's reductions over its (fabric, pair, stage) arrays give what the plain numpy expressions they
replace give, bit for bit: ties, infinite steps (stages not worth timing) and NaN included (the whole search
against brute force: tests/test_plan_search_exactness.py)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import model
from model import engine, plan_search, step_time

# values with many ties, infinities and NaN: what the search's steps and bounds hold
VALUES = np.array([0.5, 1.0, 1.0, 2.0, np.inf, -0.0, 0.0, np.nan])


def _values(rng, shape, nan):
    return rng.choice(VALUES if nan else VALUES[:-1], size=shape)


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 60), st.integers(1, 12), st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_each_segments_minimum_and_first_entry_reaching_it_are_those_of_the_index_reduction(size, segments, nan,
                                                                                              seed):
    rng = np.random.default_rng(seed)
    x = _values(rng, size, nan)
    starts = np.unique(np.r_[0, rng.integers(0, size, min(segments, size) - 1)])
    seg_min, first = plan_search.search.segment_minima(x, starts)
    lengths = np.diff(np.r_[starts, size])
    want_first = np.minimum.reduceat(np.where(x == np.repeat(np.minimum.reduceat(x, starts), lengths),
                                              np.arange(size), size), starts)
    np.testing.assert_array_equal(seg_min, np.minimum.reduceat(x, starts))
    np.testing.assert_array_equal(first, want_first)
    assert first.dtype == want_first.dtype


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 5), st.integers(1, 40), st.integers(1, 8), st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_the_segments_of_every_row_are_those_of_the_axis_reductions(rows, width, segments, nan, seed):
    """The same segments along the last axis of every row (the search over fabrics and points): each row's minima
    and first entries within the row, its width where nothing reaches the minimum (a NaN)."""
    rng = np.random.default_rng(seed)
    x = _values(rng, (rows, width), nan)
    starts = np.unique(np.r_[0, rng.integers(0, width, min(segments, width) - 1)])
    seg_min, first = plan_search.search.segment_minima(x, starts)
    want_min = np.minimum.reduceat(x, starts, axis=1)
    hit = np.where(x == np.repeat(want_min, np.diff(np.r_[starts, width]), axis=1), np.arange(width), width)
    np.testing.assert_array_equal(seg_min, want_min)
    np.testing.assert_array_equal(first, np.minimum.reduceat(hit, starts, axis=1))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 40), st.integers(0, 2 ** 32 - 1))
def test_the_entries_of_a_mask_come_in_the_order_and_with_the_indices_of_nonzero(rows, cols, seed):
    mask = np.random.default_rng(seed).random((rows, cols)) < 0.3
    got, want = plan_search.search.nonzero_2d(mask), np.nonzero(mask)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 30), st.integers(1, 4), st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_the_least_over_the_stages_is_numpys_minimum_over_the_last_axis(fabrics, entries, stages, nan, seed):
    x = _values(np.random.default_rng(seed), (fabrics, entries, stages), nan)
    want = x.min(axis=-1)
    got = plan_search.search.stage_min(x)
    assert got.tobytes() == want.tobytes()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([((5, 1), (5, 3)), ((5, 3), (5, 1)), ((5, 3), ()), ((1, 3), (4, 1)), ((4, 3), (4, 3))]),
       st.integers(0, 2 ** 32 - 1))
def test_a_sum_into_its_first_term_is_the_sum_and_leaves_the_other_term_alone(shapes, seed):
    rng = np.random.default_rng(seed)
    a, b = (_values(rng, shape, True) for shape in shapes)
    want, b_before = a + b, np.copy(b)
    got = step_time.add_into(np.copy(a), b)
    assert got.shape == want.shape and got.tobytes() == want.tobytes()
    assert np.asarray(b).tobytes() == b_before.tobytes()


def test_traffic_slowed_by_nothing_is_the_traffic_and_slowed_by_an_array_is_the_product():
    x = np.array([0.5, -0.0, np.inf, np.nan])
    assert step_time.slowed(x, 1.0).tobytes() == (x * 1.0).tobytes()
    slow = np.array([1.0, 2.0, 1.5, 1.0])
    assert step_time.slowed(x, slow).tobytes() == (x * slow).tobytes()
    assert step_time.slowed(x, 2.0).tobytes() == (x * 2.0).tobytes()


def test_the_terms_read_at_some_pairs_are_those_gathered_at_them():
    s = model.load_scenario("assets/presets/moe_mixtral_8x22b.toml")
    inp = engine.build_inputs(s, "workload.params_b", np.geomspace(10, 400, 12), fabric_points_cut=True)
    pairs = plan_search.plan_pairs(s, inp.point)
    n = pairs.allowed.shape[0]
    rows = pairs.row[np.random.default_rng(0).integers(0, pairs.ni.size, 50)]
    read = plan_search.search.RowsRead(pairs, rows, n)
    for k, x in pairs.cs.items():
        assert read[k].tobytes() == plan_search.search.at_rows(x, rows, n).tobytes(), k
    for k, x in pairs.cs_kind.items():
        want = plan_search.search.at_rows(x, pairs.kind[rows], pairs.plan_side["lc"].shape[0])
        assert read[k].tobytes() == want.tobytes(), k
    with pytest.raises(KeyError):
        read["no such term"]


@pytest.mark.parametrize("changes", [{}, {"parallel.zero_stage": 1}])
def test_the_terms_laid_out_stages_first_are_the_pairs_terms_transposed(changes):
    s = model.load_scenario("assets/presets/default.toml").replace_many(changes)
    inp = engine.build_inputs(s, "workload.params_b", np.geomspace(1, 300, 12), fabric_points_cut=True)
    pairs = plan_search.plan_pairs(s, inp.point)
    n, n_z = pairs.allowed.shape[0], pairs.stages.size
    rows = pairs.row[np.random.default_rng(1).integers(0, pairs.ni.size, 40)]
    rows_read = plan_search.search.RowsRead
    read, stages_first = rows_read(pairs, rows, n), rows_read(pairs, rows, n, stages_first=True)
    pairs_of = [(k, read[k], stages_first[k]) for k in (*pairs.cs, *pairs.cs_kind)]
    search = plan_search.search
    pairs_of += [(k, search.at_rows(getattr(pairs, k), rows, n), search.at_rows_stages_first(getattr(pairs, k), rows, n))
                 for k in ("allowed", "sequences", "dp_overlap")]
    for k, want, got in pairs_of:
        assert got.shape[-1:] in ((rows.size,), (1,)), k  # the entries last
        want, got = np.broadcast_to(want, (rows.size, n_z)).T, np.broadcast_to(got, (n_z, rows.size))
        assert np.ascontiguousarray(want).tobytes() == np.ascontiguousarray(got).tobytes(), k
