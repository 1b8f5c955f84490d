"""Calibrate a fabric from the user's own nccl-tests output.

:class:`CalibrateDialog` takes the text of an ``all_reduce_perf`` (or sibling) run —
opened from a file or pasted — fits the NCCL-like collective model's own parameters
with :func:`model.nccl_fit.fit_model` (the same setup inputs as ``fabric-whatif
calibrate``: GPU, link Gb/s, NICs per node, transport, algorithm), draws the fitted
bus bandwidth over the measured points, reports the fit error and the warnings, and
saves the result as a user fabric in the scenario through the controller (one recompute).

A malformed log shows the engine's message, which names the line; the text, the
options and the last good fit stay where they were, so nothing is lost.

Nothing slow runs on the UI thread: a log file is read and the parse and the fit run in
the workers of :mod:`gui.dialogs.calibrate_worker` (a log at the size cap takes seconds
to parse). A newer request supersedes one under way; only the latest result is shown.
"""

from __future__ import annotations

import html
import math
import re

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

import model
from model import ScenarioError, catalog, nccl_accuracy, nccl_fit
from model.nccl_tuning import ALGORITHMS, TREE_EFF

from gui.dialogs.calibrate_worker import FitRequest, FitWorker, LogReader, detach_worker, fabric_inputs
from gui.dialogs.nccl_shared import TRANSPORTS, SizeAxis, size_text, transport_name
from gui.i18n import fmt_number, fmt_sig, translate

COLLECTIVE_CHOICES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all")
NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,39}$")


def focus_defaults(scenario) -> dict:
    """Transport, link Gb/s and NICs per node of the fabric in focus (the dialog's defaults)."""
    rows = model.resolve_fabrics(scenario)
    row = next((r for r in rows if r.name == scenario.fabric.focus_fabric), rows[-1])
    nics = row.values.get("nics_per_node", 1)
    if not isinstance(nics, (int, float)):
        nics = scenario.cluster.gpus_per_node  # "per_gpu"
    return {"transport": row.transport, "link_gbps": float(row.values.get("link_gbps", 100.0)),
            "nics_per_node": int(nics), "name": f"{row.transport}_measured", "label": row.label}


class CalibrateDialog(QtWidgets.QDialog):
    """Open or paste an nccl-tests log, fit the collective model to it, save it as a user fabric.

    ``choose_file`` is a callable returning a path or '' (the window's file dialog);
    ``controller`` is the window's :class:`~gui.window.controller.Controller`.
    """

    saved = QtCore.Signal(str)  # the fabric name written into the scenario
    forecastUsed = QtCore.Signal(str)  # the fabric in focus whose forecast now runs on the calibrated values
    fileLoaded = QtCore.Signal(bool)  # a log file was read (and fitted: True) or refused (False)
    fitted = QtCore.Signal(bool)  # a fit finished: shown with a fabric to save (True) or a message (False)

    def __init__(self, controller, parent=None, *, choose_file=None):
        super().__init__(parent)
        self.controller = controller
        self.choose_file = choose_file
        self.fit: nccl_fit.ModelFit | None = None
        self.values: dict | None = None
        self.path: str | None = None
        self.reader: LogReader | None = None  # the read under way, if any
        self.fitter: FitWorker | None = None  # the fit under way, if any
        self._read_serial = 0
        self._fit_serial = 0
        self._fit_pending = False  # inputs changed while a fit runs: fit again when it ends
        self._last_load_ok = False
        self._last_fit_ok = False
        self._after_fit = None  # a file's load waits for its fit
        self.setObjectName("calibrateDialog")
        self.setWindowTitle(translate("CalibrateDialog", "Calibrate a fabric from nccl-tests"))
        self.resize(1000, 680)
        d = focus_defaults(controller.scenario)

        intro = QtWidgets.QLabel(translate("CalibrateDialog",
            "Paste or open the output of nccl-tests (all_reduce_perf, all_gather_perf, …) run across at least "
            "two nodes. The fit gives the collective model's own parameters on your network: achievable "
            "bandwidth per NIC, latency per hop and per protocol (LL, LL128, Simple), pipeline fill."))
        intro.setWordWrap(True)

        # -- the log
        self.open_button = QtWidgets.QPushButton(translate("CalibrateDialog", "&Open log…"))
        self.open_button.clicked.connect(self._open)
        self.file_label = QtWidgets.QLabel(translate("CalibrateDialog", "No file: paste the log below"))
        self.file_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # a file name may hold '<'
        self.file_label.setStyleSheet("color:#555")
        self.text = QtWidgets.QPlainTextEdit()
        self.text.setObjectName("ncclText")
        self.text.setPlaceholderText(translate("CalibrateDialog", "# size count type redop root time algbw busbw …"))
        self.text.setLineWrapMode(QtWidgets.QPlainTextEdit.LineWrapMode.NoWrap)
        mono = QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont)
        mono.setPointSizeF(max(mono.pointSizeF() - 1, 7.0))
        self.text.setFont(mono)
        self._refit_timer = QtCore.QTimer(self)
        self._refit_timer.setSingleShot(True)
        self._refit_timer.setInterval(300)
        self._refit_timer.timeout.connect(self.start_fit)
        self.text.textChanged.connect(self._refit_timer.start)

        # -- the setup (as fabric-whatif calibrate takes it)
        self.gpu = QtWidgets.QComboBox()
        self.gpu.setObjectName("gpuCombo")
        for g in catalog.gpus():
            self.gpu.addItem(g, g)
        self.gpu.setCurrentIndex(max(self.gpu.findData(controller.scenario.cluster.gpu), 0))
        self.transport = QtWidgets.QComboBox()
        self.transport.setObjectName("transportCombo")
        self.default_transport = d["transport"]
        self.transport.addItem(translate("CalibrateDialog", "from the log, else {transport}").format(
            transport=transport_name(d["transport"])), None)
        for t in TRANSPORTS:
            self.transport.addItem(transport_name(t), t)
        self.link = QtWidgets.QDoubleSpinBox()
        self.link.setObjectName("linkSpin")
        self.link.setRange(1.0, 100_000.0)
        self.link.setDecimals(0)
        self.link.setSuffix(" Gb/s")
        self.link.setValue(d["link_gbps"])
        self.nics = QtWidgets.QSpinBox()
        self.nics.setObjectName("nicsSpin")
        self.default_nics = d["nics_per_node"]
        self.nics.setRange(0, 64)
        self.nics.setSpecialValueText(translate("CalibrateDialog", "from the log, else {n}").format(n=d["nics_per_node"]))
        self.nics.setValue(0)
        self.algorithm = QtWidgets.QComboBox()
        self.algorithm.setObjectName("algorithmCombo")
        self.algorithm.addItem(translate("CalibrateDialog", "from the log (NCCL_ALGO), else auto"), None)
        for a in ("auto",) + ALGORITHMS:
            self.algorithm.addItem(a, a)
        self.collective = QtWidgets.QComboBox()
        self.collective.addItem(translate("CalibrateDialog", "from the log"), None)
        for c in COLLECTIVE_CHOICES:
            self.collective.addItem(c, c)
        self.ranks = QtWidgets.QSpinBox()
        self.ranks.setRange(0, 1_000_000)
        self.ranks.setSpecialValueText(translate("CalibrateDialog", "from the log"))
        self.nodes = QtWidgets.QSpinBox()
        self.nodes.setRange(0, 100_000)
        self.nodes.setSpecialValueText(translate("CalibrateDialog", "from the log"))
        self.name = QtWidgets.QLineEdit(d["name"])
        self.name.setObjectName("nameEdit")
        self.name.setValidator(QtGui.QRegularExpressionValidator(QtCore.QRegularExpression(NAME_RE.pattern), self))
        self.label = QtWidgets.QLineEdit(translate("CalibrateDialog", "{fabric} (measured)").format(
            fabric=transport_name(d["transport"])))
        self.label.setObjectName("labelEdit")
        for w in (self.gpu, self.transport, self.link, self.nics, self.algorithm, self.collective, self.ranks,
                  self.nodes):
            sig = w.currentIndexChanged if isinstance(w, QtWidgets.QComboBox) else w.valueChanged
            sig.connect(self._refit_timer.start)
        self.transport.currentIndexChanged.connect(self._transport_changed)
        form = QtWidgets.QFormLayout()
        form.addRow(translate("CalibrateDialog", "GPU"), self.gpu)
        form.addRow(translate("CalibrateDialog", "Transport"), self.transport)
        form.addRow(translate("CalibrateDialog", "Link speed per NIC"), self.link)
        form.addRow(translate("CalibrateDialog", "NICs per node"), self.nics)
        form.addRow(translate("CalibrateDialog", "Algorithm"), self.algorithm)
        form.addRow(translate("CalibrateDialog", "Collective"), self.collective)
        form.addRow(translate("CalibrateDialog", "Ranks"), self.ranks)
        form.addRow(translate("CalibrateDialog", "Nodes"), self.nodes)
        form.addRow(translate("CalibrateDialog", "Save as (name)"), self.name)
        form.addRow(translate("CalibrateDialog", "Label"), self.label)

        # -- the fit: bus bandwidth against message size, measured points over the fitted model
        self.plot = pg.PlotWidget(background="w", axisItems={"bottom": SizeAxis("bottom")})
        self.plot.setObjectName("fitPlot")
        pi = self.plot.getPlotItem()
        pi.setLogMode(x=True, y=False)
        pi.showGrid(x=True, y=True, alpha=0.25)
        pi.setMenuEnabled(False)
        pi.hideButtons()
        pi.setLabel("bottom", translate("CalibrateDialog", "Message size"))
        pi.setLabel("left", translate("CalibrateDialog", "Bus bandwidth (GB/s)"))
        pi.setTitle(translate("CalibrateDialog", "Measured points and the fitted collective model"))
        self.legend = pi.addLegend(offset=(10, 10), labelTextColor="#222222", brush=pg.mkBrush(255, 255, 255, 215))
        self.points = pg.PlotDataItem([], [], pen=None, symbol="o", symbolSize=8, symbolPen=pg.mkPen("#0072B2"),
                                      symbolBrush=pg.mkBrush("#56B4E9"), name=translate("CalibrateDialog", "measured"))
        self.line = pg.PlotDataItem([], [], pen=pg.mkPen("#D55E00", width=2),
                                    name=translate("CalibrateDialog", "fitted model"))
        pi.addItem(self.points)
        pi.addItem(self.line)
        self.busy_label = QtWidgets.QLabel()
        self.busy_label.setObjectName("fitBusy")
        self.busy_label.setStyleSheet("color:#555")
        self.result_label = QtWidgets.QLabel()
        self.result_label.setObjectName("fitResult")
        self.result_label.setWordWrap(True)
        self.result_label.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.warning_label = QtWidgets.QLabel()
        self.warning_label.setObjectName("fitWarnings")
        self.warning_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet("color:#8a5300")
        self.error_label = QtWidgets.QLabel()
        self.error_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # messages quote lines of the log
        self.error_label.setObjectName("fitError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color:#b00020")
        self.error_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)

        buttons = QtWidgets.QDialogButtonBox()
        self.save_button = buttons.addButton(translate("CalibrateDialog", "&Save as fabric"),
                                             QtWidgets.QDialogButtonBox.ButtonRole.AcceptRole)
        self.save_button.setObjectName("saveFabric")
        self.save_button.setEnabled(False)
        self.forecast_button = buttons.addButton(translate("CalibrateDialog", "&Use for the forecast"),
                                                 QtWidgets.QDialogButtonBox.ButtonRole.ApplyRole)
        self.forecast_button.setObjectName("useForForecast")
        self.forecast_button.setToolTip(translate(
            "CalibrateDialog", "Give the fabric in focus ({fabric}) the calibrated values: training days and cost "
                               "are forecast again from your measured network").format(fabric=d["label"]))
        self.forecast_button.setEnabled(False)
        self.forecast_button.clicked.connect(self.use_for_forecast)
        close = buttons.addButton(QtWidgets.QDialogButtonBox.StandardButton.Close)
        close.setText(translate("CalibrateDialog", "Close"))
        self.save_button.clicked.connect(self.save)
        buttons.rejected.connect(self.reject)

        left = QtWidgets.QVBoxLayout()
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.open_button)
        row.addWidget(self.file_label, 1)
        left.addLayout(row)
        left.addWidget(self.text, 1)
        left.addLayout(form)
        right = QtWidgets.QVBoxLayout()
        right.addWidget(self.plot, 1)
        right.addWidget(self.busy_label)
        right.addWidget(self.result_label)
        right.addWidget(self.warning_label)
        right.addWidget(self.error_label)
        body = QtWidgets.QHBoxLayout()
        body.addLayout(left, 2)
        body.addLayout(right, 3)
        lay = QtWidgets.QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addLayout(body, 1)
        lay.addWidget(buttons)
        self._show_empty()

    # -- input -------------------------------------------------------------------
    def _open(self) -> None:
        path = self.choose_file() if self.choose_file else ""
        if path:
            self.start_reading(path)

    def start_reading(self, path) -> LogReader:
        """Read a log file off the UI thread; when it is read, show it and fit it off the UI thread too
        (``fileLoaded`` when the fit is shown). A newer request supersedes one still under way; an unreadable
        file keeps the current text."""
        self._read_serial += 1
        reader = self.reader = LogReader(self._read_serial, path, self)
        reader.done.connect(self._read_done)
        reader.finished.connect(reader.deleteLater)
        self.file_label.setText(f"{path} …")  # being read
        self.busy_label.setText(translate("CalibrateDialog", "Reading {path} …").format(path=path))
        reader.start()
        return reader

    def _wait(self, signal, start) -> None:
        """Run ``start`` and let events flow (the window stays responsive) until ``signal`` fires."""
        loop = QtCore.QEventLoop()
        signal.connect(loop.quit)
        try:
            if start():
                loop.exec()
        finally:
            signal.disconnect(loop.quit)

    def load_file(self, path) -> bool:
        """Read a log file and fit it (both off the UI thread; events keep flowing); ``True`` when it fits."""
        self._wait(self.fileLoaded, lambda: self.start_reading(path) is not None)
        return self._last_load_ok

    def _read_done(self, serial: int, path: str, result) -> None:
        if serial != self._read_serial:
            return  # a file chosen later is being read
        self.reader = None
        if isinstance(result, ScenarioError):
            self.busy_label.clear()
            self.file_label.setText(self.path or translate("CalibrateDialog", "No file: paste the log below"))
            self._show_error(translate("CalibrateDialog", "Cannot read {path}: {error}").format(
                path=path, error=f"{result.value}; {result.allowed}"))
            self._last_load_ok = False
            self.fileLoaded.emit(False)
            return
        self.path = path
        self.file_label.setText(path)
        self.file_label.setToolTip(path)
        with QtCore.QSignalBlocker(self.text):
            self.text.setPlainText(result)
        self._after_fit = self._file_fitted
        if not self.start_fit():
            self._file_fitted(False)

    def _file_fitted(self, ok: bool) -> None:
        self._after_fit = None
        self._last_load_ok = ok
        self.fileLoaded.emit(ok)

    def done(self, result: int) -> None:  # noqa: D401 (Qt name) - closing lets a read or fit under way end alone
        self._refit_timer.stop()
        self._read_serial += 1  # their results are no longer wanted
        self._fit_serial += 1
        self._fit_pending = False
        for worker in (self.reader, self.fitter):
            if worker is not None and shiboken6.isValid(worker):
                detach_worker(worker)
        self.reader = self.fitter = None
        super().done(result)

    def _worker_ended(self, worker) -> None:
        """A fit ended: whatever happened in it, the next fit may start (a fit that ended without a result shows
        that instead of waiting for ever)."""
        if self.fitter is not worker:
            return
        self.fitter = None
        if self._fit_pending:
            self._launch_fit()
        elif self.busy_label.text():
            self.busy_label.clear()

    def set_text(self, text: str) -> bool:
        """Put a log into the editor and fit it (off the UI thread, waiting with events flowing)."""
        with QtCore.QSignalBlocker(self.text):
            self.text.setPlainText(text)
        return self.refit()

    def _transport_changed(self, _i=None, transport=None) -> None:
        t = transport or self.transport.currentData() or self.default_transport
        name = self.name.text()
        if not name or name.endswith("_measured"):
            self.name.setText(f"{t}_measured")
        self.label.setText(translate("CalibrateDialog", "{fabric} (measured)").format(
            fabric=transport_name(t)))

    # -- fit -------------------------------------------------------------------
    def request(self) -> FitRequest:
        """The current text and setup as one fit's inputs."""
        source = self.path.rsplit("/", 1)[-1] if self.path else translate("CalibrateDialog", "pasted log")
        return FitRequest(self.text.toPlainText(), source, self.collective.currentData(),
                          self.ranks.value() or None, self.nodes.value() or None, self.gpu.currentData(),
                          float(self.link.value()), int(self.nics.value()) or None, self.transport.currentData(),
                          self.algorithm.currentData(), self.default_transport, self.default_nics,
                          fabric_inputs(self.controller.scenario))

    def start_fit(self) -> bool:
        """Parse and fit the current text in a :class:`FitWorker`; ``False`` when there is nothing to fit (an
        empty text). While one fit runs, the next waits for it and takes the latest inputs."""
        self._refit_timer.stop()
        if not self.text.toPlainText().strip():
            self._fit_serial += 1  # a fit under way is no longer wanted
            self._show_empty()
            self._last_fit_ok = False
            return False
        self._fit_serial += 1
        if self.fitter is not None:
            self._fit_pending = True
            return True
        self._launch_fit()
        return True

    def _launch_fit(self) -> None:
        self._fit_pending = False
        worker = self.fitter = FitWorker(self._fit_serial, self.request(), self)
        worker.done.connect(self._fit_done)
        worker.finished.connect(lambda w=worker: self._worker_ended(w))
        worker.finished.connect(worker.deleteLater)
        self.busy_label.setText(translate("CalibrateDialog", "Fitting the collective model …"))
        worker.start()

    def refit(self) -> bool:
        """Parse and fit the text with the current options, waiting for the worker with events flowing;
        ``False`` shows the message."""
        self._wait(self.fitted, self.start_fit)
        return self._last_fit_ok

    def _fit_done(self, serial: int, result) -> None:
        self.fitter = None
        if self._fit_pending:  # inputs changed meanwhile: fit the latest
            self._launch_fit()
            return
        if serial != self._fit_serial:
            return  # superseded (an emptied text, a closed dialog)
        self.busy_label.clear()
        ok = self._show_outcome(result)
        self._last_fit_ok = ok
        self.fitted.emit(ok)
        if self._after_fit is not None:
            self._after_fit(ok)

    def _show_outcome(self, result) -> bool:
        if isinstance(result, ScenarioError):
            self._show_error(str(result))
            return False
        fit = self.fit = result.fit
        self.values = result.values
        self._draw(fit)
        self._show_result(fit, result.values, result.from_log)
        self.warning_label.setText("\n".join("⚠ " + w for w in self._mismatch_lines(result.mismatches)
                                              + list(fit.warnings)))
        if result.values is None:
            self._show_error(result.fabric_error)
            return False
        self.error_label.clear()
        self.save_button.setEnabled(True)
        self.forecast_button.setEnabled(True)
        return True

    def _draw(self, fit) -> None:
        log = fit.log
        self.points.setData(log.size_bytes, log.busbw_gb_per_s)
        xs = np.geomspace(log.size_bytes.min(), log.size_bytes.max(), 200)
        self.line.setData(xs, fit.predict(xs)["busbw_gb_per_s"])
        self.plot.getPlotItem().enableAutoRange()

    @staticmethod
    def _choice_text(name: str, value) -> str:
        if name == "transport":
            return transport_name(value)
        if name == "nics_per_node":
            return translate("CalibrateDialog", "{n} NICs per node").format(n=value)
        return translate("CalibrateDialog", "algorithm {algorithm} (NCCL_ALGO)").format(algorithm=value)

    def _mismatch_lines(self, mismatches) -> list[str]:
        """The choices the log contradicts, in the window's words."""
        return [translate("CalibrateDialog", "The log says {log}, the dialog is set to {chosen}: the fit uses your "
                                             "choice").format(log=self._choice_text(name, found),
                                                              chosen=self._choice_text(name, chosen))
                for name, found, chosen in mismatches]

    def _show_result(self, fit, values, from_log=()) -> None:
        log, e = fit.log, fit.errors
        lines = [
            translate("CalibrateDialog", "<b>{coll}</b>, {ranks} ranks on {nodes} nodes, {n} message sizes").format(
                coll=log.collective, ranks=log.ranks, nodes=log.nodes, n=len(log.size_bytes)),
            html.escape(translate("CalibrateDialog", "From the log: {choices}").format(
                choices=", ".join(self._choice_text(n, v) for n, v in from_log)) if from_log else translate(
                "CalibrateDialog", "The log names no transport, NICs or algorithm: the dialog's choices are used")),
            html.escape(translate("CalibrateDialog", "Kept as the fabric's own (not fitted): latency {lat} µs per "
                                                     "hop, packet loss {loss} %").format(
                lat=fmt_sig(fit.latency_us, 3), loss=fmt_sig(fit.setup.loss_rate * 100, 2))),
            translate("CalibrateDialog", "Achievable <b>{frac} %</b> of {link} Gb/s per NIC ({nic} GB/s) · NCCL's "
                                         "step cost per hop LL / LL128 / Simple {ll} / {ll128} / "
                                         "{simple} µs · pipeline fill {fill} KiB · LL128 efficiency {e128} · tree "
                                         "efficiency {etree}").format(
                frac=fmt_number(fit.achievable_fraction * 100, 1), link=fmt_number(fit.setup.link_gbps, 0),
                nic=fmt_number(fit.nic_gb_per_s, 1), ll=fmt_sig(fit.ll_hop_us, 3),
                ll128=fmt_sig(fit.ll128_hop_us, 3), simple=fmt_sig(fit.simple_hop_us, 3),
                fill=fmt_number(fit.fill_bytes / 1024, 0), e128=fmt_number(fit.ll128_efficiency, 3),
                etree=fmt_number(fit.tree_efficiency if math.isfinite(fit.tree_efficiency) else TREE_EFF, 3)),
            translate("CalibrateDialog", "Fit error of bus bandwidth: ≥ 64 MiB max <b>{large} %</b>, ≥ 1 MiB max "
                                         "<b>{medium} %</b> (tolerance {tl} % / {tm} %)").format(
                large=fmt_number(e["large_max_clean"] * 100, 1), medium=fmt_number(e["medium_max_clean"] * 100, 1),
                tl=fmt_number(nccl_accuracy.LARGE_TOLERANCE * 100, 0),
                tm=fmt_number(nccl_accuracy.MEDIUM_TOLERANCE * 100, 0)),
            html.escape(translate("CalibrateDialog", "Protocols: ") + ", ".join(
                f"{a}/{p} ≥ {size_text(size)}" for size, a, p in fit.crossovers)),
        ]
        if values is not None:
            lines.append(translate("CalibrateDialog", "As a fabric: {transport}, {nics} × {link} Gb/s").format(
                transport=transport_name(values["transport"]), nics=values["nics_per_node"],
                link=fmt_number(values["link_gbps"], 0)))
        self.result_label.setText("<br>".join(lines))

    def _show_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setToolTip(f"<p>{html.escape(message)}</p>")  # a tooltip is rich text: quote, not render
        self.save_button.setEnabled(False)
        self.forecast_button.setEnabled(False)

    def _show_empty(self) -> None:
        self.fit = None
        self.values = None
        self.points.setData([], [])
        self.line.setData([], [])
        self.busy_label.clear()
        self.result_label.setText(translate("CalibrateDialog", "Paste a log or open a file to see the fit."))
        self.warning_label.clear()
        self.error_label.clear()
        self.save_button.setEnabled(False)
        self.forecast_button.setEnabled(False)

    # -- save ------------------------------------------------------------------
    def save(self) -> bool:
        """Write the fit into the scenario as ``[fabric.custom.NAME]`` and focus it (one recompute)."""
        if self.values is None:
            return False
        name = self.name.text().strip()
        if not NAME_RE.match(name):
            self._show_error(translate(
                "CalibrateDialog", "Name '{name}': letters, digits and _ only, starting with a letter").format(
                name=name))
            return False
        values = dict(self.values)
        label = self.label.text().strip()
        if label:
            values["label"] = label
        s = self.controller.scenario
        try:
            new = nccl_fit.apply_to_scenario(s, name, values)
            new = new.replace("fabric.focus", name)
        except ScenarioError as err:
            self._show_error(str(err))
            return False
        self.controller.set_scenario(new, source_path=self.controller.source_path)
        self.saved.emit(name)
        self.accept()
        return True

    def use_for_forecast(self) -> bool:
        """Give the fabric in focus the calibrated values (its name and place in the comparison kept, labelled as
        calibrated): the charts, training days and cost are forecast again from the measured network, in one
        recompute. The fit must describe that fabric's wiring; a transport or NIC count the fabric does not have
        is the user's stated choice, as in the fit itself."""
        if self.values is None:
            return False
        s = self.controller.scenario
        name = s.fabric.focus_fabric
        label = next((r.label for r in model.resolve_fabrics(s) if r.name == name), name)
        values = dict(self.values, label=translate("CalibrateDialog", "{fabric} (calibrated)").format(
            fabric=label.split(" (")[0]))
        try:
            new = nccl_fit.apply_to_scenario(s, name, values)
        except ScenarioError as err:
            self._show_error(str(err))
            return False
        self.controller.set_scenario(new, source_path=self.controller.source_path)
        self.forecastUsed.emit(name)
        self.accept()
        return True


__all__ = ["CalibrateDialog", "focus_defaults"]
