"""Chinese wherever a user reads: preset names in the menu, the toolbar, the chart captions and the
sheet; money in 万 / 亿 in the table and the charts; the sheet's assumptions name fields, not keys."""

from __future__ import annotations

import re

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_preset_names_and_captions_in_chinese(zh):
    names = [a.text() for a in zh.preset_actions.values()]
    assert names and all(CJK.search(n) for n in names), names
    assert "案例 2" in zh.scenario_label.text() and "Case 2" not in zh.scenario_label.text()
    caption = zh.charts["utilisation"].caption
    assert "案例 2" in caption and "autonomous" not in caption


def test_money_in_wan_everywhere_in_chinese(zh):
    for key in ("capex", "tco", "cost_per_run"):
        text = zh.table.cell_text(3, key)  # InfiniBand (TCP Ethernet stalls on the article's inputs: no cost per run)
        assert text.startswith("¥") and ("万" in text or "亿" in text) and " M" not in text, (key, text)
    tco = zh.charts["tco"].series  # the sweep chart: TCO against the baseline in percent, in Chinese
    assert CJK.search(tco.title) and CJK.search(tco.y_label) and "%" in tco.y_label, tco.title
    assert "against" not in tco.title and " vs " not in tco.y_label


def test_the_sheet_speaks_chinese(zh):
    from gui.export.proposal import proposal_content

    c = proposal_content(zh.controller.snapshot)
    assert CJK.search(c.title) and c.scenario.startswith("案例 2")
    text = " ".join(f"{a} {b}" for a, b in c.assumptions)
    assert not re.search(r"\b(latency_us|loss_rate|link_gbps|nics_per_node)\b", text), text


def test_preset_descriptions_in_chinese(zh):
    """Every preset's description reads Chinese in the menu, the toolbar's tooltip and the sheet."""
    from gui.export.proposal import proposal_content

    tips = {path: act.toolTip() for path, act in zh.preset_actions.items()}
    described = {p: t for p, t in tips.items() if not p.endswith("default.toml")}
    assert described and all(CJK.search(t) for t in described.values()), described
    assert not any("Article" in t or "nodes," in t for t in described.values())
    assert "文章案例 2" in zh.scenario_label.toolTip()
    c = proposal_content(zh.controller.snapshot)
    assert c.description.startswith("文章案例 2") and "chosen" not in c.description


def test_preset_descriptions_stay_english_in_english(window):
    from gui.export.proposal import proposal_content

    tip = next(a.toolTip() for p, a in window.preset_actions.items() if "case2" in p)
    assert tip.startswith("Article case 2") and not CJK.search(tip)
    assert proposal_content(window.controller.snapshot).description.startswith("Article case 2")


def test_source_notes_in_chinese_in_the_tooltips(zh):
    """The assets' source notes in the controls' tooltips: every GPU of the list, the GPU in use, the fabric in
    focus, the fabrics to compare and the profile sets."""
    from PySide6.QtCore import Qt

    gpus = [zh.gpu_combo.itemData(i, Qt.ItemDataRole.ToolTipRole) for i in range(zh.gpu_combo.count())]
    assert len(gpus) > 5 and all(CJK.search(t) and "datasheet" not in t for t in gpus), gpus
    assert "数据手册" in zh.gpu_combo.toolTip() and "datasheet" not in zh.gpu_combo.toolTip()
    assert zh.fabric_source.toolTip().startswith("原文 §2.3 表格"), zh.fabric_source.toolTip()
    tips = [rb.toolTip() for rb in zh.profile_buttons.values()]
    assert any("厂商博客文章" in t for t in tips) and not any("blog post" in t or "thesis" in t for t in tips), tips


def test_source_notes_stay_as_written_in_english(window):
    from PySide6.QtCore import Qt

    assert "datasheet" in window.gpu_combo.itemData(0, Qt.ItemDataRole.ToolTipRole)
    assert window.fabric_source.toolTip().startswith("article §2.3 table")
