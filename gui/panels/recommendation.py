"""Recommendation panel: the article's decision tree beside the engine's pick, with the
reason when they differ, and the claims table (article vs engine) for case-study presets.

Everything shown comes from the engine (``model.recommend``, ``model.claims``); this
panel only lays it out.
"""

from __future__ import annotations

import functools
import html

from PySide6 import QtCore, QtWidgets

import model
from model import claims as claims_mod
from model import presets as presets_mod
from model import recommend

from gui.present import reasons as reason_text
from gui.present.series import fabric_styles
from gui.i18n import fmt_money, is_chinese, translate
from gui.i18n_data import tr_data, tr_unit
from gui.present.format import fmt_quantity
from gui.present.plausibility import point_stalls
from gui.theme import muted
from gui.panels.richtext import RichText


GUI_SAMPLES = 100  # Monte-Carlo samples for the tie test on every update (seeded; 200 in exports and the CLI)


@functools.cache
def _claims(name: str):
    """The claims table of a preset (depends on the preset only, not on later edits)."""
    return tuple(claims_mod.claims_table(name))


preset_name_for = presets_mod.preset_name_for_path  # the preset whose file a path is


class RecommendationPanel(QtWidgets.QWidget):
    """Decision tree vs engine pick, and the claims table where the preset has claims."""

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.summary = RichText()  # changes on every slider move: cheaper than a rich-text QLabel
        lay.addWidget(self.summary)
        self.audit_check = QtWidgets.QCheckBox()
        self.audit_check.setObjectName("auditCheck")
        self.audit_check.toggled.connect(self._audit_toggled)
        lay.addWidget(self.audit_check)
        self.audit_check.hide()  # shown for presets that have article figures
        self.claims_title = QtWidgets.QLabel()
        self.claims_title.setWordWrap(True)
        lay.addWidget(self.claims_title)
        self.claims = QtWidgets.QTableWidget(0, 3)
        self.claims.setObjectName("claimsTable")
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
        hh.sectionResized.connect(lambda *_: self._fit_claim_rows())  # whole names, wrapped
        # and again once the view has its final width (a scroll bar appearing narrows it after the sections moved)
        hh.geometriesChanged.connect(lambda: QtCore.QTimer.singleShot(0, self, self._fit_claim_rows))
        self.claims_notes = QtWidgets.QLabel()
        self.claims_notes.setObjectName("claimsNotes")
        self.claims_notes.setWordWrap(True)
        self.claims_notes.setStyleSheet("font-size:8pt")
        lay.addWidget(self.claims_notes)
        lay.addStretch(0)  # the room the claims table leaves stays under the text, not around it
        self.claims_title.hide()
        self.claims.hide()
        self.claims_notes.hide()
        self.engine_pick: str | None = None  # the engine's winner (None for a tie)
        self.tree_pick: str | None = None
        self.equivalent: tuple = ()
        self.recommendation = None  # the last model.recommend.Recommendation shown
        self._rec_key, self._rec = None, None
        self.reason: str = ""
        self.takeaway: str = ""  # the answer shown first: money for the same work, then the same cluster's TCO
        self._claims_for: str | None = "?"
        self.retranslate()

    def retranslate(self) -> None:
        """The fixed texts in the current language; the claims table is filled again on the next
        :meth:`show_snapshot`."""
        self.audit_check.setText(translate("RecommendationPanel",
                                           "Article audit: the article's figures beside the engine's"))
        self.audit_check.setToolTip(translate("RecommendationPanel",
                                              "For the architect: every figure the article states for this case "
                                              "study beside the engine's, and what each counterfactual "
                                              "(“same work”) figure compares. Off for a customer; the proposal "
                                              "sheet includes it only when this is on."))
        self.claims.setHorizontalHeaderLabels([translate("RecommendationPanel", "Claim"),
                                               translate("RecommendationPanel", "Article"),
                                               translate("RecommendationPanel", "Engine: seed · published")])
        self._claims_for = "?"

    def show_snapshot(self, snap, preset: str | None = None, live: bool = False) -> None:
        """Show the recommendation at ``snap.point``; the claims of ``preset`` (a case name).

        ``live`` (a slider being dragged): the tie test uses the threshold only, without the
        Monte-Carlo uncertainty, which runs again when the drag ends."""
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
            rec = self._recommend(snap.scenario, point, 0 if live else GUI_SAMPLES)
        except (KeyError, ValueError, model.ScenarioError) as err:
            rec = None
            text = "<i>" + translate("RecommendationPanel", "No recommendation: {error}").format(
                error=html.escape(str(err))) + "</i>"
        self.recommendation = rec
        if rec is not None:
            labels = {n: st.get("short", n) for n, st in styles.items()}
            lang = "zh" if is_chinese() else "en"

            stalls = point_stalls(point)

            def say(reason):
                return html.escape(reason_text.render(reason, lang, labels=labels, money=fmt_money, stalls=stalls))

            self.tree_pick, self.engine_pick = rec.tree_fabric, rec.pick
            self.equivalent = rec.equivalent
            self.reason = reason_text.render(rec.reason, lang, labels=labels, money=fmt_money, stalls=stalls)
            muted_span = f"<br><span style='color:{muted()}'>"
            answer = recommend.takeaway(point, rec, stalls=stalls)
            self.takeaway = ("；" if lang == "zh" else "; ").join(
                reason_text.render(r, lang, labels=labels, money=fmt_money, stalls=stalls) for r in answer)
            lines = ([f"<b>{say(answer[0])}</b>" + "".join(f"<br><span style='color:{muted()}'>{say(r)}</span>"
                                                            for r in answer[1:])] if answer else [])
            lines += [
                translate("RecommendationPanel", "<b>Article's decision tree:</b>") + f" {name(self.tree_pick)}"
                + muted_span + translate("RecommendationPanel", "rule {rule}: {reason}").format(
                    rule=html.escape(str(rec.tree_rule)), reason=say(rec.tree_reason)) + "</span>",
            ]
            if rec.note is not None:
                lines.append(f"<span style='color:{muted()}'>{say(rec.note)}</span>")
            if rec.best is None:
                pick = translate("RecommendationPanel", "none")
            elif rec.pick is None:
                pick = translate("RecommendationPanel", "a tie between {fabrics}").format(
                    fabrics=" · ".join(name(f) for f in rec.equivalent))
            else:
                pick = name(rec.pick)
            lines.append(translate("RecommendationPanel", "<b>Engine's pick:</b>") + f" {pick}" + muted_span
                         + say(rec.criterion) + "; " + say(rec.verdict) + "</span>")
            if rec.separator is not None:
                lines.append(f"<span style='color:{muted()}'>{say(rec.separator)}</span>")
            if rec.best is None:
                pass
            elif rec.agrees:
                agree = (translate("RecommendationPanel", "✔ They agree on the fabric; the article's figures "
                                                          "are another matter (the audit compares them).")
                         if rec.pick is not None else
                         translate("RecommendationPanel", "✔ They agree on the fabric: the article's choice is one "
                                                          "of the equivalent fabrics (the audit compares the "
                                                          "article's figures)."))
                lines.append(f"<span style='color:#1b7a3a'>{agree}</span>")
            else:
                lines.append("<span style='color:#a03000'><b>" + translate("RecommendationPanel", "They differ:")
                             + f"</b></span> {html.escape(self.reason)}")
            text = "<br>".join(lines)
        self.summary.setText(text)  # RichText re-lays out only when the text changes
        self._show_claims(preset)

    def _recommend(self, scenario, point, samples: int):
        """The engine's recommendation, kept while the scenario is the same (a cached snapshot)."""
        key = (scenario, samples)
        if self._rec_key != key:
            self._rec = recommend.recommendation(scenario, point, samples=samples)
            self._rec_key = key
        return self._rec

    def _fit_claim_rows(self) -> None:
        """Every claim row as tall as its wrapped text, once the columns have their final widths (the last
        column fits its contents first, then the two stretched ones share the rest)."""
        for row in range(self.claims.rowCount()):  # each row by itself: rows outside the viewport too
            self.claims.setRowHeight(row, self.claims.sizeHintForRow(row))

    @property
    def audit(self) -> bool:
        """The article audit (claims table) is asked for."""
        return self.audit_check.isChecked()

    def _audit_toggled(self, _on: bool) -> None:
        preset, self._claims_for = self._claims_for, "?"
        self._show_claims(preset)

    def _show_claims(self, preset: str | None) -> None:
        if preset == self._claims_for:
            return
        self._claims_for = preset
        figs = presets_mod.article_figures()
        has_claims = preset in figs and bool(figs[preset].get("claims"))
        self.audit_check.setVisible(has_claims)
        rows = _claims(preset) if has_claims and self.audit else ()
        if not rows:
            self.claims.hide()
            self.claims_title.hide()
            self.claims_notes.hide()
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
        # again once laid out: rows outside the viewport when filled keep a one-line height (names cut)
        QtCore.QTimer.singleShot(0, self, self._fit_claim_rows)
        notes = [f"<b>{html.escape(tr_data(r.label))}</b> ({html.escape(r.fabric)}): {html.escape(r.explanation)}"
                 for r in rows if r.explanation]
        self.claims_notes.setText("<br>".join(notes))
        self.claims_notes.setVisible(bool(notes))
        self.claims_title.show()
        self.claims.show()


def _fmt(x: float, unit: str) -> str:
    return fmt_quantity(x, unit, tr_unit(unit))


__all__ = ["RecommendationPanel", "preset_name_for"]
