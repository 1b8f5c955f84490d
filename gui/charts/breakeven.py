"""Break-even between two fabrics along the x-axis.

:func:`crossings` finds where a pair of fabrics tie on TCO and on training duration
(:func:`model.analysis.break_even`), :func:`sentences` words them for people
("InfiniBand costs less above 40 nodes; RoCE below") — the proposal PDF uses the same
function — and :class:`BreakEvenMarkers` marks them on the charts with a vertical line
and that sentence, shortened.

The default pair is InfiniBand against the fastest other fabric at the current point.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from model import analysis, catalog

from gui.present.series import AXES
from gui.i18n import fmt_number, fmt_sig, translate

METRICS = {  # engine metric -> chart it is marked on
    "tco": "tco",
    "train_days_with_interruptions": "duration",
}


# sentences (panel, proposal) also cover the cost of one training run, where a faster fabric can pay off
SENTENCE_METRICS = ("tco", "train_days_with_interruptions", "cost_per_run")



def short_name(result, fabric: str) -> str:
    if fabric in catalog.BUILTIN_FABRICS:
        return catalog.fabric_style(fabric).get("short", fabric)
    return result.labels[result.fabrics.index(fabric)] if fabric in result.fabrics else fabric


def default_pair(result, point=None) -> tuple[str, str] | None:
    """InfiniBand against the fastest other fabric at the current point (or along the sweep)."""
    fabs = list(result.fabrics)
    if len(fabs) < 2:
        return None
    a = "infiniband" if "infiniband" in fabs else fabs[-1]
    src = point if point is not None else result
    days = np.asarray(src.reliability.train_days_with_interruptions, dtype=float)
    if days.ndim > 1:
        days = np.nanmedian(np.where(np.isfinite(days), days, np.nan), axis=1)
    days = np.atleast_1d(days)
    best, best_v = None, math.inf
    for i, f in enumerate(src.fabrics):
        if f == a or f not in fabs:
            continue
        v = float(days[i]) if i < len(days) else math.inf
        if math.isfinite(v) and v < best_v:
            best, best_v = f, v
    if best is None:
        best = next(f for f in fabs if f != a)
    return a, best


def _num(field: str, x: float) -> str:
    meta = AXES.get(field, dict(scale=1.0, integer=False))
    v = x * meta.get("scale", 1.0)
    return fmt_number(round(v), 0) if meta.get("integer") else fmt_sig(v, 3)


def x_text(field: str, x: float, x_hi: float | None = None) -> str:
    """The x value with its quantity, for a sentence: '40 nodes', '0.05 % loss', '12 µs latency';
    with ``x_hi`` a range: '1–4,096 nodes'."""
    n = _num(field, x) + ("" if x_hi is None else "–" + _num(field, x_hi))
    if field == "cluster.nodes":
        return translate("BreakEven", "{n} nodes").format(n=n)
    if field == "workload.params_b":
        return translate("BreakEven", "{n} B parameters").format(n=n)
    if field == "fabric.latency_us":
        return translate("BreakEven", "{n} µs latency").format(n=n)
    if field == "fabric.loss_rate":
        return translate("BreakEven", "{n} % packet loss").format(n=n)
    if field == "fabric.link_gbps":
        return translate("BreakEven", "{n} Gb/s per NIC").format(n=n)
    return f"{n}"


def sentence(result, crossing) -> str:
    """One crossing as a sentence: who wins above the x value, who below."""
    above, below = ((crossing.fabric_a, crossing.fabric_b) if crossing.a_better_above
                    else (crossing.fabric_b, crossing.fabric_a))
    args = dict(above=short_name(result, above), below=short_name(result, below),
                x=x_text(result.field, crossing.x))
    if crossing.metric == "tco":
        return translate("BreakEven", "{above} costs less (TCO) above {x}; {below} below").format(**args)
    if crossing.metric.startswith("train_days"):
        return translate("BreakEven", "{above} trains faster above {x}; {below} below").format(**args)
    if crossing.metric == "cost_per_run":
        return translate("BreakEven", "{above} costs less per run above {x}; {below} below").format(**args)
    return translate("BreakEven", "{above} is better on {metric} above {x}; {below} below").format(
        metric=crossing.metric, **args)


def label_text(result, crossing) -> str:
    """The short label beside the marker line: 'InfiniBand pays off above 40 nodes'."""
    above = crossing.fabric_a if crossing.a_better_above else crossing.fabric_b
    args = dict(above=short_name(result, above), x=x_text(result.field, crossing.x))
    if crossing.metric == "tco":
        return translate("BreakEven", "{above} pays off above {x}").format(**args)
    return translate("BreakEven", "{above} faster above {x}").format(**args)


NEAR = 0.05      # two opposite crossings closer than 5 % in x are one wobble (a plan change), not a break-even
MAX_CROSSINGS = 3  # more than this and the two are too close to call


def clean(cs: list) -> list:
    """Drop pairs of opposite crossings within :data:`NEAR` of each other (wobbles)."""
    out: list = []
    for c in sorted(cs, key=lambda c: c.x):
        if out and out[-1].a_better_above != c.a_better_above and out[-1].metric == c.metric \
                and abs(c.x - out[-1].x) <= NEAR * max(abs(c.x), 1e-300):
            out.pop()
            continue
        out.append(c)
    return out


def crossings(result, pair=None, metrics=tuple(METRICS)) -> list:
    """Every crossing of ``pair`` (default: :func:`default_pair`) on ``metrics``, along the sweep."""
    if result is None or result.x is None:
        return []
    pair = pair or default_pair(result)
    if pair is None or any(f not in result.fabrics for f in pair):
        return []
    out = []
    for cs in _by_metric(result, pair, metrics).values():
        if len(cs) <= MAX_CROSSINGS:
            out.extend(cs)
    return out


def _by_metric(result, pair, metrics) -> dict:
    """Cleaned crossings of ``pair`` per metric (the one search both views use)."""
    return {m: clean(analysis.break_even(result, pair[0], pair[1], m)) for m in metrics}


def summary(result, pair, metric: str) -> str:
    """When there is no crossing: who wins across the whole x range."""
    a, b = pair
    va = np.asarray(result.metric(metric)[result.fabric_index(a)], dtype=float)
    vb = np.asarray(result.metric(metric)[result.fabric_index(b)], dtype=float)
    ok = np.isfinite(va) & np.isfinite(vb)
    if not ok.any():
        return translate("BreakEven", "No point where both have a plan")
    wins_a = np.median(np.sign(vb[ok] - va[ok])) > 0
    win, lose = (a, b) if wins_a else (b, a)
    x = np.asarray(result.x, dtype=float)[ok]
    rng = x_text(result.field, float(x.min()), float(x.max()))
    args = dict(win=short_name(result, win), lose=short_name(result, lose), range=rng)
    if metric == "tco":
        return translate("BreakEven", "No break-even on TCO over {range}: {win} costs less than {lose} "
                                      "throughout").format(**args)
    if metric == "cost_per_run":
        return translate("BreakEven", "No break-even on cost per run over {range}: {win} costs less than {lose} "
                                      "throughout").format(**args)
    return translate("BreakEven", "No break-even on duration over {range}: {win} trains faster than {lose} "
                                  "throughout").format(**args)


def sentences(result, pair=None, *, with_summary: bool = True) -> list[str]:
    """Break-even sentences for ``pair`` (default: InfiniBand vs the fastest other) on TCO and duration.

    For the proposal PDF and the break-even panel; in the current UI language.
    ``result`` is a sweep :class:`model.Result` (``snapshot.sweep``).
    """
    if result is None or result.x is None:
        return []
    pair = pair or default_pair(result)
    if pair is None:
        return []
    out = []
    for m, cs in _by_metric(result, pair, SENTENCE_METRICS).items():
        if len(cs) > MAX_CROSSINGS:
            out.append(translate(
                "BreakEven", "{a} and {b} trade places {n} times on {metric} between {lo} and {hi}: too close to "
                             "call").format(a=short_name(result, pair[0]), b=short_name(result, pair[1]), n=len(cs),
                                         metric=metric_name(m), lo=x_text(result.field, cs[0].x),
                                         hi=x_text(result.field, cs[-1].x)))
        elif cs:
            out.extend(sentence(result, c) for c in cs)
        elif with_summary:
            out.append(summary(result, pair, m))
    return out


def metric_name(m: str) -> str:
    return {"tco": translate("BreakEven", "TCO"), "train_days_with_interruptions": translate("BreakEven", "duration"),
            "cost_per_run": translate("BreakEven", "cost per run")}.get(m, m)


MARKER_COLOUR = "#6a3d9a"


def add_marker(chart, result, crossing, x_field: str, *, label_pt: float | None = None, fit_label: bool = False,
               label: bool = True, label_position: float = 0.88):
    """Mark ``crossing`` on ``chart`` (a ChartWidget) with a dashed vertical line and its short label.

    The window's charts and the proposal sheet's use this one drawing. ``label_pt`` sets
    the label's font size (default: the chart's); ``fit_label`` puts the label left of a line
    in the right half of the view, so a fixed-size chart (the proposal's) does not cut it;
    ``label=False``: no label on the plot (the window names the crossing under the plot instead);
    ``label_position``: the label's height on the line, 0 (bottom) to 1 (top).
    Returns the line, or ``None`` when the crossing cannot be drawn (x ≤ 0 on a log axis).
    """
    log_x = chart.series is not None and chart.series.log_x
    xd = crossing.x * AXES.get(x_field, {}).get("scale", 1.0)
    if log_x and xd <= 0:
        return None
    pos = math.log10(xd) if log_x else xd
    font = chart.font()
    if label_pt is not None:
        font.setPointSizeF(label_pt)
    text, side = label_text(result, crossing), 0
    if fit_label:
        text, side = _fit_label(chart, pos, font, (text, x_text(result.field, crossing.x)))
    pen = pg.mkPen(MARKER_COLOUR, width=1.5, style=QtCore.Qt.PenStyle.DashLine)
    line = pg.InfiniteLine(pos=pos, angle=90, movable=False, pen=pen,
                           label=text if label else None,
                           labelOpts=dict(position=label_position, color=MARKER_COLOUR, anchors=[(side, 0.5), (side, 0.5)],
                                          fill=pg.mkBrush(255, 255, 255, 220)))
    line.setZValue(6)
    line.setToolTip(sentence(result, crossing))
    if label_pt is not None and label:
        line.label.setFont(font)
    chart.getPlotItem().addItem(line, ignoreBounds=True)
    return line


def _fit_label(chart, pos: float, font, texts) -> tuple[str, int]:
    """The first of ``texts`` that fits right (anchor 0) or left (anchor 1) of the line at ``pos``."""
    from PySide6 import QtGui

    vb = chart.getPlotItem().vb
    (x0, x1), width = vb.viewRange()[0], vb.width()
    if not (x1 > x0 and width > 0):
        return texts[0], 0
    px = (pos - x0) / (x1 - x0) * width
    fm = QtGui.QFontMetricsF(font)
    for text in texts:
        need = fm.horizontalAdvance(text) + 8  # the label's padding
        if px + need <= width:
            return text, 0
        if px - need >= 0:
            return text, 1
    return texts[-1], 0 if px < width / 2 else 1


class BreakEvenMarkers(QtCore.QObject):
    """Vertical lines on the charts at each crossing of the chosen pair, named in the row under each plot
    ("InfiniBand pays off above 126 nodes"): never text over the curves, never two labels over each other."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.pair: tuple[str, str] | None = None  # None: the default pair
        self.enabled = True
        self.lines: list[pg.InfiniteLine] = []
        self.current: list = []
        self._labels: list[str] = []  # each line's label, in the order of ``lines``

    def effective_pair(self, snap):
        if snap is None:
            return None
        if self.pair and all(f in snap.sweep.fabrics for f in self.pair):
            return self.pair
        return default_pair(snap.sweep, snap.point)

    def update(self, snap) -> list:
        self.clear()
        if not self.enabled or snap is None:
            for chart in self.window.charts.values():
                chart.set_caption_notes("breakeven", [])
            return []
        pair = self.effective_pair(snap)
        cs = crossings(snap.sweep, pair) if pair else []
        self.current = cs
        notes: dict = {}
        for c in cs:
            chart = self.window.charts.get(METRICS.get(c.metric, ""))
            if chart is None:
                continue
            line = add_marker(chart, snap.sweep, c, snap.x_field, label=False)
            if line is not None:
                self.lines.append(line)
                self._labels.append(label_text(snap.sweep, c))
                notes.setdefault(chart, []).append((self._labels[-1], MARKER_COLOUR))
        for chart in self.window.charts.values():
            chart.set_caption_notes("breakeven", notes.get(chart, []))
        return cs

    def clear(self) -> None:
        """No lines; the charts' rows of notes keep theirs until :meth:`update` gives the new ones (one
        relayout per update, not two)."""
        for line in self.lines:
            vb = line.getViewBox()
            if vb is not None:
                vb.removeItem(line)
        self.lines = []
        self.current = []
        self._labels = []

    def labels(self) -> list[str]:
        return list(self._labels)


class BreakEvenPanel(QtWidgets.QWidget):
    """Choose the pair; read the sentences."""

    pairChanged = QtCore.Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("breakEvenPanel")
        self.a = QtWidgets.QComboBox()
        self.a.setObjectName("breakEvenA")
        self.b = QtWidgets.QComboBox()
        self.b.setObjectName("breakEvenB")
        for combo in (self.a, self.b):
            combo.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.auto = QtWidgets.QCheckBox(translate("BreakEven", "InfiniBand vs the fastest other"))
        self.auto.setChecked(True)
        self.text = QtWidgets.QLabel()
        self.text.setObjectName("breakEvenText")
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel(translate("BreakEven", "Compare")))
        row.addWidget(self.a)
        row.addWidget(QtWidgets.QLabel(translate("BreakEven", "with")))
        row.addWidget(self.b)
        row.addWidget(self.auto)
        row.addStretch(1)
        lay = QtWidgets.QVBoxLayout(self)
        lay.addLayout(row)
        lay.addWidget(self.text, 1)
        self.a.currentIndexChanged.connect(self._combo_changed)
        self.b.currentIndexChanged.connect(self._combo_changed)
        self.auto.toggled.connect(self._combo_changed)
        self._fabrics: tuple = ()

    def pair(self):
        if self.auto.isChecked():
            return None
        a, b = self.a.currentData(), self.b.currentData()
        return (a, b) if a and b and a != b else None

    def _combo_changed(self, *_):
        self.a.setEnabled(not self.auto.isChecked())
        self.b.setEnabled(not self.auto.isChecked())
        self.pairChanged.emit(self.pair())

    def show_snapshot(self, snap, pair) -> None:
        res = snap.sweep
        if tuple(res.fabrics) != self._fabrics:
            for combo in (self.a, self.b):
                with QtCore.QSignalBlocker(combo):
                    combo.clear()
                    for f in res.fabrics:
                        combo.addItem(short_name(res, f), f)
            self._fabrics = tuple(res.fabrics)
        if pair:
            for combo, f in zip((self.a, self.b), pair):
                with QtCore.QSignalBlocker(combo):
                    combo.setCurrentIndex(max(combo.findData(f), 0))
        lines = sentences(res, pair)
        self.text.setText("<br>".join(f"• {_esc(s)}" for s in lines) if lines
                          else translate("BreakEven", "No sweep to compare"))


def _esc(s: str) -> str:
    import html

    return html.escape(s)


__all__ = ["BreakEvenMarkers", "BreakEvenPanel", "add_marker", "crossings", "default_pair", "sentence", "sentences"]
