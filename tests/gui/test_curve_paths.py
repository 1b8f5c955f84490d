"""A chart's curve is drawn through exactly its finite points: one polygon when no plan fits only at the ends,
broken at a gap inside; its range is that of the points drawn."""

from __future__ import annotations

import numpy as np

from gui.charts.plot_items import DataCurve


def _points(path) -> list[tuple[float, float, bool]]:
    out = []
    for i in range(path.elementCount()):
        e = path.elementAt(i)
        out.append((e.x, e.y, e.isMoveTo()))
    return out


def test_a_curve_with_gaps_only_at_its_ends_is_one_line_through_the_finite_points(qapp):
    curve = DataCurve()
    x = np.arange(8.0)
    y = np.array([np.nan, np.nan, 3.0, 4.0, 2.0, 5.0, np.nan, np.nan])
    curve.setData(x, y)
    pts = _points(curve.getPath())
    assert [(px, py) for px, py, _ in pts] == [(2.0, 3.0), (3.0, 4.0), (4.0, 2.0), (5.0, 5.0)]
    assert [m for _, _, m in pts] == [True, False, False, False]  # one line
    assert curve.dataBounds(0) == (2.0, 5.0) and curve.dataBounds(1) == (2.0, 5.0)
    gx, gy = curve.getData()
    assert len(gx) == 8 and np.isnan(gy[:2]).all()  # the values given, gaps and all


def test_a_gap_inside_a_curve_breaks_the_line(qapp):
    curve = DataCurve()
    curve.setData(np.arange(5.0), np.array([1.0, 2.0, np.nan, 4.0, 5.0]))
    pts = _points(curve.getPath())
    lines = [(pts[i - 1][:2], pts[i][:2]) for i in range(1, len(pts)) if not pts[i][2]]
    assert {(0.0, 1.0), (1.0, 2.0), (3.0, 4.0), (4.0, 5.0)} <= {p for seg in lines for p in seg}
    assert not any(min(a[0], b[0]) < 2.0 < max(a[0], b[0]) for a, b in lines)  # none across the gap


def test_a_log_axis_leaves_a_gap_where_a_value_is_not_positive(qapp):
    curve = DataCurve()
    curve.setData(np.array([1.0, 10.0, 100.0]), np.array([0.0, 10.0, 100.0]))
    curve.setLogMode(True, True)
    pts = _points(curve.getPath())
    assert [(px, py) for px, py, _ in pts] == [(1.0, 1.0), (2.0, 2.0)]
    assert curve.dataBounds(1) == (1.0, 2.0)
