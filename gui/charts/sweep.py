"""The three charts (utilisation, training duration, TCO) as one widget.

The data comes from the presentation layer, :mod:`gui.present.series` (no Qt), so that the
exports, the CSV and the window draw the same thing; :class:`ChartWidget` (a
``pyqtgraph.PlotWidget``) draws it: curves are created once per fabric and then updated
with ``setData``; a marker shows the current value, a read-out follows the mouse, and the
title names the profile set and the scenario.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gui.i18n import translate
from gui.present.series import CHART_KINDS, MIN_TCO_SPAN_PCT, ChartData
from gui.present.view import SnapshotView
from gui.charts.chart_readout import ChartReadout, short_name
from gui.charts.chart_texts import ChartTexts
from gui.charts.plot_items import LEFT_AXIS_WIDTH, STALL_COLOUR, STEP_NOTE_MIN_HEIGHT, ChartLegend, DataCurve, GridLines, \
    IdleStretches, MarkerItem, StepMarks, ValueAxis, _show_data, idle_stretches, make_pen, steady_range


class ChartWidget(ChartTexts, ChartReadout, pg.PlotWidget):
    """One chart: a curve per fabric, a marker at the current value, hover read-out.

    Call :meth:`show_view` with every new :class:`~gui.present.view.SnapshotView` (a snapshot with its
    overlays: the TCO baseline is the view's); curves are created the first
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
        self.view: SnapshotView | None = None  # the view drawn (its sweep and point read in the hover)
        self._drawn = None  # the chart data the curves show (None: draw them again, e.g. in another language)
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
        pi.addItem(self.idle_band, ignoreBounds=True)
        # under the grid (-100; set after adding: the view lifts an item added below its own level): drawn
        # opaque, mixed over the background
        self.idle_band.setZValue(-150)
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
    @property
    def tco_baseline(self) -> str | None:
        """The fabric the TCO chart is measured from: the drawn view's (``None``: the default)."""
        return self.view.overlays.tco_baseline if self.view is not None else None

    def set_kind(self, kind: str) -> None:
        """Show another of :data:`~gui.present.series.CHART_KINDS` (drawn on the next :meth:`show_view`)."""
        if kind not in CHART_KINDS:
            raise ValueError(f"kind {kind!r}: one of {', '.join(CHART_KINDS)}")
        if kind != self.kind:
            self.kind = kind
            self._drawn = None

    def show_view(self, view: SnapshotView, *, now: bool = False) -> ChartData:
        """Draw ``view``: this chart's kind of its sweep (against its TCO baseline), the marker at its current
        point, the caption naming its profile set and scenario. Returns the chart data drawn (the last drawn,
        while a chart that :attr:`draws_only_when_shown` is hidden: it draws ``view`` when shown, or on
        :meth:`catch_up`; ``now`` draws at once all the same)."""
        if not now and self.draws_only_when_shown and not self.isVisible():
            self._pending = view
            return self.series
        self._pending = None
        self.view = view
        parts = [p for p in (translate("Charts", "profile: {name}").format(name=view.profile_set)
                             if view.profile_set else "", short_name(view.scenario_name)) if p]
        self.caption = "  ·  ".join(parts)
        data = view.chart(self.kind)
        focus = view.focus
        if data is self._drawn and focus == self._focus and float(self.devicePixelRatioF()) == self._dpr:
            # the same sweep (only the point moved): curves stay, the marker moves
            self._set_texts(translate("Charts", "Training duration") if data.extra else data.title, data)
            self._update_marker(view, data)
            if self._hover_pos is not None:
                self._update_readout(self._hover_pos)
            return data
        self._drawn = data
        self.series = data
        self._currency = data.currency
        extra_for = focus if focus in {e.fabric for e in data.extra} else None
        title = translate("Charts", "Training duration") if data.extra else data.title
        self._set_texts(title, data)
        self._focus = focus
        dpr = max(float(self.devicePixelRatioF()), 1.0)
        if dpr != self._dpr:  # moved to a screen with another scale: pens again
            self._dpr = dpr
            self._styles = {k: None for k in self._styles}
            for c in self.extra_curves.values():
                self.getPlotItem().removeItem(c)
            self.extra_curves = {}
        x = data.x
        seen = set()
        idle_for = None  # (fabric, its idle points, colour): the fabric in focus, else the first with idle GPUs
        drawn_x = {}  # each fabric's curve's points: its secondary curve is drawn through the same ones
        for k, s in enumerate(data.series):
            name = s.fabric
            seen.add(name)
            curve = self.curves.get(name)
            if curve is None:
                curve = DataCurve(name=s.short)
                curve.setZValue(3)
                self.getPlotItem().addItem(curve)
                self.curves[name] = curve
                self._styles[name] = None
            if self._styles.get(name) != (s.style, focus == name, self.line_width):
                curve.setPen(self._pen_for(s.style, focus == name))
                self._styles[name] = (s.style, focus == name, self.line_width)
                curve.setZValue(4 if focus == name else 3)
            cx, cy, idle_on = data.in_use[k]
            drawn_x[name] = cx
            curve.setData(cx, cy)  # DataCurve maps to log10, gaps where <= 0
            if not curve.isVisible():
                curve.show()
            if idle_on and (idle_for is None or name == focus) and (idle_for is None or idle_for[0] != focus):
                idle_for = (name, np.asarray(s.idle_gpus, dtype=bool) & np.isfinite(s.y), s.style["colour"])
        self._draw_idle(x, idle_for, data.log_x)
        # the duration without interruptions: for the fabric in focus (all four would hide the others)
        for e in data.extra:
            name = e.fabric
            curve = self.extra_curves.get(name)
            if name != extra_for:
                if curve is not None and curve.isVisible():
                    curve.hide()
                continue
            if curve is None:
                curve = self._faint_curve(self.extra_curves, name)
                curve.setPen(make_pen(e.style, 1.0 * self._dpr, alpha=110))
            on = np.isin(x, drawn_x[name]) if name in drawn_x else np.ones(x.shape, dtype=bool)
            _show_data(curve, x[on], np.asarray(e.y)[on])
        for name, curve in self.curves.items():
            if name not in seen and curve.isVisible():
                curve.hide()
                curve.setData([], [])
        if not data.extra:
            for curve in self.extra_curves.values():
                if curve.isVisible():
                    curve.hide()
        self._fit_x(data.drawn_x, data.log_x)
        self._update_marker(view, data)  # before the y fit: it holds the new markers
        self.fit_y()
        self._sync_legend(data)
        if not data.note:
            self.note.hide()
        else:
            self.note.setText(data.note)
            self.note.show()
        ys = [s_.y for s_ in data.series]
        gap = bool(ys) and bool(np.all(np.isnan(np.vstack(ys)), axis=0).any())
        self.has_gap = gap
        if (gap and self.plot_notes) != self.gap_note.isVisible():
            self.gap_note.setText(translate("Charts", "blank: no parallel plan fits there") if gap else "")
            self.gap_note.setVisible(gap and self.plot_notes)
        self.set_caption_notes("stall", [(line, STALL_COLOUR) for line in data.stall_note.split("\n") if line])
        self._update_step_marks(data)
        self._place_overlays()
        if self._hover_pos is not None:
            self._update_readout(self._hover_pos)
        return data

    def catch_up(self) -> None:
        """Draw the result held back while hidden (see :attr:`draws_only_when_shown`), now."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self.show_view(pending, now=True)

    def showEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        super().showEvent(ev)
        self.catch_up()

    def _update_step_marks(self, data) -> None:
        """Rings where a curve steps by a whole-number rule, and the note that says what they mean."""
        xs, ys, colours = [], [], []
        x = np.asarray(data.x, dtype=float)
        for s in data.series:
            marks = s.whole_number
            if marks is None or not marks.any():
                continue
            idx = np.flatnonzero(marks)
            xs.append(x[idx])
            ys.append(s.y[idx])
            colours += [s.style["colour"]] * idx.size
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
            log_y = bool(self.series and self.series.log_y)
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
            self._fit_x(self.series.drawn_x, self.series.log_x)
        self.fit_y()

    def _pen_for(self, style: dict, focus: bool) -> QtGui.QPen:
        # cosmetic widths are device pixels: scale by the screen's ratio so lines keep their
        # weight on high-DPI screens
        w = self.line_width * self._dpr
        if self.thick_when_idle and self.line_width > 1.0:
            w *= float(style.get("width_scale", 1.0))
        if focus and self.line_width > 1.0:
            w *= 1.3
        return make_pen(style, w)

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
            for s in self.series.series:
                c = self.curves.get(s.fabric)
                if c is not None:
                    c.setPen(self._pen_for(s.style, self._focus == s.fabric))
                    self._styles[s.fabric] = (s.style, self._focus == s.fabric, self.line_width)

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


__all__ = ["ChartWidget"]
