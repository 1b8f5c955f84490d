"""Fat-tree counts against the NVIDIA DGX SuperPOD reference architectures."""

import numpy as np
from numpy.testing import assert_allclose

import model
from model.topology import fat_tree, optics_count


def test_superpod_h100_four_sus_two_levels():
    # H100 SuperPOD, 4 scalable units, 1,024 GPU ports on 64-port NDR switches: 32 leaf + 16 spine
    t = fat_tree(1024, 64)
    assert (t["levels"], t["leaf"], t["spine"], t["core"], t["switches"]) == (2, 32, 16, 0, 48)
    assert t["links"] == 2 * 1024


def test_superpod_b200_sixteen_sus_three_levels():
    # B200 SuperPOD, 16 SUs, 4,096 GPUs: 128 leaf + 128 spine + 64 core = 320 switches, 3 x 4,096 cables
    t = fat_tree(4096, 64)
    assert (t["levels"], t["leaf"], t["spine"], t["core"], t["switches"]) == (3, 128, 128, 64, 320)
    assert t["links"] == 3 * 4096


def test_closed_forms_and_arrays():
    n = np.array([128.0, 2048.0, 8192.0, 65536.0])
    t = fat_tree(n, 64)
    two = n <= 64 ** 2 / 2
    assert_allclose(t["switches"], np.where(two, 3 * n / 64, 5 * n / 64))
    assert_allclose(t["links"], np.where(two, 2 * n, 3 * n))
    assert fat_tree(24, 64)["switches"] == 1 and fat_tree(24, 64)["links"] == 24


def test_oversubscription_needs_fewer_switches_and_never_more():
    base = fat_tree(1024, 64)
    over = fat_tree(1024, 64, 3.0)
    assert over["switches"] < base["switches"] and over["links"] < base["links"]
    # 3:1 leaves: 48 down, 16 up -> 22 leaves, 352 uplinks on 6 spines
    assert (over["leaf"], over["spine"]) == (22, 6)


def test_optics_two_per_link_end():
    assert optics_count(1024, 1024, True) == 4096
    assert optics_count(1024, 1024, False) == 2048


def test_engine_reports_counts_for_a_superpod_sized_cluster():
    s = model.scenario_from_dict({"cluster": {"gpu": "H100-SXM", "nodes": 128, "gpus_per_node": 8},
                                  "workload": {"params_b": 30.0},
                                  "fabric": {"profile_set": "published", "compare": ["infiniband"]}})
    r = model.evaluate(s)
    assert r.network.switches[0] == 48 and r.network.links[0] == 2048 and r.network.nics[0] == 1024


def test_sweep_fabric_counts_are_the_fat_tree_of_its_nics():
    """A nodes sweep's switches, links, optics and tree levels are :func:`fat_tree` of each fabric's NICs at each
    point (the engine builds the tree once for its latency and its counts), the levels its own array."""
    import model
    from model import topology

    s = model.load_scenario("assets/presets/default.toml").replace("topology.oversubscription", 2.0)
    nodes = np.array([1.0, 8.0, 40.0, 300.0, 3000.0])
    res = model.sweep(s, "cluster.nodes", nodes)
    for i, row in enumerate(res.fabric_rows):
        nics = nodes * float(row.values["nics_per_node"])
        t = fat_tree(nics, float(row.values["switch_radix"]), 2.0)
        assert np.array_equal(res.network.switches[i], t["switches"]) and np.array_equal(res.network.links[i], t["links"])
        assert np.array_equal(res.network.optics[i], optics_count(nics, t["switch_links"], s.topology.nic_links_optical))
        for k in ("levels", "leaf", "spine", "core"):
            assert np.array_equal(getattr(res.network, f"fat_tree_{k}")[i], t[k])
    assert np.array_equal(res.network.switch_levels, res.network.fat_tree_levels)
    assert not np.shares_memory(res.network.switch_levels, res.network.fat_tree_levels)
    assert topology.outputs({"nodes": nodes, "oversubscription": 2.0, "nic_links_optical": 1.0},
                            {"nics_per_node": 8.0, "switch_radix": 64.0})["fat_tree"]["levels"].tolist() == \
        fat_tree(nodes * 8.0, 64.0, 2.0)["levels"].tolist()
