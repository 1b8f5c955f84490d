"""Language: the whole window in Simplified Chinese at run time; a visible string without a
translation fails here. Numbers, units, fabric, GPU, profile and preset names are exempt."""

from __future__ import annotations

import html
import re

import pytest
from PySide6 import QtCore, QtWidgets

from gui import i18n
from gui.panels.richtext import RichText
from guihelpers import settle

CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")
# names that stay as they are in every language: products, fabrics, units, abbreviations
EXEMPT = [
    r"Fabric What-If", r"InfiniBand", r"RoCE", r"iWARP", r"Ethernet", r"TCP", r"RDMA", r"NVIDIA", r"nccl-tests",
    r"all_reduce_perf", r"all_gather_perf", r"all_reduce", r"MFU", r"TCO", r"PUE", r"CPU", r"GPU", r"NIC", r"CSV",
    r"PNG", r"SVG", r"PDF", r"TOML", r"A/B", r"P10", r"P90", r"α", r"β", r"µs", r"ms", r"Gb/s", r"GB/s", r"kWh",
    r"CNY", r"USD", r"EUR", r"B", r"M", r"bn", r"k", r"h", r"x", r"A", r"seed", r"published", r"English", r"Ctrl",
    r"Shift", r"F\d+", r"SXM\d*", r"PCIe", r"HBM\d*e?", r"GB", r"[A-Z]\d+[A-Za-z]*", r"RTX", r"MI\d+X?",
]


def _exempt_pattern(extra):
    words = sorted(EXEMPT + [re.escape(e) for e in extra if e], key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z])(?:" + "|".join(words) + r")(?![A-Za-z])")


def _plain(text: str) -> str:
    text = re.sub(r"<[^>]+>", " ", text or "")
    return html.unescape(text).replace("&", "")


def untranslated(text: str, pattern) -> bool:
    t = _plain(text)
    if not t.strip() or CJK.search(t):
        return False
    rest = pattern.sub(" ", t)
    return bool(re.search(r"[A-Za-z]{2,}", rest))


def visible_texts(win) -> list[tuple[str, str]]:
    """(where, text) for every string a user can read in the window, its menus and charts."""
    out = [("window title", win.windowTitle())]

    def menu_texts(menu, path):
        for act in menu.actions():
            if act.isSeparator() or not act.isVisible():
                continue
            out.append((f"menu {path}", act.text()))
            if act.menu() is not None:
                menu_texts(act.menu(), path + " > " + act.text())

    for act in win.menuBar().actions():
        out.append(("menu bar", act.text()))
        if act.menu() is not None:
            menu_texts(act.menu(), act.text())
    for w in win.findChildren(QtWidgets.QWidget):
        if not w.isVisibleTo(win):
            continue
        name = f"{type(w).__name__} {w.objectName()}"
        if isinstance(w, (QtWidgets.QLabel, RichText)):
            out.append((name, w.text()))
        elif isinstance(w, QtWidgets.QAbstractButton):
            out.append((name, w.text()))
        elif isinstance(w, QtWidgets.QGroupBox):
            out.append((name, w.title()))
        elif isinstance(w, QtWidgets.QComboBox):
            out.append((name, w.currentText()))
        elif isinstance(w, QtWidgets.QDockWidget):
            out.append((name, w.windowTitle()))
        elif isinstance(w, QtWidgets.QTabBar):
            out += [(name, w.tabText(i)) for i in range(w.count())]
        if isinstance(w, QtWidgets.QTableWidget):
            for j in range(w.columnCount()):
                it = w.horizontalHeaderItem(j)
                if it is not None:
                    out.append((name + " header", it.text()))
            for i in range(w.rowCount()):
                for j in range(w.columnCount()):
                    it = w.item(i, j)
                    if it is not None:
                        out.append((name + " cell", it.text()))
    for kind, ch in win.charts.items():
        pi = ch.getPlotItem()
        out.append((f"chart {kind} title", pi.titleLabel.text))
        for ax in ("left", "bottom"):
            out.append((f"chart {kind} {ax}", pi.getAxis(ax).labelText))
        for _, label in ch.legend.items:
            out.append((f"chart {kind} legend", label.text))
    return out


@pytest.fixture
def zh_window(window, qtbot):
    new = i18n.switch_language(window, "zh_CN")
    qtbot.addWidget(new)
    new.show()
    qtbot.waitExposed(new)
    settle(new)
    yield new
    i18n.set_language("en")
    new.close()


def _pattern_for(win):
    from gui.window import list_presets
    from model import catalog

    names = [win.controller.scenario.name, win.loaded_scenario.name] + [n for n, _ in list_presets()]
    names += [g.get("name", k) for k, g in catalog.gpus().items()]
    names += [g.get("name", k).replace("NVIDIA ", "") for k, g in catalog.gpus().items()]
    snap = win.controller.snapshot
    names += list(snap.sweep.labels)
    return _exempt_pattern(names)


def test_the_qm_is_committed_and_loads(qapp):
    assert i18n.qm_path("zh_CN").exists()
    assert i18n.set_language("zh_CN")
    try:
        assert QtCore.QCoreApplication.translate("Features", "&Tools") != "&Tools"
    finally:
        i18n.set_language("en")


def test_every_visible_string_is_translated(zh_window):
    win = zh_window
    f = win.features
    for dock in (f.tornado_dock, f.breakeven_dock, f.compare_dock):
        dock.show()
    f.pin()
    win.controller.set_value("cluster.nodes", 32)
    settle(win)
    f.settle_now()
    pattern = _pattern_for(win)
    missing = [(where, _plain(t)) for where, t in visible_texts(win) if untranslated(t, pattern)]
    assert not missing, "untranslated:\n" + "\n".join(f"  {w}: {t!r}" for w, t in missing)


def test_switch_keeps_the_work_and_back(window, qtbot):
    window.controller.set_value("cluster.nodes", 40)
    settle(window)
    window.features.pin()
    window.features.bands_action.setChecked(True)
    zh = i18n.switch_language(window, "zh_CN")
    qtbot.addWidget(zh)
    try:
        assert zh.controller.scenario.cluster.nodes == 40
        assert zh.features.pin_a is not None and zh.features.bands_action.isChecked()
        assert CJK.search(zh.features.tools_menu.title())
        assert zh.settings.value(i18n.SETTINGS_KEY) == "zh_CN"
        # numbers by locale
        assert i18n.fmt_money(40_570_000, "CNY") == "¥4,057 万"
        en = i18n.switch_language(zh, "en")
        qtbot.addWidget(en)
        assert en.features.tools_menu.title() == "&Tools"
        assert en.controller.scenario.cluster.nodes == 40
        assert i18n.fmt_money(40_570_000, "CNY") == "¥40.57 M"
        en.features.bands.wait()
        en.close()
    finally:
        i18n.set_language("en")


def test_the_language_chosen_last_time_comes_back(qtbot, isolated_settings):
    from gui.app import build_window
    from gui.system.settings import app_settings

    st = app_settings()
    st.setValue(i18n.SETTINGS_KEY, "zh_CN")
    st.sync()
    try:
        win = build_window(restore=False)
        qtbot.addWidget(win)
        assert i18n.current_language() == "zh_CN"
        assert win.features.language_actions["zh_CN"].isChecked()
        assert CJK.search(win.features.tools_menu.title())
        win.close()
    finally:
        i18n.set_language("en")


def test_the_catalogue_is_complete_and_placeholders_match():
    import xml.etree.ElementTree as ET

    root = ET.parse(i18n.I18N_DIR / "fabric_whatif_zh_CN.ts").getroot()
    bad = []
    for ctx in root.iter("context"):
        name = ctx.find("name").text
        for m in ctx.iter("message"):
            src = m.find("source").text or ""
            tr = m.find("translation")
            text = "".join(tr.itertext()) if tr is not None else ""
            if tr is None or tr.get("type") in ("unfinished", "vanished", "obsolete") or not text:
                bad.append((name, src, "no translation"))
                continue
            ph = re.compile(r"\{[^{}]*\}")
            if sorted(ph.findall(src)) != sorted(ph.findall(text)):
                bad.append((name, src, f"placeholders differ: {text}"))
            if src.count("&") - src.count("&&") - src.count("&nbsp;") != text.count("&") - text.count("&&") \
                    - text.count("&nbsp;"):
                bad.append((name, src, f"shortcut marker lost: {text}"))
    assert not bad, "\n".join(f"{c}: {s!r}: {why}" for c, s, why in bad)
