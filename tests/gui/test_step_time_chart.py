"""The step-time chart at this point: its totals read as a person writes seconds."""

from __future__ import annotations

import numpy as np

from guihelpers import settle


def test_a_stalled_fabric_s_step_reads_as_its_cause_and_the_others_as_the_engine_s(window):
    """Case 3 on the article's figures: TCP's loss recovery stretches each step to more than ten times
    InfiniBand's, past the plausibility bound: its bar is clipped and reads "stalls — TCP loss recovery"; the others are the engine's
    step times."""
    assert window.load_preset("assets/presets/case3_centre_128xH100_1T.toml")
    settle(window)
    rows = dict(part.split(": ", 1) for part in window.breakdown.grab_text().split("; "))
    point = window.controller.snapshot.point
    steps = dict(zip(window.breakdown.labels, np.atleast_1d(point.throughput.step_time_s)))
    assert rows["Ethernet"].startswith("stalls — ") and steps["Ethernet"] > 10.0 * steps["InfiniBand"]
    shown = {k: float(v.removesuffix(" s").replace(",", "")) for k, v in rows.items() if not v.startswith("stalls")}
    np.testing.assert_allclose([shown[k] for k in shown], [steps[k] for k in shown], rtol=1e-2)
