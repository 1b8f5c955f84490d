"""The fabric in focus's transport settings (TCP sockets, GPUDirect TCP, minimum RTO, queue pairs, SHARP), the job
placement and the published set's tuned RoCE have controls: each moves what the window plots, greys out where its
transport (or profile set) does not have it, and a value the engine refuses is one line naming the control, with
the work kept."""

from __future__ import annotations

import numpy as np
import pytest
from guihelpers import settle
from PySide6 import QtCore


def _days(win):
    """The training days the duration chart draws, per fabric, at every point of the sweep."""
    sweep = win.controller.snapshot.sweep
    days = np.asarray(sweep.reliability.train_days_with_interruptions, dtype=float)
    return {f: days[sweep.fabric_index(f)].copy() for f in win.charts["duration"].curves if f in sweep.fabrics}


def _focus(win, name):
    win.focus_combo.setCurrentIndex(win.focus_combo.findData(name))
    settle(win)


def _type(qtbot, win, key, text):
    """Type ``text`` into the fabric slider's value box and press Return, as a user does."""
    edit = win.fabric_sliders[key].edit
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, QtCore.Qt.Key.Key_Return)
    settle(win)


def _custom(win, fabric):
    return win.controller.scenario.fabric.custom_dict()[fabric]


@pytest.fixture
def big_window(window):
    """128 nodes: two switch levels, so traffic crosses the leaf uplinks (ECMP collisions, placement)."""
    window.controller.set_value("cluster.nodes", 128)
    settle(window)
    return window


@pytest.mark.parametrize("key,text,value", [("sockets_per_connection", "16", 16), ("min_rto_ms", "5", 5.0)])
def test_tcp_sockets_and_minimum_rto_move_the_ethernet_curve_alone(window, qtbot, key, text, value):
    win = window
    _focus(win, "ethernet")  # the seed profile's Ethernet loses 0.75 % of its packets
    assert win.fabric_sliders[key].isEnabled()
    before = _days(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=10000):
        _type(qtbot, win, key, text)
    assert getattr(_custom(win, "ethernet"), key) == pytest.approx(value)
    after = _days(win)
    assert np.nanmax(np.abs(after["ethernet"] / before["ethernet"] - 1.0)) > 0.01
    np.testing.assert_array_equal(after["infiniband"], before["infiniband"])  # other fabrics untouched


def test_gpudirect_tcp_check_lifts_the_host_copy(window, qtbot):
    win = window
    win.controller.set_profile_set("published")  # Ethernet's bandwidth share and CPU cap from the profile: the
    settle(win)                                   # option replaces them (a scenario's own values would stay)
    _focus(win, "ethernet")
    check = win.fabric_checks["gpudirect_tcp"]
    assert check.isEnabled() and not check.isChecked()
    before = _days(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=10000):
        check.click()
    assert _custom(win, "ethernet").gpudirect_tcp is True
    after = _days(win)
    assert np.nanmax(before["ethernet"] / after["ethernet"]) > 1.01  # no host copy, no CPU cap: faster


def test_queue_pairs_spread_roce_over_ecmp(big_window, qtbot):
    win = big_window
    _focus(win, "roce")
    assert win.fabric_sliders["qps_per_connection"].isEnabled()
    before = _days(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=10000):
        _type(qtbot, win, "qps_per_connection", "8")
    assert _custom(win, "roce").qps_per_connection == 8
    after = _days(win)
    assert np.nanmax(before["roce"] / after["roce"]) > 1.01  # more, smaller flows: fewer hash collisions
    assert np.all(after["roce"] <= before["roce"] * (1 + 1e-9))


def test_placement_combo_sends_a_fragmented_job_over_the_uplinks(big_window, qtbot):
    win = big_window
    combo = win.placement_combo
    assert combo.currentData() == "contiguous" and combo.currentText()
    before = _days(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=10000):
        combo.setCurrentIndex(combo.findData("fragmented"))
    assert win.controller.scenario.topology.placement == "fragmented"
    after = _days(win)
    assert np.nanmax(after["roce"] / before["roce"]) > 1.01  # every ring crosses the leaf uplinks
    win.controller.set_value("topology.placement", "contiguous")  # and the combo follows the scenario
    settle(win)
    assert combo.currentData() == "contiguous"


def test_sharp_check_moves_the_nccl_tests_curve_and_is_for_infiniband_only(window, nccl_dialog, qtbot):
    win, dlg = window, nccl_dialog
    _focus(win, "roce")
    assert not win.fabric_checks["sharp"].isEnabled()
    _focus(win, "infiniband")
    check = win.fabric_checks["sharp"]
    assert check.isEnabled() and not check.isChecked()
    dlg.fabric.setCurrentIndex(dlg.fabric.findData("infiniband"))
    dlg.nodes.setValue(64)
    _, before = dlg.curve.getData()
    before = before.copy()
    check.click()
    assert _custom(win, "infiniband").sharp is True
    _, after = dlg.curve.getData()
    assert np.nanmax(after / before) > 1.2  # in-network reduction: each node sends an all-reduce's bytes once


def test_controls_grey_out_where_the_transport_does_not_read_them(window):
    win = window
    _focus(win, "roce")
    assert not win.fabric_sliders["sockets_per_connection"].isEnabled()
    assert not win.fabric_checks["gpudirect_tcp"].isEnabled()
    assert win.fabric_sliders["qps_per_connection"].isEnabled()
    _focus(win, "ethernet")
    assert not win.fabric_sliders["qps_per_connection"].isEnabled()
    assert not win.fabric_checks["sharp"].isEnabled()
    assert win.fabric_sliders["min_rto_ms"].isEnabled()


@pytest.mark.parametrize("key,text,label", [("sockets_per_connection", "65", "TCP sockets per connection = 65"),
                                            ("min_rto_ms", "0", "Minimum RTO = 0"),
                                            ("qps_per_connection", "0", "Queue pairs per connection = 0")])
def test_a_refused_value_is_one_line_naming_the_control_and_keeps_the_work(window, qtbot, key, text, label):
    win = window
    _focus(win, "roce" if key == "qps_per_connection" else "ethernet")
    fabric = win.focus_combo.currentData()
    kept = win.controller.scenario
    shown = win.fabric_sliders[key].value()
    errors = []
    win.controller.errorOccurred.connect(errors.append)
    _type(qtbot, win, key, text)
    assert len(errors) == 1 and "\n" not in errors[0]
    assert label in errors[0] and f"fabric.custom.{fabric}" not in errors[0]
    assert win.controller.scenario == kept
    assert win.fabric_sliders[key].value() == pytest.approx(shown)


def test_tuned_roce_check_adds_its_curve_on_the_published_set_only(big_window, qtbot):
    win = big_window
    check = win.compare_checks["roce_tuned"]
    assert not check.isEnabled() and not check.isChecked()  # the article's set has no tuned RoCE
    win.controller.set_profile_set("published")
    settle(win)
    assert check.isEnabled() and "roce_tuned" not in win.charts["duration"].curves
    with qtbot.waitSignal(win.controller.recomputed, timeout=10000):
        check.click()
    settle(win)
    days = _days(win)
    assert "roce_tuned" in days and "roce_tuned" in win.controller.scenario.fabric.fabrics
    assert np.nanmax(days["roce"] / days["roce_tuned"]) > 1.01  # 0.9 of line rate, 4 QPs: faster than untuned
    with qtbot.waitSignal(win.controller.recomputed, timeout=10000):
        check.click()
    settle(win)
    assert not win.charts["duration"].curves["roce_tuned"].isVisible()
    assert "roce_tuned" not in win.controller.snapshot.sweep.fabrics
    assert "roce_tuned" not in win.controller.scenario.fabric.custom_dict()  # its empty table goes with it
