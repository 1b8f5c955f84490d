"""The one-page proposal sheet (A4 or Letter PDF) a presales engineer hands a customer.

Drawn with ``QPdfWriter`` + ``QPainter`` at 96 dpi: text blocks are ``QTextDocument``
HTML (so the text stays text: selectable and searchable), the three charts are the
app's own chart widget rendered 1:1 into their boxes (vector curves, text as text). With the
article audit, the claims table is a second page: the sheet itself stays as it is.

:func:`~gui.export.proposal_content.proposal_content` gathers everything the page shows as plain data, from
the engine only; :mod:`gui.export.proposal_html` writes its text blocks; this module lays them out.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

import model
from model import ScenarioError, claims
from model.files import atomic_write, check_writable

from gui.charts import breakeven

from gui.charts import compare
from gui.charts.bands import BAND_ALPHA
from gui.present.series import CHART_KINDS, fabric_styles
from gui.charts.plot_items import make_pen
from gui.charts.compare import pinned_pen
from gui.export.charts import (OVERLAY_GREY, PDF_DPI, build_chart, cjk_family, ensure_app, no_ligatures, overlay_legend,
                     render_scene)
from gui.i18n import is_chinese, translate
from gui.i18n_data import tr_data
from gui.present.series import sheet_notes
from gui.export.proposal_content import ACCENT, INK, MUTED, _e, proposal_content
from gui.export.proposal_html import _assumptions_html, _claims_html, _compare_html, _fabric_table_html, \
    _inputs_html, _recommendation_html

PAPERS = ("a4", "letter")


def _font(pt: float, bold: bool = False):
    f = QtGui.QFont("DejaVu Sans")
    # Chinese: Noto Sans CJK is named, not left to the platform's fallback, so the PDF
    # embeds one known CJK font and reads the same on every machine; its copy
    # with a one-to-one cmap, so the text copies as typed (gui.system.cjk_font).
    f.setFamilies(["DejaVu Sans", cjk_family()] if is_chinese() else ["DejaVu Sans"])
    f.setStyleHint(QtGui.QFont.StyleHint.SansSerif)
    f.setPointSizeF(pt)
    f.setBold(bold)
    return no_ligatures(f)



# --------------------------------------------------------------------------
# drawing
# --------------------------------------------------------------------------

CJK_LINE_HEIGHT = 82.0  # % of the font's line spacing: Noto Sans CJK's (1.45 em) would need a second page


def _tighten_lines(doc) -> None:
    """Chinese text at a line spacing close to the Latin one (ideographs fill ~1 em; the font asks 1.45 em)."""
    block = doc.begin()
    while block.isValid():
        cur = QtGui.QTextCursor(block)
        fmt = block.blockFormat()
        fmt.setLineHeight(CJK_LINE_HEIGHT, QtGui.QTextBlockFormat.LineHeightTypes.ProportionalHeight.value)
        cur.setBlockFormat(fmt)
        block = block.next()


class _Sheet:
    """Places HTML blocks and charts top to bottom on one page (96 dpi device pixels)."""

    def __init__(self, painter, width: float, height: float, margin: float):
        self.p = painter
        self.left, self.right = margin, width - margin
        self.top, self.bottom = margin, height - margin
        self.y = margin

    @property
    def width(self) -> float:
        return self.right - self.left

    def doc(self, html_text: str, width: float, pt: float, tight: bool = True):
        d = QtGui.QTextDocument()
        d.setDocumentMargin(0)
        d.setDefaultFont(_font(pt))
        d.setDefaultStyleSheet(f"p {{ margin: 0 0 3px 0; color:{INK} }} th {{ font-weight:600 }} "
                               f"td, th {{ border-bottom: 1px solid #dddddd }} li {{ margin-bottom:1px }}")
        d.setHtml(html_text)
        if tight and is_chinese():
            _tighten_lines(d)
        d.setTextWidth(width)
        return d

    def draw_doc(self, d, x: float, y: float, max_h: float | None = None) -> float:
        self.p.save()
        self.p.translate(x, y)
        clip = QtCore.QRectF(0, 0, d.textWidth(), max_h if max_h is not None else d.size().height())
        d.drawContents(self.p, clip)
        self.p.restore()
        return d.size().height()

    def block(self, html_text: str, pt: float = 7.5, gap: float = 8.0) -> float:
        h = self.draw_doc(self.doc(html_text, self.width, pt), self.left, self.y)
        self.y += h + gap
        return h

    def rule(self, colour: str = ACCENT, width: float = 1.5, gap: float = 8.0) -> None:
        self.p.save()
        self.p.setPen(QtGui.QPen(QtGui.QColor(colour), width))
        self.p.drawLine(QtCore.QPointF(self.left, self.y), QtCore.QPointF(self.right, self.y))
        self.p.restore()
        self.y += gap


def _header(sheet: _Sheet, c) -> None:
    left = (f"<p style='color:{ACCENT}; font-size:8pt; font-weight:600; letter-spacing:1px'>"
            f"{_e(c.title.upper())}</p>"
            f"<p style='font-size:16pt; font-weight:700; color:{INK}'>{_e(c.scenario)}</p>"
            + (f"<p style='color:{MUTED}'>{_e(c.description)}</p>" if c.description else ""))
    right = (f"<p align='right' style='color:{MUTED}'>{_e(c.date)}<br>"
             f"Fabric What-If {_e(c.version)}<br>"
             + _e(translate("Proposal", "Profile set: {name}")).format(name=f"<b>{_e(c.profile_label)}</b>")
             + "</p>")
    rw = sheet.width * 0.30
    d_left = sheet.doc(left, sheet.width - rw - 12, 8, tight=False)  # the title keeps its air
    d_right = sheet.doc(right, rw, 7.5, tight=False)
    h = max(sheet.draw_doc(d_left, sheet.left, sheet.y), sheet.draw_doc(d_right, sheet.right - rw, sheet.y))
    sheet.y += h + 6
    sheet.rule()


def _two_columns(sheet: _Sheet, left_html: str, right_html: str, pt: float = 7.5, split: float = 0.52) -> None:
    gap = 16
    lw = (sheet.width - gap) * split
    rw = sheet.width - gap - lw
    dl = sheet.doc(left_html, lw, pt)
    dr = sheet.doc(right_html, rw - 16, pt)
    h = max(dl.size().height(), dr.size().height() + 12)
    # the recommendation sits in a tinted box so it is the first thing the eye finds
    box = QtCore.QRectF(sheet.left + lw + gap, sheet.y - 4, rw, h + 4)
    sheet.p.save()
    sheet.p.setPen(QtGui.QPen(QtGui.QColor(ACCENT), 1.0))
    sheet.p.setBrush(QtGui.QColor("#eef5fb"))
    sheet.p.drawRoundedRect(box, 4, 4)
    sheet.p.restore()
    sheet.draw_doc(dl, sheet.left, sheet.y)
    sheet.draw_doc(dr, box.left() + 8, sheet.y + 4)
    sheet.y += h + 12


def _legend(sheet: _Sheet, snap, c=None, overlays=None) -> None:
    """One legend for the three charts: the fabric colours and line styles as drawn, then A's dashed
    line and the P10–P90 band when the sheet draws them (wrapping to a second line when needed)."""
    overlays = overlays or {}
    entries = [(make_pen(st, 2.0 * float(st.get("width_scale", 1.0))), None, tr_data(st["label"]))
               for st in fabric_styles(snap.sweep)]
    for e in overlay_legend(overlays.get("bands"), overlays.get("pinned"), 2.0):
        if e["kind"] == "pinned":
            entries.append((pinned_pen({"colour": OVERLAY_GREY}, 1.5), None, e["text"]))
        else:  # the band: a shaded swatch, and how it was computed (the same file every time)
            b = (c.bands if c is not None else None) or {}
            fill = QtGui.QColor(OVERLAY_GREY)
            fill.setAlpha(BAND_ALPHA * 2)
            entries.append((None, fill, e["text"] + translate("Proposal", " ({n} seeded samples, seed {seed})").format(
                n=f"{b.get('samples', 0):,}", seed=b.get("seed", 0))))
    # what the small charts draw without saying so in their plots
    notes = sheet_notes(snap.sweep, CHART_KINDS)
    if notes["idle"]:  # the charts shade the stretches where the plan leaves GPUs idle
        idle_fill = QtGui.QColor(OVERLAY_GREY)
        idle_fill.setAlpha(BAND_ALPHA * 2)
        entries.append((None, idle_fill, translate("Charts", "idle GPUs: batch does not divide")))
    if notes["rings"]:
        entries.append((pg.mkPen(OVERLAY_GREY, width=1.2), "ring", translate("Proposal", "whole-number plan step")))
    if notes["gap"]:
        entries.append((None, "blank", translate("Charts", "blank: no parallel plan fits there")))
    f = _font(7.5)
    fm = QtGui.QFontMetricsF(f)
    x, y = sheet.left, sheet.y + fm.ascent()
    sheet.p.save()
    sheet.p.setFont(f)
    for pen, fill, text in entries:
        w = 27 + fm.horizontalAdvance(text)
        if fill == "blank":  # a note, no sample
            w -= 27
        if x > sheet.left and x + w > sheet.right:  # next line
            x, y = sheet.left, y + fm.height() + 2
        mid = y - fm.ascent() / 3
        if fill == "blank":
            x -= 27
        elif fill == "ring":
            sheet.p.setPen(pen)
            sheet.p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            sheet.p.drawEllipse(QtCore.QPointF(x + 11, mid), 3.5, 3.5)
        elif fill is not None:
            sheet.p.fillRect(QtCore.QRectF(x, mid - 4, 22, 8), fill)
        else:
            sheet.p.setPen(pen)
            sheet.p.drawLine(QtCore.QPointF(x, mid), QtCore.QPointF(x + 22, mid))
        sheet.p.setPen(QtGui.QColor(INK))
        sheet.p.drawText(QtCore.QPointF(x + 27, y), text)
        x += w + 18
    sheet.p.restore()
    sheet.y = y - fm.ascent() + fm.height() + 6


def _charts(sheet: _Sheet, snap, height: float, draw: bool = True, crossings=(), overlays=None) -> None:
    if not draw:  # the measuring pass: only the space
        sheet.y += height + 8
        return

    w = small_chart_width(sheet.width)
    cap_font = _font(7.5, bold=True)
    cap_h = QtGui.QFontMetricsF(cap_font).height() + 2
    for i, kind in enumerate(CHART_KINDS):
        chart = small_chart(snap, kind, (int(w), int(height - cap_h)), overlays)
        draw_chart(sheet, snap, kind, chart, sheet.left + i * (w + CHART_GAP), cap_font, crossings, label_pt=6.0)
    sheet.y += height + 8


def draw_chart(sheet: "_Sheet", snap, kind: str, chart, x: float, cap_font, crossings=(),
               label_pt: float = 6.0) -> None:
    """Draw ``chart`` (an offscreen chart widget of ``kind``) at ``x``, ``sheet.y``: its caption (elided to the chart's
    width) above it, the break-even lines of ``crossings`` on it as the window draws them; then close it."""
    cap_h = QtGui.QFontMetricsF(cap_font).height() + 2
    w = chart.width()
    mine = [cross for cross in crossings if breakeven.METRICS.get(cross.metric) == kind]
    for i, cross in enumerate(mine):  # labels a step lower each, so two near lines' labels do not overlap
        breakeven.add_marker(chart, snap.sweep, cross, snap.x_field, label_pt=label_pt, fit_label=True,
                             label_position=LABEL_TOP - LABEL_STEP * (i % LABEL_ROWS))
    try:
        sheet.p.save()
        sheet.p.setFont(cap_font)
        sheet.p.setPen(QtGui.QColor(INK))
        sheet.p.drawText(QtCore.QRectF(x, sheet.y, w, cap_h), QtCore.Qt.AlignmentFlag.AlignLeft,
                         QtGui.QFontMetricsF(cap_font).elidedText(_caption(chart.series),
                                                                  QtCore.Qt.TextElideMode.ElideRight, w))
        sheet.p.restore()
        render_scene(chart, sheet.p, QtCore.QRectF(x, sheet.y + cap_h, chart.width(), chart.height()))
    finally:
        chart.close()
        chart.deleteLater()


CHART_GAP = 10.0  # between the sheet's charts [px at PDF_DPI]
# break-even labels on a sheet's chart: the first near the top of its line, each next one a step lower (as a share
# of the plot's height), in three rows: a small chart's labels are wide against the plot, so two crossings a few
# nodes apart would print over each other at one height
LABEL_TOP, LABEL_STEP, LABEL_ROWS = 0.88, 0.14, 3


def small_chart_width(sheet_width: float) -> float:
    """The width of each of the sheet's charts, side by side across ``sheet_width`` [px at PDF_DPI]."""
    return (sheet_width - CHART_GAP * (len(CHART_KINDS) - 1)) / len(CHART_KINDS)


def small_chart(snap, kind: str, size, overlays=None):
    """One of the sheet's charts, drawn offscreen at ``size`` (px at PDF_DPI): the export widget in its
    compact form (6.5 pt text, no title or legend in the chart, no notes in the plot)."""
    return build_chart(snap, kind, size=size, line_width=1.5, font_pt=6.5, compact=True, **(overlays or {}))


def _caption(data) -> str:
    """A chart title short enough for a quarter of the page (the legend line explains the styles):
    no parenthesis, the baseline fabric by its short name."""
    title = data.title
    base = data.baseline_label
    if base:
        short = next((s.short for s in data.series if s.fabric == data.baseline), base)
        title = title.replace(base, short)
    return title.split(" (")[0].split("（")[0]


def _footer(sheet: _Sheet, c, page_h: float, margin: float) -> None:
    parts = [translate("Proposal", "Generated by Fabric What-If {version} on {date}").format(
                 version=c.version, date=c.date),
             translate("Proposal", "fabric figures: {name}").format(name=c.profile_label)]
    if c.source:
        parts.append(translate("Proposal", "scenario file {name}").format(name=Path(c.source).name))
    parts.append(translate("Proposal", "Engine estimates from published mechanisms, not measurements of your "
                                       "cluster."))
    text = " · ".join(_e(t) for t in parts)
    d = sheet.doc(f"<p style='color:{MUTED}'>{text}</p>", sheet.width, 6.5)
    y = page_h - margin + 6
    sheet.draw_doc(d, sheet.left, y)


def proposal_pdf(snap, *, paper: str = "a4", source=None, today: dt.date | None = None, pair=None, bands=None,
                 pinned=None, audit: bool = False, baseline: str | None = None) -> bytes:
    """The proposal sheet as PDF bytes (one page, A4 or Letter; ``audit`` adds the claims' page), in the current UI
    language.

    ``pair``: the two fabrics of the break-even block and chart markers (default: InfiniBand
    against the fastest other fabric). ``bands`` (P10–P90 along the snapshot's x-axis) and
    ``pinned`` (the A snapshot of an A/B compare) are drawn on the charts as in the window,
    with their legend entries; ``pinned`` also adds the A/B table under the fabric table; ``baseline``:
    the fabric the TCO chart is measured from."""
    ensure_app()
    if paper not in PAPERS:
        raise ScenarioError("--paper", paper, "a4 or letter")
    c = proposal_content(snap, source=source, today=today, pair=pair, bands=bands, pinned=pinned, audit=audit)
    overlays = dict(bands=bands, pinned=pinned, baseline=baseline)
    buf, pdf = pdf_writer(paper, f"{c.title}: {c.scenario}")
    page = pdf.pageLayout().fullRectPixels(PDF_DPI)
    # Measuring pass on an image of the page (same 96 dpi): the charts take the room the
    # text leaves, so a short claims table or a Letter page gets larger charts, not a gap.
    probe = QtGui.QImage(page.width(), page.height(), QtGui.QImage.Format.Format_RGB32)
    probe.setDotsPerMeterX(int(PDF_DPI / 0.0254))
    probe.setDotsPerMeterY(int(PDF_DPI / 0.0254))
    # The audit (the article's claims) is a page of its own: asking for it never shrinks the sheet's charts or
    # cuts its sources.
    sheet_c = dataclasses.replace(c, claims=[])
    free, free_small = _measure(probe, page, sheet_c, snap, overlays)
    chart_h = MIN_CHART_H + max(0.0, min(free - 4, MAX_CHART_H - MIN_CHART_H))
    if free_small < 0:  # even the smallest sources do not fit (Chinese lines are taller): smaller charts
        chart_h = max(FLOOR_CHART_H, MIN_CHART_H + free_small - 4)
    p = QtGui.QPainter(pdf)
    try:
        _draw_page(p, page, sheet_c, snap, chart_h, overlays=overlays)
        if c.claims:
            pdf.newPage()
            draw_audit_page(p, page, c)
    finally:
        p.end()
    buf.close()
    return bytes(buf.data())


def pdf_writer(paper: str, title: str):
    """An open buffer and a ``QPdfWriter`` into it: ``paper`` (a4 or letter) without margins at PDF_DPI, the
    document's title and creator set."""
    buf = QtCore.QBuffer()
    buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    pdf = QtGui.QPdfWriter(buf)
    pdf.setResolution(PDF_DPI)
    pdf.setPageSize(QtGui.QPageSize(QtGui.QPageSize.PageSizeId.A4 if paper == "a4"
                                    else QtGui.QPageSize.PageSizeId.Letter))
    pdf.setPageMargins(QtCore.QMarginsF(0, 0, 0, 0))
    pdf.setTitle(title)
    pdf.setCreator(f"Fabric What-If {model.__version__}")
    return buf, pdf


def draw_audit_page(p, page, c) -> None:
    """The article's claims beside the engine's figures on a page of their own, with the sheet's footer."""
    p.fillRect(QtCore.QRectF(page), QtGui.QColor("white"))
    sheet = _Sheet(p, page.width(), page.height() - FOOTER_H, PAGE_MARGIN)
    sheet.block(f"<p style='color:{ACCENT}; font-weight:600'>{_e(c.title)} · {_e(c.scenario)}</p>", pt=7.0,
                gap=4)
    sheet.rule(width=1.0, gap=10)
    sheet.block(_claims_html(c), pt=7.0)
    _footer(sheet, c, page.height() - FOOTER_H, PAGE_MARGIN)


def _measure(probe, page, c, snap, overlays) -> tuple[float, float]:
    """The measuring pass of :func:`_draw_page` on an image of the page (no charts drawn)."""
    p = QtGui.QPainter(probe)
    try:
        return _draw_page(p, page, c, snap, MIN_CHART_H, charts=False, overlays=overlays)
    finally:
        p.end()


MIN_CHART_H, MAX_CHART_H = 165.0, 290.0
FLOOR_CHART_H = 130.0  # the charts shrink below MIN_CHART_H only so the sources are not cut
PAGE_MARGIN = 40.0
FOOTER_H = 14.0


def _draw_page(p, page, c, snap, chart_h: float, charts: bool = True, overlays=None) -> tuple[float, float]:
    """Lay the sheet out on ``p``; returns the height left free under the sources at their full size
    and at their smallest (negative: what they lack). ``overlays``: ``bands`` and ``pinned`` for the charts."""
    p.fillRect(QtCore.QRectF(page), QtGui.QColor("white"))
    sheet = _Sheet(p, page.width(), page.height() - FOOTER_H, PAGE_MARGIN)
    _header(sheet, c)
    _two_columns(sheet, _inputs_html(c), _recommendation_html(c))
    _legend(sheet, snap, c, overlays)
    _charts(sheet, snap, height=chart_h, draw=charts, crossings=c.breakeven["crossings"], overlays=overlays)
    sheet.block(_fabric_table_html(c), pt=7.0)
    compare = _compare_html(c)
    if compare:
        sheet.block(compare, pt=6.5)
    claims = _claims_html(c)
    if claims:
        sheet.block(claims, pt=6.5)
    free = _fit_assumptions(sheet, _assumptions_html(c))
    _footer(sheet, c, page.height() - FOOTER_H, PAGE_MARGIN)
    return free


def _fit_assumptions(sheet: _Sheet, html_text: str) -> tuple[float, float]:
    """The sources fill what is left of the page; the font shrinks (to 5 pt) before anything is cut.

    Returns the room left over at the full size and at the smallest (negative: what they lacked)."""
    room = sheet.bottom - sheet.y
    full = None
    for pt in (6.5, 6.25, 6.0, 5.75, 5.5, 5.25, 5.0):
        d = sheet.doc(html_text, sheet.width, pt)
        full = d.size().height() if full is None else full
        if d.size().height() <= room:
            break
    sheet.draw_doc(d, sheet.left, sheet.y, max_h=room)
    sheet.y += min(d.size().height(), room)
    return room - full, room - d.size().height()


def write_proposal(snap, path, *, paper: str = "a4", source=None, today: dt.date | None = None,
                   pair=None, bands=None, pinned=None, audit: bool = False, baseline: str | None = None) -> Path:
    """Write the proposal sheet to ``path`` (.pdf), atomically (``bands``, ``pinned``: see :func:`proposal_pdf`;
    :func:`gui.export.charts.window_overlays` gives both for a window)."""
    if Path(str(path)).suffix.lower() != ".pdf":
        raise ScenarioError(str(path), Path(str(path)).suffix or "no extension", "a .pdf file for the proposal sheet")
    check_writable(path)
    return atomic_write(path, proposal_pdf(snap, paper=paper, source=source, today=today, pair=pair, bands=bands,
                                           pinned=pinned, audit=audit, baseline=baseline))


__all__ = ["PAPERS", "proposal_content", "proposal_pdf", "write_proposal"]
