"""Sensitivity at the current point: tornado charts for the fabric in focus.

:class:`TornadoPanel` shows two tornados side by side — training days (with
interruptions) and TCO — from :func:`model.analysis.tornado`: each ranged input swung
to the low and high end of its range, one at a time, the bars running from the nominal
value to the result at each end, largest effect on top. The axis is never narrower
than :data:`MIN_SPAN_FRACTION` of the nominal value, and each title gives the largest
swing in per cent, so a small effect looks small; ranges are in the scenario's currency;
an input the scenario fixes is swung across the profile's relative spread around it
(:func:`model.analysis.ranged_values`) and says so.
"""

from __future__ import annotations

import html
import math
import re

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

import model
from model import analysis, catalog, recommend
from model.results import fabric_summaries

from gui.i18n import fmt_money, fmt_number, fmt_percent, fmt_sig, translate
from gui.i18n_data import tr_data
from gui.present.text import profile_set_name, tr_source
from gui.theme import scaled_pt, text_scale

LOW_COLOUR = "#56B4E9"   # input at its low end (Okabe-Ito sky blue)
HIGH_COLOUR = "#E69F00"  # input at its high end (Okabe-Ito orange)
TITLE_PT, TICK_PT = 10.0, 8.5  # a tornado's title and labels (point sizes before presentation scaling)
MIN_TITLE_ROOM_PX = 80  # narrower than this the chart is not laid out yet: the notes wrap, none dropped
ROW_LINES = 1.25  # each row takes at least this many label heights, so two labels never touch



def input_name(key: str) -> str:
    names = {
        "latency_us": translate("Tornado", "Latency"),
        "loss_rate": translate("Tornado", "Packet loss"),
        "link_gbps": translate("Tornado", "Bandwidth per NIC"),
        "achievable_fraction": translate("Tornado", "Achievable bandwidth"),
        "cpu_use_at_line_rate": translate("Tornado", "CPU use at line rate"),
        "network_cost_per_node_cny": translate("Tornado", "Network cost per node"),
        "electricity_usd_per_kwh": translate("Tornado", "Electricity price"),
        "pue": translate("Tornado", "PUE"),
    }
    return names.get(key, key)


MIN_SPAN_FRACTION = 0.05
NEGLIGIBLE_PCT = 0.1
"""A largest swing under this share of the nominal value [%] is called negligible in the tornado's title (a guess:
a tenth of a per cent is below the engine's own precision against published runs, see the validation tables)."""
"""Smallest width of a tornado's axis, as a fraction of the nominal value: an effect of minutes on a
13-day run stays a sliver instead of filling the chart."""


def range_text(key: str, lo: float, hi: float, currency: str = "", cny_per_usd: float = 1.0) -> str:
    """An input's range in the scenario's units; money in the scenario's ``currency``."""
    if key in ("loss_rate", "achievable_fraction", "cpu_use_at_line_rate"):
        return f"{fmt_sig(lo * 100, 2)}–{fmt_sig(hi * 100, 2)} %"
    if key == "electricity_usd_per_kwh":  # the site range is in USD; a CNY scenario reads CNY
        k, sym = (cny_per_usd, "¥") if currency == "CNY" else (1.0, "$")
        return f"{sym}{fmt_sig(lo * k, 3)}–{fmt_sig(hi * k, 3)}/kWh"
    if key == "network_cost_per_node_cny":
        k, sym = (1.0, "¥") if currency in ("CNY", "") else (1.0 / cny_per_usd, "$")
        return f"{sym}{fmt_sig(lo * k, 3)}–{fmt_sig(hi * k, 3)}"
    unit = {"latency_us": " µs", "link_gbps": " Gb/s"}.get(key, "")
    return f"{fmt_sig(lo, 3)}–{fmt_sig(hi, 3)}{unit}"


def swing_label(sw, currency: str = "", cny_per_usd: float = 1.0) -> str:
    key = sw.field.rsplit(".", 1)[-1]
    text = f"{input_name(key)} ({range_text(key, sw.low_value, sw.high_value, currency, cny_per_usd)})"
    if getattr(sw, "fixed", False):  # set by the scenario: the profile's relative spread around it
        text += translate("Tornado", " · scenario value ± profile spread")
    return text


def axis_range(values, nominal: float) -> tuple[float, float]:
    """The x-range of a tornado: the values with a margin, at least MIN_SPAN_FRACTION of the nominal wide."""
    lo, hi = min(values), max(values)
    span = hi - lo
    floor = MIN_SPAN_FRACTION * abs(nominal) if math.isfinite(nominal) else 0.0
    if span < floor:  # centred on the nominal value
        lo, hi = nominal - floor / 2, nominal + floor / 2
        lo, hi = min(lo, min(values)), max(hi, max(values))
        return lo, hi
    span = span or 1.0
    return lo - 0.08 * span, hi + 0.08 * span


def tornado_rows(swings, metric: str, nominal: float, currency: str = "", cny_per_usd: float = 1.0) -> list[dict]:
    """Rows for one tornado, largest effect first: label, low/high results and their deltas (no Qt)."""
    rows = []
    for sw in swings:
        lo, hi = (sw.days_low, sw.days_high) if metric == "days" else (sw.tco_low, sw.tco_high)
        lo, hi = float(lo), float(hi)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            continue
        rows.append(dict(label=swing_label(sw, currency, cny_per_usd), field=sw.field, low=lo, high=hi, d_low=lo - nominal,
                         d_high=hi - nominal, span=abs(hi - lo), source=sw.source))
    rows.sort(key=lambda r: -r["span"])
    return [r for r in rows if r["span"] > 0] or rows[:0]


class _LabelAxis(pg.AxisItem):
    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.formatter = None

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph name)
        if self.formatter is None:
            return super().tickStrings(values, scale, spacing)
        return [self.formatter(v) for v in values]


class TornadoChart(pg.PlotWidget):
    def __init__(self, metric: str, parent=None):
        super().__init__(parent=parent, background="w", axisItems={"bottom": _LabelAxis("bottom")})
        self.quantity = metric  # not "metric": that is QPaintDevice.metric()
        pi = self.getPlotItem()
        pi.setMenuEnabled(False)
        pi.hideButtons()
        pi.setMouseEnabled(x=False, y=False)
        pi.showGrid(x=True, alpha=0.25)
        self.low = pg.BarGraphItem(x0=[], y=[], width=[], height=0.6, brush=LOW_COLOUR, pen=pg.mkPen("#3a7ca5"))
        self.high = pg.BarGraphItem(x0=[], y=[], width=[], height=0.6, brush=HIGH_COLOUR, pen=pg.mkPen("#a86f00"))
        pi.addItem(self.low)
        pi.addItem(self.high)
        self.nominal_line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen("#222222", width=1.5))
        pi.addItem(self.nominal_line)
        self.rows: list[dict] = []
        self._shown = None  # (rows, nominal, title, formatter) last given to show_rows
        self._drawn_width = 0
        pi.vb.sigResized.connect(self._plot_resized)
        self.empty = pg.TextItem("", color="#666666", anchor=(0.5, 0.5))
        pi.addItem(self.empty)

    def show_rows(self, rows, nominal: float, title: str, formatter) -> None:
        """Draw ``rows`` (largest effect first) around ``nominal``; only as many rows as the plot's height
        holds without their labels overlapping (the smaller effects drop off, the title says how many)."""
        self._shown = (rows, nominal, title, formatter)
        self.updateGeometry()  # another number of rows: another size hint
        self._draw()

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt name): room for every row's label, title and axis
        rows = len(self._shown[0]) if self._shown is not None else 4
        line = self.label_height_px()
        return QtCore.QSize(360, int(max(rows, 2) * line * ROW_LINES + 3.5 * line + 24))

    def row_pitch_px(self) -> float:
        """Screen distance between two rows' labels (pixels)."""
        vb = self.getPlotItem().vb
        lo, hi = vb.viewRange()[1]
        return vb.height() / (hi - lo) if hi > lo else 0.0

    def label_height_px(self) -> float:
        return float(QtGui.QFontMetrics(self.tick_font()).height())

    def tick_font(self) -> QtGui.QFont:
        font = QtGui.QFont(self.font())
        font.setPointSizeF(scaled_pt(TICK_PT))
        return font

    def _rows_that_fit(self, n: int) -> int:
        """How many rows of labels the plot holds at the current text size (at least one)."""
        vb = self.getPlotItem().vb
        height = vb.height() if vb.height() > 0 else self.height() * 0.6
        return max(1, min(n, int(height // (self.label_height_px() * ROW_LINES))))

    def _draw(self) -> None:
        if self._shown is None:
            return
        all_rows, nominal, title, formatter = self._shown
        self._drawn_width = self.width()
        k = self._rows_that_fit(len(all_rows))
        rows = all_rows[:k]
        self.rows = rows
        if len(rows) < len(all_rows):
            title += translate("Tornado", " · top {shown} of {total}").format(shown=len(rows), total=len(all_rows))
        pi = self.getPlotItem()
        font = self.tick_font()
        for name in ("left", "bottom"):
            pi.getAxis(name).setStyle(tickFont=font)
        self.empty.setFont(font)
        pi.getAxis("bottom").formatter = formatter
        n = len(rows)
        ys = np.arange(n)[::-1].astype(float)  # largest on top
        if n:
            lo = np.array([r["low"] for r in rows])
            hi = np.array([r["high"] for r in rows])
            self.low.setOpts(x0=np.minimum(lo, nominal), width=np.abs(lo - nominal), y=ys, height=0.6)
            self.high.setOpts(x0=np.minimum(hi, nominal), width=np.abs(hi - nominal), y=ys, height=0.6)
            self.empty.hide()
        else:
            self.low.setOpts(x0=[], width=[], y=[])
            self.high.setOpts(x0=[], width=[], y=[])
            self.empty.setText(translate("Tornado", "No input with a range moves this"))
            self.empty.setPos(nominal, 0)
            self.empty.show()
        self.nominal_line.setPos(nominal)
        left = pi.getAxis("left")
        left.setTicks([[(float(y), r["label"]) for y, r in zip(ys, rows)]])
        fm = QtGui.QFontMetrics(font)
        widest = max((fm.horizontalAdvance(r["label"]) for r in rows), default=100)
        left_width = min(widest + 24, int(420 * text_scale()))
        left.setWidth(left_width)
        room = self.width() - left_width - 24  # the title sits over the plot area, right of the labels
        pi.setTitle(self._title_html(title, room))
        vals = [nominal] + [r["low"] for r in all_rows] + [r["high"] for r in all_rows]
        pi.setXRange(*axis_range(vals, nominal), padding=0)
        pi.setYRange(-0.7, max(n, 1) - 0.3, padding=0)

    def _title_html(self, title: str, room: float) -> str:
        """The title on one line when it fits ``room`` pixels, else its quantity on one line and its notes
        (`` · ``-separated: the largest swing, how many rows) smaller on a second, the notes that still
        do not fit dropped from the end: never cut."""
        big, small = scaled_pt(TITLE_PT), scaled_pt(TITLE_PT - 1.5)

        def width(text: str, pt: float, bold: bool) -> float:
            font = QtGui.QFont(self.font())
            font.setPointSizeF(pt)
            font.setBold(bold)
            return QtGui.QFontMetrics(font).horizontalAdvance(text)

        head, *notes = title.split(" · ")
        line = f"<span style='font-size:{big}pt'><b>{html.escape(head)}</b></span>"
        if not notes or width(title, big, True) <= room:
            return f"<span style='font-size:{big}pt'><b>{html.escape(title)}</b></span>"
        while notes and room >= MIN_TITLE_ROOM_PX and width(" · ".join(notes), small, False) > room:
            notes.pop()
        if not notes:
            return line
        return line + f"<br><span style='font-size:{small}pt'>{html.escape(' · '.join(notes))}</span>"

    def _plot_resized(self, *_) -> None:
        if self._shown is not None and (self._rows_that_fit(len(self._shown[0])) != len(self.rows)
                                        or self.width() != self._drawn_width):
            self._draw()  # taller or shorter (the dock, the title's size): as many rows as fit now


def _titled(title: str, rows, nominal: float) -> str:
    """A tornado's title with its largest swing as a share of the nominal value (so a sliver reads as one);
    under :data:`NEGLIGIBLE_PCT` it says the ranges are negligible."""
    if not rows or not (math.isfinite(nominal) and nominal):
        return title
    pct = max(max(abs(r["d_low"]), abs(r["d_high"])) for r in rows) / abs(nominal) * 100
    if pct < NEGLIGIBLE_PCT:
        return title + translate("Tornado", " · negligible: no input's range moves it more than ±{pct} %").format(
            pct=fmt_sig(pct, 2))
    return title + translate("Tornado", " · largest swing ±{pct} %").format(pct=fmt_sig(pct, 2))


# the result a recommendation's criterion ranks by (model.recommend.engine_choice): a deadline ranks by TCO,
# a budget or a missed goal by days, no goal by cost per run
CRITERION_METRICS = {"criterion.deadline": "tco", "criterion.budget": "train_days_with_interruptions",
                     "criterion.deadline_missed": "train_days_with_interruptions",
                     "criterion.budget_missed": "train_days_with_interruptions",
                     "criterion.cost_per_run": "cost_per_run"}


def pick_gap(scenario, point, rec) -> dict | None:
    """What would change the engine's pick: each ranged input of the pick and of the runner-up swung to both
    ends (:func:`model.analysis.tornado`, one at a time; a site input such as PUE moves both), and the gap on
    the recommendation's criterion that remains. ``None`` without a pick and a runner-up.

    Returns ``pick``, ``runner_up``, ``metric``, ``gap`` (relative, runner-up over pick), and ``swings``: one dict
    per input end (``label``, ``gap``), smallest remaining gap first; a gap at or below zero reverses the order.
    Cost per run follows days (rented GPU-hours) or days × TCO (a share of the owned cluster's TCO), as
    :mod:`model.economics` computes it."""
    from model import economics

    metric_name = CRITERION_METRICS.get(rec.criterion.code) if rec is not None else None
    if rec is None or rec.pick is None or rec.runner_up is None or metric_name is None:
        return None
    sums = {f.fabric: f for f in fabric_summaries(point)}
    pick, other = sums.get(rec.pick), sums.get(rec.runner_up)
    if pick is None or other is None:
        return None
    share = economics.point_inputs(scenario).get("run_cost_gpu_hour", 0.0) == 0.0  # cost per run ∝ TCO too

    def short(f) -> str:
        return catalog.fabric_style(f.fabric).get("short", f.label) if f.fabric in catalog.BUILTIN_FABRICS else f.label

    def metric(f, days: float, tco: float) -> float:
        if metric_name == "train_days_with_interruptions":
            return days
        if metric_name == "tco":
            return tco
        return f.cost_per_run * days / f.train_days_with_interruptions * (tco / f.tco if share else 1.0)

    def nominal(f) -> float:
        return metric(f, f.train_days_with_interruptions, f.tco)

    base_p, base_o = nominal(pick), nominal(other)
    if not (math.isfinite(base_p) and math.isfinite(base_o) and base_p > 0):
        return None
    swings = {f.fabric: {sw.field: sw for sw in analysis.tornado(scenario, f.fabric)} for f in (pick, other)}
    rows = []
    for f, g in ((pick, other), (other, pick)):
        for field, sw in swings[f.fabric].items():
            if f is other and field in swings[pick.fabric]:
                continue  # a site input: counted once, with both fabrics moved
            twin = swings[g.fabric].get(field)
            for end, days, tco, value in (("low", sw.days_low, sw.tco_low, sw.low_value),
                                          ("high", sw.days_high, sw.tco_high, sw.high_value)):
                v_f = metric(f, float(days), float(tco))
                v_g = nominal(g) if twin is None else metric(
                    g, float(getattr(twin, f"days_{end}")), float(getattr(twin, f"tco_{end}")))
                p_val, o_val = (v_f, v_g) if f is pick else (v_g, v_f)
                if not (math.isfinite(p_val) and math.isfinite(o_val) and p_val > 0):
                    continue
                label = swing_label(sw, pick.currency, float(scenario.economics.cny_per_usd))
                if twin is None:
                    label = f"{short(f)}: {label}"
                rows.append(dict(label=label, end=end, value=value, gap=(o_val - p_val) / o_val))
    rows.sort(key=lambda r: r["gap"])
    return dict(pick=short(pick), runner_up=short(other), metric=metric_name, gap=(base_o - base_p) / base_o,
                swings=rows)


def gap_text(gap: dict | None) -> str:
    """One or two lines saying how far the pick leads and which single input end, if any, would reverse it."""
    if gap is None:
        return translate("Tornado", "No single pick to defend here (a tie, or one fabric only).")
    names = {"train_days_with_interruptions": translate("Tornado", "training days"),
             "tco": translate("Tornado", "TCO"), "cost_per_run": translate("Tornado", "cost per run")}
    head = translate("Tornado", "<b>What would change the pick:</b> {pick} leads {other} by {gap} on {metric}.").format(
        pick=html.escape(gap["pick"]), other=html.escape(gap["runner_up"]), gap=fmt_percent(gap["gap"] * 100, 2),
        metric=names[gap["metric"]])
    flips = [r for r in gap["swings"] if r["gap"] <= 0]
    ends = {"low": translate("Tornado", "at its low end"), "high": translate("Tornado", "at its high end")}
    if flips:
        tail = translate("Tornado", "Reversed by: {inputs}.").format(inputs="; ".join(
            f"{html.escape(r['label'])} {ends[r['end']]}" for r in flips[:3]))
    elif gap["swings"]:
        r = gap["swings"][0]
        tail = translate("Tornado", "No single input within its range reverses it; the closest, {input} {end}, "
                                    "leaves {gap}.").format(input=html.escape(r["label"]), end=ends[r["end"]],
                                                             gap=fmt_percent(r["gap"] * 100, 2))
    else:
        tail = translate("Tornado", "No input with a range moves either fabric.")
    return head + "<br>" + tail


class TornadoPanel(QtWidgets.QWidget):
    """Days and TCO tornados for the fabric in focus at the current point."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("tornadoPanel")
        self.title = QtWidgets.QLabel()
        self.title.setObjectName("tornadoTitle")
        self.title.setWordWrap(True)
        self.days = TornadoChart("days")
        self.days.setObjectName("tornadoDays")
        self.tco = TornadoChart("tco")
        self.tco.setObjectName("tornadoTco")
        legend = QtWidgets.QLabel(
            f"<span style='color:{LOW_COLOUR}'>■</span> " + translate("Tornado", "input at the low end of its range")
            + f" &nbsp; <span style='color:{HIGH_COLOUR}'>■</span> " + translate("Tornado", "at the high end")
            + " &nbsp; │ " + translate("Tornado", "nominal"))
        legend.setObjectName("tornadoLegend")
        charts = QtWidgets.QHBoxLayout()
        charts.addWidget(self.days, 1)
        charts.addWidget(self.tco, 1)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.title)
        self.gap_label = QtWidgets.QLabel()
        self.gap_label.setObjectName("tornadoGap")
        self.gap_label.setWordWrap(True)
        lay.addWidget(self.gap_label)
        lay.addLayout(charts, 1)
        lay.addWidget(legend)
        self.swings: list = []
        self.gap = None  # what would change the pick (pick_gap), once shown
        self.key = None
        self.plots = (self.days, self.tco)

    def apply_text_scale(self) -> None:
        """Titles, labels and the rows that fit again at the current text size (presentation mode)."""
        for chart in self.plots:
            chart._draw()

    def show_snapshot(self, snap) -> bool:
        """Compute and draw the tornado for ``snap`` (skipped when it is the one shown)."""
        s = snap.scenario
        key = (s,)
        if key == self.key:
            return False
        fabric = s.fabric.focus_fabric
        try:
            swings = analysis.tornado(s, fabric)
        except Exception as err:  # noqa: BLE001 (a ScenarioError: say so in the panel, keep the window)
            self.title.setText(str(err))
            self.key = key
            return False
        self.swings = swings
        pt = snap.point
        i = pt.fabric_index(fabric)
        nominal = fabric_summaries(pt)[i]
        nom_days, nom_tco = nominal.train_days_with_interruptions, nominal.tco
        code = nominal.currency
        label = tr_data(pt.labels[i])  # the profile's full name, in the UI language
        self.title.setText(translate(
            "Tornado", "<b>Sensitivity of {fabric}</b> at this point: each input swung across its range, "
                       "one at a time (nominal {days} days, TCO {tco})").format(
            fabric=html.escape(label), days=fmt_number(nom_days, 1), tco=fmt_money(nom_tco, code)))
        rate = float(s.economics.cny_per_usd)
        rows = tornado_rows(swings, "days", nom_days, code, rate)
        lo, hi = axis_range([nom_days] + [r[k] for r in rows for k in ("low", "high")], nom_days)
        digits = min(4, max(1, 1 - math.floor(math.log10((hi - lo) / 4)))) if hi > lo else 1
        self.days.show_rows(rows, nom_days, _titled(translate("Tornado", "Training days"), rows, nom_days),
                            lambda v, d=digits: fmt_number(v, d))
        tco_rows = tornado_rows(swings, "tco", nom_tco, code, rate)
        self.tco.show_rows(tco_rows, nom_tco if math.isfinite(nom_tco) else 0.0,
                           _titled(translate("Tornado", "TCO ({code})").format(code=code) if code
                                   else translate("Tornado", "TCO"), tco_rows, nom_tco),
                           lambda v, c=code: fmt_money(v, c))
        try:
            self.gap = pick_gap(s, pt, recommend.recommendation(s, pt, samples=0))
        except (model.ScenarioError, KeyError, ValueError):
            self.gap = None
        self.gap_label.setText(gap_text(self.gap))
        sources = sorted({f"• {swing_label(sw, code, rate)}: {swing_source(sw.source)}" for sw in swings
                          if sw.source})
        self.title.setToolTip("\n".join(sources))  # where each range comes from
        self.key = key
        return True


_PROFILE_NOTE = re.compile(r"(\w+) profile: (.+)", re.DOTALL)
_SCALED_SPREAD = re.compile(r"this scenario's value (\S+), with the (\w+) profile's relative spread "
                            r"\((\S+)–(\S+) around (\S+)\)")


def swing_source(text: str) -> str:
    """Where a swing's range comes from, in the reader's language. The engine (:func:`model.analysis.ranged_values`)
    writes '<set> profile: <note>' (the profile set's id, the asset's source note) or, for a value the scenario
    sets, "this scenario's value …, with the <set> profile's relative spread (…)"; both shown translated, any
    other text as it is."""
    if m := _PROFILE_NOTE.fullmatch(text or ""):
        return translate("Tornado", "{profile} profile: {source}").format(profile=profile_set_name(m[1]),
                                                                         source=tr_source(m[2]))
    if m := _SCALED_SPREAD.fullmatch(text or ""):
        return translate("Tornado", "this scenario's value {value}, with the {profile} profile's relative spread "
                                    "({lo}–{hi} around {nominal})").format(
            value=m[1], profile=profile_set_name(m[2]), lo=m[3], hi=m[4], nominal=m[5])
    return text


__all__ = ["MIN_SPAN_FRACTION", "NEGLIGIBLE_PCT", "TornadoPanel", "gap_text", "pick_gap", "axis_range", "range_text", "swing_label", "swing_source", "tornado_rows"]
