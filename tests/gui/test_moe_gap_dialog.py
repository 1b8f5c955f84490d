"""Tools ▸ MoE vs dense fabric gap: the chart shows the gap an MoE run opens against its dense twin."""

from __future__ import annotations

import numpy as np
import pytest

from gui import i18n
from model import load_scenario, moe_gap


@pytest.fixture
def dialog(window, qtbot):
    dlg = window.features.open_moe_gap()
    qtbot.addWidget(dlg)
    yield dlg
    dlg.close()


def _bars(item):
    return np.asarray(item.opts["x"], dtype=float), np.asarray(item.opts["height"], dtype=float)


def test_menu_action_opens_the_chart(window):
    assert window.features.moe_gap_action in window.features.tools_menu.actions()


def test_moe_bars_differ_from_dense_and_the_gap_is_larger_on_ethernet(dialog):
    dialog.source.setCurrentIndex(dialog.source.findData("deepseek"))
    fabrics = list(dialog.gap["fabrics"])
    _, moe = _bars(dialog.moe_bars)
    _, dense = _bars(dialog.dense_bars)
    assert len(moe) == len(dense) == len(fabrics)
    assert not np.allclose(moe, dense)  # the plotted data differ between MoE and dense
    ib = fabrics.index("infiniband")
    assert moe[ib] == pytest.approx(0.0, abs=1e-9) and dense[ib] == pytest.approx(0.0, abs=1e-9)  # the best: 1×
    for eth in ("roce", "ethernet"):  # on Ethernet fabrics the MoE run loses more than the dense one
        i = fabrics.index(eth)
        assert moe[i] > dense[i] > 0.0
    # the bars are the model's numbers (log₁₀ of the step time over the best fabric's)
    s = load_scenario("assets/presets/moe_deepseek_v3_shape.toml")
    gap = moe_gap.fabric_gap(s)
    np.testing.assert_allclose(moe, np.log10(1.0 + gap["moe_slowdown"]))
    assert "RoCE" in dialog.summary.text()


def test_the_mixtral_preset_changes_the_chart(dialog):
    dialog.source.setCurrentIndex(dialog.source.findData("deepseek"))
    _, deepseek = _bars(dialog.moe_bars)
    dialog.source.setCurrentIndex(dialog.source.findData("mixtral"))
    _, mixtral = _bars(dialog.moe_bars)
    assert not np.allclose(deepseek, mixtral)
    assert dialog.error_label.text() == ""


def test_the_dialog_speaks_chinese(window, qtbot):
    assert i18n.set_language("zh_CN")
    try:
        from gui.dialogs.moe_gap import MoeGapDialog

        dlg = MoeGapDialog(window.controller, window)
        qtbot.addWidget(dlg)
        assert dlg.windowTitle() != "MoE vs dense: fabric gap" and any("\u4e00" <= ch <= "\u9fff"
                                                                       for ch in dlg.windowTitle())
        dlg.close()
    finally:
        i18n.set_language("en")


def test_the_current_moe_scenario_is_offered_and_followed(window, dialog, qtbot):
    assert dialog.source.findData("current") < 0  # the default preset is dense
    window.controller.set_scenario(load_scenario("assets/presets/moe_mixtral_8x22b.toml"))
    qtbot.waitUntil(lambda: dialog.source.findData("current") >= 0, timeout=5000)
    dialog.source.setCurrentIndex(dialog.source.findData("current"))
    assert dialog.gap["fabrics"] == window.controller.scenario.fabric.fabrics
    assert dialog.error_label.text() == ""
