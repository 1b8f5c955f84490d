"""Every slider changes the scenario, the plotted curves and the marker; no write-back loops."""

from __future__ import annotations

import numpy as np
import pytest
from guihelpers import curve_y, marker_xy, settle
from PySide6 import QtCore

import model
from gui.present.plausibility import point_stalls, stall_text

SCENARIO_SLIDERS = ["cluster.nodes", "cluster.gpus_per_node", "workload.params_b", "workload.train_tokens_b",
                    "economics.electricity_cny_per_kwh", "economics.pue", "economics.years"]
FABRIC_SLIDERS = ["latency_us", "loss_rate", "link_gbps"]


def _snapshot(win):
    curves = {(k, f): curve_y(win, k, f).copy() for k, ch in win.charts.items() for f in ch.curves}
    markers = {k: marker_xy(win, k) for k in win.charts}
    return curves, markers


def _changed(before, after) -> bool:
    return any(not np.array_equal(before[key], after[key], equal_nan=True) for key in before)


def _markers_moved(before, after) -> bool:
    return any(not (np.array_equal(before[k][0], after[k][0], equal_nan=True)
                    and np.array_equal(before[k][1], after[k][1], equal_nan=True)) for k in before)


def _press(qtbot, slider, key=QtCore.Qt.Key.Key_PageUp):
    slider.slider.setFocus()
    qtbot.keyClick(slider.slider, key)


@pytest.mark.parametrize("path", SCENARIO_SLIDERS)
def test_scenario_slider_changes_scenario_curves_and_marker(window, qtbot, path):
    win = window
    if path == "cluster.nodes":
        win.controller.set_x_field("workload.params_b")  # on a nodes axis only the marker would move
        settle(win)
    slider = win.sliders[path]
    assert slider.isVisibleTo(win)
    s0 = win.controller.scenario
    curves0, markers0 = _snapshot(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=5000):
        _press(qtbot, slider)
    s1 = win.controller.scenario
    assert s1.get(path) != s0.get(path)
    assert s1.get(path) == pytest.approx(slider.value())
    curves1, markers1 = _snapshot(win)
    assert _changed(curves0, curves1), f"{path}: curves did not change"
    assert _markers_moved(markers0, markers1), f"{path}: marker did not move"


def test_nodes_slider_moves_marker_along_nodes_axis(window, qtbot):
    win = window
    x0, _ = marker_xy(win, "utilisation")
    with qtbot.waitSignal(win.controller.recomputed, timeout=5000):
        _press(qtbot, win.sliders["cluster.nodes"])
    x1, _ = marker_xy(win, "utilisation")
    nodes = win.controller.scenario.cluster.nodes
    assert nodes > 24
    assert np.allclose(x1, nodes) and not np.allclose(x0, x1)


@pytest.mark.parametrize("key", FABRIC_SLIDERS)
def test_fabric_slider_edits_only_the_focus_fabric(window, qtbot, key):
    win = window
    win.controller.set_value("fabric.focus", "roce")
    settle(win)
    slider = win.fabric_sliders[key]
    before = {r.name: r.values[key] for r in model.resolve_fabrics(win.controller.scenario)}
    curves0, markers0 = _snapshot(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=5000):
        _press(qtbot, slider, QtCore.Qt.Key.Key_PageDown if key == "link_gbps" else QtCore.Qt.Key.Key_PageUp)
    s = win.controller.scenario
    after = {r.name: r.values[key] for r in model.resolve_fabrics(s)}
    assert after["roce"] != before["roce"]
    assert {n: v for n, v in after.items() if n != "roce"} == {n: v for n, v in before.items() if n != "roce"}
    assert s.get(f"fabric.custom.roce.{key}") == pytest.approx(after["roce"])
    curves1, markers1 = _snapshot(win)
    changed = {f for (k, f) in curves0 if not np.array_equal(curves0[(k, f)], curves1[(k, f)], equal_nan=True)}
    assert changed == {"roce"}
    assert _markers_moved(markers0, markers1)
    # each fabric keeps its own values: switching focus shows the other fabric's value
    win.focus_combo.setCurrentIndex(win.focus_combo.findData("infiniband"))
    assert win.controller.scenario.fabric.focus == "infiniband"
    settle(win)  # the next event-loop turn: controls follow the scenario
    assert slider.value() == pytest.approx(after["infiniband"])
    win.focus_combo.setCurrentIndex(win.focus_combo.findData("roce"))
    settle(win)
    assert slider.value() == pytest.approx(after["roce"])


def test_gpu_type_changes_curves_and_tooltip(window, qtbot):
    win = window
    y0 = curve_y(win, "utilisation", "roce").copy()
    i = win.gpu_combo.findData("H100-SXM")
    assert i >= 0
    with qtbot.waitSignal(win.controller.recomputed, timeout=5000):
        win.gpu_combo.setCurrentIndex(i)
    assert win.controller.scenario.cluster.gpu == "H100-SXM"
    assert not np.array_equal(y0, curve_y(win, "utilisation", "roce"), equal_nan=True)
    assert "H100" in win.gpu_combo.toolTip()


def test_currency_switch_relabels_money(window, qtbot):
    win = window
    combo = win.controls.widgets["economics.currency"]
    with qtbot.waitSignal(win.controller.recomputed, timeout=5000):
        combo.setCurrentIndex(combo.findData("USD"))
    assert win.controller.scenario.economics.currency == "USD"
    assert win.charts["cost_per_run"].series.currency == "USD"  # the third chart: cost per run in the currency
    assert win.cost_chart.data.currency == "USD"
    assert win.table.cell_text(0, "tco").startswith("$")
    # the electricity slider follows the currency
    assert win.sliders["economics.electricity_usd_per_kwh"].isVisibleTo(win)
    assert not win.sliders["economics.electricity_cny_per_kwh"].isVisibleTo(win)


def test_every_control_names_its_source(window):
    win = window
    for path, sl in win.sliders.items():
        assert sl.toolTip(), path
        assert "Value from" in sl.toolTip() or "profile" in sl.toolTip() or "Edited" in sl.toolTip(), path
    for key, sl in win.fabric_sliders.items():
        assert "Source:" in sl.toolTip(), key
        # loss shows as a percent in its value box; queue pairs and sockets are counts
        assert sl.unit_label.text() or key in ("loss_rate", "qps_per_connection", "sockets_per_connection")


def test_reset_returns_fabric_to_profile(window, qtbot):
    win = window
    c = win.controller
    c.set_value("fabric.focus", "ethernet")
    c.set_fabric_value("ethernet", "latency_us", 5.0)
    settle(win)
    assert win.fabric_sliders["latency_us"].value() == pytest.approx(5.0)
    assert win.reset_button.isEnabled()
    qtbot.mouseClick(win.reset_button, QtCore.Qt.MouseButton.LeftButton)
    settle(win)
    assert "ethernet" not in c.scenario.fabric.custom_dict()
    row = next(r for r in model.resolve_fabrics(c.scenario) if r.name == "ethernet")
    assert win.fabric_sliders["latency_us"].value() == pytest.approx(row.values["latency_us"])
    assert not win.reset_button.isEnabled()


def _type(win, qtbot, edit, text: str) -> None:
    """``text`` typed into a control's value box and entered, the recompute run."""
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, QtCore.Qt.Key.Key_Return)
    settle(win)


def test_typed_value_and_refused_value(window, qtbot):
    win = window
    edit = win.sliders["cluster.nodes"].edit
    _type(win, qtbot, edit, "48")
    assert win.controller.scenario.cluster.nodes == 48
    # a value the engine refuses: message shown, scenario and work kept
    errors = []
    win.controller.errorOccurred.connect(errors.append)
    edit.selectAll()
    qtbot.keyClicks(edit, "0")
    qtbot.keyClick(edit, QtCore.Qt.Key.Key_Return)
    settle(win)
    assert errors and errors[0].startswith("Nodes = 0")  # the field as the window labels it
    assert win.controller.scenario.cluster.nodes == 48
    assert "Nodes = 0" in win.error_label.text() and "cluster.nodes" not in win.error_label.text()
    assert win.sliders["cluster.nodes"].value() == 48


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_refused_value_names_the_field_and_its_range_in_the_windows_units(window, qtbot, lang):
    """Packet loss typed as 90 (the box is in %): the message names the field as the window labels it and
    the value and the allowed range in %, not the engine's fraction and dotted path."""
    from gui import i18n
    from gui.i18n_data import tr_field

    win = window
    i18n.switch_language(win, lang)
    try:
        _type(win, qtbot, win.fabric_sliders["loss_rate"].edit, "90")
        text = win.error_label.text()
        assert "= 90 %" in text and "50 %" in text, text
        assert "0.9" not in text and "0.5" not in text and "loss_rate" not in text, text
        assert i18n.translate("FieldRange", "a number from {lo} to {hi}").split("{")[0] in text, text
        assert tr_field("Packet loss") + " = 90 %" in text, text
    finally:
        i18n.switch_language(win, "en")


def test_no_write_back_loops(window, qtbot, monkeypatch):
    """Pushing a scenario into the controls never calls back into the controller."""
    win = window
    c = win.controller
    calls = []
    for name in ("set_value", "set_values", "set_fabric_value"):
        orig = getattr(c, name)
        monkeypatch.setattr(c, name, lambda *a, _o=orig, _n=name, **k: (calls.append((_n, a)), _o(*a, **k))[1])
    changes = []
    win.session.on({"scenario"}, lambda: changes.append(c.scenario))
    s = model.load_scenario(win.controller.source_path).replace("cluster.nodes", 96) \
        .replace("workload.params_b", 13.0).replace("fabric.profile_set", "published") \
        .replace("fabric.focus", "iwarp").replace("fabric.custom.iwarp.latency_us", 3.0)
    win.set_scenario(s)
    settle(win)
    assert calls == []
    assert len(changes) == 1
    assert c.scenario == s


def test_profile_set_switch_changes_curves(window, qtbot):
    win = window
    y0 = {f: curve_y(win, "utilisation", f).copy() for f in win.charts["utilisation"].curves}
    with qtbot.waitSignal(win.controller.recomputed, timeout=5000):
        qtbot.mouseClick(win.profile_buttons["published"], QtCore.Qt.MouseButton.LeftButton)
    assert win.controller.scenario.fabric.profile_set == "published"
    settle(win)  # the chart in the hidden cost-per-run tab too
    y1 = {f: curve_y(win, "utilisation", f) for f in y0}
    assert any(not np.array_equal(y0[f], y1[f], equal_nan=True) for f in y0)
    assert "Measured (published)" in win.windowTitle()
    assert all("profile: Measured (published)" in ch.caption for ch in win.charts.values())


@pytest.mark.parametrize("field", ["cluster.nodes", "workload.params_b", "fabric.latency_us", "fabric.loss_rate",
                                   "fabric.link_gbps"])
def test_every_x_axis_draws(window, field):
    win = window
    win.x_combo.setCurrentIndex(win.x_combo.findData(field))
    settle(win)
    assert win.controller.x_field == field
    for kind, ch in win.charts.items():
        x, y = ch.curves["roce"].getData()
        whole = ch.series.x  # the sweep (the solid curve skips the points that leave GPUs idle)
        assert x is not None and len(whole) >= 100 and len(x) >= 1
        assert np.isfinite(np.asarray(y, dtype=float)).any(), (field, kind)
        mx, _ = marker_xy(win, kind)
        assert len(mx) >= 1


def test_hover_readout_names_every_fabric(window, qtbot):
    win = window
    ch = win.charts["utilisation"]
    vb = ch.getPlotItem().vb
    centre = vb.mapViewToScene(vb.viewRect().center())
    ch._on_mouse_moved(centre)
    text = ch.readout_text()
    for name in ("Ethernet", "RoCE", "iWARP", "InfiniBand"):
        assert name in text
    assert "Nodes" in text


def test_hover_on_marker_shows_the_exact_point_values(window):
    win = window
    assert win.load_preset("assets/presets/case3_centre_128xH100_1T.toml")
    settle(win)
    ch = win.charts["duration"]
    vb = ch.getPlotItem().vb
    import math

    nodes = win.controller.scenario.cluster.nodes
    yr = vb.viewRange()[1]
    pos = vb.mapViewToScene(QtCore.QPointF(math.log10(nodes), sum(yr) / 2))
    ch._on_mouse_moved(pos)
    text = ch.readout_text()
    assert text.startswith("At this point")
    point = win.controller.snapshot.point
    days = point.reliability.train_days_with_interruptions
    stalls = point_stalls(point)
    assert stalls  # case 3 on the article's inputs: TCP Ethernet past the plausibility bound
    for i, fab in enumerate(point.fabrics):
        if fab in stalls:  # the cause, not a forecast
            assert stall_text(stalls[fab]) in text and f"{days[i]:,.1f}" not in text
        else:
            assert f"{days[i]:,.1f} days" in text


def test_breakdown_bars_match_the_engine(window):
    win = window
    point = win.controller.snapshot.point
    step = np.atleast_1d(point.throughput.step_time_s)
    assert np.allclose(win.breakdown.totals(), step, rtol=1e-6)
    assert "InfiniBand" in win.breakdown.grab_text()


def test_drag_uses_thin_pens(window, qtbot):
    win = window
    sl = win.sliders["workload.params_b"]
    sl.slider.sliderPressed.emit()
    assert all(ch.line_width == 1.0 for ch in win.charts.values())
    pen = win.charts["duration"].curves["infiniband"].opts["pen"]
    assert pen.widthF() == 1.0 and pen.isCosmetic()
    sl.slider.sliderReleased.emit()
    assert all(ch.line_width > 1.0 for ch in win.charts.values())


def test_keyboard_reaches_every_slider(window):
    win = window
    from PySide6 import QtWidgets

    for s in list(win.sliders.values()) + list(win.fabric_sliders.values()):
        assert s.slider.focusPolicy() & QtCore.Qt.FocusPolicy.TabFocus
        assert s.edit.focusPolicy() & QtCore.Qt.FocusPolicy.TabFocus
    for w in (win.gpu_combo, win.focus_combo, win.x_combo):
        assert w.focusPolicy() != QtCore.Qt.FocusPolicy.NoFocus
    assert isinstance(win.reset_button, QtWidgets.QPushButton)
    titles = [a.text() for a in win.menuBar().actions()]
    assert all("&" in t for t in titles)


def test_no_plan_fits_is_shown_not_crashed(window):
    win = window
    win.controller.set_values({"cluster.nodes": 1, "workload.params_b": 2000.0})
    settle(win)
    assert win.table.cell_text(0, "mfu") == "no plan fits"
    assert "no plan fits" in win.breakdown.note_text
    assert "none" in win.recommendation.summary.text()
    assert "They differ" not in win.recommendation.summary.text()
    for ch in win.charts.values():  # the curves keep the points where a plan fits, gaps elsewhere
        y = np.asarray(ch.curves["infiniband"].getData()[1], dtype=float)
        assert np.isnan(y).any() and np.isfinite(y).any()


def test_tooltips_follow_once_a_drag_ends(window):
    win = window
    sl = win.sliders["workload.params_b"]
    before = sl.slider.toolTip()
    sl.slider.sliderPressed.emit()
    win.controller.set_value("workload.params_b", 61.0)
    settle(win)
    assert sl.slider.toolTip() == before  # not rebuilt on the drag path
    sl.slider.sliderReleased.emit()
    assert sl.slider.toolTip() != before and "Edited" in sl.slider.toolTip()
