"""The proposal pack's editable files: the workbook's formulas recompute to the app's capex, TCO and cost per
run (and follow an edited discount), the slides carry native charts with the window's data, and the
financials are what their definitions say."""

from __future__ import annotations

import io
import math
import re

import numpy as np
import numpy_financial as npf
import pytest

import model
from gui.export import pack_files
from gui.present import pack
from gui.present.sweep import compute_snapshot
from model import presets

CELL = re.compile(r"(?:'?([^'!=*+/()-]+?)'?!)?\$?([A-Z]+)\$?(\d+)")


class Sheets:
    """Evaluates the workbook's formulas: references (sheet!A1), + − × ÷, parentheses and SUM of a range:
    all the pack writes."""

    def __init__(self, wb):
        self.wb = wb

    def value(self, sheet: str, ref: str):
        v = self.wb[sheet][ref].value
        if isinstance(v, str) and v.startswith("="):
            return self.formula(sheet, v[1:])
        return v

    def formula(self, sheet: str, text: str) -> float:
        def rng(m):
            sh = m.group(1) or sheet
            (c1, r1), (c2, r2) = (CELL.fullmatch(x).groups()[1:] for x in m.group(2).split(":"))
            total = sum(self.value(sh, f"{c1}{r}") or 0.0 for r in range(int(r1), int(r2) + 1))
            return repr(float(total))

        text = re.sub(r"SUM\((?:'?([^'!(]+?)'?!)?([A-Z]+\d+:[A-Z]+\d+)\)", rng, text)
        text = CELL.sub(lambda m: repr(float(self.value(m.group(1) or sheet, m.group(2) + m.group(3)) or 0.0)), text)
        return eval(text, {"__builtins__": {}})  # only numbers and + - * / ( ) remain


def _point(name):
    return model.evaluate(presets.load_preset(name))


def _rows(ws, column="A"):
    return {ws[f"{column}{r}"].value: r for r in range(2, ws.max_row + 1) if ws[f"{column}{r}"].value}


@pytest.mark.parametrize("name", ["case1", "case2", "case3", "large"])
def test_workbook_formulas_recompute_the_apps_totals(name):
    point = _point(name)
    wb = pack_files.workbook(point)
    sh = Sheets(wb)
    rows = _rows(wb["TCO"])
    labels = pack_files._labels(point)
    for f, lab in labels.items():
        r = rows[lab]
        d = point.at(f)
        assert sh.value("TCO", f"B{r}") == pytest.approx(float(d.money.capex), rel=1e-9)
        assert sh.value("TCO", f"H{r}") == pytest.approx(float(d.money.tco), rel=1e-9)
        assert sh.value("TCO", f"K{r}") == pytest.approx(float(d.money.cost_per_run), rel=1e-9)
    # an edited discount flows through the bill of materials into the TCO
    wb["Inputs"]["B2"] = 0.1
    ib = rows[labels["infiniband"]]
    capex = float(point.at("infiniband").money.capex)
    assert sh.value("TCO", f"B{ib}") == pytest.approx(0.9 * capex, rel=1e-9)
    assert sh.value("TCO", f"H{ib}") == pytest.approx(float(point.at("infiniband").money.tco) - 0.1 * capex, rel=1e-9)


def test_workbook_names_stalls_instead_of_their_days():
    point = _point("case3")
    ws = pack_files.workbook(point)["Comparison"]
    eth = _rows(ws)["Traditional Ethernet"]
    assert ws[f"B{eth}"].value is None and ws[f"D{eth}"].value.startswith("stalls — ")
    saved = io.BytesIO()
    pack_files.workbook(point).save(saved)
    assert saved.getvalue()[:2] == b"PK"


def test_bill_of_materials_adds_up_to_capex_from_the_topology():
    for name in ("case1", "large"):
        point = _point(name)
        for f, lines in pack.bill_of_materials(point).items():
            assert sum(line.total for line in lines) == pytest.approx(float(point.at(f).money.capex), rel=1e-9)
    measured = model.evaluate(presets.switch_profile_set(presets.load_preset("large"), "published", {}))
    lines = {line.item: line for line in pack.bill_of_materials(measured)["infiniband"]}  # priced from its parts
    assert lines["switches"].quantity == float(measured.at("infiniband").network.switches)  # the fat tree's count
    assert sum(line.total for line in lines.values()) == pytest.approx(float(measured.at("infiniband").money.capex))


def test_financials_follow_their_definitions():
    point = _point("case1")
    fin = pack.financials(point, "infiniband", "roce")
    w = model.recommend.same_work(point, "infiniband", "roce")
    extra = float(point.at("infiniband").money.capex - point.at("roce").money.capex)
    assert fin.extra_capex == pytest.approx(extra)
    assert fin.payback_years == pytest.approx(extra / w.saved_per_year)
    assert fin.npv == pytest.approx(npf.npv(pack.DISCOUNT_RATE, [-extra] + [w.saved_per_year] * 5))
    s = point.scenario
    hours = s.cluster.nodes * s.cluster.gpus_per_node * 5 * 8760 * s.economics.duty_cycle
    assert fin.gpu_hour_price == pytest.approx(float(point.at("infiniband").money.tco) / hours)
    assert math.isinf(pack.financials(point, "ethernet", "infiniband").payback_years) or \
        pack.financials(point, "ethernet", "infiniband").payback_years == 0.0


def test_slides_carry_native_charts_with_the_windows_data(tmp_path):
    from pptx import Presentation

    from gui.present.series import CHART_KINDS, chart_series

    snap = compute_snapshot(presets.load_preset("case2"), "cluster.nodes")
    out = pack_files.write_pptx(snap, tmp_path / "p.pptx")
    prs = Presentation(str(out))
    charts = [sh.chart for slide in prs.slides for sh in slide.shapes if sh.has_chart]
    assert len(charts) == len(CHART_KINDS)
    data = chart_series(snap.sweep, "duration")
    drawn = charts[CHART_KINDS.index("duration")]
    ib = next(i for i, s in enumerate(data.series) if s.fabric == "infiniband")
    ys = np.asarray(data.series[ib].y, dtype=float)
    assert np.allclose(list(drawn.plots[0].series[ib].values), ys[np.isfinite(ys)])
    texts = " ".join(sh.text_frame.text for slide in prs.slides for sh in slide.shapes if sh.has_text_frame)
    assert "per training run" in texts and "−100" not in texts
    assert any("stalls" in s.name for s in drawn.plots[0].series)  # the stalled fabric named in the legend


def test_export_pack_writes_the_three_files(tmp_path, capsys):
    from gui.cli import main as cli
    from gui.export.pack_folder import pack_files

    folder = tmp_path / "pack"
    assert cli.main(["export", str(presets.preset_path("case1")), "--pack", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted(pack_files())
    magic = {".pdf": b"%PDF", ".pptx": b"PK\x03\x04", ".xlsx": b"PK\x03\x04", ".svg": b"<?xml", ".csv": b"# scenario"}
    for name in pack_files():
        assert (folder / name).read_bytes().startswith(magic[name[name.rindex("."):]]), name
    assert cli.main(["export", str(presets.preset_path("case1")), "--pack", str(folder), "--chart", "tco"]) \
        == cli.EXIT_BAD_INPUT
    assert "--pack" in capsys.readouterr().err


def test_workbook_recomputes_the_apps_totals_with_a_price_book():
    """Per-tier switch prices, links as cables and optics, a discount and support: the app and the sheet agree."""
    s = presets.switch_profile_set(presets.load_preset("large"), "published", {})
    s = s.replace_many({"price_book.discount": 0.15, "price_book.support_fraction": 0.08,
                        "fabric.custom.infiniband.spine_switch_price_usd": 90000.0,
                        "fabric.custom.infiniband.optic_price_usd": 700.0,
                        "fabric.custom.infiniband.cable_price_usd": 150.0})
    point = model.evaluate(s)
    wb = pack_files.workbook(point)
    sh = Sheets(wb)
    rows = _rows(wb["TCO"])
    for f, lab in pack_files._labels(point).items():
        d = point.at(f)
        assert sh.value("TCO", f"B{rows[lab]}") == pytest.approx(float(d.money.capex), rel=1e-9)
        assert sh.value("TCO", f"H{rows[lab]}") == pytest.approx(float(d.money.tco), rel=1e-9)
        assert sum(line.total for line in pack.bill_of_materials(point)[f]) == pytest.approx(float(d.money.capex))
    plain = model.evaluate(presets.switch_profile_set(presets.load_preset("large"), "published", {}))
    assert float(point.at("infiniband").money.capex) != pytest.approx(float(plain.at("infiniband").money.capex))


@pytest.mark.parametrize("case", ["case1", "case2", "case3"])
def test_chinese_slides_are_chinese_with_the_cover_and_native_charts(qapp, case):
    import datetime as dt

    from gui import i18n
    from gui.present.pack import Cover
    from gui.present.series import CHART_KINDS

    snap = compute_snapshot(presets.load_preset(case), "cluster.nodes")
    assert i18n.set_language("zh_CN")
    try:
        prs = pack_files.presentation(snap, "zh_CN", cover=Cover("示例客户", "J. Presales", dt.date(2026, 12, 5), 30))
    finally:
        i18n.set_language("en")
    slides = list(prs.slides)
    assert len(slides) == 1 + len(CHART_KINDS) + 4  # title, one per chart, BOM, cost, acceptance, assumptions
    title = " ".join(sh.text_frame.text for sh in slides[0].shapes if sh.has_text_frame)
    assert "客户：示例客户" in title and pack.fingerprint(snap.scenario) in title and "有效期至 2027-01-04" in title
    charts = [sh.chart for slide in slides for sh in slide.shapes if sh.has_chart]
    assert len(charts) == len(CHART_KINDS)
    names = [s.name for ch in charts for s in ch.plots[0].series]
    assert any("传统以太网" in n for n in names) and not any("Traditional" in n for n in names)
    fixed = " ".join(sh.text_frame.text for slide in slides[:-1] for sh in slide.shapes if sh.has_text_frame)
    cells = " ".join(c.text for slide in slides for sh in slide.shapes if sh.has_table for r in sh.table.rows
                     for c in r.cells)
    text = (fixed + cells).replace("Fabric What-If", "")  # the tool's name stays
    for english in ("Fabric", "Unit price", "Bill of materials", "Capex", "Traditional", "Customer", "days"):
        assert english not in text, english
    notes = " ".join(sh.text_frame.text for sh in slides[-1].shapes if sh.has_text_frame)
    assert notes.count("估计值：没有公开来源给出此数值") == 1 and "出版物标题保留原文语言" in notes


def test_chinese_workbook_names_its_sheets_in_chinese_and_still_recomputes(qapp):
    from gui import i18n

    point = _point("case2")
    assert i18n.set_language("zh_CN")
    try:
        wb = pack_files.workbook(point, "zh_CN")
    finally:
        i18n.set_language("en")
    assert wb.sheetnames == ["输入", "物料清单", "TCO", "对比", "验收"]
    sh = Sheets(wb)
    rows = _rows(wb["TCO"])
    ib = rows[pack_files._labels(point)["infiniband"]]
    assert "'物料清单'!" in wb["TCO"][f"B{ib}"].value
    assert sh.value("TCO", f"H{ib}") == pytest.approx(float(point.at("infiniband").money.tco), rel=1e-9)
    assert sh.value("TCO", f"K{ib}") == pytest.approx(float(point.at("infiniband").money.cost_per_run), rel=1e-9)


def test_slide_tables_fit_their_slides_with_a_bill_of_materials_from_its_parts():
    from pptx.util import Emu

    s = presets.switch_profile_set(presets.load_preset("case3"), "published", {})  # NICs, switches, links per fabric
    prs = pack_files.presentation(compute_snapshot(s, "cluster.nodes"), "en")
    tables = [sh for slide in prs.slides for sh in slide.shapes if sh.has_table]
    assert len(tables) == 3 and len(tables[0].table.rows) > 18  # BOM, cost, acceptance
    for sh in tables:
        assert Emu(sh.top + sh.height).inches <= Emu(prs.slide_height).inches - 0.2
    cost = tables[1].table
    assert [c.text for c in cost.rows[0].cells][-1] == "Price per GPU-hour"
    assert any(c.text.startswith(("at once", "never")) or c.text.endswith(("days", "months", "years"))
               for r in list(cost.rows)[1:] for c in r.cells)
