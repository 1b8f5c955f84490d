"""A language switch keeps the window: the same object, its texts in the new language, its state
(scenario, pin, focus, docks, zoom, TCO baseline) as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gui import i18n
from guihelpers import settle

CJK = re.compile(r"[\u4e00-\u9fff]")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def english():
    yield
    i18n.set_language("en")


def test_switching_language_keeps_the_window_and_its_state(window, english):
    f = window.features
    window.controller.set_value("fabric.focus", "roce")
    window.controller.set_value("cluster.nodes", 48)
    settle(window)
    f.pin()
    window.cost_chart.baseline_combo.setCurrentIndex(window.cost_chart.baseline_combo.findData("infiniband"))
    f.tornado_dock.show()
    vb = window.charts["utilisation"].getPlotItem().vb
    vb.setXRange(1.2, 2.0, padding=0)  # a zoom the user made
    zoom = vb.viewRange()[0]
    title_en, tools_en = window.windowTitle(), f.tools_menu.title()
    table_en = window.table.horizontalHeaderItem(2).text()
    tornado_before = f.tornado

    same = i18n.switch_language(window, "zh_CN")

    assert same is window
    assert CJK.search(window.windowTitle()) and window.windowTitle() != title_en
    assert CJK.search(f.tools_menu.title()) and f.tools_menu.title() != tools_en
    assert window.table.horizontalHeaderItem(2).text() != table_en
    assert CJK.search(window.sliders["cluster.nodes"].name.text())
    assert CJK.search(window.charts["utilisation"].series.title)
    state = window.session.state
    assert window.controller.scenario.cluster.nodes == 48 and state.focus == "roce"
    assert state.pin is not None and f.pin_a is state.pin
    assert state.tco_baseline == "infiniband" and window.charts["tco"].series.baseline == "infiniband"
    assert f.tornado_dock.isVisible() and f.tornado is not tornado_before  # the panel, in Chinese
    assert vb.viewRange()[0] == pytest.approx(zoom)
    assert f.language_actions["zh_CN"].isChecked()

    i18n.switch_language(window, "en")
    assert window.windowTitle() == title_en and f.tools_menu.title() == tools_en


def test_no_module_reaches_into_the_window():
    """The window's parts use its public attributes and the session: no private attribute of the
    window is read or written from outside it, and nothing probes the window with getattr."""
    probes = re.compile(r"getattr\((self\.)?window\s*,|\b(self\.)?window\._[a-z]|\bwin\._[a-z]")
    offenders = []
    for path in list((ROOT / "gui").rglob("*.py")) + list((ROOT / "benchmarks").glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if probes.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_the_check_finds_a_probe(tmp_path):
    """The pattern above does match what it forbids (so the test can fail)."""
    probes = re.compile(r"getattr\((self\.)?window\s*,|\b(self\.)?window\._[a-z]|\bwin\._[a-z]")
    assert probes.search('x = getattr(window, "features", None)')
    assert probes.search("self.window._on_recomputed(snap)")
    assert not probes.search("self.window.show_snapshot(snap)")
