"""No text is cut and no two texts overlap: every preset × both languages × a 1366 × 768 laptop and a
1920 × 1080 projector × the normal window and the stage view. The widgets with text (the toolbar's scenario
line and radio buttons, labels, buttons, the recommendation and the point's title, the article banner, the
point table's column names) and
the texts inside every chart on screen (title, axis titles, tick labels, legend entries, notes and the
caption under the plot): none cut, none over another, none over the plot's curves.

One window is reused and the presets are loaded in turn (a preset load and a relayout per layout); case 3 once
more with values typed beyond the sliders (their badges) and the break-even markers that brings."""

from __future__ import annotations

import itertools

from PySide6 import QtCore, QtWidgets

from gui import i18n
from gui.charts.sweep import ChartWidget
from gui.panels.richtext import RichText
from guihelpers import axis_text_specs, settle
from model import presets

PRESET_DIR = presets.PRESETS_DIR
PRESETS = tuple(sorted(p.stem for p in PRESET_DIR.glob("*.toml")))
SIZES = (QtCore.QSize(1366, 768), QtCore.QSize(1920, 1080))
MIN_PLOT_PX = 60  # a plot's least height in the window or on the stage


def _rect(w, win) -> QtCore.QRect:
    return QtCore.QRect(w.mapTo(win, QtCore.QPoint(0, 0)), w.size())


def _text_of(w) -> str:
    return w.toPlainText() if isinstance(w, RichText) else w.text()


def _text_widgets(win):
    """The visible labels, buttons and rich-text blocks with text, on the window (not in its dialogs)."""
    out = []
    for w in (win.findChildren(QtWidgets.QLabel) + win.findChildren(QtWidgets.QAbstractButton)
              + win.findChildren(RichText)):
        if w.isVisible() and w.window() is win and _text_of(w):
            out.append(w)
    return out


def _clipped(w) -> bool:
    if isinstance(w, RichText):
        doc = w.document()
        doc.setTextWidth(max(w.viewport().width(), 10))
        return doc.size().height() > w.viewport().height() + 1
    if isinstance(w, QtWidgets.QLabel):
        if w.wordWrap():
            return w.heightForWidth(w.width()) > w.height() + 1
        return w.sizeHint().width() > w.width() + 1 and w.minimumSizeHint().width() > w.width() + 1
    if isinstance(w, QtWidgets.QAbstractButton) and w.text():  # a button or check box: its whole text, its height
        hint = w.sizeHint()
        return hint.width() > w.width() + 1 or (w.minimumSizeHint().height() > w.height() + 1)
    return w.sizeHint().width() > w.width() + 1


def _visible_rect(w, win) -> QtCore.QRect:
    """The part of ``w`` on screen: cut by every scrolling viewport above it."""
    rect = _rect(w, win)
    p = w.parentWidget()
    while p is not None and p is not win:
        if isinstance(p, QtWidgets.QAbstractScrollArea):
            rect = rect.intersected(_rect(p.viewport(), win))
        p = p.parentWidget()
    return rect


def _ink(text_item) -> QtCore.QRectF:
    """A ``QGraphicsTextItem``'s text in scene coordinates, without its document's empty margin."""
    m = text_item.document().documentMargin()
    return text_item.mapRectToScene(text_item.boundingRect().adjusted(m, m, -m, -m))


def _chart_texts(ch) -> tuple[list, QtCore.QRectF]:
    """``(what, rect in the chart's viewport)`` of every text the chart draws, and its plot area's rect."""
    pi = ch.getPlotItem()
    to_view = (lambda r: QtCore.QRectF(ch.mapFromScene(r).boundingRect()))
    out = []
    if pi.titleLabel.isVisible() and pi.titleLabel.text:
        out.append(("title", to_view(_ink(pi.titleLabel.item))))
    for name in ("left", "bottom"):
        ax = pi.getAxis(name)
        if ax.isVisible() and ax.label.isVisible() and ax.labelText:
            out.append((f"{name} axis title", to_view(_ink(ax.label))))
        if ax.isVisible():
            out += [(f"{name} tick {text}", to_view(ax.mapRectToScene(QtCore.QRectF(rect))))
                    for rect, text in axis_text_specs(ax)]
    if ch.legend.isVisible():
        for sample, label in ch.legend.items:
            if label.isVisible():
                out.append((f"legend {label.text}", to_view(_ink(label.item))))
    for item in ch.text_items():
        out.append((f"note {item.toPlainText()[:30]}", to_view(_ink(item))))
    # any other text on the chart (a marker line's label, an overlay's note), the hover read-out aside
    known = {pi.titleLabel.item, ch.readout.textItem, *(pi.getAxis(a).label for a in ("left", "bottom")),
             *(label.item for _, label in ch.legend.items), *ch.text_items()}
    for item in ch.scene().items():
        if (isinstance(item, QtWidgets.QGraphicsTextItem) and item not in known and item.isVisible()
                and item.toPlainText().strip()):
            out.append((f"text {item.toPlainText()[:30]}", to_view(_ink(item))))
    return out, to_view(pi.vb.sceneBoundingRect())


def _chart_problems(ch) -> list[str]:
    texts, plot = _chart_texts(ch)
    out = []
    view = QtCore.QRectF(ch.viewport().rect()).adjusted(-1, -1, 1, 1)
    if plot.height() < MIN_PLOT_PX:  # the texts around a plot never squeeze the plot away
        out.append(f"{ch.kind}: the plot is only {plot.height():.0f} px tall")
    for what, r in texts:
        if not view.contains(r):
            out.append(f"{ch.kind}: cut: {what}")
        inner = r.intersected(plot)
        if not what.startswith(("left tick", "bottom tick")) and inner.width() > 2 and inner.height() > 2:
            out.append(f"{ch.kind}: over the curves: {what}")
    for (a, ra), (b, rb) in itertools.combinations(texts, 2):
        if a.split(" tick ")[0] == b.split(" tick ")[0] and " tick " in a and " tick " in b:
            continue  # one axis's own tick labels: pyqtgraph spaces them
        inter = ra.intersected(rb)
        if inter.width() > 2 and inter.height() > 2:
            out.append(f"{ch.kind}: overlap: {a[:40]!r} / {b[:40]!r}")
    return out


def _problems(win, size: QtCore.QSize) -> list[str]:
    out = [] if win.size() == size else [f"the window is {win.size()} on a {size} screen: it needs more"]
    widgets = _text_widgets(win)
    if win.minimumSizeHint().width() > win.width() or win.minimumSizeHint().height() > win.height():
        out.append(f"the window needs {win.minimumSizeHint()} on a {win.size()} screen")
    screen = win.rect()
    for w in widgets:
        full, seen = _rect(w, win), _visible_rect(w, win)
        # cut: too narrow for its text, off the window, or cut sideways by a panel (a panel scrolls only up and down)
        if seen.isEmpty():  # scrolled out of its panel's view
            continue
        if _clipped(w) or not screen.contains(seen) or seen.width() < full.width() - 1:
            out.append(f"cut: {w.objectName() or type(w).__name__} {_text_of(w)[:40]!r}")
    rects = [(w, _visible_rect(w, win)) for w in widgets]
    for (a, ra), (b, rb) in itertools.combinations(rects, 2):
        if a.isAncestorOf(b) or b.isAncestorOf(a) or ra.isEmpty() or rb.isEmpty():
            continue
        if ra.intersected(rb).width() > 2 and ra.intersected(rb).height() > 2:
            out.append(f"overlap: {_text_of(a)[:30]!r} / {_text_of(b)[:30]!r}")
    table = win.table
    if table.isVisible():
        shown = sum(table.columnWidth(i) for i in range(table.columnCount()) if not table.isColumnHidden(i))
        room = _visible_rect(table.viewport(), win).width()
        if shown > room + 1:
            out.append(f"table: {shown} px of columns in {room} px")
        header = table.horizontalHeader()
        for i in range(table.columnCount()):  # a column shown is as wide as its name
            if not table.isColumnHidden(i) and header.sectionSizeFromContents(i).width() > table.columnWidth(i) + 1:
                out.append(f"cut: the table's column name {table.horizontalHeaderItem(i).text()!r}")
    for ch in win.findChildren(ChartWidget):
        if ch.isVisible() and ch.window() is win and not _visible_rect(ch, win).isEmpty():
            out += _chart_problems(ch)
    return out


def _edited_beyond_the_sliders(win) -> None:
    """Case 3 with InfiniBand's latency and loss typed beyond their sliders (the badges show) and the
    break-even markers it brings on the TCO chart."""
    win.controller.set_fabric_value("infiniband", "latency_us", 5_000.0)
    win.controller.set_fabric_value("infiniband", "loss_rate", 0.05)


LAYOUTS = [(name, None) for name in PRESETS] + [("case3_centre_128xH100_1T", _edited_beyond_the_sliders)]


def test_no_text_is_cut_or_covers_another(window, qtbot):
    win = window
    problems = []
    try:
        for lang in ("en", "zh_CN"):
            i18n.switch_language(win, lang)
            for name, edit in LAYOUTS:
                assert win.load_preset(PRESET_DIR / f"{name}.toml")  # once: its four layouts share it
                if edit is not None:
                    edit(win)
                settle(win)
                # the window at both sizes, then the stage at both (a switch of view costs most: two per preset)
                for stage in (False, True):
                    win.presentation_action.setChecked(stage)
                    for size in SIZES if not stage else SIZES[::-1]:
                        win.setUpdatesEnabled(False)  # the new layout (the resize, the stage's page) unpainted ...
                        win.showNormal()
                        win.resize(size)
                        QtWidgets.QApplication.processEvents()
                        win.features.settle_now()
                        win.setUpdatesEnabled(True)  # ... then painted once: a plot's view takes its range as it paints
                        win.repaint()
                        QtWidgets.QApplication.processEvents()
                        problems += [f"{lang} {name[:12]}{' edited' if edit else ''} {size.width()} "
                                     f"{'stage' if stage else 'window'}: {p}" for p in _problems(win, size)]
                win.presentation_action.setChecked(False)
    finally:
        win.setUpdatesEnabled(True)
        win.presentation_action.setChecked(False)
        i18n.switch_language(win, "en")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(dict.fromkeys(problems))


def _line_of(doc, position: int) -> int:
    block = doc.findBlock(position)
    return block.layout().lineForTextPosition(position - block.position()).lineNumber()


def test_the_banner_s_link_never_breaks_inside_its_words(window):
    """The article banner's "打开核对表" link at every width the panel takes: on one line, never "打开核 / 对表"."""
    from PySide6 import QtGui

    from gui.i18n import translate
    from gui.present.article import OPEN_AUDIT

    win = window
    i18n.switch_language(win, "zh_CN")
    try:
        assert win.load_preset(PRESET_DIR / "case3_centre_128xH100_1T.toml")
        settle(win)
        banner = win.point_panel.article_banner
        assert banner.isVisible()
        link = translate("ArticleBanner", OPEN_AUDIT)
        doc = QtGui.QTextDocument()
        doc.setDefaultFont(banner.font())
        doc.setHtml(banner.text())
        plain = doc.toPlainText()
        start = plain.index(link[0], len(plain) - 2 * len(link) * 2)  # the link ends the banner
        broken = []
        for width in range(200, 700, 7):
            doc.setTextWidth(width)
            doc.size()  # laid out now
            if _line_of(doc, start) != _line_of(doc, len(plain) - 1):
                broken.append(width)
        assert not broken, broken
    finally:
        i18n.switch_language(win, "en")
