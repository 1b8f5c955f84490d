"""A 1366 × 768 laptop: the window never needs more than the screen, with any dock open; the x-axis
selector, the buttons and every chart legend entry are on screen, and presentation mode scales the chart
text without overlaps (the stage view itself: tests/gui/test_stage_view.py)."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from guihelpers import settle
from model import presets

LAPTOP = QtCore.QSize(1366, 768)


def _inside(widget, window) -> bool:
    top_left = widget.mapTo(window, QtCore.QPoint(0, 0))
    return window.rect().contains(QtCore.QRect(top_left, widget.size()))


def _in_scroll_area(widget) -> bool:
    w = widget.parentWidget()
    while w is not None:
        if isinstance(w, QtWidgets.QScrollArea):
            return True
        w = w.parentWidget()
    return False


def _legend_entries_visible(chart) -> list[str]:
    """Legend labels drawn outside the chart (cut off), by text."""
    out = []
    view = chart.viewport().rect()
    for _, label in chart.legend.items:
        rect = chart.mapFromScene(label.item.sceneBoundingRect()).boundingRect()
        if not label.isVisible() or not view.contains(rect):
            out.append(label.text)
    return out


def _overlaps(a, b) -> bool:
    return a.intersects(b) and not a.intersected(b).isEmpty()


@pytest.mark.parametrize("preset", [None, "case3"])  # case 3: stalled fabrics (a caption) and idle GPUs (a legend note)
@pytest.mark.parametrize("dock", [None, "tornado", "breakeven", "compare"])
def test_everything_fits_a_laptop_screen(window, qtbot, dock, preset):
    win = window
    if preset is not None:
        assert win.load_preset(presets.preset_path(preset))
    if dock is not None:
        getattr(win.features, f"{dock}_dock").show()
    try:
        win.resize(LAPTOP)
        qtbot.wait(20)
        settle(win)
        win.features.settle_now()
        QtWidgets.QApplication.processEvents()
        hint = win.minimumSizeHint()
        assert hint.width() <= LAPTOP.width() and hint.height() <= LAPTOP.height(), hint
        assert win.size() == LAPTOP
        # the toolbar keeps the x-axis selector and the preset button, not in its overflow menu
        for w in (win.x_combo, win.preset_button, *win.profile_buttons.values()):
            assert w.isVisible() and _inside(w, win), w
        # buttons and labels outside the scrolling panels are on screen
        for w in win.findChildren(QtWidgets.QAbstractButton) + [win.error_label, win.timing_label]:
            if w.isVisible() and not _in_scroll_area(w) and w.window() is win:
                assert _inside(w, win), (type(w).__name__, w.objectName(), w.text() if hasattr(w, "text") else "")
        for kind, ch in win.charts.items():
            assert _inside(ch, win) or _in_scroll_area(ch), kind
            assert not _legend_entries_visible(ch), (kind, _legend_entries_visible(ch))
            pi = ch.getPlotItem()
            title = pi.titleLabel.sceneBoundingRect()
            assert not _overlaps(title, ch.legend.sceneBoundingRect()), kind  # the legend never covers the title
            assert ch.mapFromScene(pi.vb.sceneBoundingRect()).boundingRect().height() >= 40, kind  # a plot remains
    finally:
        win.presentation_action.setChecked(False)


def test_presentation_mode_scales_every_chart_text_and_the_table(window, qtbot):
    win = window
    ch = win.charts["tco"]
    before = dict(tick=ch.getPlotItem().getAxis("bottom").style["tickFont"],
                  legend=float(ch.legend.opts["labelTextSize"].rstrip("pt")),
                  label=ch.getPlotItem().getAxis("left").labelStyle.get("font-size"),
                  small=win.breakdown_legend.styleSheet(),
                  table=win.table.item(0, 1).font().pointSizeF())
    win.presentation_action.setChecked(True)
    try:
        win.showNormal()  # a 1366-pixel projector screen, not the test platform's full screen
        win.resize(LAPTOP)
        qtbot.wait(20)
        tick = ch.getPlotItem().getAxis("bottom").style["tickFont"]
        assert tick is not None and (before["tick"] is None or tick.pointSizeF() > before["tick"].pointSizeF())
        assert float(ch.legend.opts["labelTextSize"].rstrip("pt")) > before["legend"]
        assert ch.getPlotItem().getAxis("left").labelStyle.get("font-size") != before["label"]
        assert win.breakdown_legend.styleSheet() != before["small"]
        assert win.table.item(0, 1).font().pointSizeF() > before["table"]
        # the point table keeps every column: the panel is at least as wide as the table needs
        assert win.point_panel.width() >= win.table.minimumSizeHint().width()
        # ... and every row: the table is as tall as its header and rows
        rows = sum(win.table.rowHeight(r) for r in range(win.table.rowCount()))
        assert win.table.height() >= rows + win.table.horizontalHeader().height()
    finally:
        win.presentation_action.setChecked(False)
    assert win.table.item(0, 1).font().pointSizeF() == pytest.approx(before["table"])
