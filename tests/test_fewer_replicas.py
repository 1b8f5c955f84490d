"""Fewer data-parallel replicas where that is faster: the plan search's second pass, and more nodes never slower on
an ideal network.

The ideal network: one non-blocking switch (no further tiers: at most as many nodes as its ports), lossless,
100 Tb/s per NIC, no fabric latency, no host-CPU limit."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import model
from model import engine, sweep
from model.plan_search import search as plan_search_module
from plan_brute_force import brute_force_plans  # tests/plan_brute_force.py
from test_more_nodes_keep_plans import _ideal, varied_scenario  # tests/test_more_nodes_keep_plans.py


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["default", "tier_small", "moe_mixtral_8x22b"]),
       st.sampled_from(["A100-SXM-80GB", "H100-SXM", "B200"]), st.sampled_from([1.0, 7.0, 30.0, 69.2]),
       st.sampled_from([1, 8, 16]), st.sampled_from([96, 1000, 1024, 1536]), st.sampled_from([2048, 8192]),
       st.integers(1, 1024), st.integers(1, 1024))
def test_on_an_ideal_network_more_nodes_never_make_a_run_slower(preset, gpu, params_b, experts, batch, seq_len, n1,
                                                                 n2):
    n1, n2 = sorted((n1, n2))
    s = varied_scenario(preset, gpu, params_b, experts, batch, seq_len)
    res = sweep(_ideal(s, {}), "cluster.nodes", np.array([float(n1), float(n2)]))
    assert np.all(np.asarray(res.network.switch_levels) == 1)  # the premise: one switch
    days, fits = np.asarray(res.throughput.train_days), np.asarray(res.plan.feasible)
    assert np.all(fits[:, 1] | ~fits[:, 0])  # a run that fits on fewer nodes fits on more
    ok = fits[:, 0]
    assert np.all(days[ok, 1] <= days[ok, 0] * (1.0 + 1e-12)), (days, res.plan.gpus_used)


def _example(experts):
    """Two reported examples: B200, a 69.2B model (16 experts, top-2, or dense), batch 1,000, on the default
    preset with a 100 Tb/s lossless fabric, layers split evenly over the stages as when they were reported."""
    s = model.load_scenario("assets/presets/default.toml")
    moe = {"workload.experts": 16, "workload.top_k": 2} if experts else {}
    return s.replace_many({**{f"fabric.custom.{n}.{k}": v for n in s.fabric.fabrics
                              for k, v in {"link_gbps": 100_000.0, "loss_rate": 0.0}.items()},
                           "cluster.gpu": "B200", "workload.params_b": 69.2, "workload.global_batch": 1000,
                           "parallel.uneven_stages": False, **moe})


@pytest.mark.parametrize("experts,nodes,days,used", [
    (True, (889.0, 1778.0), (3.5189, 3.5189), (6400, 6400)),  # 1,778 nodes keep the 200 replicas of 889 (days with the MoE terms, stragglers and NVLS's medium-size costs)
    (False, (66.0, 198.0), (5.1203, 2.7848), (400, 1280)),
])
def test_the_experts_and_dense_examples_are_not_slower_on_more_nodes(experts, nodes, days, used):
    res = sweep(_example(experts), "cluster.nodes", np.array(nodes))
    ib = res.fabric_index("infiniband")
    np.testing.assert_allclose(res.throughput.train_days[ib], days, rtol=1e-4)
    np.testing.assert_array_equal(res.plan.gpus_used[ib], used)
    gpus = np.array(nodes) * 8
    np.testing.assert_array_equal(res.plan.gpus_idle[ib], gpus - np.array(used))


def test_on_a_stalled_fabric_fewer_replicas_inside_a_node_are_faster(monkeypatch):
    """Traditional Ethernet (TCP) on the default preset: one node's worth of replicas, whose gradient reduction
    never leaves the node, trains faster than any plan on the most replicas; the other GPUs idle."""
    s = model.load_scenario("assets/presets/default.toml")
    x = np.array([8.0, 512.0])
    engine.clear_plan_cache()
    res = sweep(s, "cluster.nodes", x)
    eth = res.fabric_index("ethernet")
    assert np.all(res.plan.gpus_idle[eth] > 0)
    monkeypatch.setattr(plan_search_module, "fewer_replicas", lambda *args: None)
    engine.clear_plan_cache()
    most = sweep(s, "cluster.nodes", x)
    engine.clear_plan_cache()
    per_seq = res.throughput.step_time_s / res.plan.global_batch
    per_seq_most = most.throughput.step_time_s / most.plan.global_batch
    assert np.all(per_seq[eth] < per_seq_most[eth])
    assert np.all(res.plan.dp[eth] < most.plan.dp[eth])
    # the fast fabrics keep their plans on the most replicas
    ib = res.fabric_index("infiniband")
    np.testing.assert_array_equal(res.plan.dp[ib], most.plan.dp[ib])


@pytest.mark.parametrize("preset,field,x", [
    ("default", "cluster.nodes", np.array([3.0, 8.0, 24.0, 512.0])),
    ("default", "fabric.latency_us", np.geomspace(20.0, 1000.0, 4)),
    ("case2_autodriving_24xA100_30B", "workload.params_b", np.array([1.0, 7.0, 70.0])),
])
def test_the_second_pass_gives_the_brute_force_plans_where_fewer_replicas_win(preset, field, x):
    """Where some fabric runs fewer replicas than its plan could have, the search gives what timing every plan on
    its most replicas and on the most inside a node gives, bit for bit."""
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    engine.clear_plan_cache()
    fast = sweep(s, field, x)
    engine.clear_plan_cache()
    plan, step = brute_force_plans(s, field, x)
    assert np.any(fast.plan.gpus_idle >= s.cluster.gpus_per_node)  # the second pass chose somewhere
    for k in engine.PLAN_ARRAY_KEYS + ("dp",):
        np.testing.assert_array_equal(getattr(fast.plan, k), plan[k], err_msg=k)
    np.testing.assert_array_equal(fast.throughput.step_time_s, step)
