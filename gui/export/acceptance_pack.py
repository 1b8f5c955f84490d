"""The acceptance table in the proposal pack's editable files, without Qt: a slide, a workbook sheet and a CSV.

Each is one small function the pack calls (:func:`add_acceptance_slide`, :func:`add_acceptance_sheet`,
:func:`write_acceptance_csv`; the PDF page is :mod:`gui.export.acceptance_page`'s); the content is
:func:`gui.present.acceptance.acceptance_view`'s, the numbers :func:`model.acceptance.acceptance_table`'s.
"""

from __future__ import annotations

import model
from model import acceptance
from model.files import atomic_write

from gui.present.acceptance import acceptance_view

def add_acceptance_slide(prs, scenario, layout, table) -> None:
    """A slide with the acceptance table (sizes down, collective × node count across) and its basis;
    ``table(slide, rows, left, top, width, size)`` writes a table as the deck's other slides do."""
    from pptx.util import Inches, Pt

    view = acceptance_view(scenario)
    slide = prs.slides.add_slide(layout)
    slide.shapes.title.text = view["title"]
    table(slide, view["header"] + view["rows"], Inches(0.4), Inches(1.2), Inches(12.5), Pt(8))
    box = slide.shapes.add_textbox(Inches(0.4), Inches(6.35), Inches(12.5), Inches(1.0))
    box.text_frame.word_wrap = True
    for i, line in enumerate([view["cell"]] + view["notes"]):
        para = box.text_frame.paragraphs[0] if i == 0 else box.text_frame.add_paragraph()
        para.text = line
        for run in para.runs:
            run.font.size = Pt(8)


def add_acceptance_sheet(wb, scenario) -> None:
    """A sheet *Acceptance* with one row per collective × node count × size (numbers, not text): the CSV's
    columns, with the basis above."""
    from gui.present.text import translate

    view = acceptance_view(scenario)
    t = view["table"]
    ws = wb.create_sheet(translate("Acceptance", "Acceptance"))
    ws.append([view["title"]])
    for note in view["notes"]:
        ws.append([note])
    ws.append([])
    rows = t.rows()
    ws.append(list(rows[0]))
    for r in rows:
        ws.append(list(r.values()))
    ws.column_dimensions["A"].width = 14


def write_acceptance_csv(scenario, path):
    """The acceptance table as CSV with its header block (:func:`model.acceptance.csv_text`)."""
    return atomic_write(path, acceptance.csv_text(acceptance.acceptance_table(scenario), model.__version__))


__all__ = ["add_acceptance_sheet", "add_acceptance_slide", "write_acceptance_csv"]
