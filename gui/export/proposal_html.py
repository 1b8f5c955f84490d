"""The proposal sheet's text blocks as HTML (``QTextDocument`` lays them out): the inputs, the recommendation,
the break-even, the fabric table, the A/B compare, the article's claims and the assumptions, each from a
:class:`~gui.export.proposal_content.ProposalContent`."""

from __future__ import annotations

from model import claims

from gui.charts import compare
from gui.charts.chart_readout import short_name
from gui.i18n import fmt_money, translate
from gui.present.text import QT_TRANSLATE_NOOP
from gui.i18n_data import tr_data, tr_unit
from gui.present.assumptions import guess_legend
from gui.present.format import fmt_quantity

from gui.export.proposal_content import ACCENT, INK, MUTED, _e, _say, _short


# --------------------------------------------------------------------------
# HTML of the text blocks
# --------------------------------------------------------------------------

_TABLE = ("<table width='100%' cellspacing='0' cellpadding='2' "
          "style='border-collapse:collapse; border-color:#cfcfcf'>")


def _heading(text: str, extra: str = "") -> str:
    return f"<p style='color:{ACCENT}; font-weight:600{extra}'>{_e(text)}</p>"


def _inputs_html(c) -> str:
    rows = "".join(f"<tr><td style='color:{MUTED}' width='22%'>{_e(k)}</td><td>{_e(v)}</td></tr>"
                   for k, v in c.inputs)
    return _heading(translate("Proposal", "Inputs")) + f"{_TABLE}{rows}</table>"


def _recommendation_html(c) -> str:
    r = c.recommendation
    labels = c.labels
    stalls = c.stalls or {}

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
           + (f"<p><b>{_e(c.takeaway)}</b></p>" if c.takeaway else "")
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
    b = c.breakeven or {}
    if not b.get("sentences"):
        return ""
    a, o = b["pair"]
    head = _e(translate("Proposal", "Break-even, {a} vs {b}")).format(a=_e(a), b=_e(o))
    items = "".join(f"<p style='margin:0 0 1px 0'>• {_e(t)}</p>" for t in b["sentences"])
    return f"<p style='color:{ACCENT}; font-weight:600; margin:4px 0 2px 0'>{head}</p>{items}"


def _fabric_table_html(c) -> str:
    cur = c.currency
    cols = ((translate("Proposal", "Fabric"), "left"), (translate("Proposal", "MFU"), "right"),
            (translate("Proposal", "Days*"), "right"), (translate("Proposal", "Interr."), "right"),
            (translate("Proposal", "Capex"), "right"), (translate("Proposal", "TCO"), "right"),
            (translate("Proposal", "Per run"), "right"), (translate("Proposal", "Parallel plan"), "left"))
    head = ("<tr style='background:#eef3f8'>" + "".join(f"<th align='{al}'>{_e(t)}</th>" for t, al in cols)
            + "</tr>")
    rows = []
    r = c.recommendation
    picked = (r.pick,) if r is not None and r.pick is not None else (r.equivalent if r is not None else ())
    for i, f in enumerate(c.fabrics):
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
    cmp_ = c.compare
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
    if not c.claims:
        return ""
    rows = []
    for i, r in enumerate(c.claims):
        bg = "background:#f7f7f7;" if i % 2 else ""
        rows.append(f"<tr style='{bg}'><td>{_e(tr_data(r.label))}</td>"
                    f"<td>{_e(_short(tr_data(c.labels.get(r.fabric, r.fabric))))}"
                    f"</td><td>{_e(tr_data(r.article))}</td><td align='right'>{_e(fmt_quantity(r.seed, r.unit, tr_unit(r.unit)))}"
                    f"</td><td align='right'>{_e(fmt_quantity(r.published, r.unit, tr_unit(r.unit)))}</td></tr>")
        if r.explanation:  # a counterfactual figure, explained in one line
            rows.append(f"<tr style='{bg}'><td colspan='5' style='color:{MUTED}'>↳ "
                        f"{_e(claim_explanation(r, c.labels))}</td></tr>")
    cols = ((translate("Proposal", "Claim"), "left"), (translate("Proposal", "Fabric"), "left"),
            (translate("Proposal", "Article"), "left"), (translate("Proposal", "Engine, seed"), "right"),
            (translate("Proposal", "Engine, published"), "right"))
    head = ("<tr style='background:#eef3f8'>" + "".join(f"<th align='{al}'>{_e(t)}</th>" for t, al in cols)
            + "</tr>")
    title = (translate("Proposal", "The article’s claims beside the engine (case study “{name}”, as published: "
                                   "this scenario’s edits are not in this table)") if c.claims_edited
             else translate("Proposal", "The article’s claims beside the engine (case study “{name}”)"))
    return (f"<p style='color:{ACCENT}; font-weight:600'>{_e(title.format(name=c.claims_preset))}</p>"
            f"{_TABLE}{head}{''.join(rows)}</table>")


def _assumptions_html(c) -> str:
    items = "".join(f"<p style='color:{MUTED}; margin-bottom:1px'><b style='color:{INK}'>{_e(k)}</b> — {_e(v)}</p>"
                    for k, v in c.assumptions)
    return _heading(translate("Proposal", "Assumptions and sources")) + items + guess_legend_html(c.assumptions)


def guess_legend_html(items) -> str:
    """The one line that explains the guess mark (:func:`gui.present.assumptions.guess_legend`), when any item
    carries it."""
    text = guess_legend(items)
    return f"<p style='color:{MUTED}; margin-top:3px'>{_e(text)}</p>" if text else ""
