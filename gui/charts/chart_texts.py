"""A chart's words: the title fitted to its width, the axis labels, the legend and the caption notes
(:class:`ChartTexts`, a mixin of :class:`gui.charts.sweep.ChartWidget`)."""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui

from gui.i18n import translate
from gui.theme import scaled_pt, text_scale
from gui.present.series import format_money
from gui.charts.plot_items import CAPTION_MIN_PLOT_PX, LEFT_AXIS_WIDTH, STEP_NOTE_MIN_HEIGHT, ChartLegend, _plain
from gui.charts.chart_readout import _caption_line, _esc


class ChartTexts:
    """The chart's words: its title fitted to the width, axis labels, legend, caption notes and text scale (a
    mixin of :class:`gui.charts.sweep.ChartWidget`)."""

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
        return translate("Charts", "Training duration") if self.series.extra else self.series.title

    def _fitted_title(self, title: str, data: dict) -> str:
        """``title``, or its short form (``data.short_title``: the baseline fabric by its short name),
        or that cut with an ellipsis, whichever first fits the plot's width: a title wider than the plot
        would make the plot wider than the chart and cut its right end off."""
        bold = QtGui.QFont()
        bold.setPointSizeF(scaled_pt(11))
        bold.setBold(True)
        metrics = QtGui.QFontMetricsF(bold)
        room = self.width() - self.getPlotItem().getAxis("left").width() - 16
        if metrics.horizontalAdvance(title) <= room:
            return title
        title = data.short_title or title
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
        text = data.y_label
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

    def _set_texts(self, title: str, data: dict) -> None:
        """Title (with the profile/scenario caption), axis labels, tick formats, log modes:
        touched only when they change (setting HTML text costs a few ms)."""
        scale = text_scale()
        fit_key = (title, data.short_title, self.caption, self.width(),
                   self.getPlotItem().getAxis("left").width(), scale)
        if self._title_fit is None or self._title_fit[0] != fit_key:  # measured once per text and width
            fitted = self._fitted_title(title, data)
            self._title_fit = (fit_key, fitted, self.caption if self._caption_fits(fitted) else "")
        title, caption = self._title_fit[1], self._title_fit[2]
        title_key = (title, caption, self.title_colour, self.caption_colour, scale)
        key = (data.x_label, data.y_label, data.log_x, data.log_y, self.kind, self._currency, scale)
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
        pi.setLabel("bottom", data.x_label, **label_style)
        pi.getAxis("bottom").showLabel(self.x_label_shown)
        pi.setLabel("left", self._y_label(data), **label_style)
        left = pi.getAxis("left")
        if self.kind == "cost_per_run":
            code = self._currency
            left.formatter = lambda v: format_money(v, code, axis=True)
        elif data.log_y:
            left.formatter = _plain
        else:
            left.formatter = None
        left.picture = None
        left.update()
        if pi.ctrl.logXCheck.isChecked() != data.log_x or pi.ctrl.logYCheck.isChecked() != data.log_y:
            pi.setLogMode(x=data.log_x, y=data.log_y)
            self._x_key = None  # pyqtgraph turned x auto-range back on: the sweep's x range again

    def retranslate(self) -> None:
        """Draw the texts again in the current language on the next :meth:`show_view` (the title, the
        axis labels, the legend, the notes); the zoom stays."""
        self._drawn = None
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
        QtCore.QTimer.singleShot(0, self, self._refit_legend)
        for item in (self.note, self.gap_note):
            f = QtGui.QFont()
            f.setPointSizeF(scaled_pt(9))
            item.setFont(f)
        self._texts = None  # title and axis labels again at the new size
        self._show_stall_caption()
        if self.series is not None:
            self._set_texts(translate("Charts", "Training duration") if self.series.extra else self.series.title,
                            self.series)

    def _sync_legend(self, data) -> None:
        wanted = [(s.short, self.curves[s.fabric]) for s in data.series] if self.fabric_legend else []
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
        for s in (self.series.series if self.series is not None else ()):
            if s.fabric == fabric:
                return s.short
        return fabric or ""

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
