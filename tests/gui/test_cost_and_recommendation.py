"""The customer's answer in the window: cost against a baseline, ties called ties, the audit on request."""

from __future__ import annotations

import numpy as np
from guihelpers import settle

from model import presets


def _load(window, name):
    assert window.load_preset(presets.preset_path(name))
    settle(window)


def test_cost_chart_shows_cost_per_run_and_tco_against_the_chosen_baseline(window, qtbot):
    _load(window, "case1")
    chart = window.cost_chart
    window.point_tabs.setCurrentWidget(chart)
    rows = {r.fabric: r for r in chart.data.rows}
    assert chart.data.baseline == "ethernet" and rows["ethernet"].tco_diff == 0
    ib = rows["infiniband"]
    assert ib.per_run_delta < -0.3 and 0 < ib.tco_delta < 0.15  # −39 % per run, a few % TCO of the same cluster
    assert ib.per_run_saving > 0 and "less" in chart.grab_text() and "same-cluster TCO" in chart.grab_text()
    assert np.isclose(sum(ib.diff_parts.values()), ib.tco_diff)
    assert 0 < ib.network_share < 1
    # a 5 % TCO difference takes most of the half-axis; a 0.01 % one does not fill it
    span = chart.canvas.diff_span()
    assert span >= 0.06 * chart.data.base_tco and abs(ib.tco_diff) / span > 0.4
    before = chart.grab_text()
    chart.baseline_combo.setCurrentIndex(chart.baseline_combo.findData("infiniband"))
    assert chart.data.baseline == "infiniband"
    rows = {r.fabric: r for r in chart.data.rows}
    assert rows["infiniband"].tco_diff == 0 and rows["ethernet"].tco_diff < 0
    assert chart.grab_text() != before
    img = chart.grab().toImage()
    assert not img.isNull() and img.width() > 100


def test_cost_tab_names_a_stalled_fabric_and_compares_nothing_with_it(window):
    _load(window, "case3")  # TCP Ethernet's run is past the plausibility bound on the article's inputs
    rows = {r.fabric: r for r in window.cost_chart.data.rows}
    assert rows["ethernet"].stall.startswith("stalls")
    assert all(np.isnan(r.per_run_delta) for r in rows.values())  # the baseline stalls: no percentage
    text = window.cost_chart.grab_text()
    assert "−100" not in text and "stalls" in text


def test_a_clear_pick_against_the_articles_is_named_as_a_difference(window):
    # case 1: InfiniBand is some 8 % faster than the article's RoCE on the same cluster (the tie path, both on
    # one plan, is tests/test_recommend.py's)
    _load(window, "case1")
    panel = window.recommendation
    rec = panel.recommendation
    assert rec.pick == "infiniband" and not rec.agrees
    text = panel.summary.text()
    assert panel.engine_pick == "infiniband" and "They differ" in text and "They agree" not in text


def test_the_article_audit_shows_only_when_asked(window, qtbot):
    _load(window, "case3")
    panel = window.recommendation
    assert not panel.audit and panel.claims.isHidden()
    assert not panel.audit_check.isHidden()
    panel.audit_check.setChecked(True)
    assert not panel.claims.isHidden() and panel.claims.rowCount() > 5
    assert "would need" in panel.claims_notes.text()  # the counterfactual figures, explained
    labels = [panel.claims.item(i, 0).text() for i in range(panel.claims.rowCount())]
    assert len(set(labels)) == len(labels)  # no two rows read the same
    qtbot.wait(20)  # laid out: every row tall enough for its whole (wrapped) claim name
    assert all(panel.claims.rowHeight(i) >= panel.claims.sizeHintForRow(i) for i in range(len(labels)))
    panel.audit_check.setChecked(False)
    assert panel.claims.isHidden()
