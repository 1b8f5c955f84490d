"""Shapes of the network physics a network engineer can check: loss, latency, congestion, scale.

Transport formulas are checked where they have a textbook shape; the engine on a 64 × 8 H100, 70B run
(the README's table) where the shape is a property of the whole step.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

import model
from gui import cli
from model import collectives, topology, transport

GBN, SR, LLR = (transport.LOSS_RECOVERY_CODE[k] for k in ("go_back_n", "selective_repeat", "link_retry"))


def h100_70b(profile="published", **changes):
    s = model.scenario_from_dict({
        "cluster": {"gpu": "H100-SXM", "nodes": 64, "gpus_per_node": 8},
        "workload": {"params_b": 70.0, "seq_len": 4096, "global_batch": 1024, "train_tokens_b": 1000.0},
        "fabric": {"profile_set": profile},
    })
    return s.replace_many(changes) if changes else s


# --- TCP: 1/√p where the window binds, then the timeout cliff ------------------------------------------------

def test_tcp_goes_as_one_over_root_p_until_timeouts_take_over():
    p = np.geomspace(2e-3, 2e-2, 5)
    # a long round trip (1 ms) and a tiny minimum RTO: the congestion window sets the rate
    window_bound = transport.tcp_efficiency(100, 1460, 1000, p, 16, min_rto_ms=1e-3, links=1)
    assert np.all(window_bound < 1.0)
    assert_allclose(window_bound * np.sqrt(p), (window_bound * np.sqrt(p))[0], rtol=0.1)
    # Linux's 200 ms minimum RTO: timeouts cost far more than the window at the same loss -- the cliff
    linux = transport.tcp_efficiency(100, 1460, 1000, p, 16, min_rto_ms=200.0, links=1)
    assert np.all(linux < window_bound / 10)


def test_tcp_cliff_in_training_days():
    res = model.sweep(h100_70b(), "fabric.ethernet.loss_rate", [1e-9, 1e-7, 1e-5, 1e-3])
    days = res["train_days"][res.fabric_index("ethernet")]
    assert np.all(np.diff(days) > 0)
    assert days[1] < 1.5 * days[0]  # 1e-7: a timeout now and then
    assert days[3] > 20 * days[0]  # 1e-3: some socket of 8,192 is always waiting out 200 ms


# --- RoCE go-back-N: the knee near p × packets in flight ≈ 1 ------------------------------------------------

def test_go_back_n_knee_at_one_loss_per_window():
    link_gbps, packet, rtt_us = 400.0, 4096, 10.0
    m = rtt_us * 1e-6 * link_gbps * 1e9 / (packet * 8)  # packets in flight, ~122
    eff = lambda x: transport.rdma_efficiency(link_gbps, packet, rtt_us, x / m, GBN, links=1)  # noqa: E731
    assert eff(0.03) > 0.95
    assert 0.4 < eff(1.0) < 0.6  # half the time recovering at one loss per window
    assert eff(30.0) < 0.05
    # selective repeat (IRN) resends only the lost packet: no knee there
    assert transport.rdma_efficiency(link_gbps, packet, rtt_us, 1.0 / m, SR, links=1) > 0.95


def test_go_back_n_pays_the_loaded_round_trip_and_the_tail_timeout():
    base = transport.rdma_efficiency(400, 4096, 4.0, 1e-4, GBN, links=512)
    assert transport.rdma_efficiency(400, 4096, 40.0, 1e-4, GBN, links=512) < base  # queueing lengthens the RTT
    with_tails = transport.rdma_efficiency(400, 4096, 4.0, 1e-4, GBN, links=512, message_bytes=8e6)
    assert with_tails < 0.9 * base
    slower_timer = transport.rdma_efficiency(400, 4096, 4.0, 1e-4, GBN, links=512, message_bytes=8e6,
                                             tail_timeout_ms=transport.VERBS_ACK_TIMEOUT_MS)
    assert slower_timer < 0.01  # the 4.3 s verbs timeout without adaptive retransmission


def test_roce_go_back_n_degrades_from_1e3_and_collapses_above_1_percent():
    # published RoCE (400G, 1 µs) on the 64-node run: Mittal et al.'s shape
    res = model.sweep(h100_70b(), "fabric.roce.loss_rate", [1e-7, 1e-3, 1e-2])
    eta = res["loss_efficiency"][res.fabric_index("roce")]
    assert eta[0] > 0.95 and eta[1] < 0.8 and eta[2] < 0.2


# --- InfiniBand: the same RC recovery, flat only below its own loss ---------------------------------------------

def test_infiniband_flat_only_below_its_own_loss():
    own = 3.3e-8  # published: BER 1e-12 over a 4 KiB packet
    loss = [0.0, own / 10, own, 1e-4, 1e-3]
    res = model.sweep(h100_70b(), "fabric.infiniband.loss_rate", loss)
    i = res.fabric_index("infiniband")
    eta, days = res["loss_efficiency"][i], res["train_days"][i]
    assert np.all(eta[:3] > 0.998) and np.all(days[1:3] < 1.001 * days[0])
    assert eta[3] < 0.8 and eta[4] < 0.3
    assert np.all(np.diff(days) > 0) and days[4] > 1.05 * days[0]  # (70B on 64 nodes: mostly compute)
    # link-level retry, an explicit option, keeps it flat much further
    llr = model.sweep(h100_70b(**{"fabric.custom.infiniband.loss_recovery": "link_retry"}),
                      "fabric.infiniband.loss_rate", loss)
    assert llr["loss_efficiency"][i][3] > 0.98 > 0.8 > eta[3]


def test_infiniband_round_trip_follows_the_latency_slider():
    res = model.sweep(h100_70b(**{"fabric.custom.infiniband.loss_rate": 1e-5}), "fabric.infiniband.latency_us",
                      [1.0, 100.0])
    i = res.fabric_index("infiniband")
    rtt = res["network"]["loaded_rtt_us"][i]
    assert rtt[1] - rtt[0] == pytest.approx(198.0)
    assert res["loss_efficiency"][i][1] < res["loss_efficiency"][i][0]


# --- latency: the window ---------------------------------------------------------------------------------------

def test_latency_penalty_through_the_window():
    res = model.sweep(h100_70b(), "fabric.latency_us", [1.0, 10.0, 250.0, 500.0, 1000.0])
    i = res.fabric_index("infiniband")
    ideal = res["node_bandwidth_gbps"]["ideal"][i]
    line = res["node_bandwidth_gbps"]["line"][i]
    assert ideal[0] == pytest.approx(0.94 * line[0])  # short round trips: the window never binds
    assert ideal[-1] < 0.25 * ideal[0]
    assert ideal[-2] / ideal[-1] == pytest.approx(2.0, rel=0.02)  # bandwidth ∝ 1 / round trip
    assert np.all(np.diff(res["train_days"][i]) > 0)


def test_latency_grows_with_switch_tiers():
    res = model.sweep(h100_70b(), "cluster.nodes", [2, 64, 1024])
    levels = res["network"]["switch_levels"][res.fabric_index("infiniband")]
    assert list(levels) == [1, 2, 3]
    rtt = res["network"]["loaded_rtt_us"][res.fabric_index("infiniband")]
    assert rtt[0] < rtt[1] < rtt[2]
    hop = collectives.SWITCH_HOP_US["infiniband"]
    assert_allclose(collectives.extra_tier_latency_us([1, 2, 3], hop), [0.0, 2 * hop, 4 * hop])


# --- scale: loss waits on more links, oversubscription and ECMP by placement --------------------------------

def test_loss_cost_grows_with_the_links_a_collective_waits_on():
    res = model.sweep(h100_70b(**{"fabric.custom.roce.loss_rate": 1e-6}), "cluster.nodes", [2, 16, 128, 1024])
    eta = res["loss_efficiency"][res.fabric_index("roce")]
    assert np.all(np.diff(eta) < 0)


def data_parallel_heavy(nodes=256):
    """A 7B model with TP 8 inside each node and DP across every node (PP 1)."""
    return model.scenario_from_dict({
        "cluster": {"gpu": "H100-SXM", "nodes": nodes, "gpus_per_node": 8},
        "workload": {"params_b": 7.0, "seq_len": 4096, "global_batch": 2048},
        "parallel": {"tp": 8, "pp": 1, "dp_overlap": False},
        "fabric": {"profile_set": "published", "compare": ["roce", "infiniband"]},
    })


def test_step_time_rises_with_oversubscription_for_a_data_parallel_heavy_plan():
    over = [1.0, 2.0, 4.0, 8.0]
    res = model.sweep(data_parallel_heavy(), "topology.oversubscription", over)
    for f in ("roce", "infiniband"):
        step = res["step_time_s"][res.fabric_index(f)]
        assert np.all(np.diff(step) >= 0), f
        assert step[-1] > 1.1 * step[0], f
    dp = res["breakdown_s"]["dp_comm"][res.fabric_index("infiniband")]
    assert dp[-1] > 2 * dp[0]  # the slowdown is the data-parallel traffic's


def test_rail_optimised_placement_keeps_rail_traffic_local():
    # 64 nodes, RoCE on 128-port switches: each rail's 64 NICs sit under one leaf -- oversubscription costs nothing
    res = model.sweep(data_parallel_heavy(64), "topology.oversubscription", [1.0, 8.0])
    step = res["step_time_s"][res.fabric_index("roce")]
    assert step[1] == pytest.approx(step[0])
    assert res["network"]["dp_congestion_slowdown"][res.fabric_index("roce")][1] == 1.0


def test_adaptive_routing_and_queue_pairs_relieve_ecmp_collisions():
    s = data_parallel_heavy()
    r0 = model.evaluate(s).at("roce")
    ar = model.evaluate(s.replace("fabric.custom.roce.adaptive_routing", True)).at("roce")
    qps = model.evaluate(s.replace("fabric.custom.roce.qps_per_connection", 8)).at("roce")
    assert r0["network"]["dp_congestion_slowdown"] > 1.2
    assert ar["network"]["dp_congestion_slowdown"] == 1.0  # non-blocking with adaptive routing
    assert 1.0 <= qps["network"]["dp_congestion_slowdown"] < r0["network"]["dp_congestion_slowdown"]
    assert ar["step_time_s"] < r0["step_time_s"]


def test_ecmp_busiest_uplink_by_balls_into_bins():
    assert_allclose(topology.ecmp_busiest_flows(64, 1), 64)  # one uplink: no imbalance
    many = topology.ecmp_busiest_flows(6400, 64)
    assert 100 < many < 100 * 1.3  # many small flows: close to even
    few = topology.ecmp_busiest_flows(32, 32)
    assert few > 2.5  # one flow per uplink on average: the busiest carries several


# --- settings: validated, named --------------------------------------------------------------------------------

def test_loss_recovery_is_for_rdma_fabrics_only():
    s = h100_70b(**{"fabric.custom.ethernet.loss_recovery": "selective_repeat"})
    with pytest.raises(model.ScenarioError, match="fabric.custom.ethernet.loss_recovery"):
        model.evaluate(s)


def test_bad_loss_recovery_and_rto_are_named_errors(tmp_path, capsys):
    with pytest.raises(model.ScenarioError, match="go_back_n, selective_repeat, link_retry"):
        h100_70b(**{"fabric.custom.roce.loss_recovery": "go-back-n"})
    with pytest.raises(model.ScenarioError, match="min_rto_ms"):
        h100_70b(**{"fabric.custom.ethernet.min_rto_ms": 0.0})
    path = tmp_path / "bad.toml"
    path.write_text('[fabric.custom.roce]\nadaptive_routing = "yes"\n', encoding="utf-8")
    assert cli.main(["evaluate", str(path)]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "fabric.custom.roce.adaptive_routing" in err and len(err.strip().splitlines()) == 1


def test_min_rto_is_sweepable_and_moves_tcp():
    res = model.sweep(h100_70b(), "fabric.ethernet.min_rto_ms", [1.0, 200.0])
    days = res["train_days"][res.fabric_index("ethernet")]
    assert days[1] > 2 * days[0]
