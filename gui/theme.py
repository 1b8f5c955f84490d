"""The look: the text scale of presentation mode and the themes.

- **Text scale**: presentation mode (:mod:`gui.features.presentation_mode`, F11) scales the
  application font and every text a view sizes itself (:func:`scaled_pt`).
- **Themes**: light (the default: projectors wash out dark backgrounds) and dark (for
  screens), View ▸ Dark theme (**Ctrl+Shift+D**). The dark theme uses Qt's Fusion
  style with a dark palette and recolours every chart.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

LIGHT = dict(bg="#ffffff", fg="#222222", muted="#666666", axis="#444444", legend_bg=(255, 255, 255, 215),
             legend_pen="#bbbbbb", readout_bg=(255, 255, 255, 225))
DARK = dict(bg="#1e1f22", fg="#e8e8e8", muted="#a8a8a8", axis="#b8b8b8", legend_bg=(40, 42, 46, 225),
            legend_pen="#555555", readout_bg=(40, 42, 46, 235))
THEME_KEY = "Ctrl+Shift+D"
# Presentation mode's text scale: 9 pt body text becomes ~12 pt, the size presentation guides ask for at
# projector distance (a guess tuned on screenshots at 1366 × 768 and 1920 × 1080, not a published figure).
PRESENTATION_SCALE = 1.35
MIN_BASE_POINT_SIZE = 9.0

# The application's font, style and palette before any view mode changed them, captured once per
# QApplication. A window rebuilt by a language switch must scale and restore from these, never from what
# the previous window left on the application (that compounded the scale on every switch and made the
# dark palette the "light" one).
_app_base: dict = {}
_scale = {"value": 1.0}


def app_base() -> dict:
    """``{"font", "style", "palette"}`` of the application as it started (captured on first use)."""
    app = QtWidgets.QApplication.instance()
    if _app_base.get("app") is not app:
        _app_base.clear()
        _app_base.update(app=app, font=QtGui.QFont(app.font()), style=app.style().name(),
                         palette=QtGui.QPalette(app.palette()))
        _scale["value"] = 1.0
    return _app_base


def text_scale() -> float:
    """1.0 normally, :data:`PRESENTATION_SCALE` in presentation mode: every hand-sized text multiplies by it."""
    app_base()
    return _scale["value"]


def scaled_pt(size_pt: float) -> float:
    """A point size for text a view sizes itself (titles, legends, read-outs), scaled for presentation."""
    return round(size_pt * text_scale(), 2)


STAGE_REFERENCE_HEIGHT_PX = 768  # the laptop screen PRESENTATION_SCALE was tuned on


def stage_scale(screen_height_px: float) -> float:
    """Presentation mode's text scale on a screen ``screen_height_px`` tall: :data:`PRESENTATION_SCALE` on a
    768-pixel laptop, growing with the screen's height above it (a 1080-pixel projector gets text as large
    a share of the picture as the laptop has: 1.35 × 1080 / 768 ≈ 1.9)."""
    return PRESENTATION_SCALE * max(1.0, float(screen_height_px or 0) / STAGE_REFERENCE_HEIGHT_PX)


def set_text_scale(on: bool, scale: float | None = None) -> QtGui.QFont:
    """Set the application font for presentation mode (``on``, times ``scale``: default
    :data:`PRESENTATION_SCALE`) or back to the start-up font.

    Idempotent: computed from the start-up font, so switching it on twice (or in a rebuilt
    window) gives the same size. Returns the font set."""
    base = app_base()["font"]
    font = QtGui.QFont(base)
    factor = (scale or PRESENTATION_SCALE) if on else 1.0
    if on:
        size = base.pointSizeF() if base.pointSizeF() > 0 else MIN_BASE_POINT_SIZE
        font.setPointSizeF(max(size, MIN_BASE_POINT_SIZE) * factor)
    _scale["value"] = factor
    QtWidgets.QApplication.instance().setFont(font)
    return font


def theme(dark: bool) -> dict:
    return DARK if dark else LIGHT


def palette_is_dark() -> bool:
    """True when the application's palette is dark (the dark theme)."""
    return QtWidgets.QApplication.palette().window().color().lightness() < 128


def current_theme() -> dict:
    """The chart colours that go with the application's palette."""
    return theme(palette_is_dark())


def muted() -> str:
    """Secondary text colour readable on the current palette (grey on light, light grey on dark)."""
    return DARK["muted"] if palette_is_dark() else "#555555"


def dark_palette() -> QtGui.QPalette:
    p = QtGui.QPalette()
    R = QtGui.QPalette.ColorRole
    base, window, text = QtGui.QColor("#232428"), QtGui.QColor("#2b2d31"), QtGui.QColor("#e8e8e8")
    for role, col in ((R.Window, window), (R.WindowText, text), (R.Base, base), (R.AlternateBase, QtGui.QColor(
            "#303236")), (R.ToolTipBase, QtGui.QColor("#3a3c41")), (R.ToolTipText, text), (R.Text, text),
                      (R.Button, window), (R.ButtonText, text), (R.BrightText, QtGui.QColor("#ff6b6b")),
                      (R.Highlight, QtGui.QColor("#3d7bd9")), (R.HighlightedText, QtGui.QColor("#ffffff")),
                      (R.Link, QtGui.QColor("#7ab7ff")), (R.PlaceholderText, QtGui.QColor("#8a8a8a"))):
        p.setColor(role, col)
    dis = QtGui.QPalette.ColorGroup.Disabled
    for role in (R.WindowText, R.Text, R.ButtonText):
        p.setColor(dis, role, QtGui.QColor("#7a7a7a"))
    return p


def style_plot(widget: pg.PlotWidget, dark: bool) -> None:
    """Background, axes and legend of any PlotWidget in the theme's colours."""
    th = theme(dark)
    widget.setBackground(th["bg"])
    pi = widget.getPlotItem()
    for name in ("left", "bottom"):
        ax = pi.getAxis(name)
        ax.setPen(pg.mkPen(th["axis"]))
        ax.setTextPen(pg.mkPen(th["fg"]))
    pi.titleLabel.setAttr("color", th["fg"])
    style_legend(pi.legend, dark)
    for item in pi.items:
        if isinstance(item, pg.TextItem):
            item.setColor(th["fg"])


def style_legend(legend, dark: bool) -> None:
    if legend is None:
        return
    th = theme(dark)
    legend.setBrush(pg.mkBrush(*th["legend_bg"]))
    legend.setPen(pg.mkPen(th["legend_pen"]))
    legend.setLabelTextColor(th["fg"])
    for _, label in legend.items:  # the colour applies from the next setText
        label.setText(label.text, color=th["fg"])


def style_chart(chart, dark: bool) -> None:
    """A :class:`~gui.charts.sweep.ChartWidget`: the plot, its title colours, read-out and marker."""
    th = theme(dark)
    style_plot(chart, dark)
    if getattr(chart, "legend", None) is not chart.getPlotItem().legend:
        style_legend(chart.legend, dark)  # a legend of its own, in the layout above the plot
    chart.title_colour = th["fg"]
    chart.caption_colour = th["muted"]
    chart._texts = None  # the title is cached by its text: draw it again in the new colours
    grid = getattr(chart, "grid", None)
    if grid is not None:
        background = QtGui.QColor(th["bg"])
        grid.set_colours((255, 255, 255) if dark else (0, 0, 0),
                         (background.red(), background.green(), background.blue()))
    idle_band = getattr(chart, "idle_band", None)
    if idle_band is not None:
        background = QtGui.QColor(th["bg"])
        idle_band.set_background((background.red(), background.green(), background.blue()))
    chart.readout.fill = pg.mkBrush(*th["readout_bg"])
    chart.readout.setColor(th["fg"])
    chart.note.setColor(th["muted"])
    chart.marker.setSymbolPen(pg.mkPen(th["fg"]))
    chart.vline.setPen(pg.mkPen(th["muted"], width=1, style=QtCore.Qt.PenStyle.DotLine))


class Theme(QtCore.QObject):
    """The light or dark theme of one window (the application's style and palette, the charts)."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.dark = False
        base = app_base()  # the start-up look, not what an earlier window left
        self._base_style = base["style"]
        self._base_palette = base["palette"]

    def set_dark(self, dark: bool) -> None:
        app = QtWidgets.QApplication.instance()
        self.dark = bool(dark)
        if dark:
            app.setStyle("Fusion")
            app.setPalette(dark_palette())
        else:
            app.setStyle(self._base_style)
            app.setPalette(self._base_palette)
        for ch in self.window.charts.values():
            style_chart(ch, dark)
        for w in self.window.findChildren(QtWidgets.QWidget):
            if w.styleSheet():  # a widget with its own style sheet keeps the palette it was polished with
                w.setStyleSheet(w.styleSheet())
        for label in (self.window.fabric_source, self.window.timing_label):  # their style sheets name a grey
            sheet = label.styleSheet()
            for grey in ("#555555", "#555", "#666666", "#666", DARK["muted"]):
                sheet = sheet.replace(f"color:{grey}", f"color:{muted()}")
            label.setStyleSheet(sheet)
        self.window.refresh()  # the titles and labels in the theme's colours

    def style_new_plot(self, widget) -> None:
        style_plot(widget, self.dark)


__all__ = ["PRESENTATION_SCALE", "Theme", "app_base", "dark_palette", "scaled_pt", "set_text_scale", "style_chart",
           "style_plot", "text_scale", "theme"]
