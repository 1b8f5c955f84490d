"""The point table's plan line says how many GPUs a plan uses and how many it leaves idle."""

from __future__ import annotations

import model
from gui.panels.point_table import COLUMNS, PointTable


def _tips(qtbot, point) -> list[str]:
    table = PointTable()
    qtbot.addWidget(table)
    table.resize(900, 300)
    table.show()
    table.show_point(point)
    col = [k for k, _ in COLUMNS].index("mfu")
    return [table.item(row, col).toolTip() for row in range(table.rowCount())]


def test_the_plan_line_names_the_idle_gpus_where_the_plan_leaves_some(qtbot):
    s = model.load_scenario("assets/presets/default.toml")
    idle = model.evaluate(s.replace("workload.global_batch", 1024))  # 1,024 does not split over 192 GPUs
    tips = _tips(qtbot, idle)
    ib = idle.fabric_index("infiniband")
    plan = idle.at("infiniband").plan
    assert plan.gpus_idle > 0
    assert f"{int(plan.gpus_used)} of 192 GPUs ({int(plan.gpus_idle)} idle)" in tips[ib]
    busy = model.evaluate(s)  # the preset's 1,152: every GPU works
    assert busy.at("infiniband").plan.gpus_idle == 0
    assert "idle" not in _tips(qtbot, busy)[busy.fabric_index("infiniband")]


def test_the_hover_read_out_names_the_idle_gpus_at_a_node_count_that_leaves_some(window):
    from PySide6 import QtCore
    import math
    import numpy as np

    win = window
    ch = win.charts["utilisation"]
    res = ch.view.sweep
    idle = np.asarray(res.plan.gpus_idle, dtype=float)
    f, i = (int(k[0]) for k in np.nonzero(idle > 0))  # a fabric and node count where the plan leaves GPUs idle
    x = float(res.x[i])
    vb = ch.getPlotItem().vb
    yr = vb.viewRange()[1]
    ch._on_mouse_moved(vb.mapViewToScene(QtCore.QPointF(math.log10(x) if ch.series.log_x else x, sum(yr) / 2)))
    used = float(np.asarray(res.plan.gpus_used)[f, i])
    assert f"{idle[f, i]:,.0f} of {idle[f, i] + used:,.0f} GPUs idle" in ch.readout_text()
