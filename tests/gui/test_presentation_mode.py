"""Presentation mode (F11): full screen, larger text, thick lines even while dragging; themes."""

from __future__ import annotations

from PySide6 import QtWidgets


def test_f11_toggles_full_screen_and_thick_lines(window, qtbot):
    act = window.presentation_action
    handle = window.sliders["workload.params_b"].slider  # held and released as a user does
    assert act.shortcut().toString() == "F11"
    base_pt = QtWidgets.QApplication.font().pointSizeF()
    act.setChecked(True)
    try:
        assert window.isFullScreen()
        assert QtWidgets.QApplication.font().pointSizeF() > base_pt
        idle = window.charts["utilisation"].line_width
        assert idle > 2.0
        handle.sliderPressed.emit()  # the audience is watching: no thin pens on the drag path
        assert window.dragging and window.charts["utilisation"].line_width == idle
        handle.sliderReleased.emit()
    finally:
        act.setChecked(False)
    assert not window.isFullScreen()
    handle.sliderPressed.emit()  # outside presentation mode the drag path is thin and cheap
    assert window.charts["utilisation"].line_width <= 1.0
    handle.sliderReleased.emit()
    assert window.charts["utilisation"].line_width > 1.0
    assert QtWidgets.QApplication.font().pointSizeF() == base_pt


def test_dark_and_light_themes(window):
    f = window.features
    assert not f.dark_action.isChecked()  # light by default: projectors
    chart = window.charts["tco"]
    light_bg = chart.backgroundBrush().color().lightness()
    f.dark_action.setChecked(True)
    try:
        assert chart.backgroundBrush().color().lightness() < 60 < light_bg
        assert QtWidgets.QApplication.palette().window().color().lightness() < 80
        assert chart.getPlotItem().getAxis("left").textPen().color().lightness() > 180
        for _, label in chart.legend.items:
            assert "e8e8e8" in label.item.toHtml().lower()
        assert window.settings.value("view/theme") == "dark"
        corner = window.breakdown.grab().toImage().pixelColor(3, 3)  # the step-time bars' background
        assert corner.lightness() < 60, corner.name()
    finally:
        f.dark_action.setChecked(False)
    assert window.breakdown.grab().toImage().pixelColor(3, 3).lightness() > 200
    assert chart.backgroundBrush().color().lightness() == light_bg
    assert QtWidgets.QApplication.palette().window().color().lightness() > 150


def test_leaving_presentation_mode_gives_the_charts_their_width_back(window, qtbot):
    """Large text on a small full screen squeezes the charts' column; after the mode the panels are as the
    user had them, not left squeezed."""
    window.resize(1366, 768)
    qtbot.wait(200)
    before = window.splitter.sizes()
    window.presentation_action.setChecked(True)
    qtbot.wait(300)
    window.presentation_action.setChecked(False)
    window.resize(1366, 768)
    qtbot.wait(300)
    after = window.splitter.sizes()
    assert after[1] >= before[1] - 2, (before, after)
