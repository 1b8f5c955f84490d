"""The cost per training run along the x-axis: the number that makes the case when the TCO says the
opposite. With latency on the x-axis a slower network idles the GPUs (less energy, a lower TCO) while
every run takes longer and so costs more."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest

import model
from gui.cli.main import main
from gui.present import format as fm
from gui.present.series import CHART_KINDS, chart_series, format_value, point_values
from gui.present.sweep import compute_snapshot
from model.results import fabric_summaries



def _preset(stem):
    return next((Path(__file__).resolve().parents[1] / "assets" / "presets").glob(f"{stem}*.toml"))


@pytest.fixture(scope="module")
def latency_sweep():
    return compute_snapshot(model.load_scenario(_preset("default")), "fabric.latency_us")


def test_cost_per_run_is_a_chart_kind():
    assert "cost_per_run" in CHART_KINDS


def test_along_latency_the_tco_falls_while_the_cost_per_run_rises(latency_sweep):
    r = latency_sweep.sweep
    roce = list(r.fabrics).index("roce")
    run = chart_series(r, "cost_per_run")
    y = run.series[roce].y
    ok = np.flatnonzero(np.isfinite(y))
    tco = np.asarray(chart_series(r, "tco").tco[roce], dtype=float)
    assert tco[ok[-1]] < tco[ok[0]]  # the TCO says a slow network is cheaper
    assert y[ok[-1]] > 1.5 * y[ok[0]]  # each run costs half as much again
    assert run.currency == "CNY" and "CNY" in run.y_label


def test_the_point_value_is_the_typed_summary(latency_sweep):
    pt = latency_sweep.point
    got = point_values(pt, "cost_per_run")
    np.testing.assert_array_equal(got, [f.cost_per_run for f in fabric_summaries(pt)])


def test_money_reads_in_the_language_format():
    assert format_value("cost_per_run", 1_460_000, "CNY") == "¥1.460 M"
    fm.set_language("zh_CN")
    try:
        assert format_value("cost_per_run", 1_460_000, "CNY") == "¥146.0 万"
    finally:
        fm.set_language("en")


def test_the_command_line_exports_it(tmp_path, capsys):
    out = tmp_path / "run.csv"
    assert main(["export", str(_preset("default")), "--chart", "cost_per_run", "--x", "fabric.latency_us",
                 "--out", str(out)]) == 0
    head = next(csv.reader(x for x in io.StringIO(out.read_text(encoding="utf-8")) if not x.startswith("#")))
    assert head[0] == "Latency (µs)"
    assert sum(h.endswith(": Cost per run (CNY)") for h in head) == 4, head  # one per fabric
