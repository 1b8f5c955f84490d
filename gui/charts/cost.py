"""Cost at this point, drawn so the fabrics' differences show: cost per training run, and the
TCO as the difference from a baseline fabric with its capex/opex split and the network's share.

The TCO over a fixed ownership period barely moves with the fabric (a few per cent: the GPU
servers dominate it), so absolute TCO bars would all look equal. This chart shows two things
on linear axes instead:

- **Cost per training run** (the run's share of the TCO, ``model.economics``), bars from
  zero, each labelled with its change against the baseline ("−59 %");
- **TCO − baseline TCO**, bars diverging from zero, split into the network capex, the
  servers' capex and the opex over the years, labelled with the change in money and per
  cent; the network's share of each fabric's TCO is written beside its name.

The difference axis spans at least :data:`MIN_DIFF_SPAN` of the baseline's TCO, so a
rounding-size difference does not fill the width, and a 5 % difference fills most of it.
:func:`gui.present.financials.cost_comparison` (plain data, no Qt) gives every number drawn.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from gui.present.series import fabric_styles, format_money
from gui.i18n import QT_TRANSLATE_NOOP, translate
from gui.present.financials import CostComparison, CostRow, cost_comparison, financial_lines, financials_note
from gui.theme import current_theme

MIN_DIFF_SPAN = 0.06
"""Smallest half-width of the TCO-difference axis, as a fraction of the baseline's TCO [-]."""

PART_COLOURS = {"network": "#0072B2", "servers": "#9E9E9E", "opex": "#E69F00"}
PART_LABELS = {
    "network": QT_TRANSLATE_NOOP("CostChart", "network capex"),
    "servers": QT_TRANSLATE_NOOP("CostChart", "servers capex"),
    "opex": QT_TRANSLATE_NOOP("CostChart", "opex over the years"),
}
TITLE_RUN = QT_TRANSLATE_NOOP("CostChart", "Cost per training run (the same work)")
TITLE_DIFF = QT_TRANSLATE_NOOP("CostChart", "Same cluster: {years}-year TCO against {baseline}")


def _pct(x: float, signed: bool = True) -> str:
    if not np.isfinite(x):
        return "–"
    a = abs(x) * 100
    body = f"{a:.1f} %" if a < 10 else f"{a:.0f} %"
    return (("−" if x < 0 else "+") if signed else "") + body


def _saving(r: CostRow, cur: str) -> str:
    """" (¥43.7 k less)" / " (¥1.2 k more)" per run against the baseline; '' where not comparable."""
    v = r.per_run_saving
    if not np.isfinite(v) or v == 0:
        return ""
    text = format_money(abs(v), cur, compact=True)
    return " (" + (translate("CostChart", "{money} less") if v > 0 else translate("CostChart", "{money} more")).format(
        money=text) + ")"


class CostChart(QtWidgets.QWidget):
    """Cost per run and TCO against a baseline fabric, per fabric, at the current point. The baseline is the
    one given with the point (the window's session holds it); picking another emits ``baselineChanged``."""

    baselineChanged = QtCore.Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        top = QtWidgets.QHBoxLayout()
        self.baseline_label = QtWidgets.QLabel()
        top.addWidget(self.baseline_label)
        self.baseline_combo = QtWidgets.QComboBox()
        self.baseline_combo.setObjectName("costBaseline")
        self.retranslate()
        self.baseline_combo.currentIndexChanged.connect(self._baseline_picked)
        top.addWidget(self.baseline_combo, 1)
        lay.addLayout(top)
        self.canvas = _CostCanvas(self)
        lay.addWidget(self.canvas, 1)
        self.financials_label = QtWidgets.QLabel()  # NPV, payback and price per GPU-hour against the baseline
        self.financials_label.setObjectName("costFinancials")
        self.financials_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # labels come from the file
        self.financials_label.setWordWrap(True)
        self.financials_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.financials_label)
        self.data: CostComparison | None = None

    def retranslate(self) -> None:
        """The fixed texts in the current language (the bars follow on the next :meth:`show_point`)."""
        self.baseline_label.setText(translate("CostChart", "Baseline:"))
        self.baseline_combo.setAccessibleName(translate("CostChart", "Baseline fabric"))
        self.baseline_combo.setToolTip(translate("CostChart", "The fabric the TCO differences are measured from"))

    def show_point(self, point, baseline: str | None = None) -> None:
        """The bars of ``point`` (an ``evaluate`` result) against ``baseline`` (``None``: the default)."""
        names = [st.get("short", n) for n, st in zip(point.fabrics, fabric_styles(point))]
        ids = list(point.fabrics)
        if [self.baseline_combo.itemData(i) for i in range(self.baseline_combo.count())] != ids:
            self.baseline_combo.blockSignals(True)
            self.baseline_combo.clear()
            for fid, name in zip(ids, names):
                self.baseline_combo.addItem(name, fid)
            self.baseline_combo.blockSignals(False)
        try:
            self.data = cost_comparison(point, baseline)
        except (KeyError, TypeError, ZeroDivisionError):
            self.data = None
        if self.data is not None:
            self.baseline_combo.blockSignals(True)
            self.baseline_combo.setCurrentIndex(ids.index(self.data.baseline))
            self.baseline_combo.blockSignals(False)
        self.canvas.data = self.data
        self.canvas.update()
        try:
            lines = financial_lines(point, self.data.baseline, {r.fabric: r.label for r in self.data.rows}) \
                if self.data is not None else []
        except (KeyError, TypeError, ZeroDivisionError, ValueError):
            lines = []
        self.financials_label.setText("\n".join(lines))
        self.financials_label.setToolTip(financials_note())

    @property
    def baseline(self) -> str | None:
        """The baseline fabric the bars are drawn against (``None`` before the first point)."""
        return self.data.baseline if self.data else None

    def _baseline_picked(self, index: int) -> None:
        fid = self.baseline_combo.itemData(index)
        if fid and fid != self.baseline:
            self.baselineChanged.emit(fid)  # drawn again when the point comes back with it

    def grab_text(self) -> str:
        """The figures drawn, as text (tests, accessibility)."""
        if not self.data:
            return ""
        cur = self.data.currency
        return "; ".join(f"{r.label}: " + (r.stall if r.stall else
                                               f"{format_money(r.per_run, cur)} per run{_saving(r, cur)}")
                         + f", same-cluster TCO {format_money(r.tco_diff, cur)} ({_pct(r.tco_delta)})"
                         for r in self.data.rows)


class _CostCanvas(QtWidgets.QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setMinimumHeight(150)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)
        self.data: CostComparison | None = None

    def diff_span(self) -> float:
        """Half-width of the TCO-difference axis (money)."""
        d = self.data
        biggest = max(abs(sum(r.diff_parts.values())) for r in d.rows)
        return max(biggest * 1.05, MIN_DIFF_SPAN * abs(d.base_tco))

    def paintEvent(self, _ev) -> None:  # noqa: N802 (Qt name)
        p = QtGui.QPainter(self)
        th = current_theme()
        p.fillRect(self.rect(), QtGui.QColor(th["bg"]))
        d = self.data
        if not d:
            p.end()
            return
        fm = p.fontMetrics()
        h_text = fm.height()
        cur = d.currency
        rows = d.rows
        n = len(rows)
        bold = QtGui.QFont(self.font())
        bold.setBold(True)
        left = max(fm.horizontalAdvance(r.label + "  00 %") for r in rows) + 14
        right = fm.horizontalAdvance("−¥0,000.0 万 (−00.0 %)") + 8
        width = max(self.width() - left - right, 20)
        half = (self.height() - 2) / 2
        fg, muted = QtGui.QColor(th["fg"]), QtGui.QColor(th["muted"])
        per_run_max = max((r.per_run for r in rows if np.isfinite(r.per_run) and not r.stall),
                          default=1.0) or 1.0
        span = self.diff_span()
        for panel in (0, 1):
            y0 = panel * half
            p.setFont(bold)
            p.setPen(fg)
            title = (translate("CostChart", TITLE_RUN) + "  ·  "
                     + translate("CostChart", "change against {baseline}").format(baseline=d.baseline_label)
                     if panel == 0 else translate("CostChart", TITLE_DIFF).format(
                         years=f"{d.years:g}", baseline=d.baseline_label))
            p.drawText(QtCore.QRectF(4, y0 + 1, self.width() - 8, h_text), QtCore.Qt.AlignmentFlag.AlignLeft, title)
            p.setFont(self.font())
            top = y0 + h_text + 4
            legend_h = h_text + 2 if panel == 1 else 0
            row_h = (half - h_text - 6 - legend_h) / n
            bar_h = max(row_h * 0.6, 3)
            zero = left if panel == 0 else left + width / 2
            scale = width / per_run_max if panel == 0 else (width / 2) / span
            if panel == 1:  # the zero line
                p.setPen(QtGui.QPen(muted, 1))
                p.drawLine(QtCore.QPointF(zero, top), QtCore.QPointF(zero, top + n * row_h))
            for i, r in enumerate(rows):
                y = top + i * row_h + (row_h - bar_h) / 2
                p.setPen(QtGui.QColor(r.colour))
                name = r.label if panel == 0 else f"{r.label}  {_pct(r.network_share, False)}"
                p.drawText(QtCore.QRectF(0, y - 2, left - 8, bar_h + 4),
                           QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter, name)
                if panel == 0:
                    if not np.isfinite(r.per_run):
                        continue
                    if r.stall:  # past the plausibility bound: a short clipped bar and the cause, not a cost
                        colour = QtGui.QColor(r.colour)
                        colour.setAlpha(90)
                        p.fillRect(QtCore.QRectF(zero, y, width * 0.15, bar_h), colour)
                        end, text = zero + width * 0.15, r.stall
                    else:
                        p.fillRect(QtCore.QRectF(zero, y, r.per_run * scale, bar_h), QtGui.QColor(r.colour))
                        end = zero + r.per_run * scale
                        text = format_money(r.per_run, cur, compact=True) + (
                            "" if r.fabric == d.baseline else _saving(r, cur))
                else:
                    pos, neg = zero, zero
                    for key in ("network", "servers", "opex"):
                        v = r.diff_parts[key]
                        if not np.isfinite(v) or v == 0:
                            continue
                        w = abs(v) * scale
                        if v > 0:
                            rect, pos = QtCore.QRectF(pos, y, w, bar_h), pos + w
                        else:
                            rect, neg = QtCore.QRectF(neg - w, y, w, bar_h), neg - w
                        p.fillRect(rect, QtGui.QColor(PART_COLOURS[key]))
                    end = max(pos, zero)  # the label right of the bar, or of zero for a saving
                    text = (translate("CostChart", "baseline") if r.fabric == d.baseline else
                            f"{format_money(r.tco_diff, cur, compact=True)} ({_pct(r.tco_delta)})")
                p.setPen(fg)
                p.drawText(QtCore.QRectF(end + 4, y - 2, self.width() - end - 4, bar_h + 4),
                           QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter, text)
            if panel == 1:  # the parts' legend and what the percentage by the name is
                x = 4.0
                ly = top + n * row_h + 2
                for key in ("network", "servers", "opex"):
                    p.fillRect(QtCore.QRectF(x, ly + h_text * 0.25, 9, 9), QtGui.QColor(PART_COLOURS[key]))
                    label = translate("CostChart", PART_LABELS[key])
                    p.setPen(muted)
                    p.drawText(QtCore.QPointF(x + 12, ly + fm.ascent()), label)
                    x += 24 + fm.horizontalAdvance(label)
                p.drawText(QtCore.QPointF(x, ly + fm.ascent()),
                           translate("CostChart", "%: network share of TCO"))
        p.end()


__all__ = ["CostChart", "MIN_DIFF_SPAN"]
