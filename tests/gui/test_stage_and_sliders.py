"""The stage view (one chart, the headline numbers, three sliders) on a laptop and a projector in both
languages; sliders that span realistic ranges and say when a typed value is beyond them; fabric sliders
that name what they move; the tornado's gap between the top two fabrics."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from gui import i18n
from gui.panels.controls import format_number
from gui.features.stage import STAGE_SLIDERS
from gui.charts.tornado import pick_gap
from guihelpers import settle
from model import presets, recommend


def _inside(widget, window) -> bool:
    top_left = widget.mapTo(window, QtCore.QPoint(0, 0))
    return window.rect().contains(QtCore.QRect(top_left, widget.size()))


def _label_fits(label: QtWidgets.QLabel) -> bool:
    """The label's text is drawn whole: wide enough for it, or tall enough for its wrapped lines."""
    if label.wordWrap():
        return label.heightForWidth(label.width()) <= label.height() + 1
    return label.sizeHint().width() <= label.width() + 1


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [QtCore.QSize(1366, 768), QtCore.QSize(1920, 1080)], ids=["laptop", "projector"])
def test_the_stage_shows_one_chart_the_headline_and_three_sliders(window, qtbot, lang, size):
    win = window
    i18n.switch_language(win, lang)
    try:
        assert win.load_preset(presets.preset_path("case2"))
        settle(win)
        win.features.compare_dock.show()
        win.presentation_action.setChecked(True)
        win.showNormal()
        win.resize(size)
        qtbot.wait(30)
        stage = win.features.presentation_mode.stage
        assert win.pages.currentWidget() is stage
        assert not win.menuBar().isVisible() and not win.statusBar().isVisible()
        assert not any(w.isVisible() for w in win.findChildren(QtWidgets.QToolBar))
        assert not any(d.isVisible() for d in win.findChildren(QtWidgets.QDockWidget))
        assert len(stage.sliders) == len(STAGE_SLIDERS) <= 3
        for w in [stage.chart, *stage.sliders.values(), *stage.tiles.values()]:
            assert w.isVisible() and _inside(w, win), w.objectName()
        for tile in stage.tiles.values():
            assert tile.value.text() not in ("", "–"), tile.objectName()
            assert _label_fits(tile.value) and _label_fits(tile.caption), (tile.objectName(), tile.value.text())
        assert stage.chart.height() >= 0.4 * size.height()  # the chart is the page
        assert "InfiniBand" in stage.tiles["pickTile"].value.text()
        # the chart names the fabric figures as the window's buttons do, not by their file id
        profile = win.profile_buttons[win.controller.scenario.fabric.profile_set].text()
        assert profile in stage.chart.caption and "seed" not in stage.chart.caption, stage.chart.caption
        # the presenter picks the chart; a slider moves what it shows
        stage.set_kind("tco")
        assert stage.chart.kind == "tco"
        before = stage.tiles["costTile"].value.text()
        stage.sliders["workload.params_b"].step_by(15)
        settle(win)
        assert stage.tiles["costTile"].value.text() != before
    finally:
        win.presentation_action.setChecked(False)
        i18n.switch_language(win, "en")
    assert win.pages.currentIndex() == 0 and win.menuBar().isVisible()
    assert win.features.compare_dock.isVisible()


def test_sliders_span_realistic_ranges_and_badge_typed_values_beyond(window):
    win = window
    nodes = win.sliders["cluster.nodes"]
    assert nodes.hi == 4096
    assert win.sliders["workload.params_b"].hi == 2000
    lat, loss = win.fabric_sliders["latency_us"], win.fabric_sliders["loss_rate"]
    assert (lat.lo, lat.hi) == (0.5, 1000.0) and loss.hi == pytest.approx(1.0)  # per cent
    nodes.slider.setValue(nodes.slider.maximum())  # an over-drag stops at the realistic end
    settle(win)
    assert win.controller.scenario.cluster.nodes == 4096 and not nodes.outside_range()
    nodes.edit.setText("10,000")  # typed: computed as given, with the badge
    nodes.edit.editingFinished.emit()
    settle(win)
    assert win.controller.scenario.cluster.nodes == 10_000
    assert nodes.outside_range() and nodes.badge.isVisibleTo(nodes)
    nodes.edit.setText("24")
    nodes.edit.editingFinished.emit()
    assert not nodes.outside_range() and not nodes.badge.isVisibleTo(nodes)


def test_fabric_sliders_name_their_fabric_and_can_move_every_fabric(window):
    win = window
    c = win.controls
    lat = win.fabric_sliders["latency_us"]
    assert "InfiniBand" in lat.name.text()
    win.controller.set_value("fabric.focus", "roce")
    settle(win)
    assert "RoCE" in lat.name.text()
    c.all_fabrics_check.setChecked(True)
    assert "every fabric" in lat.name.text()
    lat.edit.setText("42")
    lat.edit.editingFinished.emit()
    settle(win)
    s = win.controller.scenario
    assert all(s.get(f"fabric.custom.{name}.latency_us") == 42 for name in ("ethernet", "roce", "iwarp", "infiniband"))
    c.all_fabrics_check.setChecked(False)
    lat.edit.setText("7")
    lat.edit.editingFinished.emit()
    settle(win)
    s = win.controller.scenario
    assert s.get("fabric.custom.roce.latency_us") == 7 and s.get("fabric.custom.ethernet.latency_us") == 42


def test_value_boxes_never_print_an_exponent():
    for v, text in ((3.3e-06, "0.0000033"), (15600.0, "15,600"), (0.5, "0.5"), (1e-9, "0.000000001")):
        assert format_number(v) == text


def test_the_tornado_says_what_would_change_the_pick(window):
    win = window
    assert win.load_preset(presets.preset_path("case2"))
    settle(win)
    f = win.features
    f.docks.show_dock("tornadoDock")
    f.settle_now()
    t = f.tornado
    snap = win.controller.snapshot
    rec = recommend.recommendation(snap.scenario, snap.point, samples=0)
    gap = pick_gap(snap.scenario, snap.point, rec)
    assert gap["gap"] == pytest.approx(rec.margin)  # the same margin the recommendation states
    assert "InfiniBand leads RoCE" in t.gap_label.text()
    assert all(r["gap"] > 0 for r in gap["swings"]) and "No single input" in t.gap_label.text()
    assert gap["swings"] == sorted(gap["swings"], key=lambda r: r["gap"])


@pytest.mark.parametrize("preset", ["case2", "case3"])
def test_the_stage_s_yearly_saving_is_the_takeaway_s_same_work_figure(window, preset):
    """The stage and the takeaway line state one saving: the same work against the same baseline; on case 3
    TCP Ethernet stalls on the article's inputs, so both compare with the next-best fabric that runs (the fastest
    other than the pick: the most defensible saving)."""
    from gui.features.stage import headline
    from gui.present.plausibility import point_stalls

    win = window
    assert win.load_preset(presets.preset_path(preset))
    settle(win)
    snap, rec = win.controller.snapshot, win.recommendation.recommendation
    h = headline(snap, rec)
    stalls = point_stalls(snap.point)
    base = recommend.money_baseline(snap.point, h["pick"], None, stalls)
    assert base is not None and base not in stalls and base != h["pick"]
    assert h["saved_per_year"] == pytest.approx(recommend.same_work(snap.point, h["pick"], base).saved_per_year)
    if preset == "case3":
        assert "ethernet" in stalls and base != "ethernet"
        days = {f: float(d) for f, d in zip(snap.point.fabrics, snap.point.reliability.train_days_with_interruptions)}
        runs = [f for f in days if f not in stalls and f != h["pick"]]
        assert base == min(runs, key=days.get)  # the next-best (RoCE), not the slowest that runs (iWARP)
