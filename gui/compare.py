"""A/B compare: pin the current scenario as A, change things, see A against B (issue #6).

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
import os
import tempfile
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

import model
from model import catalog

from .charts import AXES, CHART_KINDS, chart_series, currency_of, make_pen, point_values
from .i18n import fmt_money, fmt_number, translate
from .i18n_data import field_label

METRICS = (  # key, engine output, display scale, decimals
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


def _value(point, out: str, scale: float, fabric: str) -> float:
    if point is None or fabric not in point.fabrics or out not in point.data:
        if out == "train_days_with_interruptions" and point is not None and fabric in point.fabrics:
            return _value(point, "train_days", scale, fabric)
        return math.nan
    arr = np.atleast_1d(np.asarray(point.data[out], dtype=float))
    return float(arr[point.fabric_index(fabric)]) * scale


def compare_rows(point_a, point_b) -> list[dict]:
    """``[{fabric, label, metric, a, b, delta, delta_pct}]`` for every fabric in A or B (no Qt)."""
    fabrics = list(point_b.fabrics) + [f for f in point_a.fabrics if f not in point_b.fabrics]
    labels = dict(zip(point_a.fabrics, point_a.labels))
    labels.update(zip(point_b.fabrics, point_b.labels))
    rows = []
    for f in fabrics:
        for key, out, scale in METRICS:
            a = _value(point_a, out, scale, f)
            b = _value(point_b, out, scale, f)
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


def compare_csv(point_a, point_b, *, name_a: str = "A", name_b: str = "B") -> str:
    """The comparison as CSV text (plain numbers, '.' decimals, for spreadsheets)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    code = currency_of(point_b) or currency_of(point_a)
    w.writerow(["fabric", "metric", "unit", f"A: {name_a}", f"B: {name_b}", "delta (B-A)", "delta %"])
    units = {"utilisation": "% MFU", "days": "days", "tco": code}
    for r in compare_rows(point_a, point_b):
        w.writerow([r["label"], r["metric"], units[r["metric"]]] + [
            "" if not math.isfinite(v) else f"{v:.6g}" for v in (r["a"], r["b"], r["delta"], r["delta_pct"])])
    return buf.getvalue()


def export_csv(path, point_a, point_b, **names) -> Path:
    """Write :func:`compare_csv` to ``path`` atomically (temporary file, then rename)."""
    path = Path(path)
    text = compare_csv(point_a, point_b, **names)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


class PinnedCurves(QtCore.QObject):
    """A's curves on the charts: the fabric's colour, dashed and faint, under B's."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.items: dict[str, dict[str, pg.PlotDataItem]] = {k: {} for k in CHART_KINDS}
        self.width = 1.2  # thicker in presentation mode
        self.markers: dict[str, pg.PlotDataItem] = {}
        self.labels: dict[str, pg.TextItem] = {}
        self.key = None

    def draw(self, sweep_a, snap_a=None) -> None:
        """A's curves from ``sweep_a``; with ``snap_a`` also A's point as hollow markers labelled 'A'."""
        for kind in CHART_KINDS:
            chart = self.window.charts[kind]
            data = chart_series(sweep_a, kind)
            log_y = bool((chart.series or data).get("log_y"))
            seen = set()
            for s in data["series"]:
                it = self.items[kind].get(s["fabric"])
                if it is None:
                    it = pg.PlotDataItem(connect="finite")
                    it.setZValue(2.5)
                    chart.getPlotItem().addItem(it)
                    self.items[kind][s["fabric"]] = it
                pen = make_pen(s["style"], self.width, alpha=130)
                pen.setStyle(QtCore.Qt.PenStyle.DashLine)
                pen.setDashPattern([5, 4])
                it.setPen(pen)
                y = np.asarray(s["y"], dtype=float)
                if log_y:
                    y = np.where(y > 0, y, np.nan)
                it.setData(data["x"], y)
                it.show()
                seen.add(s["fabric"])
            for name, it in self.items[kind].items():
                if name not in seen:
                    it.hide()
            self._draw_marker(kind, chart, data, snap_a, log_y)

    def _draw_marker(self, kind, chart, data, snap_a, log_y) -> None:
        m = self.markers.get(kind)
        if m is None:
            m = pg.PlotDataItem([], [], pen=None, symbol="o", symbolSize=11, symbolBrush=None)
            m.setZValue(9)
            chart.getPlotItem().addItem(m)
            label = pg.TextItem("A", color="#444444", anchor=(0.5, 1.3))
            label.setZValue(9)
            chart.getPlotItem().addItem(label, ignoreBounds=True)
            self.markers[kind] = m
            self.labels[kind] = label
        label = self.labels[kind]
        yv = point_values(snap_a.point, kind) if snap_a is not None else None
        if yv is None or snap_a.x_field != data["field"]:
            m.setData([], [])
            label.hide()
            return
        scale = AXES.get(data["field"], {}).get("scale", 1.0)
        cx = np.broadcast_to(np.asarray(snap_a.current_x, dtype=float) * scale, yv.shape)
        ok = np.isfinite(yv) & np.isfinite(cx) & (cx > 0 if data["log_x"] else True) & (yv > 0 if log_y else True)
        pens = [pg.mkPen(s["style"]["colour"], width=2) for s, k in zip(data["series"], ok) if k]
        m.setData(cx[ok], yv[ok], symbolPen=pens, symbolBrush=None)
        if ok.any():
            top = float(np.max(yv[ok]))
            x0 = float(cx[ok][0])
            label.setPos(math.log10(x0) if data["log_x"] else x0, math.log10(top) if log_y else top)
            label.show()
        else:
            label.hide()

    def clear(self) -> None:
        for per in self.items.values():
            for it in per.values():
                it.hide()
                it.setData([], [])
        for m in self.markers.values():
            m.setData([], [])
        for label in self.labels.values():
            label.hide()
        self.key = None

    def visible(self, kind: str) -> dict:
        return {n: it for n, it in self.items[kind].items() if it.isVisible()}


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
        ch = scenario_changes(snap_a.scenario, snap_b.scenario)
        if ch:
            shown = "; ".join(f"{field_label(k)}: {_short(va)} → {_short(vb)}" for k, va, vb in ch[:6])
            more = translate("Compare", " and {n} more").format(n=len(ch) - 6) if len(ch) > 6 else ""
            self.changes.setText(translate("Compare", "Changed from A: {list}").format(list=_esc(shown) + more))
        else:
            self.changes.setText(translate("Compare", "B is the same scenario as A"))
        rows = compare_rows(snap_a.point, snap_b.point)
        self.rows = rows
        code = currency_of(snap_b.point) or currency_of(snap_a.point)
        self.table.setRowCount(len(rows))
        last = None
        for i, r in enumerate(rows):
            fmt = _formatter(r["metric"], code)
            better = _better(r["metric"], r["delta"])
            cells = [r["short"] if r["fabric"] != last else "", metric_name(r["metric"]), fmt(r["a"]), fmt(r["b"]),
                     fmt(r["delta"], signed=True), _pct(r["delta_pct"])]
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
                    it.setForeground(QtGui.QBrush(QtGui.QColor(
                        "#1b7a3a" if better is True else "#b00020" if better is False else "#222222")))
        self.export_button.setEnabled(True)


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


def _short(v) -> str:
    if isinstance(v, float):
        return f"{v:,.4g}"
    if v is None:
        return "–"
    return str(v)


def _esc(s: str) -> str:
    import html

    return html.escape(str(s))


__all__ = ["ComparePanel", "PinnedCurves", "compare_csv", "compare_rows", "export_csv", "scenario_changes"]
