"""The controller's fused call (sweep plus the current point in one engine call) gives
exactly what the separate ``model.sweep`` and ``model.evaluate`` calls give."""

from pathlib import Path

import numpy as np
import pytest

import model
from gui.present.sweep import point_of
from gui.window.controller import X_FIELDS, Controller, split_point, sweep_values

PRESETS = sorted(Path(__file__).resolve().parents[2].joinpath("assets", "presets").glob("*.toml"))


def _same(a, b, where):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, where
    if a.dtype.kind in "fc":
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=0, equal_nan=True, err_msg=where)
    else:
        assert np.array_equal(a, b), where


VARIANTS = {
    "as is": {},
    "explicit plan": {"parallel.mode": "explicit", "parallel.tp": 8, "parallel.pp": 1, "workload.global_batch": 1152},
    "edited fabric": {"fabric.custom.roce.loss_rate": 1e-3, "fabric.custom.ethernet.latency_us": 40.0},
    "published, USD": {"fabric.profile_set": "published", "economics.currency": "USD"},
}


CASES = [(p, v) for p in PRESETS for v in VARIANTS if v != "explicit plan" or p.stem == "default"]


@pytest.mark.parametrize(("preset", "variant"), CASES, ids=lambda c: getattr(c, "stem", c))
@pytest.mark.parametrize("field", [f for f in X_FIELDS if not f.startswith("fabric.")])
def test_split_point_equals_separate_calls(preset, variant, field):
    s = model.load_scenario(preset).replace_many(VARIANTS[variant])
    values = sweep_values(s, field)
    sw, pt = split_point(model.sweep(s, field, np.append(values, float(s.get(field)))))
    ref_sw = model.sweep(s, field, values)
    ref_pt = model.evaluate(s, require_feasible=False)
    assert sw.fabrics == ref_pt.fabrics and pt.field is None and pt.x is None
    np.testing.assert_array_equal(sw.x, ref_sw.x)
    ref = dict(ref_pt.arrays())
    got = dict(pt.arrays())
    assert got.keys() == ref.keys()
    for k in ref:
        _same(got[k], ref[k], f"point {k}")
    ref = dict(ref_sw.arrays())
    got = dict(sw.arrays())
    assert got.keys() == ref.keys()
    for k in ref:
        _same(got[k], ref[k], f"sweep {k}")


def test_controller_uses_one_call_for_a_new_scenario(qapp, monkeypatch):
    c = Controller(model.load_scenario(next(p for p in PRESETS if p.stem == "default")))
    calls = []
    real_sweep, real_eval = model.sweep, model.evaluate
    monkeypatch.setattr(model, "sweep", lambda *a, **k: calls.append("sweep") or real_sweep(*a, **k))
    monkeypatch.setattr(model, "evaluate", lambda *a, **k: calls.append("evaluate") or real_eval(*a, **k))
    snap = c.compute()
    assert calls == ["sweep"]
    assert snap.point.field is None and len(snap.sweep.x) == len(sweep_values(c.scenario, c.x_field))
    # the x-axis field's own slider: the sweep is cached; a value it holds is read from it, another evaluated
    n0 = c.scenario.cluster.nodes
    same_grid = [n for n in range(1, 5000) if n != n0 and np.array_equal(
        sweep_values(c.scenario.replace("cluster.nodes", n), c.x_field), snap.sweep.x)]
    held = next(n for n in same_grid if n in snap.sweep.x)
    missing = next(n for n in same_grid if n not in snap.sweep.x)
    calls.clear()
    read = c.compute(c.scenario.replace("cluster.nodes", held))
    assert calls == []
    assert not read.cached  # a new point: the views draw it
    c.compute(c.scenario.replace("cluster.nodes", missing))
    assert calls == ["evaluate"]


@pytest.mark.parametrize("preset", [p for p in PRESETS if p.stem in ("default", "case3_centre_128xH100_1T",
                                                                     "moe_mixtral_8x22b")], ids=lambda p: p.stem)
def test_a_point_read_from_the_sweep_equals_its_evaluation(preset):
    s = model.load_scenario(preset)
    values = sweep_values(s, "cluster.nodes")
    sw = model.sweep(s, "cluster.nodes", values)
    for i in (3, values.size // 2, values.size - 1):
        got = dict(point_of(sw, i).arrays())
        ref = dict(model.evaluate(s.replace("cluster.nodes", int(values[i])), require_feasible=False).arrays())
        assert got.keys() == ref.keys()
        for k in ref:
            _same(got[k], ref[k], f"point {i} {k}")


def test_status_bar_says_when_a_result_came_from_the_cache(window):
    from guihelpers import settle

    c = window.controller
    n0 = c.scenario.cluster.nodes
    c.set_value("cluster.nodes", n0 + 3)
    settle(window)
    assert "ms" in window.timing_label.text() and "cached" not in window.timing_label.text()
    c.set_value("cluster.nodes", n0)  # back: the sweep and the point are both in the cache
    settle(window)
    assert window.timing_label.text() == "engine: cached result"
