"""The NCCL-like collective model, the nccl-tests import, calibration round trips and the network validation."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import model
from model import ScenarioError, collectives, engine, nccl_accuracy, nccl_fit, nccl_log, nccl_model, nccl_table, nccl_tuning, \
    validation
from model.scenario import scenario_from_dict

LOGS = Path(__file__).resolve().parents[1] / "assets" / "validation" / "nccl"
INDEX = list(csv.DictReader((LOGS / "index.csv").read_text(encoding="utf-8").splitlines()))
BIG = 2.0 ** np.arange(33, 35)  # 8 and 16 GiB: the large sizes published figures quote


def cluster(gpu, nodes, link_gbps, nics=8, transport="infiniband", profile="published", **fabric):
    return scenario_from_dict({
        "cluster": {"gpu": gpu, "nodes": nodes, "gpus_per_node": 8},
        "fabric": {"profile_set": profile, "compare": ["run"],
                   "custom": {"run": {"transport": transport, "link_gbps": link_gbps, "nics_per_node": nics,
                                      **fabric}}}})


# -- known values of the collective model ---------------------------------------------------------------------

def test_dgx_h100_16_nodes_ring_all_reduce_is_350_to_370():
    t = nccl_table.scenario_table(cluster("H100-SXM", 16, 400.0), "run", "all_reduce", sizes=BIG, algorithm="ring")
    assert np.all((t["busbw_GBps"] > 350) & (t["busbw_GBps"] < 375))


def test_dgx_a100_16_nodes_hdr_ring_all_reduce_is_180_to_190():
    t = nccl_table.scenario_table(cluster("A100-SXM-80GB", 16, 200.0), "run", "all_reduce", sizes=BIG,
                                algorithm="ring")
    assert np.all((t["busbw_GBps"] > 175) & (t["busbw_GBps"] < 190))


def test_nvls_on_one_h100_node_reaches_about_480():
    t = nccl_table.scenario_table(cluster("H100-SXM", 1, 400.0), "run", "all_reduce", sizes=BIG)
    assert t["busbw_GBps"][-1] == pytest.approx(480.0, rel=0.03)
    assert t["algorithm"][-1] == "nvls"
    ring = nccl_table.scenario_table(cluster("H100-SXM", 1, 400.0), "run", "all_reduce", sizes=BIG, algorithm="ring")
    assert ring["busbw_GBps"][-1] == pytest.approx(0.82 * 450.0, rel=0.03)  # NVLink without SHARP


def test_protocol_crossover_ll_then_ll128_then_simple():
    t = nccl_table.scenario_table(cluster("H100-SXM", 16, 400.0), "run", "all_reduce", algorithm="ring")
    protos = t["protocol"]
    assert protos[0] == "LL" and protos[-1] == "Simple"
    first = {p: protos.index(p) for p in ("LL", "LL128", "Simple")}
    assert first["LL"] < first["LL128"] < first["Simple"]
    assert np.all(np.diff(t["time_us"]) >= -1e-9)  # the tuner's choice never makes a bigger message faster


def test_the_ll_protocol_is_capped_as_in_nccls_tuner():
    S = 2.0 ** np.arange(10, 31)
    args = dict(ranks_per_node=8, nic_gb_per_s=47.0, nics_per_node=8, intra_busbw_gb_per_s=369.0,
                intra_p2p_gb_per_s=450.0)
    for nodes, vendor, cap in ((2, "intel", 39.0), (16, "intel", 20.4), (2, "amd", 22.5), (16, "amd", 19.0)):
        ll_cap = nccl_tuning.ll_max_bus_gb_per_s("hopper", vendor, nodes)
        assert ll_cap == cap
        ll = nccl_model.nccl_collective("all_reduce", S, nodes=nodes, protocol="LL", ll_max_gb_per_s=ll_cap, **args)
        assert ll["busbw_gb_per_s"].max() <= cap
        free = nccl_model.nccl_collective("all_reduce", S, nodes=nodes, protocol="LL", **args)
        assert free["busbw_gb_per_s"].max() > 1.5 * cap  # without the ceiling LL would run at half the NICs' rate
    # one node: by GPU generation; the catalogue's GPUs carry theirs
    assert nccl_tuning.gpu_ll_max_bus_gb_per_s(model.catalog.gpu("H100-SXM"), 1) == 141.0
    assert nccl_tuning.gpu_ll_max_bus_gb_per_s(model.catalog.gpu("A100-SXM-80GB"), 4) == 19.0  # AMD hosts (DGX A100)


def test_two_h100_nodes_need_ll128_or_simple_from_1_mib():
    """With LL capped at 39 GB/s across two Intel-hosted nodes, a 1 MiB all-reduce takes ~80 µs, as NCCL's tuner
    has it, not the ~55 µs an uncapped LL would promise."""
    t = nccl_table.scenario_table(cluster("H100-SXM", 2, 400.0), "run", "all_reduce", sizes=[2.0**20], algorithm="ring")
    assert t["protocol"][0] != "LL"
    assert 70.0 < t["time_us"][0] < 100.0


def nccl_ll128_tree_chunk(size_bytes, channels, nodes, ranks_per_node):
    """NCCL's own loops for the LL128 tree's chunk (enqueue.cc calcCollChunking), integers as NCCL has them."""
    chunk = 614400 // 16 * 15
    nsteps = 1 + int(np.log2(nodes)) + 0.1 * ranks_per_node
    while size_bytes // (channels * chunk) < nsteps * 64 / ranks_per_node and chunk > 131072:
        chunk //= 2
    while size_bytes // (channels * chunk) < nsteps * 16 / ranks_per_node and chunk > 32768:
        chunk //= 2
    return min(chunk, size_bytes / channels)


@settings(max_examples=60, deadline=None)
@given(st.integers(16, 34), st.sampled_from([2, 4, 8, 16, 24, 32]), st.sampled_from([1, 2, 3, 4, 16, 128, 1024]),
       st.sampled_from([1, 2, 4, 8, 72]))
def test_ll128_tree_chunk_is_nccls(log2_size, channels, nodes, ranks_per_node):
    S = 2 ** log2_size
    chunk, in_node, levels = nccl_tuning.ll128_tree_pipeline(float(S), float(channels), nodes, ranks_per_node)
    assert float(chunk) == pytest.approx(nccl_ll128_tree_chunk(S, channels, nodes, ranks_per_node))
    # a sweep of sizes at once: NCCL's chunk at each
    chunks = nccl_tuning.ll128_tree_pipeline(np.array([S, S // 2]), np.array([channels]), nodes, ranks_per_node)[0]
    assert chunks == pytest.approx([chunk, nccl_ll128_tree_chunk(S // 2, channels, nodes, ranks_per_node)])
    assert float(in_node) + float(levels) == pytest.approx(1 + int(np.log2(nodes)) + 0.1 * ranks_per_node)


def test_few_chunks_leave_the_ll128_tree_pipeline_unfilled():
    """From 4 to 8 MiB the chunk doubles (its fill with it); from 8 to 16 MiB it stays 72,000 B: only the bytes
    add. A model without the fill would add exactly twice as much time for the second doubling."""
    args = dict(ranks_per_node=8, nodes=2, nic_gb_per_s=48.0, nics_per_node=8, intra_busbw_gb_per_s=370.0,
                algorithm="tree", protocol="LL128", architecture="hopper")
    t4, t8, t16 = nccl_model.nccl_collective("all_reduce", 2.0 ** np.array([22, 23, 24]), **args)["time_us"]
    assert t16 - t8 < 1.5 * (t8 - t4)
    # the fill is a medium-size cost: at 1 GiB the busbw is within 5 % of 16 GiB's
    big = nccl_model.nccl_collective("all_reduce", np.array([2.0**30, 2.0**34]), **args)["busbw_gb_per_s"]
    assert big[0] > 0.95 * big[1]


def nccl_nvls_chunk(size_bytes, channels, heads, nodes):
    """NCCL's NVLS (one node) and NVLSTree (across nodes) chunk conditions (enqueue.cc calcCollChunking), as
    NCCL 2.30 has them."""
    ops = channels * heads
    if nodes == 1:
        chunk = 131072
        if size_bytes < 64 * ops * chunk and chunk > 65536:
            chunk = 65536
        if size_bytes < 8 * ops * chunk and chunk > 32768:
            chunk = 32768
        if size_bytes < 2 * ops * chunk and chunk > 16384:
            chunk = 16384
        return chunk
    chunk = 65536 if nodes >= 4 else 131072
    for times, to in ((32, 262144), (16, 131072), (4, 65536), (1, 32768)):
        if size_bytes < times * ops * chunk and chunk > to:
            chunk = to
    return chunk


@settings(max_examples=40, deadline=None)
@given(st.integers(16, 34), st.sampled_from([1, 2, 4, 16]), st.sampled_from([2, 4, 8]))
def test_nvls_chunk_is_nccls(log2_size, nodes, heads):
    channels = float(nccl_tuning.nvls_channels("hopper", nodes))
    assert channels == 16.0  # NVLS_NCHANNELS_SM90
    S = 2 ** log2_size
    assert float(nccl_tuning.nvls_chunk_bytes(float(S), channels, heads, nodes)) == nccl_nvls_chunk(S, 16, heads, nodes)


def test_nvls_chunk_known_values_on_one_h100_node():
    """16 channels × 8 heads: under 1 GiB NCCL drops the 128 KiB chunk to 64 KiB, under 64 MiB to 32 KiB, under
    8 MiB to 16 KiB; NVLSTree on 2 nodes keeps 128 KiB down to 64 MiB, then 64 KiB, under 8 MiB 32 KiB."""
    S = 2.0 ** np.array([22, 23, 24, 26, 29, 30])
    assert nccl_tuning.nvls_chunk_bytes(S, 16, 8, 1).tolist() == [16384, 32768, 32768, 65536, 65536, 131072]
    assert nccl_tuning.nvls_chunk_bytes(S, 16, 8, 2).tolist() == [32768, 65536, 65536, 131072, 131072, 131072]
    # a sweep over one and two nodes at once: each its own rule
    both = nccl_tuning.nvls_chunk_bytes(2.0**24, 16, 8, np.array([1.0, 2.0]))
    assert both.tolist() == [32768, 65536]
    assert float(nccl_tuning.nvls_channels("blackwell", 1)) == 24 and float(nccl_tuning.nvls_channels("blackwell", 2)) == 32


def test_nvls_at_medium_sizes_pays_its_loop_fill_and_small_chunks_steps():
    """16 MiB by NVLS on one H100 node, by hand: each of 16 channels moves 8 heads × 32 KiB a loop through three
    stages (two loops of fill at 274.3 GB/s / 16 channels: 30.6 µs), and the 32 KiB chunk takes 3 steps a head
    more than the 128 KiB one the 480 GB/s busbw was measured with (3 × 3.4 µs): 23 + 30.6 + 10.2 + 61.2 µs."""
    r = nccl_model.nccl_collective("all_reduce", np.array([2.0**24, 2.0**34]), ranks_per_node=8, nodes=1,
                                   nic_gb_per_s=np.inf, nics_per_node=1, intra_busbw_gb_per_s=369.0,
                                   intra_p2p_gb_per_s=450.0, nvls_busbw_gb_per_s=480.0, algorithm="nvls",
                                   architecture="hopper")
    alg_gb_per_s = 480.0 / 1.75
    fill_us = 2 * 8 * 32768 / (alg_gb_per_s / 16) * 1e-3
    assert r["time_us"][0] == pytest.approx(23.0 + fill_us + 3 * 3.4 + 2**24 / alg_gb_per_s * 1e-3, rel=1e-6)
    assert r["busbw_gb_per_s"][1] > 0.99 * 480.0  # at 16 GiB the fill is gone


def test_a_slow_network_proxy_slows_the_ll128_trees_network_steps():
    args = dict(ranks_per_node=8, nodes=16, nic_gb_per_s=48.0, nics_per_node=8, intra_busbw_gb_per_s=370.0,
                algorithm="tree", protocol="LL128", architecture="hopper")
    S = 2.0 ** np.array([20, 30])
    intel, amd = (nccl_model.nccl_collective("all_reduce", S, net_overhead_us=nccl_tuning.net_overhead_us(v),
                                              **args)["time_us"] for v in ("intel", "amd"))
    assert nccl_tuning.net_overhead_us("amd") == 2.0 and nccl_tuning.net_overhead_us("arm") == 1.0
    assert np.all(amd >= intel)
    slowed = nccl_model.nccl_collective("all_reduce", S, net_overhead_us=20.0, **args)["time_us"]
    assert slowed[0] - intel[0] > 2 * 4 * (20.0 - 5.0)  # 4 network levels up and down, each waits ≥ 15 µs more
    assert slowed[1] == intel[1]  # at 1 GiB a 576,000-byte chunk takes longer than the proxy: hidden



def test_a_ring_across_nodes_steps_no_faster_than_its_proxy():
    """tuning.cc: every step of a ring across nodes goes through the network proxy (1 µs on Intel hosts, 2 µs on
    AMD, × 3 for Simple): on AMD hosts a Simple ring's 28 in-node steps of 2 × 8 GPUs cost 6 µs, not NVLink's 3.4."""
    args = dict(ranks_per_node=8, nic_gb_per_s=25.0, nics_per_node=8, intra_busbw_gb_per_s=230.0,
                algorithm="ring", protocol="Simple")
    S = np.array([2.0**20])
    intel, amd = (nccl_model.nccl_collective("all_reduce", S, nodes=2, net_overhead_us=nccl_tuning.net_overhead_us(v),
                                              **args)["time_us"][0] for v in ("intel", "amd"))
    assert amd - intel == pytest.approx(28 * (6.0 - 3.4))
    one_node = [nccl_model.nccl_collective("all_reduce", S, nodes=1, net_overhead_us=o, **args)["time_us"][0]
                for o in (1.0, 2.0)]
    assert one_node[0] == one_node[1]  # no network, no proxy


def test_pcie_gen4_caps_a_400g_nic_of_an_a100_node():
    a100 = engine.nccl_inputs(cluster("A100-SXM-80GB", 4, 400.0))
    h100 = engine.nccl_inputs(cluster("H100-SXM", 4, 400.0))
    # the PCIe slot caps the NIC; the published loss rate's recovery takes a hair off what crosses it
    assert a100["nic_gb_per_s"][0] == pytest.approx(nccl_tuning.pcie_cap_gb_per_s(4), rel=1e-3)
    assert a100["nic_gb_per_s"][0] <= nccl_tuning.pcie_cap_gb_per_s(4)
    assert a100["nic_gb_per_s"][0] < 26.0 < h100["nic_gb_per_s"][0]
    res = model.evaluate(cluster("A100-SXM-80GB", 4, 400.0))
    assert res.at("run").network.ideal_gbps <= 8 * 8 * 25.3


def test_window_limits_bandwidth_at_long_round_trips():
    near = engine.nccl_inputs(cluster("H100-SXM", 4, 400.0, latency_us=2.0))
    far = engine.nccl_inputs(cluster("H100-SXM", 4, 400.0, latency_us=1000.0))
    cap = nccl_tuning.window_cap_gb_per_s(2000.0)
    # the window is taken over the loaded round trip (queueing, switch tiers): a little longer than 2 × latency
    assert far["nic_gb_per_s"][0] == pytest.approx(cap, rel=0.05) and far["nic_gb_per_s"][0] <= cap
    assert cap < near["nic_gb_per_s"][0]
    t_near = nccl_table.scenario_table(cluster("H100-SXM", 4, 400.0, latency_us=2.0), "run", "all_reduce", sizes=BIG)
    t_far = nccl_table.scenario_table(cluster("H100-SXM", 4, 400.0, latency_us=1000.0), "run", "all_reduce", sizes=BIG)
    assert t_far["busbw_GBps"][-1] < 0.5 * t_near["busbw_GBps"][-1]


def test_latency_grows_with_switch_tiers():
    small = engine.nccl_inputs(cluster("H100-SXM", 4, 400.0))["net_latency_us"][0]
    large = engine.nccl_inputs(cluster("H100-SXM", 1024, 400.0))["net_latency_us"][0]
    assert large == pytest.approx(small + 2 * 2 * nccl_tuning.SWITCH_HOP_US["infiniband"])  # 3 tiers vs 1


def test_in_node_and_network_phases_are_pipelined():
    # equal in-node and network bandwidth terms: the pipelined all-reduce costs one of them, not both
    t, _ = collectives.hierarchical_all_reduce_time(8e9, 8, 16, 1e12, 1e12 / 8 * 8 / 7 / (30 / 16) * (2 * 7 / 8),
                                                   0.0, 0.0, bucket_bytes=1e12)
    intra_bw = 2 * 8e9 * 7 / 8 / 1e12
    assert t < 1.5 * intra_bw


def test_sharp_helps_at_scale():
    base = dict(ranks_per_node=8, nodes=64, nic_gb_per_s=47.0, nics_per_node=8, intra_busbw_gb_per_s=369.0)
    off = nccl_model.nccl_collective("all_reduce", BIG, **base)
    on = nccl_model.nccl_collective("all_reduce", BIG, sharp=True, **base)
    assert np.all(on["busbw_gb_per_s"] > 1.05 * off["busbw_gb_per_s"])
    assert np.all(on["busbw_gb_per_s"] <= 369.0 * 1.001 * 0.9 / (2 * 7 / 8) * (2 * 511 / 512))  # NVLink-bound
    assert np.all(on["algorithm"] == nccl_tuning.ALGORITHMS.index("sharp"))


@settings(max_examples=40, deadline=None)
@given(nodes=st.integers(1, 512), nic=st.floats(1.0, 100.0), lat=st.floats(0.5, 500.0),
       kind=st.sampled_from(nccl_tuning.KINDS))
def test_busbw_never_beats_its_bounds(nodes, nic, lat, kind):
    r = nccl_model.nccl_collective(kind, 2.0 ** np.arange(3, 35), ranks_per_node=8, nodes=nodes, nic_gb_per_s=nic,
                                    nics_per_node=8, intra_busbw_gb_per_s=369.0, intra_p2p_gb_per_s=450.0,
                                    net_latency_us=lat)
    assert np.all(np.isfinite(r["time_us"])) and np.all(r["time_us"] > 0)
    if nodes > 1 and kind in ("all_reduce", "all_gather", "reduce_scatter"):
        # without in-network reduction a node's NICs carry at least 2(N−1)/N·S (all-reduce) or (N−1)/N·S
        n = 8 * nodes
        ratio = (n - 1) / n / ((nodes - 1) / nodes)
        assert r["busbw_gb_per_s"].max() <= 8 * nic * ratio * 1.001


@settings(max_examples=40, deadline=None)
@given(nodes=st.integers(1, 64), gpus=st.integers(1, 8), nvls=st.sampled_from([0.0, 480.0]),
       lat=st.floats(0.5, 500.0), kind=st.sampled_from(nccl_tuning.KINDS))
@example(nodes=1, gpus=1, nvls=480.0, lat=1.0, kind="all_reduce")  # a lone GPU: no chain, no NVLS, no warning
def test_the_time_alone_is_the_full_answers_time(nodes, gpus, nvls, lat, kind):
    """The engine's step asks for the time alone: bit for bit the time of the full answer, at every size."""
    args = dict(ranks_per_node=gpus, nodes=nodes, nic_gb_per_s=50.0, nics_per_node=8, intra_busbw_gb_per_s=369.0,
                intra_p2p_gb_per_s=450.0, nvls_busbw_gb_per_s=nvls, net_latency_us=lat)
    sizes = 2.0 ** np.arange(3, 35)
    full = nccl_model.nccl_collective(kind, sizes, **args)
    alone = nccl_model.nccl_collective(kind, sizes, time_only=True, **args)
    assert set(alone) == {"time_us"} and alone["time_us"].tobytes() == full["time_us"].tobytes()
    for j in (0, 12, 20, 31):  # the time is that of the algorithm and protocol the answer names
        forced = nccl_model.nccl_collective(kind, sizes[j], algorithm=nccl_tuning.ALGORITHMS[full["algorithm"][j]],
                                            protocol=nccl_tuning.PROTOCOLS[full["protocol"][j]], **args)
        assert float(forced["time_us"]) == full["time_us"][j]


def test_whole_sweep_is_one_call():
    nics = np.linspace(5.0, 50.0, 256)[:, None]
    r = nccl_model.nccl_collective("all_reduce", 2.0 ** np.arange(3, 35), ranks_per_node=8, nodes=16,
                                    nic_gb_per_s=nics, nics_per_node=8, intra_busbw_gb_per_s=369.0)
    assert r["busbw_gb_per_s"].shape == (256, 32)
    assert np.all(np.diff(r["busbw_gb_per_s"][:, -1]) > 0)


# -- import ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("row", INDEX, ids=[r["file"] for r in INDEX])
def test_every_shared_log_parses(row):
    log = nccl_log.parse_nccl_tests((LOGS / row["file"]).read_text(encoding="utf-8"), source=row["file"])
    assert log.collective == row["file"].rsplit("_", 1)[-1].removesuffix(".txt").replace("allreduce", "all_reduce") \
        .replace("allgather", "all_gather")
    assert log.ranks == int(row["nodes"]) * int(row["gpus_per_node"])
    assert log.nodes in (0, int(row["nodes"]))
    assert len(log.size_bytes) >= 10 and np.all(log.size_bytes > 0) and np.all(np.diff(log.size_bytes) > 0)
    assert np.all(log.time_us > 0)


REAL = (LOGS / "roce_a100_oci_bm_gpu4_2node_16gpu_allreduce.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("transform", [
    lambda t: "\n".join("[1,0]<stdout>:" + line for line in t.splitlines()),
    lambda t: "\n".join(" 0: " + line for line in t.splitlines()),
    lambda t: "\n".join(line.lstrip("#") for line in t.splitlines()),
    lambda t: t.replace("#wrong", " wrong").replace("      0    ", "    N/A    "),
    lambda t: t.replace("           8             2", "node1:12:12 [0] NCCL WARN something\n           0"
                                                      "             0     float     sum      -1     0.10    0.00"
                                                      "    0.00      0     0.10    0.00    0.00      0\n"
                                                      "           8             2"),
], ids=["mpirun-tag", "srun-label", "stripped-hash", "wrong-NA", "info-and-zero-byte"])
def test_log_variants_read_the_same_rows(transform):
    ref = nccl_log.parse_nccl_tests(REAL)
    got = nccl_log.parse_nccl_tests(transform(REAL))
    assert got.collective == ref.collective and got.ranks == ref.ranks
    np.testing.assert_array_equal(got.size_bytes, ref.size_bytes)
    np.testing.assert_array_equal(got.busbw_gb_per_s, ref.busbw_gb_per_s)


def test_old_layout_without_root_and_ranks_from_the_ratio():
    text = ("# size count type redop time algbw busbw error time algbw busbw error\n"
            "1048576 262144 float sum 100.0 10.49 19.66 0e+00 100.0 10.49 19.66 0e+00\n"
            "2097152 524288 float sum 150.0 13.98 26.21 0e+00 150.0 13.98 26.21 0e+00\n")
    log = nccl_log.parse_nccl_tests(text)
    assert log.collective == "all_reduce" and log.ranks == 16 and log.nodes == 0
    np.testing.assert_allclose(log.time_us, [100.0, 150.0])
    assert any("inferred" in n for n in log.notes)


def test_forced_algorithm_is_read_from_the_command_line():
    log = nccl_log.parse_nccl_tests((LOGS / "ib_h100_2node_ndr_ring_tuned_allreduce.txt").read_text())
    assert log.algorithm == "ring"


# -- calibration ----------------------------------------------------------------------------------------------

def model_log_text(setup, frac, lat, nodes=2, simple_hop=None):
    S = 2.0 ** np.arange(3, 35)
    r = nccl_accuracy.predict(setup, "all_reduce", S, ranks_per_node=8, nodes=nodes, achievable_fraction=frac,
                         latency_us=lat, simple_hop_us=simple_hop)
    ranks = "".join(f"#  Rank {i:2d} Group  0 Pid 1 on node{i // 8} device {i % 8} [0x07] GPU\n"
                    for i in range(8 * nodes))
    rows = "".join(f"{int(s):12d} {int(s) // 4:13d} float sum -1 {t:9.2f} {a:7.2f} {b:7.2f} 0 {t:9.2f} {a:7.2f} "
                   f"{b:7.2f} 0\n" for s, t, a, b in zip(S, r["time_us"], r["algbw_gb_per_s"], r["busbw_gb_per_s"]))
    return (f"$ mpirun -x NCCL_ALGO={setup.algorithm} ./all_reduce_perf -b 8 -e 16G\n{ranks}"
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
            "   busbw #wrong\n" + rows)


@pytest.mark.parametrize("frac,lat", [(0.9, 3.0), (0.6, 40.0), (0.35, 200.0)])
def test_calibration_recovers_the_model_and_round_trips_through_the_engine(frac, lat, tmp_path):
    setup = nccl_accuracy.NcclSetup("H100-SXM", 400.0, 8, "roce", "ring")
    log = nccl_log.parse_nccl_tests(model_log_text(setup, frac, lat))
    fit = nccl_fit.fit_model(log, setup)
    assert fit.achievable_fraction == pytest.approx(frac, rel=0.06)
    assert fit.errors["large_max"] <= nccl_accuracy.LARGE_TOLERANCE
    assert fit.errors["medium_max"] <= nccl_accuracy.MEDIUM_TOLERANCE
    values = nccl_fit.fabric_from_model_fit(fit)
    scen = nccl_fit.apply_to_scenario(cluster("H100-SXM", 2, 400.0, transport="roce"), "lab", values)
    table = nccl_table.scenario_table(scen, "lab", "all_reduce", sizes=log.size_bytes, algorithm="ring")
    err = nccl_accuracy.size_errors(log, table["busbw_GBps"])
    assert err["large_max"] <= 0.05 and err["medium_max"] <= 0.15


def index_fit(row):
    log = nccl_log.parse_nccl_tests((LOGS / row["file"]).read_text(), nodes=int(row["nodes"]))
    setup = nccl_accuracy.NcclSetup(row["gpu"], float(row["link_gbps"]), int(row["nics_per_node"]), row["fabric"],
                               row["algorithm"])
    return log, nccl_fit.fit_model(log, setup)


@pytest.mark.parametrize("row", [r for r in INDEX if int(r["nodes"]) >= 2 and validation.predictable(r)],
                         ids=lambda r: r["file"])
def test_calibrated_fabric_reproduces_its_fit_through_the_engine(row):
    log, fit = index_fit(row)
    assert np.isfinite(fit.errors["rms"])
    if not nccl_accuracy.within_tolerance(fit.errors):
        assert any("misses this log" in w for w in fit.warnings)  # the miss is reported, not hidden
    scen = scenario_from_dict({"cluster": {"gpu": row["gpu"], "nodes": int(row["nodes"]), "gpus_per_node": 8},
                               "fabric": {"profile_set": "published", "compare": ["lab"],
                                          "custom": {"lab": nccl_fit.fabric_from_model_fit(fit)}}})
    table = nccl_table.scenario_table(scen, "lab", log.collective, sizes=log.size_bytes, algorithm=row["algorithm"])
    np.testing.assert_allclose(table["busbw_GBps"], fit.prediction["busbw_gb_per_s"], rtol=2e-3)


# the clean real logs (and the two out-of-scope ones, which happen to fit too); the RoCE log's documented dip
# at 512 MiB is left out of the fit and named, never fitted
CLEAN_LOGS = {"ib_h100_2node_ndr_ring_tuned_allreduce.txt": (), "ib_h100_nebius_2node_allreduce.txt": (),
              "nvlink_h100_dgx_1node_8gpu_allreduce.txt": (),
              "roce_a100_oci_bm_gpu4_2node_16gpu_allreduce.txt": (512 * 2**20,),
              "efa_h100_p5_2node_allreduce.txt": (), "tcpxo_h100_gcp_a3mega_2node_allgather.txt": ()}


@pytest.mark.parametrize("name", sorted(CLEAN_LOGS))
def test_calibration_of_a_real_log_round_trips_within_tolerance(name):
    row = next(r for r in INDEX if r["file"] == name)
    log, fit = index_fit(row)
    e = fit.errors
    assert e["dip_bytes"] == CLEAN_LOGS[name]
    assert e["large_max_clean"] <= nccl_accuracy.LARGE_TOLERANCE  # within 5 % at >= 64 MiB
    assert e["medium_max_clean"] <= nccl_accuracy.MEDIUM_TOLERANCE  # within 15 % at each size >= 1 MiB
    assert not any("misses this log" in w for w in fit.warnings)
    summary = nccl_accuracy.error_summary(e)
    assert f"max {e['large_max_clean'] * 100:.1f}%" in summary and "within" in summary
    if int(row["nodes"]) < 2:
        return  # one node: no fabric to make, the fit itself is the round trip
    scen = scenario_from_dict({"cluster": {"gpu": row["gpu"], "nodes": int(row["nodes"]), "gpus_per_node": 8},
                               "fabric": {"profile_set": "published", "compare": ["lab"],
                                          "custom": {"lab": nccl_fit.fabric_from_model_fit(fit)}}})
    table = nccl_table.scenario_table(scen, "lab", log.collective, sizes=log.size_bytes, algorithm=row["algorithm"])
    assert nccl_accuracy.within_tolerance(nccl_accuracy.size_errors(log, table["busbw_GBps"]))


def test_the_roce_logs_dip_is_named_with_its_error():
    row = next(r for r in INDEX if r["file"].startswith("roce_a100_oci"))
    _, fit = index_fit(row)
    assert fit.errors["large_max"] > nccl_accuracy.LARGE_TOLERANCE  # the dip itself is missed ...
    assert any("dips by up to 5% at 512 MiB" in w for w in fit.warnings)  # ... and said so
    assert "512 MiB" in nccl_accuracy.error_summary(fit.errors)


def test_a_dip_put_into_a_model_made_log_is_found_and_left_out():
    setup = nccl_accuracy.NcclSetup("H100-SXM", 400.0, 8, "infiniband", "ring")
    text = model_log_text(setup, 0.8, 5.0)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split()[:1] == [str(2**28)])
    cols = lines[at].split()
    cols[5], cols[6], cols[7] = f"{float(cols[5]) * 1.25:.2f}", f"{float(cols[6]) / 1.25:.2f}", \
        f"{float(cols[7]) / 1.25:.2f}"  # 256 MiB 25 % slower: a shared, noisy moment
    lines[at] = " ".join(cols)
    log = nccl_log.parse_nccl_tests("\n".join(lines) + "\n")
    fit = nccl_fit.fit_model(log, setup)
    assert fit.errors["dip_bytes"] == (2**28,)
    before = log.busbw_gb_per_s[log.size_bytes == 2**27][0]
    assert fit.errors["dip_depth"] == pytest.approx(1.0 - log.busbw_gb_per_s[log.size_bytes == 2**28][0] / before)
    assert nccl_accuracy.within_tolerance(fit.errors)
    assert fit.errors["per_row"][log.size_bytes == 2**28][0] == pytest.approx(0.25, abs=0.05)
    assert fit.achievable_fraction == pytest.approx(0.8, rel=0.06)


@pytest.mark.parametrize("params", [dict(ll128_efficiency=0.7, fill_bytes=512 * 1024.0),
                                    dict(ll_hop_us=20.0, ll128_hop_us=8.0, simple_hop_us=30.0),
                                    dict(tree_efficiency=0.6, simple_hop_us=5.0)])
def test_calibration_recovers_protocol_parameters_of_a_model_made_log(params):
    setup = nccl_accuracy.NcclSetup("H100-SXM", 400.0, 8, "infiniband", "auto")
    S = 2.0 ** np.arange(3, 35)
    r = nccl_accuracy.predict(setup, "all_reduce", S, ranks_per_node=8, nodes=4, achievable_fraction=0.7,
                         latency_us=4.0, **params)
    ranks = "".join(f"#  Rank {i:2d} Group  0 Pid 1 on node{i // 8} device {i % 8} [0x07] GPU\n" for i in range(32))
    rows = "".join(f"{int(s):12d} {int(s) // 4:13d} float sum -1 {t:9.2f} {a:7.2f} {b:7.2f} 0\n"
                   for s, t, a, b in zip(S, r["time_us"], r["algbw_gb_per_s"], r["busbw_gb_per_s"]))
    log = nccl_log.parse_nccl_tests(ranks + "#  size count type redop root time algbw busbw #wrong\n" + rows)
    fit = nccl_fit.fit_model(log, setup)
    assert nccl_accuracy.within_tolerance(fit.errors)
    assert fit.errors["medium_max"] <= 0.05  # a log the model made: close everywhere it is judged
    # the defaults would miss it: the extra parameters are what the fit needed
    plain = nccl_accuracy.predict(setup, "all_reduce", S, ranks_per_node=8, nodes=4, achievable_fraction=0.7,
                             latency_us=4.0)
    assert not nccl_accuracy.within_tolerance(nccl_accuracy.size_errors(log, plain["busbw_gb_per_s"]))


def test_two_node_default_algorithm_and_pathology_get_warnings():
    rows = {r["file"]: r for r in INDEX}

    def warnings(name):
        r = rows[name]
        log = nccl_log.parse_nccl_tests((LOGS / name).read_text(), nodes=int(r["nodes"]))
        return nccl_accuracy.log_warnings(log, nccl_accuracy.NcclSetup(r["gpu"], float(r["link_gbps"]),
                                                              int(r["nics_per_node"]), r["fabric"]))
    assert any("above the NICs' line rate" in w for w in warnings("ib_h100_nebius_2node_allreduce.txt"))
    assert any("under 30%" in w for w in warnings("pathology_h100_2node_ndr_lowbw_ring_allreduce.txt"))
    assert not any("under 30%" in w or "above" in w for w in warnings("ib_h100_2node_ndr_ring_tuned_allreduce.txt"))


# -- network validation ---------------------------------------------------------------------------------------

def test_network_validation_within_tolerance_and_names_every_log():
    rows = validation.validate_network()
    assert {r.file for r in rows} == {r["file"] for r in INDEX}
    judged = [r for r in rows if r.judged]
    assert len(judged) >= 4
    errs = np.array([r.large_median for r in judged])
    assert np.median(errs) <= validation.NETWORK_MEDIAN_TOLERANCE
    assert np.all(errs <= validation.NETWORK_ROW_TOLERANCE)
    # the tuned ring's ~157 µs from 1 to 2 MiB is a floor of that run's settings (24 forced channels), named
    notes = {r.file: " ".join(r.warnings) for r in rows}
    assert "floor" in notes["ib_h100_2node_ndr_ring_tuned_allreduce.txt"]
    assert "floor" not in notes["ib_h100_nebius_2node_allreduce.txt"]
    # medium sizes (1-16 MiB): the LL128 tree's pipeline fill keeps every judged log without a named floor within
    # 40 % (without it the 2-node default-algorithm logs were 48-59 % optimistic)
    assert all(r.medium_max <= 0.4 for r in judged if "floor" not in notes[r.file])
    patho = next(r for r in rows if r.scope == "pathology")
    assert patho.large_median > 1.0 and any("under 30%" in w for w in patho.warnings)  # named, not tuned to
    assert validation.network_summary(rows)["passed"]


def test_nvlink_medium_sizes_within_ten_percent_of_the_dgx_log():
    """One DGX H100's NVLS all-reduce from 8 to 32 MiB: NCCL's small NVLS chunks and its loop's pipeline fill put
    the engine within 10 % of the measured busbw (without them it was 30-36 % optimistic); the 2-node Nebius log's
    NVLSTree sizes ≥ 64 MiB within 5 % (14.5 % without them, 6.6 % with them but the tree's 50 µs network hop in
    place of NVLSTree's own 14 µs)."""
    rows = {r.file: r for r in validation.validate_network()}
    nvl = rows["nvlink_h100_dgx_1node_8gpu_allreduce.txt"]
    band = (nvl.sizes >= 2**23) & (nvl.sizes <= 2**25)
    assert band.sum() == 3
    assert np.max(np.abs(nvl.engine[band] / nvl.measured[band] - 1.0)) < 0.10
    nebius = rows["ib_h100_nebius_2node_allreduce.txt"]
    assert nebius.large_max < 0.05


def test_network_validation_judges_tcp_logs():
    """TCP is judged like every fabric: the GPUDirect-TCPXO run as TCP with its payload in GPU memory; the socket
    run of unstated line rate, whose busbw swings ±20 % between large sizes, is a named pathology, shown unjudged."""
    rows = {r.file: r for r in validation.validate_network()}
    tcpxo = rows["tcpxo_h100_gcp_a3mega_2node_allgather.txt"]
    assert tcpxo.judged and "gpudirect_tcp" in tcpxo.setup
    assert tcpxo.large_median <= validation.NETWORK_ROW_TOLERANCE
    socket = rows["socket_tcp_v100_2node_1gpu_bcm_manual_allreduce.txt"]
    assert not socket.judged and socket.scope == "pathology" and np.isnan(socket.engine_peak_gb_per_s)
    assert "unstated speed" in socket.setup and socket.measured_peak_gb_per_s > 0.9


# -- command line ---------------------------------------------------------------------------------------------

DEFAULT = "assets/presets/default.toml"


def test_nccl_command_prints_the_nccl_tests_table(capsys):
    from gui.cli.main import main

    assert main(["nccl", DEFAULT, "--fabric", "infiniband", "--collective", "all_gather", "--nodes", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line for line in out if not line.startswith("#")]
    assert len(rows) == 32 and rows[0].split()[0] == "8" and rows[-1].split()[0] == str(2**34)
    assert "algbw" in out[1] and "busbw" in out[1]


def test_nccl_command_json_and_compare(capsys):
    from gui.cli.main import main

    log = LOGS / "ib_h100_2node_ndr_ring_tuned_allreduce.txt"
    assert main(["nccl", DEFAULT, "--fabric", "infiniband", "--nodes", "2", "--json", "--compare", str(log)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"bytes", "time_us", "algbw_GBps", "busbw_GBps"} <= set(doc["rows"][0])
    by_size = {r["bytes"]: r for r in doc["rows"]}
    assert by_size[2.0**33]["measured_busbw_GBps"] == pytest.approx(392.69)
    assert by_size[8.0]["busbw_error"] is None


@pytest.mark.parametrize("argv,field", [
    (["--fabric", "nope"], "--fabric"),
    (["--fabric", "roce", "--collective", "broadcast"], "--collective"),
    (["--fabric", "roce", "--nodes", "0"], "--nodes"),
])
def test_nccl_command_bad_input_is_one_line_and_exit_2(argv, field, capsys):
    from gui.cli.main import main

    assert main(["nccl", DEFAULT] + argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and field in err[0]


def test_alltoall_and_sendrecv_are_bounded_by_a_gpus_share_of_the_nics():
    base = dict(ranks_per_node=8, nodes=32, nic_gb_per_s=47.0, nics_per_node=8, intra_busbw_gb_per_s=369.0,
                intra_p2p_gb_per_s=450.0)
    a2a = nccl_model.nccl_collective("all_to_all", BIG, **base)["busbw_gb_per_s"]
    # each GPU sends (N−1)/N of its data through its share of the node's NICs: busbw ≈ 47 · (n−1)/n / ((N−1)/N)
    assert a2a[-1] == pytest.approx(47.0 * (255 / 256) / (31 / 32), rel=0.03)
    sr = nccl_model.nccl_collective("sendrecv", BIG, **base)["busbw_gb_per_s"]
    assert sr[-1] == pytest.approx(47.0, rel=0.03)


# -- tensor- and pipeline-parallel traffic inside the node ---------------------------------------------------

def test_in_node_collectives_are_the_collective_models_one_node_figures():
    S = 2.0 ** np.arange(10, 31, 2)
    t = nccl_model.in_node_collective_time("all_reduce", S, 8, 369e9, 450e9)
    ref = nccl_model.nccl_collective("all_reduce", S, ranks_per_node=8, nodes=1, nic_gb_per_s=np.inf,
                                      nics_per_node=1, intra_busbw_gb_per_s=369.0, intra_p2p_gb_per_s=450.0)
    np.testing.assert_allclose(t, ref["time_us"] * 1e-6)
    assert nccl_model.in_node_collective_time("all_reduce", S, 1, 369e9, 450e9).max() == 0.0
    # protocols and the pipeline fill cost time at 1-16 MiB where the straight α-β line does not ...
    ab = collectives.collective_time("all_reduce", S, 8, 369e9, collectives.NCCL_NVLINK_STEP_US * 1e-6)
    mid = (S >= 2**20) & (S <= 2**24)
    assert np.all(t[mid] > 1.3 * ab[mid])
    # ... and at 1 GiB both are bandwidth-bound
    assert t[-1] == pytest.approx(ab[-1], rel=0.03)
    send = nccl_model.in_node_collective_time("sendrecv", S, 4, 369e9, 450e9)
    assert send[-1] == pytest.approx(S[-1] / 450e9, rel=0.02)


@pytest.mark.parametrize("kind", ["all_reduce", "sendrecv"])
def test_in_node_collectives_match_the_collective_model_bit_for_bit(kind):
    # the engine's in-node collectives on grids of sizes, group sizes and bandwidths (with and without NVLink SHARP
    # and an LL cap, mixed in one grid): the same bits as the general model's one-node figures
    rng = np.random.default_rng(7)
    n = 4000
    size = np.where(rng.random(n) < 0.05, 0.0, 10.0 ** rng.uniform(0, 11, n))
    ranks = rng.integers(1, 17, n).astype(float)
    busbw, p2p = 10.0 ** rng.uniform(9, 12, (2, n))
    nvls = np.where(rng.random(n) < 0.5, 0.0, 10.0 ** rng.uniform(9, 12, n))
    ll_max = np.where(rng.random(n) < 0.5, np.inf, 10.0 ** rng.uniform(9, 12, n))
    for args in ((size, ranks, busbw, p2p, nvls, ll_max), (size, ranks, 369e9, 450e9, 0.0, np.inf),
                 (size[:, None], ranks[None, :40], 369e9, 450e9, 480e9, 141e9), (size, 8.0, 369e9, 450e9, 480e9, 141e9),
                 (size[:, None], np.array([[2.0, 4.0, 8.0]]), busbw[:, None], p2p[:, None], nvls[:, None], 141e9),
                 # a model-size sweep's layer terms: (models, plans), more distinct sizes than the few kept, fewer
                 # entries than are computed at their distinct values
                 (size[:20, None] * np.repeat([1.0, 2.0, 4.0], 12)[None, :], np.tile([1.0, 2.0, 4.0, 8.0], 9)[None, :],
                  369e9, 450e9, 480e9, 141e9)):
        S, R, bw, pp, nv, ll = args
        ref = nccl_model.nccl_collective(kind, S, ranks_per_node=2.0 if kind == "sendrecv" else np.maximum(R, 2.0),
                                          nodes=1.0, nic_gb_per_s=np.inf, nics_per_node=1.0,
                                          intra_busbw_gb_per_s=np.asarray(bw) / 1e9,
                                          intra_p2p_gb_per_s=np.asarray(pp) / 1e9,
                                          nvls_busbw_gb_per_s=np.asarray(nv) / 1e9, ll_max_gb_per_s=np.asarray(ll) / 1e9)
        want = np.where(R > 1, ref["time_us"] * 1e-6, 0.0)
        got = nccl_model.in_node_collective_time(kind, S, R, bw, pp, nv, ll)
        assert got.shape == want.shape
        assert got.tobytes() == want.tobytes()


def test_the_engines_tensor_parallel_all_reduces_go_through_the_collective_model():
    s = model.load_scenario(DEFAULT).replace_many({"parallel.mode": "explicit", "parallel.tp": 8, "parallel.pp": 1,
                                                   "workload.global_batch": 1032, "workload.recompute": "selective",
                                                   "cluster.slow_host_fraction": 0.0})  # no stragglers' share
    r = model.evaluate(s).at("roce")
    arch, plan = r.workload, r.plan
    g = model.catalog.gpu(s.cluster.gpu)
    msg = plan.micro_batch * s.workload.seq_len * arch.hidden * 2  # bf16 activations of one micro-batch
    one = nccl_model.in_node_collective_time("all_reduce", msg, 8, g["intra_gb_per_s"] * g["intra_busbw_fraction"]
                                              * 1e9, g["intra_gb_per_s"] * 1e9)
    # 4 all-reduces per layer (2 forward, 2 backward; selective recomputation adds none) per micro-batch
    assert r.breakdown.tp_comm == pytest.approx(plan.microbatches * arch.layers * 4 * one, rel=1e-6)


@pytest.mark.parametrize("gpu", ["H100-SXM", "A100-SXM-80GB"])
def test_tensor_parallel_all_reduces_use_nvlink_sharp_where_the_node_has_it(gpu):
    g = model.catalog.gpu(gpu)
    ring_bw, p2p_bw, nvls_bw = (g["intra_gb_per_s"] * g["intra_busbw_fraction"] * 1e9, g["intra_gb_per_s"] * 1e9,
                                g["nvls_busbw_gb_per_s"] * 1e9)
    msg = 4 * 4096 * 8192 * 2.0  # a micro-batch of 4 × 4k tokens of hidden 8,192 in bf16
    without = nccl_model.in_node_collective_time("all_reduce", msg, 8, ring_bw, p2p_bw)
    with_nvls = nccl_model.in_node_collective_time("all_reduce", msg, 8, ring_bw, p2p_bw, nvls_bw)
    s = model.scenario_from_dict({
        "cluster": {"gpu": gpu, "nodes": 16, "gpus_per_node": 8, "slow_host_fraction": 0.0},  # no stragglers' share
        "workload": {"layers": 32, "hidden": 8192, "heads": 64, "seq_len": 4096, "global_batch": 256,
                     "micro_batch": 4, "recompute": "selective"},
        "parallel": {"mode": "explicit", "tp": 8, "pp": 1}})
    r = model.evaluate(s).at("roce")
    per_layer = r.breakdown.tp_comm / (r.plan.microbatches * 32 * 4)
    assert per_layer == pytest.approx(with_nvls, rel=1e-6)
    if nvls_bw > 0:  # H100: NVSwitch 3 reduces in the switch, ~480 GB/s bus bandwidth against the ring's ~370
        assert with_nvls < 0.85 * without
    else:  # A100: no NVLink SHARP, the ring (or tree) as before
        assert with_nvls == without


def test_calibrate_then_nccl_compare_round_trips_on_the_command_line(tmp_path, capsys):
    from gui.cli.main import main

    log = LOGS / "ib_h100_2node_ndr_ring_tuned_allreduce.txt"
    out = tmp_path / "lab.toml"
    assert main(["calibrate", str(log), "--nodes", "2", "--link-gbps", "400", "--nics-per-node", "8",
                 "--transport", "infiniband", "--gpu", "H100-SXM", "--scenario",
                 "assets/presets/case3_centre_128xH100_1T.toml", "--out", str(out), "--name", "lab",
                 "--loss-rate", "0"]) == 0
    printed = capsys.readouterr().out
    assert "busbw error at ≥ 64 MiB" in printed and "within" in printed  # the fit error is reported
    # the log forced NCCL_ALGO=Ring: the comparison runs the ring too
    assert main(["nccl", str(out), "--fabric", "lab", "--nodes", "2", "--json", "--compare", str(log)]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    err = {r["bytes"]: abs(r["busbw_error"]) for r in rows if r["busbw_error"] is not None}
    assert max(e for b, e in err.items() if b >= nccl_accuracy.LARGE_BYTES) <= nccl_accuracy.LARGE_TOLERANCE
    assert max(e for b, e in err.items() if b >= nccl_accuracy.MEDIUM_BYTES) <= nccl_accuracy.MEDIUM_TOLERANCE
    assert {r["algorithm"] for r in rows} == {"ring"}


def test_nccl_command_refuses_an_algorithm_that_cannot_run_the_collective(capsys):
    from gui.cli.main import main

    assert main(["nccl", DEFAULT, "--fabric", "roce", "--collective", "all_gather", "--algorithm", "tree"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "algorithm" in err[0] and "tree" in err[0]


@pytest.mark.parametrize("kind", ["all_reduce", "sendrecv"])
def test_few_distinct_in_node_collectives_are_the_collective_models_bits(kind):
    # a plan search's candidates: hundreds of collectives of a dozen (size, ranks), each timed once and read at
    # every entry: the same bits as the general model timing every entry
    rng = np.random.default_rng(11)
    b = rng.choice([1.0, 2.0, 4.0], 500)
    ranks = rng.choice([1.0, 2.0, 4.0, 8.0], 500)
    size = b * 4096 * 7168 * 2.0
    for bw, pp, nv, ll in ((369e9, 450e9, 480e9, 141e9), (369e9, 450e9, 0.0, np.inf)):
        ref = nccl_model.nccl_collective(kind, size, ranks_per_node=2.0 if kind == "sendrecv" else np.maximum(ranks, 2.0),
                                          nodes=1.0, nic_gb_per_s=np.inf, nics_per_node=1.0,
                                          intra_busbw_gb_per_s=np.full(500, bw) / 1e9,
                                          intra_p2p_gb_per_s=np.full(500, pp) / 1e9,
                                          nvls_busbw_gb_per_s=np.full(500, nv) / 1e9,
                                          ll_max_gb_per_s=np.full(500, ll) / 1e9)
        want = np.where(ranks > 1, ref["time_us"] * 1e-6, 0.0)
        got = nccl_model.in_node_collective_time(kind, size, ranks, bw, pp, nv, ll)
        assert got.tobytes() == want.tobytes()
