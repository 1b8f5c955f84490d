"""A read-only rich-text block for values that change on every slider move.

``QLabel`` with rich text and word wrap re-parses, re-lays out and asks its layout for a
new height on every ``setText``: ~1.7 ms for the recommendation's five lines here, more
than the engine's sweep. A ``QTextBrowser`` without frame or scroll bars draws the same
HTML for ~0.2 ms; its height follows the document and the layout is asked again only
when that height changes (a line more or less), not for every new number.
(Measured with ``benchmarks/gui_bench.py``'s slider drag and a process-time ablation.)
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets


class RichText(QtWidgets.QTextBrowser):
    """Looks and reads like a word-wrapped, selectable ``QLabel`` (``text`` / ``setText``)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._html = ""
        self.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setOpenLinks(False)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # like a label: not a Tab stop
        self.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.document().setDocumentMargin(0)
        # the panel's own background shows through, in either theme
        # (a transparent Base role, not a style sheet: a style sheet would stop the
        # presentation mode's larger application font from reaching this widget)
        self.viewport().setAutoFillBackground(False)
        pal = self.palette()
        pal.setColor(QtGui.QPalette.ColorRole.Base, QtGui.QColor(0, 0, 0, 0))
        self.setPalette(pal)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self._doc_height())

    def text(self) -> str:
        return self._html

    def setText(self, html: str) -> None:  # noqa: N802 (QLabel's name)
        if html == self._html:
            return
        self._html = html
        self.setHtml(html)
        self._fit_height()

    def changeEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(ev)
        if ev.type() in (QtCore.QEvent.Type.PaletteChange, QtCore.QEvent.Type.ApplicationPaletteChange,
                         QtCore.QEvent.Type.FontChange):
            # the document keeps the colours and font it was parsed with: parse again
            self.document().setDefaultFont(self.font())
            if self._html:
                self.setHtml(self._html)
            self._fit_height()

    def resizeEvent(self, ev: QtGui.QResizeEvent) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(ev)
        if ev.oldSize().width() != ev.size().width():
            self._fit_height()

    def _doc_height(self) -> int:
        doc = self.document()
        doc.setTextWidth(max(self.viewport().width(), 10))
        return max(int(math.ceil(doc.size().height())), self.fontMetrics().height())

    def _fit_height(self) -> None:
        h = self._doc_height()
        if h != self.height():
            self.setFixedHeight(h)  # only now is the layout asked again


__all__ = ["RichText"]
