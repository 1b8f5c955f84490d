"""The sweep chart of TCO shows each fabric's difference from the Cost tab's baseline on a linear axis:
a 5 % difference is a visible gap, the baseline choice is shared, exports and bands follow it, and a
fabric far off the others' scale is clipped and says so."""

from __future__ import annotations

import csv
import dataclasses
import io

import numpy as np
from guihelpers import curve_y, marker_xy, settle

from model import presets


def _load(window, name):
    assert window.load_preset(presets.preset_path(name))
    settle(window)


def _gap_fraction(chart, y1: float, y2: float) -> float:
    """Screen distance between two y values as a fraction of the plot's height (by geometry)."""
    vb = chart.getPlotItem().vb
    p1 = vb.mapViewToScene(vb.viewRect().center().__class__(0.0, y1))
    p2 = vb.mapViewToScene(vb.viewRect().center().__class__(0.0, y2))
    return abs(p1.y() - p2.y()) / vb.sceneBoundingRect().height()


def test_a_five_percent_tco_difference_is_a_visible_gap(window, qtbot):
    _load(window, "case2")
    chart = window.charts["tco"]
    data = chart.series
    assert data.baseline == "ethernet" and not chart.getPlotItem().ctrl.logYCheck.isChecked()
    assert "Traditional Ethernet" in data.title and "(%)" in data.y_label
    np.testing.assert_array_equal(curve_y(window, "tco", "ethernet")[np.isfinite(curve_y(window, "tco", "ethernet"))],
                                  0.0)
    # at the preset's point (24 nodes) InfiniBand's TCO is about 5 % above Ethernet's
    _, y = marker_xy(window, "tco")
    fabrics = [s.fabric for s in data.series]
    eth, ib = y[fabrics.index("ethernet")], y[fabrics.index("infiniband")]
    assert 4.0 < ib - eth < 6.0
    assert _gap_fraction(chart, eth, ib) >= 0.10
    img = chart.grab().toImage()
    assert not img.isNull()


def test_ties_stay_flat_on_the_tco_axis(window):
    """Differences of a fraction of a percent do not fill the plot: the axis spans at least 6 %."""
    _load(window, "case3")
    chart = window.charts["tco"]
    lo, hi = chart.getPlotItem().vb.viewRange()[1]
    assert hi - lo >= 6.0 and lo <= 0.0 <= hi
    _, y = marker_xy(window, "tco")
    fabrics = [s.fabric for s in chart.series.series]
    eth, iwarp = y[fabrics.index("ethernet")], y[fabrics.index("iwarp")]
    assert abs(eth - iwarp) < 1.0  # a fraction of a percent apart (same cluster, nearly the same NIC prices) ...
    assert _gap_fraction(chart, eth, iwarp) <= abs(eth - iwarp) / 6.0 + 1e-3  # ... drawn on at least 6 %


def test_the_cost_tabs_baseline_is_the_tco_charts_and_its_exports(window, tmp_path):
    from gui.export import charts as export
    _load(window, "case2")
    chart = window.charts["tco"]
    window.point_tabs.setCurrentWidget(chart)  # the same cluster's TCO along the x-axis: a tab, drawn when shown
    before = curve_y(window, "tco", "ethernet").copy()
    window.cost_chart.baseline_combo.setCurrentIndex(window.cost_chart.baseline_combo.findData("infiniband"))
    assert chart.series.baseline == "infiniband" and "InfiniBand" in chart.series.title
    ib, eth = curve_y(window, "tco", "infiniband"), curve_y(window, "tco", "ethernet")
    assert np.all(ib[np.isfinite(ib)] == 0.0)
    assert np.nanmin(eth) < -4.0 and not np.allclose(eth, before, equal_nan=True)  # the plotted data changed
    snap = window.controller.snapshot
    shown = export.window_overlays(window, snap)  # what File ▸ Export passes: the session's baseline
    assert shown["baseline"] == "infiniband"
    out = export.export_chart(snap, "tco", tmp_path / "tco.csv", **shown)
    head = next(csv.reader(line for line in io.StringIO(out.read_text(encoding="utf-8")) if not line.startswith("#")))
    assert any(h.endswith("TCO vs InfiniBand (%)") for h in head)
    svg = export.export_chart(snap, "tco", tmp_path / "tco.svg", **shown).read_text("utf-8")
    assert "against InfiniBand" in svg


def test_a_fabric_far_off_the_scale_is_clipped_and_says_so(window):
    """A fabric at +7,000 % keeps the others readable: its curve runs along a bound and its label says
    how far it goes; the CSV keeps its real value."""
    from gui.present.chart_export import series_csv
    from gui.present.series import chart_series

    _load(window, "case2")
    sweep = window.controller.snapshot.sweep
    tco = np.array(sweep.money.tco, dtype=float)
    tco[2] = tco[0] * 71.0  # iWARP at +7,000 %
    huge = dataclasses.replace(sweep, money=dataclasses.replace(sweep.money, tco=tco))
    data = chart_series(huge, "tco")
    iwarp = data.series[2]
    assert iwarp.off_scale is not None and "off scale" in iwarp.label and "7,000" in iwarp.label
    others = max(np.nanmax(np.abs(s.y)) for s in data.series if s.fabric != "iwarp")
    assert np.nanmax(iwarp.y) <= 2.0 * others  # the others keep most of the height
    assert all(s.off_scale is None for s in data.series if s.fabric != "iwarp")
    rows = list(csv.reader(line for line in io.StringIO(series_csv(huge, "tco")) if not line.startswith("#")))
    col = next(j for j, h in enumerate(rows[0]) if h.startswith("iWARP") and "(%)" in h)
    assert max(float(r[col]) for r in rows[1:] if r[col]) > 6900.0


def test_hover_on_the_tco_chart_reads_the_difference_in_percent(window):
    import math

    from PySide6 import QtCore

    _load(window, "case2")
    ch = window.charts["tco"]
    vb = ch.getPlotItem().vb
    x = 100.0  # away from the marker: the curves' values at the nearest sweep point
    ch._on_mouse_moved(vb.mapViewToScene(QtCore.QPointF(math.log10(x), sum(vb.viewRange()[1]) / 2)))
    text = ch.readout_text()
    i = int(abs(ch.series.x - x).argmin())
    ib = next(s for s in ch.series.series if s.fabric == "infiniband")
    assert f"+{ib.y[i]:.1f} %" in text and "¥" not in text


def test_the_chosen_baseline_survives_a_language_switch(window, qtbot):
    from gui import i18n

    _load(window, "case2")
    window.cost_chart.baseline_combo.setCurrentIndex(window.cost_chart.baseline_combo.findData("roce"))
    new = i18n.switch_language(window, "zh_CN")
    qtbot.addWidget(new)
    try:
        settle(new)
        assert new.cost_chart.data.baseline == "roce" and new.charts["tco"].series.baseline == "roce"
        roce = curve_y(new, "tco", "roce")
        assert np.all(roce[np.isfinite(roce)] == 0.0)
    finally:
        i18n.set_language("en")
        new.close()


def test_the_third_chart_is_money_for_the_same_work_and_the_tco_a_labelled_tab(window, qtbot):
    """The stacked charts end with the cost per training run (money for the same work); the TCO of the same
    cluster, which falls as a slower fabric idles its GPUs, is a tab that says so."""
    from gui.present.series import WINDOW_CHART_KINDS

    _load(window, "case2")
    assert WINDOW_CHART_KINDS[-1] == "cost_per_run"
    third = window.charts["cost_per_run"]
    assert third.isVisible() and third.parentWidget() is window.charts["utilisation"].parentWidget()
    before = curve_y(window, "cost_per_run", "ethernet").copy()
    window.controller.set_value("economics.electricity_cny_per_kwh", 5.0)
    window.controller.recompute_now()
    after = curve_y(window, "cost_per_run", "ethernet")
    assert np.nanmin(after - before) > 0.0  # dearer power: every run costs more, drawn on the third chart
    tco = window.charts["tco"]
    assert window.point_tabs.indexOf(tco) >= 0 and not tco.isVisible()
    assert "same cluster" in window.point_tabs.tabText(window.point_tabs.indexOf(tco))
