"""Calibrate a fabric from the user's own nccl-tests output (issue #6).

:class:`CalibrateDialog` takes the text of an ``all_reduce_perf`` (or sibling) run —
opened from a file or pasted — fits the α–β model with :mod:`model.nccl_fit`, draws
the fit over the measured points (log-log time against message size) and saves the
result as a user fabric in the scenario through the controller (one recompute).

A malformed log shows the engine's message, which names the line; the text, the
options and the last good fit stay where they were, so nothing is lost.

A log file is read off the UI thread (:class:`LogReader`), bounded like every file the app
reads (:func:`model.files.read_text_bounded`, at most :data:`model.files.MAX_LOG_BYTES`,
regular files only): a huge file, a pipe or a device never freezes the window.
"""

from __future__ import annotations

import html
import math
import re

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

import model
from model import ScenarioError, files, nccl_fit

from .i18n import fmt_number, fmt_sig, translate

TRANSPORTS = ("tcp", "roce", "iwarp", "infiniband")
TRANSPORT_NAMES = {"tcp": "Ethernet (TCP)", "roce": "RoCE", "iwarp": "iWARP", "infiniband": "InfiniBand"}
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


def size_text(b: float) -> str:
    for scale, unit in ((2 ** 30, "GiB"), (2 ** 20, "MiB"), (2 ** 10, "KiB")):
        if b >= scale:
            return f"{b / scale:g} {unit}"
    return f"{b:g} B"


class SizeAxis(pg.AxisItem):
    """Message sizes in B/KiB/MiB/GiB on a log axis, ticks at powers of two."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.enableAutoSIPrefix(False)

    def tickValues(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph name)
        lo, hi = math.floor(minVal / math.log10(2)), math.ceil(maxVal / math.log10(2))
        span = max(hi - lo, 1)
        step = next(s for s in (1, 2, 4, 5, 10, 20) if span / s <= max(size / 90, 2))
        major = [k * math.log10(2) for k in range(lo - lo % step, hi + 1, step)
                 if minVal <= k * math.log10(2) <= maxVal]
        return [(step * math.log10(2), major)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph name)
        return [size_text(round(10 ** v)) for v in values]


class TimeAxis(pg.AxisItem):
    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values, scale, spacing):  # noqa: N802
        return [f"{10 ** v:,.6g}" for v in values]


class LogReader(QtCore.QThread):
    """Reads one nccl-tests log off the UI thread; ``done`` carries (serial, path, text or ScenarioError)."""

    done = QtCore.Signal(int, str, object)

    def __init__(self, serial: int, path, parent=None):
        super().__init__(parent)
        self.serial = serial
        self.path = str(path)

    def run(self) -> None:
        try:
            result = files.read_text_bounded(self.path, limit=files.MAX_LOG_BYTES, what="nccl-tests output file",
                                             errors="replace")
        except ScenarioError as err:
            result = err
        self.done.emit(self.serial, self.path, result)


class CalibrateDialog(QtWidgets.QDialog):
    """Open or paste an nccl-tests log, fit it, save it as a user fabric.

    ``choose_file`` is a callable returning a path or '' (the window's file dialog);
    ``controller`` is the window's :class:`~gui.controller.Controller`.
    """

    saved = QtCore.Signal(str)  # the fabric name written into the scenario
    fileLoaded = QtCore.Signal(bool)  # a log file was read (and fitted: True) or refused (False)

    def __init__(self, controller, parent=None, *, choose_file=None):
        super().__init__(parent)
        self.controller = controller
        self.choose_file = choose_file
        self.fit: nccl_fit.NcclFit | None = None
        self.values: dict | None = None
        self.path: str | None = None
        self.reader: LogReader | None = None  # the read under way, if any
        self._read_serial = 0
        self._last_load_ok = False
        self.setObjectName("calibrateDialog")
        self.setWindowTitle(translate("CalibrateDialog", "Calibrate a fabric from nccl-tests"))
        self.resize(1000, 680)
        d = focus_defaults(controller.scenario)

        intro = QtWidgets.QLabel(translate("CalibrateDialog", 
            "Paste or open the output of nccl-tests (all_reduce_perf, all_gather_perf, …) run across at least "
            "two nodes. The fit gives the fabric's latency and achievable bus bandwidth on your network."))
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
        self._refit_timer.timeout.connect(self.refit)
        self.text.textChanged.connect(self._refit_timer.start)

        # -- options
        self.transport = QtWidgets.QComboBox()
        self.transport.setObjectName("transportCombo")
        for t in TRANSPORTS:
            self.transport.addItem(TRANSPORT_NAMES[t], t)
        self.transport.setCurrentIndex(max(self.transport.findData(d["transport"]), 0))
        self.link = QtWidgets.QDoubleSpinBox()
        self.link.setObjectName("linkSpin")
        self.link.setRange(1.0, 100_000.0)
        self.link.setDecimals(0)
        self.link.setSuffix(" Gb/s")
        self.link.setValue(d["link_gbps"])
        self.nics = QtWidgets.QSpinBox()
        self.nics.setObjectName("nicsSpin")
        self.nics.setRange(1, 64)
        self.nics.setValue(d["nics_per_node"])
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
            fabric=TRANSPORT_NAMES.get(d["transport"], d["transport"])))
        self.label.setObjectName("labelEdit")
        for w in (self.transport, self.link, self.nics, self.collective, self.ranks, self.nodes):
            sig = w.currentIndexChanged if isinstance(w, QtWidgets.QComboBox) else w.valueChanged
            sig.connect(self._refit_timer.start)
        self.transport.currentIndexChanged.connect(self._transport_changed)
        form = QtWidgets.QFormLayout()
        form.addRow(translate("CalibrateDialog", "Transport"), self.transport)
        form.addRow(translate("CalibrateDialog", "Link speed per NIC"), self.link)
        form.addRow(translate("CalibrateDialog", "NICs per node"), self.nics)
        form.addRow(translate("CalibrateDialog", "Collective"), self.collective)
        form.addRow(translate("CalibrateDialog", "Ranks"), self.ranks)
        form.addRow(translate("CalibrateDialog", "Nodes"), self.nodes)
        form.addRow(translate("CalibrateDialog", "Save as (name)"), self.name)
        form.addRow(translate("CalibrateDialog", "Label"), self.label)

        # -- the fit
        self.plot = pg.PlotWidget(background="w", axisItems={"bottom": SizeAxis("bottom"), "left": TimeAxis("left")})
        self.plot.setObjectName("fitPlot")
        pi = self.plot.getPlotItem()
        pi.setLogMode(x=True, y=True)
        pi.showGrid(x=True, y=True, alpha=0.25)
        pi.setMenuEnabled(False)
        pi.hideButtons()
        pi.setLabel("bottom", translate("CalibrateDialog", "Message size"))
        pi.setLabel("left", translate("CalibrateDialog", "Time (µs)"))
        pi.setTitle(translate("CalibrateDialog", "Measured points and the α–β fit"))
        self.legend = pi.addLegend(offset=(10, 10), labelTextColor="#222222", brush=pg.mkBrush(255, 255, 255, 215))
        self.points = pg.PlotDataItem([], [], pen=None, symbol="o", symbolSize=8, symbolPen=pg.mkPen("#0072B2"),
                                      symbolBrush=pg.mkBrush("#56B4E9"), name=translate("CalibrateDialog", "measured"))
        self.line = pg.PlotDataItem([], [], pen=pg.mkPen("#D55E00", width=2), name=translate("CalibrateDialog", "fit"))
        pi.addItem(self.points)
        pi.addItem(self.line)
        self.result_label = QtWidgets.QLabel()
        self.result_label.setObjectName("fitResult")
        self.result_label.setWordWrap(True)
        self.result_label.setTextFormat(QtCore.Qt.TextFormat.RichText)
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
        right.addWidget(self.result_label)
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
        """Read a log file off the UI thread; when it is read, show and fit it (``fileLoaded``).

        A newer request supersedes one still under way; an unreadable file keeps the current text."""
        self._read_serial += 1
        reader = self.reader = LogReader(self._read_serial, path, self)
        reader.done.connect(self._read_done)
        reader.finished.connect(reader.deleteLater)
        self.file_label.setText(f"{path} …")  # being read
        reader.start()
        return reader

    def load_file(self, path) -> bool:
        """Read a log file (off the UI thread; events keep flowing meanwhile) and fit it; ``True`` when it fits."""
        loop = QtCore.QEventLoop()
        self.fileLoaded.connect(loop.quit)
        try:
            self.start_reading(path)
            if self.reader is not None:
                loop.exec()
        finally:
            self.fileLoaded.disconnect(loop.quit)
        return self._last_load_ok

    def _read_done(self, serial: int, path: str, result) -> None:
        if serial != self._read_serial:
            return  # a file chosen later is being read
        self.reader = None
        if isinstance(result, ScenarioError):
            self.file_label.setText(self.path or translate("CalibrateDialog", "No file: paste the log below"))
            self._show_error(translate("CalibrateDialog", "Cannot read {path}: {error}").format(
                path=path, error=f"{result.value}; {result.allowed}"))
            self._last_load_ok = False
        else:
            self.path = path
            self.file_label.setText(path)
            self.file_label.setToolTip(path)
            with QtCore.QSignalBlocker(self.text):
                self.text.setPlainText(result)
            self._last_load_ok = self.refit()
        self.fileLoaded.emit(self._last_load_ok)

    def done(self, result: int) -> None:  # noqa: D401 (Qt name) - closing waits for a read under way
        if self.reader is not None:
            self._read_serial += 1  # its result is no longer wanted
            self.reader.wait()
            self.reader = None
        super().done(result)

    def set_text(self, text: str) -> bool:
        with QtCore.QSignalBlocker(self.text):
            self.text.setPlainText(text)
        return self.refit()

    def _transport_changed(self, _i=None) -> None:
        t = self.transport.currentData()
        name = self.name.text()
        if not name or name.endswith("_measured"):
            self.name.setText(f"{t}_measured")
        self.label.setText(translate("CalibrateDialog", "{fabric} (measured)").format(fabric=TRANSPORT_NAMES.get(t, t)))

    # -- fit -------------------------------------------------------------------
    def refit(self) -> bool:
        """Parse and fit the text with the current options; ``False`` shows the message."""
        self._refit_timer.stop()
        text = self.text.toPlainText()
        if not text.strip():
            self._show_empty()
            return False
        source = self.path.rsplit("/", 1)[-1] if self.path else translate("CalibrateDialog", "pasted log")
        try:
            log = nccl_fit.parse_nccl_tests(text, source=source, collective=self.collective.currentData(),
                                            ranks=self.ranks.value() or None, nodes=self.nodes.value() or None)
            fit = nccl_fit.fit_alpha_beta(log)
        except ScenarioError as err:
            self._show_error(str(err))
            return False
        self.fit = fit
        self._draw(fit)
        try:
            self.values = nccl_fit.fabric_from_fit(fit, link_gbps=self.link.value(), nics_per_node=self.nics.value(),
                                                   transport=self.transport.currentData())
        except ScenarioError as err:
            self.values = None
            self._show_result(fit, None)
            self._show_error(str(err))
            return False
        self.error_label.clear()
        self._show_result(fit, self.values)
        self.save_button.setEnabled(True)
        return True

    def _draw(self, fit) -> None:
        log = fit.log
        self.points.setData(log.size_bytes, log.time_us)
        xs = np.geomspace(log.size_bytes.min(), log.size_bytes.max(), 200)
        self.line.setData(xs, fit.predict_time_us(xs))
        self.plot.getPlotItem().enableAutoRange()

    def _show_result(self, fit, values) -> None:
        log = fit.log
        lines = [
            translate("CalibrateDialog", "<b>{coll}</b>, {ranks} ranks on {nodes} nodes, {n} message sizes").format(
                coll=log.collective, ranks=log.ranks, nodes=log.nodes, n=len(log.size_bytes)),
            translate("CalibrateDialog", "Fitted latency α = <b>{alpha} µs</b> · bus bandwidth <b>{busbw} GB/s</b> "
                 "({gbps} Gb/s per node) · fit error {rms} % RMS").format(
                alpha=fmt_number(fit.alpha_us, 1), busbw=fmt_number(fit.busbw_gb_per_s, 1),
                gbps=fmt_number(fit.busbw_gb_per_s * 8, 0), rms=fmt_number(fit.rms_relative_error * 100, 1)),
        ]
        if values is not None:
            lines.append(translate(
                "CalibrateDialog", "As a fabric: latency per network step <b>{lat} µs</b>, achievable bandwidth "
                                   "<b>{frac} %</b> of {nics} × {link} Gb/s").format(
                lat=fmt_sig(values["latency_us"], 3), frac=fmt_number(values["achievable_fraction"] * 100, 0),
                nics=values["nics_per_node"], link=fmt_number(values["link_gbps"], 0)))
        self.result_label.setText("<br>".join(lines))

    def _show_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setToolTip(f"<p>{html.escape(message)}</p>")  # a tooltip is rich text: quote, not render
        self.save_button.setEnabled(False)

    def _show_empty(self) -> None:
        self.fit = None
        self.values = None
        self.points.setData([], [])
        self.line.setData([], [])
        self.result_label.setText(translate("CalibrateDialog", "Paste a log or open a file to see the fit."))
        self.error_label.clear()
        self.save_button.setEnabled(False)

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


__all__ = ["CalibrateDialog", "focus_defaults"]
