"""The one-page proposal sheet (A4 or Letter PDF) a presales engineer hands a customer.

Drawn with ``QPdfWriter`` + ``QPainter`` at 96 dpi: text blocks are ``QTextDocument``
HTML (so the text stays text: selectable and searchable), the three charts are the
app's own chart widget rendered 1:1 into their boxes (vector curves, text as text). With the
article audit, the claims table is a second page: the sheet itself stays as it is.

:func:`proposal_content` gathers everything the page shows as plain data, from the
engine only (evaluate result, recommendation, claims, profile-set sources); the
drawing code only lays it out.
"""

from __future__ import annotations

import datetime as dt
import html
import math
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

import model
from model import ScenarioError, catalog, claims, presets, recommend
from model.files import atomic_write, check_writable
from model.results import fabric_summaries

from gui.charts import breakeven

from gui.charts import compare
from gui.charts.bands import BAND_ALPHA
from gui.charts.sweep import CHART_KINDS, axis_label, currency_of, fabric_styles, format_money, make_pen, short_name
from gui.charts.compare import changes_text, compare_rows, pinned_pen, row_texts
from gui.export.charts import (OVERLAY_GREY, PDF_DPI, build_chart, cjk_family, ensure_app, no_ligatures, overlay_legend,
                     render_scene)
from gui.i18n import fmt_money, is_chinese, translate
from gui.present.text import QT_TRANSLATE_NOOP
from gui.i18n_data import tr_data, tr_description, tr_name, tr_unit
from gui.present.assumptions import assumptions, guess_legend
from gui.present.format import fmt_quantity
from gui.present.series import sheet_notes
from gui.present.plausibility import point_stalls, stall_text
from gui.present.text import idle_gpus_note, profile_set_name
from gui.present.reasons import render

PAPERS = ("a4", "letter")
ACCENT = "#0072B2"
INK = "#1a1a1a"
MUTED = "#5a5a5a"


def _font(pt: float, bold: bool = False):
    f = QtGui.QFont("DejaVu Sans")
    # Chinese: Noto Sans CJK is named, not left to the platform's fallback, so the PDF
    # embeds one known CJK font and reads the same on every machine; its copy
    # with a one-to-one cmap, so the text copies as typed (gui.system.cjk_font).
    f.setFamilies(["DejaVu Sans", cjk_family()] if is_chinese() else ["DejaVu Sans"])
    f.setStyleHint(QtGui.QFont.StyleHint.SansSerif)
    f.setPointSizeF(pt)
    f.setBold(bold)
    return no_ligatures(f)


def _e(x) -> str:
    return html.escape(str(x))


def _num(v, digits=1, suffix="") -> str:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    return f"{v:,.{digits}f}{suffix}"


# --------------------------------------------------------------------------
# content (plain data)
# --------------------------------------------------------------------------

def _case_preset(s) -> str | None:
    """The case-study preset this scenario is (by name), if any: its claims table belongs on the sheet."""
    try:
        for name in presets.preset_names():
            if presets.load_preset(name).name == s.name:
                return name
    except (ScenarioError, OSError, KeyError):
        return None
    return None


def _preset_edited(s, name: str) -> bool:
    return presets.load_preset(name) != s


def _claims(s) -> tuple[str | None, list]:
    name = _case_preset(s)
    if name is None:
        return None, []
    try:
        return name, list(claims.claims_table(name))
    except (ScenarioError, KeyError):
        return name, []


def _recommendation(s, point):
    """The engine's :class:`model.recommend.Recommendation` (``None`` when it cannot be made)."""
    try:
        return recommend.recommendation(s, point)
    except (ScenarioError, KeyError, ValueError):
        return None


def _say(reason, labels, stalls=None) -> str:
    """A reason in the sheet's language, fabrics by their short names; a fabric that stalls
    (:mod:`gui.present.plausibility`) by its cause, not its days."""
    short = {f: _short(tr_data(lab)).split("（")[0] for f, lab in labels.items()}
    return render(reason, "zh" if is_chinese() else "en", labels=short, money=fmt_money, stalls=stalls)


def _takeaway(point, rec, stalls) -> str:
    """The answer: the recommended fabric's days and money for the same work ("InfiniBand: 52.0 → 5.4 days,
    ¥5.75 k per training run instead of ¥49.5 k ..."), then the same cluster's TCO, then any baseline that
    stalls."""
    if rec is None:
        return ""
    labels = dict(zip(point.fabrics, point.labels))
    sep = "；" if is_chinese() else "; "
    # one page: a stalling baseline is named in the table (its row reads "stalls — cause") and the same
    # cluster's TCO is the table's TCO column, so the headline is the money for the same work
    return sep.join(_say(r, labels, stalls) for r in recommend.takeaway(point, rec, stalls=stalls)
                    if r.code not in ("note.stalls", "takeaway.tco"))


def _inputs(s, point, money) -> list[tuple[str, str]]:
    g = catalog.gpu(s.cluster.gpu)
    w, c = s.workload, s.cluster
    layers = int(np.asarray(point.data["architecture"]["layers"]).reshape(-1)[0])
    sep = translate("Proposal", ", ")
    cluster = (translate("Proposal", "{n} node × {g} {gpu} = {total} GPUs") if c.nodes == 1
               else translate("Proposal", "{n} nodes × {g} {gpu} = {total} GPUs")).format(
        n=f"{c.nodes:,}", g=c.gpus_per_node, gpu=g.get("name", c.gpu), total=f"{c.nodes * c.gpus_per_node:,}")
    model_parts = [translate("Proposal", "{p} B parameters").format(p=f"{w.params_b:,.4g}")]
    if layers:
        model_parts.append(translate("Proposal", "{n} layers").format(n=int(layers)))
    model_parts.append(translate("Proposal", "sequence {n}").format(n=f"{w.seq_len:,}"))
    model_parts.append(translate("Proposal", "global batch {n}").format(n=f"{w.global_batch:,}"))
    rows = [
        (translate("Proposal", "Cluster"), cluster),
        (translate("Proposal", "Model"), sep.join(model_parts)),
        (translate("Proposal", "Training"), translate("Proposal", "{t} B tokens, recompute {r}").format(
            t=f"{w.train_tokens_b:,.4g}", r=w.recompute or translate("Proposal", "searched per plan"))),
        (translate("Proposal", "Fabrics"), sep.join(tr_data(lab) for lab in point.labels)),
    ]
    econ = getattr(s, "economics", None)
    if econ is not None:
        parts = [money, translate("Proposal", "{n} years").format(n=f"{econ.years:g}")]
        if getattr(econ, "pue", None):
            parts.append(f"PUE {econ.pue:g}")
        parts.append(translate("Proposal", "duty cycle {n} %").format(n=f"{econ.duty_cycle * 100:.0f}"))
        rows.append((translate("Proposal", "Economics"), sep.join(parts)))
    goals = getattr(s, "goals", None)
    if goals is not None:
        parts = []
        if getattr(goals, "deadline_days", None):
            parts.append(translate("Proposal", "run within {n} days").format(n=f"{goals.deadline_days:g}"))
        if getattr(goals, "budget_cny", None):
            parts.append(translate("Proposal", "TCO budget {money}").format(
                money=format_money(goals.budget_cny, "CNY")))
        if getattr(goals, "budget_usd", None):
            parts.append(translate("Proposal", "TCO budget {money}").format(
                money=format_money(goals.budget_usd, "USD")))
        if parts:
            rows.append((translate("Proposal", "Goals"), sep.join(parts)))
    return rows


def _fabric_rows(point, money, stalls) -> list[dict]:
    """The sheet's fabric table, from the typed per-fabric results (:func:`model.results.fabric_summaries`);
    a fabric that stalls has its ``stall`` text instead of utilisation, days and cost per run."""
    colours = [st["colour"] for st in fabric_styles(point)]  # as in the charts, user fabrics too
    return [dict(fabric=f.fabric, label=tr_data(f.label), colour=colour,
                 stall=stall_text(stalls[f.fabric], short=True) if f.fabric in stalls else "",
                 mfu=_num(f.mfu * 100, 1, " %") if f.feasible else "–",
                 days=_num(f.train_days_with_interruptions, 1), interruptions=_num(f.interruptions, 1),
                 capex=format_money(f.capex, money), tco=format_money(f.tco, money),
                 per_run=format_money(f.cost_per_run, money),
                 plan=plan_text(f.plan.describe()) + idle_gpus_note(f.plan) if f.plan
                 else translate("Proposal", "no plan fits in memory"))
            for f, colour in zip(fabric_summaries(point), colours)]


RECOMPUTE_WORDS = {"none": QT_TRANSLATE_NOOP("Proposal", "recompute none"),
                   "selective": QT_TRANSLATE_NOOP("Proposal", "recompute selective"),
                   "full": QT_TRANSLATE_NOOP("Proposal", "recompute full")}


def plan_text(described: str) -> str:
    """A plan as the engine writes it ("TP 2 · PP 4 · micro-batch 1 · recompute full") in the sheet's language."""
    text = described.replace("micro-batch", translate("Proposal", "micro-batch"))
    for kind, words in RECOMPUTE_WORDS.items():
        text = text.replace(f"recompute {kind}", translate("Proposal", words))
    return text


def _breakeven(snap, pair=None) -> dict:
    """Where the pair (default: InfiniBand vs the fastest other, as in the window) ties along the x-axis."""
    sweep = snap.sweep
    if sweep is None or sweep.x is None:
        return dict(pair=None, sentences=[], crossings=[], x_label="")
    if not (pair and all(f in sweep.fabrics for f in pair)):
        pair = breakeven.default_pair(sweep, snap.point)
    if pair is None:
        return dict(pair=None, sentences=[], crossings=[], x_label="")
    return dict(pair=(breakeven.short_name(sweep, pair[0]), breakeven.short_name(sweep, pair[1])),
                sentences=breakeven.sentences(sweep, pair),
                crossings=breakeven.crossings(sweep, pair),
                x_label=axis_label(snap.x_field))


def _compare(snap, pinned) -> dict | None:
    """The A/B block: A's and B's names, what changed (HTML) and, per fabric, A, B and the difference
    of utilisation, training days and TCO, formatted as the window's compare table formats them."""
    if pinned is None:
        return None
    code = currency_of(snap.point) or currency_of(pinned.point)
    colours = {f: st["colour"] for f, st in zip(snap.point.fabrics, fabric_styles(snap.point))}
    fabrics: dict[str, dict] = {}
    for r in compare_rows(pinned.point, snap.point):
        row = fabrics.setdefault(r["fabric"], dict(fabric=r["fabric"], label=r["label"], short=r["short"],
                                                   colour=colours.get(r["fabric"], MUTED), cells={}))
        row["cells"][r["metric"]] = row_texts(r, code)
    return dict(name_a=tr_name(pinned.scenario.name), name_b=tr_name(snap.scenario.name),
                changes_html=changes_text(pinned.scenario, snap.scenario), rows=list(fabrics.values()),
                currency=code)


def proposal_content(snap, *, source=None, today: dt.date | None = None, pair=None, bands=None,
                     pinned=None, audit: bool = False) -> dict:
    """Everything the sheet shows, as plain data (strings and lists) from the engine.

    The sheet is for the customer: the takeaway sentence, the charts, the table, the
    recommendation and the sources. ``audit`` adds the article's claims beside the engine's
    (the architect's check), with one line on each counterfactual figure.

    ``pair`` is the two fabrics of the break-even block (default: InfiniBand against the
    fastest other fabric, the window's default). ``pinned`` (the A snapshot of an A/B
    compare) adds the ``compare`` block; ``bands`` (P10–P90) says how they were drawn."""
    s, point = snap.scenario, snap.point
    money = currency_of(point) or "USD"
    claims_preset, claim_rows = _claims(s) if audit else (None, [])
    rec = _recommendation(s, point)
    stalls = point_stalls(point)
    return dict(
        title=translate("Proposal", "Network fabric proposal"),
        scenario=tr_name(s.name),
        description=tr_description(s.description),
        date=(today or dt.date.today()).isoformat(),
        version=model.__version__,
        profile_set=s.fabric.profile_set,
        profile_label=profile_set_name(s.fabric.profile_set),
        source=str(source) if source else "",
        currency=money,
        inputs=_inputs(s, point, money),
        fabrics=_fabric_rows(point, money, stalls),
        stalls=stalls,
        recommendation=rec,
        takeaway=_takeaway(point, rec, stalls),
        audit=audit,
        claims_preset=claims_preset,
        claims_edited=bool(claims_preset) and _preset_edited(s, claims_preset),
        claims=claim_rows,
        assumptions=assumptions(s, point),
        labels=dict(zip(point.fabrics, point.labels)),
        breakeven=_breakeven(snap, pair),
        compare=_compare(snap, pinned),
        bands=None if bands is None else dict(samples=bands.samples, seed=bands.seed),
    )


# --------------------------------------------------------------------------
# HTML of the text blocks
# --------------------------------------------------------------------------

_TABLE = ("<table width='100%' cellspacing='0' cellpadding='2' "
          "style='border-collapse:collapse; border-color:#cfcfcf'>")


def _short(label: str) -> str:
    return label.split(" (")[0]


def _heading(text: str, extra: str = "") -> str:
    return f"<p style='color:{ACCENT}; font-weight:600{extra}'>{_e(text)}</p>"


def _inputs_html(c) -> str:
    rows = "".join(f"<tr><td style='color:{MUTED}' width='22%'>{_e(k)}</td><td>{_e(v)}</td></tr>"
                   for k, v in c["inputs"])
    return _heading(translate("Proposal", "Inputs")) + f"{_TABLE}{rows}</table>"


def _recommendation_html(c) -> str:
    r = c["recommendation"]
    labels = c["labels"]
    stalls = c.get("stalls") or {}

    def say(reason, labels):
        return _say(reason, labels, stalls)
    head = _heading(translate("Proposal", "Recommendation"))
    if r is None:
        return head + "<p>" + _e(translate("Proposal", "The engine’s recommendation is not available for this "
                                                       "scenario.")) + "</p>"
    tree_label = _short(labels.get(r.tree_fabric, r.tree_fabric))
    tree_html = "<p>" + _e(translate("Proposal", "Article’s decision tree: {fabric} (rule {rule}: {reason}).")).format(
        fabric=f"<b>{_e(tree_label)}</b>", rule=_e(r.tree_rule), reason=_e(say(r.tree_reason, labels))) + "</p>"
    note = f"<p style='color:{MUTED}'>{_e(say(r.note, labels))}</p>" if r.note is not None else ""
    if r.best is None:
        return head + (f"<p style='font-size:13pt; font-weight:700; color:{INK}'>"
                       + _e(translate("Proposal", "No fabric yet")) + "</p>"
                       "<p>" + _e(translate("Proposal", "No parallel plan fits in GPU memory for any compared fabric "
                                                        "in this scenario: add nodes, choose GPUs with more memory "
                                                        "or a smaller model.")) + "</p>" + tree_html)
    if r.pick is not None:
        big_name = _short(labels.get(r.pick, r.pick))
    else:
        big_name = translate("Proposal", "Equivalent: {fabrics}").format(
            fabrics=" · ".join(_short(labels.get(f, f)) for f in r.equivalent))
    big = (f"<p style='font-size:13pt; font-weight:700; color:{INK}'>{_e(big_name)}</p>"
           + (f"<p><b>{_e(c['takeaway'])}</b></p>" if c.get("takeaway") else "")
           + note + "<p>" + _e(translate("Proposal", "Engine: {criterion}; {verdict}.")).format(
               criterion=_e(say(r.criterion, labels)), verdict=_e(say(r.verdict, labels))) + "</p>")
    if r.separator is not None:
        big += f"<p>{_e(say(r.separator, labels))}</p>"
    big += tree_html
    if r.agrees:
        big += "<p>" + _e(translate("Proposal", "The tree and the engine agree on the fabric.") if r.pick is not None else
                          translate("Proposal", "The tree and the engine agree on the fabric: the article’s choice is "
                                                "one of the equivalent fabrics.")) + "</p>"
    elif r.reason is not None:
        big += "<p><i>" + _e(translate("Proposal", "Why they differ:")) + f"</i> {_e(say(r.reason, labels))}</p>"
    return head + big + _breakeven_html(c)


def _breakeven_html(c) -> str:
    """Where the pair ties along the x-axis, in the recommendation box."""
    b = c.get("breakeven") or {}
    if not b.get("sentences"):
        return ""
    a, o = b["pair"]
    head = _e(translate("Proposal", "Break-even, {a} vs {b}")).format(a=_e(a), b=_e(o))
    items = "".join(f"<p style='margin:0 0 1px 0'>• {_e(t)}</p>" for t in b["sentences"])
    return f"<p style='color:{ACCENT}; font-weight:600; margin:4px 0 2px 0'>{head}</p>{items}"


def _fabric_table_html(c) -> str:
    cur = c["currency"]
    cols = ((translate("Proposal", "Fabric"), "left"), (translate("Proposal", "MFU"), "right"),
            (translate("Proposal", "Days*"), "right"), (translate("Proposal", "Interr."), "right"),
            (translate("Proposal", "Capex"), "right"), (translate("Proposal", "TCO"), "right"),
            (translate("Proposal", "Per run"), "right"), (translate("Proposal", "Parallel plan"), "left"))
    head = ("<tr style='background:#eef3f8'>" + "".join(f"<th align='{al}'>{_e(t)}</th>" for t, al in cols)
            + "</tr>")
    rows = []
    r = c["recommendation"]
    picked = (r.pick,) if r is not None and r.pick is not None else (r.equivalent if r is not None else ())
    for i, f in enumerate(c["fabrics"]):
        colour = f["colour"]
        weight = "font-weight:700;" if f["fabric"] in picked else ""
        bg = "background:#f7f7f7;" if i % 2 else ""
        middle = (f"<td colspan='3' style='color:#a03000'>{_e(f['stall'])}</td>" if f.get("stall") else
                  f"<td align='right'>{_e(f['mfu'])}</td><td align='right'>{_e(f['days'])}</td>"
                  f"<td align='right'>{_e(f['interruptions'])}</td>")
        rows.append(
            f"<tr style='{bg}{weight}'><td><span style='color:{colour}'>■</span> {_e(f['label'])}</td>"
            f"{middle}<td align='right'>{_e(f['capex'])}</td>"
            f"<td align='right'>{_e(f['tco'])}</td><td align='right'>{_e('–' if f.get('stall') else f['per_run'])}</td>"
            f"<td>{_e(f['plan'])}</td></tr>")
    note = (f"<p style='color:{MUTED}; font-size:6.5pt'>"
            + _e(translate("Proposal", "* Training days including expected interruptions and restarts. Money in "
                                       "{currency}. The recommended fabric (or the equivalent ones) in bold.").format(currency=cur))
            + "</p>")
    return (_heading(translate("Proposal", "At this scenario"))
            + f"{_TABLE}{head}{''.join(rows)}</table>{note}")


def _compare_html(c) -> str:
    """A against B (this sheet) per fabric: utilisation, training days and TCO, each A | B | Δ."""
    cmp_ = c.get("compare")
    if not cmp_:
        return ""

    keys = [m[0] for m in compare.METRICS]
    title = _e(translate("Proposal", "A/B compare: A “{a}” (pinned, dashed on the charts) against B “{b}” "
                                     "(this sheet)").format(a=short_name(cmp_["name_a"], 40),
                                                            b=short_name(cmp_["name_b"], 40)))
    head1 = ("<tr style='background:#eef3f8'><th align='left' rowspan='2'>" + _e(translate("Proposal", "Fabric"))
             + "</th>" + "".join(f"<th align='center' colspan='3'>{_e(compare.metric_name(k))}</th>" for k in keys)
             + "</tr>")
    head2 = "<tr style='background:#eef3f8'>" + "<th align='right'>A</th><th align='right'>B</th>" \
            "<th align='right'>Δ</th>" * len(keys) + "</tr>"
    rows = []
    for i, r in enumerate(cmp_["rows"]):
        bg = "background:#f7f7f7;" if i % 2 else ""
        cells = ""
        for k in keys:
            t = r["cells"].get(k)
            if t is None:
                cells += "<td></td>" * 3
                continue
            delta = t["delta"] + (f" ({t['pct']})" if t["pct"] != "–" else "")
            cells += (f"<td align='right'>{_e(t['a'])}</td><td align='right'>{_e(t['b'])}</td>"
                      f"<td align='right' style='color:{t['colour']}'>{_e(delta)}</td>")
        rows.append(f"<tr style='{bg}'><td><span style='color:{r['colour']}'>■</span> {_e(_short(r['label']))}</td>"
                    f"{cells}</tr>")
    note = (f"<p style='color:{MUTED}; font-size:6.5pt'>{cmp_['changes_html']}. "
            + _e(translate("Proposal", "Δ = B − A; green: better for B, red: worse.")))
    note += "</p>"
    return (f"<p style='color:{ACCENT}; font-weight:600'>{title}</p>"
            f"{_TABLE}{head1}{head2}{''.join(rows)}</table>{note}")


EXPLANATIONS = {  # model.claims.EXPLANATIONS, worded for the sheet (fabric names, money in the language's format)
    "electricity": QT_TRANSLATE_NOOP(
        "Claims", "(energy per run on {baseline} {energy_baseline} − on {fabric} {energy_fabric}) × the {runs} runs "
                  "{fabric} completes a year; {baseline} would need {slower} years for them, so this exceeds a "
                  "year’s electricity bill ({bill})"),
    "token_cost": QT_TRANSLATE_NOOP(
        "Claims", "1 − cost per token on {fabric} / on {baseline}: {baseline} needs {slower}× the cluster-years for "
                  "the same tokens"),
    "same_work": QT_TRANSLATE_NOOP(
        "Claims", "{fabric}’s {years}-year output ({tokens_b} B tokens) bought at {baseline}’s cost per token "
                  "({bought}, {slower}× the cluster-years) − {fabric}’s TCO ({tco}): larger than a TCO because "
                  "{baseline} would need {slower}× as long"),
}


def claim_explanation(row, labels) -> str:
    """A claims row's one-line explanation in the sheet's language: fabrics by their short names, money in the one
    format (the engine's English line when the row carries no parts)."""
    if not row.explained:
        return row.explanation
    code, items = row.explained
    values = {}
    for key, v in items:
        if key in claims.EXPLANATION_MONEY:
            values[key] = fmt_money(v, "CNY")
        elif key in ("fabric", "baseline"):
            values[key] = _short(tr_data(labels.get(v, v))).split("（")[0]
        elif key == "years":
            values[key] = f"{v:g}"
        elif key == "tokens_b":
            values[key] = f"{v:,.0f}"
        else:
            values[key] = f"{v:,.1f}"
    return translate("Claims", EXPLANATIONS[code]).format(**values)


def _claims_html(c) -> str:
    if not c["claims"]:
        return ""
    rows = []
    for i, r in enumerate(c["claims"]):
        bg = "background:#f7f7f7;" if i % 2 else ""
        rows.append(f"<tr style='{bg}'><td>{_e(tr_data(r.label))}</td>"
                    f"<td>{_e(_short(tr_data(c['labels'].get(r.fabric, r.fabric))))}"
                    f"</td><td>{_e(tr_data(r.article))}</td><td align='right'>{_e(fmt_quantity(r.seed, r.unit, tr_unit(r.unit)))}"
                    f"</td><td align='right'>{_e(fmt_quantity(r.published, r.unit, tr_unit(r.unit)))}</td></tr>")
        if r.explanation:  # a counterfactual figure, explained in one line
            rows.append(f"<tr style='{bg}'><td colspan='5' style='color:{MUTED}'>↳ "
                        f"{_e(claim_explanation(r, c['labels']))}</td></tr>")
    cols = ((translate("Proposal", "Claim"), "left"), (translate("Proposal", "Fabric"), "left"),
            (translate("Proposal", "Article"), "left"), (translate("Proposal", "Engine, seed"), "right"),
            (translate("Proposal", "Engine, published"), "right"))
    head = ("<tr style='background:#eef3f8'>" + "".join(f"<th align='{al}'>{_e(t)}</th>" for t, al in cols)
            + "</tr>")
    title = (translate("Proposal", "The article’s claims beside the engine (case study “{name}”, as published: "
                                   "this scenario’s edits are not in this table)") if c.get("claims_edited")
             else translate("Proposal", "The article’s claims beside the engine (case study “{name}”)"))
    return (f"<p style='color:{ACCENT}; font-weight:600'>{_e(title.format(name=c['claims_preset']))}</p>"
            f"{_TABLE}{head}{''.join(rows)}</table>")


def _assumptions_html(c) -> str:
    items = "".join(f"<p style='color:{MUTED}; margin-bottom:1px'><b style='color:{INK}'>{_e(k)}</b> — {_e(v)}</p>"
                    for k, v in c["assumptions"])
    return _heading(translate("Proposal", "Assumptions and sources")) + items + guess_legend_html(c["assumptions"])


def guess_legend_html(items) -> str:
    """The one line that explains the guess mark (:func:`gui.present.assumptions.guess_legend`), when any item
    carries it."""
    text = guess_legend(items)
    return f"<p style='color:{MUTED}; margin-top:3px'>{_e(text)}</p>" if text else ""


# --------------------------------------------------------------------------
# drawing
# --------------------------------------------------------------------------

CJK_LINE_HEIGHT = 82.0  # % of the font's line spacing: Noto Sans CJK's (1.45 em) would need a second page


def _tighten_lines(doc) -> None:
    """Chinese text at a line spacing close to the Latin one (ideographs fill ~1 em; the font asks 1.45 em)."""
    block = doc.begin()
    while block.isValid():
        cur = QtGui.QTextCursor(block)
        fmt = block.blockFormat()
        fmt.setLineHeight(CJK_LINE_HEIGHT, QtGui.QTextBlockFormat.LineHeightTypes.ProportionalHeight.value)
        cur.setBlockFormat(fmt)
        block = block.next()


class _Sheet:
    """Places HTML blocks and charts top to bottom on one page (96 dpi device pixels)."""

    def __init__(self, painter, width: float, height: float, margin: float):
        self.p = painter
        self.left, self.right = margin, width - margin
        self.top, self.bottom = margin, height - margin
        self.y = margin

    @property
    def width(self) -> float:
        return self.right - self.left

    def doc(self, html_text: str, width: float, pt: float, tight: bool = True):
        d = QtGui.QTextDocument()
        d.setDocumentMargin(0)
        d.setDefaultFont(_font(pt))
        d.setDefaultStyleSheet(f"p {{ margin: 0 0 3px 0; color:{INK} }} th {{ font-weight:600 }} "
                               f"td, th {{ border-bottom: 1px solid #dddddd }} li {{ margin-bottom:1px }}")
        d.setHtml(html_text)
        if tight and is_chinese():
            _tighten_lines(d)
        d.setTextWidth(width)
        return d

    def draw_doc(self, d, x: float, y: float, max_h: float | None = None) -> float:
        self.p.save()
        self.p.translate(x, y)
        clip = QtCore.QRectF(0, 0, d.textWidth(), max_h if max_h is not None else d.size().height())
        d.drawContents(self.p, clip)
        self.p.restore()
        return d.size().height()

    def block(self, html_text: str, pt: float = 7.5, gap: float = 8.0) -> float:
        h = self.draw_doc(self.doc(html_text, self.width, pt), self.left, self.y)
        self.y += h + gap
        return h

    def rule(self, colour: str = ACCENT, width: float = 1.5, gap: float = 8.0) -> None:
        self.p.save()
        self.p.setPen(QtGui.QPen(QtGui.QColor(colour), width))
        self.p.drawLine(QtCore.QPointF(self.left, self.y), QtCore.QPointF(self.right, self.y))
        self.p.restore()
        self.y += gap


def _header(sheet: _Sheet, c) -> None:
    left = (f"<p style='color:{ACCENT}; font-size:8pt; font-weight:600; letter-spacing:1px'>"
            f"{_e(c['title'].upper())}</p>"
            f"<p style='font-size:16pt; font-weight:700; color:{INK}'>{_e(c['scenario'])}</p>"
            + (f"<p style='color:{MUTED}'>{_e(c['description'])}</p>" if c["description"] else ""))
    right = (f"<p align='right' style='color:{MUTED}'>{_e(c['date'])}<br>"
             f"Fabric What-If {_e(c['version'])}<br>"
             + _e(translate("Proposal", "Profile set: {name}")).format(name=f"<b>{_e(c['profile_label'])}</b>")
             + "</p>")
    rw = sheet.width * 0.30
    d_left = sheet.doc(left, sheet.width - rw - 12, 8, tight=False)  # the title keeps its air
    d_right = sheet.doc(right, rw, 7.5, tight=False)
    h = max(sheet.draw_doc(d_left, sheet.left, sheet.y), sheet.draw_doc(d_right, sheet.right - rw, sheet.y))
    sheet.y += h + 6
    sheet.rule()


def _two_columns(sheet: _Sheet, left_html: str, right_html: str, pt: float = 7.5, split: float = 0.52) -> None:
    gap = 16
    lw = (sheet.width - gap) * split
    rw = sheet.width - gap - lw
    dl = sheet.doc(left_html, lw, pt)
    dr = sheet.doc(right_html, rw - 16, pt)
    h = max(dl.size().height(), dr.size().height() + 12)
    # the recommendation sits in a tinted box so it is the first thing the eye finds
    box = QtCore.QRectF(sheet.left + lw + gap, sheet.y - 4, rw, h + 4)
    sheet.p.save()
    sheet.p.setPen(QtGui.QPen(QtGui.QColor(ACCENT), 1.0))
    sheet.p.setBrush(QtGui.QColor("#eef5fb"))
    sheet.p.drawRoundedRect(box, 4, 4)
    sheet.p.restore()
    sheet.draw_doc(dl, sheet.left, sheet.y)
    sheet.draw_doc(dr, box.left() + 8, sheet.y + 4)
    sheet.y += h + 12


def _legend(sheet: _Sheet, snap, c=None, overlays=None) -> None:
    """One legend for the three charts: the fabric colours and line styles as drawn, then A's dashed
    line and the P10–P90 band when the sheet draws them (wrapping to a second line when needed)."""
    overlays = overlays or {}
    entries = [(make_pen(st, 2.0 * float(st.get("width_scale", 1.0))), None, tr_data(st["label"]))
               for st in fabric_styles(snap.sweep)]
    for e in overlay_legend(overlays.get("bands"), overlays.get("pinned"), 2.0):
        if e["kind"] == "pinned":
            entries.append((pinned_pen({"colour": OVERLAY_GREY}, 1.5), None, e["text"]))
        else:  # the band: a shaded swatch, and how it was computed (the same file every time)
            b = (c or {}).get("bands") or {}
            fill = QtGui.QColor(OVERLAY_GREY)
            fill.setAlpha(BAND_ALPHA * 2)
            entries.append((None, fill, e["text"] + translate("Proposal", " ({n} seeded samples, seed {seed})").format(
                n=f"{b.get('samples', 0):,}", seed=b.get("seed", 0))))
    # what the small charts draw without saying so in their plots
    notes = sheet_notes(snap.sweep, CHART_KINDS)
    if notes["idle"]:  # the charts shade the stretches where the plan leaves GPUs idle
        idle_fill = QtGui.QColor(OVERLAY_GREY)
        idle_fill.setAlpha(BAND_ALPHA * 2)
        entries.append((None, idle_fill, translate("Charts", "idle GPUs: batch does not divide")))
    if notes["rings"]:
        entries.append((pg.mkPen(OVERLAY_GREY, width=1.2), "ring", translate("Proposal", "whole-number plan step")))
    if notes["gap"]:
        entries.append((None, "blank", translate("Charts", "blank: no parallel plan fits there")))
    f = _font(7.5)
    fm = QtGui.QFontMetricsF(f)
    x, y = sheet.left, sheet.y + fm.ascent()
    sheet.p.save()
    sheet.p.setFont(f)
    for pen, fill, text in entries:
        w = 27 + fm.horizontalAdvance(text)
        if fill == "blank":  # a note, no sample
            w -= 27
        if x > sheet.left and x + w > sheet.right:  # next line
            x, y = sheet.left, y + fm.height() + 2
        mid = y - fm.ascent() / 3
        if fill == "blank":
            x -= 27
        elif fill == "ring":
            sheet.p.setPen(pen)
            sheet.p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            sheet.p.drawEllipse(QtCore.QPointF(x + 11, mid), 3.5, 3.5)
        elif fill is not None:
            sheet.p.fillRect(QtCore.QRectF(x, mid - 4, 22, 8), fill)
        else:
            sheet.p.setPen(pen)
            sheet.p.drawLine(QtCore.QPointF(x, mid), QtCore.QPointF(x + 22, mid))
        sheet.p.setPen(QtGui.QColor(INK))
        sheet.p.drawText(QtCore.QPointF(x + 27, y), text)
        x += w + 18
    sheet.p.restore()
    sheet.y = y - fm.ascent() + fm.height() + 6


def _charts(sheet: _Sheet, snap, height: float, draw: bool = True, crossings=(), overlays=None) -> None:
    if not draw:  # the measuring pass: only the space
        sheet.y += height + 8
        return

    w = small_chart_width(sheet.width)
    cap_font = _font(7.5, bold=True)
    cap_h = QtGui.QFontMetricsF(cap_font).height() + 2
    for i, kind in enumerate(CHART_KINDS):
        chart = small_chart(snap, kind, (int(w), int(height - cap_h)), overlays)
        draw_chart(sheet, snap, kind, chart, sheet.left + i * (w + CHART_GAP), cap_font, crossings, label_pt=6.0)
    sheet.y += height + 8


def draw_chart(sheet: "_Sheet", snap, kind: str, chart, x: float, cap_font, crossings=(),
               label_pt: float = 6.0) -> None:
    """Draw ``chart`` (an offscreen chart widget of ``kind``) at ``x``, ``sheet.y``: its caption (elided to the chart's
    width) above it, the break-even lines of ``crossings`` on it as the window draws them; then close it."""
    cap_h = QtGui.QFontMetricsF(cap_font).height() + 2
    w = chart.width()
    for cross in crossings:
        if breakeven.METRICS.get(cross.metric) == kind:
            breakeven.add_marker(chart, snap.sweep, cross, snap.x_field, label_pt=label_pt, fit_label=True)
    try:
        sheet.p.save()
        sheet.p.setFont(cap_font)
        sheet.p.setPen(QtGui.QColor(INK))
        sheet.p.drawText(QtCore.QRectF(x, sheet.y, w, cap_h), QtCore.Qt.AlignmentFlag.AlignLeft,
                         QtGui.QFontMetricsF(cap_font).elidedText(_caption(chart.series),
                                                                  QtCore.Qt.TextElideMode.ElideRight, w))
        sheet.p.restore()
        render_scene(chart, sheet.p, QtCore.QRectF(x, sheet.y + cap_h, chart.width(), chart.height()))
    finally:
        chart.close()
        chart.deleteLater()


CHART_GAP = 10.0  # between the sheet's charts [px at PDF_DPI]


def small_chart_width(sheet_width: float) -> float:
    """The width of each of the sheet's charts, side by side across ``sheet_width`` [px at PDF_DPI]."""
    return (sheet_width - CHART_GAP * (len(CHART_KINDS) - 1)) / len(CHART_KINDS)


def small_chart(snap, kind: str, size, overlays=None):
    """One of the sheet's charts, drawn offscreen at ``size`` (px at PDF_DPI): the export widget in its
    compact form (6.5 pt text, no title or legend in the chart, no notes in the plot)."""
    return build_chart(snap, kind, size=size, line_width=1.5, font_pt=6.5, compact=True, **(overlays or {}))


def _caption(data: dict) -> str:
    """A chart title short enough for a quarter of the page (the legend line explains the styles):
    no parenthesis, the baseline fabric by its short name."""
    title = data["title"]
    base = data.get("baseline_label")
    if base:
        short = next((s["short"] for s in data["series"] if s["fabric"] == data.get("baseline")), base)
        title = title.replace(base, short)
    return title.split(" (")[0].split("（")[0]


def _footer(sheet: _Sheet, c, page_h: float, margin: float) -> None:
    parts = [translate("Proposal", "Generated by Fabric What-If {version} on {date}").format(
                 version=c["version"], date=c["date"]),
             translate("Proposal", "fabric figures: {name}").format(name=c["profile_label"])]
    if c["source"]:
        parts.append(translate("Proposal", "scenario file {name}").format(name=Path(c["source"]).name))
    parts.append(translate("Proposal", "Engine estimates from published mechanisms, not measurements of your "
                                       "cluster."))
    text = " · ".join(_e(t) for t in parts)
    d = sheet.doc(f"<p style='color:{MUTED}'>{text}</p>", sheet.width, 6.5)
    y = page_h - margin + 6
    sheet.draw_doc(d, sheet.left, y)


def proposal_pdf(snap, *, paper: str = "a4", source=None, today: dt.date | None = None, pair=None, bands=None,
                 pinned=None, audit: bool = False, baseline: str | None = None) -> bytes:
    """The proposal sheet as PDF bytes (one page, A4 or Letter; ``audit`` adds the claims' page), in the current UI
    language.

    ``pair``: the two fabrics of the break-even block and chart markers (default: InfiniBand
    against the fastest other fabric). ``bands`` (P10–P90 along the snapshot's x-axis) and
    ``pinned`` (the A snapshot of an A/B compare) are drawn on the charts as in the window,
    with their legend entries; ``pinned`` also adds the A/B table under the fabric table; ``baseline``:
    the fabric the TCO chart is measured from."""
    ensure_app()
    if paper not in PAPERS:
        raise ScenarioError("--paper", paper, "a4 or letter")
    c = proposal_content(snap, source=source, today=today, pair=pair, bands=bands, pinned=pinned, audit=audit)
    overlays = dict(bands=bands, pinned=pinned, baseline=baseline)
    buf, pdf = pdf_writer(paper, f"{c['title']}: {c['scenario']}")
    page = pdf.pageLayout().fullRectPixels(PDF_DPI)
    # Measuring pass on an image of the page (same 96 dpi): the charts take the room the
    # text leaves, so a short claims table or a Letter page gets larger charts, not a gap.
    probe = QtGui.QImage(page.width(), page.height(), QtGui.QImage.Format.Format_RGB32)
    probe.setDotsPerMeterX(int(PDF_DPI / 0.0254))
    probe.setDotsPerMeterY(int(PDF_DPI / 0.0254))
    # The audit (the article's claims) is a page of its own: asking for it never shrinks the sheet's charts or
    # cuts its sources.
    sheet_c = dict(c, claims=[])
    free, free_small = _measure(probe, page, sheet_c, snap, overlays)
    chart_h = MIN_CHART_H + max(0.0, min(free - 4, MAX_CHART_H - MIN_CHART_H))
    if free_small < 0:  # even the smallest sources do not fit (Chinese lines are taller): smaller charts
        chart_h = max(FLOOR_CHART_H, MIN_CHART_H + free_small - 4)
    p = QtGui.QPainter(pdf)
    try:
        _draw_page(p, page, sheet_c, snap, chart_h, overlays=overlays)
        if c["claims"]:
            pdf.newPage()
            draw_audit_page(p, page, c)
    finally:
        p.end()
    buf.close()
    return bytes(buf.data())


def pdf_writer(paper: str, title: str):
    """An open buffer and a ``QPdfWriter`` into it: ``paper`` (a4 or letter) without margins at PDF_DPI, the
    document's title and creator set."""
    buf = QtCore.QBuffer()
    buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    pdf = QtGui.QPdfWriter(buf)
    pdf.setResolution(PDF_DPI)
    pdf.setPageSize(QtGui.QPageSize(QtGui.QPageSize.PageSizeId.A4 if paper == "a4"
                                    else QtGui.QPageSize.PageSizeId.Letter))
    pdf.setPageMargins(QtCore.QMarginsF(0, 0, 0, 0))
    pdf.setTitle(title)
    pdf.setCreator(f"Fabric What-If {model.__version__}")
    return buf, pdf


def draw_audit_page(p, page, c) -> None:
    """The article's claims beside the engine's figures on a page of their own, with the sheet's footer."""
    p.fillRect(QtCore.QRectF(page), QtGui.QColor("white"))
    sheet = _Sheet(p, page.width(), page.height() - FOOTER_H, PAGE_MARGIN)
    sheet.block(f"<p style='color:{ACCENT}; font-weight:600'>{_e(c['title'])} · {_e(c['scenario'])}</p>", pt=7.0,
                gap=4)
    sheet.rule(width=1.0, gap=10)
    sheet.block(_claims_html(c), pt=7.0)
    _footer(sheet, c, page.height() - FOOTER_H, PAGE_MARGIN)


def _measure(probe, page, c, snap, overlays) -> tuple[float, float]:
    """The measuring pass of :func:`_draw_page` on an image of the page (no charts drawn)."""
    p = QtGui.QPainter(probe)
    try:
        return _draw_page(p, page, c, snap, MIN_CHART_H, charts=False, overlays=overlays)
    finally:
        p.end()


MIN_CHART_H, MAX_CHART_H = 165.0, 290.0
FLOOR_CHART_H = 130.0  # the charts shrink below MIN_CHART_H only so the sources are not cut
PAGE_MARGIN = 40.0
FOOTER_H = 14.0


def _draw_page(p, page, c, snap, chart_h: float, charts: bool = True, overlays=None) -> tuple[float, float]:
    """Lay the sheet out on ``p``; returns the height left free under the sources at their full size
    and at their smallest (negative: what they lack). ``overlays``: ``bands`` and ``pinned`` for the charts."""
    p.fillRect(QtCore.QRectF(page), QtGui.QColor("white"))
    sheet = _Sheet(p, page.width(), page.height() - FOOTER_H, PAGE_MARGIN)
    _header(sheet, c)
    _two_columns(sheet, _inputs_html(c), _recommendation_html(c))
    _legend(sheet, snap, c, overlays)
    _charts(sheet, snap, height=chart_h, draw=charts, crossings=c["breakeven"]["crossings"], overlays=overlays)
    sheet.block(_fabric_table_html(c), pt=7.0)
    compare = _compare_html(c)
    if compare:
        sheet.block(compare, pt=6.5)
    claims = _claims_html(c)
    if claims:
        sheet.block(claims, pt=6.5)
    free = _fit_assumptions(sheet, _assumptions_html(c))
    _footer(sheet, c, page.height() - FOOTER_H, PAGE_MARGIN)
    return free


def _fit_assumptions(sheet: _Sheet, html_text: str) -> tuple[float, float]:
    """The sources fill what is left of the page; the font shrinks (to 5 pt) before anything is cut.

    Returns the room left over at the full size and at the smallest (negative: what they lacked)."""
    room = sheet.bottom - sheet.y
    full = None
    for pt in (6.5, 6.25, 6.0, 5.75, 5.5, 5.25, 5.0):
        d = sheet.doc(html_text, sheet.width, pt)
        full = d.size().height() if full is None else full
        if d.size().height() <= room:
            break
    sheet.draw_doc(d, sheet.left, sheet.y, max_h=room)
    sheet.y += min(d.size().height(), room)
    return room - full, room - d.size().height()


def write_proposal(snap, path, *, paper: str = "a4", source=None, today: dt.date | None = None,
                   pair=None, bands=None, pinned=None, audit: bool = False, baseline: str | None = None) -> Path:
    """Write the proposal sheet to ``path`` (.pdf), atomically (``bands``, ``pinned``: see :func:`proposal_pdf`;
    :func:`gui.export.charts.window_overlays` gives both for a window)."""
    if Path(str(path)).suffix.lower() != ".pdf":
        raise ScenarioError(str(path), Path(str(path)).suffix or "no extension", "a .pdf file for the proposal sheet")
    check_writable(path)
    return atomic_write(path, proposal_pdf(snap, paper=paper, source=source, today=today, pair=pair, bands=bands,
                                           pinned=pinned, audit=audit, baseline=baseline))


__all__ = ["PAPERS", "proposal_content", "proposal_pdf", "write_proposal"]
