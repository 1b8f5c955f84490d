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
from model import recommend
from model.files import atomic_write
from model.results import fabric_summaries

from gui.present.assumptions import assumptions, guess_legend, titles_note
from gui.present.format import currency_symbol, fmt_money, fmt_number, fmt_sig
from gui.present.pack import DISCOUNT_RATE, Cover, bill_of_materials, financials, fingerprint, tco_parts
from gui.present.plausibility import point_stalls, stall_text
from gui.present.series import CHART_KINDS, chart_series
from gui.present.text import QT_TRANSLATE_NOOP, profile_set_name, translate
from gui.present.reasons import render

SHEETS = {"inputs": QT_TRANSLATE_NOOP("Pack", "Inputs"), "bom": QT_TRANSLATE_NOOP("Pack", "BOM"),
          "tco": QT_TRANSLATE_NOOP("Pack", "TCO"), "comparison": QT_TRANSLATE_NOOP("Pack", "Comparison")}


def _t(text: str) -> str:
    return translate("Pack", text)


def _labels(point) -> dict:
    return {f: translate("Data", lab).split(" (")[0].split("（")[0] for f, lab in zip(point.fabrics, point.labels)}


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


BOM_HEADS = (QT_TRANSLATE_NOOP("Pack", "Fabric"), QT_TRANSLATE_NOOP("Pack", "Item"),
             QT_TRANSLATE_NOOP("Pack", "Quantity"), QT_TRANSLATE_NOOP("Pack", "Unit price"),
             QT_TRANSLATE_NOOP("Pack", "Total"))
TCO_HEADS = (QT_TRANSLATE_NOOP("Pack", "Fabric"), QT_TRANSLATE_NOOP("Pack", "Capex"),
             QT_TRANSLATE_NOOP("Pack", "Energy per year (kWh)"), QT_TRANSLATE_NOOP("Pack", "Energy per year"),
             QT_TRANSLATE_NOOP("Pack", "Operations per year"), QT_TRANSLATE_NOOP("Pack", "Support per year"),
             QT_TRANSLATE_NOOP("Pack", "Opex per year"), QT_TRANSLATE_NOOP("Pack", "TCO"),
             QT_TRANSLATE_NOOP("Pack", "Run with interruptions (h)"), QT_TRANSLATE_NOOP("Pack", "Duty cycle"),
             QT_TRANSLATE_NOOP("Pack", "Cost per training run"))
COMPARISON_HEADS = (QT_TRANSLATE_NOOP("Pack", "Fabric"),
                    QT_TRANSLATE_NOOP("Pack", "Training days (with interruptions)"),
                    QT_TRANSLATE_NOOP("Pack", "MFU"), QT_TRANSLATE_NOOP("Pack", "Note"))
COST_HEADS = (QT_TRANSLATE_NOOP("Pack", "Fabric"), QT_TRANSLATE_NOOP("Pack", "Capex"),
              QT_TRANSLATE_NOOP("Pack", "TCO (same cluster)"), QT_TRANSLATE_NOOP("Pack", "Cost per training run"),
              QT_TRANSLATE_NOOP("Pack", "NPV"))


def _heads(heads) -> list[str]:
    """A table's header row in the UI language."""
    return [translate("Pack", h) for h in heads]


def sheet_titles() -> dict[str, str]:
    """The workbook's sheet names in the UI language (``Inputs``, ``BOM``, ``TCO``, ``Comparison``)."""
    return {key: translate("Pack", text) for key, text in SHEETS.items()}


def _ref(sheet: str, cell: str) -> str:
    """A reference to ``cell`` on sheet ``sheet``, quoted so any sheet name (Chinese too) works in a formula."""
    return "'" + sheet.replace("'", "''") + "'!" + cell


def _input_cell(key: str, titles: dict) -> str:
    return _ref(titles["inputs"], f"$B${2 + [k for k, _ in INPUT_ROWS].index(key)}")


def workbook(point, lang: str = "en"):
    """The pack's workbook (an ``openpyxl.Workbook``) for a point result; ``lang`` of the answer line."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    bold = Font(bold=True)
    parts = tco_parts(point)
    bom = bill_of_materials(point)
    labels = _labels(point)
    cur = str(np.asarray(point.money.currency).reshape(-1)[0])
    first = parts[point.fabrics[0]]
    wb = Workbook()
    ws = wb.active
    titles = sheet_titles()
    ws.title = titles["inputs"]
    ws.append([translate("Pack", "Input"), translate("Pack", "Value")])
    book = point.scenario.price_book
    values = {"discount": book.discount, "electricity": first.price_per_kwh, "support": book.support_fraction,
              "years": first.years, "rate": DISCOUNT_RATE}
    for key, label in INPUT_ROWS:
        ws.append([_t(label), values[key]])
    ws.append([])
    ws.append([translate("Pack", "Money in {currency}; edit the values in column B: every other sheet follows.").format(
        currency=cur)])
    ws.column_dimensions["A"].width = 58

    b = wb.create_sheet(titles["bom"])
    b.append(_heads(BOM_HEADS))
    capex_cell = {}
    for name in point.fabrics:
        start = b.max_row + 1
        for line in (x for x in bom[name] if x.item != "discount"):  # the discount is the Inputs sheet's
            r = b.max_row + 1
            b.append([labels[name], line.label, line.quantity, line.unit_price,
                      f"=C{r}*D{r}*(1-{_input_cell('discount', titles)})"])
        end = b.max_row
        b.append([labels[name], translate("Pack", "Capex"), None, None, f"=SUM(E{start}:E{end})"])
        b.cell(row=b.max_row, column=2).font = bold
        capex_cell[name] = _ref(titles["bom"], f"$E${b.max_row}")
    b.column_dimensions["B"].width = 44

    t = wb.create_sheet(titles["tco"])
    t.append(_heads(TCO_HEADS))
    for name in point.fabrics:
        p = parts[name]
        r = t.max_row + 1
        price, support, years = (_input_cell(k, titles) for k in ("electricity", "support", "years"))
        t.append([labels[name], f"={capex_cell[name]}", p.energy_kwh_per_year, f"=C{r}*{price}",
                  p.operations_per_year, f"=B{r}*{support}", f"=D{r}+E{r}+F{r}", f"=B{r}+G{r}*{years}",
                  p.run_hours, p.duty_cycle, f"=H{r}*I{r}/({years}*8760*J{r})"])

    c = wb.create_sheet(titles["comparison"])
    c.append(_heads(COMPARISON_HEADS))
    stalls = point_stalls(point)
    for f in fabric_summaries(point):
        if f.fabric in stalls:  # past the plausibility bound: the cause, not the figure
            c.append([labels[f.fabric], None, None, stall_text(stalls[f.fabric])])
        else:
            c.append([labels[f.fabric], round(f.train_days_with_interruptions, 1), round(f.mfu, 3), ""])
    c.append([])
    c.append([answer_text(point, lang)])
    from gui.export.acceptance_pack import add_acceptance_sheet

    add_acceptance_sheet(wb, point.scenario)
    return wb


def write_xlsx(point, path, lang: str = "en") -> Path:
    """The workbook saved to ``path`` (written whole or not at all)."""
    import io

    buf = io.BytesIO()
    workbook(point, lang).save(buf)
    return atomic_write(path, buf.getvalue())


# -- PPTX ----------------------------------------------------------------------------------------------

def presentation(snap, lang: str = "en", today: dt.date | None = None, cover: Cover | None = None):
    """The pack's slide deck (a ``pptx.Presentation``) for a window snapshot (``snap.sweep``, ``snap.point``);
    ``cover``: customer, preparer, date and validity for the title slide (``today`` sets the date when no cover)."""
    from pptx import Presentation
    from pptx.chart.data import XyChartData
    from pptx.enum.chart import XL_CHART_TYPE, XL_LEGEND_POSITION
    from pptx.util import Inches, Pt

    point, s = snap.point, snap.scenario
    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(13.333), Inches(7.5)
    title_layout, content_layout, blank = prs.slide_layouts[0], prs.slide_layouts[5], prs.slide_layouts[6]

    slide = prs.slides.add_slide(title_layout)
    slide.shapes.title.text = translate("Pack", "Network fabric proposal")
    cover = cover or Cover(date=today)
    who = " · ".join(x for x in (
        translate("Pack", "Customer: {name}").format(name=cover.customer) if cover.customer else "",
        translate("Pack", "Prepared by: {name}").format(name=cover.prepared_by) if cover.prepared_by else "") if x)
    slide.placeholders[1].text = "\n".join(x for x in [
        translate("Data", s.name), who,
        translate("Pack", "Date: {date} · valid until {until}").format(date=cover.day.isoformat(),
                                                        until=cover.valid_until.isoformat()),
        translate("Pack", "Scenario fingerprint: {fp} · Fabric What-If {version}").format(
            fp=fingerprint(s), version=model.__version__),
        translate("Pack", "Fabric figures: {name}").format(name=profile_set_name(s.fabric.profile_set)),
        answer_text(point, lang)] if x)
    for para in slide.placeholders[1].text_frame.paragraphs:
        for run in para.runs:
            run.font.size = Pt(16)

    for kind in CHART_KINDS:
        data = chart_series(snap.sweep, kind)
        slide = prs.slides.add_slide(content_layout)
        slide.shapes.title.text = data.short_title or data.title
        cd = XyChartData()
        for ser in data.series:
            stall = f" ({stall_text(ser.stall, short=True)})" if ser.stall else ""
            # a fabric past the plausibility bound named with its cause
            series = cd.add_series(translate("Data", ser.label) + stall)
            for x, y in zip(data.x, ser.y):
                if np.isfinite(x) and np.isfinite(y):
                    series.add_data_point(float(x), float(y))
        frame = slide.shapes.add_chart(XL_CHART_TYPE.XY_SCATTER_LINES_NO_MARKERS, Inches(0.6), Inches(1.4),
                                       Inches(12.1), Inches(5.7), cd)
        chart = frame.chart
        chart.has_legend = True
        chart.legend.position = XL_LEGEND_POSITION.BOTTOM
        chart.legend.include_in_layout = False
        chart.category_axis.has_title = True
        chart.category_axis.axis_title.text_frame.text = data.x_label
        chart.value_axis.has_title = True
        chart.value_axis.axis_title.text_frame.text = data.y_label
        for ser, style in zip(chart.series, data.series):
            ser.format.line.color.rgb = _rgb(style.style["colour"])
            ser.smooth = False

    slide = prs.slides.add_slide(content_layout)
    slide.shapes.title.text = translate("Pack", "Bill of materials")
    bom, summaries = bill_of_materials(point), fabric_summaries(point)
    stalls = point_stalls(point)
    cur = summaries[0].currency
    labels = _labels(point)
    rows = [_heads(BOM_HEADS)]
    for name in point.fabrics:
        rows += [[labels[name] if i == 0 else "", line.label, f"{line.quantity:,.0f}", fmt_money(line.unit_price, cur),
                  fmt_money(line.total, cur)] for i, line in enumerate(bom[name])]
        rows.append(["", translate("Pack", "Capex"), "", "", fmt_money(sum(x.total for x in bom[name]), cur)])
    _table(slide, rows, Inches(0.5), Inches(1.3), Inches(12.3), Pt(10 if len(rows) <= 18 else 9))

    slide = prs.slides.add_slide(content_layout)
    slide.shapes.title.text = translate("Pack", "Cost and financials")
    rec = recommend.recommendation(point.scenario, point, samples=0)
    pick = rec.pick or (rec.tree_fabric if rec.tree_fabric in rec.equivalent else rec.best)
    base = recommend.money_baseline(point, pick, stalls=stalls) if pick is not None else None
    heads, cost_rows = cost_table(point, base, stalls, labels)
    _table(slide, [heads] + cost_rows, Inches(0.5), Inches(1.3), Inches(12.3), Pt(11))
    note = slide.shapes.add_textbox(Inches(0.5), Inches(1.6 + 0.45 * (len(cost_rows) + 1)), Inches(12.3), Inches(1.2))
    note.text_frame.word_wrap = True
    note.text_frame.text = cost_note(labels.get(base, "–") if base else "–")
    for para in note.text_frame.paragraphs:
        for run in para.runs:
            run.font.size = Pt(10)

    from gui.export.acceptance_pack import add_acceptance_slide

    add_acceptance_slide(prs, s, content_layout, _table)  # the contract's numbers, before the assumptions

    slide = prs.slides.add_slide(content_layout)
    slide.shapes.title.text = translate("Pack", "Assumptions and sources")
    items = assumptions(s, point)
    lines = [f"{what} — {src}" for what, src in items]
    lines += [x for x in (guess_legend(items), titles_note(),
                          translate("Pack", "NPV at {rate} % a year; money saved at the baseline's output.").format(
                              rate=f"{DISCOUNT_RATE * 100:g}")) if x]
    box = slide.shapes.add_textbox(Inches(0.5), Inches(1.3), Inches(12.3), Inches(5.8))
    box.text_frame.word_wrap = True
    for i, line in enumerate(lines):
        para = box.text_frame.paragraphs[0] if i == 0 else box.text_frame.add_paragraph()
        para.text = line
        for run in para.runs:
            run.font.size = Pt(10 if len(lines) > 10 else 11)
    return prs


def gpu_hour_money(v: float, currency: str) -> str:
    """A price per GPU-hour: the symbol and two decimals (a few units of money; never rounded to whole units)."""
    return f"{currency_symbol(currency)}{fmt_number(v, 2)}"


def payback_text(fin) -> str:
    """How long the extra capex takes to pay back (a :class:`gui.present.pack.Financials`), in the unit that reads
    best: days under a month, months under two years, else years; "at once" when nothing extra is spent, "never"
    when nothing is saved."""
    if fin.extra_capex <= 0:
        return translate("Pack", "at once")
    years = fin.payback_years
    if years == float("inf"):
        return translate("Pack", "never")
    if years < 1 / 12:
        return translate("Pack", "{n} days").format(n=fmt_sig(max(years * 365.25, 1), 2))
    if years < 2:
        return translate("Pack", "{n} months").format(n=fmt_sig(years * 12, 2))
    return translate("Pack", "{n} years").format(n=fmt_sig(years, 2))


def cost_table(point, base: str | None, stalls: dict, labels: dict) -> tuple[list[str], list[list[str]]]:
    """The cost and financials table of the PDF's BOM page and the slides: headers, then per fabric its capex, the
    same cluster's TCO, cost per run (or "stalls — cause"), and against ``base`` for the same work the yearly
    saving, NPV and payback (none for ``base`` itself, a stalled fabric or no ``base``), and its price per GPU-hour."""
    cur = str(np.asarray(point.money.currency).reshape(-1)[0])
    years = fmt_sig(point.scenario.economics.years, 2)
    heads = [translate("Pack", "Fabric"), translate("Pack", "Capex"),
             translate("Pack", "TCO, same cluster, {n} years").format(n=years),
             translate("Pack", "Cost per training run"), translate("Pack", "Saved per year, same work"),
             translate("Pack", "NPV"), translate("Pack", "Payback"), translate("Pack", "Price per GPU-hour")]
    rows = []
    for f in fabric_summaries(point):
        fin = financials(point, f.fabric, base or f.fabric)
        per_run = stall_text(stalls[f.fabric], short=True) if f.fabric in stalls else fmt_money(f.cost_per_run, cur)
        if f.fabric in stalls or base is None or f.fabric == base:
            saved = npv = payback = "–"
        else:
            saved, npv, payback = fmt_money(fin.saved_per_year, cur), fmt_money(fin.npv, cur), payback_text(fin)
        rows.append([labels[f.fabric], fmt_money(f.capex, cur), fmt_money(f.tco, cur), per_run, saved, npv, payback,
                     gpu_hour_money(fin.gpu_hour_price, cur)])
    return heads, rows


def cost_note(base_label: str) -> str:
    """What the cost table compares, in one paragraph."""
    return translate("Pack", "Money for the same work is compared with {fabric} at its output (its runs per year); "
                             "the TCO is the same cluster's over its years, whatever work it does. NPV at {rate} % a "
                             "year of the extra capex against the yearly saving; price per GPU-hour: the TCO over the "
                             "GPU-hours the cluster delivers at its duty cycle.").format(
        fabric=base_label, rate=fmt_sig(DISCOUNT_RATE * 100, 2))


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


def write_pptx(snap, path, lang: str = "en", cover: Cover | None = None) -> Path:
    """The slide deck saved to ``path`` (written whole or not at all)."""
    import io

    buf = io.BytesIO()
    presentation(snap, lang, cover=cover).save(buf)
    return atomic_write(path, buf.getvalue())


__all__ = ["INPUT_ROWS", "SHEETS", "answer_text", "presentation", "workbook", "write_pptx", "write_xlsx"]
