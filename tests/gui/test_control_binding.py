"""The controls are bound from the field metadata: one table of fields, every slider's name, unit
and limits from ``model.sections``, every slider writing its own field."""

from __future__ import annotations

import pytest

from gui.i18n_data import tr_field
from gui.panels.controls_panel import DISPLAY, GROUPS, field_class
from guihelpers import settle
from model.fields import field_meta


def _slider(window, path):
    return window.sliders.get(path) or window.fabric_sliders.get(path.split(".", 1)[1])


def test_every_numeric_field_of_the_table_has_a_slider_from_its_metadata(window):
    sliders = [p for _, paths in GROUPS for p in paths if _slider(window, p) is not None]
    assert len(sliders) >= 12
    for path in sliders:
        sl = _slider(window, path)
        meta = field_meta(*field_class(path))
        assert sl.label_text == tr_field(meta["label"]), path
        shown = DISPLAY.get(path, {})
        lo = shown.get("display_lo", meta["lo"])
        hi = shown.get("display_hi", meta["hi"])
        assert (sl.lo, sl.hi) == pytest.approx((lo * sl.scale, hi * sl.scale)), path


@pytest.mark.parametrize("path", ["cluster.gpus_per_node", "topology.oversubscription", "economics.years",
                                  "fabric.link_gbps"])
def test_each_slider_writes_its_own_field(window, path):
    sl = _slider(window, path)
    sl.step_by(3)
    settle(window)
    s = window.controller.scenario
    got = s.get(f"fabric.custom.{s.fabric.focus_fabric}.link_gbps") if path.startswith("fabric.") else s.get(path)
    assert got == pytest.approx(sl.value())
    assert window.session.state.is_edited(path if not path.startswith("fabric.")
                                          else f"fabric.custom.{s.fabric.focus_fabric}.link_gbps")
