"""Presentation mode, in one place: View ▸ Presentation mode (F11, or F5 as in slide software) turns
on the stage view (:mod:`.stage`: one large chart, the headline numbers, three sliders; no menus,
toolbars, docks or table), full screen, large text (the application font scaled from the start-up
font and with the screen's height, every hand-sized text with it) and thick lines that stay thick
while a slider is dragged (the audience is watching). Esc (or F11 again) gives back the window exactly
as it was: its toolbars, docks and their sizes, the panels' widths, maximised or not.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from gui.i18n import translate
from gui.theme import scaled_pt, set_text_scale, stage_scale
from gui.features.stage import StageView

SHORTCUTS = ("F11", "F5")  # the first is the one menus show


class PresentationMode(QtCore.QObject):
    """The mode's action and what it changes; ``toggled(on)`` for the features that size their own
    lines (A's curves, the break-even markers, the tornado's texts)."""

    toggled = QtCore.Signal(bool)

    def __init__(self, window, texts):
        super().__init__(window)
        self.window = window
        self._saved: dict | None = None  # the window's layout before the mode: given back after it
        self._stage: StageView | None = None
        self.action = QtGui.QAction(window)
        self.action.setObjectName("presentationAction")
        texts.bind(self.action.setText, lambda: translate("MainWindow",
                                                          "&Presentation mode (stage view for a projector)"))
        self.action.setCheckable(True)
        self.action.setShortcuts([QtGui.QKeySequence(k) for k in SHORTCUTS])
        self.action.toggled.connect(self.set_on)
        window.addAction(self.action)  # its keys work with the menu bar hidden
        self.escape_action = QtGui.QAction(window)
        self.escape_action.setObjectName("leaveStageAction")
        self.escape_action.setShortcut(QtGui.QKeySequence(QtCore.Qt.Key.Key_Escape))
        self.escape_action.setEnabled(False)
        self.escape_action.triggered.connect(lambda: self.set_on(False))
        window.addAction(self.escape_action)
        window.controller.recomputed.connect(self._recomputed)  # after the window's views: the pick is current
        window.retranslated.connect(lambda: self._stage is not None and self._stage.retranslate())

    @property
    def on(self) -> bool:
        return self.action.isChecked()

    @property
    def stage(self) -> StageView:
        """The stage view, built the first time the mode is on."""
        if self._stage is None:
            self._stage = StageView(self.window)
            self.window.pages.addWidget(self._stage)
        return self._stage

    def set_on(self, on: bool) -> None:
        if self.action.isChecked() != bool(on):
            self.action.setChecked(bool(on))  # comes back here through toggled
            return
        w = self.window
        if on:
            self._save_layout()
        screen = w.screen().geometry() if w.screen() is not None else None
        set_text_scale(on, stage_scale(screen.height() if screen is not None else 0))
        self.apply_small_text()
        w.apply_line_widths()
        for ch in w.charts.values():
            ch.apply_text_scale()
        w.table.apply_font()
        w.breakdown.update()
        self.escape_action.setEnabled(bool(on))
        if on:
            self._enter_stage()
        else:
            self._leave_stage()
        self.toggled.emit(bool(on))

    def _save_layout(self) -> None:
        w = self.window
        self._saved = dict(state=w.saveState(), geometry=QtCore.QRect(w.geometry()), maximized=w.isMaximized(),
                           full=w.isFullScreen(), sizes=w.splitter.sizes(), menu=w.menuBar().isVisibleTo(w),
                           status=w.statusBar().isVisibleTo(w),
                           draws={k: ch.draws_only_when_shown for k, ch in w.charts.items()})

    def _enter_stage(self) -> None:
        w = self.window
        stage = self.stage
        w.menuBar().hide()
        w.statusBar().hide()
        for bar in w.findChildren(QtWidgets.QToolBar):
            bar.hide()
        for dock in w.findChildren(QtWidgets.QDockWidget):
            dock.hide()
        for ch in w.charts.values():  # hidden under the stage: they draw when shown again, not on every drag step
            ch.draws_only_when_shown = True
        w.pages.setCurrentWidget(stage)
        stage.apply_text_scale()
        stage.show_snapshot(w.controller.snapshot)
        w.showFullScreen()

    def _leave_stage(self) -> None:
        w = self.window
        saved, self._saved = self._saved, None
        w.pages.setCurrentIndex(0)
        if saved is None:
            if w.isFullScreen():
                w.showNormal()
            return
        for kind, ch in w.charts.items():
            ch.draws_only_when_shown = saved["draws"].get(kind, False)
        w.menuBar().setVisible(saved["menu"])
        w.statusBar().setVisible(saved["status"])
        if saved["full"]:
            w.showFullScreen()
        elif saved["maximized"]:
            w.showMaximized()
        else:
            w.showNormal()
            w.setGeometry(saved["geometry"])  # as it was, not clamped to a screen as restoreGeometry would
        w.restoreState(saved["state"])  # toolbars, docks and their sizes
        w.splitter.setSizes(saved["sizes"])
        for ch in w.charts.values():
            ch.catch_up()
        QtCore.QTimer.singleShot(0, self, lambda: self._restore_panels(saved))

    def _restore_panels(self, saved: dict) -> None:
        """The panels' widths as they were before the mode, once the window has its size back (large text on a
        small screen squeezes the charts; they would stay squeezed), then the table's width checked again."""
        if self.on:
            return
        self.window.restoreState(saved["state"])  # again at the window's own size: the docks' heights as they were
        self.window.splitter.setSizes(saved["sizes"])
        self.window.fit_panels()

    def _recomputed(self, snap) -> None:
        if self.on and self._stage is not None:
            self._stage.show_snapshot(snap)

    def apply_small_text(self) -> None:
        """The labels set in a smaller size than the body text, scaled with it."""
        w = self.window
        w.breakdown_legend.setStyleSheet(f"font-size:{scaled_pt(8)}pt")
        sheet = w.fabric_source.styleSheet()
        colour = sheet.split("color:", 1)[1].split(";", 1)[0] if "color:" in sheet else "#555"
        w.fabric_source.setStyleSheet(f"color:{colour}; font-size:{scaled_pt(8)}pt")


__all__ = ["PresentationMode", "SHORTCUTS"]
