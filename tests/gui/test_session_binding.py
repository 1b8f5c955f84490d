"""The window follows its session: one change notification per change (a batch of changes is one), and
the views draw it once."""

from __future__ import annotations

import numpy as np

from gui.window.controller import sweep_values

from guihelpers import settle


def test_a_batched_change_of_two_fields_is_one_notification_and_one_redraw(window, qtbot, monkeypatch):
    win = window
    settle(win)
    tco = win.charts["tco"]
    tco.draws_only_when_shown = False  # draw it at once, like the stacked charts (it sits in a hidden tab)
    heard, drawn = [], []
    win.session.changed.connect(heard.append)
    show = tco.show_view
    monkeypatch.setattr(tco, "show_view", lambda *a, **k: (drawn.append(a[0]), show(*a, **k))[1])
    state = win.session.state
    with state.batch():
        state.tco_baseline = "infiniband"
        state.x_field = "workload.params_b"
    assert heard == [frozenset({"tco_baseline", "x_field"})]
    qtbot.waitUntil(lambda: not win.controller.pending, timeout=5000)
    assert len(drawn) == 1, "one redraw for one change"
    # the redraw is the new one: the TCO against InfiniBand, along the model size
    data = tco.series
    assert data.baseline == "infiniband" and drawn[0].overlays.tco_baseline == "infiniband"
    np.testing.assert_allclose(data.x, sweep_values(win.controller.scenario, "workload.params_b"))


def test_a_view_bound_to_one_field_hears_only_its_changes(window, qtbot):
    win = window
    calls = []
    win.session.on({"pin", "pinned_at"}, lambda: calls.append(win.session.state.pinned_at))
    state = win.session.state
    state.update(pin=win.controller.snapshot, pinned_at="10:30")  # two fields, one change: heard once
    state.bands_on = not state.bands_on  # another field: not heard
    assert calls == ["10:30"]
