"""The window's bands and A/B pin reach the exporters through gui.export.charts.window_overlays."""

from __future__ import annotations

import csv

from guihelpers import settle

from gui.export import charts as export

from gui.export import proposal
def _head(path) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return next(csv.reader(fh))


def test_nothing_extra_by_default(window):
    snap = window.controller.snapshot
    assert export.window_overlays(window, snap) == {"bands": None, "pinned": None, "baseline": None}


def test_bands_shown_in_the_window_go_to_the_export(window, tmp_path):
    f = window.features
    f.bands_action.setChecked(True)
    assert f.bands.wait()
    snap = window.controller.snapshot
    extra = export.window_overlays(window, snap)
    assert extra["bands"] is f.bands.bands and extra["pinned"] is None
    head = _head(export.export_chart(snap, "duration", tmp_path / "d.csv", **extra))
    assert sum("[P50]" in h for h in head) == len(snap.sweep.fabrics)
    # a change the bands have not caught up with: they are hidden in the window, so not exported
    window.controller.set_value("cluster.nodes", 40)
    settle(window)
    assert export.window_overlays(window, window.controller.snapshot)["bands"] is None
    f.bands_action.setChecked(False)
    assert export.window_overlays(window, window.controller.snapshot)["bands"] is None


def test_pinned_a_goes_to_the_export_along_the_current_axis(window, tmp_path):
    f = window.features
    name_a = window.controller.scenario.name
    f.pin()
    window.controller.set_value("workload.params_b", 60.0)
    settle(window)
    f.settle_now()
    snap = window.controller.snapshot
    extra = export.window_overlays(window, snap)
    assert extra["pinned"] is f.pin_a and extra["bands"] is None
    head = _head(export.export_chart(snap, "utilisation", tmp_path / "u.csv", **extra))
    assert sum(h.startswith("InfiniBand [A: " + name_a) for h in head) == 1
    out = proposal.write_proposal(snap, tmp_path / "ab.pdf", **extra)
    assert out.stat().st_size > 0
    window.controller.set_x_field("fabric.latency_us")
    settle(window)
    snap = window.controller.snapshot
    a = export.window_overlays(window, snap)["pinned"]
    assert a.x_field == "fabric.latency_us" and a.scenario == f.pin_a.scenario
    head = _head(export.export_chart(snap, "tco", tmp_path / "t.csv", **export.window_overlays(window, snap)))
    assert head[0].startswith("Latency") and sum("[A: " in h for h in head) == len(snap.sweep.fabrics)
    f.unpin()
    assert export.window_overlays(window, snap)["pinned"] is None


def test_file_menu_exports_carry_the_window_overlays(window, tmp_path):
    """What File ▸ Export writes (gui/window/file_actions.py) holds the bands and the pin the window shows."""
    f = window.features
    files = window.file_actions
    f.pin()
    window.controller.set_value("workload.params_b", 60.0)
    settle(window)
    f.settle_now()
    f.bands_action.setChecked(True)
    assert f.bands.wait()
    assert files.export_chart_to("duration", tmp_path / "d.csv")
    head = _head(tmp_path / "d.csv")
    assert sum("[P90]" in h for h in head) == len(window.controller.snapshot.sweep.fabrics)
    assert any("[A: " in h for h in head)
    assert files.export_proposal_to(tmp_path / "p.pdf")
    assert (tmp_path / "p.pdf").stat().st_size > 0
