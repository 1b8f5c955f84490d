"""The step-time chart at this point: its totals read as a person writes seconds."""

from __future__ import annotations

from guihelpers import settle


def test_a_stalled_fabric_s_step_reads_in_grouped_whole_seconds(window):
    """Case 3 on the article's figures: TCP's loss recovery stalls each step for days of seconds; the bar's
    total is grouped ("570,728 s"), a normal step keeps its decimals."""
    assert window.load_preset("assets/presets/case3_centre_128xH100_1T.toml")
    settle(window)
    text = window.breakdown.grab_text()
    rows = dict(part.split(": ") for part in text.split("; "))
    assert any("," in v and "." not in v for v in rows.values()), rows  # the stalled fabric
    assert any(float(v.removesuffix(" s").replace(",", "")) < 1000 and "." in v for v in rows.values()), rows
