"""The table "at this point": one row per fabric with utilisation, days and money, read from the typed
per-fabric results (:func:`model.results.fabric_summaries`)."""

from __future__ import annotations

import html
import math

from PySide6 import QtCore, QtGui, QtWidgets

from model.results import fabric_summaries

from gui.present.series import fabric_styles, format_money
from gui.i18n import QT_TRANSLATE_NOOP, translate
from gui.present.plausibility import figure_note, point_stalls, stall_text
from gui.present.text import idle_gpus_note, memory_note

COLUMNS = (
    ("fabric", QT_TRANSLATE_NOOP("PointTable", "Fabric")),
    ("mfu", QT_TRANSLATE_NOOP("PointTable", "MFU")),
    ("days", QT_TRANSLATE_NOOP("PointTable", "Days")),
    ("interruptions", QT_TRANSLATE_NOOP("PointTable", "Interr.")),
    ("capex", QT_TRANSLATE_NOOP("PointTable", "Capex")),
    ("tco", QT_TRANSLATE_NOOP("PointTable", "TCO")),
    ("cost_per_run", QT_TRANSLATE_NOOP("PointTable", "Per run")),
)
# the columns a narrow panel drops, first to last (their figures stay in the fabric's tooltip); the fabric, its
# days, its TCO and its cost per run are never dropped
DROP_ORDER = ("interruptions", "capex", "mfu")

STALL_FIRST, STALL_SPAN = 1, 3  # a fabric that stalls: "stalls — <cause>" across MFU, days and interruptions
STALL_COLOUR = "#a03000"


class PointTable(QtWidgets.QTableWidget):
    """Per-fabric figures at the current point, from an ``evaluate`` result."""

    def __init__(self, parent=None):
        super().__init__(0, len(COLUMNS), parent)
        self.retranslate()
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.verticalHeader().hide()
        self.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.TabFocus)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        hh = self.horizontalHeader()
        # sized to their contents when show_point says so (not by the header on every change: while a slider
        # is held the columns only widen)
        hh.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(False)
        hh.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)  # spare width goes to the names
        self.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._cells: dict = {}
        self._fitted: dict[int, int] = {}  # each column's longest text when the columns were last fitted
        self._tight = False  # fitted to exactly those texts (not widened while a slider was held)
        hh.sectionResized.connect(self._columns_resized)
        self.setSizeAdjustPolicy(QtWidgets.QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)

    def retranslate(self) -> None:
        """The column names and their tooltips in the current language (the cells follow on the next
        :meth:`show_point`)."""
        self.setHorizontalHeaderLabels([translate("PointTable", c[1]) for c in COLUMNS])
        tips = [translate("PointTable", "Fabric (colour as in the charts)"),
                translate("PointTable", "Model FLOPs utilisation at this point"),
                translate("PointTable", "Training days, with interruptions"),
                translate("PointTable", "Expected job interruptions during the run"),
                translate("PointTable", "Capital expenditure: servers and network"),
                translate("PointTable", "Total cost of ownership over the years set"),
                translate("PointTable", "Cost of one training run (its share of the TCO)")]
        for i, t in enumerate(tips):
            self.horizontalHeaderItem(i).setToolTip(t)
        self._fitted = {}  # the column names' widths changed: fit the columns on the next show_point

    def show_point(self, point, focus: str | None = None, live: bool = False) -> None:
        """Each fabric's row at ``point``. ``live`` (a slider held): the columns only widen, so the panel is not
        laid out again for a text a character shorter; they fit tightly again on the next update that is not."""
        styles = fabric_styles(point)
        rows = fabric_summaries(point)
        n = len(rows)
        if self.rowCount() != n:
            self.setRowCount(n)
            self._cells = {k: v for k, v in self._cells.items() if k[0] < n}
            self._fit_height()
        # items changed with the model's signals blocked, then one repaint: a signal per
        # setText made this table cost ~5 ms per slider move
        model_ = self.model()
        model_.blockSignals(True)
        try:
            self._fill(rows, styles, focus, point_stalls(point))
        finally:
            model_.blockSignals(False)
        self.viewport().update()
        # the columns fitted again only when a column's longest text changes length (a cell's own length
        # changes on most slider moves: "9.8 %" to "10.1 %"), which also re-lays out the panel around it
        longest = self._longest()
        fitted = self._fitted
        header = self.horizontalHeader()
        if live:  # held: a column whose text grew widens, none narrows
            if any(n > fitted.get(col, -1) for col, n in longest.items()):
                before = [header.sectionSize(i) for i in range(header.count())]
                header.resizeSections(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
                for i in range(1, header.count()):  # the first column stretches
                    if header.sectionSize(i) < before[i]:
                        header.resizeSection(i, before[i])
                self._fitted = {col: max(n, fitted.get(col, -1)) for col, n in longest.items()}
                self._tight = False
                self.updateGeometry()
        elif longest != fitted or not self._tight:
            self._fit_columns()

    def _longest(self) -> dict[int, int]:
        """Each column's longest text, in characters."""
        out: dict[int, int] = {}
        for (_, col), v in self._cells.items():
            out[col] = max(out.get(col, 0), len(v[0]))
        return out

    def _fill(self, rows, styles, focus, stalls) -> None:
        days_tip = translate("PointTable", "with interruptions (without: {days} days)")
        for i, (f, st) in enumerate(zip(rows, styles)):
            cur = f.currency
            stall = stalls.get(f.fabric)
            span = STALL_SPAN if stall else 1
            if self.columnSpan(i, STALL_FIRST) != span:
                self.setSpan(i, STALL_FIRST, 1, span)
            if stall:  # past the plausibility bound: the cause in words, the engine's figures on hover
                full = stall_text(stall)
                tip = html.escape(full + "\n" + figure_note(translate("PointTable", "{days} days, MFU {mfu}").format(
                    days=f"{f.train_days_with_interruptions:,.1f}", mfu=f"{f.mfu * 100:.2g} %")))
                cells = {"fabric": None, "mfu": stall_text(stall, short=True), "days": "", "interruptions": "",
                         "capex": format_money(f.capex, cur, compact=True), "tco": format_money(f.tco, cur, compact=True),
                         "cost_per_run": "–"}
                for col, (key, _) in enumerate(COLUMNS):
                    if key == "fabric":
                        self._set_cell(i, col, st.get("short", f.fabric), html.escape(st["label"]),
                                       f.fabric == focus, st["colour"])
                    else:
                        self._set_cell(i, col, cells[key], tip if key in ("mfu", "cost_per_run") else "",
                                       f.fabric == focus, STALL_COLOUR if key == "mfu" else None)
                continue
            vals = {
                "fabric": st.get("short", f.fabric),
                "mfu": f"{f.mfu * 100:.1f} %" if f.feasible and _finite(f.mfu)
                else translate("PointTable", "no plan fits"),
                "days": f"{f.train_days_with_interruptions:,.1f}" if f.feasible and _finite(
                    f.train_days_with_interruptions) else "–",
                "interruptions": f"{f.interruptions:,.1f}" if _finite(f.interruptions) else "–",
            }
            for key in ("capex", "tco", "cost_per_run"):
                v = getattr(f, key)
                vals[key] = format_money(v, cur, compact=True) if _finite(v) else "–"
            for col, (key, _) in enumerate(COLUMNS):
                if col == 0:
                    tip = html.escape(st["label"]) + (translate("PointTable", "  (fabric in focus)")
                                                      if f.fabric == focus else "")
                elif key == "days":
                    tip = days_tip.format(days=f"{f.train_days:.1f}")
                elif key == "mfu":
                    tip = translate("PointTable", "Model FLOPs utilisation; plan: {plan}").format(
                        plan=f.plan.describe() + idle_gpus_note(f.plan)
                        + memory_note(f.memory_per_gpu_gb, f.memory_margin_gb, f.plan.recompute)
                        if f.plan is not None else "–")
                elif key in ("capex", "tco", "cost_per_run") and cur:
                    tip = f"{key.replace('_', ' ')} in {cur}"
                else:
                    tip = ""
                self._set_cell(i, col, vals[key], tip, f.fabric == focus, st["colour"] if col == 0 else None)

    def _fit_height(self) -> None:
        """Every fabric's row visible, whatever the window's height."""
        self.resizeRowsToContents()
        header = self.horizontalHeader()
        h = max(header.sizeHint().height(), header.height()) + 2 * self.frameWidth()
        h += sum(self.rowHeight(r) for r in range(self.rowCount()))
        self.setFixedHeight(h + 2)

    def _columns_resized(self, *_):
        if self.horizontalHeader().length() + 2 * self.frameWidth() + 4 > self.width():
            self.updateGeometry()  # the splitter widens the panel to the new minimum

    def apply_font(self) -> None:
        """Cells set in bold keep a font of their own: give them the table's (application) font again."""
        for (row, col), want in self._cells.items():
            item = self.item(row, col)
            if item is not None:
                f = QtGui.QFont(QtWidgets.QApplication.font(self))
                f.setBold(bool(want[2]))
                item.setFont(f)
        self._fit_columns()
        self.resizeRowsToContents()
        self._fit_height()  # taller rows: every fabric stays visible
        QtCore.QTimer.singleShot(0, self, self._fit_after_font)  # again once the header has taken the new font
        self.updateGeometry()

    def _fit_after_font(self) -> None:
        self._fit_columns()
        self._fit_height()

    def _fit_columns(self) -> None:
        """Every column as wide as its texts and name, no wider (the first stretches)."""
        self.horizontalHeader().resizeSections(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self._fitted, self._tight = self._longest(), True
        self._drop_columns()
        self.updateGeometry()

    def column_widths(self) -> list[int]:
        """Each column's width for its texts and name, hidden or not (the first, which stretches, measured)."""
        hh = self.horizontalHeader()

        def name_width(i: int) -> int:  # the column's name (a hidden section's own hint is not its name's width)
            return hh.sectionSizeFromContents(i).width()

        widths = [max(hh.sectionSizeHint(0), name_width(0), self.sizeHintForColumn(0)) + 8]
        for i in range(1, hh.count()):
            widths.append(hh.sectionSize(i) if not self.isColumnHidden(i) and hh.sectionSize(i) >= name_width(i)
                          else max(hh.sectionSizeHint(i), name_width(i), self.sizeHintForColumn(i)))
        return widths

    def full_width(self) -> int:
        """The width every column needs: what the window gives the panel when the charts can spare it."""
        return sum(self.column_widths()) + 2 * self.frameWidth() + 4

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt name)
        """Wide enough for the columns never dropped (:data:`DROP_ORDER`): the splitter keeps the panel at least
        this wide; narrower than :meth:`full_width`, the table drops columns rather than cut them."""
        hint = super().minimumSizeHint()
        keys = [c[0] for c in COLUMNS]
        need = sum(w for key, w in zip(keys, self.column_widths()) if key not in DROP_ORDER)
        return QtCore.QSize(max(hint.width(), need + 2 * self.frameWidth() + 4), hint.height())

    def dropped_columns(self) -> list[str]:
        return [key for i, (key, _) in enumerate(COLUMNS) if self.isColumnHidden(i)]

    def _drop_columns(self) -> None:
        """Hide the columns of :data:`DROP_ORDER`, first to last, until the rest fit the table's width."""
        keys = [c[0] for c in COLUMNS]
        widths = dict(zip(keys, self.column_widths()))
        room = self.width() - 2 * self.frameWidth() - 4
        total = sum(widths.values())
        drop = set()
        for key in DROP_ORDER:
            if total <= room:
                break
            drop.add(key)
            total -= widths[key]
        shown = False
        for i, key in enumerate(keys):
            if self.isColumnHidden(i) != (key in drop):
                self.setColumnHidden(i, key in drop)
                shown |= key not in drop
        if shown:  # fitted to their texts as _fit_columns fits them: a fabric's stall text spans its columns, which
            # the width measured while hidden counts in the first (a column wider after presentation mode)
            self.horizontalHeader().resizeSections(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        self._drop_columns()

    def _set_cell(self, row: int, col: int, text: str, tip: str, bold: bool, colour: str | None) -> None:
        """Touch a cell only where something changed: every Qt call on an item costs."""
        want = (text, tip, bold, colour)
        if self._cells.get((row, col)) == want:
            return
        item = self.item(row, col)
        if item is None:
            item = QtWidgets.QTableWidgetItem()
            item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignVCenter | (
                QtCore.Qt.AlignmentFlag.AlignLeft if col == 0 else QtCore.Qt.AlignmentFlag.AlignRight))
            self.setItem(row, col, item)
        old = self._cells.get((row, col), (None, None, None, None))
        if old[0] != text:
            item.setText(text)
        if old[1] != tip:
            item.setToolTip(tip)
        if old[2] != bold:
            f = QtGui.QFont(QtWidgets.QApplication.font(self))
            f.setBold(bold)
            item.setFont(f)
        if old[3] != colour:
            if colour is not None:
                item.setForeground(QtGui.QBrush(QtGui.QColor(colour)))
            elif old[3] is not None:
                item.setData(QtCore.Qt.ItemDataRole.ForegroundRole, None)  # back to the palette's text colour
        self._cells[(row, col)] = want

    def cell_text(self, row: int, key: str) -> str:
        col = [c[0] for c in COLUMNS].index(key)
        item = self.item(row, col)
        return item.text() if item else ""


def _finite(v) -> bool:
    try:
        return v is not None and math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


__all__ = ["COLUMNS", "PointTable"]
