"""The stage view of presentation mode: what a room reads from the back, and nothing else.

One large chart the presenter chooses (utilisation, days, TCO or cost per run), a row of headline numbers
(the engine's pick and its margin, its training days, its cost per run and the money it saves per year
against the fabric the customer has today) and at most three sliders. No menus, toolbars, docks or table:
:class:`gui.features.presentation_mode.PresentationMode` hides them and gives them back on Esc.

The view draws from the controller's snapshots like the window does; its sliders write through the same
controller (a fabric slider through the controls panel, so "Apply to every fabric" holds here too).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from model import catalog, recommend
from model.results import fabric_summaries

from gui.charts.sweep import ChartWidget
from gui.i18n import fmt_money, fmt_number, fmt_percent, translate
from gui.present.plausibility import point_stalls
from gui.theme import muted, scaled_pt

STAGE_KINDS = ("duration", "utilisation", "tco", "cost_per_run")  # the first is shown first
STAGE_SLIDERS = ("cluster.nodes", "workload.params_b", "fabric.latency_us")  # at most three, by design
HEADLINE_PT = 20.0  # a headline number's size before the presentation scale [pt]; readable at ~8 m on a 2 m screen
CAPTION_PT = 10.0
LINE_WIDTH = 3.0  # the stage chart's curves [px]


def _kind_names() -> dict:
    return {"duration": translate("Stage", "Training days"), "utilisation": translate("Stage", "GPU utilisation"),
            "tco": translate("Stage", "Total cost of ownership"), "cost_per_run": translate("Stage", "Cost per run")}


def headline(snap, rec) -> dict:
    """The headline numbers of ``snap`` (no Qt): the pick (or the best of a tie), its margin and runner-up,
    its days and cost per run, and the money it saves per year for the same work as the takeaway line
    states it (:func:`model.recommend.same_work` against :func:`model.recommend.money_baseline`: TCP
    Ethernet, the runner-up when the pick is Ethernet, the fastest other fabric that runs when the baseline
    stalls). Values are ``None`` where the engine has none."""
    sums = {f.fabric: f for f in fabric_summaries(snap.point)}
    best = None if rec is None else (rec.pick or rec.best)
    if best not in sums:
        return dict(pick=None)
    f = sums[best]
    preferred = rec.runner_up if best == recommend.baseline_fabric(snap.point) else None
    base_id = recommend.money_baseline(snap.point, best, preferred, point_stalls(snap.point))
    saved = None
    if base_id is not None and base_id != best:
        saved = recommend.same_work(snap.point, best, base_id).saved_per_year
    return dict(pick=best, tie=rec.pick is None, equivalent=tuple(rec.equivalent), margin=rec.margin,
                runner_up=rec.runner_up, days=f.train_days_with_interruptions, cost_per_run=f.cost_per_run,
                currency=f.currency, saved_per_year=saved, baseline=base_id)


def _short(fabric: str | None) -> str:
    if fabric is None:
        return "–"
    return catalog.fabric_style(fabric).get("short", fabric) if fabric in catalog.BUILTIN_FABRICS else fabric


class _Tile(QtWidgets.QFrame):
    """A caption over a large number."""

    def __init__(self, name: str):
        super().__init__()
        self.setObjectName(name)
        self.caption = QtWidgets.QLabel()
        self.value = QtWidgets.QLabel()
        self.value.setObjectName(name + "Value")
        self.caption.setWordWrap(True)
        self.value.setWordWrap(True)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(8, 2, 8, 2)
        lay.setSpacing(0)
        lay.addWidget(self.caption)
        lay.addWidget(self.value)
        self.apply_text_scale()

    def apply_text_scale(self) -> None:
        self.caption.setStyleSheet(f"color:{muted()}; font-size:{scaled_pt(CAPTION_PT)}pt")
        self.value.setStyleSheet(f"font-size:{scaled_pt(HEADLINE_PT)}pt; font-weight:600")

    def set(self, caption: str, value: str) -> None:
        if self.caption.text() != caption:
            self.caption.setText(caption)
        if self.value.text() != value:
            self.value.setText(value)


class StageView(QtWidgets.QWidget):
    """The stage: ``chart`` (one :class:`ChartWidget`), ``tiles`` (the headline numbers), ``sliders``
    (scenario path → slider) and ``chart_combo`` (the presenter's choice of chart)."""

    def __init__(self, window):
        super().__init__()
        self.setObjectName("stageView")
        self.window = window
        self.chart_combo = QtWidgets.QComboBox()
        self.chart_combo.setObjectName("stageChartCombo")
        for kind in STAGE_KINDS:
            self.chart_combo.addItem("", kind)
        self.chart_combo.currentIndexChanged.connect(self._kind_chosen)
        self.hint = QtWidgets.QLabel()
        self.hint.setObjectName("stageHint")
        top = QtWidgets.QHBoxLayout()
        top.addWidget(self.chart_combo)
        top.addStretch(1)
        top.addWidget(self.hint)
        self.tiles = {name: _Tile(name) for name in ("pickTile", "daysTile", "costTile", "savedTile")}
        row = QtWidgets.QHBoxLayout()
        row.setSpacing(12)
        for name, tile in self.tiles.items():
            row.addWidget(tile, 2 if name in ("pickTile", "savedTile") else 1)
        self.chart = ChartWidget(STAGE_KINDS[0], line_width=LINE_WIDTH)
        self.chart.setObjectName("stageChart")
        self.chart.setMinimumHeight(200)
        self.chart.plot_notes = False  # no text over the curves: the notes on hover
        self.chart.standalone_geometry = True  # linked to no other chart: it takes the view's size again
        self.sliders = {}
        bottom = QtWidgets.QHBoxLayout()
        bottom.setSpacing(24)
        for path in STAGE_SLIDERS:
            sl = self.sliders[path] = window.controls.make_slider(path)
            bottom.addWidget(sl, 1)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(16, 8, 16, 8)
        lay.setSpacing(6)
        lay.addLayout(top)
        lay.addLayout(row)
        lay.addWidget(self.chart, 1)
        lay.addLayout(bottom)
        self.retranslate()

    # -- texts ---------------------------------------------------------------------
    def retranslate(self) -> None:
        names = _kind_names()
        for i, kind in enumerate(STAGE_KINDS):
            self.chart_combo.setItemText(i, names[kind])
        self.chart_combo.setToolTip(translate("Stage", "The chart the room sees"))
        self.hint.setText(translate("Stage", "Esc: back to the full window"))
        self.hint.setStyleSheet(f"color:{muted()}")
        main = self.window.controls
        for path, sl in self.sliders.items():
            twin = main.twin(path)
            sl.retranslate(twin.label_text, twin.unit)
            sl.set_label(twin.label_text)
        self.chart.retranslate()

    def apply_text_scale(self) -> None:
        for tile in self.tiles.values():
            tile.apply_text_scale()
        self.chart.apply_text_scale()

    # -- following the scenario ----------------------------------------------------------
    def _kind_chosen(self, _i: int) -> None:
        snap = self.window.controller.snapshot
        if snap is not None:
            self.show_snapshot(snap)
        self.chart.reset_zoom()

    @property
    def kind(self) -> str:
        return self.chart_combo.currentData()

    def set_kind(self, kind: str) -> None:
        self.chart_combo.setCurrentIndex(STAGE_KINDS.index(kind))

    def sync(self) -> None:
        """The sliders show the scenario (through the controls panel's, which the window keeps in sync)."""
        main = self.window.controls
        for path, sl in self.sliders.items():
            twin = main.twin(path)
            if twin.value() is not None:
                sl.set_value(twin.value())
            sl.set_subject(twin.subject)

    def show_snapshot(self, snap) -> None:
        if snap is None:
            return
        w = self.window
        self.sync()
        self.chart.set_kind(self.kind)
        self.chart.show_view(w.view_of(snap))
        self.show_headline(snap, w.recommendation.recommendation)

    def show_headline(self, snap, rec) -> None:
        h = headline(snap, rec)
        t = self.tiles
        if h["pick"] is None:
            for tile in t.values():
                tile.set("", "–")
            t["pickTile"].set(translate("Stage", "Engine's pick"), translate("Stage", "none fits"))
            return
        code = h["currency"]
        if h["tie"]:
            pick = translate("Stage", "a tie: {fabrics}").format(fabrics=" · ".join(_short(f) for f in h["equivalent"]))
        else:
            pick = translate("Stage", "{pick}, {margin} ahead of {other}").format(
                pick=_short(h["pick"]), margin=fmt_percent(h["margin"] * 100, 2), other=_short(h["runner_up"]))
        t["pickTile"].set(translate("Stage", "Engine's pick and margin"), pick)
        t["daysTile"].set(translate("Stage", "Training days"), fmt_number(h["days"], 1))
        t["costTile"].set(translate("Stage", "Cost per run"), fmt_money(h["cost_per_run"], code))
        saved = h["saved_per_year"]
        t["savedTile"].set(translate("Stage", "Saved per year vs {fabric}, same runs").format(
            fabric=_short(h["baseline"])), "–" if saved is None else fmt_money(saved, code, signed=True))


__all__ = ["STAGE_KINDS", "STAGE_SLIDERS", "StageView", "headline"]
