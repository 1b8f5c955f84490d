"""What the one-page proposal sheet shows, as plain data from the engine only (evaluate result,
recommendation, claims, profile-set sources): :func:`proposal_content` gives a :class:`ProposalContent`; the
drawing code (:mod:`gui.export.proposal`) only lays it out."""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
import html
import math

import numpy as np

import model
from model import ScenarioError, catalog, claims, presets, recommend
from model.results import fabric_summaries

from gui.charts import breakeven

from gui.charts import compare
from gui.present.series import axis_label, currency_of, fabric_styles, format_money
from gui.charts.compare import changes_text, compare_rows, row_texts
from gui.i18n import fmt_money, is_chinese, translate
from gui.present.format import fmt_sig
from gui.present.text import QT_TRANSLATE_NOOP
from gui.i18n_data import tr_data, tr_description, tr_name
from gui.present.assumptions import assumptions
from gui.present.plausibility import point_stalls, stall_text
from gui.present.text import idle_gpus_note, profile_set_name
from gui.present.reasons import render


ACCENT = "#0072B2"
INK = "#1a1a1a"
MUTED = "#5a5a5a"


def _e(x) -> str:
    return html.escape(str(x))


def _num(v, digits=1, suffix="") -> str:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    return f"{v:,.{digits}f}{suffix}"


def _short(label: str) -> str:
    return label.split(" (")[0]


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
    layers = int(np.asarray(point.workload.layers).reshape(-1)[0])
    sep = translate("Proposal", ", ")
    cluster = (translate("Proposal", "{n} node × {g} {gpu} = {total} GPUs") if c.nodes == 1
               else translate("Proposal", "{n} nodes × {g} {gpu} = {total} GPUs")).format(
        n=f"{c.nodes:,}", g=c.gpus_per_node, gpu=g.get("name", c.gpu), total=f"{c.nodes * c.gpus_per_node:,}")
    model_parts = [translate("Proposal", "{p} B parameters").format(p=fmt_sig(w.params_b, 4))]
    if layers:
        model_parts.append(translate("Proposal", "{n} layers").format(n=int(layers)))
    model_parts.append(translate("Proposal", "sequence {n}").format(n=f"{w.seq_len:,}"))
    model_parts.append(translate("Proposal", "global batch {n}").format(n=f"{w.global_batch:,}"))
    rows = [
        (translate("Proposal", "Cluster"), cluster),
        (translate("Proposal", "Model"), sep.join(model_parts)),
        (translate("Proposal", "Training"), translate("Proposal", "{t} B tokens, recompute {r}").format(
            t=fmt_sig(w.train_tokens_b, 4), r=w.recompute or translate("Proposal", "searched per plan"))),
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


@dataclass(frozen=True)
class ProposalContent:
    """Everything the one-page sheet shows, as plain data (strings and lists) from the engine."""
    title: str  # the sheet's title
    scenario: str  # the scenario's name, translated
    description: str  # its description, translated
    date: str  # ISO date printed on the sheet
    version: str  # the engine's version
    profile_set: str  # the fabric figures' set key (``seed``, ``published``)
    profile_label: str  # its display name
    source: str  # the scenario file, '' when unsaved
    currency: str  # ISO code of the money figures
    inputs: list  # (label, value) rows of the inputs block
    fabrics: list  # one dict per fabric row of the table (:func:`_fabric_rows`)
    stalls: dict  # fabric -> stall cause code, for fabrics past the plausibility bound
    recommendation: object  # :class:`model.recommend.Recommendation`, None when it cannot be made
    takeaway: str  # the answer in one sentence
    audit: bool  # the article's claims are added (a second page)
    claims_preset: str | None  # the case-study preset the claims come from
    claims_edited: bool  # the scenario differs from that preset
    claims: list  # :func:`model.claims.claims_table` rows
    assumptions: object  # :func:`gui.present.assumptions.assumptions` of the scenario
    labels: dict  # fabric -> display name
    breakeven: dict  # the break-even block: pair, sentences, crossings, x_label
    compare: dict | None  # the A/B block, None without a pinned snapshot
    bands: dict | None  # samples and seed of the P10-P90 bands, None without


@dataclass(frozen=True)
class PackContent(ProposalContent):
    """The proposal pack's PDF: the sheet's content plus the cover, the fingerprint, the headline numbers and
    the bill of materials (:func:`gui.export.pack_pdf.pack_content`)."""
    cover: object = None  # :class:`gui.present.pack.Cover`
    fingerprint: str = ""  # the scenario's fingerprint
    qr: str = ""  # the QR code's payload
    short: dict = None  # fabric -> short display name
    headline: object = None  # :class:`gui.present.pack.Headline`, None when no fabric fits
    bom: dict = None  # fabric -> bill-of-materials lines
    summaries: tuple = ()  # :class:`model.results.FabricSummary` per fabric
    headline_solo: object = None  # the pick's financials without a baseline, else None

    @classmethod
    def of(cls, sheet: ProposalContent, **pack) -> "PackContent":
        return cls(**{f.name: getattr(sheet, f.name) for f in dataclasses.fields(ProposalContent)}, **pack)


def proposal_content(snap, *, source=None, today: dt.date | None = None, pair=None, bands=None,
                     pinned=None, audit: bool = False) -> ProposalContent:
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
    return ProposalContent(
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


__all__ = ["PackContent", "ProposalContent", "proposal_content"]
