"""Stacked step-time breakdown at the current point: one horizontal bar per fabric.

Painted directly with QPainter rather than as a pyqtgraph plot: four bars need no scene,
view box or axis items, and on the live drag path a fourth pyqtgraph view cost more than
the bars are worth (benchmarks/gui_bench.py).
"""

from __future__ import annotations

import html
import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

import model

from gui.present.series import fabric_styles
from gui.charts.plot_items import nice_step
from gui.i18n import QT_TRANSLATE_NOOP, translate
from gui.present.format import fmt_compact
from gui.i18n_data import tr_data
from gui.present.plausibility import point_stalls, stall_text
from gui.theme import current_theme

# Colours of the breakdown parts: neutral for compute, distinct hues for the costs the
# fabric causes (kept apart from the fabric colours, which name the rows instead).
PART_COLOURS = {
    "compute": "#9E9E9E",
    "tp_comm": "#C6DBEF",
    "cp_comm": "#9ECAE1",
    "ep_comm": "#756BB1",
    "pp_comm": "#6BAED6",
    "dp_comm": "#2171B5",
    "bubble": "#FDD49E",
    "loss_recovery": "#E31A1C",
    "cpu": "#8C510A",
    "optimizer": "#D9D9D9",
}
TITLE = QT_TRANSLATE_NOOP("BreakdownChart", "Step time at this point")  # translated where painted
X_LABEL = QT_TRANSLATE_NOOP("BreakdownChart", "Time per training step (s)")



def _seconds(v) -> str:
    """A step time for a bar's end: two decimals for the usual seconds, whole grouped seconds for the
    stalls loss recovery makes ("570,728 s", not "570727.89 s")."""
    v = float(v)
    return f"{v:,.2f} s" if abs(v) < 100 else f"{v:,.0f} s"


def _unbroken(text: str) -> str:
    """``text`` that a line never breaks inside: no-break spaces, word joiners between the characters."""
    return "\u2060".join(text.replace(" ", "\u00a0"))


def _tick(v: float) -> str:
    """An axis tick: short ("100k", "1.2 万"), never an exponent."""
    return fmt_compact(v)


TICK_ROOM_TEXT = "000.0k"  # the widest tick label a step takes, plus a gap: the ticks never run together

class BreakdownChart(QtWidgets.QWidget):
    """Seconds per training step, split into :data:`model.BREAKDOWN_KEYS`, per fabric."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setMinimumHeight(160)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        # paintEvent fills its whole rectangle: nothing under it needs painting first
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
        self.parts: dict[str, np.ndarray] = {}
        self.labels: list[str] = []
        self.colours: list[str] = []
        self.focus_index: int | None = None
        self.feasible = np.zeros(0, dtype=bool)
        self.note_text = ""
        self._bars: list[tuple[QtCore.QRectF, int, str]] = []
        self._static_key, self._static = None, None  # the cached title, grid and labels (see _static_layer)
        self._xmax = None  # the time axis's end and tick step [s] as last fitted
        self._held_xmax = None  # the axis held while a slider is held (see show_point)
        self.stalls: list[str] = []  # per fabric: "stalls — cause" past the plausibility bound, else 

    def retranslate(self) -> None:
        """The title and axis label in the current language: the cached layer is drawn again."""
        self._static_key, self._static = None, None
        self.update()

    def show_point(self, point, focus: str | None = None, live: bool = False) -> None:
        """Each fabric's step time at ``point``, split into its parts. ``live`` (a slider held): the time
        axis only lengthens, so the cached title, grid and labels are not drawn again for every move; it fits
        the bars again on the next update that is not."""
        self._held_xmax = self._xmax if live else None
        bd = point.breakdown
        self.parts = {k: np.maximum(np.nan_to_num(np.atleast_1d(np.asarray(getattr(bd, k), dtype=float)), nan=0.0), 0.0)
                      for k in model.BREAKDOWN_KEYS}
        styles = fabric_styles(point)
        self.labels = [st.get("short", n) for st, n in zip(styles, point.fabrics)]
        self.colours = [st["colour"] for st in styles]
        self.focus_index = point.fabrics.index(focus) if focus in point.fabrics else None
        self.feasible = np.atleast_1d(np.asarray(point.plan.feasible, dtype=bool))
        bad = [lab for lab, ok in zip(self.labels, self.feasible) if not ok]
        self.note_text = (translate("BreakdownChart", "no plan fits: {names}").format(names=", ".join(bad))
                          if bad else "")
        stalls = point_stalls(point)
        self.stalls = [stall_text(stalls[f], short=True) if f in stalls else "" for f in point.fabrics]
        self.update()

    def totals(self) -> np.ndarray:
        return sum(self.parts.values()) if self.parts else np.zeros(0)

    def _axis_totals(self) -> np.ndarray:
        """The totals the time axis spans: a fabric past the plausibility bound is drawn clipped, so not these."""
        totals = self.totals()
        keep = np.array([not st for st in self.stalls], dtype=bool) if len(self.stalls) == len(totals) else None
        return totals[keep] if keep is not None and keep.any() else totals

    @staticmethod
    def legend_html() -> str:
        """The parts' colours as text, for a label next to the chart."""
        # each part's name on one line: a wrap only between parts, never inside a name ("专家 all-to-all 通/信"):
        # no-break spaces, and a word joiner (U+2060, zero width) between characters where Chinese may break
        return " ".join(f"<span style='color:{PART_COLOURS[k]}'>■</span>&nbsp;"
                        f"{_unbroken(tr_data(model.BREAKDOWN_LABELS[k]))}" for k in model.BREAKDOWN_KEYS)

    # -- painting -------------------------------------------------------------
    def _layout(self, fm: QtGui.QFontMetrics) -> tuple[QtCore.QRectF, float, float, float, int]:
        """(plot rectangle, x axis end, tick step, right margin, text height) for the current data."""
        h_text = fm.height()
        bold = QtGui.QFont(self.font())
        bold.setBold(True)
        left = max(QtGui.QFontMetrics(bold).horizontalAdvance("▶ " + lab) for lab in self.labels) + 12
        right = max([fm.horizontalAdvance("00.00 s")] + [fm.horizontalAdvance(_seconds(t)) for t in self._axis_totals()]
                    + [fm.horizontalAdvance(t) * 0.6 for t in self.stalls if t]) + 10
        top = h_text + 10 + (h_text + 2 if self.note_text else 0)
        bottom = 2 * h_text + 12
        plot = QtCore.QRectF(left, top, max(self.width() - left - right, 10), max(self.height() - top - bottom, 10))
        totals = self._axis_totals()
        vmax = float(np.max(totals)) if np.max(totals) > 0 else 1.0
        held = self._held_xmax
        if held is not None and held[0] >= vmax:
            return plot, held[0], held[1], right, h_text
        ticks = max(1, min(6, int(plot.width() // (fm.horizontalAdvance(TICK_ROOM_TEXT) + 16))))
        step = nice_step(vmax / ticks)
        self._xmax = (math.ceil(vmax / step) * step, step)
        return plot, self._xmax[0], step, right, h_text

    def _static_layer(self, plot, xmax, step, h_text, th: dict) -> QtGui.QPixmap:
        """Title, grid, ticks, axis label and row labels: everything but the bars and totals.

        Cached as a pixmap until the size, the axis end, the rows or the note change (a drag
        rarely changes them), so a live update paints only the bars."""
        dpr = self.devicePixelRatioF()
        key = (self.width(), self.height(), dpr, xmax, tuple(self.labels), tuple(self.colours), self.focus_index,
               self.note_text, self.font().key(), th["bg"])
        if key == self._static_key:
            return self._static
        pm = QtGui.QPixmap(QtCore.QSize(max(1, round(self.width() * dpr)), max(1, round(self.height() * dpr))))
        pm.setDevicePixelRatio(dpr)
        pm.fill(QtGui.QColor(th["bg"]))
        p = QtGui.QPainter(pm)
        title_font = QtGui.QFont(self.font())
        title_font.setBold(True)
        p.setFont(title_font)
        p.setPen(QtGui.QColor(th["fg"]))
        p.drawText(QtCore.QRectF(0, 2, self.width(), h_text + 4), QtCore.Qt.AlignmentFlag.AlignHCenter,
                   translate("BreakdownChart", TITLE))
        p.setFont(self.font())
        sx = plot.width() / xmax
        grid_colour = QtGui.QColor(th["fg"])
        grid_colour.setAlpha(40)
        grid = QtGui.QPen(grid_colour)
        grid.setCosmetic(True)
        axis = QtGui.QPen(QtGui.QColor(th["axis"]))
        ticks = np.arange(0.0, xmax + step * 1e-6, step)
        xs = plot.left() + ticks * sx
        p.setPen(grid)
        p.drawLines([QtCore.QLineF(x, plot.top(), x, plot.bottom()) for x in xs])
        p.setPen(axis)
        p.drawLines([QtCore.QLineF(x, plot.bottom(), x, plot.bottom() + 4) for x in xs])
        for x, tick in zip(xs, ticks):
            p.drawText(QtCore.QRectF(x - 40, plot.bottom() + 5, 80, h_text), QtCore.Qt.AlignmentFlag.AlignHCenter,
                       _tick(tick))
        p.drawLine(plot.bottomLeft(), plot.bottomRight())
        p.drawText(QtCore.QRectF(plot.left(), plot.bottom() + h_text + 7, plot.width(), h_text),
                   QtCore.Qt.AlignmentFlag.AlignHCenter, translate("BreakdownChart", X_LABEL))
        n = len(self.labels)
        row_h = plot.height() / n
        bar_h = row_h * 0.62
        bold = QtGui.QFont(self.font())
        bold.setBold(True)
        for i in range(n):
            y = plot.top() + i * row_h + (row_h - bar_h) / 2
            p.setFont(bold if i == self.focus_index else self.font())
            p.setPen(QtGui.QColor(self.colours[i]))
            p.drawText(QtCore.QRectF(0, y, plot.left() - 8, bar_h),
                       QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter,
                       ("▶ " if i == self.focus_index else "") + self.labels[i])
        if self.note_text:
            p.setFont(self.font())
            p.setPen(QtGui.QColor(th["muted"]))
            p.drawText(QtCore.QRectF(plot.left(), h_text + 8, plot.width(), h_text),
                       QtCore.Qt.AlignmentFlag.AlignLeft, self.note_text)
        p.end()
        self._static_key, self._static = key, pm
        return pm

    def paintEvent(self, _ev) -> None:  # noqa: N802 (Qt name)
        p = QtGui.QPainter(self)
        th = current_theme()  # light, or dark with the dark theme
        if not self.labels or not self.parts:
            p.fillRect(self.rect(), QtGui.QColor(th["bg"]))
            p.setFont(QtGui.QFont(self.font()))
            p.setPen(QtGui.QColor(th["fg"]))
            p.drawText(QtCore.QRectF(0, 2, self.width(), p.fontMetrics().height() + 4),
                       QtCore.Qt.AlignmentFlag.AlignHCenter, translate("BreakdownChart", TITLE))
            p.end()
            return
        plot, xmax, step, right, h_text = self._layout(p.fontMetrics())
        p.drawPixmap(0, 0, self._static_layer(plot, xmax, step, h_text, th))
        totals = self.totals()
        sx = plot.width() / xmax
        n = len(self.labels)
        row_h = plot.height() / n
        bar_h = row_h * 0.62
        self._bars = []
        colours = {k: QtGui.QColor(PART_COLOURS[k]) for k in model.BREAKDOWN_KEYS}
        text_pen = QtGui.QColor(th["fg"])
        for i in range(n):
            y = plot.top() + i * row_h + (row_h - bar_h) / 2
            x = plot.left()
            stall = self.stalls[i] if i < len(self.stalls) else ""
            # a fabric past the plausibility bound: its bar clipped at the axis's end (parts in proportion)
            k = min(1.0, xmax / float(totals[i])) if stall and totals[i] > 0 else 1.0
            for key in model.BREAKDOWN_KEYS:
                w = float(self.parts[key][i]) * sx * k
                if w <= 0:
                    continue
                r = QtCore.QRectF(x, y, w, bar_h)
                p.fillRect(r, colours[key])
                self._bars.append((r, i, key))
                x += w
            p.setPen(text_pen)
            txt = _seconds(totals[i]) if self.feasible[i] else translate("BreakdownChart", "no plan")
            if stall:  # the cause over the clipped bar's end, not an absurd step time
                txt_w = p.fontMetrics().horizontalAdvance(stall) + 8
                box = QtCore.QRectF(max(plot.left(), x - txt_w + right), y, txt_w, bar_h)
                p.fillRect(box, QtGui.QColor(th["bg"]))
                p.drawText(box.adjusted(4, 0, 0, 0), QtCore.Qt.AlignmentFlag.AlignVCenter, stall)
                continue
            p.drawText(QtCore.QRectF(x + 4, y, right + 40, bar_h), QtCore.Qt.AlignmentFlag.AlignVCenter, txt)
        p.end()

    def event(self, ev) -> bool:
        if ev.type() == QtCore.QEvent.Type.ToolTip:
            pos = QtCore.QPointF(ev.pos())
            for r, i, key in self._bars:
                if r.contains(pos):
                    total = float(self.totals()[i])
                    v = float(self.parts[key][i])
                    QtWidgets.QToolTip.showText(ev.globalPos(), translate(
                        "BreakdownChart", "{fabric}: {part} {seconds} s ({pct}% of {total} s)").format(
                        fabric=html.escape(self.labels[i]), part=tr_data(model.BREAKDOWN_LABELS[key]), seconds=f"{v:.3f}",
                        pct=f"{v / total * 100:.1f}", total=f"{total:.2f}"), self)
                    return True
            QtWidgets.QToolTip.hideText()
            ev.ignore()
            return True
        return super().event(ev)

    def grab_text(self) -> str:
        """The bars as text (tests, accessibility)."""
        tot = self.totals()
        stalls = self.stalls if len(self.stalls) == len(tot) else [""] * len(tot)
        return "; ".join(f"{lab}: {st or _seconds(t)}" for lab, t, st in zip(self.labels, tot, stalls))


__all__ = ["BreakdownChart", "PART_COLOURS"]
