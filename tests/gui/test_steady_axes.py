"""Chart y axes move in steps, only grow while a slider is dragged, and fit again on release."""

from __future__ import annotations

import math

import numpy as np
import pytest
from guihelpers import settle
from hypothesis import given
from hypothesis import strategies as st
from PySide6 import QtCore, QtGui, QtWidgets

from gui.charts.plot_items import nice_step, steady_range

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
    if (data[0] - during[0]) >= 0.25 * span or (during[1] - data[1]) >= 0.25 * span:
        assert after != during  # the grown axis was loose: the release fitted it again


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


def _wheel(chart, steps: int = 3) -> None:
    """Zoom in with the mouse wheel over the plot's centre, as a user does."""
    view = chart.viewport()
    pos = QtCore.QPointF(view.width() / 2, view.height() / 2)
    for _ in range(steps):
        ev = QtGui.QWheelEvent(pos, view.mapToGlobal(pos), QtCore.QPoint(0, 0), QtCore.QPoint(0, 120),
                               QtCore.Qt.MouseButton.NoButton, QtCore.Qt.KeyboardModifier.NoModifier,
                               QtCore.Qt.ScrollPhase.NoScrollPhase, False)
        QtWidgets.QApplication.sendEvent(view, ev)


def test_a_zoom_stays_until_ctrl_0_restores_the_steady_axis(window, qtbot):
    win = window
    settle(win)
    _paint(qtbot, win)
    fitted, data = _ranges(win)
    _wheel(win.charts["duration"])
    _paint(qtbot, win)
    zoomed, _ = _ranges(win)
    assert zoomed[1] - zoomed[0] < fitted[1] - fitted[0], "the wheel did not zoom"
    win.controller.set_value("cluster.nodes", win.controller.scenario.cluster.nodes * 2)  # new data
    settle(win)
    _paint(qtbot, win)
    assert _ranges(win)[0] == zoomed, "a new result undid the user's zoom"
    action = next(a for a in win.view_menu.actions() if a.shortcut().toString() == "Ctrl+0")
    action.trigger()
    _paint(qtbot, win)
    after, data = _ranges(win)
    assert after[0] <= data[0] and after[1] >= data[1]
    span = data[1] - data[0]
    assert (data[0] - after[0]) < 0.25 * span and (after[1] - data[1]) < 0.25 * span


def test_the_y_axis_holds_the_bands(window, qtbot):
    """Everything drawn counts, the bands too: with bands on, the axis holds their P10-P90."""
    win = window
    win.features.bands_action.setChecked(True)
    assert win.features.bands.wait()
    _paint(qtbot, win)
    for kind in ("duration", "tco"):
        (lo, hi), _ = _ranges(win, kind)
        for lo_band, hi_band in win.features.bands.visible_bands(kind).values():
            band = np.concatenate([lo_band, hi_band])
            band = band[np.isfinite(band)]
            assert band.size and lo <= band.min() and band.max() <= hi, kind
