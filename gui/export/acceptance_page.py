"""The acceptance page of the proposal pack's PDF: the chosen fabric's acceptance table
(:func:`gui.present.acceptance.acceptance_view`) as the pack's sheet draws a block of rich text
(:data:`gui.export.pack_pdf.PAGES` has it before the assumptions)."""

from __future__ import annotations

import html

from gui.present.acceptance import acceptance_view

ACCENT, MUTED = "#0072B2", "#5a5a5a"  # the proposal sheet's


def acceptance_html(scenario) -> str:
    """The page's title, how to run the test, the table (sizes down; collective × node count across) and its basis."""
    view = acceptance_view(scenario)
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


__all__ = ["acceptance_html"]
