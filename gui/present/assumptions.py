"""The assumptions under a proposal, without Qt: every figure's source, and the figures no publication gives
(guesses) marked with :data:`GUESS_MARK` after their names and explained once by :func:`guess_legend`.

The proposal sheet, the pack's assumptions page and its assumptions slide all show this list.
"""

from __future__ import annotations

from model import catalog
from model.fields import field_meta
from model.sections import Economics, FabricSpec, Reliability

from gui.present.format import fmt_sig
from gui.present.text import profile_set_name, tr_source, translate

GUESS_MARK = "†"
"""Marks a figure no publication gives (a guess), after its name; :func:`guess_legend` says so once."""


def assumptions(s, point) -> list[tuple[str, str]]:
    """(what, source) pairs for a scenario and its point result: the profile set, each fabric's figures, the GPU,
    economics and reliability; a guessed figure's name carries :data:`GUESS_MARK`."""
    ps = catalog.profile_set(s.fabric.profile_set)
    sep = translate("Proposal", ", ")
    out = [(translate("Proposal", "Profile set “{name}”").format(name=profile_set_name(s.fabric.profile_set)),
            tr_source(ps.get("source", "")))]
    rows = list(point.fabric_rows)
    # guesses every fabric shares are named once, after the fabrics (the sheet has one page)
    common = set.intersection(*(set(r.guesses) for r in rows)) if len(rows) > 1 else set()
    for row in rows:
        entry = ps.get("fabrics", {}).get(row.name) or {}
        from_scenario = sorted(k for k, v in row.sources.items() if v == "scenario")
        note = tr_source(entry.get("source", "")) or translate(
            "Proposal", "{transport} figures of the profile set").format(transport=row.transport)
        if from_scenario:
            note += translate("Proposal", "; from this scenario: ") + sep.join(_field_name(k) for k in from_scenario)
        own = [k for k in row.guesses if k not in common]
        if own:
            note += translate("Proposal", "; ") + sep.join(_field_name(k) + GUESS_MARK for k in own)
        v = row.values
        head = translate("Proposal", "{fabric}: {gbps} Gb/s × {nics}, {lat} µs, loss {loss} %").format(
            fabric=translate("Data", row.label), gbps=f"{v.get('link_gbps', float('nan')):g}",
            nics=v.get("nics_per_node"),
            lat=f"{v.get('latency_us', float('nan')):g}", loss=fmt_sig(v.get('loss_rate', 0) * 100, 3))
        out.append((head, note))
    if common:
        out.append((translate("Proposal", "Every fabric"),
                    sep.join(_field_name(k) + GUESS_MARK for k in rows[0].guesses if k in common)))
    g = catalog.gpu(s.cluster.gpu)
    out.append((g.get("name", s.cluster.gpu), tr_source(g.get("source", ""))))
    if g.get("economics_source"):
        out.append((translate("Proposal", "{gpu}: prices and power").format(gpu=g.get("name", s.cluster.gpu)),
                    tr_source(g["economics_source"])))
    titles = {"reliability": translate("Proposal", "Reliability defaults"),
              "economics": translate("Proposal", "Economics defaults")}
    specs = {"reliability": Reliability, "economics": Economics}
    for sect in ("reliability", "economics"):
        tab = ps.get(sect)
        if isinstance(tab, dict) and tab.get("source"):
            out.append((titles[sect], tr_source(tab["source"])
                        + (translate("Proposal", "; ")
                           + sep.join(_field_name(k, specs[sect]) + GUESS_MARK for k in tab["guesses"])
                           if tab.get("guesses") else "")))
    return out


def _field_name(key: str, spec=None) -> str:
    """A scenario value's name as the controls say it ('latency_us' -> 'Latency'), in the UI language;
    ``spec``: the section's dataclass (default: a fabric's)."""
    try:
        return translate("Field", field_meta(spec or FabricSpec, key).get("label") or key)
    except (KeyError, AttributeError):
        return key


def guess_legend(items) -> str:
    """The one line that explains :data:`GUESS_MARK` ('' when no item of ``items``, (what, source) pairs, has it)."""
    if not any(GUESS_MARK in k or GUESS_MARK in v for k, v in items):
        return ""
    return GUESS_MARK + " " + translate("Proposal", "a guess: no published source gives this figure; replace it with "
                                                    "your measurement in the app.")


def titles_note() -> str:
    """The line under the sources: the notes are in the reader's language (:func:`gui.present.text.tr_source`),
    the publications' titles as published."""
    return translate("Pack", "Publication titles stay in their original language.")


__all__ = ["GUESS_MARK", "assumptions", "guess_legend", "titles_note"]
