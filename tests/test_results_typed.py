"""Typed results: the engine's own numbers in frozen groups with units, one report per fabric at a point."""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
from pathlib import Path

import numpy as np
import pytest

import model
from model.results import ENGINE_PATHS, GROUPS, JSON_KEYS, FabricReport, FabricSummary, ParallelPlan, SweepResult, \
    fabric_reports, fabric_summaries

PRESETS = sorted((Path(__file__).resolve().parents[1] / "assets" / "presets").glob("*.toml"))


def _same(a: float, b) -> bool:
    b = float(b)
    return (math.isnan(a) and math.isnan(b)) or a == b  # the same float, not a close one


@pytest.mark.parametrize("preset", PRESETS, ids=[p.stem for p in PRESETS])
def test_summaries_and_reports_carry_the_engines_numbers_bit_for_bit(preset):
    point = model.evaluate(model.load_scenario(preset), require_feasible=False)
    assert isinstance(point, SweepResult)
    rows = fabric_summaries(point)
    assert [r.fabric for r in rows] == list(point.fabrics)
    for i, r in enumerate(rows):
        assert r.report == point.at(r.fabric) and isinstance(r.report, FabricReport)
        for name, read in (("step_time_s", point.throughput.step_time_s), ("mfu", point.throughput.mfu),
                           ("train_days_with_interruptions", point.reliability.train_days_with_interruptions),
                           ("memory_per_gpu_gb", point.plan.memory_per_gpu_gb), ("tco", point.money.tco),
                           ("cost_per_run", point.money.cost_per_run), ("goodput", point.reliability.goodput),
                           ("effective_node_gbps", point.network.effective_gbps)):
            assert _same(getattr(r, name), np.atleast_1d(read)[i]), (r.fabric, name)
        assert r.feasible == bool(np.atleast_1d(point.plan.feasible)[i])
        assert set(r.step_breakdown_s) == set(model.BREAKDOWN_KEYS)
        if r.feasible:
            assert r.plan.tp * r.plan.pp * r.plan.dp * r.plan.cp == r.plan.gpus_used  # experts share the DP ranks
            assert 0 < r.mfu <= 1 and 0 < r.goodput <= 1 and r.train_days_with_interruptions >= r.train_days > 0
            assert all(v >= 0 for v in r.step_breakdown_s.values()) and r.tco > r.capex > 0
            assert r.plan.describe() == model.describe_plan(r.report.plan)
        else:
            assert r.plan is None and math.isnan(r.train_days)
        assert r.capex_servers + r.capex_network == pytest.approx(r.capex, rel=1e-12)


def test_every_output_has_one_field_and_one_engine_name():
    """The groups' fields and the engine's outputs are one list: a result's arrays are the engine's, each under
    its engine name once, and the lean outputs leave fields None rather than inventing values."""
    s = model.load_scenario(PRESETS[0])
    res = model.sweep(s, "cluster.nodes", np.array([2.0, 4.0]))
    paths = [p for p, _ in res.arrays()]
    assert paths == ["/" + "/".join(p) for p, _, _ in ENGINE_PATHS] and len(set(paths)) == len(paths)
    assert sum(len(dataclasses.fields(c)) for c in GROUPS.values()) == len(ENGINE_PATHS)
    for _, a in res.arrays():
        assert a.shape == (len(res.fabrics), 2)
    assert res.metric("tco") is res.money.tco
    with pytest.raises(KeyError):
        res.metric("no_such_output")


@pytest.mark.parametrize("group", list(GROUPS.values()), ids=list(GROUPS))
def test_every_field_of_every_group_says_its_unit_or_meaning(group):
    """pvlib's style: each array field is commented where it is declared."""
    lines = inspect.getsource(group).splitlines()
    for f in dataclasses.fields(group):
        line = next(x for x in lines if x.strip().startswith(f"{f.name}:"))
        assert "# " in line and len(line.split("# ", 1)[1]) > 5, f.name


def test_no_plan_fits_reads_as_nan_and_null_in_json():
    s = model.load_scenario(PRESETS[0]).replace("cluster.nodes", 1).replace("workload.params_b", 1900.0)
    point = model.evaluate(s, require_feasible=False)
    rows = fabric_summaries(point)
    assert not any(r.feasible for r in rows)
    j = rows[0].to_json()
    assert j["plan"] is None and j["tco"] is None and j["train_days"] is None
    json.dumps(j, allow_nan=False)
    j = point.at(point.fabrics[0]).to_json()
    assert j["plan"]["tp"] is None and j["train_days"] is None
    json.dumps(j, allow_nan=False)


def test_frozen_all_the_way_down_and_json_round_trip():
    point = model.evaluate(model.load_scenario(PRESETS[0]), require_feasible=False)
    row = next(r for r in fabric_summaries(point) if r.feasible)
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.report.money.tco = 0.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.money = None
    with pytest.raises(TypeError):
        row.step_breakdown_s["compute"] = 0.0
    with pytest.raises(TypeError):
        row.report.inputs["link_gbps"] = 0.0
    back = json.loads(json.dumps(row.to_json(), allow_nan=False))
    assert back["fabric"] == row.fabric and back["plan"]["dp"] == row.plan.dp and back["tco"] == row.tco


@pytest.mark.parametrize("cls", [ParallelPlan, FabricReport, FabricSummary], ids=lambda c: c.__name__)
def test_every_field_has_a_unit_or_meaning_in_the_docstring(cls):
    doc = cls.__doc__
    for f in dataclasses.fields(cls):
        assert f"        {f.name}:" in doc, f.name


def test_the_report_is_the_command_lines_record_with_every_engine_figure():
    point = model.evaluate(model.load_scenario(PRESETS[0]), require_feasible=False)
    reports = fabric_reports(point)
    assert [r.label for r in reports] == list(point.labels)
    for i, r in enumerate(reports):
        j = json.loads(json.dumps(r.to_json(), allow_nan=False))
        assert tuple(j) == JSON_KEYS  # the schema's order
        assert j["tco"] == float(point.money.tco[i])
        assert j["breakdown_s"]["compute"] == float(point.breakdown.compute[i])
        assert list(j["breakdown_s"]) == list(model.BREAKDOWN_KEYS)
        assert j["capex_parts"] == {"servers": float(point.money.capex_servers[i]),
                                    "network": float(point.money.capex_network[i])}
        assert j["plan"]["recompute"] in ("none", "selective", "full") and isinstance(j["plan"]["tp"], int)


def test_a_sweep_is_refused():
    s = model.load_scenario(PRESETS[0])
    with pytest.raises(ValueError, match="sweep"):
        fabric_summaries(model.sweep(s, "cluster.nodes", np.array([2.0, 4.0])))


def test_every_fabrics_report_at_once_is_each_fabrics_own_report():
    """fabric_reports reads each output once for every fabric: the same values, of the same types, as
    SweepResult.at reads fabric by fabric."""
    import dataclasses

    import numpy as np

    from model.results import report

    point = model.evaluate(model.load_scenario("assets/presets/case3_centre_128xH100_1T.toml"))

    def same(x, y, where):
        for f in dataclasses.fields(x):
            u, v = getattr(x, f.name), getattr(y, f.name)
            if dataclasses.is_dataclass(u):
                same(u, v, f"{where}.{f.name}")
            else:
                assert type(u) is type(v), (where, f.name)
                assert np.array_equal(np.asarray(u), np.asarray(v), equal_nan=np.asarray(u).dtype.kind == "f") \
                    or u == v, (where, f.name)
    reports = report.fabric_reports.__wrapped__(point)
    assert [r.fabric for r in reports] == list(point.fabrics)
    for r in reports:
        same(r, point.at(r.fabric), r.fabric)
