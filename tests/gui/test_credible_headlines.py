"""Every preset, on both profile sets and in both languages, on a 1366 × 768 laptop: no figure past the
plausibility bound is shown without its "stalls" label (the table, the recommendation's headline, the
proposal's text), and no headline prints "−100 %" or a TCO rise without the same-work figure beside it."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from guihelpers import settle

from gui import i18n
from gui.present import plausibility
from gui.present.format import fmt_money
from model import catalog, presets

LAPTOP = QtCore.QSize(1366, 768)
PRESET_FILES = sorted(presets.PRESETS_DIR.glob("*.toml"))
STALL_WORDS = ("stalls", "停滞")
SAME_WORK = ("per training run", "每次训练")
TCO_RISE = ("higher than with", "TCO 比")


@pytest.fixture(params=["en", "zh_CN"])
def laptop_window(window, request):
    i18n.switch_language(window, request.param)
    window.resize(LAPTOP)
    settle(window)
    yield window
    i18n.switch_language(window, "en")


def _figures(days: float) -> tuple[str, ...]:
    """How a run's days could be written: a table's one decimal, a sentence's grouping."""
    return (f"{days:,.1f}", f"{days:,.0f}") if days >= 1000 else (f"{days:,.1f}",)


def _check_headline(text: str, stalled_days: list[float], stalled_money: list[str] = ()) -> None:
    assert "−100 %" not in text and "-100 %" not in text, text
    for d in stalled_days:
        assert not any(f in text for f in _figures(d)), (d, text)
    for m in stalled_money:  # a stalled fabric's cost per run is no forecast either
        assert m not in text, (m, text)
    for sentence in text.replace("；", "; ").split("; "):
        if any(w in sentence for w in TCO_RISE) and ("higher" in sentence or "高" in sentence):
            assert any(w in text.split(sentence)[0] for w in SAME_WORK), text  # the same work said first


@pytest.mark.parametrize("profile_set", catalog.PROFILE_SETS)
def test_no_figure_past_the_bound_without_its_stall_label(laptop_window, profile_set):
    from gui.export import proposal
    win = laptop_window
    seen_stall = False
    for path in PRESET_FILES:
        assert win.load_preset(path), path
        settle(win)
        win.controller.set_profile_set(profile_set)
        settle(win)
        snap = win.controller.snapshot
        point = snap.point
        stalls = plausibility.point_stalls(point)
        days = np.asarray(point.reliability.train_days_with_interruptions, dtype=float).reshape(-1)
        stalled_days = [float(days[point.fabric_index(f)]) for f in stalls]
        seen_stall |= bool(stalls)
        per_run = np.asarray(point.money.cost_per_run, dtype=float).reshape(-1)
        cur = str(np.asarray(point.money.currency).reshape(-1)[0])
        stalled_money = [fmt_money(per_run[point.fabric_index(f)], cur, digits=d) for f in stalls for d in (3, 4)]
        for row, fabric in enumerate(point.fabrics):
            cells = [win.table.cell_text(row, key) for key in ("mfu", "days", "interruptions", "cost_per_run")]
            if fabric in stalls:
                assert any(w in cells[0] for w in STALL_WORDS), (path.name, fabric, cells)
                assert not any(f in c for c in cells for f in _figures(days[row])), (path.name, cells)
            elif np.isfinite(days[row]):  # a figure shown as a forecast is within the bound
                assert days[row] <= plausibility.MAX_RUN_DAYS and not any(w in cells[0] for w in STALL_WORDS)
        _check_headline(win.recommendation.takeaway, stalled_days, stalled_money)
        _check_headline(win.recommendation.summary.text(), stalled_days, stalled_money)
        c = proposal.proposal_content(snap)
        _check_headline(c.takeaway, stalled_days, stalled_money)
        for row in c.fabrics:
            if row["fabric"] in stalls:
                assert any(w in row["stall"] for w in STALL_WORDS)
        if stalls:
            assert any(w in win.cost_chart.grab_text() for w in STALL_WORDS)
            assert "−100" not in win.cost_chart.grab_text()
    assert seen_stall  # the walk met a fabric that stalls (else it proves nothing)
