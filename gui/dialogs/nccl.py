"""What nccl-tests would measure on a scenario's fabric, as a chart (Tools ▸ nccl-tests prediction).

:class:`NcclTestsDialog` draws the collective model's bus bandwidth from 8 B to
16 GiB (:func:`model.nccl_table.scenario_table`, the same numbers as
``fabric-whatif nccl``) for one fabric, collective and node count, and puts the
points of a measured nccl-tests log over the curve with the error per size.
A log that cannot be read shows the engine's one-line message; the curve and
the choices stay as they were.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtWidgets

import model
from model import ScenarioError, nccl_accuracy, nccl_log, nccl_table

from gui.dialogs.nccl_shared import SizeAxis, transport_name
from gui.i18n import translate


def chart_layout(dialog, form, plot):
    """A chart dialog's layout: the controls' row, the chart, a summary and the error line under it.

    Returns ``(summary, error_label)``, two labels; the error line is named ``errorLabel``."""
    summary = QtWidgets.QLabel()
    summary.setWordWrap(True)
    error_label = QtWidgets.QLabel()
    error_label.setObjectName("errorLabel")
    lay = QtWidgets.QVBoxLayout(dialog)
    lay.addLayout(form)
    lay.addWidget(plot, 1)
    lay.addWidget(summary)
    lay.addWidget(error_label)
    return summary, error_label


class NcclTestsDialog(QtWidgets.QDialog):
    """Predicted busbw curve of one fabric, with a measured log's points over it."""

    def __init__(self, controller, parent=None, *, choose_file=None):
        super().__init__(parent)
        self.controller = controller
        self.choose_file = choose_file
        self.table: dict | None = None
        self.log = None
        self.setObjectName("ncclTestsDialog")
        self.setWindowTitle(translate("NcclTestsDialog", "nccl-tests prediction"))
        self.resize(900, 600)
        s = controller.scenario
        self.fabric = QtWidgets.QComboBox()
        self.fabric.setObjectName("fabricCombo")
        for row in model.resolve_fabrics(s):  # as the window names them, never the internal ids
            self.fabric.addItem(row.label, row.name)
        focus = s.fabric.focus_fabric
        if focus in s.fabric.fabrics:
            self.fabric.setCurrentIndex(list(s.fabric.fabrics).index(focus))
        self.collective = QtWidgets.QComboBox()
        for c in nccl_table.CLI_COLLECTIVES:
            self.collective.addItem(c, c)
        self.nodes = QtWidgets.QSpinBox()
        self.nodes.setRange(1, 100_000)
        self.nodes.setValue(int(s.cluster.nodes))
        self.gpus = QtWidgets.QSpinBox()
        self.gpus.setObjectName("gpusSpin")
        from model.fields import field_meta
        from model.sections import Cluster
        self.gpus.setRange(1, int(field_meta(Cluster, "gpus_per_node")["hi"]))
        self.gpus.setValue(int(s.cluster.gpus_per_node))
        self.algorithm = "auto"  # the compared log's forced NCCL_ALGO, else NCCL's tuner
        self.warning_label = QtWidgets.QLabel()
        self.warning_label.setObjectName("ncclWarnings")
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet("color:#8a5300")
        open_button = QtWidgets.QPushButton(translate("NcclTestsDialog", "Compare with a log…"))
        open_button.clicked.connect(self._open)
        form = QtWidgets.QHBoxLayout()
        for label, widget in ((translate("NcclTestsDialog", "Fabric"), self.fabric),
                              (translate("NcclTestsDialog", "Collective"), self.collective),
                              (translate("NcclTestsDialog", "Nodes"), self.nodes),
                              (translate("NcclTestsDialog", "GPUs per node"), self.gpus)):
            form.addWidget(QtWidgets.QLabel(label))
            form.addWidget(widget)
        form.addStretch(1)
        form.addWidget(open_button)
        self.plot = pg.PlotWidget(axisItems={"bottom": SizeAxis(orientation="bottom")})
        self.plot.setLogMode(x=True, y=False)
        self.plot.setLabel("bottom", translate("NcclTestsDialog", "message size per rank"))
        self.plot.setLabel("left", translate("NcclTestsDialog", "bus bandwidth (GB/s)"))
        self.plot.addLegend()
        self.curve = self.plot.plot([], [], pen=pg.mkPen(width=2), name=translate("NcclTestsDialog", "predicted"))
        self.points = self.plot.plot([], [], pen=None, symbol="o", symbolSize=7,
                                     name=translate("NcclTestsDialog", "measured"))
        self.summary, self.error_label = chart_layout(self, form, self.plot)
        self.layout().insertWidget(self.layout().indexOf(self.summary), self.warning_label)
        for combo in (self.fabric, self.collective):
            combo.currentIndexChanged.connect(self.refresh)
        self.nodes.valueChanged.connect(self.refresh)
        self.gpus.valueChanged.connect(self.refresh)
        controller.signals.on({"scenario"}, self.refresh, receiver=self)  # open beside the window: it follows the fabric controls
        self.refresh()

    def refresh(self, *_):
        """Recompute the curve for the current choices (one model call for all sizes) and redraw."""
        try:
            self.table = nccl_table.scenario_table(self.controller.scenario, self.fabric.currentData(),
                                                 self.collective.currentData(), self.nodes.value(),
                                                 algorithm=self.algorithm, gpus_per_node=self.gpus.value())
        except ScenarioError as err:
            self.error_label.setText(str(err))
            return False
        self.error_label.setText("")
        self._show_warnings()
        self.curve.setData(self.table["bytes"], self.table["busbw_GBps"])
        self._draw_points()
        return True

    def _open(self):
        path = self.choose_file() if self.choose_file else ""
        if path:
            self.load_file(path)

    def load_file(self, path) -> bool:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                return self.set_log_text(fh.read(), source=str(path))
        except OSError as err:
            self.error_label.setText(translate("NcclTestsDialog", "Cannot read {path}: {error}").format(
                path=path, error=err.strerror or err))
            return False

    def set_log_text(self, text: str, source: str = "pasted log") -> bool:
        """Read a measured log: its collective, nodes, GPUs per node and forced algorithm become the dialog's, and
        the fabric of its transport is chosen when the scenario has one; what still differs is a warning."""
        try:
            log = nccl_log.parse_nccl_tests(text, source=source)
            setup = nccl_table.compare_setup(self.controller.scenario, log)
        except ScenarioError as err:
            self.error_label.setText(str(err))
            return False
        self.log = log
        self.algorithm = setup.algorithm
        cli = {v: k for k, v in nccl_table.CLI_COLLECTIVES.items()}[log.collective]
        widgets = (self.collective, self.nodes, self.gpus, self.fabric)
        for w in widgets:
            w.blockSignals(True)
        self.collective.setCurrentIndex(self.collective.findData(cli))
        self.nodes.setValue(setup.nodes)
        self.gpus.setValue(min(setup.gpus_per_node, self.gpus.maximum()))
        if log.transport:
            rows = model.resolve_fabrics(self.controller.scenario)
            current = next((r for r in rows if r.name == self.fabric.currentData()), None)
            if current is None or current.transport != log.transport:
                match = next((r for r in rows if r.transport == log.transport), None)
                if match is not None:
                    self.fabric.setCurrentIndex(self.fabric.findData(match.name))
        for w in widgets:
            w.blockSignals(False)
        return self.refresh()

    def _show_warnings(self) -> None:
        """What the log's run and the predicted setup do not share, in the window's words."""
        lines = []
        if self.log is not None:
            label = self.fabric.currentText()
            for what, theirs, ours in nccl_table.setup_mismatches(self.controller.scenario, self.fabric.currentData(),
                                                                 self.log):
                if what == "transport":
                    lines.append(translate("NcclTestsDialog", "The log ran over {log}; the fabric {fabric} runs over "
                                                              "{transport}: the comparison is between different "
                                                              "fabrics").format(
                        log=transport_name(theirs), fabric=label, transport=transport_name(ours)))
                else:
                    lines.append(translate("NcclTestsDialog", "The log's run used {log} NICs per node; the fabric {fabric} has "
                                                              "{n}: the comparison is between different "
                                                              "fabrics").format(log=theirs, fabric=label, n=ours))
            if self.log.nodes and self.log.nodes != self.nodes.value():
                lines.append(translate("NcclTestsDialog", "The log ran on {log} nodes; the prediction is for "
                                                          "{n}").format(log=self.log.nodes, n=self.nodes.value()))
            if self.log.ranks_per_node != self.gpus.value():
                lines.append(translate("NcclTestsDialog", "The log ran {log} ranks per node; the prediction is for "
                                                          "{n}").format(log=self.log.ranks_per_node,
                                                                        n=self.gpus.value()))
            if self.algorithm != "auto":
                lines.append(translate("NcclTestsDialog", "Algorithm {algorithm}, as the log forced it "
                                                          "(NCCL_ALGO)").format(algorithm=self.algorithm))
        self.warning_label.setText("\n".join(lines))

    def _draw_points(self):
        if self.log is None or self.table is None:
            self.points.setData([], [])
            self.summary.setText("")
            return
        ok = self.log.size_bytes > 0
        self.points.setData(self.log.size_bytes[ok], self.log.busbw_gb_per_s[ok])
        pred = np.interp(np.log2(self.log.size_bytes), np.log2(self.table["bytes"]), self.table["busbw_GBps"])
        err = nccl_accuracy.size_errors(self.log, pred)
        pct = (lambda x: "–" if not math.isfinite(x) else f"{x * 100:.0f} %")
        self.summary.setText(translate(
            "NcclTestsDialog", "Predicted against measured busbw: median |error| {large} at ≥ 64 MiB "
                               "(max {large_max}), {medium} at ≥ 1 MiB (max {medium_max}).").format(
            large=pct(err["large_median"]), large_max=pct(err["large_max"]), medium=pct(err["medium_median"]),
            medium_max=pct(err["medium_max"])))
