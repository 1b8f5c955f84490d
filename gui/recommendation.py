"""Recommendation panel: the article's decision tree beside the engine's pick, with the
reason when they differ, and the claims table (article vs engine) for case-study presets.

Everything shown comes from the engine (``model``); this panel only lays it out.
"""

from __future__ import annotations

import html
import math

import numpy as np
from PySide6 import QtCore, QtWidgets

import model

from .charts import fabric_styles


def _engine_api():
    """The economics/recommendation functions of the engine, where they exist (issue #3)."""
    names = ("decision_tree", "recommend", "claims_table")
    return {n: getattr(model, n) for n in names if callable(getattr(model, n, None))}


def _fastest(point) -> str | None:
    days = np.asarray(point.data.get("train_days_with_interruptions", point.data["train_days"]), dtype=float)
    days = np.atleast_1d(days)
    if not np.isfinite(days).any():
        return None
    return point.fabrics[int(np.nanargmin(days))]


class RecommendationPanel(QtWidgets.QWidget):
    """Decision tree vs engine pick, and the claims table where the scenario has claims."""

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)
        lay.addWidget(self.summary)
        self.claims_title = QtWidgets.QLabel("<b>Article vs engine</b>")
        lay.addWidget(self.claims_title)
        self.claims = QtWidgets.QTableWidget(0, 4)
        self.claims.setHorizontalHeaderLabels(["Claim", "Article", "Engine", ""])
        self.claims.verticalHeader().hide()
        self.claims.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.claims.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.NoSelection)
        self.claims.setWordWrap(True)
        hh = self.claims.horizontalHeader()
        hh.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        for c in (1, 2, 3):
            hh.setSectionResizeMode(c, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        lay.addWidget(self.claims, 1)
        self.claims_title.hide()
        self.claims.hide()
        self.engine_pick: str | None = None
        self.tree_pick: str | None = None

    def show_snapshot(self, snap) -> None:
        point = snap.point
        api = _engine_api()
        styles = {n: s for n, s in zip(point.fabrics, fabric_styles(point))}

        def name(fid):
            if fid is None:
                return "–"
            st = styles.get(fid)
            colour = st["colour"] if st else "#222"
            short = st.get("short", fid) if st else fid
            return f"<span style='color:{colour}'><b>{html.escape(short)}</b></span>"

        lines = []
        rec = tree = None
        if "recommend" in api:
            rec = api["recommend"](snap.scenario, point) if _takes_two(api["recommend"]) else api["recommend"](
                snap.scenario)
        if "decision_tree" in api:
            tree = api["decision_tree"](snap.scenario)
        self.tree_pick = _pick_of(tree)
        self.engine_pick = _pick_of(rec)
        if tree is not None:
            lines.append(f"Article's decision tree: {name(self.tree_pick)}"
                         + (f"<br><span style='color:#555'>{html.escape(_reason_of(tree))}</span>"
                            if _reason_of(tree) else ""))
        else:
            lines.append("Article's decision tree: <i>waiting for the economics model (issue #3)</i>")
        if rec is not None:
            lines.append(f"Engine's pick: {name(self.engine_pick)}"
                         + (f"<br><span style='color:#555'>{html.escape(_reason_of(rec))}</span>"
                            if _reason_of(rec) else ""))
        else:
            fastest = _fastest(point)
            self.engine_pick = None
            lines.append(f"Fastest at this point (engine): {name(fastest)}<br>"
                         "<i>cost-based pick waits for the economics model (issue #3)</i>")
        if self.tree_pick and self.engine_pick and self.tree_pick != self.engine_pick:
            why = _why_differ(rec) or "the engine weighs this scenario's cost and time; the tree uses node count only"
            lines.append(f"<b>They differ:</b> {html.escape(why)}")
        elif self.tree_pick and self.engine_pick:
            lines.append("<span style='color:#2a7a2a'>They agree.</span>")
        self.summary.setText("<br>".join(lines))
        self._show_claims(api, snap)

    def _show_claims(self, api, snap) -> None:
        rows = None
        if "claims_table" in api:
            try:
                rows = api["claims_table"](snap.scenario)
            except model.ScenarioError:
                rows = None
        if not rows:
            self.claims.hide()
            self.claims_title.hide()
            return
        self.claims.setRowCount(len(rows))
        for i, row in enumerate(rows):
            get = row.get if isinstance(row, dict) else (lambda k, d=None, r=row: getattr(r, k, d))
            cells = [str(get("claim", "")), _fmt(get("article")), _fmt(get("engine")), _verdict(get)]
            for c, text in enumerate(cells):
                item = QtWidgets.QTableWidgetItem(text)
                if get("note"):
                    item.setToolTip(str(get("note")))
                self.claims.setItem(i, c, item)
        self.claims.resizeRowsToContents()
        self.claims_title.show()
        self.claims.show()


def _takes_two(fn) -> bool:
    import inspect
    try:
        return len(inspect.signature(fn).parameters) >= 2
    except (TypeError, ValueError):
        return False


def _pick_of(obj):
    if obj is None:
        return None
    if isinstance(obj, str):
        return obj
    if isinstance(obj, dict):
        return obj.get("fabric") or obj.get("pick")
    return getattr(obj, "fabric", None) or getattr(obj, "pick", None)


def _reason_of(obj) -> str:
    if obj is None or isinstance(obj, str):
        return ""
    if isinstance(obj, dict):
        return str(obj.get("reason", "") or "")
    return str(getattr(obj, "reason", "") or "")


def _why_differ(obj) -> str:
    if isinstance(obj, dict):
        return str(obj.get("why_differs", "") or obj.get("differs", "") or "")
    return str(getattr(obj, "why_differs", "") or "")


def _fmt(v) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:,.3g}" if math.isfinite(v) else "–"
    return str(v)


def _verdict(get) -> str:
    v = get("verdict", None)
    if v is None:
        ok = get("holds", None)
        if ok is None:
            return ""
        return "✓ holds" if ok else "✗ does not hold"
    return str(v)


__all__ = ["RecommendationPanel"]
