"""The oversubscription slider and the focus fabric's adaptive-routing and loss-recovery controls move the curves."""

from __future__ import annotations

import numpy as np
import pytest
from guihelpers import settle
from PySide6 import QtCore


@pytest.fixture
def big_window(window):
    """128 nodes on the seed profile's one NIC each: two switch levels, so traffic crosses the leaf uplinks."""
    window.controller.set_value("cluster.nodes", 128)
    settle(window)
    return window


def _days(win):
    """The training days the duration chart draws, per fabric, at every point of the sweep (the curve itself may
    leave out points that add nothing to the drawing)."""
    sweep = win.controller.snapshot.sweep
    days = np.asarray(sweep.reliability.train_days_with_interruptions, dtype=float)
    return {f: days[sweep.fabric_index(f)].copy() for f in win.charts["duration"].curves}


def test_oversubscription_slider_lengthens_training_on_ecmp_fabrics(big_window, qtbot):
    win = big_window
    slider = win.sliders["topology.oversubscription"]
    assert slider.isVisibleTo(win)
    before = _days(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=10000):
        slider.slider.setFocus()
        qtbot.keyClick(slider.slider, QtCore.Qt.Key.Key_End)  # 16:1
    assert win.controller.scenario.topology.oversubscription == pytest.approx(16.0)
    after = _days(win)
    # on the larger clusters of the axis the data-parallel traffic crosses the thinner uplinks and pays for it
    # (between 32 and 60 nodes a 16:1 leaf is faster: its 60 down ports hold the whole cluster under one leaf)
    assert np.nanmax(after["roce"] / before["roce"]) > 1.05


def test_adaptive_routing_check_relieves_ecmp_collisions(big_window, qtbot):
    win = big_window
    win.focus_combo.setCurrentIndex(win.focus_combo.findData("roce"))
    settle(win)
    check = win.adaptive_check
    assert not check.isChecked()  # RoCE on ECMP in the seed profile
    before = _days(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=10000):
        check.click()
    settle(win)
    assert win.controller.scenario.fabric.custom_dict()["roce"].adaptive_routing is True
    after = _days(win)
    assert np.nanmax(before["roce"] / after["roce"]) > 1.05  # RoCE trains faster without hash collisions
    np.testing.assert_array_equal(after["infiniband"], before["infiniband"])  # other fabrics untouched


def test_loss_recovery_combo_is_for_rdma_only_and_moves_the_curve(big_window, qtbot):
    win = big_window
    win.focus_combo.setCurrentIndex(win.focus_combo.findData("ethernet"))
    settle(win)
    assert not win.recovery_combo.isEnabled()  # TCP recovers by itself
    win.focus_combo.setCurrentIndex(win.focus_combo.findData("roce"))
    settle(win)
    assert win.recovery_combo.isEnabled() and win.recovery_combo.currentData() == "go_back_n"
    before = _days(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=10000):
        win.recovery_combo.setCurrentIndex(win.recovery_combo.findData("selective_repeat"))
    settle(win)
    after = _days(win)
    assert np.all(after["roce"] <= before["roce"] * (1 + 1e-9))
    assert np.nanmax(before["roce"] / after["roce"]) > 1.05  # at the article's 0.2 % loss go-back-N costs a lot


@pytest.fixture
def pipeline_window(window):
    """The Llama 3 405B preset with its published plan: 16 pipeline stages across 2,048 nodes, placed as a job
    scattered over a shared fabric (its traffic crosses the leaf uplinks; a contiguous job's rings barely do)."""
    assert window.load_preset("assets/presets/llama3_405b_16k_h100.toml")
    published = window.controller.scenario.replace_many({"parallel.mode": "explicit", "parallel.tp": 8,
                                                          "parallel.pp": 16, "parallel.zero_stage": 3,
                                                          "topology.placement": "fragmented"})
    window.controller.set_scenario(published)
    settle(window)
    return window


def test_oversubscription_slider_moves_a_pipeline_heavy_preset(pipeline_window, qtbot):
    win = pipeline_window
    before = _days(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=20000):
        win.controller.set_value("topology.oversubscription", 8.0)
        settle(win)
    after = _days(win)
    # InfiniBand's adaptive routing has no hash collisions: what moves it is the thinner uplinks alone
    assert np.nanmax(after["infiniband"] / before["infiniband"]) > 1.05
    assert np.nanmax(after["roce"] / before["roce"]) > 1.05


def test_adaptive_routing_check_moves_a_pipeline_heavy_preset(pipeline_window, qtbot):
    win = pipeline_window
    win.focus_combo.setCurrentIndex(win.focus_combo.findData("roce"))
    settle(win)
    before = _days(win)
    with qtbot.waitSignal(win.controller.recomputed, timeout=20000):
        win.adaptive_check.click()
    settle(win)
    after = _days(win)
    assert np.nanmax(before["roce"] / after["roce"]) > 1.02
    np.testing.assert_array_equal(after["infiniband"], before["infiniband"])
