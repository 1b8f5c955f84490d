"""The three charts (utilisation, training duration, TCO) as one widget.

The data comes from the presentation layer, :mod:`gui.present.series` (no Qt), so that the
exports, the CSV and the window draw the same thing; :class:`ChartWidget` (a
``pyqtgraph.PlotWidget``) draws it: curves are created once per fabric and then updated
with ``setData``; a marker shows the current value, a read-out follows the mouse, and the
title names the profile set and the scenario.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gui.i18n import translate
from gui.present.series import (  # noqa: F401 (the views also read the chart data through this module)
    AXES, CHART_KINDS, MIN_TCO_SPAN_PCT, WINDOW_CHART_KINDS, axis_label, chart_series, currency_of, drawn_x,
    fabric_styles, format_money,
    format_value, format_x, in_use_points, point_values)
from gui.present.plausibility import point_stalls, stall_text
from gui.present.text import idle_gpus_at
from gui.present.series import STALL_KINDS, stall_note, value_text
from gui.present.steps import largest_change, plan_at, plan_fit

LEFT_AXIS_WIDTH = 78
STALL_COLOUR = "#a03000"  # the stalled fabrics' caption (the table's stall colour)
# the stall caption under a plot only while the plot keeps this height [px]; below it the hover names the stalls
CAPTION_MIN_PLOT_PX = 80
IDLE_SHADE_ALPHA = 38  # the idle-GPU stretches: the fabric's colour this faint (of 255), under the curves
STEP_NOTE_MIN_HEIGHT = 90  # the rings' note shows on plots at least this tall [px]


def step_explanation(result, f: int, i: int) -> str:
    """Why fabric ``f``'s curve changes from sweep point ``i - 1`` to ``i``, in one line: the plan
    change (tp/pp/dp/micro-batch), whether a whole-number rule explains it, and otherwise the
    step-time part that changed most. '' at the first point or where no plan fits."""
    if result is None or i < 1:
        return ""
    before, after = plan_at(result, f, i - 1), plan_at(result, f, i)
    if before is None or after is None:
        return ""
    names = {"tp": "tp", "pp": "pp", "dp": "dp", "micro_batch": translate("Charts", "micro-batch"),
             "virtual_stages": translate("Charts", "virtual stages")}
    changes = [f"{names[k]} {before[k]}→{after[k]}" for k in ("tp", "pp", "micro_batch", "virtual_stages")
               if before[k] != after[k]]
    if not changes:
        part = largest_change(result, f, i)
        if part is None:
            return ""
        from model import BREAKDOWN_LABELS

        from gui.i18n_data import tr_data

        text = translate("Charts", "plan unchanged (tp {tp} · pp {pp} · dp {dp0}→{dp1}); {part} {delta}").format(
            tp=after["tp"], pp=after["pp"], dp0=before["dp"], dp1=after["dp"],
            part=tr_data(BREAKDOWN_LABELS.get(part[0], part[0])),
            delta=f"{part[1] * 1e3:+,.0f} ms" if abs(part[1]) >= 0.0005 else f"{part[1] * 1e3:+.2g} ms")
        m = np.atleast_2d(np.asarray(result.data["plan"].get("microbatches", np.nan), dtype=float))
        m0, m1 = (m[min(f, m.shape[0] - 1), k] for k in (i - 1, i)) if m.shape[1] > i else (np.nan, np.nan)
        if np.isfinite(m0) and np.isfinite(m1) and m0 != m1:  # the batch over dp, rounded up: a whole-number step
            text += " — " + translate("Charts", "whole-number rule: {m0}→{m1} micro-batches per step (the batch "
                                                "over dp, rounded up)").format(m0=int(m0), m1=int(m1))
        idle = plan_fit(result, i, after)["idle"]
        if idle:  # utilisation counts every GPU: spares that do not fill a replica lower it
            text += " — " + translate("Charts", "{n} GPUs idle (they do not fill a replica of tp · pp = {size})").format(
                n=idle, size=after["tp"] * after["pp"])
        return text
    text = translate("Charts", "plan: {changes}").format(changes=", ".join(changes + [f"dp {after['dp']}"]))
    fit, there = plan_fit(result, i, before), plan_fit(result, i - 1, before)
    reasons = []  # only what the previous plan would newly need here
    if fit["idle"] and not there["idle"]:
        reasons.append(translate("Charts", "leave {n} GPUs idle").format(n=fit["idle"]))
    if fit["batch"] != fit["asked"] and there["batch"] == there["asked"]:
        reasons.append(translate("Charts", "round the batch {asked}→{batch}").format(asked=fit["asked"],
                                                                                  batch=fit["batch"]))
    if not fit["interleave_ok"] and there["interleave_ok"]:
        reasons.append(translate("Charts", "lose its interleaving (micro-batches not a multiple of pp)"))
    if reasons:
        text += " — " + translate("Charts", "whole-number rule: the previous plan would {reasons} here").format(
            reasons=translate("Charts", " and ").join(reasons))
    return text


# --------------------------------------------------------------------------
# the widget
# --------------------------------------------------------------------------


from gui.present.format import fmt_compact, fmt_sig  # noqa: E402
from gui.theme import scaled_pt, text_scale  # noqa: E402

_QT_STYLES = {"solid": QtCore.Qt.PenStyle.SolidLine, "dash": QtCore.Qt.PenStyle.DashLine,
              "dashdot": QtCore.Qt.PenStyle.DashDotLine, "dot": QtCore.Qt.PenStyle.DotLine}


def make_pen(style: dict, width: float = 1.0, *, alpha: int = 255, focus: bool = False) -> QtGui.QPen:
    """The fabric's pen: its colour and line style, cosmetic (width in screen pixels)."""
    colour = QtGui.QColor(style["colour"])
    colour.setAlpha(alpha)
    pen = QtGui.QPen(colour)
    pen.setCosmetic(True)
    pen.setWidthF(width)
    pen.setStyle(_QT_STYLES.get(style.get("line_style", "solid"), QtCore.Qt.PenStyle.SolidLine))
    return pen


class ValueAxis(pg.AxisItem):
    """An axis whose tick labels are formatted by the chart (money with its symbol, plain
    numbers instead of 10^x on log axes, no automatic SI scaling like "x1e+09")."""

    def __init__(self, orientation, **kw):
        super().__init__(orientation, **kw)
        self.formatter = None
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph name)
        vals = [10.0 ** v for v in values] if self.logMode else [v * scale for v in values]
        fmt = self.formatter
        if fmt is None:
            if not self.logMode:
                return super().tickStrings(values, scale, spacing)
            fmt = _plain
        if self.logMode and len(vals) > 4:  # minor log ticks: label 2 and 5 only, never a crowd
            return [fmt(v) if _mantissa(v) in (1, 2, 5) else "" for v in vals]
        return [fmt(v) for v in vals]

    def generateDrawSpecs(self, p):  # noqa: N802 (pyqtgraph name)
        """pyqtgraph's tick labels, less any that would touch one already placed: the larger ticks'
        labels come first, so on a narrow chart "2,000" gives way to "1,000" rather than print
        "1,0002,000"."""
        specs = super().generateDrawSpecs(p)
        if not specs:
            return specs
        axis, ticks, texts = specs
        pad = 4.0 if self.orientation in ("bottom", "top") else 1.0
        kept, rects = [], []
        for spec in texts:
            rect = spec[0]
            grown = (rect.adjusted(-pad, 0, pad, 0) if self.orientation in ("bottom", "top")
                     else rect.adjusted(0, -pad, 0, pad))
            if spec[2] and any(grown.intersects(r) for r in rects):
                continue
            kept.append(spec)
            if spec[2]:
                rects.append(rect)
        return axis, ticks, kept


def _mantissa(v: float) -> int:
    if v <= 0 or not math.isfinite(v):
        return 0
    m = v / 10 ** math.floor(math.log10(v) + 1e-9)
    return int(round(m)) if abs(m - round(m)) < 1e-6 else 0


def _plain(v: float) -> str:
    """A log axis's tick: short from ten thousand up ("100k", "1 M", "10 万"), grouped digits below, never
    an exponent ("1,000", not "1e+03")."""
    if math.isfinite(v) and abs(v) >= 10_000:
        return fmt_compact(v)
    if math.isfinite(v) and abs(v) >= 1 and v == round(v):
        return f"{v:,.0f}"
    return fmt_sig(v, 6)


class GridLines:
    """Grid lines at the axes' ticks, drawn as two line-segment curves (major, minor).

    pyqtgraph's own grid (``showGrid``) is replayed from a QPicture by each axis on every
    paint and cost ~35 ms per frame for three charts here; one path per level costs
    next to nothing. Updated whenever the view range changes."""

    # the two levels' ink: the share of the line colour over the background
    MAJOR_ALPHA = 60 / 255
    MINOR_ALPHA = 25 / 255

    def __init__(self, plot_item, colour=(0, 0, 0), background=(255, 255, 255)):
        self.pi = plot_item
        self.major = pg.PlotCurveItem(connect="pairs")
        self.minor = pg.PlotCurveItem(connect="pairs")
        self.set_colours(colour, background)
        for item in (self.major, self.minor):
            item.setZValue(-100)
            plot_item.addItem(item, ignoreBounds=True)
        plot_item.vb.sigRangeChanged.connect(self.update)
        plot_item.vb.sigResized.connect(self.update)
        self._key = None

    def set_colours(self, colour, background) -> None:
        """Lines of ``colour`` (RGB) faint over ``background`` (RGB), mixed beforehand into opaque pens:
        the grid lies under everything else, so it looks the same as a translucent pen, and Qt's raster
        engine draws an opaque width-1 line some forty times faster than a translucent one (a minor
        grid of 60 lines: 0.2 ms against 9 ms a frame)."""
        for item, share in ((self.major, self.MAJOR_ALPHA), (self.minor, self.MINOR_ALPHA)):
            mixed = tuple(round(b + (c - b) * share) for c, b in zip(colour, background))
            item.setPen(pg.mkPen(mixed, width=1, cosmetic=True))

    def update(self, *_):
        vb = self.pi.vb
        (x0, x1), (y0, y1) = vb.viewRange()
        size = vb.size()
        key = (x0, x1, y0, y1, size.width(), size.height())
        if key == self._key:
            return
        self._key = key
        segs = {0: ([], []), 1: ([], [])}
        for axis, lo, hi, length in (("bottom", x0, x1, size.width()), ("left", y0, y1, size.height())):
            ax = self.pi.getAxis(axis)
            for li, values in enumerate(_grid_values(ax, lo, hi, max(length, 1.0))):
                xs, ys = segs[li]
                n = len(values)
                if not n:
                    continue
                if axis == "bottom":
                    xs.append(np.repeat(values, 2))
                    ys.append(np.tile([y0, y1], n))
                else:
                    xs.append(np.tile([x0, x1], n))
                    ys.append(np.repeat(values, 2))
        segs = {k: (np.concatenate(v[0]) if v[0] else np.zeros(0), np.concatenate(v[1]) if v[1] else np.zeros(0))
                for k, v in segs.items()}
        self.major.setData(*segs[0])
        self.minor.setData(*segs[1])


_LOG_MINOR = np.log10(np.arange(2, 10))


def _grid_values(ax, lo: float, hi: float, length: float):
    """Major and minor grid positions for an axis over [lo, hi] (view coordinates), from the
    axis's own tick spacing (pyqtgraph's full ``tickValues`` costs ~1 ms per call)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return np.zeros(0), np.zeros(0)
    if ax.logMode and hi - lo >= 1.0:
        k0, k1 = math.floor(lo), math.ceil(hi)
        major = np.arange(k0, k1 + 1, dtype=float)
        minor = (major[:, None] + _LOG_MINOR[None, :]).ravel() if hi - lo <= 6 else np.zeros(0)
        return major[(major >= lo) & (major <= hi)], minor[(minor >= lo) & (minor <= hi)]
    levels = ax.tickSpacing(lo, hi, length)
    out = []
    for spacing, offset in levels[:2]:
        if spacing <= 0:
            out.append(np.zeros(0))
            continue
        start = math.ceil((lo - offset) / spacing) * spacing + offset
        out.append(np.arange(start, hi + spacing * 1e-9, spacing))
    while len(out) < 2:
        out.append(np.zeros(0))
    return out[0], out[1]


def nice_step(span: float) -> float:
    """The 1-2-5 step at or above ``span`` (``nice_step(0.37) == 0.5``)."""
    if not (span > 0 and math.isfinite(span)):
        return 1.0
    k = math.floor(math.log10(span))
    for m in (1.0, 2.0, 5.0, 10.0):
        if m * 10.0 ** k >= span * (1 - 1e-9):
            return m * 10.0 ** k
    return 10.0 ** (k + 1)


def _true_y(series: dict):
    """A series' values as computed (an off-scale fabric's unclipped, for the read-out)."""
    return series["y"] if series.get("y_full") is None else series["y_full"]


def steady_range(lo: float, hi: float, current=None, *, grow_only: bool = False, floor: float | None = None):
    """An axis range (view coordinates) for data spanning [lo, hi] that moves only when it must.

    The data range is padded by 2 % and rounded outwards to a 1-2-5 step of about a
    twentieth of the span, so small changes of the data leave the axis where it is. With
    ``grow_only`` (while a slider is dragged) the ``current`` range is kept as long as the
    data stays inside it, and when it must grow it grows with 10 % to spare: the axes do not
    jitter under a drag and the curves move against a fixed frame (pyqtgraph's auto-range
    re-fits, re-lays out the axes and repaints every chart twice per update). ``floor``
    keeps the padding from crossing a bound the data never crosses (0 for days and money).
    """
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return current
    if hi < lo:
        lo, hi = hi, lo
    data_lo, span = lo, hi - lo
    if span <= max(1e-9 * max(abs(lo), abs(hi)), 1e-12):  # flat (or below float resolution): a tenth of its size
        span = max(abs(hi) * 0.1, 1e-9)
    if grow_only and current is not None:
        c0, c1 = current
        if lo >= c0 and hi <= c1:
            return current
        if lo < c0:
            lo = lo - 0.10 * span
        else:
            lo = c0
        if hi > c1:
            hi = hi + 0.10 * span
        else:
            hi = c1
    else:
        lo, hi = lo - 0.02 * span, hi + 0.02 * span
    step = nice_step((hi - lo) / 20.0)
    lo2, hi2 = math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step
    lo2 = min(lo2 - step if lo2 > lo else lo2, lo)  # the tolerance never rounds inwards past the data
    hi2 = max(hi2 + step if hi2 < hi else hi2, hi)
    if floor is not None and data_lo >= floor:
        lo2 = max(lo2, floor)
    if grow_only and current is not None:
        lo2, hi2 = min(lo2, current[0]), max(hi2, current[1])
    return (lo2, hi2)


class DataCurve(pg.PlotCurveItem):
    """A curve that follows the plot's log modes, without ``PlotDataItem``'s machinery.

    ``PlotDataItem`` wraps a ``PlotCurveItem`` and on every ``setData`` re-derives a
    display dataset (bounds, log mapping, clipping, down-sampling) that a 256-point curve
    never needs; this maps to log10 where the axis is logarithmic (non-positive values
    become gaps) and hands the result straight to the curve. ``getData`` gives the drawn
    (mapped) values like ``PlotDataItem.getData``; ``getOriginalDataset`` the values given."""

    def __init__(self, name: str | None = None, **kw):
        super().__init__(connect="finite", **kw)
        self._name = name
        self._orig = (np.zeros(0), np.zeros(0))
        self._log = (False, False)
        self._run = None  # (first, end) of the one run of finite points, if they are one run
        self._bounds = None  # ((x min, x max), (y min, y max)) of the finite points drawn
        self.pen_key = None  # what the owner made its pen from (a new pen only when that changes)

    def name(self):
        return self._name

    def setData(self, x=None, y=None, **kw):  # noqa: N802 (pyqtgraph name)
        if x is None and y is None:  # PlotCurveItem.__init__ passes its options this way
            super().setData(**kw)
            return
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        if not kw and _same(x, self._orig[0]) and _same(y, self._orig[1]):
            return  # e.g. utilisation under an electricity-price drag: no new path, no repaint
        self._orig = (x, y)
        self._draw(**kw)

    def setLogMode(self, x: bool, y: bool) -> None:  # noqa: N802 (called by PlotItem)
        if (bool(x), bool(y)) == self._log:
            return
        self._log = (bool(x), bool(y))
        self._draw()

    def getOriginalDataset(self):  # noqa: N802
        return self._orig

    def _draw(self, **kw) -> None:
        x, y = self._orig
        with np.errstate(divide="ignore", invalid="ignore"):
            if self._log[0]:
                x = np.log10(np.where(x > 0, x, np.nan))
            if self._log[1]:
                y = np.log10(np.where(y > 0, y, np.nan))
        finite = np.isfinite(x) & np.isfinite(y)
        ends = np.flatnonzero(finite)[[0, -1]] if finite.any() else None
        # one run of finite points (a gap only at the ends, where no plan fits: a model too big for a few nodes)
        self._run = (int(ends[0]), int(ends[1]) + 1) if (
            ends is not None and ends[1] - ends[0] + 1 == int(np.count_nonzero(finite))) else None
        super().setData(x=x, y=y, connect="finite", **kw)
        xs, ys = x[finite], y[finite]
        self._bounds = ((float(xs.min()), float(xs.max())), (float(ys.min()), float(ys.max()))) if xs.size else None

    def generatePath(self, x, y):  # noqa: N802 (pyqtgraph name)
        """A single run of points as one polygon (pyqtgraph's fast path; its gap-breaking path splits the arrays
        and costs several times more), else pyqtgraph's path that breaks at the gaps."""
        run = self._run
        if run is not None and not self.opts["stepMode"] and len(x) >= run[1]:
            return pg.functions.arrayToQPath(x[run[0]:run[1]], y[run[0]:run[1]], connect="all", finiteCheck=False)
        return super().generatePath(x, y)

    def dataBounds(self, ax, frac=1.0, orthoRange=None):  # noqa: N802,N803 (pyqtgraph names)
        """The finite points' range along ``ax``, kept from the last draw (asked many times per update by the
        view's auto-range and every bounding box); pyqtgraph's own answer for a fraction, a range across or a
        fill."""
        if frac >= 1.0 and orthoRange is None and self.opts["fillLevel"] is None:
            bounds = self._bounds
            if self.xData is None or not len(self.xData) or bounds is None:
                return (None, None)
            return bounds[ax]
        return super().dataBounds(ax, frac, orthoRange)


class MarkerItem(pg.GraphicsObject):
    """Dots of a fixed size in pixels at data points: the current value on each curve.

    What ``PlotDataItem(symbol="o")`` draws through a ``ScatterPlotItem``, for a handful of
    points at a tenth of the cost per update (the scatter item re-builds its spot table and
    hit masks on every ``setData``). Follows the plot's log modes like a data item, and
    reports its data bounds so auto-range includes it."""

    def __init__(self, size_px: float = 9.0, pen=None, brush="#ffffff"):
        super().__init__()
        self._x = np.zeros(0)
        self._y = np.zeros(0)
        self._vx = self._x
        self._vy = self._y
        self._log = (False, False)
        self._size = float(size_px)
        self._pen = pg.mkPen(pen if pen is not None else "#222222")
        self._brushes = [pg.mkBrush(brush)]
        self._rect = None

    # the parts of the PlotDataItem interface the window, exports and tests use
    def setData(self, x, y, symbolBrush=None) -> None:  # noqa: N802,N803 (pyqtgraph names)
        self._x = np.asarray(x, dtype=float).reshape(-1)
        self._y = np.asarray(y, dtype=float).reshape(-1)
        if symbolBrush is not None:
            self._brushes = [pg.mkBrush(b) for b in (symbolBrush if isinstance(symbolBrush, (list, tuple))
                                                       else [symbolBrush])]
        self._map()

    def getOriginalDataset(self):  # noqa: N802
        return self._x, self._y

    def getData(self):  # noqa: N802
        return self._vx, self._vy

    def setSymbolSize(self, size_px: float) -> None:  # noqa: N802
        self._size = float(size_px)
        self._rect = None
        self.prepareGeometryChange()
        self.update()

    def setSymbolPen(self, pen) -> None:  # noqa: N802
        self._pen = pg.mkPen(pen)
        self.update()

    def setLogMode(self, x: bool, y: bool) -> None:  # noqa: N802 (called by PlotItem)
        self._log = (bool(x), bool(y))
        self._map()

    def _map(self) -> None:
        with np.errstate(divide="ignore", invalid="ignore"):
            vx = np.log10(self._x) if self._log[0] else self._x
            vy = np.log10(self._y) if self._log[1] else self._y
        ok = np.isfinite(vx) & np.isfinite(vy)
        self._vx, self._vy = vx[ok], vy[ok]
        self._ok = ok
        # one brush per point, or one for all
        brushes = self._brushes if len(self._brushes) == len(ok) else [self._brushes[0]] * len(ok)
        self._shown_brushes = [b for b, k in zip(brushes, ok) if k]
        self._rect = None
        self.prepareGeometryChange()
        self.informViewBoundsChanged()
        self.update()

    def dataBounds(self, ax, frac=1.0, orthoRange=None):  # noqa: N802,N803 (pyqtgraph names)
        v = self._vx if ax == 0 else self._vy
        return (None, None) if not v.size else (float(v.min()), float(v.max()))

    def pixelPadding(self) -> float:  # noqa: N802
        return self._size / 2.0 + 1.0

    def boundingRect(self):  # noqa: N802
        # asked many times per paint: kept until the points, the size or the view change
        if self._rect is None:
            self._rect = self._bounds()
        return self._rect

    def _bounds(self):
        if not self._vx.size:
            return QtCore.QRectF()
        px, py = self.pixelWidth() or 0.0, self.pixelHeight() or 0.0
        pad = self.pixelPadding()
        x0, x1 = float(self._vx.min()), float(self._vx.max())
        y0, y1 = float(self._vy.min()), float(self._vy.max())
        return QtCore.QRectF(x0 - pad * px, y0 - pad * py, (x1 - x0) + 2 * pad * px, (y1 - y0) + 2 * pad * py)

    def viewTransformChanged(self):  # noqa: N802 (pixel padding changes with the zoom)
        self._rect = None
        self.prepareGeometryChange()

    def paint(self, p, *args):
        if not self._vx.size:
            return
        tr = p.transform()
        p.save()
        p.resetTransform()
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
        r = self._size / 2.0
        for x, y, pen, brush in zip(self._vx, self._vy, self._shown_pens(), self._shown_brushes):
            pen = QtGui.QPen(pen)
            pen.setCosmetic(True)
            p.setPen(pen)
            p.setBrush(brush)
            p.drawEllipse(tr.map(QtCore.QPointF(float(x), float(y))), r, r)
        p.restore()

    def _shown_pens(self):
        """The outline of each drawn dot: one pen for all."""
        return itertools.repeat(self._pen)


class StepMarks(MarkerItem):
    """Hollow rings, each in its fabric's colour, where a curve steps because of a whole-number rule
    (see :mod:`gui.present.steps`): the step is drawn as bookkeeping, not as physics."""

    def __init__(self, size_px: float = 8.0):
        super().__init__(size_px)
        self._pens: list = []

    def set_marks(self, x, y, colours) -> None:
        self._pens = [pg.mkPen(c, width=1.6) for c in colours]
        self.setData(x, y, symbolBrush=[QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush)] * max(len(colours), 1))

    def _shown_pens(self):
        return [pen for pen, k in zip(self._pens, self._ok) if k]


def idle_stretches(x, idle, log_x: bool) -> list[tuple[float, float]]:
    """The stretches of the x-axis where a plan leaves GPUs idle, in the plot's coordinates (log10 of x on
    a logarithmic axis): each run of neighbouring idle points ``idle`` (bool per ``x``) is one stretch, from
    half-way to the point before it to half-way to the point after it, so the stretches and the points where
    every GPU works tile the axis."""
    x = np.asarray(x, dtype=float)
    idle = np.asarray(idle, dtype=bool)
    if not idle.any():
        return []
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.log10(x) if log_x else x
    edges = np.concatenate(([v[0]], (v[1:] + v[:-1]) / 2.0, [v[-1]]))  # cell i spans edges[i] .. edges[i + 1]
    step = np.diff(np.concatenate(([0], idle.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(step == 1), np.flatnonzero(step == -1)
    return [(float(edges[a]), float(edges[b])) for a, b in zip(starts, ends)]


class IdleStretches(pg.GraphicsObject):
    """Shaded stretches of the plot, the plot's full height, where the plan leaves GPUs idle: one marked
    stretch per run of idle points, under the curves (no saw-tooth of dotted fragments)."""

    def __init__(self):
        super().__init__()
        self._spans: list[tuple[float, float]] = []
        self._brush = QtGui.QBrush(QtGui.QColor(0, 0, 0, 28))

    def set_stretches(self, spans, colour) -> None:
        colour = QtGui.QColor(colour)
        colour.setAlpha(IDLE_SHADE_ALPHA)
        if spans == self._spans and colour == self._brush.color():
            return
        self.prepareGeometryChange()
        self._spans = list(spans)
        self._brush = QtGui.QBrush(colour)
        self.update()

    def stretches(self) -> list[tuple[float, float]]:
        return list(self._spans)

    def colour(self) -> QtGui.QColor:
        """The shading's colour (the fabric's, faint)."""
        return QtGui.QColor(self._brush.color())

    def dataBounds(self, ax, frac=1.0, orthoRange=None):  # noqa: N802,N803 (pyqtgraph names)
        return (None, None)  # never widens the axes

    def _y_span(self) -> tuple[float, float]:
        vb = self.getViewBox()
        if vb is None:
            return (0.0, 1.0)
        lo, hi = vb.viewRange()[1]
        return float(lo), float(hi)

    def viewRangeChanged(self):  # noqa: N802 (pyqtgraph name): the stretches span the view's height
        self.prepareGeometryChange()
        self.update()

    def boundingRect(self):  # noqa: N802
        if not self._spans:
            return QtCore.QRectF()
        lo, hi = self._y_span()
        x0, x1 = min(a for a, _ in self._spans), max(b for _, b in self._spans)
        return QtCore.QRectF(x0, lo, x1 - x0, hi - lo)

    def paint(self, p, *args):
        if not self._spans:
            return
        lo, hi = self._y_span()
        p.setPen(QtCore.Qt.PenStyle.NoPen)
        p.setBrush(self._brush)
        for a, b in self._spans:
            p.drawRect(QtCore.QRectF(a, lo, b - a, hi - lo))


def _show_data(curve, x, y) -> None:
    """``curve`` drawn through ``(x, y)`` and shown."""
    curve.setData(x, y)
    if not curve.isVisible():
        curve.show()


class ChartLegend(pg.LegendItem):
    """A legend whose notes (an entry that explains a way of drawing, not a fabric: its sample item has
    ``legend_note`` set) each take a row of their own across every column, so a long note never widens
    a column of fabric names. Notes come after the fabrics."""

    notes_own_row = True  # False: a legend without fabric names lays its notes out like any entry

    @staticmethod
    def is_note(sample) -> bool:
        return bool(getattr(getattr(sample, "item", None), "legend_note", False))

    def spans(self, sample) -> bool:
        """Whether ``sample``'s entry takes a row of its own."""
        return self.notes_own_row and self.is_note(sample)

    def _addItemToLayout(self, sample, label):  # noqa: N802 (pyqtgraph name)
        if not self.spans(sample):
            super()._addItemToLayout(sample, label)
            return
        row = self.layout.rowCount()
        self.layout.addItem(sample, row, 0, alignment=QtCore.Qt.AlignmentFlag.AlignVCenter)
        self.layout.addItem(label, row, 1, 1, max(2 * self.columnCount - 1, 1))
        self.rowCount = max(self.rowCount, row + 1)


class ChartWidget(pg.PlotWidget):
    """One chart: a curve per fabric, a marker at the current value, hover read-out.

    Call :meth:`show_result` with every new sweep result; curves are created the first
    time a fabric appears and then only updated (``setData``). ``line_width`` is the base
    pen width in pixels: 1 while dragging (cheap under Qt's raster engine), larger for
    exports or presentation (:meth:`set_line_width`).
    """

    def __init__(self, kind: str = "utilisation", parent=None, *, line_width: float = 1.0):
        super().__init__(parent=parent, background="w",
                         axisItems={"left": ValueAxis("left"), "bottom": ValueAxis("bottom")})
        if kind not in CHART_KINDS:
            raise ValueError(f"kind {kind!r}: one of {', '.join(CHART_KINDS)}")
        self.kind = kind
        self.line_width = float(line_width)
        self.thick_when_idle = True
        self.fabric_legend = True  # the window keeps it on the top chart only (set_fabric_legend)
        self.plot_min_height = 0  # the window's charts: a minimum height without the legend [px]
        self.x_label_shown = True  # the window shows the shared x-axis title under the bottom chart only
        # the notes inside the plot ("blank: no parallel plan fits there", the rings' meaning); a sheet that
        # explains them once in its own legend turns them off (small charts: they would cover the curves)
        self.plot_notes = True
        # where the dotted idle-GPU curves are explained: the legend (exports: the chart stands alone), or
        # the note in the plot's corner with the rings' (the window, whose legend row a laptop cannot spare)
        self.idle_note_in_legend = True
        self.has_gap = False  # some x where no fabric has a plan (the blank the gap note explains)
        # a chart in a tab of its own (not x-linked) takes the view's size again when shown (see resizeEvent)
        self.standalone_geometry = False
        # a chart the user cannot see (a hidden tab) draws a new result when it is shown, not while a slider
        # is dragged; :meth:`catch_up` draws it at once for whoever reads what it shows
        self.draws_only_when_shown = False
        self._pending = None
        self._title_fit = None  # (texts and widths, the title that fits, the caption that fits)
        self.series: dict | None = None
        self.curves: dict[str, DataCurve] = {}
        self.extra_curves: dict[str, DataCurve] = {}
        # where the plan of the fabric in focus leaves GPUs idle because the batch does not divide: shaded
        # stretches under the curves (the solid curve joins only the points where every GPU works)
        self.idle_band = IdleStretches()
        self.idle_fabric: str | None = None  # the fabric whose idle stretches are shaded
        self.idle_legend = pg.BarGraphItem(x0=[0], x1=[1], height=[1], brush=(0, 0, 0, 40), pen=None)
        self.idle_legend.legend_note = True  # the legend's sample for them (never drawn on the plot)
        self._styles: dict[str, dict] = {}
        self._focus: str | None = None
        self._current_x = None
        self._currency = ""
        self._texts = None
        self._x_key = None
        self.live = False  # a slider is held: the y axis only grows (:meth:`fit_y`)
        self.y_follows_data = True  # False once the user zooms or pans; Ctrl+0 (:meth:`reset_zoom`) restores it
        self._dpr = 1.0
        self._last_result = None
        self._last_point = None  # the point result the marker shows (its stalls read in the hover)
        self.tco_baseline: str | None = None  # the fabric the TCO chart is measured from (the session's choice)
        self._legend_key = None
        self._marker_brushes = None
        pi = self.getPlotItem()
        pi.setMenuEnabled(False)
        pi.hideButtons()
        for ax in ("left", "bottom"):
            a = pi.getAxis(ax)
            a.setPen(pg.mkPen("#444444"))
            a.setTextPen(pg.mkPen("#222222"))
        # the legend: one row above the plot area (in the layout, so it never hides a curve)
        self.legend = ChartLegend(offset=None, labelTextColor="#222222", colCount=5 if kind == "duration" else 4,
                                    verSpacing=-8, horSpacing=14)
        top = pi.getAxis("top")  # never shown: its layout cell takes the legend
        pi.layout.removeItem(top)
        top.hide()
        pi.layout.addItem(self.legend, 1, 1, alignment=QtCore.Qt.AlignmentFlag.AlignHCenter)
        self.legend.setZValue(20)
        # current value: a vertical line plus one dot per fabric
        self.vline = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen("#555555", width=1,
                                                                           style=QtCore.Qt.PenStyle.DotLine))
        self.vline.setZValue(5)
        pi.addItem(self.vline, ignoreBounds=True)
        self.vline.hide()
        self.marker = MarkerItem(9, pen="#222222")
        self.marker.setZValue(10)
        pi.addItem(self.marker)
        self.step_marks = StepMarks()
        self.step_marks.setZValue(6)
        pi.addItem(self.step_marks)
        self.idle_band.setZValue(1)
        pi.addItem(self.idle_band, ignoreBounds=True)
        self.idle_band.hide()
        pi.getAxis("left").setWidth(LEFT_AXIS_WIDTH)  # same width on every chart: x-linked plots line up
        self.caption = ""  # "profile: seed · scenario name", shown in the title of every chart
        self.title_colour, self.caption_colour = "#222222", "#666666"  # the dark theme changes them
        # hover read-out, fixed in screen space
        self.readout = pg.TextItem("", color="#111111", anchor=(0, 0), fill=pg.mkBrush(255, 255, 255, 225),
                                   border=pg.mkPen("#999999"))
        self.readout.setParentItem(pi.vb)
        self.readout.setZValue(30)
        self.readout.hide()
        self.note = pg.TextItem("", color="#666666", anchor=(0.5, 0.5))
        self.note.setParentItem(pi.vb)
        self.note.hide()
        # where no fabric has a plan (model too big for the cluster ...), say why the curves stop
        self.gap_note = pg.TextItem("", color="#777777", anchor=(1, 0))
        self.gap_note.setParentItem(pi.vb)
        self.gap_note.hide()
        # the fabrics past the plausibility bound, drawn clipped: named with their cause in a caption row under
        # the plot (never text over the curves, never a legend row that pushes the legend over the title)
        self.caption_row = pg.LabelItem("", justify="left", color=STALL_COLOUR)
        self.caption_row.item.document().setDocumentMargin(1)
        pi.layout.addItem(self.caption_row, 4, 1)
        pi.layout.setRowFixedHeight(4, 0)
        self.caption_row.setMaximumHeight(0)
        self.caption_row.hide()
        # the notes under the plot, by who gives them: "stall" (this chart), "breakeven" (the markers' labels);
        # each a list of (text, colour)
        self._caption_notes: dict[str, list[tuple[str, str]]] = {}
        self._stall_key = None
        self._stall_h = 0  # the caption row's height [px]
        self.step_note = pg.TextItem("", color="#777777", anchor=(0, 1))
        self.step_note.setParentItem(pi.vb)
        self.step_note.hide()
        pi.vb.sigResized.connect(self._place_overlays)
        pi.vb.enableAutoRange(x=False, y=False)  # the axes follow the data through fit_y and _fit_x only
        pi.vb.sigRangeChangedManually.connect(self._user_moved_view)
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self._hover_pos = None
        self.grid = GridLines(pi)
        # the view paints its whole background itself: Qt need not paint the window under it
        # first (without this every update repaints the main window's background behind all
        # three charts)
        for w in (self, self.viewport()):
            w.setAttribute(QtCore.Qt.WidgetAttribute.WA_OpaquePaintEvent, True)

    # -- drawing -------------------------------------------------------------
    def set_tco_baseline(self, fabric: str | None) -> None:
        """Measure the TCO from ``fabric`` (None: the default); the next :meth:`show_result` redraws."""
        if fabric != self.tco_baseline:
            self.tco_baseline = fabric
            self._last_result = None

    def show_result(self, result, kind: str | None = None, current_x=None, focus: str | None = None,
                    profile_set: str | None = None, scenario_name: str | None = None, point=None) -> dict:
        """Draw ``result`` (an engine sweep). ``current_x`` (engine units, scalar or one per
        fabric) places the marker; ``point`` (an ``evaluate`` result) gives the marker's y
        values (else they are interpolated on the curves). Returns the chart_series data (the last drawn,
        while a chart that :attr:`draws_only_when_shown` is hidden: it draws this result when shown, or on
        :meth:`catch_up`)."""
        args = (result, kind, current_x, focus, profile_set, scenario_name, point)
        if self.draws_only_when_shown and not self.isVisible():
            self._pending = args
            return self.series
        self._pending = None
        return self._draw_result(*args)

    def _draw_result(self, result, kind, current_x, focus, profile_set, scenario_name, point) -> dict:
        if kind is not None and kind != self.kind:
            self.kind = kind
        parts = [p for p in (translate("Charts", "profile: {name}").format(name=profile_set) if profile_set else "",
                             short_name(scenario_name)) if p]
        self.caption = "  ·  ".join(parts)
        same = (result is self._last_result and self.series is not None and self.series["kind"] == self.kind
                and focus == self._focus and float(self.devicePixelRatioF()) == self._dpr)
        if same:  # the same sweep (only the point moved): curves stay, the marker moves
            data = self.series
            self._set_texts(translate("Charts", "Training duration") if data["extra"] else data["title"], data)
            self._update_marker(result, data, current_x, point)
            if self._hover_pos is not None:
                self._update_readout(self._hover_pos)
            return data
        self._last_result = result
        data = chart_series(result, self.kind, self.tco_baseline)
        self.series = data
        self._currency = data.get("currency", "")
        extra_for = focus if focus in {e["fabric"] for e in data["extra"]} else None
        title = translate("Charts", "Training duration") if data["extra"] else data["title"]
        self._set_texts(title, data)
        self._focus = focus
        dpr = max(float(self.devicePixelRatioF()), 1.0)
        if dpr != self._dpr:  # moved to a screen with another scale: pens again
            self._dpr = dpr
            self._styles = {k: None for k in self._styles}
            for c in self.extra_curves.values():
                self.getPlotItem().removeItem(c)
            self.extra_curves = {}
        x = data["x"]
        seen = set()
        idle_for = None  # (fabric, its idle points, colour): the fabric in focus, else the first with idle GPUs
        for s in data["series"]:
            name = s["fabric"]
            seen.add(name)
            curve = self.curves.get(name)
            if curve is None:
                curve = DataCurve(name=s["short"])
                curve.setZValue(3)
                self.getPlotItem().addItem(curve)
                self.curves[name] = curve
                self._styles[name] = None
            if self._styles.get(name) != (s["style"], focus == name, self.line_width):
                curve.setPen(self._pen_for(s["style"], focus == name))
                self._styles[name] = (s["style"], focus == name, self.line_width)
                curve.setZValue(4 if focus == name else 3)
            cx, cy, idle_on = in_use_points(x, s)
            curve.setData(cx, cy)  # DataCurve maps to log10, gaps where <= 0
            if not curve.isVisible():
                curve.show()
            if idle_on and (idle_for is None or name == focus) and (idle_for is None or idle_for[0] != focus):
                idle_for = (name, np.asarray(s["idle_gpus"], dtype=bool) & np.isfinite(s["y"]), s["style"]["colour"])
        self._draw_idle(x, idle_for, data["log_x"])
        # the duration without interruptions: for the fabric in focus (all four would hide the others)
        for e in data["extra"]:
            name = e["fabric"]
            curve = self.extra_curves.get(name)
            if name != extra_for:
                if curve is not None and curve.isVisible():
                    curve.hide()
                continue
            if curve is None:
                curve = self._faint_curve(self.extra_curves, name)
                curve.setPen(make_pen(e["style"], 1.0 * self._dpr, alpha=110))
            _show_data(curve, x, e["y"])
        for name, curve in self.curves.items():
            if name not in seen and curve.isVisible():
                curve.hide()
                curve.setData([], [])
        if not data["extra"]:
            for curve in self.extra_curves.values():
                if curve.isVisible():
                    curve.hide()
        self._fit_x(drawn_x(data), data["log_x"])
        self._update_marker(result, data, current_x, point)  # before the y fit: it holds the new markers
        self.fit_y()
        self._sync_legend(data)
        if data["available"]:
            self.note.hide()
        else:
            self.note.setText(data["note"])
            self.note.show()
        ys = [s_["y"] for s_ in data["series"]]
        gap = bool(ys) and bool(np.all(np.isnan(np.vstack(ys)), axis=0).any())
        self.has_gap = gap
        if (gap and self.plot_notes) != self.gap_note.isVisible():
            self.gap_note.setText(translate("Charts", "blank: no parallel plan fits there") if gap else "")
            self.gap_note.setVisible(gap and self.plot_notes)
        self.set_caption_notes("stall", [(line, STALL_COLOUR) for line in stall_note(data).split("\n") if line])
        self._update_step_marks(data)
        self._place_overlays()
        if self._hover_pos is not None:
            self._update_readout(self._hover_pos)
        return data

    def catch_up(self) -> None:
        """Draw the result held back while hidden (see :attr:`draws_only_when_shown`), now."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._draw_result(*pending)

    def showEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        super().showEvent(ev)
        self.catch_up()

    def _update_step_marks(self, data) -> None:
        """Rings where a curve steps by a whole-number rule, and the note that says what they mean."""
        xs, ys, colours = [], [], []
        x = np.asarray(data["x"], dtype=float)
        for s in data["series"]:
            marks = s.get("whole_number")
            if marks is None or not marks.any():
                continue
            idx = np.flatnonzero(marks)
            xs.append(x[idx])
            ys.append(s["y"][idx])
            colours += [s["style"]["colour"]] * idx.size
        if xs:
            self.step_marks.set_marks(np.concatenate(xs), np.concatenate(ys), colours)
        else:
            self.step_marks.set_marks([], [], [])
        notes = [translate("Charts", "○ whole-number plan step (hover)")] if xs else []
        if not self.idle_note_in_legend and self.idle_band.isVisible():
            notes.insert(0, "▮ " + self._idle_text())
        note = "\n".join(notes)
        if note != self.step_note.toPlainText():
            self.step_note.setText(note)
        self.step_note.setVisible(bool(note) and self.plot_notes
                                  and self.getPlotItem().vb.height() >= STEP_NOTE_MIN_HEIGHT)
        if not self.plot_notes:  # no text over the curves: the notes on hover instead
            gap = [translate("Charts", "blank: no parallel plan fits there")] if self.has_gap else []
            tip = "\n".join(gap + notes)
            if tip != self.toolTip():
                self.setToolTip(tip)

    def _draw_idle(self, x, idle_for, log_x: bool) -> None:
        """Shade the stretches where ``idle_for``'s fabric (``(fabric, idle points, colour)``, or None: no
        fabric leaves GPUs idle, or one leaves them idle everywhere) leaves GPUs idle."""
        if idle_for is None:
            self.idle_fabric = None
            if self.idle_band.isVisible():
                self.idle_band.hide()
            return
        name, idle, colour = idle_for
        self.idle_fabric = name
        self.idle_band.set_stretches(idle_stretches(x, idle, log_x), colour)
        if not self.idle_band.isVisible():
            self.idle_band.show()

    def _faint_curve(self, store: dict, name: str) -> "DataCurve":
        """A new secondary curve for fabric ``name`` under the main curves, kept in ``store``."""
        curve = DataCurve()
        curve.setZValue(2)
        self.getPlotItem().addItem(curve)
        store[name] = curve
        return curve

    def _fit_x(self, x, log_x: bool) -> None:
        """Set the x range when the sweep grid changes, else leave it (and any zoom) alone.

        The x range is not auto-ranged: with three x-linked charts every auto-range pass
        would bounce between them and repaint each chart twice per update."""
        x = np.asarray(x, dtype=float)
        x = x[np.isfinite(x) & ((x > 0) if log_x else True)]
        if not x.size:
            return
        lo, hi = float(x.min()), float(x.max())
        if log_x:
            lo, hi = math.log10(lo), math.log10(hi)
        key = (lo, hi, log_x)
        if key == self._x_key:
            return
        self._x_key = key
        vb = self.getPlotItem().vb
        vb.enableAutoRange(x=False)
        vb.setXRange(lo, hi, padding=0.02)

    def resizeEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        legend = self.__dict__.get("legend")
        if legend is None or self.__dict__.get("closed"):
            super().resizeEvent(ev)
            return  # pyqtgraph resizes while constructing (no legend yet) and while closing (items going)
        # the texts that follow the width first (the title's caption, the legend's columns), then the plot
        # takes the view's new size (the notes' row waits for the plot's new height: laid out before it, it
        # moves the x-linked views and throws their x-range off): a plot laid out with the wider view's texts keeps their
        # minimum width, wider than the view, and its right end (the last tick labels, a legend entry) is cut
        if self.series is not None:
            self._set_texts(self._title_text(), self.series)
        self._fit_legend()
        super().resizeEvent(ev)
        self._fit_legend()
        self._show_stall_caption()  # the plot's new height: the notes' row, the y-axis title
        if self.series is not None:
            self._set_texts(self._title_text(), self.series)  # the caption comes or goes with the width
            label = self._y_label(self.series)
            axis = self.getPlotItem().getAxis("left")
            if axis.labelText != label:
                axis.setLabel(label, **axis.labelStyle)
        # The plot took its geometry before the caption went, clamped to the wider title's minimum
        # (a chart resized while hidden in a tab): give it the view's size again. Not for x-linked charts:
        # pyqtgraph aligns linked views by their screen geometry, so moving one shifts the others' x-range.
        pi = self.getPlotItem()
        if self.standalone_geometry and pi.geometry().width() > self.width() + 0.5:
            pi.setGeometry(QtCore.QRectF(0, 0, self.width(), self.height()))

    def _title_text(self) -> str:
        return translate("Charts", "Training duration") if self.series["extra"] else self.series["title"]

    def _fitted_title(self, title: str, data: dict) -> str:
        """``title``, or its short form (``data["short_title"]``: the baseline fabric by its short name),
        or that cut with an ellipsis, whichever first fits the plot's width: a title wider than the plot
        would make the plot wider than the chart and cut its right end off."""
        bold = QtGui.QFont()
        bold.setPointSizeF(scaled_pt(11))
        bold.setBold(True)
        metrics = QtGui.QFontMetricsF(bold)
        room = self.width() - self.getPlotItem().getAxis("left").width() - 16
        if metrics.horizontalAdvance(title) <= room:
            return title
        title = data.get("short_title") or title
        return metrics.elidedText(title, QtCore.Qt.TextElideMode.ElideRight, max(room, 40.0))

    def _caption_fits(self, title: str) -> bool:
        """Whether the title and its caption fit the plot's width on one line (else the caption goes:
        a title wider than its column would make the chart wider than the window)."""
        if not self.caption:
            return True
        bold, small = QtGui.QFont(), QtGui.QFont()
        bold.setPointSizeF(scaled_pt(11))
        bold.setBold(True)
        small.setPointSizeF(scaled_pt(9))
        need = (QtGui.QFontMetricsF(bold).horizontalAdvance(title)
                + QtGui.QFontMetricsF(small).horizontalAdvance("  " + self.caption) + 12)
        return need <= self.width() - self.getPlotItem().getAxis("left").width() - 10

    def _y_label(self, data) -> str:
        """The y-axis title, or its short form when the plot is too short for it (a laptop screen)."""
        text = data["y_label"]
        font = QtGui.QFont()
        font.setPointSizeF(scaled_pt(9))
        room = self.getPlotItem().vb.height() or self.height() * 0.6
        if QtGui.QFontMetricsF(font).horizontalAdvance(text) <= room:
            return text
        short = {"utilisation": translate("Charts", "MFU (%)"), "duration": translate("Charts", "Days"),
                 "tco": translate("Charts", "Δ TCO (%)"),
                 "cost_per_run": translate("Charts", "Per run")}.get(
            self.kind, text)
        # shorter still than that: no axis title (the chart's title names the quantity) rather than a cut one
        return short if QtGui.QFontMetricsF(font).horizontalAdvance(short) <= room else ""

    def _fit_legend(self) -> None:
        """As many legend columns as fit the chart's width (one row when they all fit); the legend's
        row in the layout is as tall as the legend, so a wrapped legend never covers the title."""
        legend = self.__dict__.get("legend")
        if legend is None or not legend.items:
            return
        # the text's own width (a label's boundingRect is its layout cell, which a wide legend stretches)
        entries = [(sample, label) for sample, label in legend.items if not legend.spans(sample)]
        notes = len(legend.items) - len(entries)
        widths = [sample.boundingRect().width() + label.item.boundingRect().width() + 30
                  for sample, label in entries] or [0.0]
        room = max(self.width() - self.getPlotItem().getAxis("left").width() - 30, 100)  # the plot column
        cols = len(widths)
        while cols > 1 and max(sum(widths[r:r + cols]) for r in range(0, len(widths), cols)) > room:
            cols -= 1
        legend.layout.setContentsMargins(4, 0, 4, 0)
        minimum = QtCore.Qt.SizeHint.MinimumSize
        while True:  # the estimate, then as the legend's own layout measures it
            if legend.columnCount != cols:
                legend.setColumnCount(cols)
            if cols == 1 or legend.layout.effectiveSizeHint(minimum).width() <= room:
                break
            cols -= 1
        rows = math.ceil(len(entries) / cols) + notes
        # the rows the notes add, laid out on their own or among the other entries
        without = math.ceil(sum(not ChartLegend.is_note(sample) for sample, _ in legend.items) / cols)
        # (not legend.updateSize(): it moves the legend to the plot's top-left corner, out of its layout cell)
        row = max(max(label.item.boundingRect().height(), sample.boundingRect().height())
                  for sample, label in legend.items)
        self._set_legend_height(rows * row + 2, (rows - without) * row)

    def _refit_legend(self) -> None:
        if not self.__dict__.get("closed"):
            self._fit_legend()

    def _set_legend_height(self, height: float, notes: float = 0.0) -> None:
        """The legend's row, and the chart's minimum height with it: the plot keeps ``plot_min_height``,
        less the legend's ``notes`` rows (on a screen too short for both, a note takes its row from the
        plot rather than push the window past the screen)."""
        layout = self.getPlotItem().layout
        if abs(layout.rowMaximumHeight(1) - height) > 0.5:
            layout.setRowFixedHeight(1, height)
        if self.plot_min_height:
            self.setMinimumHeight(int(self.plot_min_height + height - notes))

    def fit_y(self) -> None:
        """The one steady y axis, set through ``ViewBox.setYRange``: it holds everything drawn (curves,
        bands, A's curves, markers), moves in 1-2-5 steps (:func:`steady_range`; utilisation from 0 in
        steps of 5 %), only grows while a slider is held (:attr:`live`) and fits tightly again on
        release. A zoom or pan by the user stops it until :meth:`reset_zoom` (Ctrl+0)."""
        if not self.y_follows_data:
            return
        vb = self.getPlotItem().vb
        bounds = vb.childrenBounds()[1]
        current = tuple(vb.viewRange()[1])
        if self.kind == "utilisation":
            top = max(float(bounds[1]) if bounds is not None and math.isfinite(bounds[1]) else 1.0, 1.0)
            top = math.ceil(top * 1.08 / 5.0) * 5.0  # in steps of 5 %: a drag rarely moves the axis
            target = (0.0, max(top, current[1]) if self.live and current[0] == 0.0 else top)
        elif bounds is None:
            return
        else:
            log_y = bool(self.series and self.series.get("log_y"))
            lo, hi = float(bounds[0]), float(bounds[1])
            if self.kind == "tco" and math.isfinite(lo) and math.isfinite(hi):
                lo, hi = min(lo, 0.0), max(hi, 0.0)  # the baseline's zero line, and a span where 5 % shows
                if hi - lo < MIN_TCO_SPAN_PCT:
                    if hi >= -lo:
                        hi = lo + MIN_TCO_SPAN_PCT
                    else:
                        lo = hi - MIN_TCO_SPAN_PCT
            target = steady_range(lo, hi, current if self.live else None,
                                  grow_only=self.live,  # days are >= 0; TCO is a signed difference
                                  floor=None if log_y or self.kind == "tco" else 0.0)
        if target is None or (abs(target[0] - current[0]) <= 1e-12 * max(1.0, abs(target[0]))
                              and abs(target[1] - current[1]) <= 1e-12 * max(1.0, abs(target[1]))):
            return
        vb.setYRange(target[0], target[1], padding=0)

    def _user_moved_view(self, *_):
        """The user zoomed or panned (pyqtgraph's ``sigRangeChangedManually``): the axes stay where put."""
        self.y_follows_data = False

    def reset_zoom(self) -> None:
        """Back to the whole sweep in x and a y axis that follows the data (Ctrl+0)."""
        self._x_key = None
        self.y_follows_data = True
        if self.series is not None:
            self._fit_x(drawn_x(self.series), self.series["log_x"])
        self.fit_y()

    def _set_texts(self, title: str, data: dict) -> None:
        """Title (with the profile/scenario caption), axis labels, tick formats, log modes:
        touched only when they change (setting HTML text costs a few ms)."""
        scale = text_scale()
        fit_key = (title, data.get("short_title"), self.caption, self.width(),
                   self.getPlotItem().getAxis("left").width(), scale)
        if self._title_fit is None or self._title_fit[0] != fit_key:  # measured once per text and width
            fitted = self._fitted_title(title, data)
            self._title_fit = (fit_key, fitted, self.caption if self._caption_fits(fitted) else "")
        title, caption = self._title_fit[1], self._title_fit[2]
        title_key = (title, caption, self.title_colour, self.caption_colour, scale)
        key = (data["x_label"], data["y_label"], data["log_x"], data["log_y"], self.kind, self._currency, scale)
        if self._texts is not None and title_key == self._texts[0] and key == self._texts[1]:
            return
        old = self._texts
        self._texts = (title_key, key)
        pi = self.getPlotItem()
        if old is None or old[0] != title_key:
            cap = (f"&nbsp;&nbsp;<span style='font-size:{scaled_pt(9)}pt; color:{self.caption_colour}'>"
                   f"{_esc(caption)}</span>" if caption else "")
            pi.setTitle(f"<span style='font-size:{scaled_pt(11)}pt; color:{self.title_colour}'><b>{_esc(title)}</b>"
                        f"</span>{cap}")

        if old is not None and old[1] == key:
            return  # only the title changed: the axes keep their cached pictures
        label_style = {"font-size": f"{scaled_pt(9)}pt"}
        pi.setLabel("bottom", data["x_label"], **label_style)
        pi.getAxis("bottom").showLabel(self.x_label_shown)
        pi.setLabel("left", self._y_label(data), **label_style)
        left = pi.getAxis("left")
        if self.kind == "cost_per_run":
            code = self._currency
            left.formatter = lambda v: format_money(v, code, axis=True)
        elif data["log_y"]:
            left.formatter = _plain
        else:
            left.formatter = None
        left.picture = None
        left.update()
        if pi.ctrl.logXCheck.isChecked() != data["log_x"] or pi.ctrl.logYCheck.isChecked() != data["log_y"]:
            pi.setLogMode(x=data["log_x"], y=data["log_y"])
            self._x_key = None  # pyqtgraph turned x auto-range back on: the sweep's x range again

    def _pen_for(self, style: dict, focus: bool) -> QtGui.QPen:
        # cosmetic widths are device pixels: scale by the screen's ratio so lines keep their
        # weight on high-DPI screens
        w = self.line_width * self._dpr
        if self.thick_when_idle and self.line_width > 1.0:
            w *= float(style.get("width_scale", 1.0))
        if focus and self.line_width > 1.0:
            w *= 1.3
        return make_pen(style, w)

    def retranslate(self) -> None:
        """Draw the texts again in the current language on the next :meth:`show_result` (the title, the
        axis labels, the legend, the notes); the zoom stays."""
        self._last_result = None
        self._texts = None
        self._title_fit = None
        self._legend_key = None
        if self.gap_note.isVisible():
            self.gap_note.setText(translate("Charts", "blank: no parallel plan fits there"))

    def apply_text_scale(self) -> None:
        """Size every text of the chart by :func:`~gui.theme.text_scale` (presentation mode):
        tick labels, axis labels, the title, the legend, the read-out; the left axis widens with its text."""
        scale = text_scale()
        self._title_fit = None
        pi = self.getPlotItem()
        tick_font = QtGui.QFont()
        tick_font.setPointSizeF(scaled_pt(8))
        for name in ("left", "bottom"):
            ax = pi.getAxis(name)
            ax.setStyle(tickFont=tick_font)
            ax.picture = None
            ax.update()
        pi.getAxis("left").setWidth(int(round(LEFT_AXIS_WIDTH * scale)))
        self.legend.setLabelTextSize(f"{scaled_pt(9)}pt")
        for _, label in self.legend.items:
            label.setText(label.text)  # the new size applies from the next setText
        self._fit_legend()
        # again once the labels have their new size and the window its new layout (leaving presentation
        # mode, the legend would keep the projector's single column and its extra rows)
        QtCore.QTimer.singleShot(0, self._refit_legend)
        for item in (self.note, self.gap_note):
            f = QtGui.QFont()
            f.setPointSizeF(scaled_pt(9))
            item.setFont(f)
        self._texts = None  # title and axis labels again at the new size
        self._show_stall_caption()
        if self.series is not None:
            self._set_texts(translate("Charts", "Training duration") if self.series["extra"] else self.series["title"],
                            self.series)

    def set_live(self, on: bool) -> None:
        """While a slider is dragged (``on``) the y axis only grows; on release it fits again."""
        if on == self.live:
            return
        self.live = on
        if not on:
            self.fit_y()

    def set_line_width(self, width: float) -> None:
        """Base pen width in pixels for every curve (1 = fast live drawing; 2-3 for exports)."""
        width = float(width)
        if width == self.line_width:
            return
        self.line_width = width
        if self.series is not None:
            for s in self.series["series"]:
                c = self.curves.get(s["fabric"])
                if c is not None:
                    c.setPen(self._pen_for(s["style"], self._focus == s["fabric"]))
                    self._styles[s["fabric"]] = (s["style"], self._focus == s["fabric"], self.line_width)

    def set_fabric_legend(self, on: bool) -> None:
        """Whether the legend names the fabrics. Charts stacked on one x-axis share the fabrics' colours:
        the window names them once, on the top chart, and the others keep their own entries only (the
        duration without interruptions), which leaves their plots the height a laptop screen lacks."""
        if bool(on) == self.fabric_legend:
            return
        self.fabric_legend = bool(on)
        self._legend_key = None
        if self.series is not None:
            self._sync_legend(self.series)

    def _sync_legend(self, data) -> None:
        wanted = [(s["short"], self.curves[s["fabric"]]) for s in data["series"]] if self.fabric_legend else []
        extra = [(translate("Charts", "w/o interruptions"), c) for n, c in self.extra_curves.items() if c.isVisible()]
        wanted += extra
        if self.idle_note_in_legend and self.fabric_legend and self.idle_band.isVisible():
            colour = self.idle_band.colour()
            colour.setAlpha(70)  # the legend's swatch a little stronger than the shading: it is small
            self.idle_legend.setOpts(brush=colour)
            wanted.append((self._idle_text(), self.idle_legend))
        key = [(n, id(c)) for n, c in wanted]
        if key == self._legend_key:
            return
        self._legend_key = key
        self.legend.clear()
        self.legend.notes_own_row = self.fabric_legend
        for name, curve in wanted:
            self.legend.addItem(curve, _esc(name))  # a legend label is rich text: a fabric label is not
        self.legend.setVisible(bool(wanted))
        if not wanted:
            self._set_legend_height(0.0)
        self._fit_legend()

    def _idle_text(self) -> str:
        """What the shaded stretches mean, naming the fabric whose plan they follow."""
        label = self._short_of(self.idle_fabric)
        return translate("Charts", "shaded: {fabric} leaves GPUs idle (batch does not divide)").format(fabric=label)

    def _short_of(self, fabric: str | None) -> str:
        for s in (self.series or {}).get("series", ()):
            if s["fabric"] == fabric:
                return s["short"]
        return fabric or ""

    def _update_marker(self, result, data, current_x, point) -> None:
        self._current_x = None
        self._last_point = point
        if current_x is None or not data["series"]:
            self.marker.setData([], [])
            self.vline.hide()
            return
        meta = AXES.get(result.field, dict(scale=1.0))
        cx = np.broadcast_to(np.asarray(current_x, dtype=float) * meta["scale"], (len(data["series"]),))
        yv = point_values(point, self.kind, self.tco_baseline) if point is not None else None
        if yv is None or len(yv) != len(cx):
            yv = np.array([_interp(data["x"], s["y"], xi) for s, xi in zip(data["series"], cx)])
        for k, s in enumerate(data["series"]):  # an off-scale or stalled fabric's marker stays on its clipped curve
            if (s.get("off_scale") is not None or s.get("stall")) and np.isfinite(s["y"]).any():
                yv[k] = np.clip(yv[k], np.nanmin(s["y"]), np.nanmax(s["y"]))
        ok = np.isfinite(yv) & np.isfinite(cx) & (cx > 0 if data["log_x"] else True) & (
            yv > 0 if data["log_y"] else True)
        colours = tuple(s["style"]["colour"] for s, k in zip(data["series"], ok) if k)
        if colours != self._marker_brushes:
            self._marker_brushes = colours
            self.marker.setData(cx[ok], yv[ok], symbolBrush=[pg.mkBrush(c) for c in colours])
        else:
            self.marker.setData(cx[ok], yv[ok])
        self._current_x = cx
        self._marker_y = yv
        x0 = float(cx[0]) if np.all(cx == cx[0]) else None
        if x0 is not None and math.isfinite(x0) and (x0 > 0 or not data["log_x"]):
            self.vline.setPos(math.log10(x0) if data["log_x"] else x0)
            self.vline.show()
        else:
            self.vline.hide()

    # -- overlays --------------------------------------------------------------
    def text_items(self) -> list:
        """The chart's notes on screen (not its title, axes or legend): what a layout check measures."""
        items = [item.textItem for item in (self.note, self.gap_note, self.step_note) if item.isVisible()]
        return items + ([self.caption_row.item] if self.caption_row.isVisible() else [])

    def set_caption_notes(self, source: str, entries) -> None:
        """The notes ``source`` gives for the row under the plot (``[(text, colour)]``; empty: none)."""
        entries = [(str(t), str(c)) for t, c in entries]
        if self._caption_notes.get(source, []) == entries:
            return
        self._caption_notes[source] = entries
        self._stall_key = None
        self._show_stall_caption()

    def caption_notes(self) -> list[str]:
        """The texts of the row under the plot, shown or not (a short plot leaves them out)."""
        return [t for entries in self._caption_notes.values() for t, _ in entries]

    def _show_stall_caption(self) -> None:
        """The notes under the plot (the stalled fabrics and their causes, the break-even markers' labels): on one
        line when they fit the plot's width, else a line each (a line still too long is cut with an ellipsis).
        The row comes from the plot: on a plot too short to spare it (a laptop with a dock open) the lines go,
        first to one, then all (the hover read-out, the table, the step-time chart and the markers' tooltips
        still say it all)."""
        if "_stall_key" not in self.__dict__:
            return  # pyqtgraph resizes the widget while it is being built
        entries = [e for source in self._caption_notes.values() for e in source]
        lines = [t for t, _ in entries]
        scale = text_scale()
        # the plot's height with no caption: the same whatever this decides, so a relayout settles at once
        plot_h = int(self.getPlotItem().vb.height() + self._stall_h)
        key = (tuple(lines), self.width(), scale, plot_h)
        if key == self._stall_key:
            return
        self._stall_key = key
        font = QtGui.QFont()
        font.setPointSizeF(scaled_pt(9))
        metrics = QtGui.QFontMetricsF(font)
        room = max(self.width() - self.getPlotItem().getAxis("left").width() - 16, 60.0)
        one = "  ·  ".join(lines)
        rows = [entries]  # the entries on each line
        if lines and (metrics.horizontalAdvance(one) > room and plot_h - 1.3 * metrics.height() * len(lines)
                      >= CAPTION_MIN_PLOT_PX):
            rows = [[e] for e in entries]
        if not lines or plot_h - 1.3 * metrics.height() * len(rows) < CAPTION_MIN_PLOT_PX:
            lines = []
        layout = self.getPlotItem().layout
        if not lines:  # no row at all (a hidden item keeps its minimum size in the layout: an old line's
            # width would widen the plot column past the chart and cut its right end off)
            self.caption_row.setText("")
            self.caption_row.hide()
            self.caption_row.setMinimumHeight(0)
            self.caption_row.setMaximumHeight(0)
            layout.setRowFixedHeight(4, 0)
            self._stall_h = 0
            return
        self.caption_row.setText("<br>".join(_caption_line(row, metrics, room) for row in rows),
                                 size=f"{scaled_pt(9)}pt")
        lines = rows
        # as tall as the text laid out (a Chinese line takes the taller CJK font's height)
        height = math.ceil(max(self.caption_row.item.boundingRect().height(), metrics.lineSpacing() * len(lines))) + 2
        self.caption_row.setMinimumHeight(height)
        self.caption_row.setMaximumHeight(height)
        self.caption_row.show()
        layout.setRowFixedHeight(4, height)
        self._stall_h = height

    def _place_overlays(self, *_):
        self._show_stall_caption()  # the plot's new height may spare the caption's row, or not
        r = self.getPlotItem().vb.boundingRect()
        self.note.setPos(r.center())
        self.gap_note.setPos(r.right() - 4, r.top() + 2)
        self.step_note.setPos(r.left() + 4, r.bottom() - 2)
        # on a short plot the note would cover the curves: the rings and the hover still explain
        want = bool(self.step_note.toPlainText()) and r.height() >= STEP_NOTE_MIN_HEIGHT and self.plot_notes
        if want != self.step_note.isVisible():
            self.step_note.setVisible(want)

    def _on_mouse_moved(self, pos) -> None:
        vb = self.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(pos):
            self._hover_pos = None
            self.readout.hide()
            return
        self._hover_pos = pos
        self._update_readout(pos)

    def _update_readout(self, pos) -> None:
        data = self.series
        if not data or not data["series"] or len(data["x"]) == 0:
            self.readout.hide()
            return
        vb = self.getPlotItem().vb
        p = vb.mapSceneToView(pos)
        xv = 10 ** p.x() if data["log_x"] else p.x()
        i = int(np.nanargmin(np.abs(np.log(np.maximum(data["x"], 1e-300)) - math.log(max(xv, 1e-300)))
                             if data["log_x"] else np.abs(data["x"] - xv)))
        field = data.get("field") or ""
        label = translate("Axes", AXES[field]["label"]) if field in AXES else field
        at_marker = self._near_marker(vb, pos)
        if at_marker:  # on the marker: the exact values at the current point
            cx = self._current_x
            same = bool(np.all(cx == cx[0]))
            head = (translate("Charts", "At this point — {x}: {value}").format(
                        x=label, value=format_x(field, float(cx[0])))
                    if same else translate("Charts", "At this point"))
            lines = [f"<b>{head}</b>"]
            stalls = point_stalls(self._last_point) if self._last_point is not None else {}
            for k, s in enumerate(data["series"]):
                xs = "" if same else f" ({format_x(field, float(cx[k]))})"
                value = (stall_text(stalls[s["fabric"]]) if s["fabric"] in stalls and self.kind in STALL_KINDS
                         else format_value(self.kind, float(self._marker_y[k]), self._currency))
                lines.append(f"<span style='color:{s['style']['colour']}'>■</span> {_esc(s['short'])}: "
                             f"{_esc(value)}{xs}")
        else:
            lines = [f"<b>{label}: {format_x(field, float(data['x'][i]))}</b>"]
            for f, s in enumerate(data["series"]):
                idle = idle_gpus_at(self._last_result, f, i)
                lines.append(f"<span style='color:{s['style']['colour']}'>■</span> {_esc(s['short'])}: "
                             f"{_esc(value_text(self.kind, s, i, self._currency))}"
                             + (f" <span style='font-size:{scaled_pt(8)}pt'>({_esc(idle)})</span>" if idle else ""))
                j = _step_near(s, i)
                if j is not None:  # a step here: what changed in the plan, and whether a whole-number rule did it
                    why = step_explanation(self._last_result, f, j)
                    if why:
                        lines.append(f"&nbsp;&nbsp;&nbsp;<span style='font-size:{scaled_pt(8)}pt'>"
                                     f"{_esc(format_x(field, float(data['x'][j - 1])))} → "
                                     f"{_esc(format_x(field, float(data['x'][j])))}: {_esc(why)}</span>")
        self.readout.setHtml(f"<div style='font-size:{scaled_pt(9)}pt'>" + "<br>".join(lines) + "</div>")
        r = vb.boundingRect()
        local = vb.mapFromScene(pos)
        bx = local.x() + 14
        br = self.readout.boundingRect()
        if bx + br.width() > r.right():
            bx = local.x() - br.width() - 14
        by = min(max(local.y() + 10, r.top()), r.bottom() - br.height())
        self.readout.setPos(bx, by)
        self.readout.show()

    def _near_marker(self, vb, pos, pixels: float = 8.0) -> bool:
        """True when the mouse is within ``pixels`` of a marker's x (screen distance)."""
        cx = self._current_x
        if cx is None or self.series is None or getattr(self, "_marker_y", None) is None:
            return False
        if len(self._marker_y) != len(self.series["series"]):
            return False
        log_x = self.series["log_x"]
        for x in np.atleast_1d(cx):
            if not np.isfinite(x) or (log_x and x <= 0):
                continue
            vx = math.log10(x) if log_x else float(x)
            sp = vb.mapViewToScene(QtCore.QPointF(vx, vb.viewRange()[1][0]))
            if abs(sp.x() - pos.x()) <= pixels:
                return True
        return False

    def readout_text(self) -> str:
        return self.readout.toPlainText() if self.readout.isVisible() else ""


def short_name(name: str | None, limit: int = 44) -> str:
    """A scenario name short enough for a chart caption: its parenthesised tail dropped."""
    if not name:
        return ""
    marks = {" (edited)", translate("MainWindow", " (edited)")}  # the window's marker, in either language
    edited = next((m for m in marks if name.endswith(m)), "")
    base = name[: -len(edited)] if edited else name
    base = base.split(" (")[0].split("（")[0]  # a Chinese name's tail is in full-width brackets
    if len(base) > limit:
        base = base[: limit - 1] + "…"
    return base + edited


def _short(data: dict, fabric: str) -> str:
    return next((s["short"] for s in data["series"] if s["fabric"] == fabric), fabric)


def _caption_line(entries, metrics, room: float) -> str:
    """One line of the notes under a plot, each in its colour, joined by dots; cut with an ellipsis where the
    line is wider than ``room``."""
    sep = "  ·  "
    out, used = [], 0.0
    for i, (text, colour) in enumerate(entries):
        lead = sep if i else ""
        left = room - used - metrics.horizontalAdvance(lead)
        shown = metrics.elidedText(text, QtCore.Qt.TextElideMode.ElideRight, max(left, 0.0))
        if not shown:
            break
        out.append(_esc(lead) + f"<span style='color:{colour}'>{_esc(shown)}</span>")
        used += metrics.horizontalAdvance(lead + shown)
        if shown != text:
            break
    return "".join(out)


def _esc(text: str) -> str:
    import html

    return html.escape(str(text))


STEP_JUMP = 0.03  # a change between neighbouring points above 3 % reads as a step (hover explains it)


def _step_near(series: dict, i: int) -> int | None:
    """The sweep index ``j`` (``i`` or ``i + 1``) where ``series`` steps next to point ``i``: its plan
    changes there, or its value jumps by more than :data:`STEP_JUMP`; ``None`` otherwise."""
    y = series["y"]
    changed = series.get("plan_changed")
    for j in (i, i + 1):
        if j < 1 or j >= y.size:
            continue
        if changed is not None and changed[j]:
            return j
        a, b = float(y[j - 1]), float(y[j])
        if math.isfinite(a) and math.isfinite(b) and abs(b - a) > STEP_JUMP * max(abs(a), abs(b), 1e-300):
            return j
    return None


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))


def _interp(x, y, xi) -> float:
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(y)
    if not ok.any() or not math.isfinite(xi):
        return float("nan")
    return float(np.interp(xi, x[ok], y[ok], left=np.nan, right=np.nan))


__all__ = ["AXES", "CHART_KINDS", "ChartWidget", "axis_label", "chart_series", "currency_of", "fabric_styles",
           "format_money", "format_value", "format_x", "make_pen", "point_values"]
