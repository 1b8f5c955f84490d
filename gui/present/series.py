"""Chart series without Qt: the x-axes the window offers, the three charts' data from an engine
sweep, and how their values read.

:func:`chart_series` turns an engine sweep :class:`model.Result` into plain data (x, labels,
one series per fabric with its style) that the chart widget (:mod:`gui.charts.sweep`), the exports
and the CSV draw or write. Axis metadata (label, unit, display scale, log axis) lives in
:data:`AXES`, keyed by the engine's sweep field names; fabric colours and line styles come
from ``assets/fabrics.toml`` through :func:`model.catalog.fabric_style`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field as _field
from functools import cached_property

import numpy as np

from model import catalog
from model.recommend import BASELINE_FABRIC

from gui.present.format import fmt_money, fmt_percent, fmt_sig
from gui.present.plausibility import MAX_RUN_DAYS, series_stall, short_cause, stall_text, stalled
from gui.present.steps import idle_by_rule, plan_steps
from gui.present.text import QT_TRANSLATE_NOOP, translate

SHORT_NAMES = (QT_TRANSLATE_NOOP("Data", "Ethernet"),)  # the one short fabric name a Chinese reader says in Chinese

CHART_KINDS = ("utilisation", "duration", "tco", "cost_per_run")
# stacked in the window: money for the same work (cost per training run) is the third chart; the TCO of the
# same cluster, which falls as a slower fabric idles its GPUs, is second and lives on the Cost tab
WINDOW_CHART_KINDS = ("utilisation", "duration", "cost_per_run")
# Charts whose value follows the plan's use of the GPUs: there GPUs left idle by the batch's divisibility
# are drawn apart (the TCO buys every GPU whatever the plan uses; its energy share barely moves).
IDLE_KINDS = ("utilisation", "duration", "cost_per_run")

# x-axes the window offers: engine sweep field -> display metadata. ``scale`` converts
# engine units to display units (loss: fraction -> percent).
AXES = {
    "cluster.nodes": dict(label=QT_TRANSLATE_NOOP("Axes", "Nodes"), unit="", scale=1.0, log=True, integer=True),
    "workload.params_b": dict(label=QT_TRANSLATE_NOOP("Axes", "Model parameters"),
                              unit="B", scale=1.0, log=True, integer=False),
    "fabric.latency_us": dict(label=QT_TRANSLATE_NOOP("Axes", "Latency"),
                              unit="µs", scale=1.0, log=True, integer=False),
    "fabric.loss_rate": dict(label=QT_TRANSLATE_NOOP("Axes", "Packet loss"),
                             unit="%", scale=100.0, log=True, integer=False),
    "fabric.link_gbps": dict(label=QT_TRANSLATE_NOOP("Axes", "Bandwidth per NIC"),
                             unit="Gb/s", scale=1.0, log=True, integer=False),
}

# The TCO chart draws each fabric's TCO as its difference from one baseline fabric, in percent
# of the baseline's TCO (the baseline on the zero line), on a linear axis: absolute TCO on a log
# axis puts every fabric on one line. The baseline is the window's session state (the Cost tab
# chooses it); the sweep chart, its bands, A's curves, read-outs and exports are given it.
MIN_TCO_SPAN_PCT = 6.0  # the TCO axis spans at least this (as the Cost tab's bars): ties stay flat, 5 % fills it
OFF_SCALE_RATIO = 4.0  # a fabric is drawn clipped when it lies this many times beyond the next one
OFF_SCALE_MIN_PCT = 20.0  # ... and beyond this many percent (a guess at "off the scale" for a slide)

RING_JUMP = 0.01  # a whole-number plan step is ringed where it moves the chart's value by more than 1 %


def axis_label(field: str) -> str:
    meta = AXES.get(field)
    if meta is None:
        return field
    label = translate("Axes", meta["label"])
    return f"{label} ({meta['unit']})" if meta["unit"] else label


def tco_baseline(result, chosen: str | None = None) -> str:
    """The baseline fabric of the TCO chart for ``result``: ``chosen`` when compared, else TCP
    Ethernet (:data:`model.recommend.BASELINE_FABRIC`, the Cost tab's default), else the first fabric."""
    names = list(result.fabrics)
    for name in (chosen, BASELINE_FABRIC):
        if name in names:
            return name
    return names[0]


def tco_relative(tco, result, nominal=None, baseline: str | None = None) -> np.ndarray:
    """(F, N) or (F,) TCO in percent against the baseline fabric's TCO at the same x (0 for the
    baseline); the baseline's row is taken from ``nominal`` when given (bands: P10/P90 against the
    baseline's nominal TCO). ``baseline``: the chosen baseline fabric (see :func:`tco_baseline`)."""
    tco = np.asarray(tco, dtype=float)
    ref = tco if nominal is None else np.asarray(nominal, dtype=float)
    base = ref[list(result.fabrics).index(tco_baseline(result, baseline))]
    with np.errstate(divide="ignore", invalid="ignore"):
        return (tco / np.where(base > 0, base, np.nan) - 1.0) * 100.0


def _clip_off_scale(ys: np.ndarray) -> tuple[np.ndarray, list[float | None]]:
    """Clip the fabrics far beyond the others so the rest keep the chart's height: a fabric whose
    largest |value| is :data:`OFF_SCALE_RATIO` times the next fabric's (and beyond
    :data:`OFF_SCALE_MIN_PCT`) is clipped to that bound; returns the values and, per fabric, the
    extreme it reaches when clipped (else None)."""
    ys = np.asarray(ys, dtype=float)
    # the largest finite |value| per fabric, 0 for a fabric with none (an all-NaN row: a baseline costing nothing)
    peak = np.where(np.isfinite(ys), np.abs(ys), 0.0).max(axis=1, initial=0.0) if ys.size else np.zeros(0)
    order = np.argsort(peak)[::-1]
    clipped: list[float | None] = [None] * ys.shape[0]
    if ys.shape[0] < 2:
        return ys, clipped
    # the bound: the largest fabric that is not far beyond the next one
    k = 0
    while k < ys.shape[0] - 1 and peak[order[k]] > max(OFF_SCALE_RATIO * peak[order[k + 1]], OFF_SCALE_MIN_PCT):
        k += 1
    if k == 0:
        return ys, clipped
    bound = max(1.5 * peak[order[k]], MIN_TCO_SPAN_PCT)  # the others keep two thirds of the height
    out = ys.copy()
    for i in order[:k]:
        row = ys[i]
        j = int(np.nanargmax(np.abs(row)))
        clipped[i] = float(row[j])
        out[i] = np.clip(row, -bound, bound)
    return out, clipped


def currency_of(result) -> str:
    """Currency code of a result's money figures ('' without a result)."""
    if result is None:
        return ""
    return str(np.asarray(result.money.currency).reshape(-1)[0])


def fabric_styles(result) -> list[dict]:
    """One style per fabric of ``result``: colour, line style, width scale, short name."""
    out = []
    n_custom = 0
    for name, label in zip(result.fabrics, result.labels):
        if name in catalog.BUILTIN_FABRICS:
            st = catalog.fabric_style(name)
        else:
            st = dict(catalog.fabric_style(name, n_custom), short=label)  # a user fabric goes by its label
            n_custom += 1
        st = dict(st)
        st.setdefault("short", label)
        if name in catalog.BUILTIN_FABRICS:  # "Ethernet" reads 以太网 in Chinese; the other names stay names
            st["short"] = translate("Data", st["short"])
        st["label"] = label
        out.append(st)
    return out


def _rows(arr, f: int):
    a = np.asarray(arr, dtype=float)
    if a.ndim == 0:
        return np.full(f, float(a))[:, None]
    if a.ndim == 1:
        return a[None, :].repeat(f, axis=0)
    return a


def _years(result) -> int | None:
    econ = getattr(result.scenario, "economics", None)
    years = getattr(econ, "years", None)
    return int(years) if years is not None else None


@dataclass(frozen=True)
class Curve:
    """One fabric's curve on a chart, in display units (NaN where no plan fits: a gap)."""
    fabric: str  # the fabric's key
    label: str  # its legend text (an off-scale fabric's names the extreme it reaches)
    short: str  # its short name, for narrow legends and read-outs
    y: np.ndarray  # (N,) the value drawn at each x (clipped where off scale or stalled)
    style: dict  # colour, line style, width scale (:func:`fabric_styles`)
    off_scale: float | None = None  # the extreme a clipped TCO curve reaches [%], else None
    stalled: np.ndarray | None = None  # (N,) bool: past the plausibility bound (gui.present.plausibility)
    stall: str = ""  # the stall's cause code ('' when it never stalls)
    y_full: np.ndarray | None = None  # (N,) the values as computed where ``y`` is clipped, else None
    plan_changed: np.ndarray | None = None  # (N,) bool: the plan changes into this point
    whole_number: np.ndarray | None = None  # (N,) bool: a whole-number plan step that shows in this chart
    idle_gpus: np.ndarray | None = None  # (N,) bool: GPUs idle because the batch does not divide, else None


@dataclass(frozen=True)
class ChartData:
    """One chart's data from an engine sweep (:func:`chart_series`): what the chart widget, the exports and
    the CSV draw or write."""
    kind: str  # one of :data:`CHART_KINDS`
    field: str | None  # the swept scenario path
    x: np.ndarray  # (N,) the x values in display units (loss in percent)
    x_label: str  # the x-axis title with its unit
    y_label: str  # the y-axis title with its unit
    title: str  # the chart's title
    log_x: bool  # a log x-axis
    log_y: bool = False  # a log y-axis (values spanning more than a decade)
    series: list = _field(default_factory=list)  # one :class:`Curve` per fabric
    extra: list = _field(default_factory=list)  # secondary curves: days without interruptions
    note: str = ""  # a note under the chart ('' none)
    currency: str = ""  # ISO code of money on the y-axis ('' not money)
    short_title: str = ""  # the title naming the baseline by its short name (narrow charts; '' none)
    relative: bool = False  # the TCO chart: y is percent against the baseline fabric
    baseline: str | None = None  # that baseline fabric's key
    baseline_label: str = ""  # its display name
    tco: np.ndarray | None = None  # (F, N) the TCO chart's absolute TCO [currency]

    # what a chart widget draws from it, worked out once per chart data (shared by every view of a snapshot)
    @cached_property
    def in_use(self) -> tuple:
        """Per curve of :attr:`series`, the solid curve's x, y and whether GPUs idle somewhere
        (:func:`in_use_points`)."""
        return tuple(in_use_points(self.x, s) for s in self.series)

    @cached_property
    def drawn_x(self) -> np.ndarray:
        """The x values where some fabric has a value (:func:`drawn_x`)."""
        return drawn_x(self)

    @cached_property
    def stall_note(self) -> str:
        """The label for the fabrics past the plausibility bound (:func:`stall_note`)."""
        return stall_note(self)


def chart_series(result, kind: str, baseline: str | None = None) -> ChartData:
    """One chart's :class:`ChartData` from an engine sweep ``result``.

    The TCO chart's ``y`` is each fabric's TCO in percent against the ``baseline`` fabric (:func:`tco_baseline`),
    a fabric far off the others' scale clipped (its ``off_scale`` the extreme it reaches, named in its label;
    ``y_full`` unclipped). ``x`` and ``y`` are in display units (loss in percent, utilisation in percent).
    ``extra`` holds secondary curves (training duration without interruptions). Each curve's ``idle_gpus``
    marks, on the charts of :data:`IDLE_KINDS`, the points where its plan leaves GPUs idle because the batch
    does not divide (:func:`gui.present.steps.idle_by_rule`), else None. The cost-per-run chart's ``y`` is money
    in ``currency``.
    """
    if kind not in CHART_KINDS:
        raise ValueError(f"kind {kind!r}: one of {', '.join(CHART_KINDS)}")
    field = result.field
    meta = AXES.get(field, dict(label=field or "", unit="", scale=1.0, log=False))
    x = np.asarray(result.x, dtype=float) * meta["scale"]
    f = len(result.fabrics)
    styles = fabric_styles(result)
    out = dict(x=x, x_label=axis_label(field), field=field, kind=kind, log_x=bool(meta["log"]), log_y=False,
               series=[], extra=[], note="")
    ys, extra_ys = None, None
    if kind == "utilisation":
        ys = _rows(kind_values(result, kind), f)
        out.update(title=translate("Charts", "GPU utilisation (MFU)"),
                   y_label=translate("Charts", "Model FLOPs utilisation (%)"))
    elif kind == "duration":
        ys = _rows(kind_values(result, kind), f)
        extra_ys = _rows(result.throughput.train_days, f)
        out.update(title=translate("Charts", "Training duration (faint: without interruptions)"),
                   y_label=translate("Charts", "Training duration (days)"), log_y=_spans_decades(ys))
    elif kind == "cost_per_run":
        code = currency_of(result)
        ys = _rows(kind_values(result, kind), f)
        out.update(title=translate("Charts", "Cost per training run"), currency=code,
                   y_label=translate("Charts", "Cost per run ({currency})").format(currency=code) if code
                   else translate("Charts", "Cost per run"), log_y=_spans_decades(ys))
    else:
        code = currency_of(result)
        years = _years(result)
        out.update(title=translate("Charts", "{years}-year TCO").format(years=years) if years
                   else translate("Charts", "Total cost of ownership"), y_label="TCO", currency=code)
        base = tco_baseline(result, baseline)
        base_label = translate("Data", result.labels[list(result.fabrics).index(base)])  # the profile's name, translated
        base_short = styles[list(result.fabrics).index(base)].get("short", base_label)
        tco = _rows(kind_values(result, kind), f)
        rel = tco_relative(tco, result, baseline=base)
        ys, clipped = _clip_off_scale(rel)
        out.update(relative=True, unclipped=rel, tco=tco, baseline=base, baseline_label=base_label, clipped=clipped,
                   title=(translate("Charts", "Same cluster: {years}-year TCO against {baseline}").format(
                       years=years, baseline=base_label) if years else
                       translate("Charts", "Same cluster: TCO against {baseline}").format(baseline=base_label)),
                   short_title=(translate("Charts", "Same cluster: {years}-year TCO against {baseline}").format(
                       years=years, baseline=base_short) if years else
                       translate("Charts", "Same cluster: TCO against {baseline}").format(baseline=base_short)),
                   y_label=translate("Charts", "TCO vs {baseline} (%)").format(baseline=base_short))
    steps = plan_steps(result)
    if ys is not None and steps is not None:  # a ring only where the step shows in this chart
        steps = dict(steps, whole_number=steps["whole_number"] & _kinks(ys, RING_JUMP))
    idle = idle_by_rule(result) if kind in IDLE_KINDS else None
    if idle is not None:
        idle = np.broadcast_to(idle, (f, x.size))
    clipped = out.get("clipped") or [None] * f
    full = out.pop("unclipped", None)
    stall_mask, stall_codes = np.zeros((f, x.size), dtype=bool), [""] * f
    if ys is not None and kind in STALL_KINDS:
        ys, full, stall_mask, stall_codes = _clip_stalls(result, kind, ys, f, x.size)
    if ys is not None:
        for i, (name, st) in enumerate(zip(result.fabrics, styles)):
            off = ("" if clipped[i] is None else
                   translate("Charts", " (off scale: up to {value})").format(value=fmt_percent(clipped[i], signed=True)))
            out["series"].append(Curve(fabric=name, label=st["label"] + off, off_scale=clipped[i],
                                      stalled=np.asarray(stall_mask[i]), stall=stall_codes[i],
                                      y_full=None if full is None else np.asarray(full[i], dtype=float),
                                      short=st.get("short", name),
                                      y=np.asarray(ys[i], dtype=float), style=st,
                                      plan_changed=None if steps is None else steps["changed"][i],
                                      whole_number=None if steps is None else steps["whole_number"][i],
                                      idle_gpus=None if idle is None else np.asarray(idle[i], dtype=bool)))
    if extra_ys is not None and full is not None:  # a stalled run's secondary curve shrunk with it (stays under it)
        with np.errstate(invalid="ignore", divide="ignore"):
            extra_ys = np.asarray(extra_ys, dtype=float) * np.where(np.asarray(full) > 0, ys / full, 1.0)
    if extra_ys is not None:
        for i, (name, st) in enumerate(zip(result.fabrics, styles)):
            out["extra"].append(Curve(fabric=name, label=st["label"] + translate("Charts", " (without interruptions)"),
                                     short=st.get("short", name) + translate("Charts", " w/o interr."),
                                     y=np.asarray(extra_ys[i], dtype=float), style=st))
    out.pop("clipped", None)
    return ChartData(**out)


STALL_KINDS = ("utilisation", "duration", "cost_per_run")  # the charts whose value is past the bound when a run stalls
STALL_CEILING_DAYS = 1.5 * MAX_RUN_DAYS  # a stalled run is drawn no longer than this: clipped, and labelled


def _clip_stalls(result, kind, ys, f, n):
    """The points past the plausibility bound (:mod:`gui.present.plausibility`) clipped, each fabric by its own
    run only (another fabric's change never moves it): days to :data:`STALL_CEILING_DAYS`, cost per run in the
    same proportion, MFU kept (it is near zero). Returns the values drawn, the values as computed, the (F, N)
    mask and each fabric's cause ('' when it never stalls)."""
    days = np.asarray(result.reliability.train_days_with_interruptions, dtype=float)
    if days.ndim < 2:
        return ys, None, np.zeros((f, n), dtype=bool), [""] * f
    mask = np.broadcast_to(stalled(days, result.throughput.mfu), (f, n))
    codes = [series_stall(result, i) if mask[i].any() else "" for i in range(f)]
    if not mask.any() or kind == "utilisation":
        return ys, None, mask, codes
    ys = np.asarray(ys, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        shrink = np.where(mask & (days > STALL_CEILING_DAYS), STALL_CEILING_DAYS / days, 1.0)
    return ys * shrink, ys, mask, codes


def stall_note(data: ChartData) -> str:
    """The label a chart draws for its fabrics past the plausibility bound: "stalls — Ethernet, iWARP: TCP
    loss recovery", "RoCE: retransmission (clipped)"; one line per cause, "stalls" said once, the "(clipped)" of
    a chart that clips them said once, after the last (so the lines fit on one row where the chart has the
    room); '' when none stalls."""
    by_cause: dict[str, list[str]] = {}
    for s in data.series:
        if s.stall and np.asarray(s.stalled).any():
            by_cause.setdefault(s.stall, []).append(s.short)
    # "stalls — " once, before the first cause: each further line names its fabrics and cause only
    lines = [", ".join(names) + ": " + short_cause(code) for code, names in by_cause.items()]
    if lines:
        lines[0] = translate("Charts", "stalls — {line}").format(line=lines[0])
    if lines and data.kind != "utilisation":
        lines[-1] += translate("Charts", " (clipped)")
    return "\n".join(lines)


def value_text(kind: str, series: Curve, i: int, currency: str = "") -> str:
    """A series' value at point ``i`` as the read-out shows it: "stalls — cause" past the plausibility bound
    (with the engine's own figure after it, on demand), else :func:`format_value`."""
    y = series.y if series.y_full is None else series.y_full
    value = format_value(kind, float(y[i]), currency)
    mask = series.stalled
    if mask is not None and bool(np.asarray(mask)[i]) and series.stall:
        return stall_text(series.stall) + " · " + translate("Charts", "engine: {value}").format(value=value)
    return value


# the engine output each chart draws, and its display scale (MFU: fraction -> percent)
KIND_OUTPUTS = {"utilisation": ("mfu", 100.0), "duration": ("train_days_with_interruptions", 1.0),
                "tco": ("tco", 1.0), "cost_per_run": ("cost_per_run", 1.0)}


def kind_values(result, kind: str) -> np.ndarray:
    """The one accessor from an engine result to a chart's quantity, in display units: (F, N) from a
    sweep, (F,) from a point; MFU in percent, duration with interruptions in days, money in the
    result's currency (the TCO absolute here: :func:`tco_relative` makes the chart's difference)."""
    if kind not in KIND_OUTPUTS:
        raise ValueError(f"kind {kind!r}: one of {', '.join(KIND_OUTPUTS)}")
    metric, scale = KIND_OUTPUTS[kind]
    return np.asarray(result.metric(metric), dtype=float) * scale


def point_values(point, kind: str, baseline: str | None = None) -> np.ndarray | None:
    """Per-fabric y value of ``kind`` at the current point from an ``evaluate`` result (display units;
    TCO against ``baseline``)."""
    if point is None:
        return None
    values = np.atleast_1d(kind_values(point, kind))
    return tco_relative(values, point, baseline=baseline) if kind == "tco" else values


def _kinks(ys, size: float) -> np.ndarray:
    """(F, N) bool: the change into point ``i`` (in log terms) departs from its neighbours' changes by
    more than ``size`` (a fraction): a visible step, not the curve's smooth trend."""
    ys = np.asarray(ys, dtype=float)
    out = np.zeros(ys.shape, dtype=bool)
    if ys.shape[1] < 3:
        return out
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(np.where(ys > 0, ys, np.nan))
        d = logs[:, 1:] - logs[:, :-1]  # (F, N-1): change into point 1..N-1
        pad = np.concatenate((d[:, :1], d, d[:, -1:]), axis=1)  # each end's change repeated (np.pad's "edge")
        trend = 0.5 * (pad[:, :-2] + pad[:, 2:])
        out[:, 1:] = np.abs(d - trend) > size
    return out


def in_use_points(x, series: Curve):
    """The solid curve's points: where every GPU works (the points where the batch does not divide
    are left out between two such points, so the solid line joins its neighbours; before the first and after
    the last such point they are kept, so a curve never ends where the engine still has a value; a gap where
    no plan fits stays a gap). Returns x, y and whether the plan leaves GPUs idle at some points but not at
    all (the chart shades those points and explains the shading)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(series.y, dtype=float)
    idle = series.idle_gpus
    if idle is None:
        return x, y, False
    idle = np.asarray(idle, dtype=bool) & np.isfinite(y)
    working = np.flatnonzero(np.isfinite(y) & ~idle)
    if not idle.any() or working.size == 0:
        return x, y, False
    at = np.arange(y.size)
    inner = idle & (at > working[0]) & (at < working[-1])
    return x[~inner], y[~inner], True


def sheet_notes(result, kinds=CHART_KINDS) -> dict:
    """Which of the charts' drawing conventions the charts of ``kinds`` use for ``result``: ``idle``
    (a dotted curve where GPUs sit idle), ``rings`` (whole-number plan steps), ``gap`` (a blank where
    no plan fits). A sheet that draws small charts explains these once, in its legend."""
    out = dict(idle=False, rings=False, gap=False)
    for kind in kinds:
        data = chart_series(result, kind)
        ys = [np.asarray(s.y, dtype=float) for s in data.series]
        out["idle"] |= any(in_use_points(data.x, s)[2] for s in data.series)
        out["rings"] |= any(s.whole_number is not None and bool(np.asarray(s.whole_number).any())
                            for s in data.series)
        out["gap"] |= bool(ys) and bool(np.all(np.isnan(np.vstack(ys)), axis=0).any())
    return out


def drawn_x(data: ChartData) -> np.ndarray:
    """The x values where some fabric has a value (the x-range to show: no axis left empty where no
    parallel plan fits); all of ``data.x`` when no fabric has any."""
    x = np.asarray(data.x, dtype=float)
    ys = [np.asarray(s.y, dtype=float) for s in data.series]
    if not ys or not x.size:
        return x
    some = np.isfinite(np.vstack(ys)).any(axis=0)
    if not some.any():
        return x
    idx = np.flatnonzero(some)
    lo, hi = max(idx[0] - 1, 0), min(idx[-1] + 1, x.size - 1)  # one step of blank either side: the curve ends
    return x[lo:hi + 1]


def format_value(kind: str, v: float, currency: str = "") -> str:
    """Human text for a y value: percent with one decimal, days with one decimal, money in the
    language's one format (:func:`gui.present.format.fmt_money`)."""
    if v is None or not math.isfinite(v):
        return translate("Charts", "no plan fits")
    if kind == "utilisation":
        return fmt_percent(v)
    if kind == "duration":
        return translate("Charts", "{value} days").format(value=f"{v:,.1f}")
    if kind == "cost_per_run":
        return fmt_money(v, currency, digits=4)
    return fmt_percent(v, signed=True)  # TCO against the baseline fabric


def format_money(v: float, currency: str = "", *, axis: bool = False, compact: bool = False) -> str:
    """Money with its symbol in the language's one format (:func:`gui.present.format.fmt_money`):
    ``¥40.57 M`` / ``¥4,057 万``; ``compact`` (narrow tables) and ``axis`` (tick labels) three
    significant figures."""
    return fmt_money(v, currency, digits=3 if (compact or axis) else 4, trim=axis)


def format_x(field: str, v: float) -> str:
    meta = AXES.get(field)
    if meta is None:
        return f"{v:g}"
    unit = f" {meta['unit']}" if meta["unit"] else ""
    if meta.get("integer"):
        return f"{v:,.0f}{unit}"
    return f"{fmt_sig(v, 4)}{unit}"  # never an exponent: 15,600 B tokens, not 1.56e+04


def _spans_decades(ys, decades: float = 1.0) -> bool:
    """True when the positive finite values span more than ``decades`` powers of ten."""
    y = np.asarray(ys, dtype=float)
    y = y[np.isfinite(y) & (y > 0)]
    return bool(y.size) and float(np.log10(y.max() / y.min())) > decades
