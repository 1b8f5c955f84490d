"""Small array helpers shared by the engine modules (pure numpy).

- :func:`where_uniform`: ``np.where`` that computes only the side a
  uniform condition picks (scenario-wide choices rarely mix).
- :func:`cut_constant_points`: an input that is the same at every sweep point,
  kept as one point so that it broadcasts.
- :func:`one_value`, :func:`fills`, :func:`at_shape`, :func:`float_copy`, :func:`distinct_rows`:
  the plan search's small array tests, views and copies; :func:`any_true`, :func:`all_true`: flags tested without
  numpy's Python-level dispatch.
"""

from __future__ import annotations

import math

import numpy as np


def where_uniform(flag, if_true, if_false):
    """``np.where(flag, if_true(), if_false())``, computing only the side a uniform ``flag`` picks.

    The flags are mostly scenario-wide choices (network pricing, run-cost basis, data-parallel
    overlap), so one side is usually never read: on large arrays (the plan search, the Monte-Carlo
    cube) not computing it saves whole passes. The values are those of ``np.where``; the shape is the
    chosen side's when the flag is uniform.
    """
    flag = np.asarray(flag)
    if flag.all():
        return if_true()
    if not flag.any():
        return if_false()
    return np.where(flag, if_true(), if_false())


def cut_constant_points(x, axis: int):
    """``x`` with its point ``axis`` cut to length 1 when every point holds the same value, bit for bit.

    A sweep changes a few inputs; the others are the same at every point. Cut to one point, they
    broadcast: what depends only on them (and on the plan, or a Monte-Carlo sample) is then computed
    once, not once per point as well. Compared as bytes, so NaN equals NaN and -0.0 stays apart from 0.0.
    """
    x = np.asarray(x)
    if x.ndim == 1:  # the common case, without a broadcast copy
        if x.size > 1 and x.strides[0] == 0:  # a view of one value: nothing to compare
            return x[:1]
        raw = x.tobytes()
        return x[:1] if raw == raw[:x.itemsize] * x.size else x
    n = x.shape[axis]
    if n <= 1:  # one point already
        return x
    if x.strides[axis] == 0:  # broadcast along the points (a view): the same bytes at each, without comparing copies
        return np.take(x, [0], axis=axis)
    if axis == 0 and x[0].tobytes() != x[-1].tobytes():  # most arrays that vary differ at their ends: no copy
        return x
    # the points as consecutive blocks of bytes (no copy when ``axis`` is the first of a C-ordered array)
    raw = np.ascontiguousarray(x.swapaxes(axis, 0)).tobytes()
    same = raw == raw[:len(raw) // n] * n
    return np.take(x, [0], axis=axis) if same else x


def range_min(x, first, last):
    """The smallest of ``x[:, first:last + 1]`` for each range of the index arrays ``first ≤ last`` (R,): (rows
    of ``x``, R).

    A sparse table of minima: the minima over spans of 1, 2, 4, … points (log₂ of the longest range passes
    over ``x``), then two reads a range, the minima of the two spans of the largest power of two that cover it.
    """
    x = np.asarray(x)
    length = np.asarray(last) - np.asarray(first) + 1
    level = np.frexp(length.astype(float))[1] - 1  # ⌊log₂ length⌋, exactly
    table = np.full((int(level.max(initial=0)) + 1,) + x.shape, np.inf)
    table[0] = x
    span = 1
    for k in range(1, table.shape[0]):
        np.minimum(table[k - 1, :, :-span], table[k - 1, :, span:], out=table[k, :, :x.shape[1] - span])
        span *= 2
    end = np.asarray(last) - (1 << level) + 1
    return np.minimum(table[level, :, first], table[level, :, end]).T


def distinct_rows(columns, n):
    """The distinct rows of equal-length ``columns`` (a sequence of arrays, or a 2-D array of one column per row;
    no columns: ``n`` entries all alike): the first entry of each distinct row and each entry's row number, index
    arrays (one ``lexsort``, not numpy's slower ``unique`` along an axis). The columns are compared as one table
    of their common type (floats for the plan search's columns).

    Sorted, compared and numbered on that one table, with gathers along its rows (``take``, ``compress``): on the
    plan search's few hundred entries numpy's fixed cost per call is most of the work, so the fewer calls the
    better (a sweep calls this half a dozen times).
    """
    if len(columns) == 0:
        return np.zeros(1, dtype=int), np.zeros(n, dtype=int)
    table = np.asarray(columns)
    n = table.shape[1]
    order = np.lexsort(table)
    table = table.take(order, axis=1)
    new = np.empty(n, dtype=bool)
    new[0] = True
    new[1:] = (table[:, 1:] != table[:, :-1]).any(axis=0)
    code = np.empty(n, dtype=int)
    code[order] = new.cumsum() - 1
    return order.compress(new), code  # lexsort is stable: the first of a run is its first entry


def any_true(x) -> bool:
    """``bool(np.any(x))``, through the array's own method where ``x`` is one: ``np.any`` dispatches in Python, a few
    microseconds a call, and an evaluation tests dozens of scenario-wide flags."""
    return bool(x.any()) if isinstance(x, (np.ndarray, np.generic)) else bool(np.any(x))


def all_true(x) -> bool:
    """``bool(np.all(x))``, as :func:`any_true`."""
    return bool(x.all()) if isinstance(x, (np.ndarray, np.generic)) else bool(np.all(x))


def one_value(x, value):
    """Whether ``x`` is one value (an array of size 1), ``value`` with its sign (+0.0 is not -0.0)."""
    x = np.asarray(x)
    if x.size != 1:
        return False
    v = x.reshape(-1)[0]
    return bool(v == value) and math.copysign(1.0, v) == math.copysign(1.0, value)  # the sign: as np.signbit's


def fills(out, x):
    """Whether ``x`` broadcasts against the array ``out`` without growing it: ``out`` can then take the result of
    an elementwise operation of the two in place (the same values as a new array, without the temporary)."""
    return np.broadcast(out, x).shape == out.shape


def at_shape(x, shape):
    """``x`` broadcast to ``shape`` (a read-only view), or ``x`` itself where it has that shape already:
    ``broadcast_to`` costs some microseconds a call, and an evaluation makes dozens."""
    return x if np.shape(x) == shape else np.broadcast_to(x, shape)


def float_copy(x, shape):
    """``np.broadcast_to(x, shape) + 0.0`` without the view: a new float array of ``shape`` (-0.0 made +0.0)."""
    return np.add(x, 0.0, out=np.empty(shape))


def segment_minima(x, starts):
    """Each segment's minimum of the 1-D ``x`` and the first index reaching it (ties go to the earlier entry).

    ``starts``: the first index of each segment, increasing from 0, none empty. The first index is ``x.size``
    where nothing equals the minimum (a NaN). The entries equal to their segment's minimum are few: they are
    located from their flat indices rather than by a reduction over an index array of the size of ``x``.
    A 2-D ``x`` has the same segments along its last axis in every row: arrays (rows, segments) of each row's
    minima and first indices within the row (its width where none).
    """
    if x.ndim == 2:  # the rows one after another: the segments of every row at once
        n_rows, width = x.shape
        offsets = np.arange(n_rows)[:, None] * width
        seg_min, first = segment_minima(x.reshape(-1), (offsets + starts).reshape(-1))
        return seg_min.reshape(n_rows, -1), np.minimum(first.reshape(n_rows, -1) - offsets, width)
    seg_min = np.minimum.reduceat(x, starts)
    lengths = np.empty_like(starts)
    lengths[:-1], lengths[-1] = starts[1:] - starts[:-1], x.size - starts[-1]
    hits = np.flatnonzero(x == np.repeat(seg_min, lengths))
    seg = np.searchsorted(starts, hits, side="right") - 1
    new = np.ones(hits.size, dtype=bool)
    new[1:] = seg[1:] != seg[:-1]
    first = np.full(starts.size, x.size)
    first[seg[new]] = hits[new]
    return seg_min, first


def nonzero_2d(mask):
    """``np.nonzero`` of a 2-D ``mask``: the row and column indices of its true entries, in row-major order.

    Through the flat indices: a 2-D ``nonzero`` is several times slower on the search's (fabric, pair) masks."""
    return np.divmod(np.flatnonzero(mask), mask.shape[1])
