"""Chart exports: PNG at a chosen width, SVG, PDF and CSV, drawn by the app's own chart widget.

Why not pyqtgraph's exporters: its ``ImageExporter`` draws a PNG wider than the screen
with hair-thin lines and a legend and markers left at screen size, its ``SVGExporter``
fails outright on these charts (``correctCoordinates``: "not enough values to unpack"),
and it has no PDF exporter. So an export here:

1. builds a fresh, offscreen :class:`~gui.charts.sweep.ChartWidget` at a fixed design size
   (:data:`DESIGN_SIZE`, so an export does not depend on the window's size) with export
   pens (:data:`EXPORT_LINE_WIDTH`) and draws the same sweep result the window shows;
2. renders its scene with ``QPainter`` into ``QSvgGenerator`` with items in pyqtgraph's
   export mode (markers drawn as vector paths, not pixmap fragments) over a white
   rectangle, so the SVG has a canvas size and a white background everywhere;
3. flattens the SVG (:func:`flatten_svg`): Qt writes each curve in data coordinates under
   a scaling ``transform`` with ``vector-effect="non-scaling-stroke"``; programs that
   ignore that attribute (office suites, older Inkscape) draw strokes hundreds of pixels
   wide. Flattening applies the transform to the coordinates, so every program draws
   the same picture and line widths scale with the drawing;
4. rasterises that SVG with ``QSvgRenderer`` at the chosen PNG width: lines, text and
   markers all scale together (no thin lines, nothing misplaced);
5. renders the PDF directly with ``QPdfWriter`` at 96 dpi, 1:1 with the design size, so
   text stays text and curves stay vectors.

CSV comes from :mod:`gui.present.chart_export` (the engine's numbers, not the screen's, and no Qt),
with units in the headers; ``fabric-whatif export`` is :mod:`gui.cli.export`. Every file is written atomically through
:func:`model.files.atomic_write`; problems raise :class:`model.ScenarioError`.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtSvg, QtWidgets

import model
from model import ScenarioError
from model.files import atomic_write, check_writable

from gui.charts.bands import BAND_ALPHA, band_pen, draw_bands
from gui.present.series import CHART_KINDS
from gui.charts.sweep import ChartWidget
from gui.charts.chart_readout import short_name
from gui.system.cjk_font import export_family, register
from gui.charts.compare import PinnedLayer, pinned_along, pinned_pen
from gui.i18n import is_chinese, translate
from gui.present.chart_export import (  # noqa: F401 (re-exported: the export API in one place)
    CHART_FORMATS, MAX_PNG_WIDTH, MIN_PNG_WIDTH, _check_overlays, _name_of, _sweep_of, chart_format, csv_text, series_csv)
from gui.present.session import Overlays
from gui.present.sweep import X_FIELDS, compute_snapshot
from gui.present.view import SnapshotView

DESIGN_SIZE = (800, 480)          # logical px of an exported chart (5:3)
EXPORT_LINE_WIDTH = 2.0           # px at the design size (the window draws 1 px while dragging)
EXPORT_FONT_PT = 9.0              # axis text of an exported chart
PDF_DPI = 96                      # 1 design px = 1/96 in, so the page is the design size


def cjk_family() -> str:
    """The CJK family an export names: the bundled subset of Noto Sans CJK SC with a one-to-one cmap
    (see :mod:`gui.system.cjk_font`), so Chinese text copied from a PDF reads as typed, not as look-alike radicals."""
    ensure_app()
    return export_family()


def ensure_app():
    """The running QApplication, or a new one (offscreen when there is no display)."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    register()  # the bundled Chinese font: every export draws and embeds it
    return app


def default_png_width() -> int:
    """Twice the design width times the screen's pixel ratio: at least 2× screen resolution."""
    app = ensure_app()
    screen = app.primaryScreen()
    dpr = screen.devicePixelRatio() if screen is not None else 1.0
    return int(round(2 * DESIGN_SIZE[0] * max(1.0, dpr)))


# --------------------------------------------------------------------------
# the export widget
# --------------------------------------------------------------------------

def build_chart(snapshot, kind: str, *, size=DESIGN_SIZE, line_width: float = EXPORT_LINE_WIDTH, font_pt=None,
                compact: bool = False, view_range=None, bands=None, pinned=None, baseline: str | None = None):
    """An offscreen ChartWidget of ``size`` drawing ``snapshot`` (a controller Snapshot) as ``kind``.

    ``compact`` (the proposal sheet) drops the title and legend, which the sheet draws once
    for all three charts, and sets axis labels in ``font_pt``. ``view_range``
    (``[[x0, x1], [y0, y1]]`` in view coordinates, as ``ViewBox.viewRange()`` gives) keeps
    a zoom the user made in the window; default: the whole sweep. ``bands`` (P10–P90
    behind each curve) and ``pinned`` (A's curves dashed and faint, A's point marked 'A')
    are drawn as the window draws them (:func:`gui.charts.bands.draw_bands`,
    :class:`gui.charts.compare.PinnedLayer`), with a legend entry each. ``baseline``: the fabric the TCO is
    measured from (the window's choice; default: the Cost tab's default).
    """
    ensure_app()
    w = ChartWidget(kind, line_width=line_width)
    w.setAttribute(QtCore.Qt.WidgetAttribute.WA_DontShowOnScreen)
    w.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    w.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    w.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    f = no_ligatures(w.font())  # "InfiniBand", not "Inﬁniband", when text is copied from a PDF or SVG
    if is_chinese():  # one named CJK font (Simplified Chinese forms), embedded in a PDF: reads the same anywhere
        f.setFamilies([f.family(), cjk_family()])
    # A fixed size: an export looks the same whatever the platform's font or presentation mode.
    f.setPointSizeF(font_pt if font_pt is not None else EXPORT_FONT_PT)
    w.setFont(f)
    w.scene().setFont(f)
    for name in ("left", "bottom"):
        ax = w.getPlotItem().getAxis(name)
        ax.setStyle(tickFont=f)  # the axis titles: _text_fonts below
    w.resize(int(size[0]), int(size[1]))
    w.plot_notes = not compact  # the sheet's legend line says what blanks, rings and dots mean
    w.show()
    s = snapshot.scenario
    w.show_view(SnapshotView(snapshot, Overlays(tco_baseline=baseline), scenario_name=s.name,
                             profile_set=s.fabric.profile_set))
    _check_overlays(snapshot.sweep, bands, pinned)
    _draw_overlays(w, snapshot, kind, bands, pinned, line_width, compact)
    if view_range is not None:
        (x0, x1), (y0, y1) = view_range
        w.getPlotItem().vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
    _text_fonts(w, f)
    if compact:
        w.marker.setSymbolSize(6)
        pi = w.getPlotItem()
        pi.titleLabel.setText("")          # its minimum width would keep the plot wider than the box
        pi.titleLabel.setMinimumWidth(0)
        pi.setTitle(None)
        # The sheet draws one legend for all three charts; out of the layout, the legend's
        # minimum width (four long names) no longer makes the plot wider than its box.
        if w.legend.scene() is not None and w.legend.parentItem() is pi:
            pi.layout.removeItem(w.legend)
        w.legend.hide()
        for row in range(pi.layout.rowCount()):
            if pi.layout.itemAt(row, 1) is None:
                pi.layout.setRowFixedHeight(row, 0)
        # room above the plot for half the top tick label, which would otherwise touch the sheet's caption
        left, top, right, bottom = pi.layout.getContentsMargins()
        pi.layout.setContentsMargins(left, max(top, 0.7 * (font_pt or 7) * 96 / 72), right, bottom)
        style = {"font-size": f"{font_pt or 7}pt", "color": "#222222"}
        pi.setLabel("bottom", w.series.x_label, **style)
        # the long labels overflow a short axis
        short = {"utilisation": translate("Export", "MFU (%)"), "duration": translate("Export", "Days")}
        pi.setLabel("left", short.get(kind, w.series.y_label), **style)
        # Chinese money ticks ("¥1,000 万") are wider than "¥100 M"
        pi.getAxis("left").setWidth(int((9 if is_chinese() else 7) * (font_pt or 7)) + 6)
    QtWidgets.QApplication.processEvents()
    return w


def _draw_overlays(w, snapshot, kind: str, bands, pinned, line_width: float, compact: bool) -> None:
    """The window's extras on an export chart: P10–P90 bands and the pinned A (see :func:`build_chart`)."""
    if bands is not None:
        draw_bands(w, bands, kind, snapshot.x_field)
    if pinned is not None:
        layer = PinnedLayer(w)
        layer.draw(kind, _sweep_of(pinned), pinned if hasattr(pinned, "point") else None, width=0.75 * line_width)
        if compact and layer.marker is not None:
            layer.marker.setSymbolSize(8)
            lf = layer.label.textItem.font()
            lf.setPointSizeF(7.0)
            layer.label.setFont(lf)
    if not compact:
        for e in overlay_legend(bands, pinned, line_width):
            w.legend.addItem(e["sample"], html.escape(e["text"]))  # rich text: the pinned name is not


def overlay_legend(bands, pinned, line_width: float = EXPORT_LINE_WIDTH) -> list[dict]:
    """Legend entries for the extras: ``[{kind: "pinned" | "bands", text, sample}]``, ``sample`` a
    PlotDataItem for a chart's legend (a grey dashed line for A, a shaded swatch for the bands).
    The proposal's legend line draws the same texts."""
    out = []
    if pinned is not None:
        name = short_name(_name_of(pinned), 28)  # the legend's columns take the widest entry
        text = translate("Export", "A: {name}").format(name=name) if name else translate("Compare", "A (pinned)")
        out.append(dict(kind="pinned", text=text,
                        sample=pg.PlotDataItem(pen=pinned_pen({"colour": OVERLAY_GREY}, 0.75 * line_width))))
    if bands is not None:
        fill = pg.mkColor(OVERLAY_GREY)
        fill.setAlpha(BAND_ALPHA * 2)
        sample = pg.PlotDataItem(pen=band_pen(OVERLAY_GREY), fillLevel=0.0, fillBrush=pg.mkBrush(fill))
        out.append(dict(kind="bands", text=translate("Export", "P10–P90"), sample=sample))
    return out


OVERLAY_GREY = "#555555"


def _text_fonts(widget, font) -> None:
    """Every text item of the chart (title, legend, axis titles, notes) without ligatures and, in Chinese,
    with ``font``'s CJK family after the Latin one it resolves to: Chinese left to the platform's
    fallback font copies from a PDF as look-alike radicals (see :mod:`gui.system.cjk_font`)."""
    for item in widget.scene().items():
        if isinstance(item, QtWidgets.QGraphicsTextItem):
            tf = no_ligatures(item.font())
            if is_chinese():
                tf.setFamilies([QtGui.QFontInfo(tf).family()] + font.families()[1:])
            item.setFont(tf)


def no_ligatures(font):
    """``font`` without typographic ligatures (fi, fl), so exported text copies and searches as typed."""
    font = QtGui.QFont(font)
    font.setFeature(QtGui.QFont.Tag("liga"), 0)
    return font


def _export_mode(widget, on: bool) -> None:
    opts = {"antialias": True, "background": QtGui.QColor("white"), "resolutionScale": 1.0}
    for item in widget.scene().items():
        if hasattr(item, "setExportMode"):
            item.setExportMode(on, opts)


def render_scene(widget, painter, target=None) -> None:
    """Paint ``widget``'s chart with ``painter`` into ``target`` (a QRectF; default 1:1 at the origin).

    Keep ``target`` the widget's size (only translated): pyqtgraph draws markers and
    labels in device pixels, which a scaling painter would misplace.
    """
    src = QtCore.QRectF(widget.viewport().rect())
    target = target or QtCore.QRectF(0, 0, src.width(), src.height())
    painter.save()
    painter.fillRect(target, QtGui.QColor("white"))
    painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QtGui.QPainter.RenderHint.TextAntialiasing)
    _export_mode(widget, True)
    try:
        widget.scene().render(painter, target, widget.mapToScene(src.toRect()).boundingRect())
    finally:
        _export_mode(widget, False)
        painter.restore()


# --------------------------------------------------------------------------
# SVG: render, then flatten transforms so any program draws it alike
# --------------------------------------------------------------------------

_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_PAIR = re.compile(rf"({_NUM}),({_NUM})")
_GROUP = re.compile(r'(<g\b[^>]*?transform=")matrix\(([^)]*)\)("[^>]*>)(.*?)(</g>)', re.S)
_ELEM = re.compile(r"<(\w+)\b([^>]*?)/>|<(\w+)\b[^>]*>.*?</\3>", re.S)
_FLAT = ("path", "polyline", "polygon", "line", "rect")


def _fmt(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".") if abs(v) < 1e7 else f"{v:.6g}"


def _attr(attrs: str, name: str) -> float | None:
    m = re.search(rf'\b{name}="({_NUM})"', attrs)
    return float(m.group(1)) if m else None


def _flatten_group(m: re.Match) -> str:
    a, b, c, d, e, f = (float(v) for v in m.group(2).split(","))
    body = m.group(4)
    elems = list(_ELEM.finditer(body))
    if not elems or any(el.group(1) not in _FLAT or "non-scaling-stroke" not in el.group(2) for el in elems):
        return m.group(0)  # text, images or scaling strokes: leave exactly as Qt wrote them

    def pt(x, y):
        return _fmt(a * x + c * y + e) + "," + _fmt(b * x + d * y + f)

    def pairs(s: str) -> str:
        return _PAIR.sub(lambda p: pt(float(p.group(1)), float(p.group(2))), s)

    out = []
    for el in elems:
        tag, attrs = el.group(1), el.group(2).replace(' vector-effect="non-scaling-stroke"', "")
        if tag == "path":
            attrs = re.sub(r'\bd="([^"]*)"', lambda q: f'd="{pairs(q.group(1))}"', attrs)
        elif tag in ("polyline", "polygon"):
            attrs = re.sub(r'\bpoints="([^"]*)"', lambda q: f'points="{pairs(q.group(1))}"', attrs)
        elif tag == "line":
            x1, y1, x2, y2 = (_attr(attrs, k) or 0.0 for k in ("x1", "y1", "x2", "y2"))
            attrs = re.sub(r'\b[xy][12]="[^"]*"', "", attrs)
            (p1x, p1y), (p2x, p2y) = (pt(x1, y1).split(","), pt(x2, y2).split(","))
            attrs += f' x1="{p1x}" y1="{p1y}" x2="{p2x}" y2="{p2y}"'
        else:  # rect -> polygon (a transformed rectangle need not stay axis-aligned)
            x, y, w, h = (_attr(attrs, k) or 0.0 for k in ("x", "y", "width", "height"))
            attrs = re.sub(r'\b(x|y|width|height|rx|ry)="[^"]*"', "", attrs)
            attrs += f' points="{pt(x, y)} {pt(x + w, y)} {pt(x + w, y + h)} {pt(x, y + h)}"'
            tag = "polygon"
        out.append(f"<{tag}{attrs}/>")
    return m.group(1) + "matrix(1,0,0,1,0,0)" + m.group(3) + "\n" + "\n".join(out) + "\n" + m.group(5)


def flatten_svg(svg: str) -> str:
    """Bake each cosmetic-stroke group's transform into its coordinates (see the module notes).

    Also names fonts every machine can fall back to after Qt's: the bundled subset's family is private to the
    app, so public Chinese families follow it (:data:`PUBLIC_CJK_FAMILIES`), then the generic ``sans-serif``, and
    Chinese text still shows where the subset is not installed.
    """
    svg = _GROUP.sub(_flatten_group, svg)
    return re.sub(r'font-family="([^"]*)"', lambda m: f'font-family="{svg_font_families(m.group(1))}"', svg)


PUBLIC_CJK_FAMILIES = ("Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei")
"""Chinese fonts a reader's machine has (Linux, Adobe, macOS, Windows), after the app's private subset in an SVG."""


def svg_font_families(families: str) -> str:
    """An SVG ``font-family`` list ending in public fonts: Qt's families, then :data:`PUBLIC_CJK_FAMILIES` where
    the private CJK subset is named, then ``sans-serif``."""
    names = [n.strip().strip("'\"") for n in families.split(",") if n.strip()]
    names = [n for n in names if n != "sans-serif"]
    if export_family() in names:
        names += [n for n in PUBLIC_CJK_FAMILIES if n not in names]
    return ", ".join(f"'{n}'" if " " in n else n for n in names + ["sans-serif"])


def chart_svg(widget, title: str = "") -> bytes:
    """The chart as a self-contained SVG: width/height, viewBox, white background, flattened strokes."""
    w, h = widget.width(), widget.height()
    buf = QtCore.QBuffer()
    buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    gen = QtSvg.QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(QtCore.QSize(w, h))
    gen.setViewBox(QtCore.QRect(0, 0, w, h))
    gen.setResolution(PDF_DPI)
    gen.setTitle(title or "Fabric What-If chart")
    gen.setDescription(f"Fabric What-If {model.__version__}")
    p = QtGui.QPainter(gen)
    render_scene(widget, p)
    p.end()
    buf.close()
    svg = bytes(buf.data()).decode("utf-8")
    # Pixel units (the design size), not millimetres at Qt's guessed resolution.
    svg = re.sub(r'<svg width="[^"]*" height="[^"]*"', f'<svg width="{w}px" height="{h}px"', svg, count=1)
    return flatten_svg(svg).encode("utf-8")


def svg_to_png(svg: bytes, width: int) -> bytes:
    """Rasterise an SVG at ``width`` px (height by its aspect ratio) on white, as PNG bytes."""
    r = QtSvg.QSvgRenderer(QtCore.QByteArray(svg))
    if not r.isValid():
        raise ScenarioError("svg", "invalid", "an SVG Qt can render")
    vb = r.viewBoxF()
    height = max(1, int(round(width * vb.height() / vb.width())))
    img = QtGui.QImage(int(width), height, QtGui.QImage.Format.Format_ARGB32)
    img.fill(QtGui.QColor("white"))
    img.setDotsPerMeterX(int(round(width / (vb.width() / PDF_DPI) / 0.0254)))
    img.setDotsPerMeterY(img.dotsPerMeterX())
    p = QtGui.QPainter(img)
    p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QtGui.QPainter.RenderHint.TextAntialiasing)
    p.setRenderHint(QtGui.QPainter.RenderHint.SmoothPixmapTransform)
    r.render(p, QtCore.QRectF(0, 0, width, height))
    p.end()
    return _image_bytes(img)


def _image_bytes(img) -> bytes:
    buf = QtCore.QBuffer()
    buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not img.save(buf, "PNG"):
        raise ScenarioError("png", "not written", "an image Qt can encode")
    return bytes(buf.data())


def chart_pdf(widget, title: str = "") -> bytes:
    """The chart as a one-page vector PDF the size of the design (text stays selectable)."""
    w, h = widget.width(), widget.height()
    buf = QtCore.QBuffer()
    buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    pdf = QtGui.QPdfWriter(buf)
    pdf.setResolution(PDF_DPI)
    pdf.setTitle(title or "Fabric What-If chart")
    pdf.setCreator(f"Fabric What-If {model.__version__}")
    size = QtCore.QSizeF(w * 72.0 / PDF_DPI, h * 72.0 / PDF_DPI)
    pdf.setPageSize(QtGui.QPageSize(size, QtGui.QPageSize.Unit.Point, "chart",
                                    QtGui.QPageSize.SizeMatchPolicy.ExactMatch))
    pdf.setPageMargins(QtCore.QMarginsF(0, 0, 0, 0))
    p = QtGui.QPainter(pdf)
    render_scene(widget, p)
    p.end()
    buf.close()
    return bytes(buf.data())


# --------------------------------------------------------------------------
# the one call the window and the command line make
# --------------------------------------------------------------------------

def export_chart(snapshot, kind: str, path, *, width: int | None = None, view_range=None, bands=None,
                 pinned=None, baseline: str | None = None) -> Path:
    """Write chart ``kind`` of ``snapshot`` to ``path``; the format comes from the extension.

    ``width`` is the PNG width in pixels (default :func:`default_png_width`);
    ``view_range`` keeps the window's zoom (see :func:`build_chart`; the CSV always holds
    the whole sweep). ``bands`` (P10–P90, :func:`model.analysis.monte_carlo` along the
    snapshot's x-axis) and ``pinned`` (the A snapshot of an A/B compare along the same
    x-axis) add what the window shows: drawn on the chart, columns in the CSV (see
    :func:`series_csv`); :func:`window_overlays` gives both for a window. Raises
    :class:`ScenarioError` for a bad path, format or width; nothing is left behind.
    """
    if kind not in CHART_KINDS:
        raise ScenarioError("chart", kind, "one of " + ", ".join(CHART_KINDS))
    fmt = chart_format(path)
    check_writable(path)
    if width is not None and (isinstance(width, bool) or not isinstance(width, int)
                              or not MIN_PNG_WIDTH <= width <= MAX_PNG_WIDTH):
        raise ScenarioError("width", width, f"a whole number of pixels from {MIN_PNG_WIDTH} to {MAX_PNG_WIDTH}")
    if fmt == ".csv":
        return atomic_write(path, series_csv(snapshot.sweep, kind, bands=bands, pinned=pinned, baseline=baseline))
    widget = build_chart(snapshot, kind, view_range=view_range, bands=bands, pinned=pinned, baseline=baseline)
    try:
        title = f"{widget.series.title} — {snapshot.scenario.name}"
        if fmt == ".svg":
            data = chart_svg(widget, title)
        elif fmt == ".pdf":
            data = chart_pdf(widget, title)
        else:
            data = svg_to_png(chart_svg(widget, title), width or default_png_width())
    finally:
        widget.close()
        widget.deleteLater()
    return atomic_write(path, data)


def window_overlays(window, snap) -> dict:
    """What ``window`` draws over ``snap``'s curves, as keyword arguments for :func:`export_chart` and
    :func:`gui.export.proposal.write_proposal`: ``bands`` (when View ▸ Uncertainty bands shows them for
    this snapshot), ``pinned`` (A along the current x-axis, when a scenario is pinned) and ``baseline``
    (the fabric the TCO is measured from)."""
    if snap is None:
        return {}
    feats = window.features
    return dict(bands=feats.bands.bands_for(snap), pinned=pinned_along(feats, snap),
                baseline=window.session.state.tco_baseline)


def snapshot_for(scenario, x_field: str = "cluster.nodes"):
    """Compute what the window would show for ``scenario`` (for the command line and the tests)."""
    if x_field not in X_FIELDS:
        raise ScenarioError("--x", x_field, "one of " + ", ".join(X_FIELDS))
    return compute_snapshot(scenario, x_field)


__all__ = ["CHART_FORMATS", "DESIGN_SIZE", "EXPORT_LINE_WIDTH", "build_chart",
           "chart_format", "chart_pdf", "chart_svg", "cjk_family", "default_png_width", "ensure_app",
           "export_chart", "flatten_svg", "overlay_legend", "render_scene", "series_csv", "snapshot_for",
           "svg_to_png", "window_overlays"]
