"""The nccl-tests prediction chart: the curve follows the controls, a measured log is drawn over it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

LOGS = Path(__file__).resolve().parents[2] / "assets" / "validation" / "nccl"


@pytest.fixture
def dialog(nccl_dialog):
    return nccl_dialog


def test_menu_action_opens_the_chart(window):
    assert window.features.nccl_action in window.features.tools_menu.actions()


def test_curve_spans_8_bytes_to_16_gib_and_moves_with_the_nodes(dialog):
    x, y = dialog.curve.getData()
    assert 10 ** x[0] == pytest.approx(8) and 10 ** x[-1] == pytest.approx(2**34) and len(x) == 32  # log axis
    dialog.nodes.setValue(1)
    _, one_node = dialog.curve.getData()
    dialog.nodes.setValue(64)
    _, many = dialog.curve.getData()
    assert not np.allclose(one_node, many)  # the control really changed the plotted data
    assert np.all(np.isfinite(many)) and many[-1] > many[0]


def test_collective_changes_the_curve(dialog):
    _, ar = dialog.curve.getData()
    dialog.collective.setCurrentIndex(dialog.collective.findData("all_gather"))
    _, ag = dialog.curve.getData()
    assert not np.allclose(ar, ag)


def test_measured_log_is_drawn_over_the_prediction(dialog):
    assert dialog.load_file(str(LOGS / "ib_h100_2node_ndr_ring_tuned_allreduce.txt"))
    px, py = dialog.points.getData()
    assert len(px) == 14 and py.max() == pytest.approx(392.69)  # y is linear
    assert dialog.nodes.value() == 2
    assert "64 MiB" in dialog.summary.text()


def test_unreadable_log_keeps_the_curve(dialog, tmp_path):
    before = dialog.curve.getData()[1].copy()
    bad = tmp_path / "bad.txt"
    bad.write_text("nothing here\n", encoding="utf-8")
    assert not dialog.load_file(str(bad))
    assert dialog.error_label.text()
    assert np.array_equal(dialog.curve.getData()[1], before)


def test_a_log_sets_the_run_it_measured_and_a_mismatch_is_a_visible_warning(dialog):
    from model import nccl_table

    s = dialog.controller.scenario
    assert [dialog.fabric.itemText(i) for i in range(dialog.fabric.count())] == [
        r.label for r in __import__("model").resolve_fabrics(s)]  # labels, never ids like "infiniband"
    before = dialog.curve.getData()[1].copy()
    # a 2-node log without '# Rank' lines: its 16 ranks over the scenario's 8 GPUs per node, not its 24 nodes
    assert dialog.load_file(str(LOGS / "ib_h100_nebius_2node_allreduce.txt"))
    assert dialog.nodes.value() == 2 and dialog.gpus.value() == 8
    assert not np.allclose(dialog.curve.getData()[1], before)
    # a log forcing NCCL_ALGO=Ring is predicted as a ring
    assert dialog.load_file(str(LOGS / "ib_h100_2node_ndr_ring_tuned_allreduce.txt"))
    assert set(dialog.table["algorithm"]) == {"ring"} and "NCCL_ALGO" in dialog.warning_label.text()
    # a TCP log picks the scenario's TCP fabric; forcing another fabric says the comparison mixes fabrics
    socket = LOGS / "socket_tcp_v100_2node_1gpu_bcm_manual_allreduce.txt"
    assert dialog.load_file(str(socket))
    tcp = next(r for r in __import__("model").resolve_fabrics(s) if r.transport == "tcp")
    assert dialog.fabric.currentData() == tcp.name and dialog.gpus.value() == 1
    assert "different fabrics" not in dialog.warning_label.text()
    dialog.fabric.setCurrentIndex(dialog.fabric.findData("infiniband"))
    text = dialog.warning_label.text()
    assert dialog.warning_label.isVisibleTo(dialog) and "The log ran over Ethernet (TCP); the fabric InfiniBand runs over InfiniBand" in text
    assert nccl_table.setup_mismatches(s, "infiniband", dialog.log) == [("transport", "tcp", "infiniband")]
