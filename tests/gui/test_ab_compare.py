"""A/B compare: pin A, change, see both with deltas (charts and table), export CSV."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from guihelpers import settle


def test_pin_change_and_compare(window):
    f = window.features
    assert f.pin_action in f.tools_menu.actions()
    f.pin()
    assert f.compare_dock.isVisible()
    window.controller.set_value("workload.params_b", 60.0)
    settle(window)
    f.settle_now()
    rows = f.compare.rows
    assert len(rows) == 3 * len(window.controller.snapshot.sweep.fabrics)
    ib_days = next(r for r in rows if r["fabric"] == "infiniband" and r["metric"] == "days")
    assert ib_days["b"] > ib_days["a"] and ib_days["delta"] == pytest.approx(ib_days["b"] - ib_days["a"])
    assert "Model parameters: 30 → 60" in f.compare.changes.text()
    # A is drawn dashed and faint on every chart, B's curves stay solid
    for kind in window.charts:
        pinned = f.pinned.visible(kind)
        assert set(pinned) == set(window.controller.snapshot.sweep.fabrics)
        pen = pinned["roce"].opts["pen"]
        assert pen.color().alpha() < 255
    ya = f.pinned.items["duration"]["infiniband"].getData()[1]
    yb = window.charts["duration"].curves["infiniband"].getData()[1]
    assert np.nanmean(yb) > np.nanmean(ya)


def test_pinned_follows_the_x_axis(window):
    f = window.features
    f.pin()
    window.controller.set_x_field("fabric.latency_us")
    settle(window)
    f.settle_now()
    xa = f.pinned.items["utilisation"]["roce"].getData()[0]
    xb = window.charts["utilisation"].curves["roce"].getData()[0]
    assert np.allclose(xa, xb)


def test_export_csv(window, tmp_path):
    f = window.features
    assert not f.export_compare_action.isEnabled()
    f.pin()
    window.controller.set_value("cluster.nodes", 48)
    settle(window)
    f.settle_now()
    path = f.export_compare(tmp_path / "ab.csv")
    with open(path, encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0][:3] == ["fabric", "metric", "unit"]
    assert len(rows) == 1 + 3 * 4
    tco = next(r for r in rows if r[0] == "InfiniBand" and r[1] == "tco")
    assert float(tco[4]) > float(tco[3])  # twice the nodes, more TCO


def test_unpin(window):
    f = window.features
    f.pin()
    f.unpin()
    assert all(not f.pinned.visible(k) for k in window.charts)
    assert f.compare.table.rowCount() == 0


def test_a_is_marked_where_it_was(window):
    f = window.features
    window.controller.set_value("cluster.nodes", 24)
    settle(window)
    f.pin()
    window.controller.set_value("cluster.nodes", 48)
    settle(window)
    f.settle_now()
    for kind in window.charts:
        x, y = f.pinned.markers[kind].getData()
        assert len(x) == 4 and np.allclose(x, np.log10(24.0))  # log x-axis
        assert f.pinned.labels[kind].isVisible()
