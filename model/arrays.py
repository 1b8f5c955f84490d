"""Small array helpers shared by the engine modules (pure numpy).

- :func:`where_uniform`: ``np.where`` that computes only the side a
  uniform condition picks (scenario-wide choices rarely mix).
- :func:`cut_constant_points`: an input that is the same at every sweep point,
  kept as one point so that it broadcasts.
"""

from __future__ import annotations

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
