"""Presentation mode and the dark theme survive language switches: the text scale is applied
once from the start-up font (never compounded), and the dark theme can still be turned off."""

from __future__ import annotations

import pytest
from PySide6 import QtWidgets

from gui import i18n
from gui.theme import app_base, stage_scale


def _title_pt(chart) -> float:
    html = chart.getPlotItem().titleLabel.text
    return float(html.split("font-size:", 1)[1].split("pt", 1)[0])


def _legend_pt(chart) -> float:
    return float(chart.legend.opts["labelTextSize"].rstrip("pt"))


@pytest.fixture
def rebuilt(qtbot):
    """Windows made by a language switch, closed at the end; English restored."""
    made = []

    def switch(win, lang):
        new = i18n.switch_language(win, lang)
        qtbot.addWidget(new)
        made.append(new)
        return new

    yield switch
    i18n.set_language("en")
    for w in made:
        w.close()


def test_three_switches_in_presentation_mode_keep_the_font_size(window, rebuilt):
    base_pt = app_base()["font"].pointSizeF()
    window.presentation_action.setChecked(True)
    want = max(base_pt, 9.0) * stage_scale(window.screen().geometry().height())  # as large as the screen asks
    assert QtWidgets.QApplication.font().pointSizeF() == pytest.approx(want)
    title = _title_pt(window.charts["tco"])
    legend = _legend_pt(window.charts["duration"])
    assert title > 11.0 and legend > 9.0  # titles and legends scale too, not only the body text
    win = window
    for lang in ("zh_CN", "en", "zh_CN"):
        win = rebuilt(win, lang)
        assert win.presentation_action.isChecked()
        assert QtWidgets.QApplication.font().pointSizeF() == pytest.approx(want), lang
        assert _title_pt(win.charts["tco"]) == pytest.approx(title), lang
        assert _legend_pt(win.charts["duration"]) == pytest.approx(legend), lang
    win.presentation_action.setChecked(False)
    assert QtWidgets.QApplication.font().pointSizeF() == pytest.approx(base_pt)
    assert _title_pt(win.charts["tco"]) == pytest.approx(11.0)


def test_the_dark_theme_turns_off_after_a_switch(window, rebuilt):
    light = QtWidgets.QApplication.palette().window().color().lightness()
    window.features.dark_action.setChecked(True)
    zh = rebuilt(window, "zh_CN")
    assert zh.features.dark_action.isChecked()
    assert QtWidgets.QApplication.palette().window().color().lightness() < 80
    zh.features.dark_action.setChecked(False)
    assert QtWidgets.QApplication.palette().window().color().lightness() == light > 150
    assert zh.charts["tco"].backgroundBrush().color().lightness() > 200
