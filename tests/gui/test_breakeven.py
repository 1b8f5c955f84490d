"""Break-even: crossings found along the x-axis, marked on the charts, worded for the proposal."""

from __future__ import annotations

import numpy as np
import pytest

import model
from gui.charts import breakeven
from guihelpers import settle


@pytest.fixture(scope="module")
def slow_ib():
    s = model.load_scenario("assets/presets/default.toml")
    return s.replace_many({"fabric.custom.infiniband.link_gbps": 100.0,
                           "fabric.custom.infiniband.latency_us": 30.0})


def test_default_pair_is_infiniband_vs_the_fastest_other(window):
    snap = window.controller.snapshot
    assert breakeven.default_pair(snap.sweep, snap.point) == ("infiniband", "roce")


def test_sentences_for_the_proposal(slow_ib):
    from gui.window.controller import sweep_values

    res = model.sweep(slow_ib, "cluster.nodes", sweep_values(slow_ib, "cluster.nodes"))
    lines = breakeven.sentences(res, ("infiniband", "roce"))
    assert any("per run above" in s and "nodes" in s for s in lines), lines
    assert any(s.startswith("No break-even on TCO") for s in lines)
    assert all(isinstance(s, str) and s for s in lines)
    # default pair when none is given
    assert breakeven.sentences(res)


def test_a_known_crossing_is_marked_on_the_chart(window, slow_ib):
    # a slow InfiniBand against a loss-free RoCE: they cross on duration and on TCO along nodes
    window.set_scenario(slow_ib.replace_many({"fabric.custom.roce.loss_rate": 0.0,
                                              "fabric.custom.infiniband.latency_us": 1000.0}))
    settle(window)
    snap = window.controller.snapshot
    cs = breakeven.crossings(snap.sweep, ("infiniband", "roce"))
    assert {c.metric for c in cs} == {"tco", "train_days_with_interruptions"}
    f = window.features
    f.markers.pair = ("infiniband", "roce")
    f.settle_now()
    assert len(f.markers.lines) == len(cs)
    for line, c, label in zip(f.markers.lines, cs, f.markers.labels()):
        assert line.value() == pytest.approx(np.log10(c.x))
        assert getattr(line, "label", None) is None  # no text over the curves: the crossing is named under the plot
        assert "above" in label and "nodes" in label
    tco = [c.metric for c in cs].index("tco")
    assert f.markers.lines[tco].getViewBox() is window.charts["tco"].getPlotItem().vb
    assert f.markers.labels()[tco] in window.charts["tco"].caption_notes()


def test_wobbles_are_not_break_evens():
    C = model.analysis.Crossing
    cs = [C(100.0, "a", "b", "tco", True), C(101.0, "a", "b", "tco", False), C(500.0, "a", "b", "tco", True)]
    assert [c.x for c in breakeven.clean(cs)] == [500.0]


def test_panel_pair_choice(window):
    f = window.features
    f.breakeven_dock.show()
    f.settle_now()
    p = f.breakeven
    assert "InfiniBand" in p.text.text()
    p.auto.setChecked(False)
    p.a.setCurrentIndex(p.a.findData("ethernet"))
    p.b.setCurrentIndex(p.b.findData("iwarp"))
    assert f.markers.pair == ("ethernet", "iwarp")
    assert "Ethernet" in p.text.text() or "iWARP" in p.text.text()


def test_markers_follow_the_x_axis(window):
    f = window.features
    window.controller.set_x_field("fabric.loss_rate")
    settle(window)
    f.settle_now()
    for line in f.markers.lines:  # wherever they are, they sit inside the swept range (log10 of %)
        x = window.charts["tco"].series.x
        assert np.log10(x.min()) <= line.value() <= np.log10(x.max())
    assert all("%" in s or "No break-even" in s for s in breakeven.sentences(window.controller.snapshot.sweep))


def test_the_proposal_sheet_stacks_near_break_even_labels(window, monkeypatch):
    # Llama 3 405B along nodes: InfiniBand and RoCE trade places twice on duration (about 255 and 4,082 nodes);
    # on the sheet's small chart the two labels sit at different heights, not over each other
    from PySide6 import QtGui

    from gui.export import proposal

    window.set_scenario(model.load_scenario("assets/presets/llama3_405b_16k_h100.toml"))
    settle(window)
    snap = window.controller.snapshot
    cs = [c for c in breakeven.crossings(snap.sweep, ("infiniband", "roce"))
          if breakeven.METRICS.get(c.metric) == "duration"]
    assert len(cs) >= 2
    heights, real = [], breakeven.add_marker
    monkeypatch.setattr(breakeven, "add_marker",
                        lambda *a, **k: heights.append(k["label_position"]) or real(*a, **k))
    image = QtGui.QImage(800, 400, QtGui.QImage.Format.Format_ARGB32)
    painter = QtGui.QPainter(image)
    try:
        chart = proposal.small_chart(snap, "duration", (220, 160))
        proposal.draw_chart(proposal._Sheet(painter, 800, 400, 10), snap, "duration", chart, 10, QtGui.QFont(), cs)
    finally:
        painter.end()
    assert len(heights) == len(cs) and len(set(heights[:3])) == min(len(cs), 3)
