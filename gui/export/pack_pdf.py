"""The proposal pack's PDF: a document of several pages a customer can staple, drawn with ``QPdfWriter``.

Pages, in :data:`PAGES` order (one list of page builders; a new page is one more entry):

1. **cover** — who it is for and by whom, the date and validity, the scenario fingerprint with its QR code
   (:func:`gui.present.pack.fingerprint`), a row of headline numbers (money for the same work first), the
   inputs beside the recommendation, and the fabric table (an A/B compare under it when one is pinned);
2. **charts** — the charts at full width with one legend;
3. **bill of materials** — per fabric, quantity × unit price = total, from the topology model
   (:func:`gui.present.pack.bill_of_materials`), then the cost and financials per fabric;
4. **acceptance** — the busbw the chosen fabric must reach in nccl-tests per collective, size and node count,
   with measured tolerances (:mod:`gui.export.acceptance_page`);
5. **assumptions** — every figure's source, guesses marked once with a legend, and a neutral disclaimer;
6. **audit** (``audit=True`` only) — the article's claims beside the engine's figures. It is a page of its own:
   asking for it never shrinks or drops anything on the other pages.

Text is text (``QTextDocument`` HTML), the charts are the app's own chart widget as vectors and the QR code is
drawn as squares, so the PDF has no raster image. Everything is in the UI language, money in its one format.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PySide6 import QtCore, QtGui

import model
from model import ScenarioError
from model.files import atomic_write, check_writable
from model.results import fabric_summaries

from gui.present.series import CHART_KINDS
from gui.export import pack_files
from gui.export import proposal as sheet_parts
from gui.export.charts import PDF_DPI, build_chart, ensure_app
from gui.export.proposal import PAGE_MARGIN, FOOTER_H, _Sheet
from gui.export.proposal_content import ACCENT, INK, MUTED, PackContent, _e, _short, proposal_content
from gui.export.proposal_html import _TABLE, _assumptions_html, _claims_html, _compare_html, _fabric_table_html, \
    _heading, _inputs_html, _recommendation_html
from gui.i18n import fmt_money, translate
from gui.i18n_data import tr_data
from gui.present import pack
from gui.present.assumptions import titles_note
from gui.present.format import fmt_compact, fmt_number, fmt_sig

PAPERS = sheet_parts.PAPERS
QR_SIZE = 92.0  # the cover's QR code [px at PDF_DPI]: 2.4 cm, read by a phone from a printed page
HEAD_PT = 7.5   # body text of the pack's pages [pt]


# --------------------------------------------------------------------------
# content
# --------------------------------------------------------------------------

def pack_content(snap, cover: pack.Cover | None = None, *, source=None, pinned=None, bands=None,
                 audit: bool = False) -> PackContent:
    """Everything the pack's PDF shows: the one-page sheet's content (:func:`gui.export.proposal_content.proposal_content`)
    plus the cover, the fingerprint, the headline numbers and the bill of materials."""
    cover = cover or pack.Cover()
    c = proposal_content(snap, source=source, today=cover.day, pinned=pinned, bands=bands, audit=audit)
    point = snap.point
    labels = {f: _short(tr_data(lab)).split("（")[0] for f, lab in zip(point.fabrics, point.labels)}
    h = pack.headline(point, c.stalls)
    return PackContent.of(
        c, cover=cover, fingerprint=pack.fingerprint(snap.scenario), qr=pack.qr_payload(snap.scenario),
        short=labels, headline=h, bom=pack.bill_of_materials(point), summaries=fabric_summaries(point),
        headline_solo=pack.financials(point, h.fabric, h.fabric) if h is not None and h.baseline is None else None)


# --------------------------------------------------------------------------
# pages: one list of builders
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Page:
    """One page of the pack: ``build(sheet, content, snap, overlays)`` draws it from the top margin down;
    ``wanted(content)`` says whether this pack has it."""
    key: str
    build: Callable
    wanted: Callable = lambda c: True


def _cover_page(sheet: _Sheet, c, snap, overlays) -> None:
    _cover_block(sheet, c)
    _headline_row(sheet, c)
    sheet_parts._two_columns(sheet, _inputs_html(c), _recommendation_html(c))
    sheet.block(_fabric_table_html(c), pt=7.0)
    compare = _compare_html(c)
    if compare:
        sheet.block(compare, pt=6.5)


def _charts_page(sheet: _Sheet, c, snap, overlays) -> None:
    sheet.block(_heading(translate("Pack", "How the fabrics compare as the scenario changes")), pt=HEAD_PT, gap=2)
    sheet_parts._legend(sheet, snap, c, overlays)
    cap_font = sheet_parts._font(8.0, bold=True)
    cap_h = QtGui.QFontMetricsF(cap_font).height() + 2
    gap = 12.0
    height = (sheet.bottom - sheet.y - gap * (len(CHART_KINDS) - 1)) / len(CHART_KINDS)
    for kind in CHART_KINDS:
        chart = build_chart(snap, kind, size=(int(sheet.width), int(height - cap_h)), line_width=1.5, font_pt=7.5,
                            compact=True, **(overlays or {}))
        sheet_parts.draw_chart(sheet, snap, kind, chart, sheet.left, cap_font, c.breakeven["crossings"],
                               label_pt=7.0)
        sheet.y += height + gap


def _bom_page(sheet: _Sheet, c, snap, overlays) -> None:
    sheet.block(_bom_html(c, snap.point), pt=HEAD_PT, gap=10)
    sheet.block(_costs_html(c, snap.point), pt=HEAD_PT)


def _assumptions_page(sheet: _Sheet, c, snap, overlays) -> None:
    """The sources at a reading size (8.5 pt, smaller only when a long list needs it), the disclaimer under them."""
    html_text = (_assumptions_html(c).replace("margin-bottom:1px", "margin-bottom:5px")
                 + _sources_note_html())
    disclaimer = sheet.doc(_disclaimer_html(c), sheet.width, HEAD_PT)
    room = sheet.bottom - sheet.y - disclaimer.size().height() - 14
    for pt in (8.5, 8.0, 7.5, 7.0, 6.5, 6.0, 5.5):
        d = sheet.doc(html_text, sheet.width, pt, tight=False)
        if d.size().height() <= room:
            break
    sheet.y += sheet.draw_doc(d, sheet.left, sheet.y, max_h=room) + 14
    sheet.y += sheet.draw_doc(disclaimer, sheet.left, sheet.y)


def _acceptance_page(sheet: _Sheet, c, snap, overlays) -> None:
    from gui.export.acceptance_page import acceptance_html

    sheet.block(acceptance_html(snap.scenario), pt=7.5)


def _audit_page(sheet: _Sheet, c, snap, overlays) -> None:
    sheet.block(_heading(translate("Pack", "Audit: the article's claims beside the engine")), pt=HEAD_PT, gap=2)
    sheet.block(_claims_html(c), pt=7.0)


PAGES: list[Page] = [
    Page("cover", _cover_page),
    Page("charts", _charts_page),
    Page("bom", _bom_page),
    Page("acceptance", _acceptance_page),
    Page("assumptions", _assumptions_page),
    Page("audit", _audit_page, lambda c: bool(c.audit and c.claims)),
]
"""The pack's pages in order. Another page is one more :class:`Page` here (its builder draws on a fresh page)."""


def page_keys(c) -> list[str]:
    """The keys of the pages a pack with content ``c`` has, in order."""
    return [page.key for page in PAGES if page.wanted(c)]


# --------------------------------------------------------------------------
# blocks
# --------------------------------------------------------------------------

def _cover_block(sheet: _Sheet, c) -> None:
    cover: pack.Cover = c.cover
    title = (f"<p style='color:{ACCENT}; font-size:9pt; font-weight:600; letter-spacing:1px'>"
             f"{_e(c.title.upper())}</p>"
             f"<p style='font-size:18pt; font-weight:700; color:{INK}'>{_e(c.scenario)}</p>"
             + (f"<p style='color:{MUTED}'>{_e(c.description)}</p>" if c.description else ""))
    blank = "–"
    until = translate("Pack", "{date} ({days} days)").format(date=cover.valid_until.isoformat(), days=cover.valid_days)
    rows = ((translate("Pack", "Customer"), cover.customer or blank),
            (translate("Pack", "Prepared by"), cover.prepared_by or blank),
            (translate("Pack", "Date"), cover.day.isoformat()),
            (translate("Pack", "Valid until"), until),
            (translate("Pack", "Scenario fingerprint"), c.fingerprint),
            (translate("Pack", "Fabric figures"), c.profile_label),
            (translate("Pack", "Engine"), f"Fabric What-If {c.version}"))
    table = _TABLE + "".join(f"<tr><td style='color:{MUTED}' width='38%'>{_e(k)}</td>"
                                         f"<td><b>{_e(v)}</b></td></tr>" for k, v in rows) + "</table>"
    qr_w = QR_SIZE + 8
    split = 0.50
    d_title = sheet.doc(title, sheet.width * split - 12, 8, tight=False)
    d_rows = sheet.doc(table, sheet.width * (1 - split) - qr_w - 8, HEAD_PT, tight=False)
    y0 = sheet.y
    h = sheet.draw_doc(d_title, sheet.left, y0)
    h = max(h, sheet.draw_doc(d_rows, sheet.left + sheet.width * split, y0))
    _draw_qr(sheet.p, pack.qr_modules(c.qr), QtCore.QRectF(sheet.right - QR_SIZE, y0, QR_SIZE, QR_SIZE))
    cap = sheet.doc(f"<p align='center' style='color:{MUTED}'>{_e(c.fingerprint)}</p>", qr_w, 6.0, tight=False)
    sheet.draw_doc(cap, sheet.right - QR_SIZE - 4, y0 + QR_SIZE + 2)
    sheet.y = y0 + max(h, QR_SIZE + cap.size().height() + 2) + 6
    sheet.rule()


def _draw_qr(p: QtGui.QPainter, modules, rect: QtCore.QRectF) -> None:
    """The QR code as black squares (vector, no image), with its quiet zone of four modules."""
    n = modules.shape[0] + 8
    cell = min(rect.width(), rect.height()) / n
    p.save()
    p.fillRect(rect, QtGui.QColor("white"))
    path = QtGui.QPainterPath()
    for r, c in zip(*modules.nonzero()):
        path.addRect(QtCore.QRectF(rect.left() + (c + 4) * cell, rect.top() + (r + 4) * cell, cell, cell))
    p.fillPath(path.simplified(), QtGui.QColor("black"))
    p.restore()


def headline_cells(c) -> list[tuple[str, str, str]]:
    """The cover's headline numbers: (caption, value, the line under it), money for the same work first."""
    h: pack.Headline | None = c.headline
    if h is None:
        return [(translate("Pack", "Recommended fabric"), translate("Proposal", "No fabric yet"),
                 translate("Proposal", "no plan fits in memory"))]
    short, cur = c.short, c.currency
    summ = {f.fabric: f for f in c.summaries}
    pick = summ[h.fabric]
    days = translate("Pack", "{n} days").format(n=fmt_number(pick.train_days_with_interruptions, 1))
    fin_pick = c.headline_solo or h.finance
    gpu_hour = (translate("Pack", "Price per GPU-hour"), pack_files.gpu_hour_money(fin_pick.gpu_hour_price, cur),
                translate("Pack", "TCO over delivered GPU-hours"))
    if h.baseline is None:
        return [(translate("Pack", "Recommended fabric"), short[h.fabric], ""),
                (translate("Pack", "Training run"), days, translate("Pack", "with expected interruptions")),
                (translate("Pack", "Cost per training run"), fmt_money(pick.cost_per_run, cur), ""), gpu_hour]
    w, fin, base = h.work, h.finance, short[h.baseline]
    payback = pack_files.payback_text(fin)
    if fin.extra_capex <= 0:
        payback_sub = translate("Pack", "costs no more up front than {fabric}").format(fabric=base)
    elif fin.payback_years == float("inf"):
        payback_sub = translate("Pack", "saves nothing at the same work")
    else:
        payback_sub = translate("Pack", "NPV {money} at {rate} % a year").format(money=fmt_money(fin.npv, cur),
                                                                  rate=fmt_sig(fin.discount_rate * 100, 2))
    return [
        (translate("Pack", "Recommended fabric"), short[h.fabric],
         translate("Pack", "against {fabric}").format(fabric=base)),
        (translate("Pack", "Training run"), days,
         translate("Pack", "{fabric}: {n} days").format(fabric=base, n=fmt_number(w.baseline_days, 1))),
        (translate("Pack", "Cost per training run"), fmt_money(w.per_run, cur),
         translate("Pack", "{fabric}: {money}").format(fabric=base, money=fmt_money(w.baseline_per_run, cur))),
        (translate("Pack", "Saved per year, same work"), fmt_money(w.saved_per_year, cur),
         translate("Pack", "{n} GPU-hours freed a year").format(n=fmt_compact(w.gpu_hours_per_year, 3))),
        (translate("Pack", "Payback of the extra capex"), payback, payback_sub),
        gpu_hour,
    ]


def _headline_row(sheet: _Sheet, c) -> None:
    cells = headline_cells(c)
    gap = 8.0
    w = (sheet.width - gap * (len(cells) - 1)) / len(cells)
    docs = [sheet.doc(f"<p style='color:{MUTED}; font-size:6.5pt'>{_e(cap)}</p>"
                      f"<p style='font-size:12pt; font-weight:700; color:{INK}'>{_e(value)}</p>"
                      + (f"<p style='color:{MUTED}; font-size:6.5pt'>{_e(sub)}</p>" if sub else ""),
                      w - 12, HEAD_PT, tight=False) for cap, value, sub in cells]
    h = max(d.size().height() for d in docs) + 10
    for i, d in enumerate(docs):
        x = sheet.left + i * (w + gap)
        sheet.p.save()
        sheet.p.setPen(QtGui.QPen(QtGui.QColor(ACCENT), 1.0))
        sheet.p.setBrush(QtGui.QColor("#eef5fb"))
        sheet.p.drawRoundedRect(QtCore.QRectF(x, sheet.y, w, h), 4, 4)
        sheet.p.restore()
        sheet.draw_doc(d, x + 6, sheet.y + 5)
    sheet.y += h + 12


def _bom_html(c, point) -> str:
    cur = c.currency
    head = "".join(f"<th align='{al}'>{_e(translate('Pack', t))}</th>"
                   for t, al in zip(pack_files.BOM_HEADS, ("left", "left", "right", "right", "right")))
    rows = []
    for k, name in enumerate(point.fabrics):
        bg = "background:#f7f7f7;" if k % 2 else ""
        lines = c.bom[name]
        for i, line in enumerate(lines):
            rows.append(f"<tr style='{bg}'><td>{_e(c.short[name]) if i == 0 else ''}</td><td>{_e(line.label)}</td>"
                        f"<td align='right'>{_e(fmt_number(line.quantity, 0))}</td>"
                        f"<td align='right'>{_e(fmt_money(line.unit_price, cur))}</td>"
                        f"<td align='right'>{_e(fmt_money(line.total, cur))}</td></tr>")
        capex = translate("Pack", "Capex")
        rows.append(f"<tr style='{bg}font-weight:700'><td></td><td>{_e(capex)}</td><td></td><td></td>"
                    f"<td align='right'>{_e(fmt_money(sum(x.total for x in lines), cur))}</td></tr>")
    note = translate("Pack", "Quantities from the topology model (NICs per node, the fat tree's switches, its links "
                             "with their optics); unit prices are the component prices the economics uses, before any "
                             "discount. Money in {currency}. The workbook (proposal.xlsx) recomputes these totals from "
                             "editable prices.").format(currency=cur)
    return (_heading(translate("Pack", "Bill of materials")) + _TABLE
            + f"<tr style='background:#eef3f8'>{head}</tr>{''.join(rows)}</table>"
            + f"<p style='color:{MUTED}; font-size:6.5pt'>{_e(note)}</p>")


def _costs_html(c, point) -> str:
    h: pack.Headline | None = c.headline
    base = h.baseline if h is not None else None
    heads, rows = pack_files.cost_table(point, base, c.stalls, c.short)
    aligns = ["left"] + ["right"] * (len(heads) - 1)
    head = "".join(f"<th align='{al}'>{_e(t)}</th>" for t, al in zip(heads, aligns))
    body = "".join(f"<tr style='{'background:#f7f7f7;' if k % 2 else ''}'>"
                   + "".join(f"<td align='{al}'>{_e(v)}</td>" for v, al in zip(row, aligns)) + "</tr>"
                   for k, row in enumerate(rows))
    note = pack_files.cost_note(c.short.get(base, "–") if base else "–")
    return (_heading(translate("Pack", "Cost and financials")) + _TABLE
            + f"<tr style='background:#eef3f8'>{head}</tr>{body}</table>"
            + f"<p style='color:{MUTED}; font-size:6.5pt'>{_e(note)}</p>")


def _sources_note_html() -> str:
    return (f"<p style='color:{MUTED}; margin-top:3px'>"
            + _e(titles_note()) + "</p>")


def _disclaimer_html(c) -> str:
    cover: pack.Cover = c.cover
    text = translate("Pack", "These figures are estimates by Fabric What-If {version} from published mechanisms "
                             "and the sources above, for the scenario with fingerprint {fingerprint}. They are not "
                             "measurements of your cluster, not a quotation and not a performance guarantee. Prices "
                             "are list-price estimates before negotiation and taxes; confirm them with a supplier's "
                             "quotation. Valid until {date}.").format(
        version=c.version, fingerprint=c.fingerprint, date=cover.valid_until.isoformat())
    return _heading(translate("Pack", "Disclaimer")) + f"<p style='color:{MUTED}'>{_e(text)}</p>"


def _page_header(sheet: _Sheet, c) -> None:
    cover: pack.Cover = c.cover
    right = " · ".join(x for x in (cover.customer, c.fingerprint) if x)
    left = f"{c.title} · {c.scenario}"
    html_text = (f"<table width='100%' cellspacing='0' cellpadding='0'><tr>"
                 f"<td style='color:{ACCENT}; font-weight:600'>{_e(left)}</td>"
                 f"<td align='right' style='color:{MUTED}'>{_e(right)}</td></tr></table>")
    sheet.block(html_text, pt=7.0, gap=4)
    sheet.rule(width=1.0, gap=10)


def _page_footer(sheet: _Sheet, c, page_h: float, n: int, total: int) -> None:
    parts = [translate("Proposal", "Generated by Fabric What-If {version} on {date}").format(
                 version=c.version, date=c.date),
             translate("Proposal", "fabric figures: {name}").format(name=c.profile_label),
             translate("Proposal", "Engine estimates from published mechanisms, not measurements of your cluster."),
             translate("Pack", "page {n} of {total}").format(n=n, total=total)]
    d = sheet.doc(f"<p style='color:{MUTED}'>{' · '.join(_e(t) for t in parts)}</p>", sheet.width, 6.5)
    sheet.draw_doc(d, sheet.left, page_h - PAGE_MARGIN + 6)


# --------------------------------------------------------------------------
# the document
# --------------------------------------------------------------------------

def pack_pdf(snap, cover: pack.Cover | None = None, *, paper: str = "a4", source=None, pinned=None, bands=None,
             audit: bool = False, baseline: str | None = None) -> bytes:
    """The pack's PDF as bytes, in the current UI language (see the module's docstring for its pages)."""
    ensure_app()
    if paper not in PAPERS:
        raise ScenarioError("--paper", paper, "a4 or letter")
    c = pack_content(snap, cover, source=source, pinned=pinned, bands=bands, audit=audit)
    overlays = dict(bands=bands, pinned=pinned, baseline=baseline)
    pages = [page for page in PAGES if page.wanted(c)]
    buf, pdf = sheet_parts.pdf_writer(paper, f"{c.title}: {c.scenario}")
    rect = pdf.pageLayout().fullRectPixels(PDF_DPI)
    p = QtGui.QPainter(pdf)
    try:
        for n, page in enumerate(pages, start=1):
            if n > 1:
                pdf.newPage()
            p.fillRect(QtCore.QRectF(rect), QtGui.QColor("white"))
            sheet = _Sheet(p, rect.width(), rect.height() - FOOTER_H, PAGE_MARGIN)
            if n > 1:
                _page_header(sheet, c)
            page.build(sheet, c, snap, overlays)
            _page_footer(sheet, c, rect.height() - FOOTER_H, n, len(pages))
    finally:
        p.end()
    buf.close()
    return bytes(buf.data())


def write_pack_pdf(snap, path, cover: pack.Cover | None = None, **kw) -> Path:
    """The pack's PDF written to ``path`` atomically (keywords: see :func:`pack_pdf`)."""
    check_writable(path)
    return atomic_write(path, pack_pdf(snap, cover, **kw))


__all__ = ["PAGES", "Page", "headline_cells", "pack_content", "pack_pdf", "page_keys",
           "write_pack_pdf"]
