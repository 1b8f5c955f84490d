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
