"""What a chart says about a point: why a curve steps (:func:`step_explanation`), the marker at the current
value and the hover read-out (:class:`ChartReadout`, a mixin of :class:`gui.charts.sweep.ChartWidget`)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from gui.i18n import translate
from gui.theme import scaled_pt
from gui.present.series import AXES, format_value, format_x
from gui.present.plausibility import point_stalls, stall_text
from gui.present.text import idle_gpus_at, memory_at
from gui.present.series import STALL_KINDS, value_text
from gui.present.steps import largest_change, plan_at, plan_fit



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
    changes = [f"{names[k]} {getattr(before, k)}→{getattr(after, k)}"
               for k in ("tp", "pp", "micro_batch", "virtual_stages") if getattr(before, k) != getattr(after, k)]
    if not changes:
        part = largest_change(result, f, i)
        if part is None:
            return ""
        from model import BREAKDOWN_LABELS

        from gui.i18n_data import tr_data

        text = translate("Charts", "plan unchanged (tp {tp} · pp {pp} · dp {dp0}→{dp1}); {part} {delta}").format(
            tp=after.tp, pp=after.pp, dp0=before.dp, dp1=after.dp,
            part=tr_data(BREAKDOWN_LABELS.get(part[0], part[0])),
            delta=f"{part[1] * 1e3:+,.0f} ms" if abs(part[1]) >= 0.0005 else f"{part[1] * 1e3:+.2g} ms")
        m = np.atleast_2d(np.asarray(result.plan.microbatches, dtype=float))
        m0, m1 = (m[min(f, m.shape[0] - 1), k] for k in (i - 1, i)) if m.shape[1] > i else (np.nan, np.nan)
        if np.isfinite(m0) and np.isfinite(m1) and m0 != m1:  # the batch over dp, rounded up: a whole-number step
            text += " — " + translate("Charts", "whole-number rule: {m0}→{m1} micro-batches per step (the batch "
                                                "over dp, rounded up)").format(m0=int(m0), m1=int(m1))
        idle = plan_fit(result, i, after).idle
        if idle:  # utilisation counts every GPU: spares that do not fill a replica lower it
            text += " — " + translate("Charts", "{n} GPUs idle (they do not fill a replica of tp · pp = {size})").format(
                n=idle, size=after.tp * after.pp)
        return text
    text = translate("Charts", "plan: {changes}").format(changes=", ".join(changes + [f"dp {after.dp}"]))
    fit, there = plan_fit(result, i, before), plan_fit(result, i - 1, before)
    reasons = []  # only what the previous plan would newly need here
    if fit.idle and not there.idle:
        reasons.append(translate("Charts", "leave {n} GPUs idle").format(n=fit.idle))
    if fit.batch != fit.asked and there.batch == there.asked:
        reasons.append(translate("Charts", "round the batch {asked}→{batch}").format(asked=fit.asked,
                                                                                  batch=fit.batch))
    if not fit.interleave_ok and there.interleave_ok:
        reasons.append(translate("Charts", "lose its interleaving (micro-batches not a multiple of pp)"))
    if reasons:
        text += " — " + translate("Charts", "whole-number rule: the previous plan would {reasons} here").format(
            reasons=translate("Charts", " and ").join(reasons))
    return text


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
    return next((s.short for s in data.series if s.fabric == fabric), fabric)


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
    y = series.y
    changed = series.plan_changed
    for j in (i, i + 1):
        if j < 1 or j >= y.size:
            continue
        if changed is not None and changed[j]:
            return j
        a, b = float(y[j - 1]), float(y[j])
        if math.isfinite(a) and math.isfinite(b) and abs(b - a) > STEP_JUMP * max(abs(a), abs(b), 1e-300):
            return j
    return None




def _interp(x, y, xi) -> float:
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(y)
    if not ok.any() or not math.isfinite(xi):
        return float("nan")
    return float(np.interp(xi, x[ok], y[ok], left=np.nan, right=np.nan))


class ChartReadout:
    """The chart's read-outs: the marker at the current value and the hover read-out (a mixin of
    :class:`gui.charts.sweep.ChartWidget`)."""

    def _update_marker(self, view, data) -> None:
        self._current_x = None
        current_x = view.current_x
        if current_x is None or not data.series:
            self.marker.setData([], [])
            self.vline.hide()
            return
        meta = AXES.get(data.field, dict(scale=1.0))
        cx = np.broadcast_to(np.asarray(current_x, dtype=float) * meta["scale"], (len(data.series),))
        yv = view.marker(self.kind)
        yv = None if yv is None else np.array(yv, dtype=float)  # the view's own stays as computed
        if yv is None or len(yv) != len(cx):
            yv = np.array([_interp(data.x, s.y, xi) for s, xi in zip(data.series, cx)])
        for k, s in enumerate(data.series):  # an off-scale or stalled fabric's marker stays on its clipped curve
            if (s.off_scale is not None or s.stall) and np.isfinite(s.y).any():
                yv[k] = np.clip(yv[k], np.nanmin(s.y), np.nanmax(s.y))
        ok = np.isfinite(yv) & np.isfinite(cx) & (cx > 0 if data.log_x else True) & (
            yv > 0 if data.log_y else True)
        colours = tuple(s.style["colour"] for s, k in zip(data.series, ok) if k)
        if colours != self._marker_brushes:
            self._marker_brushes = colours
            self.marker.setData(cx[ok], yv[ok], symbolBrush=[pg.mkBrush(c) for c in colours])
        else:
            self.marker.setData(cx[ok], yv[ok])
        self._current_x = cx
        self._marker_y = yv
        x0 = float(cx[0]) if np.all(cx == cx[0]) else None
        if x0 is not None and math.isfinite(x0) and (x0 > 0 or not data.log_x):
            self.vline.setPos(math.log10(x0) if data.log_x else x0)
            self.vline.show()
        else:
            self.vline.hide()

    # -- overlays --------------------------------------------------------------
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
        if not data or not data.series or len(data.x) == 0:
            self.readout.hide()
            return
        vb = self.getPlotItem().vb
        p = vb.mapSceneToView(pos)
        xv = 10 ** p.x() if data.log_x else p.x()
        i = int(np.nanargmin(np.abs(np.log(np.maximum(data.x, 1e-300)) - math.log(max(xv, 1e-300)))
                             if data.log_x else np.abs(data.x - xv)))
        field = data.field or ""
        label = translate("Axes", AXES[field]["label"]) if field in AXES else field
        at_marker = self._near_marker(vb, pos)
        if at_marker:  # on the marker: the exact values at the current point
            cx = self._current_x
            same = bool(np.all(cx == cx[0]))
            head = (translate("Charts", "At this point — {x}: {value}").format(
                        x=label, value=format_x(field, float(cx[0])))
                    if same else translate("Charts", "At this point"))
            lines = [f"<b>{head}</b>"]
            point = self.view.point if self.view is not None else None
            stalls = point_stalls(point) if point is not None else {}
            for k, s in enumerate(data.series):
                xs = "" if same else f" ({format_x(field, float(cx[k]))})"
                value = (stall_text(stalls[s.fabric]) if s.fabric in stalls and self.kind in STALL_KINDS
                         else format_value(self.kind, float(self._marker_y[k]), self._currency))
                lines.append(f"<span style='color:{s.style['colour']}'>■</span> {_esc(s.short)}: "
                             f"{_esc(value)}{xs}")
        else:
            lines = [f"<b>{label}: {format_x(field, float(data.x[i]))}</b>"]
            for f, s in enumerate(data.series):
                idle = ", ".join(t for t in (idle_gpus_at(self.view.sweep, f, i),
                                             memory_at(self.view.sweep, f, i)) if t)
                lines.append(f"<span style='color:{s.style['colour']}'>■</span> {_esc(s.short)}: "
                             f"{_esc(value_text(self.kind, s, i, self._currency))}"
                             + (f" <span style='font-size:{scaled_pt(8)}pt'>({_esc(idle)})</span>" if idle else ""))
                j = _step_near(s, i)
                if j is not None:  # a step here: what changed in the plan, and whether a whole-number rule did it
                    why = step_explanation(self.view.sweep, f, j)
                    if why:
                        lines.append(f"&nbsp;&nbsp;&nbsp;<span style='font-size:{scaled_pt(8)}pt'>"
                                     f"{_esc(format_x(field, float(data.x[j - 1])))} → "
                                     f"{_esc(format_x(field, float(data.x[j])))}: {_esc(why)}</span>")
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
        if len(self._marker_y) != len(self.series.series):
            return False
        log_x = self.series.log_x
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
