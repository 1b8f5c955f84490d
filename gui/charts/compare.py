"""A/B compare: pin the current scenario as A, change things, see A against B.

- :func:`compare_rows` (no Qt) gives, per fabric, utilisation, training days and TCO
  for A and B with the difference; :func:`compare_csv` / :func:`export_csv` write them.
- :class:`PinnedCurves` draws A's curves on the three charts, dashed and faint, behind
  the live ones.
- :class:`ComparePanel` is the table, with a line saying what changed from A to B.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

import model
from model import catalog
from model.files import atomic_write
from model.results import fabric_summaries

from gui.present.series import AXES, CHART_KINDS, chart_series, currency_of, point_values
from gui.charts.plot_items import make_pen
from gui.i18n import fmt_money, fmt_number, fmt_percent, fmt_sig, translate
from gui.i18n_data import field_label
from gui.present.chart_export import csv_text

METRICS = (  # key, field of the typed per-fabric result (model.results.FabricSummary), display scale
    ("utilisation", "mfu", 100.0),
    ("days", "train_days_with_interruptions", 1.0),
    ("tco", "tco", 1.0),
)



def metric_name(key: str) -> str:
    if key == "utilisation":
        return translate("Compare", "Utilisation (MFU, %)")
    if key == "days":
        return translate("Compare", "Training days")
    return translate("Compare", "TCO")


def _by_fabric(point) -> dict:
    """The typed per-fabric results of ``point`` by fabric key ({} without a point)."""
    return {} if point is None else {f.fabric: f for f in fabric_summaries(point)}


def compare_rows(point_a, point_b) -> list[dict]:
    """``[{fabric, label, metric, a, b, delta, delta_pct}]`` for every fabric in A or B (no Qt)."""
    fabrics = list(point_b.fabrics) + [f for f in point_a.fabrics if f not in point_b.fabrics]
    labels = dict(zip(point_a.fabrics, point_a.labels))
    labels.update(zip(point_b.fabrics, point_b.labels))
    rows = []
    by_a, by_b = _by_fabric(point_a), _by_fabric(point_b)
    for f in fabrics:
        for key, out, scale in METRICS:
            a = getattr(by_a[f], out) * scale if f in by_a else math.nan
            b = getattr(by_b[f], out) * scale if f in by_b else math.nan
            d = b - a
            pct = d / a * 100.0 if math.isfinite(d) and a else math.nan
            short = catalog.fabric_style(f).get("short", f) if f in catalog.BUILTIN_FABRICS else labels.get(f, f)
            rows.append(dict(fabric=f, label=labels.get(f, f), short=short, metric=key, a=a, b=b, delta=d,
                             delta_pct=pct))
    return rows


def _flat(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        p = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flat(v, p + "."))
        else:
            out[p] = v
    return out


def scenario_changes(a: model.Scenario, b: model.Scenario) -> list[tuple[str, object, object]]:
    """(field, A's value, B's value) for every field that differs (names and descriptions aside)."""
    da = _flat(model.scenario_to_dict(a))
    db = _flat(model.scenario_to_dict(b))
    out = []
    for k in sorted(set(da) | set(db)):
        if k in ("name", "description", "schema_version"):
            continue
        if da.get(k) != db.get(k):
            out.append((k, da.get(k), db.get(k)))
    return out


def changes_text(a: model.Scenario, b: model.Scenario, most: int = 6) -> str:
    """One line (HTML-escaped) naming what changed from A to B: the first ``most`` fields, then how many more."""
    ch = scenario_changes(a, b)
    if not ch:
        return translate("Compare", "B is the same scenario as A")
    shown = "; ".join(f"{field_label(k)}: {_short(va, k)} → {_short(vb, k)}" for k, va, vb in ch[:most])
    more = translate("Compare", " and {n} more").format(n=len(ch) - most) if len(ch) > most else ""
    return translate("Compare", "Changed from A: {list}").format(list=_esc(shown) + more)


def compare_csv(point_a, point_b, *, name_a: str = "A", name_b: str = "B") -> str:
    """The comparison as CSV text (plain numbers, '.' decimals, for spreadsheets)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    code = currency_of(point_b) or currency_of(point_a)
    w.writerow(["fabric", "metric", "unit", f"A: {name_a}", f"B: {name_b}", "delta (B-A)", "delta %"])
    units = {"utilisation": "% MFU", "days": "days", "tco": code}
    for r in compare_rows(point_a, point_b):
        w.writerow([csv_text(r["label"]), r["metric"], units[r["metric"]]] + [
            "" if not math.isfinite(v) else f"{v:.6g}" for v in (r["a"], r["b"], r["delta"], r["delta_pct"])])
    return buf.getvalue()


def export_csv(path, point_a, point_b, **names) -> Path:
    """Write :func:`compare_csv` to ``path`` atomically (:func:`model.files.atomic_write`: never over a
    folder, a pipe or a device; problems are a :class:`model.ScenarioError` naming the path)."""
    return atomic_write(path, compare_csv(point_a, point_b, **names))


PINNED_ALPHA = 130
PINNED_DASH = [5, 4]


def pinned_pen(style: dict, width: float):
    """A's curve: the fabric's colour, faint and dashed."""
    pen = make_pen(style, width, alpha=PINNED_ALPHA)
    pen.setStyle(QtCore.Qt.PenStyle.DashLine)
    pen.setDashPattern(PINNED_DASH)
    return pen


class PinnedLayer:
    """A on one chart: its curves in the fabric's colour, dashed and faint, under B's, and
    (given A's snapshot) its point as hollow markers labelled 'A'. The window's
    :class:`PinnedCurves` and the exports draw through here."""

    def __init__(self, chart):
        self.chart = chart
        self.items: dict[str, pg.PlotDataItem] = {}
        self.marker: pg.PlotDataItem | None = None
        self.label: pg.TextItem | None = None

    def draw(self, kind: str, sweep_a, snap_a=None, width: float = 1.2) -> None:
        chart = self.chart
        data = chart_series(sweep_a, kind, chart.tco_baseline)
        log_y = (chart.series or data).log_y
        seen = set()
        for s in data.series:
            it = self.items.get(s.fabric)
            if it is None:
                it = pg.PlotDataItem(connect="finite")
                it.setZValue(2.5)
                chart.getPlotItem().addItem(it)
                self.items[s.fabric] = it
            it.setPen(pinned_pen(s.style, width))
            y = np.asarray(s.y, dtype=float)
            if log_y:
                y = np.where(y > 0, y, np.nan)
            it.setData(data.x, y)
            it.show()
            seen.add(s.fabric)
        for name, it in self.items.items():
            if name not in seen:
                it.hide()
        self._draw_marker(kind, data, snap_a, log_y)
        chart.fit_y()  # the y axis holds A's curves too

    def _draw_marker(self, kind, data, snap_a, log_y) -> None:
        chart = self.chart
        if self.marker is None:
            self.marker = pg.PlotDataItem([], [], pen=None, symbol="o", symbolSize=11, symbolBrush=None)
            self.marker.setZValue(9)
            chart.getPlotItem().addItem(self.marker)
            self.label = pg.TextItem("A", color="#444444", anchor=(0.5, 1.3))
            self.label.setZValue(9)
            chart.getPlotItem().addItem(self.label, ignoreBounds=True)
        m, label = self.marker, self.label
        yv = point_values(snap_a.point, kind, chart.tco_baseline) if snap_a is not None else None
        if yv is None or snap_a.x_field != data.field:
            m.setData([], [])
            label.hide()
            return
        scale = AXES.get(data.field, {}).get("scale", 1.0)
        cx = np.broadcast_to(np.asarray(snap_a.current_x, dtype=float) * scale, yv.shape)
        ok = np.isfinite(yv) & np.isfinite(cx) & (cx > 0 if data.log_x else True) & (yv > 0 if log_y else True)
        pens = [pg.mkPen(s.style["colour"], width=2) for s, k in zip(data.series, ok) if k]
        m.setData(cx[ok], yv[ok], symbolPen=pens, symbolBrush=None)
        if ok.any():
            top = float(np.max(yv[ok]))
            x0 = float(cx[ok][0])
            label.setPos(math.log10(x0) if data.log_x else x0, math.log10(top) if log_y else top)
            label.show()
        else:
            label.hide()

    def clear(self) -> None:
        for it in self.items.values():
            it.hide()
            it.setData([], [])
        if self.marker is not None:
            self.marker.setData([], [])
            self.label.hide()

    def visible(self) -> dict:
        return {n: it for n, it in self.items.items() if it.isVisible()}


class PinnedCurves(QtCore.QObject):
    """A's curves on the window's three charts (one :class:`PinnedLayer` each)."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.layers: dict[str, PinnedLayer] = {}
        self.width = 1.2  # thicker in presentation mode
        self.key = None

    def _layer(self, kind: str) -> PinnedLayer:
        if kind not in self.layers:
            self.layers[kind] = PinnedLayer(self.window.charts[kind])
        return self.layers[kind]

    def draw(self, sweep_a, snap_a=None) -> None:
        """A's curves from ``sweep_a``; with ``snap_a`` also A's point as hollow markers labelled 'A'."""
        for kind in CHART_KINDS:
            self._layer(kind).draw(kind, sweep_a, snap_a, self.width)

    @property
    def items(self) -> dict[str, dict[str, pg.PlotDataItem]]:
        return {k: (self.layers[k].items if k in self.layers else {}) for k in CHART_KINDS}

    @property
    def markers(self) -> dict[str, pg.PlotDataItem]:
        return {k: layer.marker for k, layer in self.layers.items() if layer.marker is not None}

    @property
    def labels(self) -> dict[str, pg.TextItem]:
        return {k: layer.label for k, layer in self.layers.items() if layer.label is not None}

    def clear(self) -> None:
        for layer in self.layers.values():
            layer.clear()
        self.key = None

    def visible(self, kind: str) -> dict:
        return self.layers[kind].visible() if kind in self.layers else {}


def pinned_along(features, snap):
    """A (the window's pinned snapshot) along ``snap``'s x-axis, or None when nothing is pinned:
    what an export draws."""
    a = features.pin_a
    if a is None or snap is None:
        return None
    if a.x_field == snap.x_field:
        return a
    return features.window.controller.compute(a.scenario, snap.x_field)


class ComparePanel(QtWidgets.QWidget):
    """Table of A (pinned) vs B (current) per fabric, with the changes between them."""

    COLUMNS = 6

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("comparePanel")
        self.header = QtWidgets.QLabel(translate(
            "Compare", "Pin a scenario as A (Tools ▸ Pin as A), then change things: "
                       "A stays dashed on the charts and here beside the current B."))
        self.header.setObjectName("compareHeader")
        self.header.setWordWrap(True)
        self.changes = QtWidgets.QLabel()
        self.changes.setObjectName("compareChanges")
        self.changes.setWordWrap(True)
        self.changes.setStyleSheet("color:#444")
        self.table = QtWidgets.QTableWidget(0, self.COLUMNS)
        self.table.setObjectName("compareTable")
        self.table.setHorizontalHeaderLabels([
            translate("Compare", "Fabric"), translate("Compare", "Metric"), translate("Compare", "A (pinned)"),
            translate("Compare", "B (now)"), "Δ B − A", "Δ %"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        hh.setStretchLastSection(False)
        self.export_button = QtWidgets.QPushButton(translate("Compare", "Export CSV…"))
        self.export_button.setObjectName("compareExport")
        self.export_button.setEnabled(False)
        self.rows: list[dict] = []
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.header)
        lay.addWidget(self.changes)
        lay.addWidget(self.table, 1)
        row = QtWidgets.QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.export_button)
        lay.addLayout(row)

    def show_pair(self, snap_a, snap_b, pinned_at: str = "") -> None:
        if snap_a is None or snap_b is None:
            self.rows = []
            self.table.setRowCount(0)
            self.changes.clear()
            self.export_button.setEnabled(False)
            return
        self.header.setText(translate(
            "Compare", "<b>A</b>: {a} (pinned {when}) &nbsp;·&nbsp; <b>B</b>: {b} (now)").format(
            a=_esc(snap_a.scenario.name), b=_esc(snap_b.scenario.name), when=pinned_at))
        self.changes.setText(changes_text(snap_a.scenario, snap_b.scenario))
        rows = compare_rows(snap_a.point, snap_b.point)
        self.rows = rows
        code = currency_of(snap_b.point) or currency_of(snap_a.point)
        self.table.setRowCount(len(rows))
        last = None
        for i, r in enumerate(rows):
            t = row_texts(r, code)
            cells = [r["short"] if r["fabric"] != last else "", metric_name(r["metric"]), t["a"], t["b"], t["delta"],
                     t["pct"]]
            last = r["fabric"]
            for j, text in enumerate(cells):
                it = self.table.item(i, j)
                if it is None:
                    it = QtWidgets.QTableWidgetItem()
                    self.table.setItem(i, j, it)
                it.setText(text)
                if j >= 2:
                    it.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
                if j >= 4:
                    it.setForeground(QtGui.QBrush(QtGui.QColor(t["colour"])))
        self.export_button.setEnabled(True)


BETTER, WORSE, SAME = "#1b7a3a", "#b00020", "#222222"


def row_texts(r: dict, code: str) -> dict:
    """One :func:`compare_rows` row as the table shows it: ``a``, ``b``, signed ``delta`` and ``pct``
    in the UI's number format, and the ``colour`` of the difference (green better, red worse)."""
    fmt = _formatter(r["metric"], code)
    better = _better(r["metric"], r["delta"])
    return dict(a=fmt(r["a"]), b=fmt(r["b"]), delta=fmt(r["delta"], signed=True), pct=_pct(r["delta_pct"]),
                colour=BETTER if better is True else WORSE if better is False else SAME)


def _better(metric: str, delta: float):
    if not math.isfinite(delta) or abs(delta) < 1e-12:
        return None
    return delta > 0 if metric == "utilisation" else delta < 0


def _formatter(metric: str, code: str):
    def f(v, signed=False):
        if not math.isfinite(v):
            return "–"
        if metric == "tco":
            return fmt_money(v, code, signed=signed)
        s = fmt_number(abs(v) if signed else v, 1)
        return (("+" if v > 0 else "−" if v < 0 else "") + s) if signed else s
    return f


def _pct(v: float) -> str:
    if not math.isfinite(v):
        return "–"
    return ("+" if v > 0 else "−" if v < 0 else "") + fmt_number(abs(v), 1) + " %"


def _short(v, key: str = "") -> str:
    """A changed value as the controls show it: a loss rate in percent (the UI's unit), numbers grouped."""
    if v is None:
        return "–"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if key.endswith("loss_rate"):
            return fmt_percent(v, fraction=True)
        return fmt_sig(v, 4) if isinstance(v, float) else fmt_number(v, 0)
    return str(v)


def _esc(s: str) -> str:
    import html

    return html.escape(str(s))


__all__ = ["ComparePanel", "PinnedCurves", "PinnedLayer", "changes_text", "compare_csv", "compare_rows", "export_csv",
           "metric_name", "pinned_along", "pinned_pen", "row_texts", "scenario_changes"]
