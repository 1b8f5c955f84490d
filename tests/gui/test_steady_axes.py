"""Chart y axes move in steps, only grow while a slider is dragged, and fit again on release."""

from __future__ import annotations

import math

import pytest
from guihelpers import settle
from hypothesis import given
from hypothesis import strategies as st

from gui.charts import nice_step, steady_range

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(finite, finite)
def test_range_holds_the_data_with_little_padding(a, b):
    lo, hi = min(a, b), max(a, b)
    r0, r1 = steady_range(lo, hi)
    assert r0 <= lo and r1 >= hi
    span = max(hi - lo, abs(hi) * 0.1, 1e-9)
    assert (r1 - r0) <= span * 1.04 + 2 * nice_step(span * 1.04 / 20.0) + 1e-9 * max(1.0, abs(r0), abs(r1))


@given(finite, finite, finite, finite)
def test_growing_keeps_the_current_range_and_holds_the_data(a, b, c, d):
    lo, hi = min(a, b), max(a, b)
    cur = (min(c, d), max(c, d) + 1.0)
    r0, r1 = steady_range(lo, hi, cur, grow_only=True)
    assert r0 <= min(lo, cur[0]) and r1 >= max(hi, cur[1])
    if cur[0] <= lo and hi <= cur[1]:
        assert (r0, r1) == cur  # data inside: the axis does not move


def test_floor_keeps_non_negative_data_off_negative_ticks():
    assert steady_range(0.3, 40.0, floor=0.0)[0] == 0.0
    assert steady_range(-5.0, 40.0, floor=0.0)[0] < -5.0  # data below the floor: padded as usual
    assert math.isclose(nice_step(0.37), 0.5) and math.isclose(nice_step(3.0), 5.0) and nice_step(10.0) == 10.0


def _ranges(win, kind="duration"):
    """(view y range, data y bounds) of a chart, in view coordinates, after a paint."""
    vb = win.charts[kind].getPlotItem().vb
    return tuple(vb.viewRange()[1]), tuple(vb.childrenBounds()[1])


def _paint(qtbot, win):
    win.repaint()
    qtbot.wait(1)


@pytest.mark.parametrize("nodes", [8, 512])
def test_y_axis_only_grows_while_dragging_and_fits_on_release(window, qtbot, nodes):
    win = window
    win.set_scenario(win.controller.scenario.replace("cluster.nodes", 64))
    win.controller.set_x_field("workload.params_b")
    settle(win)
    _paint(qtbot, win)
    before, _ = _ranges(win)
    sl = win.sliders["cluster.nodes"]
    sl.slider.sliderPressed.emit()
    win.controller.set_value("cluster.nodes", nodes)  # every duration moves by a factor of 8
    settle(win)
    _paint(qtbot, win)
    during, data = _ranges(win)
    assert during[0] <= before[0] and during[1] >= before[1], "the axis shrank during a drag"
    assert during[0] <= data[0] and during[1] >= data[1], "the data left the axis"
    if before[0] <= data[0] and data[1] <= before[1]:
        assert during == before, "the axis moved although the data stayed inside it"
    sl.slider.sliderReleased.emit()
    _paint(qtbot, win)
    after, data = _ranges(win)
    assert after[0] <= data[0] and after[1] >= data[1]
    # fitted again: the margins are small next to the data's span
    span = data[1] - data[0]
    assert (data[0] - after[0]) < 0.25 * span and (after[1] - data[1]) < 0.25 * span
    assert after != during


def test_utilisation_axis_only_grows_while_dragging(window, qtbot):
    win = window
    ch = win.charts["utilisation"]
    settle(win)
    _paint(qtbot, win)
    top0 = ch.getPlotItem().vb.viewRange()[1][1]
    sl = win.sliders["workload.params_b"]
    sl.slider.sliderPressed.emit()
    tops, peaks = [], []
    for params_b in (60, 120, 250, 500, 1000):  # the best utilisation along the nodes axis falls
        win.controller.set_value("workload.params_b", params_b)
        settle(win)
        _paint(qtbot, win)
        tops.append(ch.getPlotItem().vb.viewRange()[1][1])
        peaks.append(max(float(max(y[y == y])) for y in (c.getData()[1] for c in ch.curves.values())
                         if (y == y).any()))
    assert peaks != sorted(peaks), "the drag should lower the curves somewhere (else this test proves nothing)"
    assert tops == sorted(tops) and tops[0] >= top0
    assert all(t >= p for t, p in zip(tops, peaks))
    sl.slider.sliderReleased.emit()
    _paint(qtbot, win)
    assert ch.getPlotItem().vb.viewRange()[1][1] == pytest.approx(math.ceil(max(peaks[-1], 1.0) * 1.08 / 5.0) * 5.0)
