"""The chosen plans' values that the evaluation reads from the plan search's rows (rather than recomputing them
for the winners) are those the plan's own expressions give, bit for bit; where no plan fits, the outputs do not
read them."""

import numpy as np
import pytest

import model
from model import engine, network, plan_fit, plan_search

SEARCH_KEYS = ("replicas_d", "replicas_m", "memory_bytes")


def _searched(s, field, values):
    engine.clear_plan_cache()
    inp = engine.build_inputs(s, field, values)
    net, bandwidths = network.network_for(inp)
    plan, plan_side, any_valid, _ = plan_search.search_plans(s, inp, bandwidths[2], network.inter_step_latency_s(net),
                                                             net)
    return inp, plan, plan_side, any_valid


@pytest.mark.parametrize("preset,field,values", [
    ("default", "workload.params_b", np.geomspace(1, 1000, 256)),
    ("default", "cluster.nodes", np.unique(np.round(np.geomspace(1, 512, 64)))),
    ("default", "fabric.latency_us", np.geomspace(0.5, 1000, 64)),
    ("tier_small", "workload.params_b", np.geomspace(0.5, 200, 128)),
])
def test_the_chosen_plans_values_from_the_search_are_those_of_the_plan(preset, field, values):
    """The evaluation of the searched plans with what the search gives for them equals the evaluation that
    computes every value from the plan arrays (the placeholder plan's where none fits); the memory where a plan
    fits (the outputs mask it elsewhere)."""
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    inp, plan, plan_side, any_valid = _searched(s, field, values)
    assert all(k in plan_side for k in SEARCH_KEYS) and any_valid.any()  # the search's values are used
    fast = engine.plan_quantities(s, inp, plan, plan_side, judge=False)
    # the plan with its replicas (fewer than its most where that was faster), everything else recomputed
    direct = engine.plan_quantities(s, inp, dict(plan, dp=np.where(any_valid, plan_side["replicas_d"], np.nan)),
                                    {k: x for k, x in plan_side.items() if k not in SEARCH_KEYS}, judge=False)
    assert fast.terms.keys() == direct.terms.keys()
    degrees = ("tp", "pp", "micro_batch", "virtual_stages")
    for k, x in [*((k, (fast.terms[k], direct.terms[k])) for k in fast.terms),
                 *((k, (getattr(fast, k), getattr(direct, k))) for k in degrees)]:
        a, b = (np.broadcast_to(y, any_valid.shape) for y in x)
        np.testing.assert_array_equal(a, b, err_msg=k)
    np.testing.assert_array_equal(fast.memory_bytes[any_valid], direct.memory_bytes[any_valid])


def test_where_no_plan_fits_the_outputs_do_not_read_the_searched_values(monkeypatch):
    """Where no plan fits (the largest models), the search's memory there is some row's: made unlike any plan's,
    every output of the sweep stays the same, bit for bit."""
    s = model.load_scenario("assets/presets/default.toml")
    values = np.geomspace(1, 1e5, 32)
    inp, plan, plan_side, any_valid = _searched(s, "workload.params_b", values)
    assert any_valid.any() and not any_valid.all()
    engine.clear_plan_cache()
    before = dict(model.sweep(s, "workload.params_b", values).arrays())
    search = plan_search.search_plans

    def garbled_search(*args):
        plan, plan_side, any_valid, has_degrees = search(*args)
        return plan, dict(plan_side, memory_bytes=np.where(any_valid, plan_side["memory_bytes"], -7.0)), \
            any_valid, has_degrees
    monkeypatch.setattr(engine, "search_plans", garbled_search)
    engine.clear_plan_cache()
    after = dict(model.sweep(s, "workload.params_b", values).arrays())
    assert before.keys() == after.keys()
    for k in before:
        assert before[k].tobytes() == after[k].tobytes(), k


@pytest.mark.parametrize("field,values", [
    ("workload.params_b", np.geomspace(1, 1e5, 32)),
    ("cluster.nodes", np.unique(np.round(np.geomspace(1, 512, 64)))),
])
def test_where_no_plan_fits_the_replicas_are_the_placeholder_plans(field, values):
    """Where no plan fits, the chosen plans' replicas are :func:`data_parallel_replicas` of the placeholder plan
    (every degree and the micro-batch 1) at each point, whatever the rows hold."""
    s = model.load_scenario("assets/presets/default.toml")
    engine.clear_plan_cache()
    inp = engine.build_inputs(s, field, values)
    pairs = plan_search.plan_pairs(s, inp.point)
    garbled = pairs._replace(replicas=tuple(np.full_like(x, -7.0) for x in pairs.replicas))
    shape = (2, values.size)
    none_fits = np.zeros(shape, dtype=bool)
    side = plan_search.search.chosen_plan(garbled, np.zeros(shape, dtype=int), shape, none_fits)[1]
    one = np.ones((1, 1))
    with np.errstate(divide="ignore"):
        d, m = plan_fit.data_parallel_replicas(inp.point, one, one, one, True, one)
    np.testing.assert_array_equal(side["replicas_d"], np.broadcast_to(d, shape))
    np.testing.assert_array_equal(side["replicas_m"], np.broadcast_to(m, shape))
