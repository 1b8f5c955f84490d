"""The acceptance page of the proposal PDF: the chosen fabric's acceptance table
(:func:`gui.present.acceptance.acceptance_view`) painted on a page of its own after the proposal sheet."""

from __future__ import annotations

import html

from PySide6 import QtCore, QtGui

from gui.export.charts import cjk_family, no_ligatures
from gui.i18n import is_chinese
from gui.present.acceptance import acceptance_view

ACCENT, INK, MUTED = "#0072B2", "#1a1a1a", "#5a5a5a"  # the proposal sheet's


def _html(view: dict) -> str:
    e = html.escape
    head = "".join(
        "<tr>" + "".join(f"<th align='{'left' if i < 2 else 'right'}'>{e(x)}</th>" for i, x in enumerate(row))
        + "</tr>" for row in view["header"])
    body = "".join("<tr>" + "".join(f"<td align='{'left' if i < 2 else 'right'}'>{e(x)}</td>"
                                    for i, x in enumerate(row)) + "</tr>" for row in view["rows"])
    notes = "".join(f"<p style='color:{MUTED}'>{e(n)}</p>" for n in view["notes"][1:])
    return (f"<p style='font-size:13pt; font-weight:700; color:{ACCENT}'>{e(view['title'])}</p>"
            f"<p>{e(view['notes'][0])}</p>"
            f"<table width='100%' cellspacing='0' cellpadding='3'>{head}{body}</table>"
            f"<p style='color:{MUTED}'>{e(view['cell'])}</p>{notes}")


def draw_acceptance_page(painter, page, scenario, margin: float = 40.0) -> None:
    """Paint the acceptance page on ``painter`` (a new PDF page, ``page`` its rectangle in device pixels)."""
    painter.fillRect(QtCore.QRectF(page), QtGui.QColor("white"))
    font = QtGui.QFont("DejaVu Sans")
    font.setFamilies(["DejaVu Sans", cjk_family()] if is_chinese() else ["DejaVu Sans"])
    font.setPointSizeF(7.5)
    doc = QtGui.QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(no_ligatures(font))
    doc.setDefaultStyleSheet(f"p {{ margin: 0 0 4px 0; color:{INK} }} th {{ font-weight:600 }} "
                             "td, th { border-bottom: 1px solid #dddddd }")
    doc.setHtml(_html(acceptance_view(scenario)))
    doc.setTextWidth(page.width() - 2 * margin)
    painter.save()
    painter.translate(margin, margin)
    doc.drawContents(painter, QtCore.QRectF(0, 0, doc.textWidth(), page.height() - 2 * margin))
    painter.restore()


__all__ = ["draw_acceptance_page"]
