"""Presentation mode, in one place: View ▸ Presentation mode (F11, or F5 as in slide software) turns
on full screen, large text (the application font scaled from the start-up font, every hand-sized
text with it) and thick lines that stay thick while a slider is dragged (the audience is watching).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui

from ..i18n import translate
from ..presentation import scaled_pt, set_text_scale

SHORTCUTS = ("F11", "F5")  # the first is the one menus show


class PresentationMode(QtCore.QObject):
    """The mode's action and what it changes; ``toggled(on)`` for the features that size their own
    lines (A's curves, the break-even markers, the tornado's texts)."""

    toggled = QtCore.Signal(bool)

    def __init__(self, window, texts):
        super().__init__(window)
        self.window = window
        self._was_maximized = False
        self._sizes: list[int] | None = None  # the panels' widths before the mode: given back after it
        self.action = QtGui.QAction(window)
        self.action.setObjectName("presentationAction")
        texts.bind(self.action.setText, lambda: translate("MainWindow",
                                                          "&Presentation mode (large text, thick lines)"))
        self.action.setCheckable(True)
        self.action.setShortcuts([QtGui.QKeySequence(k) for k in SHORTCUTS])
        self.action.toggled.connect(self.set_on)

    @property
    def on(self) -> bool:
        return self.action.isChecked()

    def set_on(self, on: bool) -> None:
        if self.action.isChecked() != bool(on):
            self.action.setChecked(bool(on))  # comes back here through toggled
            return
        w = self.window
        set_text_scale(on)
        self.apply_small_text()
        w.apply_line_widths()
        for ch in w.charts.values():
            ch.apply_text_scale()
        w.table.apply_font()
        w.breakdown.update()
        if on:
            self._was_maximized = w.isMaximized()
            self._sizes = w.splitter.sizes()
            w.showFullScreen()
        elif w.isFullScreen():
            w.showMaximized() if self._was_maximized else w.showNormal()
        QtCore.QTimer.singleShot(0, self._fit_panels if on else self._restore_panels)
        self.toggled.emit(bool(on))

    def _fit_panels(self) -> None:
        self.window.fit_panels()

    def _restore_panels(self) -> None:
        """The panels' widths as they were before the mode (large text on a small screen squeezes the
        charts; they would stay squeezed), then the table's width checked again at the normal text size."""
        if self._sizes is not None:
            self.window.splitter.setSizes(self._sizes)
            self._sizes = None
        self.window.fit_panels()

    def apply_small_text(self) -> None:
        """The labels set in a smaller size than the body text, scaled with it."""
        w = self.window
        w.breakdown_legend.setStyleSheet(f"font-size:{scaled_pt(8)}pt")
        sheet = w.fabric_source.styleSheet()
        colour = sheet.split("color:", 1)[1].split(";", 1)[0] if "color:" in sheet else "#555"
        w.fabric_source.setStyleSheet(f"color:{colour}; font-size:{scaled_pt(8)}pt")


__all__ = ["PresentationMode", "SHORTCUTS"]
