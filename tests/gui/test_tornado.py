"""Sensitivity: a tornado for the focus fabric at the current point, in days and in TCO."""

from __future__ import annotations

import numpy as np

from guihelpers import axis_text_specs, settle
from PySide6 import QtGui, QtWidgets


def _axis_texts(axis) -> list[str]:
    """The tick labels the axis draws (its draw specs, as its paint uses them), once laid out."""
    return [text for _, text in axis_text_specs(axis)]


def _show(window):
    f = window.features
    f.tornado_dock.show()
    f.settle_now()
    return f.tornado


def test_dock_hidden_until_asked(window):
    f = window.features
    assert not f.tornado_dock.isVisible()
    assert f.tornado_action in f.tools_menu.actions()
    assert f.tornado.swings == []


def test_tornado_days_and_tco(window):
    # a 100G NIC: the network, not the A100's PCIe Gen4 slot (~200 Gb/s), limits the node, so its inputs move days
    assert window.controller.set_value("fabric.custom.infiniband.link_gbps", 100.0)
    settle(window)
    t = _show(window)
    assert t.swings
    days, tco = t.days.rows, t.tco.rows
    assert days and tco
    spans = [r["span"] for r in days]
    assert spans == sorted(spans, reverse=True)
    # bars: one low and one high per row, running from the nominal line
    x0 = np.asarray(t.days.low.opts["x0"])
    assert len(x0) == len(days)
    nominal = t.days.nominal_line.value()
    for r, a, w in zip(days, x0, t.days.low.opts["width"]):
        assert min(a, a + w) <= nominal + 1e-9 <= max(a, a + w) + 1e-9
    # electricity and PUE move TCO, not days
    assert any("PUE" in r["label"] for r in tco)
    assert not any("PUE" in r["label"] for r in days)
    assert sorted(_axis_texts(t.days.getPlotItem().getAxis("left"))) == sorted(r["label"] for r in days)
    assert "InfiniBand" in t.title.text()


def test_follows_the_focus_fabric(window):
    t = _show(window)
    window.controller.set_value("fabric.focus", "ethernet")
    settle(window)
    window.features.settle_now()
    assert "Ethernet" in t.title.text()
    assert all("ethernet" in sw.field or sw.field.startswith("economics") for sw in t.swings)
