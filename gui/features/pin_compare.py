"""Pin A, compare with B: Tools ▸ Pin as A (Ctrl+Shift+A) keeps the current results as A in the
session; A's curves stay on the charts (dashed, faint) and the A/B dock compares A with the current
point until Tools ▸ Clear pin. File ▸ Export A/B comparison as CSV writes the comparison."""

from __future__ import annotations

import datetime

from PySide6 import QtCore, QtGui, QtWidgets

from model import ScenarioError

from gui.charts.compare import ComparePanel, PinnedCurves, export_csv
from gui.i18n import translate

PIN_WIDTH = 1.2  # A's dashed pens [px]; thicker in presentation mode
PIN_WIDTH_PRESENTATION = 2.2


class PinCompare(QtCore.QObject):
    """The pin (in ``window.session``), A's curves and the A/B panel of one window."""

    def __init__(self, window, docks, texts):
        super().__init__(window)
        self.window = window
        self.session = window.session
        self.docks = docks
        self.pinned = PinnedCurves(window)
        w = window
        self.export_action = QtGui.QAction(w)
        texts.bind(self.export_action.setText, lambda: translate("Features", "Export A/B comparison as CSV…"))
        self.export_action.setEnabled(False)
        self.export_action.triggered.connect(self.export_dialog)
        self.pin_action = QtGui.QAction(w)
        texts.bind(self.pin_action.setText, lambda: translate("Features", "&Pin as A"))
        self.pin_action.setObjectName("pinAction")
        self.pin_action.setShortcut(QtGui.QKeySequence("Ctrl+Shift+A"))
        self.pin_action.triggered.connect(self.pin)
        self.unpin_action = QtGui.QAction(w)
        texts.bind(self.unpin_action.setText, lambda: translate("Features", "C&lear pin"))
        self.unpin_action.setEnabled(False)
        self.unpin_action.triggered.connect(self.unpin)
        self.session.on({"pin", "pinned_at"}, self._pin_changed)
        self.session.on({"tco_baseline"}, self.redraw)

    def make_panel(self) -> ComparePanel:
        p = ComparePanel()
        p.export_button.clicked.connect(self.export_dialog)
        return p

    @property
    def pin_a(self):
        return self.session.state.pin

    def pin(self) -> None:
        snap = self.window.controller.snapshot
        if snap is None:
            return
        self.session.state.update(pin=snap, pinned_at=QtCore.QTime.currentTime().toString("HH:mm"))
        dock = self.docks.compare_dock
        dock.show()
        dock.raise_()

    def unpin(self) -> None:
        self.session.state.update(pin=None, pinned_at="")

    def _pin_changed(self) -> None:
        on = self.pin_a is not None
        self.unpin_action.setEnabled(on)
        self.export_action.setEnabled(on)
        self.pinned.key = None
        if not on:
            self.pinned.clear()
            panel = self.docks.built("compareDock")
            if panel is not None:
                panel.show_pair(None, None)
            return
        snap = self.window.controller.snapshot
        if snap is not None:
            self.update(snap)

    def set_presentation(self, on: bool) -> None:
        self.pinned.width = PIN_WIDTH_PRESENTATION if on else PIN_WIDTH
        self.redraw()

    def redraw(self) -> None:
        """A's curves again (a new TCO baseline, another pen width)."""
        self.pinned.key = None
        snap = self.window.controller.snapshot
        if self.pin_a is not None and snap is not None:
            self.update(snap)

    def _a_along(self, field: str):
        """A's snapshot along ``field`` (the current x-axis), computed once per field (the cache keeps it)."""
        a = self.pin_a
        if a.x_field == field:
            return a
        return self.window.controller.compute(a.scenario, field)

    def update(self, snap) -> None:
        """A's curves and the A/B table for the settled ``snap``."""
        if self.pin_a is None:
            return
        a = self._a_along(snap.x_field)
        key = (a.scenario, snap.x_field)
        if self.pinned.key != key:
            self.pinned.draw(a.sweep, a)
            self.pinned.key = key
        self.docks.panel("compareDock").show_pair(a, snap, self.session.state.pinned_at)

    def export(self, path):
        snap = self.window.controller.snapshot
        if self.pin_a is None or snap is None:
            return None
        return export_csv(path, self.pin_a.point, snap.point, name_a=self.pin_a.scenario.name,
                          name_b=snap.scenario.name)

    def export_dialog(self) -> None:
        if self.pin_a is None:
            return
        stamp = datetime.date.today().isoformat()
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.window, translate("Features", "Export A/B comparison"), f"ab-compare-{stamp}.csv",
            translate("Features", "CSV files (*.csv)"))
        if path:
            try:
                self.export(path)
            except ScenarioError as err:  # says why: a folder, a pipe, not writable
                self.window.error_label.setText(translate("Features", "Could not write {path}: {error}").format(
                    path=path, error=f"{err.value}; {err.allowed}"))


__all__ = ["PinCompare"]
