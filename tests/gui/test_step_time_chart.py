"""The step-time chart at this point: its totals read as a person writes seconds."""

from __future__ import annotations

import numpy as np

from guihelpers import settle


def test_a_stalled_fabric_s_step_reads_in_grouped_whole_seconds(window):
    """Case 3 on the article's figures: at 0.75 % loss TCP's window and tail-loss probes stretch each step to
    hours; the bar's total is grouped ("58,201 s", not "58200.86 s") and is the engine's step time."""
    assert window.load_preset("assets/presets/case3_centre_128xH100_1T.toml")
    settle(window)
    rows = dict(part.split(": ") for part in window.breakdown.grab_text().split("; "))
    steps = np.atleast_1d(window.controller.snapshot.point.data["step_time_s"])
    shown = {k: float(v.removesuffix(" s").replace(",", "")) for k, v in rows.items()}
    assert any("," in v and "." not in v for v in rows.values()), rows  # the stalled fabric
    assert max(shown.values()) > 1e4
    np.testing.assert_allclose(sorted(shown.values()), sorted(steps), rtol=1e-2)
