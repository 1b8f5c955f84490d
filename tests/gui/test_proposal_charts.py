"""The proposal sheet's small charts: tick labels that never run into each other, no note inside a plot
(the sheet's legend line explains blanks, rings and dotted curves once), captions that fit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6 import QtGui

import model
import pdfread
from gui.export import proposal
from gui.export.charts import snapshot_for
from gui.present.series import CHART_KINDS

from guihelpers import axis_text_specs

PRESETS = sorted((Path(__file__).resolve().parents[2] / "assets" / "presets").glob("*.toml"))
A4_WIDTH_PX = QtGui.QPageSize(QtGui.QPageSize.PageSizeId.A4).sizePixels(96).width()


def _snap(stem):
    return snapshot_for(model.load_scenario(next(p for p in PRESETS if p.stem == stem)))


def _overlapping(rects) -> list:
    return [(a, b) for i, a in enumerate(rects) for b in rects[i + 1:] if a.intersects(b)]


@pytest.mark.parametrize("stem", ["tier_large", "case1_lab_8xA10_5B", "tier_small"])
def test_the_small_charts_tick_labels_never_touch(qapp, stem):
    snap = _snap(stem)
    width = proposal.small_chart_width(A4_WIDTH_PX - 2 * proposal.PAGE_MARGIN)
    assert width < 200  # four charts across the page: narrow enough to crowd the ticks
    for kind in CHART_KINDS:
        chart = proposal.small_chart(snap, kind, (int(width), 180))
        try:
            for side in ("bottom", "left"):
                rects = [r for r, text in axis_text_specs(chart.getPlotItem().getAxis(side)) if text]
                assert len(rects) >= 2, (kind, side)
                assert not _overlapping(rects), (stem, kind, side)
            axis = chart.getPlotItem().getAxis("left")  # the top label inside the chart, under the sheet's caption
            tops = [axis.mapRectToScene(r).top() for r, text in axis_text_specs(axis) if text]
            assert min(tops) >= 0, (stem, kind, min(tops))
        finally:
            chart.close()


def test_the_small_charts_carry_no_notes_in_their_plots(qapp):
    snap = _snap("tier_large")  # no plan fits below some 60 nodes: a blank the window's chart notes
    chart = proposal.small_chart(snap, "utilisation", (170, 180))
    try:
        assert chart.has_gap
        assert not chart.gap_note.isVisible() and not chart.step_note.isVisible()
    finally:
        chart.close()


def test_the_sheet_explains_the_idle_points_and_names_the_cost_per_run(qapp, tmp_path):
    out = tmp_path / "sheet.pdf"
    out.write_bytes(proposal.proposal_pdf(_snap("tier_small")))
    text = pdfread.text(out)
    assert "idle GPUs: batch does not divide" in text
    assert "Cost per training run" in text
    assert not re.search(r"\d,\d{3}\d", text)  # no tick label run into the next ("1,0002,000")


def test_the_sheet_names_its_guesses_as_people_say_them(qapp, tmp_path):
    """The assumptions name the values that are guesses by the controls' words ("Switch price"), never by
    the scenario keys ("switch_price_usd")."""
    out = tmp_path / "sheet.pdf"
    out.write_bytes(proposal.proposal_pdf(_snap("case2_autodriving_24xA100_30B")))
    text = pdfread.text(out)
    assert "Switch price" in text
    keys = re.findall(r"\b[a-z]+(?:_[a-z0-9]+)+\b", text)
    assert not keys, keys
