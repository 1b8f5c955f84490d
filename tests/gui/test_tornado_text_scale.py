"""The tornado on a laptop and a projector: its labels never overlap and its titles and labels grow
with presentation mode (checked by geometry: the drawn text rectangles)."""

from __future__ import annotations

from guihelpers import axis_text_specs, settle
from PySide6 import QtCore, QtWidgets

from model import presets


def _label_rects(axis):
    """The rectangles the axis draws its tick labels in."""
    return [rect for rect, text in axis_text_specs(axis) if text]


def _no_overlap(rects) -> bool:
    rects = sorted(rects, key=lambda r: r.top())
    return all(a.bottom() <= b.top() + 0.5 for a, b in zip(rects, rects[1:]))


def _rows_readable(chart) -> bool:
    """Every label drawn, none touching the next, two rows at least a label's height apart."""
    rects = _label_rects(chart.getPlotItem().getAxis("left"))
    pitch_ok = len(chart.rows) < 2 or chart.row_pitch_px() >= chart.label_height_px()
    return bool(rects) and len(rects) == len(chart.rows) and _no_overlap(rects) and pitch_ok


def _title_fits(chart) -> bool:
    """The title is not cut: it fits the plot area (the chart's width right of the labels)."""
    pi = chart.getPlotItem()
    return pi.titleLabel.item.boundingRect().width() <= chart.width() - pi.getAxis("left").width()


def _title_height(chart) -> float:
    return chart.getPlotItem().titleLabel.item.boundingRect().height()


def _open(window):
    window.resize(1366, 768)
    assert window.load_preset(presets.preset_path("case3"))
    settle(window)
    f = window.features
    f.tornado_dock.show()
    f.settle_now()
    QtWidgets.QApplication.processEvents()
    return f.tornado


def test_tornado_labels_never_overlap_and_come_back_after_the_stage(window, qtbot):
    """The stage view hides the docks; Esc brings the tornado back as it was, its labels readable."""
    t = _open(window)
    charts = (t.days, t.tco)
    assert all(c.rows for c in charts)
    normal = {}
    for c in charts:
        assert _rows_readable(c) and _title_fits(c)
        normal[c.quantity] = (_title_height(c), c.label_height_px(), len(c.rows))
    window.presentation_action.setChecked(True)
    try:
        qtbot.waitUntil(lambda: window.isFullScreen(), timeout=2000)
        assert not window.features.tornado_dock.isVisible()  # the stage has no docks
    finally:
        window.presentation_action.setChecked(False)
    QtWidgets.QApplication.processEvents()
    assert window.features.tornado_dock.isVisible()
    for c in charts:
        assert abs(_title_height(c) - normal[c.quantity][0]) < 1.0
        assert _rows_readable(c) and _title_fits(c)


def test_a_short_tornado_shows_the_largest_effects_and_says_how_many(window, qtbot):
    t = _open(window)
    total = len(t.swings)
    window.features.tornado_dock.setMinimumHeight(0)
    window.resizeDocks([window.features.tornado_dock], [120], QtCore.Qt.Orientation.Vertical)
    QtWidgets.QApplication.processEvents()
    c = t.days
    if len(c.rows) < total:  # fewer rows than inputs: the largest ones, and the title says so
        assert "top" in c.getPlotItem().titleLabel.text
        spans = [r["span"] for r in c.rows]
        assert spans == sorted(spans, reverse=True)
    assert _rows_readable(c)
