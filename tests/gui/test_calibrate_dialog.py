"""Calibrate from nccl-tests: the dialog fits the collective model off the UI thread, draws the fitted bus
bandwidth over the measured points, reports the fit error and the warnings, saves one user fabric, and keeps
the user's work on bad input."""

from __future__ import annotations

import csv
import threading
from pathlib import Path

import numpy as np
import pytest
from PySide6 import QtCore

from model import nccl_accuracy, nccl_fit

LOGS = Path(__file__).resolve().parents[2] / "assets" / "validation" / "nccl"
INDEX = {r["file"]: r for r in csv.DictReader((LOGS / "index.csv").read_text(encoding="utf-8").splitlines())}


def model_log(frac=0.7, latency_us=5.0, nodes=2, gpu="H100-SXM", link_gbps=400.0, nics=8, kind="all_reduce",
              with_ranks=True) -> str:
    """An nccl-tests log the collective model itself made (8 B … 16 GiB)."""
    setup = nccl_accuracy.NcclSetup(gpu, link_gbps, nics, "roce", "ring")
    S = 2.0 ** np.arange(3, 35)
    r = nccl_accuracy.predict(setup, kind, S, ranks_per_node=8, nodes=nodes, achievable_fraction=frac,
                         latency_us=latency_us)
    ranks = "".join(f"#  Rank {i:2d} Group  0 Pid 1 on node{i // 8} device {i % 8} [0x07] GPU\n"
                    for i in range(8 * nodes)) if with_ranks else ""
    rows = "".join(f"{int(s):12d} {int(s) // 4:13d} float sum -1 {t:9.2f} {a:7.2f} {b:7.2f} 0\n"
                   for s, t, a, b in zip(S, r["time_us"], r["algbw_gb_per_s"], r["busbw_gb_per_s"]))
    return (f"$ mpirun -x NCCL_ALGO=Ring ./build/{kind}_perf -b 8 -e 16G -f 2\n{ranks}"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong\n" + rows)


def set_setup(dlg, gpu="H100-SXM", link=400.0, nics=8, transport="roce"):
    for w, v in ((dlg.gpu, gpu), (dlg.transport, transport)):
        w.setCurrentIndex(w.findData(v))
    dlg.link.setValue(link)
    dlg.nics.setValue(nics)


def set_setup_of(dlg, name):
    r = INDEX[name]
    set_setup(dlg, r["gpu"], float(r["link_gbps"]), int(r["nics_per_node"]), r["fabric"])
    dlg.nodes.setValue(int(r["nodes"]))


@pytest.fixture
def dialog(calibrate_dialog):
    return calibrate_dialog


def test_menu_actions_exist(window):
    f = window.features
    assert f.calibrate_action in window.file_menu.actions()
    assert f.calibrate_action in f.tools_menu.actions()
    assert f.calibrate_action.shortcut().toString() == "Ctrl+K"


def test_defaults_come_from_the_focus_fabric_and_the_scenarios_gpu(window, dialog):
    from model import resolve_fabrics

    s = window.controller.scenario
    row = next(r for r in resolve_fabrics(s) if r.name == s.fabric.focus_fabric)
    assert dialog.transport.currentData() is None  # the log's, else the focus fabric's
    assert dialog.default_transport == row.transport
    assert dialog.link.value() == pytest.approx(float(row.values["link_gbps"]))
    assert dialog.gpu.currentData() == s.cluster.gpu


def test_a_real_log_round_trips_and_its_fit_error_is_shown(dialog):
    name = "ib_h100_2node_ndr_ring_tuned_allreduce.txt"
    set_setup_of(dialog, name)
    assert dialog.load_file(str(LOGS / name))
    lx, y = dialog.points.getData()  # log10 of the size: the x axis is logarithmic
    x = dialog.fit.log.size_bytes
    np.testing.assert_allclose(lx, np.log10(x))
    np.testing.assert_allclose(y, dialog.fit.log.busbw_gb_per_s)  # the measured points are busbw
    fx, fy = dialog.line.getData()
    at = np.interp(np.log10(x), fx, fy)  # the fitted curve where the log was measured
    big = x >= nccl_accuracy.LARGE_BYTES
    assert np.max(np.abs(at[big] / y[big] - 1.0)) <= 0.05 + 0.01
    e = dialog.fit.errors
    assert nccl_accuracy.within_tolerance(e)
    text = dialog.result_label.text()
    assert "Fit error" in text and f"{e['large_max_clean'] * 100:.1f} %" in text
    assert dialog.fit.setup.algorithm == "ring"  # NCCL_ALGO=Ring read from the log's command line
    # the only remark: the scenario's InfiniBand loss, kept on the fabric, against a run that lost less
    assert all("stated loss" in w for w in dialog.warning_label.text().splitlines())
    assert dialog.save_button.isEnabled() and dialog.error_label.text() == ""


def test_warnings_are_shown_and_the_algorithm_control_changes_the_curve(dialog):
    name = "ib_h100_nebius_2node_allreduce.txt"
    set_setup_of(dialog, name)
    assert dialog.load_file(str(LOGS / name))
    assert "above the NICs' line rate" in dialog.warning_label.text()
    auto = dialog.line.getData()[1].copy()
    dialog.algorithm.setCurrentIndex(dialog.algorithm.findData("ring"))
    dialog.refit()
    ring = dialog.line.getData()[1]
    line_rate = 400.0 * 8 / 8
    assert auto.max() > line_rate >= ring.max()  # a forced ring cannot count in-node traffic as the tree does
    assert dialog.fit.setup.algorithm == "ring"


def test_the_gpu_control_changes_the_fitted_model(dialog):
    text = model_log(0.7)
    set_setup(dialog)
    assert dialog.set_text(text)
    h100 = dialog.line.getData()[1].copy()
    dialog.gpu.setCurrentIndex(dialog.gpu.findData("A100-SXM-80GB"))  # PCIe Gen4 and slower NVLink
    dialog.refit()
    assert dialog.fit.setup.gpu == "A100-SXM-80GB"
    assert not np.allclose(dialog.line.getData()[1], h100, rtol=1e-3)


def test_a_model_made_log_is_recovered_and_saved_with_one_recompute(window, dialog):
    c = window.controller
    set_setup(dialog)
    assert dialog.set_text(model_log(0.7, 5.0))
    assert dialog.fit.achievable_fraction == pytest.approx(0.7, rel=0.06)
    dialog.name.setText("my_roce")
    before = c.recompute_count
    assert dialog.save()
    c.recompute_now()
    assert c.recompute_count == before + 1
    s = c.scenario
    spec = s.fabric.custom_dict()["my_roce"]
    assert spec.achievable_fraction == pytest.approx(dialog.fit.fabric_fraction, rel=1e-3)  # before the kept loss
    assert spec.loss_rate == dialog.fit.setup.loss_rate > 0 and spec.latency_us == dialog.fit.latency_us
    assert spec.nccl_fill_bytes == pytest.approx(dialog.fit.fill_bytes, rel=1e-3)
    assert s.fabric.focus_fabric == "my_roce"
    assert "my_roce" in c.snapshot.sweep.fabrics
    assert "my_roce" in window.charts["utilisation"].curves


def test_the_parse_and_the_fit_run_in_a_worker_and_the_window_stays_responsive(dialog, monkeypatch):
    threads = []
    real_parse, real_fit = nccl_fit.parse_nccl_tests, nccl_fit.fit_model
    gate = threading.Event()

    def parse(*a, **k):
        threads.append(threading.get_ident())
        return real_parse(*a, **k)

    def fit(*a, **k):
        gate.wait(10.0)  # held until the UI thread has shown that it still runs
        return real_fit(*a, **k)

    monkeypatch.setattr(nccl_fit, "parse_nccl_tests", parse)
    monkeypatch.setattr(nccl_fit, "fit_model", fit)
    ticks = []

    def tick():
        ticks.append(1)
        if len(ticks) == 3:
            gate.set()

    timer = QtCore.QTimer()
    timer.setInterval(1)
    timer.timeout.connect(tick)
    timer.start()
    set_setup(dialog)
    try:
        assert dialog.set_text(model_log())
    finally:
        timer.stop()
        gate.set()
    assert threads and threads[0] != threading.get_ident()
    assert len(ticks) >= 3  # events ran while the worker fitted (the fit waited for them)


def test_typing_during_a_fit_fits_the_latest_text(dialog, qtbot):
    set_setup(dialog)
    dialog.text.setPlainText(model_log(0.9))  # the debounce starts a fit ...
    dialog.start_fit()
    dialog.text.setPlainText(model_log(0.4))  # ... and the text changes while it runs
    with qtbot.waitSignal(dialog.fitted, timeout=20_000):
        dialog.start_fit()
    qtbot.waitUntil(lambda: dialog.fitter is None and not dialog._fit_pending, timeout=20_000)
    assert dialog.fit.achievable_fraction == pytest.approx(0.4, rel=0.06)


def test_malformed_log_names_the_line_and_keeps_the_work(window, dialog):
    set_setup(dialog)
    good = model_log()
    assert dialog.set_text(good)
    fit_before = dialog.fit
    curve_before = dialog.line.getData()[1].copy()
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
    np.testing.assert_array_equal(dialog.line.getData()[1], curve_before)
    assert window.controller.scenario is scenario     # nothing written


def test_an_algorithm_that_cannot_run_the_collective_is_named(dialog):
    set_setup(dialog)
    assert dialog.set_text(model_log(kind="all_gather"))
    dialog.algorithm.setCurrentIndex(dialog.algorithm.findData("tree"))
    assert not dialog.refit()
    assert "Algorithm" in dialog.error_label.text() and "tree" in dialog.error_label.text()
    assert not dialog.save_button.isEnabled()
    assert dialog.fit.log.collective == "all_gather"  # the last good fit stays


def test_a_one_node_log_is_fitted_but_makes_no_fabric(dialog):
    name = "nvlink_h100_dgx_1node_8gpu_allreduce.txt"
    set_setup_of(dialog, name)
    assert not dialog.load_file(str(LOGS / name))
    assert dialog.fit is not None and dialog.fit.log.nodes == 1
    assert "at least two nodes" in dialog.error_label.text()
    assert "one node" in dialog.warning_label.text()
    assert len(dialog.line.getData()[0]) > 50 and not dialog.save_button.isEnabled()


def test_unreadable_file(dialog, tmp_path):
    assert not dialog.load_file(str(tmp_path / "missing.txt"))
    assert "missing.txt" in dialog.error_label.text()


def test_open_button_uses_the_window_file_chooser(window, qtbot, tmp_path):
    from gui.dialogs.calibrate import CalibrateDialog

    p = tmp_path / "ag.log"
    p.write_text(model_log(kind="all_gather"))
    dlg = CalibrateDialog(window.controller, window, choose_file=lambda: str(p))
    qtbot.addWidget(dlg)
    set_setup(dlg)
    with qtbot.waitSignal(dlg.fileLoaded, timeout=20_000):  # read and fitted off the UI thread
        dlg.open_button.click()
    assert dlg.fit is not None and dlg.fit.log.collective == "all_gather"
    assert dlg.file_label.text() == str(p)
    dlg.close()


def test_log_without_rank_lines_asks_for_ranks_and_nodes(dialog):
    set_setup(dialog)
    assert not dialog.set_text(model_log(with_ranks=False))
    assert "ranks" in dialog.error_label.text()
    dialog.ranks.setValue(16)
    dialog.nodes.setValue(2)
    assert dialog.refit()
    assert dialog.save_button.isEnabled()


@pytest.mark.parametrize("failure", [OverflowError("int too large to convert to float"), MemoryError(),
                                     ZeroDivisionError("float division by zero")])
def test_any_failure_of_the_fit_is_shown_and_the_next_fit_still_runs(dialog, monkeypatch, failure):
    real = nccl_fit.fit_model

    def broken(*a, **k):
        raise failure

    set_setup(dialog)
    monkeypatch.setattr(nccl_fit, "fit_model", broken)
    assert not dialog.set_text(model_log())  # the worker reports, the dialog does not wait for ever
    assert dialog.error_label.text() and dialog.busy_label.text() == ""
    assert dialog.fitter is None and not dialog.save_button.isEnabled()
    monkeypatch.setattr(nccl_fit, "fit_model", real)
    assert dialog.set_text(model_log(0.5))  # a later fit runs
    assert dialog.save_button.isEnabled() and dialog.error_label.text() == ""


def test_closing_during_a_fit_neither_waits_nor_crashes_and_a_new_dialog_fits(window, dialog, monkeypatch, qtbot):
    gate, ended = threading.Event(), threading.Event()
    real = nccl_fit.fit_model

    def slow(*a, **k):
        try:
            gate.wait(10.0)
            raise OverflowError("int too large to convert to float")
        finally:
            ended.set()

    set_setup(dialog)
    monkeypatch.setattr(nccl_fit, "fit_model", slow)
    dialog.text.setPlainText(model_log())
    assert dialog.start_fit()
    worker = dialog.fitter
    assert worker is not None and worker.isRunning()
    dialog.reject()  # closes at once: the fit under way is let go, not waited for
    assert not gate.is_set() and not ended.is_set()
    assert not dialog.isVisible() and dialog.fitter is None
    gate.set()
    qtbot.waitUntil(ended.is_set, timeout=10_000)
    qtbot.wait(50)  # its end is delivered: nothing left to crash on
    monkeypatch.setattr(nccl_fit, "fit_model", real)
    again = window.features.open_calibrate()
    set_setup(again)
    assert again.set_text(model_log(0.6))
    again.reject()


def roce_log_with_nccl_info() -> str:
    """A 2-node RoCE run that says so in NCCL's INFO lines, with 4 NICs per node, NCCL_ALGO=Ring."""
    info = "".join(f"node{h}:11:11 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [2]mlx5_2:1/RoCE "
                   f"[3]mlx5_3:1/RoCE ; OOB eth0:10.0.0.{h}<0>\n" for h in (0, 1))
    return info + model_log(0.7, nics=4)


def test_transport_nics_and_algorithm_come_from_the_log_and_a_contradicting_choice_is_a_warning(dialog):
    dialog.gpu.setCurrentIndex(dialog.gpu.findData("H100-SXM"))
    dialog.link.setValue(400.0)
    assert dialog.transport.currentData() is None and dialog.nics.value() == 0  # "from the log"
    assert dialog.set_text(roce_log_with_nccl_info())
    setup = dialog.fit.setup
    assert (setup.transport, setup.nics_per_node, setup.algorithm) == ("roce", 4, "ring")
    assert dialog.values["transport"] == "roce" and dialog.values["nics_per_node"] == 4
    text = dialog.result_label.text()
    assert "From the log: RoCE, 4 NICs per node, algorithm ring" in text and "infiniband" not in text
    assert not any("log says" in w for w in dialog.warning_label.text().splitlines())
    dialog.transport.setCurrentIndex(dialog.transport.findData("infiniband"))
    assert dialog.refit()
    assert dialog.fit.setup.transport == "infiniband"  # the user's choice is used ...
    assert "The log says RoCE, the dialog is set to InfiniBand" in dialog.warning_label.text()  # ... and named


def curve_xy(win, kind, fabric):
    """The plotted curve's points with a finite x, sorted by x."""
    x, y = (np.asarray(a, dtype=float) for a in win.charts[kind].curves[fabric].getData())
    keep = np.isfinite(x)
    order = np.argsort(x[keep])
    return x[keep][order], y[keep][order]


def test_use_for_the_forecast_recalibrates_the_fabric_in_focus_and_the_charts_follow(window, dialog, qtbot):
    from guihelpers import settle

    c = window.controller
    focus = c.scenario.fabric.focus_fabric
    fabrics = c.snapshot.sweep.fabrics
    before = {k: curve_xy(window, k, focus) for k in ("utilisation", "duration")}
    assert not dialog.forecast_button.isEnabled()  # nothing fitted yet
    set_setup(dialog, gpu=c.scenario.cluster.gpu, link=400.0, nics=1, transport="infiniband")
    assert dialog.set_text(model_log(0.35, 5.0, gpu=c.scenario.cluster.gpu, link_gbps=400.0, nics=1))
    assert dialog.forecast_button.isEnabled()
    with qtbot.waitSignal(dialog.forecastUsed, timeout=5000):
        qtbot.mouseClick(dialog.forecast_button, QtCore.Qt.MouseButton.LeftButton)
    c.recompute_now()
    settle(window)
    spec = c.scenario.fabric.custom_dict()[focus]
    assert spec.achievable_fraction == pytest.approx(dialog.fit.fabric_fraction, rel=1e-3)
    assert "calibrated" in spec.label
    assert c.scenario.fabric.focus_fabric == focus and c.snapshot.sweep.fabrics == fabrics  # no fabric added
    after = {k: curve_xy(window, k, focus) for k in before}
    # compared where both curves have a point (a slower network may drop points past the plausibility bound)
    both = {k: np.intersect1d(before[k][0], after[k][0]) for k in before}
    assert all(len(x) >= 5 for x in both.values())

    def on(k, xy):
        return xy[1][np.searchsorted(xy[0], both[k])]

    assert np.nanmax(on("duration", after["duration"]) / on("duration", before["duration"])) > 1.05  # longer runs
    assert not np.allclose(on("utilisation", after["utilisation"]), on("utilisation", before["utilisation"]))
