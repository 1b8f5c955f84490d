"""Curves a customer can read: the x-range follows the scenario, every step explains itself on
hover, and a step a whole-number rule causes is ringed rather than drawn as physics."""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore

from gui.present.series import chart_series, in_use_points
from gui.window import list_presets

from guihelpers import settle


def _load(win, stem):
    path = next(p for _, p in list_presets() if p.stem.startswith(stem))
    assert win.load_preset(path)
    settle(win)


def _hover(ch, x):
    vb = ch.getPlotItem().vb
    yr = vb.viewRange()[1]
    ch._on_mouse_moved(vb.mapViewToScene(QtCore.QPointF(math.log10(x), yr[0] + 0.9 * (yr[1] - yr[0]))))
    return ch.readout_text()


def test_an_8_node_lab_is_drawn_around_its_point(window):
    _load(window, "case1")
    assert window.controller.scenario.cluster.nodes == 8
    x0, x1 = (10 ** v for v in window.charts["utilisation"].getPlotItem().vb.viewRange()[0])
    assert x0 <= 8 <= x1
    assert x1 < 200, x1  # not 1–4,096 nodes with the point at the left edge
    where = (math.log10(8) - math.log10(x0)) / (math.log10(x1) - math.log10(x0))
    assert 0.25 < where < 0.75, where


def test_a_whole_number_step_is_ringed_and_explained_on_hover(window):
    # 1,000 sequences: at 3 nodes InfiniBand's 2-stage plan's 4 replicas could only become 5 (6 do not divide
    # the batch), leaving 4 GPUs idle, so the engine moves to another plan (Ethernet keeps one node's plan)
    _load(window, "case2")
    assert window.controller.set_value("workload.global_batch", 1000)
    window.controller.recompute_now()
    settle(window)
    ch = window.charts["utilisation"]
    eth = [s for s in ch.series.series if s.fabric == "infiniband"][0]
    x = ch.series.x
    i3 = int(np.flatnonzero(x == 3)[0])
    assert eth.whole_number[i3]
    rx, ry = ch.step_marks.getOriginalDataset()
    assert np.any((rx == 3) & np.isclose(ry, eth.y[i3]))  # the ring sits on the curve at 3 nodes
    # no text over the curves in the window: what the rings mean is on hover over the chart
    assert not ch.step_note.isVisible() and "whole-number plan step" in ch.toolTip()
    text = _hover(ch, 3)
    assert "2 → 3" in text and "pp 2→4" in text and "whole-number rule" in text, text
    assert "4 GPUs idle" in text


def test_a_step_without_a_whole_number_cause_names_the_plan_change(window):
    _load(window, "case2")
    ch = window.charts["utilisation"]
    x = ch.series.x
    for s in ch.series.series:
        physics = np.flatnonzero(s.plan_changed & ~s.whole_number)
        if physics.size:
            i = int(physics[-1])
            break
    else:
        raise AssertionError("no plan change that is not ringed")
    text = _hover(ch, float(x[i]))
    assert "plan:" in text or "plan unchanged" in text, text


def test_moving_the_nodes_slider_across_decades_moves_the_range(window):
    _load(window, "case1")
    window.controller.set_value("cluster.nodes", 300)
    settle(window)
    x0, x1 = (10 ** v for v in window.charts["utilisation"].getPlotItem().vb.viewRange()[0])
    assert x0 <= 300 <= x1 and x0 >= 5, (x0, x1)  # was 1 before the point moved a decade


def test_a_saw_tooth_without_a_plan_change_names_its_whole_number_cause(window):
    """Case 3: between plan changes InfiniBand's utilisation saw-tooths; each tooth is the batch over dp
    rounded up to whole micro-batches, each slope the GPUs that do not fill another replica."""
    from gui.charts.chart_readout import step_explanation

    _load(window, "case3")
    res = window.controller.snapshot.sweep
    ib = res.fabrics.index("infiniband")
    texts = [step_explanation(res, ib, i) for i in range(1, len(res.x))]
    assert any("micro-batches per step" in t and "plan unchanged" in t for t in texts)
    assert any("GPUs idle" in t for t in texts)


def _idle_points(series) -> np.ndarray:
    return np.flatnonzero(np.asarray(series.idle_gpus) & np.isfinite(series.y))


def _inner_idle_x(x, series) -> np.ndarray:
    """The x of the idle points that lie between two points where every GPU works."""
    idle = np.asarray(series.idle_gpus, dtype=bool) & np.isfinite(series.y)
    working = x[~idle & np.isfinite(series.y)]
    return x[idle & (x > working.min()) & (x < working.max())]


def test_points_where_the_batch_does_not_divide_are_drawn_apart_from_the_curve(window):
    """Small tier, 1,024 sequences: between the node counts the batch divides (4, 8, 16 ...) the plan keeps
    its replicas and GPUs idle; the solid curve joins only the points where every GPU works, the idle points
    of the fabric in focus are shaded stretches (no saw-tooth of fragments), and the legend says what the
    shading means."""
    _load(window, "tier_small")
    ch = window.charts["utilisation"]
    x = ch.series.x
    s = [s for s in ch.series.series if s.fabric == "infiniband"][0]
    idle = _idle_points(s)
    assert (x[idle] == 5).any() and not (x[idle] == 8).any()  # 5 nodes leave GPUs idle, 8 use them all
    solid_x, _ = ch.curves["infiniband"].getOriginalDataset()
    inner = _inner_idle_x(x, s)
    assert inner.size and not np.isin(inner, solid_x).any()  # no idle point between two working ones is on it
    assert 4 in solid_x and 8 in solid_x
    assert ch.idle_band.isVisible() and ch.idle_fabric == window.focus
    spans = ch.idle_band.stretches()

    def shaded(n):
        return any(a <= np.log10(n) <= b for a, b in spans)

    assert shaded(5) and not shaded(4) and not shaded(8)
    # one stretch per run of idle points: fewer stretches than idle points, and none of them empty
    assert 0 < len(spans) < idle.size and all(b > a for a, b in spans)
    # the window says what the shading means in the legend, not in text over the curves
    assert "batch does not divide" in " ".join(label.text for _, label in ch.legend.items)
    assert not ch.step_note.isVisible()
    assert not window.charts["tco"].idle_band.isVisible()  # the TCO buys every GPU, whatever the plan uses
    # the shade lies under the grid and the curves, painted opaque: the fabric's faint colour mixed over the
    # plot's background, as a translucent fill would look
    from gui.charts.plot_items import IDLE_SHADE_ALPHA
    assert ch.idle_band.zValue() < ch.grid.major.zValue() < ch.curves["infiniband"].zValue()
    faint, painted = ch.idle_band.colour(), ch.idle_band.painted_colour()
    bg = ch.backgroundBrush().color()
    share = IDLE_SHADE_ALPHA / 255
    assert faint.alpha() == IDLE_SHADE_ALPHA and painted.alpha() == 255
    for got, c, b in zip((painted.red(), painted.green(), painted.blue()), (faint.red(), faint.green(), faint.blue()),
                         (bg.red(), bg.green(), bg.blue())):
        assert got == round(b + (c - b) * share)


def test_a_curve_runs_to_the_last_point_the_engine_gives_even_where_gpus_idle_there(window):
    """Case 2 (a batch of 1,152) from 1 to 1,000 nodes: past a few hundred nodes the batch divides at no node
    count, so every point there leaves GPUs idle; the curve still runs to the sweep's last point (shaded as
    idle), instead of ending where the last point without idle GPUs lies."""
    _load(window, "case2")
    ch = window.charts["duration"]
    x = np.asarray(ch.series.x)
    s = [s for s in ch.series.series if s.fabric == "infiniband"][0]
    last = x[np.isfinite(s.y)].max()
    assert bool(np.asarray(s.idle_gpus)[x == last].all())  # the premise: the last point leaves GPUs idle
    solid_x, _ = ch.curves["infiniband"].getOriginalDataset()
    assert np.nanmax(solid_x) == last
    # GPUs idle only past the last working point: nothing is left out of the curve, and it is still shaded
    import dataclasses
    tail = dataclasses.replace(s, idle_gpus=np.isfinite(s.y) & (x >= x[np.isfinite(s.y)][-3]))
    kept_x, _, shaded = in_use_points(x, tail)
    assert shaded and np.array_equal(kept_x, x)


def test_a_sweep_where_every_gpu_works_draws_no_dotted_curve(window):
    _load(window, "tier_small")
    window.controller.set_value("cluster.nodes", 8)
    window.controller.set_x_field("fabric.latency_us")
    window.controller.recompute_now()
    settle(window)
    ch = window.charts["utilisation"]
    assert not ch.idle_band.isVisible()
    assert "batch does not divide" not in ch.step_note.toPlainText()


def test_the_exported_chart_draws_the_idle_points_dotted_too():
    import model
    from gui.export.charts import build_chart, ensure_app, snapshot_for

    ensure_app()
    snap = snapshot_for(model.load_scenario(next(p for _, p in list_presets() if p.stem == "tier_small")))
    w = build_chart(snap, "cost_per_run")
    s = w.series.series[0]
    solid_x, _ = w.curves[s.fabric].getOriginalDataset()
    inner = _inner_idle_x(np.asarray(w.series.x), s)
    assert inner.size and not np.isin(inner, solid_x).any()
    assert w.idle_band.isVisible()
    assert any("batch does not divide" in label.text for _, label in w.legend.items)  # an export stands alone


def test_the_tco_tab_draws_its_chart_inside_the_tab(qtbot):
    """The chart is laid out while its tab is hidden; shown at a laptop's width, its plot must not keep
    the width of the title it had then (the right end of the curves cut off)."""
    from gui.app import build_window

    win = build_window(restore=False)
    qtbot.addWidget(win)
    win.show()
    _load(win, "tier_small")
    win.resize(1366, 768)
    for tab in (1, 2):
        win.point_tabs.setCurrentIndex(tab)
        qtbot.wait(20)
    ch = win.charts["tco"]
    assert win.point_tabs.currentWidget() is ch and ch.series.kind == "tco" and ch.width() < 600
    assert ch.getPlotItem().geometry().width() <= ch.width() + 0.5
    assert all(np.isfinite(s.y).any() for s in ch.series.series)
    win.close()


def test_a_title_too_wide_for_its_chart_takes_its_short_form_and_the_plot_keeps_the_charts_width(window, qtbot):
    """Presentation mode on a laptop: "5-year TCO against Traditional Ethernet (TCP)" is wider than the
    TCO chart; the title names the baseline by its short name (cut with an ellipsis if need be) so the plot,
    and the right end of every x-linked curve, stays inside the chart."""
    _load(window, "tier_small")
    window.presentation_action.setChecked(True)
    try:
        window.showNormal()
        window.resize(1366, 768)
        qtbot.wait(30)
        settle(window)
        ch = window.charts["tco"]
        assert ch.series.title != ch.series.short_title
        text = ch.getPlotItem().titleLabel.text
        assert "Traditional Ethernet (TCP)" not in text and ("Ethernet" in text or "…" in text), text
        for kind, chart in window.charts.items():
            if chart.isVisible():
                assert chart.getPlotItem().geometry().width() <= chart.width() + 0.5, kind
    finally:
        window.presentation_action.setChecked(False)  # the text scale is the process's


def test_the_stacked_charts_keep_the_point_in_view_beside_the_cost_per_run_tab(qtbot):
    """The cost-per-run chart sits in a hidden tab: x-linked to the stacked charts, or moving its plot when
    shown, it threw their x-range off (pyqtgraph aligns linked views by screen geometry): a bare window shown
    at its first size, a preset loaded, then the laptop size."""
    from gui.window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    _load(win, "case2")
    win.resize(1366, 768)
    qtbot.wait(1000)  # the layout passes and resizes a user's event loop runs
    nodes = win.controller.scenario.cluster.nodes
    for kind in ("utilisation", "duration", "tco", "cost_per_run"):
        x0, x1 = (10 ** v for v in win.charts[kind].getPlotItem().vb.viewRange()[0])
        assert x0 <= nodes <= x1 and x1 < 1e5, (kind, x0, x1)
    win.close()


def test_the_hidden_tco_chart_waits_for_its_tab_and_then_shows_the_latest_result(window, qtbot):
    """While its tab is hidden a slider drag does not redraw the same cluster's TCO chart; shown, it draws the
    scenario the window holds then, not the one it last drew."""
    ch = window.charts["tco"]
    assert not ch.isVisible()
    before = {f: np.array(c.getOriginalDataset()[1], dtype=float) for f, c in ch.curves.items()}
    window.controller.set_value("economics.electricity_cny_per_kwh", 5.0)
    window.controller.recompute_now()
    held = {f: np.array(c.getOriginalDataset()[1], dtype=float) for f, c in ch.curves.items()}
    assert all(np.array_equal(before[f], held[f], equal_nan=True) for f in before)  # not redrawn out of sight
    window.point_tabs.setCurrentWidget(ch)
    qtbot.waitUntil(ch.isVisible, timeout=2000)
    want = chart_series(window.controller.snapshot.sweep, "tco", baseline=ch.tco_baseline)
    for s in want.series:
        solid_x, solid_y, _ = in_use_points(want.x, s)
        np.testing.assert_allclose(ch.curves[s.fabric].getOriginalDataset()[1], solid_y, rtol=1e-12,
                                   equal_nan=True)
    assert any(not np.array_equal(before[f], np.asarray(ch.curves[f].getOriginalDataset()[1], dtype=float),
                                  equal_nan=True) for f in before)  # dearer power: a new TCO difference


def test_the_grid_is_drawn_in_opaque_ink_mixed_with_the_background(window):
    """The grid lies under every curve, so it is drawn in the faint colour a translucent pen would give over
    the background, but opaque (Qt draws that many times faster): light and dark themes alike."""
    from gui.theme import style_chart

    grid = window.charts["duration"].grid
    for dark, background, ink in ((False, (255, 255, 255), (0, 0, 0)), (True, (0x1E, 0x1F, 0x22), (255, 255, 255))):
        style_chart(window.charts["duration"], dark)
        for item, alpha in ((grid.major, 60), (grid.minor, 25)):
            colour = item.opts["pen"].color()
            assert colour.alpha() == 255
            want = [round(b + (i - b) * alpha / 255) for i, b in zip(ink, background)]
            assert [colour.red(), colour.green(), colour.blue()] == want, (dark, alpha)
    style_chart(window.charts["duration"], False)
