"""Recommendation panel: the article's decision tree beside the engine's pick, with the
reason when they differ, and the claims table (article vs engine) for case-study presets.

Everything shown comes from the engine (``model.recommend``, ``model.claims``); this
panel only lays it out.
"""

from __future__ import annotations

import functools
import html
import math

from PySide6 import QtCore, QtWidgets

import model
from model import claims as claims_mod
from model import presets as presets_mod
from model import recommend

from .charts import fabric_styles
from .i18n import translate
from .i18n_data import tr_data, tr_unit
from .present.format import fmt_quantity
from .presentation import muted
from .richtext import RichText


@functools.cache
def _claims(name: str):
    """The claims table of a preset (depends on the preset only, not on later edits)."""
    return tuple(claims_mod.claims_table(name))


def preset_name_for(path) -> str | None:
    """The preset name (``case2`` ...) whose file is ``path``, if any."""
    if not path:
        return None
    return _preset_name_for(str(path))


@functools.lru_cache(maxsize=64)
def _preset_name_for(path: str) -> str | None:
    from pathlib import Path

    p = Path(path).resolve()
    for name in presets_mod.preset_names():
        if presets_mod.preset_path(name).resolve() == p:
            return name
    return None


class RecommendationPanel(QtWidgets.QWidget):
    """Decision tree vs engine pick, and the claims table where the preset has claims."""

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.summary = RichText()  # changes on every slider move: cheaper than a rich-text QLabel
        lay.addWidget(self.summary)
        self.claims_title = QtWidgets.QLabel()
        self.claims_title.setWordWrap(True)
        lay.addWidget(self.claims_title)
        self.claims = QtWidgets.QTableWidget(0, 3)
        self.claims.setObjectName("claimsTable")
        self.claims.setHorizontalHeaderLabels([translate("RecommendationPanel", "Claim"),
                                               translate("RecommendationPanel", "Article"),
                                               translate("RecommendationPanel", "Engine: seed · published")])
        self.claims.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.claims.verticalHeader().hide()
        self.claims.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.claims.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.NoSelection)
        self.claims.setWordWrap(True)
        self.claims.setTextElideMode(QtCore.Qt.TextElideMode.ElideNone)
        self.claims.setAlternatingRowColors(True)
        hh = self.claims.horizontalHeader()
        hh.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(1, QtWidgets.QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(2, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        lay.addWidget(self.claims, 1)
        self.claims_title.hide()
        self.claims.hide()
        self.engine_pick: str | None = None
        self.tree_pick: str | None = None
        self.reason: str = ""
        self._claims_for: str | None = "?"

    def show_snapshot(self, snap, preset: str | None = None) -> None:
        """Show the recommendation at ``snap.point``; the claims of ``preset`` (a case name)."""
        point = snap.point
        styles = {n: s for n, s in zip(point.fabrics, fabric_styles(point))}

        def name(fid):
            if fid is None:
                return translate("RecommendationPanel", "none")
            st = styles.get(fid)
            if st is None:
                return html.escape(fid)
            return f"<span style='color:{st['colour']}'><b>{html.escape(st.get('short', fid))}</b></span>"

        try:
            rec = recommend.recommendation(snap.scenario, point)
        except (KeyError, ValueError, model.ScenarioError) as err:
            rec = None
            text = "<i>" + translate("RecommendationPanel", "No recommendation: {error}").format(
                error=html.escape(str(err))) + "</i>"
        if rec is not None:
            self.tree_pick, self.engine_pick = rec["tree_fabric"], rec["engine_fabric"]
            self.reason = rec.get("reason", "")
            margin = rec.get("margin")
            margin_txt = (translate("RecommendationPanel", ", {pct}% ahead of {name}").format(
                pct=f"{margin * 100:.1f}", name=name(rec["runner_up"]))
                          if rec.get("runner_up") and margin is not None and math.isfinite(margin) else "")
            lines = [
                translate("RecommendationPanel", "<b>Article's decision tree:</b>") + f" {name(self.tree_pick)}"
                f"<br><span style='color:{muted()}'>" + translate("RecommendationPanel", "rule {rule}: {reason}").format(
                    rule=html.escape(str(rec["tree_rule"])), reason=html.escape(tr_data(rec["tree_reason"])))
                + "</span>",
                translate("RecommendationPanel", "<b>Engine's pick:</b>") + f" {name(self.engine_pick)}"
                f"<br><span style='color:{muted()}'>{html.escape(tr_data(rec['engine_criterion']))}{margin_txt}</span>",
            ]
            if self.engine_pick is None:
                lines[-1] = (translate("RecommendationPanel", "<b>Engine's pick:</b>") + " "
                             + translate("RecommendationPanel", "none") + f"<br><span style='color:{muted()}'>"
                             + translate("RecommendationPanel", "no parallel plan fits this model on this cluster for "
                                                                "any fabric: add nodes or memory, or shrink the model")
                             + "</span>")
            elif rec["agree"]:
                lines.append("<span style='color:#1b7a3a'>" + translate("RecommendationPanel", "✔ They agree.")
                             + "</span>")
            else:
                lines.append("<span style='color:#a03000'><b>" + translate("RecommendationPanel", "They differ:")
                             + f"</b></span> {html.escape(tr_data(self.reason))}")
            text = "<br>".join(lines)
        self.summary.setText(text)  # RichText re-lays out only when the text changes
        self._show_claims(preset)

    def _show_claims(self, preset: str | None) -> None:
        if preset == self._claims_for:
            return
        self._claims_for = preset
        figs = presets_mod.article_figures()
        rows = _claims(preset) if preset in figs and figs[preset].get("claims") else ()
        if not rows:
            self.claims.hide()
            self.claims_title.hide()
            return
        self.claims_title.setText(translate("RecommendationPanel", "<b>Article vs engine</b> — {preset} as published "
                                                                   "(unaffected by your edits)").format(
            preset=html.escape(preset)))
        self.claims.setRowCount(len(rows))
        for i, row in enumerate(rows):
            label = tr_data(row.label) + ("" if row.fabric == figs[preset].get("chosen") else f" ({row.fabric})")
            cells = [label, tr_data(row.article), f"{_fmt(row.seed, row.unit)} · {_fmt(row.published, row.unit)}"]
            for c, text in enumerate(cells):
                item = QtWidgets.QTableWidgetItem(text)
                if c == 2:
                    item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
                if row.note:
                    item.setToolTip(row.note)
                self.claims.setItem(i, c, item)
        self.claims.resizeRowsToContents()
        self.claims_title.show()
        self.claims.show()


def _fmt(x: float, unit: str) -> str:
    return fmt_quantity(x, unit, tr_unit(unit))


__all__ = ["RecommendationPanel", "preset_name_for"]
