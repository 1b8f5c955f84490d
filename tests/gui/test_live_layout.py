"""A slider drag re-lays out neither the point table's panel nor the toolbar for a number a character
shorter or longer: the table's columns only widen while a slider is held and fit tightly again after; the
scenario line in the toolbar keeps a fixed size."""

from __future__ import annotations

import model
from gui.panels.point_table import PointTable
from gui.window import list_presets


def _point(stem: str, **changes):
    path = next(p for _, p in list_presets() if p.stem.startswith(stem))
    s = model.load_scenario(path)
    for key, value in changes.items():
        s = s.replace(key, value)
    return model.evaluate(s, require_feasible=False)


def _widths(table) -> list[int]:
    header = table.horizontalHeader()
    return [header.sectionSize(i) for i in range(1, header.count())]  # the first column stretches


def _table(qtbot) -> PointTable:
    table = PointTable()
    qtbot.addWidget(table)
    table.resize(900, 300)
    table.show()
    return table


def test_the_tables_columns_only_widen_while_a_slider_is_held(qtbot):
    wide = _point("case3")  # 1 T parameters on 128 H100 nodes: long money figures
    narrow = _point("case1")  # 8 A10 nodes: short ones
    table = _table(qtbot)
    table.show_point(wide)
    before = _widths(table)
    table.show_point(narrow, live=True)
    held = _widths(table)
    assert all(h >= b for h, b in zip(held, before))  # held: no column narrows, the panel keeps its layout
    table.show_point(narrow)
    let_go = _widths(table)
    fresh = _table(qtbot)
    fresh.show_point(narrow)
    assert let_go == _widths(fresh)  # let go: the columns fit the texts tightly again
    assert any(g < h for g, h in zip(let_go, held))


def test_the_scenario_line_keeps_its_size_while_its_numbers_change(window):
    label = window.scenario_label
    label.setText("<b>Scenario</b> · 24 × 8 A100 · 30.1 B params")
    size = label.size()
    assert label.minimumSize() == label.maximumSize() == size  # fixed: a new text asks for no new layout
    label.setText("<b>Scenario</b> · 24 × 8 A100 · 30.25 B params")
    assert label.size() == size
    assert window.x_combo.isVisible()  # the room it takes is what the other items leave


def _axis_band(widget):
    """The bottom of the step-time chart as drawn: its time axis's ticks and title."""
    image = widget.grab().toImage()
    h = image.height()
    return image.copy(0, h - 2 * widget.fontMetrics().height() - 14, image.width(), 2 * widget.fontMetrics().height() + 14)


def test_the_step_time_axis_only_lengthens_while_a_slider_is_held(qtbot):
    from gui.charts.breakdown import BreakdownChart

    chart = BreakdownChart()
    qtbot.addWidget(chart)
    chart.resize(500, 260)
    chart.show()
    long_steps = _point("case3")  # 1 T parameters: long steps
    short_steps = _point("case3", **{"workload.params_b": 100.0})
    assert max(long_steps.breakdown.compute) > 2 * max(short_steps.breakdown.compute)
    chart.show_point(long_steps)
    axis = _axis_band(chart)
    chart.show_point(short_steps, live=True)
    assert _axis_band(chart) == axis  # held: the same ticks, the bars shorter on them
    chart.show_point(short_steps)
    assert _axis_band(chart) != axis  # let go: an axis fitted to the shorter steps


def test_while_a_slider_is_held_the_fabric_controls_still_follow_a_fabric_change(window):
    """The fabric controls are synced only when what they show changes: a drag of the model size leaves them,
    a change of the fabric in focus during a drag reaches them."""
    win = window
    focus = win.controller.scenario.fabric.focus_fabric
    win.session.state.dragging = True
    try:
        win.controller.set_value("workload.params_b", 31.0)
        win.sync_controls()
        assert win.sliders["workload.params_b"].value() == 31.0
        win.controller.set_fabric_value(focus, "latency_us", 37.0)
        win.sync_controls()
        assert win.fabric_sliders["latency_us"].value() == 37.0
        win.controller.set_fabric_value(focus, "latency_us", 12.0)
        win.controller.set_value("workload.params_b", 32.0)
        win.sync_controls()
        assert win.fabric_sliders["latency_us"].value() == 12.0
    finally:
        win.session.state.dragging = False
