"""Typed per-fabric results: the engine's own numbers under fixed names, types and units."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest

import model
from model.results import FabricReport, FabricSummary, ParallelPlan, fabric_reports, fabric_summaries

PRESETS = sorted((Path(__file__).resolve().parents[1] / "assets" / "presets").glob("*.toml"))


def _same(a: float, b) -> bool:
    b = float(b)
    return (math.isnan(a) and math.isnan(b)) or a == b  # the same float, not a close one


@pytest.mark.parametrize("preset", PRESETS, ids=[p.stem for p in PRESETS])
def test_summaries_carry_the_engines_numbers_bit_for_bit(preset):
    point = model.evaluate(model.load_scenario(preset), require_feasible=False)
    rows = fabric_summaries(point)
    assert [r.fabric for r in rows] == list(point.fabrics)
    for i, r in enumerate(rows):
        d = point.at(r.fabric)
        for name in ("step_time_s", "mfu", "tokens_per_s", "train_days", "train_days_with_interruptions",
                     "goodput", "memory_per_gpu_gb", "capex", "opex_per_year", "tco", "cost_per_run"):
            assert _same(getattr(r, name), d[name]), (r.fabric, name)
        assert _same(r.effective_node_gbps, d["node_bandwidth_gbps"]["effective"])
        assert r.feasible == bool(d["feasible"])
        assert set(r.step_breakdown_s) == set(model.BREAKDOWN_KEYS)
        if r.feasible:
            assert r.plan.tp * r.plan.pp * r.plan.dp * r.plan.cp == r.plan.gpus_used  # experts share the DP ranks
            assert 0 < r.mfu <= 1 and 0 < r.goodput <= 1 and r.train_days_with_interruptions >= r.train_days > 0
            assert all(v >= 0 for v in r.step_breakdown_s.values()) and r.tco > r.capex > 0
        else:
            assert r.plan is None and math.isnan(r.train_days)


def test_no_plan_fits_reads_as_nan_and_null_in_json():
    s = model.load_scenario(PRESETS[0]).replace("cluster.nodes", 1).replace("workload.params_b", 1900.0)
    rows = fabric_summaries(model.evaluate(s, require_feasible=False))
    assert not any(r.feasible for r in rows)
    j = rows[0].to_json()
    assert j["plan"] is None and j["tco"] is None and j["train_days"] is None
    json.dumps(j, allow_nan=False)


def test_frozen_and_json_round_trip():
    point = model.evaluate(model.load_scenario(PRESETS[0]), require_feasible=False)
    row = next(r for r in fabric_summaries(point) if r.feasible)
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.tco = 0.0
    with pytest.raises(TypeError):
        row.step_breakdown_s["compute"] = 0.0
    back = json.loads(json.dumps(row.to_json(), allow_nan=False))
    assert back["fabric"] == row.fabric and back["plan"]["dp"] == row.plan.dp and back["tco"] == row.tco


@pytest.mark.parametrize("cls", [FabricSummary, FabricReport, ParallelPlan], ids=lambda c: c.__name__)
def test_every_field_has_a_unit_or_meaning_in_the_docstring(cls):
    doc = cls.__doc__
    for f in dataclasses.fields(cls):
        assert f"        {f.name}:" in doc, f.name


@pytest.mark.parametrize("preset", PRESETS, ids=[p.stem for p in PRESETS])
def test_the_plan_reads_as_the_engine_writes_it_and_the_capex_parts_add_up(preset):
    point = model.evaluate(model.load_scenario(preset), require_feasible=False)
    for r in fabric_summaries(point):
        d = point.at(r.fabric)
        if r.plan is not None:
            assert r.plan.describe() == model.describe_plan(d["plan"])
        assert _same(r.interruptions, d["interruptions"])
        assert r.capex_servers + r.capex_network == pytest.approx(r.capex, rel=1e-12)


def test_the_report_is_the_command_lines_record_with_every_engine_figure():
    point = model.evaluate(model.load_scenario(PRESETS[0]), require_feasible=False)
    reports = fabric_reports(point)
    assert [r.label for r in reports] == list(point.labels)
    for name, r in zip(point.fabrics, reports):
        d = point.at(name)
        j = json.loads(json.dumps(r.to_json(), allow_nan=False))
        assert list(j) == [f.name for f in dataclasses.fields(FabricReport)]  # the schema's order
        assert j["tco"] == float(d["tco"]) and j["breakdown_s"]["compute"] == float(d["breakdown_s"]["compute"])
        assert j["plan"]["recompute"] in ("none", "selective", "full") and isinstance(j["plan"]["tp"], int)
        with pytest.raises(TypeError):
            r.capex_parts["network"] = 0.0  # frozen all the way down


def test_a_sweep_is_refused():
    s = model.load_scenario(PRESETS[0])
    with pytest.raises(ValueError, match="sweep"):
        fabric_summaries(model.sweep(s, "cluster.nodes", np.array([2.0, 4.0])))
