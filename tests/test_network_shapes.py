"""Shapes of the network physics a network engineer can check: loss, latency, congestion, scale.

Transport formulas are checked where they have a textbook shape; the engine on a 64 × 8 H100, 70B run
(the README's table) where the shape is a property of the whole step.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

import model
from gui.cli import main as cli
from model import nccl_table, nccl_tuning, network, topology, transport

GBN, SR, LLR = (transport.LOSS_RECOVERY_CODE[k] for k in ("go_back_n", "selective_repeat", "link_retry"))


def h100_70b(profile="published", **changes):
    s = model.scenario_from_dict({
        "cluster": {"gpu": "H100-SXM", "nodes": 64, "gpus_per_node": 8},
        "workload": {"params_b": 70.0, "seq_len": 4096, "global_batch": 1024, "train_tokens_b": 1000.0},
        "fabric": {"profile_set": profile},
    })
    return s.replace_many(changes) if changes else s


# --- TCP: Linux recovery (SACK/RACK, tail loss probe, RTO only behind a lost probe) -----------------------

def test_tcp_goes_as_one_over_root_p_where_the_window_binds():
    p = np.geomspace(1e-4, 2e-3, 5)
    # a long round trip (1 ms), one hop: each socket's congestion window (Mathis) sets the rate
    window_bound = transport.tcp_efficiency(100, 1460, 1000, p, 1, min_rto_ms=200.0, hops=1)
    assert np.all(window_bound < 0.2)
    assert_allclose(window_bound * np.sqrt(p), (window_bound * np.sqrt(p))[0], rtol=0.1)
    # a ring of many hops at a data-centre round trip: tail stalls, not the window, take over (~1/p)
    stalls = transport.tcp_efficiency(400, 8960, 20, p, 1, hops=512, channels=16)
    assert np.all(np.diff(np.log(stalls)) / np.diff(np.log(p)) < -0.8)


def one_gib_all_reduce_busbw_ratio(nodes, loss):
    """1 GiB all-reduce on H100 8 × 400G over published TCP with Linux defaults, busbw over the lossless run."""
    def busbw(p):
        s = model.scenario_from_dict({
            "cluster": {"gpu": "H100-SXM", "nodes": nodes, "gpus_per_node": 8},
            "fabric": {"profile_set": "published", "compare": ["ethernet"],
                       "custom": {"ethernet": {"loss_rate": p, "link_gbps": 400.0, "nics_per_node": 8,
                                               "min_rto_ms": 200.0, "sockets_per_connection": 1}}}})
        return nccl_table.scenario_table(s, "ethernet", "all_reduce", sizes=[2**30])["busbw_GBps"][0]
    return busbw(loss) / busbw(0.0)


@pytest.mark.parametrize("nodes, loss, lo, hi", [
    (2, 1e-4, 0.8, 1.0),
    (16, 1e-5, 0.7, 1.0), (16, 1e-4, 0.25, 0.95), (16, 1e-3, 0.0, 0.6),
    (128, 1e-5, 0.3, 1.0), (128, 1e-4, 0.05, 0.7), (128, 1e-3, 0.0, 0.25),
])
def test_tcp_under_loss_keeps_what_linux_keeps(nodes, loss, lo, hi):
    """A few lost packets in 10⁵ cost a training fabric a part of its bandwidth, not all of it: Linux repairs
    mid-stream losses within a round trip and a lost tail within a probe timeout; only where a ring of many
    nodes meets heavy loss do the stalls take most of it."""
    assert lo <= one_gib_all_reduce_busbw_ratio(nodes, loss) <= hi


def test_tcp_loss_in_training_days():
    res = model.sweep(h100_70b(), "fabric.ethernet.loss_rate", [1e-9, 1e-6, 1e-5, 1e-3])
    days = res.throughput.train_days[res.fabric_index("ethernet")]
    assert np.all(np.diff(days) > 0)
    assert days[1] < 1.05 * days[0]  # 1e-6: a probe now and then
    assert days[2] < 1.5 * days[0]  # 1e-5, the published training fabric: a visible but modest cost
    assert days[3] > 1.5 * days[0]  # 1e-3: a ring of 64 nodes stalls on some socket's lost tail most steps


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
    eta = res.network.loss_efficiency[res.fabric_index("roce")]
    assert eta[0] > 0.95 and eta[1] < 0.8 and eta[2] < 0.2


# --- InfiniBand: the same RC recovery, flat only below its own loss ---------------------------------------------

def test_infiniband_flat_only_below_its_own_loss():
    own = 3.3e-8  # published: BER 1e-12 over a 4 KiB packet
    loss = [0.0, own / 10, own, 1e-4, 1e-3]
    res = model.sweep(h100_70b(), "fabric.infiniband.loss_rate", loss)
    i = res.fabric_index("infiniband")
    eta, days = res.network.loss_efficiency[i], res.throughput.train_days[i]
    assert np.all(eta[:3] > 0.998) and np.all(days[1:3] < 1.001 * days[0])
    assert eta[3] < 0.8 and eta[4] < 0.3
    assert np.all(np.diff(days) > 0) and days[4] > 1.05 * days[0]  # (70B on 64 nodes: mostly compute)
    # link-level retry, an explicit option, keeps it flat much further
    llr = model.sweep(h100_70b(**{"fabric.custom.infiniband.loss_recovery": "link_retry"}),
                      "fabric.infiniband.loss_rate", loss)
    assert llr.network.loss_efficiency[i][3] > 0.97 > 0.8 > eta[3]


def test_infiniband_round_trip_follows_the_latency_slider():
    res = model.sweep(h100_70b(**{"fabric.custom.infiniband.loss_rate": 1e-5}), "fabric.infiniband.latency_us",
                      [1.0, 100.0])
    i = res.fabric_index("infiniband")
    rtt = res.network.loaded_rtt_us[i]
    assert rtt[1] - rtt[0] == pytest.approx(198.0)
    assert res.network.loss_efficiency[i][1] < res.network.loss_efficiency[i][0]


# --- latency: the window ---------------------------------------------------------------------------------------

def test_latency_penalty_through_the_window():
    res = model.sweep(h100_70b(), "fabric.latency_us", [1.0, 10.0, 250.0, 500.0, 1000.0])
    i = res.fabric_index("infiniband")
    ideal = res.network.ideal_gbps[i]
    line = res.network.line_gbps[i]
    assert ideal[0] == pytest.approx(0.94 * line[0])  # short round trips: the window never binds
    assert ideal[-1] < 0.25 * ideal[0]
    assert ideal[-2] / ideal[-1] == pytest.approx(2.0, rel=0.02)  # bandwidth ∝ 1 / round trip
    assert np.all(np.diff(res.throughput.train_days[i]) > 0)


def test_latency_grows_with_switch_tiers():
    res = model.sweep(h100_70b(), "cluster.nodes", [2, 64, 1024])
    levels = res.network.switch_levels[res.fabric_index("infiniband")]
    assert list(levels) == [1, 2, 3]
    rtt = res.network.loaded_rtt_us[res.fabric_index("infiniband")]
    assert rtt[0] < rtt[1] < rtt[2]
    hop = nccl_tuning.SWITCH_HOP_US["infiniband"]
    assert_allclose(nccl_tuning.extra_tier_latency_us([1, 2, 3], hop), [0.0, 2 * hop, 4 * hop])


# --- scale: loss waits on more links, oversubscription and ECMP by placement --------------------------------

def test_loss_cost_grows_with_the_links_a_collective_waits_on():
    res = model.sweep(h100_70b(**{"fabric.custom.roce.loss_rate": 1e-6}), "cluster.nodes", [2, 16, 128, 1024])
    eta = res.network.loss_efficiency[res.fabric_index("roce")]
    assert np.all(np.diff(eta) < 0)


def data_parallel_heavy(nodes=256, placement="fragmented"):
    """A 7B model with TP 8 inside each node and DP across every node (PP 1); by default a fragmented job (its
    rings cross the uplinks at every edge)."""
    return model.scenario_from_dict({
        "cluster": {"gpu": "H100-SXM", "nodes": nodes, "gpus_per_node": 8},
        "workload": {"params_b": 7.0, "seq_len": 4096, "global_batch": 2048},
        "parallel": {"tp": 8, "pp": 1, "dp_overlap": False},
        "topology": {"placement": placement},
        "fabric": {"profile_set": "published", "compare": ["roce", "infiniband"]},
    })


def test_step_time_rises_with_oversubscription_for_a_data_parallel_heavy_plan():
    over = [1.0, 2.0, 4.0, 8.0]
    res = model.sweep(data_parallel_heavy(), "topology.oversubscription", over)
    for f in ("roce", "infiniband"):
        step = res.throughput.step_time_s[res.fabric_index(f)]
        assert np.all(np.diff(step) >= 0), f
        assert step[-1] > 1.1 * step[0], f
    dp = res.breakdown.dp_comm[res.fabric_index("infiniband")]
    assert dp[-1] > 2 * dp[0]  # the slowdown is the data-parallel traffic's
    # the same job placed contiguously: its rings send one edge per channel up each leaf, far below 1:8
    flat = model.sweep(data_parallel_heavy(placement="contiguous"), "topology.oversubscription", over)
    assert np.all(flat.network.dp_congestion_slowdown == 1.0)


def test_rail_optimised_placement_keeps_rail_traffic_local():
    # 64 nodes, RoCE on 128-port switches: each rail's 64 NICs sit under one leaf -- oversubscription costs nothing
    res = model.sweep(data_parallel_heavy(64, "contiguous"), "topology.oversubscription", [1.0, 8.0])
    step = res.throughput.step_time_s[res.fabric_index("roce")]
    assert step[1] == pytest.approx(step[0])
    assert res.network.dp_congestion_slowdown[res.fabric_index("roce")][1] == 1.0


def test_adaptive_routing_and_queue_pairs_relieve_ecmp_collisions():
    s = data_parallel_heavy()
    r0 = model.evaluate(s).at("roce")
    ar = model.evaluate(s.replace("fabric.custom.roce.adaptive_routing", True)).at("roce")
    qps = model.evaluate(s.replace("fabric.custom.roce.qps_per_connection", 8)).at("roce")
    assert r0.network.dp_congestion_slowdown > 1.2
    assert ar.network.dp_congestion_slowdown == 1.0  # non-blocking with adaptive routing
    assert 1.0 <= qps.network.dp_congestion_slowdown < r0.network.dp_congestion_slowdown
    assert ar.throughput.step_time_s < r0.throughput.step_time_s


def pipeline_heavy(nodes=256, **parallel):
    """96 layers of 8,192 (a ~78B dense model), TP 8 inside each node, PP 16 across nodes, DP 16 (explicit)."""
    return model.scenario_from_dict({
        "cluster": {"gpu": "H100-SXM", "nodes": nodes, "gpus_per_node": 8},
        "workload": {"layers": 96, "hidden": 8192, "heads": 64, "seq_len": 4096, "global_batch": 256,
                     "micro_batch": 1},
        "parallel": dict({"mode": "explicit", "tp": 8, "pp": 16}, **parallel),
        "fabric": {"profile_set": "published", "compare": ["roce", "infiniband"]},
    })


def test_step_time_rises_with_oversubscription_for_a_pipeline_heavy_plan():
    # 256 nodes: a stage is TP 8 × DP 16 = 16 nodes, so a pipeline neighbour is 16 nodes away; the leaves of 32
    # (InfiniBand, 64 ports) or 64 (RoCE, 128 ports) nodes send a quarter to a half of their ports' pipeline
    # traffic up. The data-parallel groups (16 consecutive nodes) stay under their leaves
    over = [1.0, 2.0, 4.0, 8.0]
    res = model.sweep(pipeline_heavy(), "topology.oversubscription", over)
    for f in ("roce", "infiniband"):
        i = res.fabric_index(f)
        step, pp = res.throughput.step_time_s[i], res.breakdown.pp_comm[i]
        assert np.all(np.diff(step) >= 0) and step[-1] > step[0], f
        assert pp[-1] > 1.8 * pp[0], f  # the slowdown is the pipeline traffic's
        assert np.all(res.network.dp_congestion_slowdown[i] == 1.0), f
        assert_allclose(res.breakdown.dp_comm[i], res.breakdown.dp_comm[i][0])


def test_rail_optimised_placement_keeps_a_pipeline_under_one_leaf_flat():
    # 64 nodes, RoCE on 128-port switches: every stage's rail neighbour sits under the same rail leaf
    res = model.sweep(pipeline_heavy(64, pp=4), "topology.oversubscription", [1.0, 8.0])
    i = res.fabric_index("roce")
    assert res.throughput.step_time_s[i][1] == pytest.approx(res.throughput.step_time_s[i][0])
    assert np.all(res.network.pp_congestion_slowdown[i] == 1.0)
    # the same plan on 256 nodes crosses leaves (the test above): the difference is placement alone
    wide = model.evaluate(pipeline_heavy(256, pp=4).replace("topology.oversubscription", 8.0)).at("roce")
    assert wide.network.pp_congestion_slowdown > 1.5


def test_adaptive_routing_relieves_ecmp_collisions_of_pipeline_flows():
    s = pipeline_heavy()
    ecmp = model.evaluate(s).at("roce")
    adaptive = model.evaluate(s.replace("fabric.custom.roce.adaptive_routing", True)).at("roce")
    assert ecmp.network.pp_congestion_slowdown > 1.2  # non-blocking, but hashing piles flows up
    assert adaptive.network.pp_congestion_slowdown == 1.0
    assert adaptive.breakdown.pp_comm < ecmp.breakdown.pp_comm


def test_pipeline_slowdown_follows_the_stage_distance():
    leaf, uplinks = 32.0, 32.0  # a non-blocking leaf of 64 ports with adaptive routing
    assert topology.pp_slowdown(16.0, 2.0, leaf, uplinks, 1.0, True) == 1.0  # 32 nodes: all under one leaf
    over = topology.leaf_ports(64, 8.0)  # 56 down, 8 up
    far = topology.pp_slowdown(64.0, 4.0, over[0], over[1], 1.0, True)
    near = topology.pp_slowdown(8.0, 32.0, over[0], over[1], 1.0, True)
    assert far == pytest.approx(7.0)  # every node's neighbour under another leaf: 56 ports on 8 uplinks
    assert near == pytest.approx(1.0)  # 8 of 56 nodes cross: 8 ports on 8 uplinks


def test_the_plan_search_sees_the_slowed_pipeline():
    # auto mode, 256 nodes, batch 512: the pipeline that is fastest on a non-blocking RoCE fabric becomes slower
    # at 16:1 than the plan the search then picks
    s = pipeline_heavy()
    s = s.replace_many({"parallel.mode": "auto", "parallel.tp": None, "parallel.pp": None,
                        "workload.micro_batch": None, "workload.global_batch": 512})
    res = model.sweep(s, "topology.oversubscription", [1.0, 16.0])
    i = res.fabric_index("roce")
    first = {k: getattr(res.plan, k)[i][0] for k in ("tp", "pp", "micro_batch", "virtual_stages")}
    fixed = s.replace_many({"parallel.mode": "explicit", "parallel.tp": int(first["tp"]),
                            "parallel.pp": int(first["pp"]), "workload.micro_batch": int(first["micro_batch"]),
                            "parallel.virtual_stages": int(first["virtual_stages"]),
                            "topology.oversubscription": 16.0})
    kept = model.evaluate(fixed).at("roce")
    assert first["pp"] > 1 and kept.network.pp_congestion_slowdown > 1.5
    assert res.throughput.step_time_s[i][1] < kept.throughput.step_time_s


def test_expert_all_to_all_across_leaves_pays_for_ecmp_collisions():
    # EP 64 with TP 8: an all-to-all group spans 64 consecutive nodes, two 64-port rail leaves of 32 nodes
    s = model.scenario_from_dict({
        "cluster": {"gpu": "H100-SXM", "nodes": 128, "gpus_per_node": 8},
        "workload": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 2048, "seq_len": 4096,
                     "global_batch": 512, "micro_batch": 1, "experts": 64, "top_k": 8},
        "parallel": {"mode": "explicit", "tp": 8, "pp": 2, "ep": 64},
        "fabric": {"profile_set": "published", "compare": ["roce"], "custom": {"roce": {"switch_radix": 64}}},
    })
    ecmp = model.evaluate(s).at("roce")
    adaptive = model.evaluate(s.replace("fabric.custom.roce.adaptive_routing", True)).at("roce")
    # half of each member's peers under the other leaf: on average one link's worth per uplink, but hashing piles
    # several flows on the busiest
    assert ecmp.network.ep_congestion_slowdown > 1.5
    assert adaptive.network.ep_congestion_slowdown == 1.0
    small = model.evaluate(s.replace_many({"parallel.ep": 8, "workload.experts": 8})).at("roce")
    assert small.network.ep_congestion_slowdown == 1.0  # 8 nodes: under one leaf
    assert adaptive.throughput.step_time_s < ecmp.throughput.step_time_s


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


@pytest.mark.parametrize("line, field", [
    ("sockets_per_connection = 0", "fabric.custom.ethernet.sockets_per_connection"),
    ("sockets_per_connection = 65", "fabric.custom.ethernet.sockets_per_connection"),
    ("gpudirect_tcp = \"yes\"", "fabric.custom.ethernet.gpudirect_tcp"),
    ("min_rto_ms = -1", "fabric.custom.ethernet.min_rto_ms"),
])
def test_bad_tcp_settings_are_one_line_naming_the_field(tmp_path, capsys, line, field):
    path = tmp_path / "bad.toml"
    path.write_text(f"[fabric.custom.ethernet]\n{line}\n", encoding="utf-8")
    assert cli.main(["nccl", str(path), "--fabric", "ethernet"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert field in err and len(err.splitlines()) == 1


def test_gpudirect_tcp_is_for_tcp_fabrics_only(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[fabric.custom.roce]\ngpudirect_tcp = true\n", encoding="utf-8")
    assert cli.main(["evaluate", str(path)]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert "fabric.custom.roce.gpudirect_tcp" in err and len(err.splitlines()) == 1


def test_gpudirect_tcp_drops_the_host_copy_not_the_loss_recovery():
    """devmem TCP / TCPXO: no CPU cap and ~96.6 % of line rate, but the same Linux recovery under loss."""
    plain, direct = (h100_70b(**{"fabric.custom.ethernet.gpudirect_tcp": flag, "fabric.custom.ethernet.loss_rate": 0.0})
                     for flag in (False, True))
    rows = [model.resolve_fabrics(s)[0] for s in (plain, direct)]
    assert rows[1].values["achievable_fraction"] == transport.DEVMEM_TCP_LINE_FRACTION
    assert rows[1].values["cpu_gbps_per_core"] == np.inf and "Netdev" in rows[1].sources["achievable_fraction"]
    # a user's own achievable fraction stays
    own = h100_70b(**{"fabric.custom.ethernet.gpudirect_tcp": True, "fabric.custom.ethernet.achievable_fraction": 0.8})
    assert model.resolve_fabrics(own)[0].values["achievable_fraction"] == 0.8
    days = [model.evaluate(s).throughput.train_days[0].item() for s in (plain, direct)]
    assert days[1] < days[0]
    lossy = [model.evaluate(s.replace("fabric.custom.ethernet.loss_rate", 1e-4)).network.loss_efficiency[0].item()
             for s in (plain, direct)]
    assert lossy[1] < 1.0 and lossy[0] < 1.0


def test_min_rto_is_sweepable_and_moves_tcp_only_under_heavy_loss():
    """The RTO fires only when a tail's probe is lost too: at a training fabric's loss the route's rto_min hardly
    shows; at a percent it does."""
    res = model.sweep(h100_70b(), "fabric.ethernet.min_rto_ms", [1.0, 200.0])
    days = res.throughput.train_days[res.fabric_index("ethernet")]
    assert days[0] < days[1] < 1.01 * days[0]
    heavy = model.sweep(h100_70b(**{"fabric.custom.ethernet.loss_rate": 1e-2}), "fabric.ethernet.min_rto_ms",
                        [1.0, 200.0])
    days = heavy.throughput.train_days[heavy.fabric_index("ethernet")]
    assert days[1] > 1.2 * days[0]


# --- congestion from the traffic's own graph -------------------------------------------------------------------

def case3_shape(**changes):
    """Case 3's shape on the published set: 128 × 8 H100, TP 8, PP 1 (data parallelism over every node)."""
    s = model.load_scenario("assets/presets/case3_centre_128xH100_1T.toml").replace_many(
        {"fabric.profile_set": "published", "parallel.mode": "explicit", "parallel.tp": 8, "parallel.pp": 1})
    return s.replace_many(changes) if changes else s


@pytest.mark.parametrize("placement, adaptive, lo, hi", [
    ("contiguous", False, 1.0, 1.6), ("contiguous", True, 1.0, 1.1), ("fragmented", True, 1.0, 1.1)])
def test_ecmp_slows_data_parallel_rings_as_published_fabrics_do(placement, adaptive, lo, hi):
    """A ring on consecutive nodes sends one edge per channel up each leaf: ECMP hashes a handful of flows over
    the uplinks, not every NIC's (Meta reports up to ~1.4×, Alibaba ~15 %); adaptive routing spreads them."""
    r = model.evaluate(case3_shape(**{"fabric.custom.roce.adaptive_routing": adaptive,
                                      "topology.placement": placement}))
    slow = r.network.dp_congestion_slowdown[r.fabric_index("roce")]
    assert lo <= float(np.ravel(slow)[0]) <= hi


def test_a_fragmented_job_crosses_the_uplinks_and_ecmp_collides():
    r = model.evaluate(case3_shape(**{"fabric.custom.roce.adaptive_routing": False,
                                      "topology.placement": "fragmented"}))
    assert float(np.ravel(r.network.dp_congestion_slowdown[r.fabric_index("roce")])[0]) > 1.5


def all_to_all_busbw(oversubscription, placement, nodes=64):
    s = model.scenario_from_dict({"cluster": {"gpu": "H100-SXM", "nodes": nodes, "gpus_per_node": 8},
                                  "topology": {"oversubscription": oversubscription, "placement": placement},
                                  "fabric": {"profile_set": "published", "compare": ["roce"]}})
    return nccl_table.scenario_table(s, "roce", "alltoall", sizes=[2**30])["busbw_GBps"][0]


def test_oversubscription_slows_an_all_to_all_that_crosses_the_uplinks():
    """4:1 leaves a quarter of the uplinks: a 64-node all-to-all whose peers sit under other leaves keeps at most
    0.7 of its 1:1 bus bandwidth in `fabric-whatif nccl`; one that a rail leaf holds whole (64 nodes under a
    128-port leaf, rail-optimised, PXN) never touches them."""
    assert all_to_all_busbw(4.0, "fragmented") <= 0.7 * all_to_all_busbw(1.0, "fragmented")
    assert all_to_all_busbw(4.0, "contiguous") == all_to_all_busbw(1.0, "contiguous")
    assert all_to_all_busbw(4.0, "contiguous", 512) < 0.9 * all_to_all_busbw(1.0, "contiguous", 512)


def test_nccl_and_the_training_step_share_one_congestion_model():
    s = case3_shape(**{"fabric.custom.roce.adaptive_routing": False, "topology.placement": "fragmented"})
    step = model.evaluate(s).network.dp_congestion_slowdown
    x = network.nccl_inputs(s, "all_reduce")
    i = x["names"].index("roce")
    assert_allclose(x["congestion_slowdown"][i], np.ravel(step[i])[0])
    assert_allclose(network.nccl_inputs(s)["nic_gb_per_s"][i] / x["nic_gb_per_s"][i], x["congestion_slowdown"][i])


def test_placement_is_a_named_choice(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('[topology]\nplacement = "scattered"\n', encoding="utf-8")
    assert cli.main(["nccl", str(path), "--fabric", "roce"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert "topology.placement" in err and "contiguous" in err and len(err.splitlines()) == 1
