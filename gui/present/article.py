"""Where the engine's physics departs from the article's outcome, in one line (the banner on an
article preset), without Qt.

The article's case studies state training days for the fabric they chose and for the baseline
(``assets/claims.toml``). The presets reproduce the chosen fabric's days by construction (their
training tokens are solved for it, :func:`model.presets.solve_train_tokens_b`), so what the
physics says shows in the other figures: the banner names the day figure furthest from the
article's (by ratio), at the current point, and the audit (the claims table, also
``fabric-whatif claims``) has every figure beside the article's.
"""

from __future__ import annotations

import math

import numpy as np

from model import presets

from gui.present.plausibility import stall_text
from gui.present.text import QT_TRANSLATE_NOOP, translate

AGREES_WITHIN = 0.25
"""A day figure within this fraction of the article's counts as agreeing with it [-] (a guess: the
article's own ranges span ±25 % around their midpoints)."""

DEPARTS = QT_TRANSLATE_NOOP("ArticleBanner", "The physics departs from the article: {fabric} {engine} here, "
                                             "the article says {article}.")
MATCHES = QT_TRANSLATE_NOOP("ArticleBanner", "The physics matches the article's training days here (within "
                                             "{pct} %).")
DAYS = QT_TRANSLATE_NOOP("ArticleBanner", "{days} days")
OPEN_AUDIT = QT_TRANSLATE_NOOP("ArticleBanner", "Open the audit")


def day_claims(preset: str | None) -> list[tuple[str, str, float]]:
    """The article's day figures of a preset: ``(fabric, article's wording, days)``; empty elsewhere."""
    fig = presets.article_figures().get(preset) if preset else None
    if not fig:
        return []
    out = []
    for c in fig.get("claims", ()):
        if c.get("metric") != "days":
            continue
        which = c.get("fabric", "chosen")
        fabric = fig[which] if which in ("chosen", "baseline") else which
        out.append((fabric, str(c["article"]), float(c["value"])))
    return out


def departure(preset: str | None, point, stalls: dict | None = None) -> dict | None:
    """The day figure furthest from the article's at ``point`` (an ``evaluate`` result):
    ``{"fabric", "article", "article_days", "days", "ratio", "stall", "agrees"}``; None when the preset
    states no days or none of its fabrics is compared."""
    stalls = stalls or {}
    days = np.asarray(point.reliability.train_days_with_interruptions, dtype=float).reshape(-1)
    best = None
    for fabric, wording, article_days in day_claims(preset):
        if fabric not in point.fabrics:
            continue
        d = float(days[point.fabric_index(fabric)])
        if not (math.isfinite(d) and d > 0 and article_days > 0):
            continue
        ratio = d / article_days
        if best is None or abs(math.log(ratio)) > abs(math.log(best["ratio"])):
            best = dict(fabric=fabric, article=wording, article_days=article_days, days=d, ratio=ratio,
                        stall=stalls.get(fabric, ""))
    if best is not None:
        best["agrees"] = abs(best["ratio"] - 1.0) <= AGREES_WITHIN and not best["stall"]
    return best


def banner_text(preset: str | None, point, labels: dict, stalls: dict | None = None, article_tr=str) -> str:
    """The banner's sentence in the reader's language ('' when there is nothing to say); ``article_tr``
    translates the article's wording (an asset string: the window's :func:`gui.i18n_data.tr_data`)."""
    d = departure(preset, point, stalls)
    if d is None:
        return ""
    if d["agrees"]:
        return translate("ArticleBanner", MATCHES).format(pct=f"{AGREES_WITHIN * 100:.0f}")
    engine = stall_text(d["stall"]) if d["stall"] else translate("ArticleBanner", DAYS).format(days=f"{d['days']:,.1f}")
    return translate("ArticleBanner", DEPARTS).format(fabric=labels.get(d["fabric"], d["fabric"]), engine=engine,
                                                      article=article_tr(d["article"]))


__all__ = ["AGREES_WITHIN", "banner_text", "day_claims", "departure"]
