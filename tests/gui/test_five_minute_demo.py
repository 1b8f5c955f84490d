"""The README's "Demo in five minutes", step by step, at 1366 × 768 in English and in Chinese, by its keys:
every dock is visible when its step expects it, and the stage view (F11) gives the window back as it was."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gui import i18n
from gui.present.series import WINDOW_CHART_KINDS
from guihelpers import curve_y, marker_xy, settle
from model import presets

LAPTOP = QtCore.QSize(1366, 768)


def _key(qtbot, win, sequence: str) -> None:
    """Press ``sequence`` as a user does (the window's shortcut map decides what it does)."""
    seq = QtGui.QKeySequence(sequence)
    combo = seq[0]
    qtbot.keyClick(win, combo.key(), combo.keyboardModifiers())
    QtWidgets.QApplication.processEvents()


def _in_front(win, dock) -> bool:
    """The dock is visible and, when tabbed with others, its tab is the current one."""
    if not dock.isVisible():
        return False
    for bar in win.findChildren(QtWidgets.QTabBar):
        for i in range(bar.count()):
            if bar.isVisible() and bar.tabText(i) == dock.windowTitle():
                return bar.currentIndex() == i
    return True


@pytest.fixture(params=["en", "zh_CN"])
def demo_window(window, request):
    window.showNormal()
    window.resize(LAPTOP)
    if request.param != "en":
        i18n.switch_language(window, request.param)
    yield window
    i18n.switch_language(window, "en")


def test_the_demo_in_five_minutes(demo_window, qtbot):
    win = demo_window
    f = win.features
    # 2. the case 2 preset, then the published profile set
    assert win.load_preset(presets.preset_path("case2"))
    settle(win)
    win.profile_buttons["published"].click()
    settle(win)
    assert win.controller.scenario.fabric.profile_set == "published"
    # 3. Ctrl+1 (x-axis: nodes) and drag Nodes: the curves move
    _key(qtbot, win, "Ctrl+1")
    assert win.controller.x_field == "cluster.nodes"
    before = marker_xy(win, "duration")[0].copy()
    win.sliders["cluster.nodes"].step_by(20)
    settle(win)
    assert not np.allclose(before, marker_xy(win, "duration")[0])  # the point moves along the curves
    _key(qtbot, win, "Ctrl+4")  # x-axis: packet loss, and raise it: TCP's days climb
    assert win.controller.x_field == "fabric.loss_rate"
    win.controls.focus_combo.setCurrentIndex(win.controls.focus_combo.findData("ethernet"))
    settle(win)
    days = curve_y(win, "duration", "ethernet")
    assert np.nanmax(days) > np.nanmin(days)
    _key(qtbot, win, "Ctrl+B")
    assert f.bands_action.isChecked()
    _key(qtbot, win, "Ctrl+B")
    # 4. break-even, pin A, change, A vs B: each dock on screen when its step expects it
    _key(qtbot, win, "Ctrl+Shift+E")
    assert f.breakeven_dock.isVisible()
    assert _in_front(win, f.breakeven_dock)
    _key(qtbot, win, "Ctrl+Shift+A")
    assert _in_front(win, f.compare_dock) and f.pin_a is not None
    win.sliders["workload.params_b"].step_by(10)
    settle(win)
    _key(qtbot, win, "Ctrl+Shift+C")
    assert _in_front(win, f.compare_dock)  # pressed with the dock open: it stays, in front
    _key(qtbot, win, "Ctrl+Shift+C")
    assert _in_front(win, f.compare_dock)
    _key(qtbot, win, "Ctrl+Shift+T")
    assert _in_front(win, f.tornado_dock)
    _key(qtbot, win, "Ctrl+Shift+E")  # with the tornado in front, break-even comes to the front
    assert _in_front(win, f.breakeven_dock) and not _in_front(win, f.tornado_dock)
    f.settle_now()
    QtWidgets.QApplication.processEvents()
    for ch in (win.charts[k] for k in WINDOW_CHART_KINDS):  # the stacked charts keep a readable plot
        assert ch.height() >= ch.minimumHeight() > 100, ch.objectName()
    # 5. F11: the stage; Esc: the window exactly as it was
    win.resize(LAPTOP)
    qtbot.wait(50)  # the window's deferred fitting done

    def layout():
        return {d.objectName(): (d.isVisible(), _in_front(win, d), _in_front(win, d) and d.height() // 4)
                for d in f.docks.docks.values()}

    state, sizes = layout(), win.splitter.sizes()
    _key(qtbot, win, "F11")
    assert win.presentation_on and win.pages.currentWidget() is f.presentation_mode.stage
    assert not win.menuBar().isVisible() and not f.breakeven_dock.isVisible()
    _key(qtbot, win, "Escape")
    assert not win.presentation_on and win.menuBar().isVisible()
    qtbot.wait(50)
    assert _in_front(win, f.breakeven_dock)  # the dock in front before the stage is in front again
    assert layout() == state and all(tb.isVisible() for tb in win.findChildren(QtWidgets.QToolBar))
    # the charts' width as it was; the table may take a few pixels it needs at the normal text size again
    assert abs(win.splitter.sizes()[1] - sizes[1]) <= 8, (sizes, win.splitter.sizes())
    # 6. Ctrl+P: the proposal sheet action is there under its key
    keys = [a.shortcut().toString() for a in win.findChildren(QtGui.QAction)]
    assert "Ctrl+P" in keys
