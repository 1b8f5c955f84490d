"""Calibrate from nccl-tests: the dialog fits, draws, saves one user fabric, and keeps work on errors."""

from __future__ import annotations

import numpy as np
import pytest

from issue6_helpers import nccl_log


@pytest.fixture
def dialog(calibrate_dialog):
    return calibrate_dialog


def test_menu_actions_exist(window):
    f = window.features
    assert f.calibrate_action in window.file_menu.actions()
    assert f.calibrate_action in f.tools_menu.actions()
    assert f.calibrate_action.shortcut().toString() == "Ctrl+K"


def test_defaults_come_from_the_focus_fabric(window, dialog):
    from model import resolve_fabrics

    s = window.controller.scenario
    row = next(r for r in resolve_fabrics(s) if r.name == s.fabric.focus_fabric)
    assert dialog.transport.currentData() == row.transport
    assert dialog.link.value() == pytest.approx(float(row.values["link_gbps"]))


def test_fit_is_drawn_over_the_points_and_printed(dialog, tmp_path):
    p = tmp_path / "allreduce.txt"
    p.write_text(nccl_log(40.0, 46.0))
    dialog.link.setValue(400.0)
    assert dialog.load_file(str(p))
    x, y = dialog.points.getData()
    assert len(x) == 12
    fx, fy = dialog.line.getData()
    assert len(fx) > 50 and np.all(np.diff(fy) >= 0)
    text = dialog.result_label.text()
    assert "40.0 µs" in text and "46.0 GB/s" in text
    assert dialog.save_button.isEnabled()
    assert dialog.error_label.text() == ""


def test_save_adds_one_user_fabric_with_one_recompute(window, dialog):
    c = window.controller
    dialog.link.setValue(400.0)
    dialog.nics.setValue(1)
    assert dialog.set_text(nccl_log(40.0, 46.0))
    dialog.name.setText("my_ib")
    before = c.recompute_count
    assert dialog.save()
    c.recompute_now()
    assert c.recompute_count == before + 1
    s = c.scenario
    spec = s.fabric.custom_dict()["my_ib"]
    assert spec.achievable_fraction == pytest.approx(46.0 * 8 / 400.0, rel=0.01)
    assert s.fabric.focus_fabric == "my_ib"
    assert "my_ib" in c.snapshot.sweep.fabrics
    assert "my_ib" in window.charts["utilisation"].curves


def test_malformed_log_names_the_line_and_keeps_the_work(window, dialog):
    good = nccl_log()
    assert dialog.set_text(good)
    fit_before = dialog.fit
    lines = good.splitlines()
    idx = next(i for i, ln in enumerate(lines) if ln.strip().startswith("4096 "))
    lines[idx] = "        4096          1024     float     sum      -1    abc    0.1    0.2      0"
    bad = "\n".join(lines)
    scenario = window.controller.scenario
    assert not dialog.set_text(bad)
    assert f"line {idx + 1}" in dialog.error_label.text()
    assert dialog.text.toPlainText() == bad          # the user's text is still there
    assert not dialog.save_button.isEnabled()
    assert dialog.fit is fit_before                   # the last good fit stays drawn
    assert window.controller.scenario is scenario     # nothing written


def test_line_rate_below_the_measurement_is_explained(dialog):
    dialog.link.setValue(100.0)
    dialog.nics.setValue(1)
    assert not dialog.set_text(nccl_log(40.0, 46.0))
    assert "line rate" in dialog.error_label.text()
    assert "46.0 GB/s" in dialog.result_label.text()  # the fit itself is still shown


def test_unreadable_file(dialog, tmp_path):
    assert not dialog.load_file(str(tmp_path / "missing.txt"))
    assert "missing.txt" in dialog.error_label.text()


def test_open_button_uses_the_window_file_chooser(window, qtbot, tmp_path):
    from gui.calibrate_dialog import CalibrateDialog

    p = tmp_path / "ag.log"
    p.write_text(nccl_log(25.0, 90.0).replace("all_reduce_perf", "all_gather_perf"))
    dlg = CalibrateDialog(window.controller, window, choose_file=lambda: str(p))
    qtbot.addWidget(dlg)
    dlg.link.setValue(800.0)
    with qtbot.waitSignal(dlg.fileLoaded, timeout=10_000):  # the file is read off the UI thread
        dlg.open_button.click()
    assert dlg.fit is not None and dlg.fit.log.collective == "all_gather"
    assert dlg.file_label.text() == str(p)


def test_log_without_rank_lines_asks_for_ranks_and_nodes(dialog):
    text = "\n".join(ln for ln in nccl_log().splitlines() if "Rank" not in ln)
    assert not dialog.set_text(text)
    assert "ranks" in dialog.error_label.text()
    dialog.ranks.setValue(16)
    dialog.nodes.setValue(2)
    dialog.link.setValue(400.0)
    assert dialog.refit()
    assert dialog.save_button.isEnabled()
