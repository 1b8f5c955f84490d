"""The proposal pack's editable files, without Qt: a workbook whose formulas a customer can edit
(openpyxl) and a slide deck whose charts are native, editable charts (python-pptx).

- **XLSX**: *Inputs* (discount on the bill of materials, electricity price, support per year as a
  share of capex, years, the NPV's discount rate), *BOM* (per fabric: quantity × unit price ×
  (1 − discount), with a subtotal), *TCO* (capex from the BOM, energy at the input price,
  operations, support, TCO and cost per run as formulas) and *Comparison* (days, MFU; a fabric past
  the plausibility bound reads "stalls — cause"). With the inputs as written (no discount, no
  support) the formulas give the app's capex, TCO and cost per run.
- **PPTX**: a title slide with the answer, one slide per chart as a native XY chart of the same
  data the window draws (a stalled fabric clipped and named), a BOM and cost slide, and an
  assumptions slide with the sources.

Text is translated (:func:`gui.present.text.translate`); money in the one format per language.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np

import model
from model import catalog, recommend
from model.files import atomic_write
from model.results import fabric_summaries

from gui.present.format import fmt_money
from gui.present.pack import DISCOUNT_RATE, bill_of_materials, financials, tco_parts
from gui.present.plausibility import point_stalls, stall_text
from gui.present.series import CHART_KINDS, chart_series
from gui.present.text import QT_TRANSLATE_NOOP, profile_set_name, translate
from gui.present.reasons import render

SHEETS = {"inputs": QT_TRANSLATE_NOOP("Pack", "Inputs"), "bom": QT_TRANSLATE_NOOP("Pack", "BOM"),
          "tco": QT_TRANSLATE_NOOP("Pack", "TCO"), "comparison": QT_TRANSLATE_NOOP("Pack", "Comparison")}


def _t(text: str) -> str:
    return translate("Pack", text)


def _labels(point) -> dict:
    return {f: lab.split(" (")[0] for f, lab in zip(point.fabrics, point.labels)}


def answer_text(point, lang: str = "en") -> str:
    """The pack's headline: the recommendation's answer, money for the same work first."""
    rec = recommend.recommendation(point.scenario, point, samples=0)
    stalls = point_stalls(point)
    sep = "；" if lang.startswith("zh") else "; "
    return sep.join(render(r, lang, labels=_labels(point), money=fmt_money, stalls=stalls)
                    for r in recommend.takeaway(point, rec, stalls=stalls))


# -- XLSX ----------------------------------------------------------------------------------------------

INPUT_ROWS = (  # (key, label) in order: row 2 onwards of the Inputs sheet
    ("discount", QT_TRANSLATE_NOOP("Pack", "Discount on the bill of materials (fraction)")),
    ("electricity", QT_TRANSLATE_NOOP("Pack", "Electricity price per kWh")),
    ("support", QT_TRANSLATE_NOOP("Pack", "Support and maintenance per year (fraction of capex)")),
    ("years", QT_TRANSLATE_NOOP("Pack", "Years of ownership")),
    ("rate", QT_TRANSLATE_NOOP("Pack", "Discount rate of the NPV (fraction per year)")),
)


def _input_cell(key: str) -> str:
    return f"Inputs!$B${2 + [k for k, _ in INPUT_ROWS].index(key)}"


def workbook(point, lang: str = "en"):
    """The pack's workbook (an ``openpyxl.Workbook``) for a point result; ``lang`` of the answer line."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    bold = Font(bold=True)
    parts = tco_parts(point)
    bom = bill_of_materials(point)
    labels = _labels(point)
    cur = str(np.asarray(point["currency"]).reshape(-1)[0])
    first = parts[point.fabrics[0]]
    wb = Workbook()
    ws = wb.active
    ws.title = "Inputs"
    ws.append([_t("Input"), _t("Value")])
    values = {"discount": 0.0, "electricity": first.price_per_kwh, "support": 0.0, "years": first.years,
              "rate": DISCOUNT_RATE}
    for key, label in INPUT_ROWS:
        ws.append([_t(label), values[key]])
    ws.append([])
    ws.append([_t("Money in {currency}; edit the values in column B: every other sheet follows.").format(
        currency=cur)])
    ws.column_dimensions["A"].width = 58

    b = wb.create_sheet("BOM")
    b.append([_t("Fabric"), _t("Item"), _t("Quantity"), _t("Unit price"), _t("Total")])
    capex_cell = {}
    for name in point.fabrics:
        start = b.max_row + 1
        for line in bom[name]:
            r = b.max_row + 1
            b.append([labels[name], line.label, line.quantity, line.unit_price,
                      f"=C{r}*D{r}*(1-{_input_cell('discount')})"])
        end = b.max_row
        b.append([labels[name], _t("Capex"), None, None, f"=SUM(E{start}:E{end})"])
        b.cell(row=b.max_row, column=2).font = bold
        capex_cell[name] = f"BOM!$E${b.max_row}"
    b.column_dimensions["B"].width = 44

    t = wb.create_sheet("TCO")
    t.append([_t("Fabric"), _t("Capex"), _t("Energy per year (kWh)"), _t("Energy per year"),
              _t("Operations per year"), _t("Support per year"), _t("Opex per year"), _t("TCO"),
              _t("Run with interruptions (h)"), _t("Duty cycle"), _t("Cost per training run")])
    for name in point.fabrics:
        p = parts[name]
        r = t.max_row + 1
        t.append([labels[name], f"={capex_cell[name]}", p.energy_kwh_per_year, f"=C{r}*{_input_cell('electricity')}",
                  p.operations_per_year, f"=B{r}*{_input_cell('support')}", f"=D{r}+E{r}+F{r}",
                  f"=B{r}+G{r}*{_input_cell('years')}", p.run_hours, p.duty_cycle,
                  f"=H{r}*I{r}/({_input_cell('years')}*8760*J{r})"])

    c = wb.create_sheet("Comparison")
    c.append([_t("Fabric"), _t("Training days (with interruptions)"), _t("MFU"), _t("Note")])
    stalls = point_stalls(point)
    for f in fabric_summaries(point):
        if f.fabric in stalls:  # past the plausibility bound: the cause, not the figure
            c.append([labels[f.fabric], None, None, stall_text(stalls[f.fabric])])
        else:
            c.append([labels[f.fabric], round(f.train_days_with_interruptions, 1), round(f.mfu, 3), ""])
    c.append([])
    c.append([answer_text(point, lang)])
    return wb


def write_xlsx(point, path, lang: str = "en") -> Path:
    """The workbook saved to ``path`` (written whole or not at all)."""
    import io

    buf = io.BytesIO()
    workbook(point, lang).save(buf)
    return atomic_write(path, buf.getvalue())


# -- PPTX ----------------------------------------------------------------------------------------------

def presentation(snap, lang: str = "en", today: dt.date | None = None):
    """The pack's slide deck (a ``pptx.Presentation``) for a window snapshot (``snap.sweep``, ``snap.point``)."""
    from pptx import Presentation
    from pptx.chart.data import XyChartData
    from pptx.enum.chart import XL_CHART_TYPE, XL_LEGEND_POSITION
    from pptx.util import Inches, Pt

    point, s = snap.point, snap.scenario
    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(13.333), Inches(7.5)
    title_layout, content_layout, blank = prs.slide_layouts[0], prs.slide_layouts[5], prs.slide_layouts[6]

    slide = prs.slides.add_slide(title_layout)
    slide.shapes.title.text = _t("Network fabric proposal")
    slide.placeholders[1].text = "\n".join([
        s.name, _t("Fabric figures: {name}").format(name=profile_set_name(s.fabric.profile_set)),
        (today or dt.date.today()).isoformat() + " · fabric-whatif " + model.__version__,
        answer_text(point, lang)])
    for para in slide.placeholders[1].text_frame.paragraphs:
        for run in para.runs:
            run.font.size = Pt(16)

    for kind in CHART_KINDS:
        data = chart_series(snap.sweep, kind)
        slide = prs.slides.add_slide(content_layout)
        slide.shapes.title.text = data.get("short_title") or data["title"]
        cd = XyChartData()
        for ser in data["series"]:
            stall = f" ({stall_text(ser['stall'], short=True)})" if ser.get("stall") else ""
            series = cd.add_series(ser["label"] + stall)  # a fabric past the plausibility bound named with its cause
            for x, y in zip(data["x"], ser["y"]):
                if np.isfinite(x) and np.isfinite(y):
                    series.add_data_point(float(x), float(y))
        frame = slide.shapes.add_chart(XL_CHART_TYPE.XY_SCATTER_LINES_NO_MARKERS, Inches(0.6), Inches(1.4),
                                       Inches(12.1), Inches(5.7), cd)
        chart = frame.chart
        chart.has_legend = True
        chart.legend.position = XL_LEGEND_POSITION.BOTTOM
        chart.legend.include_in_layout = False
        chart.category_axis.has_title = True
        chart.category_axis.axis_title.text_frame.text = data["x_label"]
        chart.value_axis.has_title = True
        chart.value_axis.axis_title.text_frame.text = data["y_label"]
        for ser, style in zip(chart.series, data["series"]):
            ser.format.line.color.rgb = _rgb(style["style"]["colour"])
            ser.smooth = False

    slide = prs.slides.add_slide(content_layout)
    slide.shapes.title.text = _t("Bill of materials and cost")
    bom, summaries = bill_of_materials(point), fabric_summaries(point)
    stalls = point_stalls(point)
    cur = summaries[0].currency
    labels = _labels(point)
    rows = [[_t("Fabric"), _t("Item"), _t("Quantity"), _t("Unit price"), _t("Total")]]
    for name in point.fabrics:
        rows += [[labels[name], line.label, f"{line.quantity:,.0f}", fmt_money(line.unit_price, cur),
                  fmt_money(line.total, cur)] for line in bom[name]]
    rows.append(["", "", "", "", ""])
    rows.append([_t("Fabric"), _t("Capex"), _t("TCO (same cluster)"), _t("Cost per training run"), _t("NPV")])
    base = recommend.baseline_fabric(point)
    for f in summaries:
        per_run = stall_text(stalls[f.fabric], short=True) if f.fabric in stalls else fmt_money(f.cost_per_run, cur)
        npv = "–" if f.fabric == base or f.fabric in stalls or base in stalls else fmt_money(
            financials(point, f.fabric, base).npv, cur)
        rows.append([labels[f.fabric], fmt_money(f.capex, cur), fmt_money(f.tco, cur), per_run, npv])
    _table(slide, rows, Inches(0.5), Inches(1.3), Inches(12.3), Pt(10))

    slide = prs.slides.add_slide(content_layout)
    slide.shapes.title.text = _t("Assumptions and sources")
    prof = catalog.profile_set(s.fabric.profile_set)
    lines = [_t("Fabric figures: {name}").format(name=profile_set_name(s.fabric.profile_set)) + " — "
             + prof.get("source", "")]
    for row in point.fabric_rows:
        src = prof["fabrics"].get(row.name, {}).get("source", "")
        lines.append(f"{labels[row.name]}: {src}")
    lines.append(_t("NPV at {rate} % a year; money saved at the baseline's output; guesses are marked in the "
                    "app's assumptions.").format(rate=f"{DISCOUNT_RATE * 100:g}"))
    box = slide.shapes.add_textbox(Inches(0.5), Inches(1.3), Inches(12.3), Inches(5.8))
    box.text_frame.word_wrap = True
    for i, line in enumerate(lines):
        para = box.text_frame.paragraphs[0] if i == 0 else box.text_frame.add_paragraph()
        para.text = line
        for run in para.runs:
            run.font.size = Pt(11)
    return prs


def _rgb(colour: str):
    from pptx.dml.color import RGBColor

    return RGBColor.from_string(colour.lstrip("#")[:6].upper())


def _table(slide, rows, left, top, width, size) -> None:
    height = size * 2 * len(rows)
    shape = slide.shapes.add_table(len(rows), len(rows[0]), left, top, width, height)
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            cell = shape.table.cell(i, j)
            cell.text = str(text)
            for para in cell.text_frame.paragraphs:
                for run in para.runs:
                    run.font.size = size


def write_pptx(snap, path, lang: str = "en") -> Path:
    """The slide deck saved to ``path`` (written whole or not at all)."""
    import io

    buf = io.BytesIO()
    presentation(snap, lang).save(buf)
    return atomic_write(path, buf.getvalue())


__all__ = ["INPUT_ROWS", "SHEETS", "answer_text", "presentation", "workbook", "write_pptx", "write_xlsx"]
