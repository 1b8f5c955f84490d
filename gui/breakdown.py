"""Stacked step-time breakdown at the current point: one horizontal bar per fabric."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

import model

from .charts import fabric_styles

# Colours of the breakdown parts: neutral for compute, distinct hues for the costs the
# fabric causes (kept apart from the fabric colours, which name the rows instead).
PART_COLOURS = {
    "compute": "#9E9E9E",
    "tp_comm": "#C6DBEF",
    "pp_comm": "#6BAED6",
    "dp_comm": "#2171B5",
    "bubble": "#FDD49E",
    "loss_recovery": "#E31A1C",
    "cpu": "#8C510A",
    "optimizer": "#D9D9D9",
}


class BreakdownChart(pg.PlotWidget):
    """Seconds per training step, split into :data:`model.BREAKDOWN_KEYS`, per fabric."""

    def __init__(self, parent=None):
        super().__init__(parent=parent, background="w")
        pi = self.getPlotItem()
        pi.setMenuEnabled(False)
        pi.hideButtons()
        pi.setMouseEnabled(x=False, y=False)
        pi.showGrid(x=True, y=False, alpha=0.25)
        pi.setTitle("<span style='font-size:10pt; color:#222'><b>Step time at this point</b></span>")
        pi.setLabel("bottom", "Time per training step (s)")
        for ax in ("left", "bottom"):
            pi.getAxis(ax).setPen(pg.mkPen("#444444"))
            pi.getAxis(ax).setTextPen(pg.mkPen("#222222"))
        pi.getAxis("left").setWidth(90)
        self.bars: dict[str, pg.BarGraphItem] = {}
        for key in model.BREAKDOWN_KEYS:
            bar = pg.BarGraphItem(x0=[], y=[], width=[], height=0.6, brush=PART_COLOURS[key], pen=pg.mkPen(None))
            pi.addItem(bar)
            self.bars[key] = bar
        self.note = pg.TextItem("", color="#666666", anchor=(0, 0.5))
        pi.addItem(self.note)
        self.parts: dict[str, np.ndarray] = {}
        self._ticks = None

    def show_point(self, point, focus: str | None = None) -> None:
        bd = point.data["breakdown_s"]
        n = len(point.fabrics)
        y = np.arange(n)[::-1].astype(float)  # first fabric on top
        left = np.zeros(n)
        self.parts = {}
        for key in model.BREAKDOWN_KEYS:
            w = np.nan_to_num(np.atleast_1d(np.asarray(bd[key], dtype=float)), nan=0.0)
            w = np.maximum(w, 0.0)
            self.parts[key] = w
            self.bars[key].setOpts(x0=left.copy(), y=y, width=w, height=0.6)
            left = left + w
        styles = fabric_styles(point)
        ticks = [(float(y[i]), ("▶ " if name == focus else "") + styles[i].get("short", name))
                 for i, name in enumerate(point.fabrics)]
        if ticks != self._ticks:
            self.getPlotItem().getAxis("left").setTicks([ticks])
            self._ticks = ticks
        feas = np.atleast_1d(np.asarray(point.data["feasible"], dtype=bool))
        self.note.setText("" if feas.all() else "no plan fits: " + ", ".join(
            styles[i].get("short", nm) for i, nm in enumerate(point.fabrics) if not feas[i]))
        total = float(left.max()) if left.size else 1.0
        total = total if total > 0 else 1.0
        self.getPlotItem().setXRange(0, total * 1.04, padding=0)
        self.getPlotItem().setYRange(-0.6, n - 0.4 + (0.7 if self.note.toPlainText() else 0.0), padding=0)
        self.note.setPos(0, n - 0.4 + 0.35)

    @staticmethod
    def legend_html() -> str:
        """The parts' colours as text, for a label next to the chart."""
        return " ".join(f"<span style='color:{PART_COLOURS[k]}'>■</span>&nbsp;{model.BREAKDOWN_LABELS[k]}"
                        for k in model.BREAKDOWN_KEYS)

    def totals(self) -> np.ndarray:
        return sum(self.parts.values()) if self.parts else np.zeros(0)


__all__ = ["BreakdownChart", "PART_COLOURS"]
