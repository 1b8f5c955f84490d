"""The plan search's reductions over its (fabric, pair, stage) arrays give what the plain numpy expressions they
replace give, bit for bit: ties, infinite steps (stages not worth timing) and NaN included (the whole search
against brute force: tests/test_plan_search_exactness.py)."""

import numpy as np
from hypothesis import given, settings, strategies as st

from model import engine

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
    seg_min, first = engine._segment_minima(x, starts)
    lengths = np.diff(np.r_[starts, size])
    want_first = np.minimum.reduceat(np.where(x == np.repeat(np.minimum.reduceat(x, starts), lengths),
                                              np.arange(size), size), starts)
    np.testing.assert_array_equal(seg_min, np.minimum.reduceat(x, starts))
    np.testing.assert_array_equal(first, want_first)
    assert first.dtype == want_first.dtype


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 40), st.integers(0, 2 ** 32 - 1))
def test_the_entries_of_a_mask_come_in_the_order_and_with_the_indices_of_nonzero(rows, cols, seed):
    mask = np.random.default_rng(seed).random((rows, cols)) < 0.3
    got, want = engine._nonzero_2d(mask), np.nonzero(mask)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 30), st.integers(1, 4), st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_the_least_over_the_stages_is_numpys_minimum_over_the_last_axis(fabrics, entries, stages, nan, seed):
    x = _values(np.random.default_rng(seed), (fabrics, entries, stages), nan)
    want = x.min(axis=-1)
    got = engine._stage_min(x)
    assert got.tobytes() == want.tobytes()
