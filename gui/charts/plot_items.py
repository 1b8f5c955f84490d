"""The chart widget's drawing parts: pens, value axes and grid lines, curves with a fast path for long
runs, the current-value markers and whole-number step rings, the idle-GPU stretches and the legend."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gui.present.format import fmt_compact, fmt_sig


LEFT_AXIS_WIDTH = 78
STALL_COLOUR = "#a03000"  # the stalled fabrics' caption (the table's stall colour)
# the stall caption under a plot only while the plot keeps this height [px]; below it the hover names the stalls
CAPTION_MIN_PLOT_PX = 80
IDLE_SHADE_ALPHA = 38  # the idle-GPU stretches: the fabric's colour this faint (of 255), under the curves
STEP_NOTE_MIN_HEIGHT = 90  # the rings' note shows on plots at least this tall [px]


# --------------------------------------------------------------------------
# the widget
# --------------------------------------------------------------------------


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
    return series.y if series.y_full is None else series.y_full


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
    stretch per run of idle points, under the grid and the curves (no saw-tooth of dotted fragments).

    The shade is the fabric's colour at :data:`IDLE_SHADE_ALPHA` mixed over the plot's background beforehand
    and drawn opaque under everything else, as :class:`GridLines` draws its lines: it looks as a translucent
    fill would, and Qt's raster engine fills an opaque rectangle several times faster than a translucent one
    (about a millisecond a paint for the full-height stretches of three charts)."""

    def __init__(self):
        super().__init__()
        self._spans: list[tuple[float, float]] = []
        self._colour = QtGui.QColor(0, 0, 0)
        self._background = (255, 255, 255)
        self._brush = QtGui.QBrush(self._mixed())

    def _mixed(self) -> QtGui.QColor:
        share = IDLE_SHADE_ALPHA / 255
        c = (self._colour.red(), self._colour.green(), self._colour.blue())
        return QtGui.QColor(*(round(b + (v - b) * share) for v, b in zip(c, self._background)))

    def set_background(self, background) -> None:
        """The plot's background (RGB) the shade is mixed over (the theme's)."""
        if tuple(background) != self._background:
            self._background = tuple(background)
            self._brush = QtGui.QBrush(self._mixed())
            self.update()

    def set_stretches(self, spans, colour) -> None:
        colour = QtGui.QColor(colour)
        if spans == self._spans and colour == self._colour:
            return
        self.prepareGeometryChange()
        self._spans = list(spans)
        self._colour = colour
        self._brush = QtGui.QBrush(self._mixed())
        self.update()

    def stretches(self) -> list[tuple[float, float]]:
        return list(self._spans)

    def colour(self) -> QtGui.QColor:
        """The shading's colour: the fabric's, faint (its alpha :data:`IDLE_SHADE_ALPHA`)."""
        colour = QtGui.QColor(self._colour)
        colour.setAlpha(IDLE_SHADE_ALPHA)
        return colour

    def painted_colour(self) -> QtGui.QColor:
        """The opaque colour painted: :meth:`colour` mixed over the background."""
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


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))
