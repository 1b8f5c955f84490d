"""No text is cut and no two texts overlap: presets × both languages × a 1366 × 768 laptop and a 1920 × 1080
projector × the normal window and the stage view. A representative subset of the presets (the three case
studies, the largest published run and a mixture of experts) keeps it fast: each layout costs a preset load and a relayout, and
the other presets share these layouts' widgets."""

from __future__ import annotations

import itertools

import pytest
from PySide6 import QtCore, QtWidgets

from gui import i18n
from guihelpers import settle
from model import presets

PRESET_DIR = presets.PRESETS_DIR
PRESETS = ("case1_lab_8xA10_5B", "case2_autodriving_24xA100_30B", "case3_centre_128xH100_1T", "llama3_405b_16k_h100",
           "moe_deepseek_v3_shape")
SIZES = (QtCore.QSize(1366, 768), QtCore.QSize(1920, 1080))
# the toolbar's scenario line is cut on purpose where the toolbar has no room (its tooltip has it all)
CUT_ON_PURPOSE = {"scenarioLabel"}


def _rect(w, win) -> QtCore.QRect:
    return QtCore.QRect(w.mapTo(win, QtCore.QPoint(0, 0)), w.size())


def _text_widgets(win):
    """The visible labels and buttons with text, on the window (not in its dialogs)."""
    out = []
    for w in win.findChildren(QtWidgets.QLabel) + win.findChildren(QtWidgets.QAbstractButton):
        if w.isVisible() and w.window() is win and w.text() and w.objectName() not in CUT_ON_PURPOSE:
            out.append(w)
    return out


def _clipped(w) -> bool:
    if isinstance(w, QtWidgets.QLabel):
        if w.wordWrap():
            return w.heightForWidth(w.width()) > w.height() + 1
        return w.sizeHint().width() > w.width() + 1 and w.minimumSizeHint().width() > w.width() + 1
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
            out.append(f"cut: {w.objectName() or type(w).__name__} {w.text()[:40]!r}")
    rects = [(w, _visible_rect(w, win)) for w in widgets]
    for (a, ra), (b, rb) in itertools.combinations(rects, 2):
        if a.isAncestorOf(b) or b.isAncestorOf(a) or ra.isEmpty() or rb.isEmpty():
            continue
        if ra.intersected(rb).width() > 2 and ra.intersected(rb).height() > 2:
            out.append(f"overlap: {a.text()[:30]!r} / {b.text()[:30]!r}")
    table = win.table
    if table.isVisible():
        shown = sum(table.columnWidth(i) for i in range(table.columnCount()) if not table.isColumnHidden(i))
        room = _visible_rect(table.viewport(), win).width()
        if shown > room + 1:
            out.append(f"table: {shown} px of columns in {room} px")
    return out


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_no_text_is_cut_or_covers_another(window, qtbot, lang):
    win = window
    i18n.switch_language(win, lang)
    problems = []
    try:
        for name, size, stage in itertools.product(PRESETS, SIZES, (False, True)):
            assert win.load_preset(PRESET_DIR / f"{name}.toml")
            settle(win)
            win.presentation_action.setChecked(stage)
            win.showNormal()
            win.resize(size)
            qtbot.wait(10)
            win.features.settle_now()
            QtWidgets.QApplication.processEvents()
            problems += [f"{name[:6]} {size.width()} {'stage' if stage else 'window'}: {p}" for p in _problems(win, size)]
            win.presentation_action.setChecked(False)
    finally:
        win.presentation_action.setChecked(False)
        i18n.switch_language(win, "en")
    assert not problems, "\n".join(problems)
