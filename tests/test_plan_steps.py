"""Plan steps along a sweep (gui.present.steps, no Qt) and the sweep's x-range around the scenario."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import model
from gui.present.steps import plan_at, plan_fit, plan_steps
from model import presets


def _sweep(preset: str, nodes):
    s = model.load_scenario(presets.preset_path(preset))
    return model.sweep(s, "cluster.nodes", np.asarray(nodes, dtype=float))


def test_a_plan_change_is_found_where_the_plan_differs():
    res = _sweep("case2", np.arange(1, 41))
    steps = plan_steps(res)
    for f in range(len(res.fabrics)):
        for i in range(1, 40):
            a, b = plan_at(res, f, i - 1), plan_at(res, f, i)
            differs = a is not None and b is not None and any(getattr(a, k) != getattr(b, k) for k in
                                                             ("tp", "pp", "micro_batch", "virtual_stages"))
            assert bool(steps["changed"][f, i]) == differs, (res.fabrics[f], i + 1)
    assert not steps["changed"][:, 0].any()


def test_a_batch_that_does_not_split_leaves_gpus_idle_and_draws_no_step():
    """Case 2 with 1,024 sequences: iWARP's plan of 16 GPUs a replica runs 4 replicas on 8 nodes; 1,024 does not
    split over 5-7 of them, so up to 15 nodes the plan keeps 4 and the extra GPUs idle (the batch is the user's):
    the curve is flat there, not a step."""
    s = presets.load_preset("case2").replace("workload.global_batch", 1024)
    res = model.sweep(s, "cluster.nodes", np.array([8.0, 9.0, 12.0, 15.0, 16.0]))
    steps = plan_steps(res)
    iw = res.fabrics.index("iwarp")
    assert [plan_at(res, iw, i).dp for i in range(5)] == [4, 4, 4, 4, 8]
    assert not steps["changed"][iw, 1:4].any()
    assert plan_fit(res, 1, plan_at(res, iw, 0)).idle == 8


def test_a_plan_change_forced_by_idle_gpus_is_a_whole_number_step():
    """1,000 sequences: InfiniBand's 2-node plan, 4 replicas of TP 2 · PP 2, moved to 3 nodes (24 GPUs), could
    only grow to 5 replicas (6 do not divide the batch) and leave 4 GPUs idle, so the engine takes another plan
    there: bookkeeping, not physics."""
    s = presets.load_preset("case2").replace("workload.global_batch", 1000)
    res = model.sweep(s, "cluster.nodes", [2, 3])
    steps = plan_steps(res)
    ib = res.fabrics.index("infiniband")
    before = plan_at(res, ib, 0)
    assert steps["changed"][ib, 1] and steps["whole_number"][ib, 1]
    assert plan_fit(res, 0, before).idle == 0 and plan_fit(res, 1, before).idle == 4


def test_no_step_is_whole_number_where_every_gpu_and_the_batch_divide():
    """Powers of two: 2^k nodes × 8 GPUs and a batch of 1,024 always divide, so no step is bookkeeping of the
    divisibility rule. (A plan that changes at one point and back at the next is marked as a blip whatever its
    cause: here InfiniBand's larger micro-batch fits at 16 nodes only, its memory estimate near the limit.)"""
    res = _sweep("case2", [4, 8, 16, 32, 64])
    steps = plan_steps(res)
    ch = steps["changed"]
    blip = np.zeros_like(ch)
    blip[:, 1:-1] = ch[:, 1:-1] & ch[:, 2:]
    blip[:, 2:] |= blip[:, 1:-1]
    assert not (steps["whole_number"] & ~blip).any()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 300), min_size=2, max_size=12, unique=True))
def test_whole_number_steps_are_plan_changes(nodes):
    res = _sweep("small", sorted(nodes))
    steps = plan_steps(res)
    assert steps["changed"].shape == steps["whole_number"].shape == (len(res.fabrics), len(nodes))
    assert not (steps["whole_number"] & ~steps["changed"]).any()


@pytest.mark.parametrize("preset", presets.preset_names())
def test_the_sweep_is_around_the_current_point(preset):
    from gui.window.controller import X_DECADES_AROUND, X_FIELDS, sweep_values

    s = model.load_scenario(presets.preset_path(preset))
    for field in X_FIELDS:
        v = sweep_values(s, field)
        cur = np.array([float(s.get(field))]) if not field.startswith("fabric.") else None
        if cur is None:
            from gui.window.controller import current_x_values

            cur = current_x_values(s, field)
            cur = cur[cur > 0]
        lo, hi = math.log10(v.min()), math.log10(v.max())
        for c in np.log10(cur):
            assert lo <= c <= hi, (field, 10 ** c)
        # the current values' own spread, a decade or two either side, each end rounded to a power of ten
        spread = float(np.log10(cur.max() / cur.min()))
        assert hi - lo <= spread + 2 * X_DECADES_AROUND[field] + 2 + 1e-9, (field, v.min(), v.max())
    nodes = sweep_values(s, "cluster.nodes")
    n = s.cluster.nodes
    assert nodes.max() <= max(100 * n, 1000) and nodes.min() >= n / 100
