"""The fabric gap a mixture-of-experts run opens against a dense run of the same compute (Tools ▸ MoE vs dense).

:class:`MoeGapDialog` evaluates a mixture-of-experts scenario and its dense twin
(:func:`model.moe_gap.dense_twin`: the same layers, attention and active MLP compute, no experts) for
every fabric of the scenario, and draws per fabric the step time over the best fabric's for both, side
by side on a logarithmic axis: the extra a slower fabric costs the MoE run (its expert all-to-all crosses
the fabric when expert parallelism spans nodes) beside what it costs the dense run. The numbers are
``fabric-whatif moe-gap``'s.

The scenario is the window's when it is a mixture-of-experts model, or one of the MoE presets
(DeepSeek-V3 shape, expert parallelism over 8 nodes; Mixtral 8x22B shape, experts inside a node).
An evaluation that fails shows the engine's one-line message; the chart keeps the last good result.
"""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtWidgets

import model
from model import EVALUATION_FAILURES, catalog, evaluation_error, moe_gap

from gui.i18n import QT_TRANSLATE_NOOP, fmt_sig, translate
from gui.dialogs.nccl import chart_layout

PRESETS = (("deepseek", "moe_deepseek_v3_shape.toml",
            QT_TRANSLATE_NOOP("MoeGapDialog", "DeepSeek-V3 shape preset (EP 64 over 8 nodes)")),
           ("mixtral", "moe_mixtral_8x22b.toml",
            QT_TRANSLATE_NOOP("MoeGapDialog", "Mixtral 8x22B shape preset (experts inside a node)")))
MOE_BRUSH, DENSE_BRUSH = (214, 96, 39), (64, 112, 176)
BAR_WIDTH = 0.36


class RatioAxis(pg.AxisItem):
    """A log₁₀ axis labelled as ratios: 1×, 2×, 10× ..."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph name)
        return [f"{fmt_sig(10 ** v, 3)}×" for v in values]  # 1,000×, never 1e+03×


class FabricAxis(pg.AxisItem):
    """Fabric labels under their bars (integer positions)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.labels: tuple = ()

    def tickValues(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph name)
        return [(1.0, [float(i) for i in range(len(self.labels))])]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph name)
        return [self.labels[int(v)] if 0 <= int(v) < len(self.labels) else "" for v in values]


def ratio_text(x: float) -> str:
    return "–" if not math.isfinite(x) else (f"{x:,.2f}×" if x < 100 else f"{x:,.0f}×")


class MoeGapDialog(QtWidgets.QDialog):
    """Per fabric: the MoE run's and its dense twin's step time over the best fabric's."""

    def __init__(self, controller, parent=None):
        super().__init__(parent)
        self.controller = controller
        self.gap: dict | None = None
        self.setObjectName("moeGapDialog")
        self.setWindowTitle(translate("MoeGapDialog", "MoE vs dense: fabric gap"))
        self.resize(900, 600)
        self.source = QtWidgets.QComboBox()
        self._offer_current(controller.scenario)
        for key, _, text in PRESETS:
            self.source.addItem(translate("MoeGapDialog", text), key)
        form = QtWidgets.QHBoxLayout()
        form.addWidget(QtWidgets.QLabel(translate("MoeGapDialog", "Mixture-of-experts run")))
        form.addWidget(self.source)
        form.addStretch(1)
        # the bars' key beside the chooser, not over the bars
        self.legend_label = QtWidgets.QLabel(" &nbsp; ".join(
            f"<span style='color:rgb{colour}'>■</span>&nbsp;{html.escape(name)}" for colour, name in (
                (MOE_BRUSH, translate("MoeGapDialog", "mixture of experts")),
                (DENSE_BRUSH, translate("MoeGapDialog", "dense twin (same active compute)")))))
        self.legend_label.setObjectName("moeGapLegend")
        form.addWidget(self.legend_label)
        self.fabric_axis = FabricAxis(orientation="bottom")
        self.plot = pg.PlotWidget(axisItems={"bottom": self.fabric_axis, "left": RatioAxis(orientation="left")})
        self.plot.setLabel("left", translate("MoeGapDialog", "step time over the best fabric's"))
        self.plot.setMouseEnabled(x=False, y=False)
        self.moe_bars = pg.BarGraphItem(x=[], height=[], width=BAR_WIDTH, brush=MOE_BRUSH,
                                        name=translate("MoeGapDialog", "mixture of experts"))
        self.dense_bars = pg.BarGraphItem(x=[], height=[], width=BAR_WIDTH, brush=DENSE_BRUSH,
                                          name=translate("MoeGapDialog", "dense twin (same active compute)"))
        self.plot.addItem(self.moe_bars)
        self.plot.addItem(self.dense_bars)
        self.summary, self.error_label = chart_layout(self, form, self.plot)
        self.summary.setObjectName("moeGapSummary")
        self.source.currentIndexChanged.connect(self.refresh)
        controller.signals.on({"scenario"}, lambda: self._scenario_changed(controller.scenario), receiver=self)
        self.refresh()

    def _offer_current(self, scenario) -> None:
        """List the window's scenario first while it is a mixture-of-experts model."""
        has = self.source.findData("current") >= 0
        if moe_gap.is_moe(scenario) and not has:
            self.source.insertItem(0, translate("MoeGapDialog", "Current scenario"), "current")
        elif has and not moe_gap.is_moe(scenario):
            self.source.removeItem(self.source.findData("current"))

    def _scenario_changed(self, scenario) -> None:
        """The window's scenario changed: offer it (or not) and redraw if it is the one shown."""
        shown = self.source.currentData()
        self.source.blockSignals(True)
        self._offer_current(scenario)
        self.source.blockSignals(False)
        if shown == "current" or self.source.currentData() != shown:
            self.refresh()

    def scenario(self):
        key = self.source.currentData()
        if key == "current":
            return self.controller.scenario
        file = next(f for k, f, _ in PRESETS if k == key)
        return model.load_scenario(catalog.ASSETS_DIR / "presets" / file)

    def refresh(self, *_) -> bool:
        """Evaluate the chosen run and its dense twin (all fabrics at once) and redraw."""
        try:
            s = self.scenario()
            gap = moe_gap.fabric_gap(s)
        except EVALUATION_FAILURES as err:
            self.error_label.setText(evaluation_error(err))
            return False
        self.error_label.setText("")
        self.gap = gap
        n = len(gap["labels"])
        x = np.arange(n, dtype=float)
        moe = 1.0 + np.asarray(gap["moe_slowdown"], dtype=float)
        dense = 1.0 + np.asarray(gap["dense_slowdown"], dtype=float)
        self.fabric_axis.labels = tuple(gap["labels"])
        # bars from 1× (the best fabric) up, on a log axis: heights are log₁₀ of the ratio; a fabric without a
        # plan that fits has no bar
        self.moe_bars.setOpts(x=x - BAR_WIDTH / 2, height=np.nan_to_num(np.log10(moe), nan=0.0), width=BAR_WIDTH)
        self.dense_bars.setOpts(x=x + BAR_WIDTH / 2, height=np.nan_to_num(np.log10(dense), nan=0.0), width=BAR_WIDTH)
        top = np.nanmax(np.log10(np.concatenate([moe, dense]))) if np.any(np.isfinite(moe)) else 1.0
        self.plot.setYRange(0.0, max(top * 1.08, 0.05), padding=0)
        self.plot.setXRange(-0.6, n - 0.4, padding=0)
        self.fabric_axis.picture = None
        self.fabric_axis.update()
        lines = [translate("MoeGapDialog", "{fabric}: MoE {moe}, dense {dense} of the best fabric's step time").format(
            fabric=label, moe=ratio_text(float(moe[i])), dense=ratio_text(float(dense[i])))
            for i, label in enumerate(gap["labels"])]
        self.summary.setText(translate("MoeGapDialog", "{name}. The MoE run's experts exchange every token "
                                                       "(all-to-all) on the critical path; the dense twin does "
                                                       "the same compute without it.").format(name=s.name)
                             + "\n" + "\n".join(lines))
        return True
