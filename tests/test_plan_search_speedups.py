"""The plan search's faster ways to the same numbers give what the plain ways give, bit for bit."""

import numpy as np
from hypothesis import given, settings, strategies as st

from model import arrays
from model.plan_search import fewer


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=0, max_size=300), st.integers(0, 20))
def test_whole_number_keys_are_numbered_as_distinct_rows_numbers_them(keys, extra):
    """The second pass numbers its options by a count over whole-number keys rather than a sort: the first entry
    of each distinct key and each entry's number are those of :func:`model.arrays.distinct_rows`."""
    keys = np.array(keys, dtype=np.int64)
    first, code = fewer._numbered(keys, int(keys.max(initial=-1)) + 1 + extra)
    if not keys.size:
        assert first.size == 0 and code.size == 0
        return
    ref_first, ref_code = arrays.distinct_rows([keys.astype(float)], keys.size)
    np.testing.assert_array_equal(first, ref_first)
    np.testing.assert_array_equal(code, ref_code)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 9)), min_size=1, max_size=200),
       st.booleans())
def test_option_keys_tell_apart_what_distinct_rows_tells_apart(pairs, whole):
    """Two rows share an option number exactly where their degrees and replicas are the same, numbered in the
    order :func:`model.arrays.distinct_rows` gives (replicas first); also where the replicas are not whole
    numbers (the fallback)."""
    degrees = np.array([p[0] for p in pairs], dtype=np.int64)
    d = np.array([p[1] for p in pairs], dtype=float) + (0.0 if whole else 0.5)
    keys, size = fewer._option_keys(degrees, d)
    assert keys.min() >= 0 and keys.max() < size
    code = fewer._numbered(keys, size)[1]
    np.testing.assert_array_equal(code, arrays.distinct_rows([degrees.astype(float), d], d.size)[1])
