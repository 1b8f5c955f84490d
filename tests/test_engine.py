"""The engine as a whole: evaluate, sweep, plans, profiles, custom fabrics."""

from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose

import model
from model import BREAKDOWN_KEYS, ScenarioError, evaluate, sweep

DEFAULT = "assets/presets/default.toml"
PRESETS = sorted(p.name for p in (Path(__file__).resolve().parents[1] / "assets" / "presets").glob("*.toml"))


@pytest.fixture(scope="module")
def scen():
    return model.load_scenario(DEFAULT)


def test_evaluate_all_fabrics_finite(scen):
    res = evaluate(scen)
    assert res.fabrics == ("ethernet", "roce", "iwarp", "infiniband")
    for key in ("step_time_s", "mfu", "hfu", "tokens_per_s", "train_days", "model_tflops_per_gpu"):
        arr = res.metric(key)
        assert arr.shape == (4,)
        assert np.all(np.isfinite(arr)) and np.all(arr > 0), key
    assert np.all(res.throughput.mfu < 1) and np.all(res.throughput.hfu >= res.throughput.mfu)


def test_breakdown_sums_to_step_time(scen):
    res = evaluate(scen)
    total = sum(getattr(res.breakdown, k) for k in BREAKDOWN_KEYS)
    assert_allclose(total, res.throughput.step_time_s, rtol=1e-9)
    for k in BREAKDOWN_KEYS:
        assert np.all(getattr(res.breakdown, k) >= -1e-12), k


def test_days_follow_tokens(scen):
    res = evaluate(scen)
    tokens = scen.workload.train_tokens_b * 1e9
    assert_allclose(res.throughput.train_days, tokens / res.throughput.tokens_per_s / 86400)
    res2 = evaluate(scen.replace("workload.train_tokens_b", scen.workload.train_tokens_b * 2))
    assert_allclose(res2.throughput.train_days, 2 * res.throughput.train_days)


def test_seed_profile_orders_fabrics_as_physics_says(scen):
    d = evaluate(scen).throughput.train_days
    eth, roce, iwarp, ib = d
    assert ib < roce < eth and ib < iwarp < eth


def test_sweep_shapes_and_pointwise_agreement(scen):
    nodes = np.array([4, 8, 16, 24, 48, 64])
    res = sweep(scen, "cluster.nodes", nodes)
    assert res.throughput.step_time_s.shape == (4, nodes.size)
    assert res.breakdown.compute.shape == (4, nodes.size)
    assert_allclose(res.x, nodes)
    for j, n in enumerate(nodes):
        single = evaluate(scen.replace("cluster.nodes", int(n)), require_feasible=False)
        assert_allclose(res.throughput.step_time_s[:, j], single.throughput.step_time_s, rtol=1e-12)
        assert_allclose(res.plan.pp[:, j], single.plan.pp)


def test_sweep_of_one_fabric_changes_only_that_fabric(scen):
    lat = np.array([1.0, 100.0, 1000.0])
    res = sweep(scen, "fabric.roce.latency_us", lat)
    base = evaluate(scen)
    i = res.fabric_index("roce")
    others = [k for k in range(4) if k != i]
    for k in others:
        assert_allclose(res.throughput.step_time_s[k], base.throughput.step_time_s[k])
    assert res.throughput.step_time_s[i, 2] > res.throughput.step_time_s[i, 0]


def test_sweep_all_fabrics_latency(scen):
    res = sweep(scen, "fabric.latency_us", [1.0, 1000.0])
    assert np.all(res.throughput.step_time_s[:, 1] > res.throughput.step_time_s[:, 0])


def test_sweep_params_includes_infeasible_points_as_nan(scen):
    res = sweep(scen, "workload.params_b", [1.0, 30.0, 50_000.0])
    assert np.all(np.isfinite(res.throughput.mfu[:, :2]))
    assert np.all(np.isnan(res.throughput.mfu[:, 2])) and not np.any(res.plan.feasible[:, 2])


def test_sweep_bad_field_and_values(scen):
    with pytest.raises(ScenarioError, match="did you mean 'cluster.nodes'"):
        sweep(scen, "cluster.node", [1, 2])
    with pytest.raises(ScenarioError, match="whole numbers"):
        sweep(scen, "cluster.nodes", [1.5, 2])
    with pytest.raises(ScenarioError, match="fabric.loss_rate"):
        sweep(scen, "fabric.loss_rate", [0.1, 0.9])
    with pytest.raises(ScenarioError, match="compared fabric"):
        sweep(scen, "fabric.myrinet.latency_us", [1.0])


def test_explicit_plan_is_respected():
    s = model.scenario_from_dict({
        "cluster": {"gpu": "A100-SXM-80GB", "nodes": 8, "gpus_per_node": 8},
        "workload": {"params_b": 30, "global_batch": 512},
        "parallel": {"tp": 8, "pp": 2, "virtual_stages": 1},
    })
    res = evaluate(s)
    assert np.all(res.plan.tp == 8) and np.all(res.plan.pp == 2) and np.all(res.plan.dp == 4)


def test_auto_plan_keeps_tensor_parallel_inside_a_node(scen):
    res = sweep(scen, "cluster.nodes", np.arange(4, 65))
    tp = res.plan.tp
    assert np.nanmax(tp) <= scen.cluster.gpus_per_node


def test_plan_that_does_not_fit_raises_clear_error():
    s = model.scenario_from_dict({
        "cluster": {"gpu": "A10", "nodes": 1, "gpus_per_node": 8},
        "workload": {"params_b": 175},
    })
    with pytest.raises(ScenarioError, match="fits"):
        evaluate(s)


def test_profile_sets_differ_and_published_is_faster_for_ethernet(scen):
    seed = evaluate(scen)
    pub = evaluate(scen.replace("fabric.profile_set", "published"))
    assert not np.allclose(seed.throughput.step_time_s, pub.throughput.step_time_s)
    # published: one 400G NIC per GPU instead of one 100G NIC per node
    assert pub.network.line_gbps[0] > seed.network.line_gbps[0]


def test_custom_fabric_and_override():
    s = model.scenario_from_dict({
        "workload": {"params_b": 7},
        "cluster": {"nodes": 8},
        "fabric": {"compare": ["infiniband", "slow_ib"],
                   "custom": {"slow_ib": {"transport": "infiniband", "link_gbps": 25.0},
                              "infiniband": {"latency_us": 2.0}}},
    })
    res = evaluate(s)
    assert res.fabrics == ("infiniband", "slow_ib")
    ib, slow = res.at("infiniband"), res.at("slow_ib")
    assert slow.network.line_gbps == 25.0
    assert slow.throughput.step_time_s > ib.throughput.step_time_s
    rows = model.resolve_fabrics(s)
    assert rows[0].values["latency_us"] == 2.0 and rows[0].sources["latency_us"] == "scenario"
    assert rows[1].sources["link_gbps"] == "scenario" and rows[1].sources["latency_us"] == "seed profile"


def test_fabric_rows_follow_the_fabric_section_from_sweep_to_sweep():
    """Sweeps of one scenario, of a copy that changes another section, of one that changes a fabric and again
    of the first: each result's fabrics, labels and line rates are its own scenario's."""
    s = model.scenario_from_dict({"workload": {"params_b": 7}, "cluster": {"nodes": 8},
                                  "fabric": {"compare": ["infiniband", "ethernet"]}})
    other_section = s.replace("workload.params_b", 13.0)
    faster = s.replace("fabric.custom.ethernet.link_gbps", 800.0)
    relabelled = faster.replace("fabric.custom.ethernet.label", "Fast Ethernet")
    x = np.array([4.0, 8.0])
    for scenario in (s, other_section, faster, relabelled, s):
        res = sweep(scenario, "cluster.nodes", x)
        want = model.resolve_fabrics(scenario)
        assert res.fabrics == tuple(r.name for r in want) and res.labels == tuple(r.label for r in want)
        assert [r.values for r in res.fabric_rows] == [r.values for r in want]
        line = res.network.line_gbps
        assert np.array_equal(line[1], np.full(2, want[1].values["link_gbps"] * want[1].values["nics_per_node"]))
    assert sweep(faster, "cluster.nodes", x).labels[1] != sweep(relabelled, "cluster.nodes", x).labels[1]


def test_network_outputs_of_a_model_sweep_follow_the_cluster_and_stay_the_callers():
    """A model-size sweep's network outputs (kept from call to call while the cluster, topology and fabrics stay)
    are those of a cluster-size sweep through the same cluster, after the cluster, the topology or a fabric
    changes too; and a result's arrays are its own: writing into one leaves the next result alone."""
    s = model.load_scenario(DEFAULT)
    x = np.array([7.0, 70.0])
    network = ("loaded_rtt_us", "switch_levels")
    for scenario in (s, s.replace("cluster.nodes", 40), s.replace("topology.oversubscription", 3.0),
                     s.replace("fabric.custom.roce.latency_us", 30.0), s):
        res = sweep(scenario, "workload.params_b", x)
        ref = sweep(scenario, "cluster.nodes", np.array([float(scenario.cluster.nodes)] * 2))
        for k in network:
            assert np.array_equal(getattr(res.network, k), getattr(ref.network, k))
        assert np.array_equal(res.network.loss_efficiency, ref.network.loss_efficiency)
        assert np.array_equal(res.network.effective_gbps, ref.network.effective_gbps)
        assert np.array_equal(res.network.switches, ref.network.switches)
        for arr in (res.network.loaded_rtt_us, res.network.loss_efficiency, res.network.switches):
            arr[...] = -1.0  # the caller's own
    again = sweep(s, "workload.params_b", x)
    assert np.all(again.network.loaded_rtt_us > 0) and np.all(again.network.loss_efficiency > 0)
    assert np.all(again.network.switches > 0)


def test_tcp_cpu_cap_binds_at_high_node_bandwidth():
    # kernel TCP at 8 x 400G per node needs ~76 cores at 42 Gb/s per core: the host caps it (without loss:
    # at the published 1e-4, TCP timeouts hold it far below the cap)
    s = model.scenario_from_dict({
        "cluster": {"gpu": "H100-SXM", "nodes": 16, "cpu_for_network_fraction": 0.2},
        "workload": {"params_b": 13},
        "fabric": {"profile_set": "published", "compare": ["ethernet", "infiniband"],
                   "custom": {"ethernet": {"loss_rate": 0.0}}},
    })
    res = evaluate(s)
    eth = res.at("ethernet")
    assert eth.network.effective_gbps < eth.network.with_loss_gbps
    assert eth.breakdown.cpu >= 0
    assert res.at("infiniband").breakdown.cpu == 0


def test_loss_recovery_is_charged_to_lossy_fabrics(scen):
    """On the same plan across nodes (InfiniBand's; the lossy Ethernet's own keeps its traffic inside a node)."""
    from model.engine import build_inputs, evaluate_inputs

    res = evaluate(scen)
    ib = res.fabric_index("infiniband")
    plan = {k: np.asarray(getattr(res.plan, k))[ib] for k in model.engine.PLAN_ARRAY_KEYS + ("dp",)}
    br = evaluate_inputs(scen, build_inputs(scen), plan=plan).breakdown.loss_recovery
    eth, ib = br[0, 0], br[3, 0]
    assert eth > ib >= 0


def test_flash_attention_helps(scen):
    with_flash = evaluate(scen)
    without = evaluate(scen.replace("workload.flash_attention", False))
    assert np.all(with_flash.throughput.step_time_s < without.throughput.step_time_s)


def test_explicit_plan_deeper_than_derived_layers_gives_nan_not_crash():
    s = model.scenario_from_dict({"cluster": {"nodes": 64}, "workload": {"params_b": 1.0, "global_batch": 64},
                                  "parallel": {"tp": 1, "pp": 512}})
    res = evaluate(s, require_feasible=False)
    assert not np.any(res.plan.feasible) and np.all(np.isnan(res.throughput.step_time_s))
    with pytest.raises(ScenarioError):
        evaluate(s)


def test_article_cpu_use_is_the_input_of_the_cpu_mechanism():
    from model import catalog

    prof = catalog.profile_set("seed")
    cores = prof["cpu_ref_host_cores"]
    for fab in prof["fabrics"].values():
        use = fab["cpu_use_at_line_rate"]
        expected = np.inf if use == 0 else fab["link_gbps"] / (use * cores)
        assert_allclose(fab["cpu_gbps_per_core"], expected)
    # Ethernet at 35% of 64 cores for 100 Gb/s: ~4.5 Gb/s per core
    assert_allclose(prof["fabrics"]["ethernet"]["cpu_gbps_per_core"], 100 / (0.35 * 64))


def test_fixed_plan_evaluation_equals_the_search_result(scen):
    from model.engine import build_inputs, evaluate_inputs

    x = np.array([4, 16, 24, 40])
    res = sweep(scen, "cluster.nodes", x)
    plan = {k: getattr(res.plan, k) for k in model.engine.PLAN_ARRAY_KEYS + ("dp",)}
    out = evaluate_inputs(scen, build_inputs(scen, "cluster.nodes", x), plan=plan)
    assert_allclose(out.throughput.step_time_s, res.throughput.step_time_s, rtol=1e-12)
    assert_allclose(out.money.tco, res.money.tco, rtol=1e-12)


def test_lean_outputs_agree_with_full_outputs(scen):
    from model.engine import build_inputs, evaluate_inputs

    x = np.array([8, 24, 64])
    res = sweep(scen, "cluster.nodes", x)
    plan = {k: getattr(res.plan, k) for k in model.engine.PLAN_ARRAY_KEYS + ("dp",)}
    lean = evaluate_inputs(scen, build_inputs(scen, "cluster.nodes", x), plan=plan, lean=True)
    for key in ("step_time_s", "mfu", "train_days", "train_days_with_interruptions", "tco", "cost_per_run"):
        assert_allclose(np.broadcast_to(lean.metric(key), res.metric(key).shape), res.metric(key), rtol=1e-9, err_msg=key)


def test_auto_plan_leaves_spare_gpus_idle_rather_than_no_plan():
    # a 1T model needs tp 8 · pp ≥ 32 here; 130 and 137 nodes are no multiple of 32, yet they can train
    s = model.load_scenario("assets/presets/case3_centre_128xH100_1T.toml")
    res = sweep(s, "cluster.nodes", np.array([130, 137, 128]))
    assert np.all(res.plan.feasible)
    used, total = res.plan.gpus_used, res.x * 8
    assert np.all(used <= total) and np.any(used < total)
    # the idle GPUs are paid for: utilisation is counted over the whole cluster
    i = res.fabric_index("infiniband")
    assert res.throughput.mfu[i, 1] < res.throughput.mfu[i, 2] * 1.05


def test_explicit_plan_still_uses_every_gpu():
    s = model.scenario_from_dict({"cluster": {"nodes": 3}, "workload": {"params_b": 7, "global_batch": 12},
                                  "parallel": {"tp": 8, "pp": 1}})
    res = evaluate(s)
    assert np.all(res.plan.gpus_used == 24)


def test_degree_checks_in_floats_equal_integer_arithmetic():
    """data_parallel_replicas and degrees_valid divide whole numbers held as floats: the same answers as integer
    // and %."""
    from model.plan_fit import data_parallel_replicas, degrees_valid
    from model.plan_search import plan_candidates

    rng = np.random.default_rng(0)
    n = 60
    gpn = rng.choice([1, 2, 4, 8, 16], n)
    pt = {"gpus_per_node": gpn, "gpus": gpn * rng.integers(1, 300, n), "layers": rng.integers(1, 200, n),
          "global_batch": rng.integers(1, 3000, n), "heads": rng.integers(1, 200, n)}
    pt["kv_heads"] = pt["heads"]
    t, p, b, v = (x.astype(np.int64) for x in plan_candidates(model.load_scenario(DEFAULT))[:4])
    grid_int = {k: x[:, None] for k, x in pt.items()}
    grid_float = {k: x.astype(float) for k, x in grid_int.items()}
    G, B, l, heads, g = (grid_int[k] for k in ("gpus", "global_batch", "layers", "heads", "gpus_per_node"))
    tp, pv = t * p, p * v
    for round_batch in (True, False):
        if round_batch:  # the most replicas that fit and divide the batch's micro-batches
            cap, per = np.broadcast_arrays(G // tp, np.where(B % b == 0, B // b, 0))
            d = np.zeros(cap.shape, dtype=np.int64)
            for idx in np.ndindex(cap.shape):
                d[idx] = max((k for k in range(1, min(cap[idx], per[idx]) + 1) if per[idx] % k == 0), default=0)
        else:  # every GPU: d = G / (t·p), a whole number only where t·p divides G (the plans that can be valid)
            d = np.broadcast_to(np.where(G % tp == 0, G // tp, 0), (n, t.size))
        with np.errstate(divide="ignore", invalid="ignore"):
            d_f, m_f = data_parallel_replicas(grid_float, *(x.astype(float) for x in (t, p, b)), round_batch)
            got = degrees_valid(grid_float, *(x.astype(float) for x in (t, p, b, v)), d_f, m_f)
        if not round_batch:
            d_f = np.where(G % tp == 0, d_f, 0.0)
        assert np.array_equal(np.broadcast_to(d_f, d.shape), d)
        ok_d = d >= 1
        m = np.where(ok_d, B // np.maximum(d * b, 1), 0)
        whole = ok_d & (B % np.maximum(d * b, 1) == 0)
        even = l % pv == 0
        # one layer short at both ends, down to one-layer chunks with the embedding and the loss in the end chunks
        short = (p > 1) & (p <= l) & (((l + 1) % pv == 0) | ((l + 2) % pv == 0))
        want = ((t <= g) & (g % t == 0) & (heads % t == 0) & (p <= l) & (G >= tp) & whole & (m >= 1)
                & (even | short) & ((v == 1) | ((p > 1) & ((pv <= l) | short) & (m % p == 0))))
        if not round_batch:
            want &= G % tp == 0
        assert np.array_equal(got, want)


@pytest.mark.parametrize("dense", [True, False])
def test_largest_divisor_at_most_of_one_batch_or_one_micro_batch_equals_integer_search(dense, monkeypatch):
    """One global batch (a sweep that leaves it alone) or one micro-batch for every query, and a batch and
    micro-batch per query: the largest divisor of batch / micro-batch at most the cap, as integers find it; read
    from the dense table of every cap and from the sorted divisors (``dense`` False: the table too large)."""
    from model import plan_fit
    from model.engine import largest_divisor_at_most

    plan_fit.clear_cache()
    if not dense:
        monkeypatch.setattr(plan_fit, "DENSE_DIVISORS_MAX", 0)
    rng = np.random.default_rng(3)
    caps = rng.integers(-2, 700, 400) + rng.choice([0.0, 0.0, 0.5], 400)  # and some not whole

    def want(B, b, cap):
        per = B // b if B % b == 0 else 0
        return max((k for k in range(1, int(min(max(cap, 0), per)) + 1) if per % k == 0), default=0)

    cases = [(np.array([[1024.0]]), rng.choice([1.0, 2.0, 3.0, 4.0], (1, 400))),  # one batch, as the search sees it
             (np.full(400, 1024.0), rng.choice([1.0, 2.0, 3.0, 4.0], 400)),  # one batch at every point
             (np.array([1536.0]), np.array([[4.0]])),  # one of each
             (rng.choice([96.0, 1000.0, 1024.0], 400), np.array([2.0])),  # one micro-batch
             (rng.choice([96.0, 1000.0, 1024.0], 400), rng.choice([1.0, 2.0, 3.0], 400))]
    for B, b in cases:
        for _ in range(2):  # the second time from the kept divisor table
            got = largest_divisor_at_most(B, b, caps)
            Bs, bs, cs = np.broadcast_arrays(B, b, caps)
            assert np.ravel(got).tolist() == [want(int(x), int(y), z)
                                              for x, y, z in zip(Bs.ravel(), bs.ravel(), cs.ravel())]
    assert (plan_fit._divisor_table.cache_info().currsize == 0) == dense  # which table answered
    plan_fit.clear_cache()


def test_plan_cache_hit_and_cleared_cache_give_the_same_result(scen):
    from model import engine

    x = np.array([2, 8, 24, 64])
    engine.clear_plan_cache()
    cold = sweep(scen, "cluster.nodes", x)
    first = engine.plan_cache_info()
    assert first.misses >= 1 and first.size >= 1
    # the power price is not a plan-search input: the same sweep at another PUE reuses the plans
    other_pue = sweep(scen.replace("economics.pue", 1.6), "cluster.nodes", x)
    warm = sweep(scen, "cluster.nodes", x)
    after = engine.plan_cache_info()
    assert after.hits >= first.hits + 2, (first, after)  # both warm sweeps were served by the cache
    assert after.misses == first.misses
    engine.clear_plan_cache()
    assert engine.plan_cache_info() == (0, 0, 0)
    again = sweep(scen, "cluster.nodes", x)
    assert engine.plan_cache_info().misses >= 1
    assert np.array_equal(other_pue.throughput.step_time_s, cold.throughput.step_time_s, equal_nan=True)
    for key in ("step_time_s", "train_days", "tco"):
        assert np.array_equal(cold.metric(key), warm.metric(key), equal_nan=True), key
        assert np.array_equal(cold.metric(key), again.metric(key), equal_nan=True), key


@pytest.mark.parametrize("preset", PRESETS)
def test_lean_days_and_run_cost_equal_the_full_path_bit_for_bit(preset):
    """The lean (Monte-Carlo) path computes days, days with interruptions and the run's cost with the full
    path's expressions: at the nominal plan and values they are the same numbers, not merely close."""
    from model.engine import build_inputs, evaluate_inputs

    s = model.load_scenario(f"assets/presets/{preset}")
    for field, x in (("cluster.nodes", np.unique(np.round(np.geomspace(1, 4096, 40)))),
                     ("workload.params_b", np.geomspace(1, 2000, 30))):
        res = sweep(s, field, x)
        plan = {k: getattr(res.plan, k) for k in model.engine.PLAN_ARRAY_KEYS + ("dp",)}
        lean = evaluate_inputs(s, build_inputs(s, field, x), plan=plan, lean=True)
        assert np.any(np.isfinite(res.throughput.train_days))
        for key in ("train_days", "train_days_with_interruptions", "cost_per_run"):
            got = np.broadcast_to(lean.metric(key), res.metric(key).shape)
            assert np.array_equal(got, res.metric(key), equal_nan=True), (field, key)


def test_a_micro_batch_larger_than_the_global_batch_fits_no_plan_and_raises_nothing():
    """Auto mode keeps the user's batch: no whole number of replicas runs 1,025-sequence micro-batches of a
    1,024-sequence batch, so every point is a gap, not an indexing error."""
    s = model.load_scenario("assets/presets/default.toml")
    s = s.replace_many({"workload.micro_batch": s.workload.global_batch + 1})
    res = model.sweep(s, "cluster.nodes", np.array([8, 64, 512]))
    assert not np.any(res.plan.feasible)
    assert np.all(np.isnan(res.throughput.step_time_s))




def test_reused_plan_search_gives_every_output_as_from_scratch(scen):
    """A money or reliability change reuses the plan search; every output equals a cold evaluation's, bit for
    bit, and a caller writing into one result does not change the next."""
    from model import engine

    x = np.array([2, 8, 24, 64])
    sweep(scen, "cluster.nodes", x)  # warm: pairs and search cached
    # a money change (the search is reused), then a fabric latency change (the pairs are, the search is not)
    for changed in (scen.replace("economics.electricity_usd_per_kwh", 0.21),
                    scen.replace("economics.electricity_usd_per_kwh", 0.21).replace("fabric.custom.roce.latency_us", 40.0)):
        warm_first = sweep(changed, "cluster.nodes", x)
        warm_first.plan.feasible[...] = False  # the caller's own arrays
        for arr in vars(warm_first.plan).values():
            if arr.flags.writeable:
                arr[...] = -1.0
        warm = sweep(changed, "cluster.nodes", x)
        engine.clear_plan_cache()
        cold = sweep(changed, "cluster.nodes", x)
        got, want = dict(warm.arrays()), dict(cold.arrays())
        assert got.keys() == want.keys()
        for k in want:
            assert got[k].shape == want[k].shape and got[k].tobytes() == want[k].tobytes(), k
        assert np.any(cold.plan.feasible)


def test_one_value_tells_a_single_value_with_its_sign():
    """The step's shortcuts test a term for one value, sign included (-0.0 is not +0.0): as ``np.signbit`` tells."""
    from model.arrays import one_value

    assert one_value(np.array([[0.0]]), 0.0) and one_value(0.0, 0.0) and one_value(np.array([1]), 1.0)
    assert not one_value(np.array([-0.0]), 0.0) and not one_value(0.0, -0.0) and one_value(-0.0, -0.0)
    assert not one_value(np.zeros(2), 0.0) and not one_value(np.array([np.nan]), np.nan)
    assert not one_value(np.array([2.0]), 1.0) and not one_value(np.zeros(0), 0.0)


def test_plan_search_runs_once_per_distinct_point(scen, monkeypatch):
    """The auto-plan search answers points that hold the same inputs once, read back at each: the results are
    those of the distinct points on their own."""
    from model.plan_search import search as plan_search
    searched = []
    search = plan_search.search_pairs

    def spy(pairs, inp, *args):
        searched.append(inp.n)
        return search(pairs, inp, *args)
    monkeypatch.setattr(plan_search, "search_pairs", spy)
    params = np.array([7.0, 13.0, 7.0, 70.0, 13.0, 70.0])  # three models, each twice, not in order
    plan_search.clear_cache()
    res = sweep(scen, "workload.params_b", params)
    assert searched == [3]
    distinct = sweep(scen, "workload.params_b", np.array([7.0, 13.0, 70.0]))
    for k in ("step_time_s", "tokens_per_s"):
        assert_allclose(res.metric(k), distinct.metric(k)[:, [0, 1, 0, 2, 1, 2]], rtol=0, atol=0)
    for k, x in vars(distinct.plan).items():  # the plans read at every point from the choices at the distinct ones
        assert_allclose(getattr(res.plan, k), x[:, [0, 1, 0, 2, 1, 2]], rtol=0, atol=0)
    # a cluster-size sweep's pairs hold values per point (the placeholder plan's replicas): read back as well
    nodes = np.array([8.0, 16.0, 8.0, 64.0, 16.0, 64.0])
    res, distinct = (sweep(scen, "cluster.nodes", x) for x in (nodes, np.array([8.0, 16.0, 64.0])))
    for k in ("step_time_s", "tokens_per_s", "train_days"):
        assert_allclose(res.metric(k), distinct.metric(k)[:, [0, 1, 0, 2, 1, 2]], rtol=0, atol=0)
    for k, x in vars(distinct.plan).items():
        assert_allclose(getattr(res.plan, k), x[:, [0, 1, 0, 2, 1, 2]], rtol=0, atol=0)


def test_a_cleared_plan_cache_leaves_no_single_collective_remembered():
    """A cold call computes everything again: clearing the plan cache also forgets the single in-node
    collectives a sweep with one model and plan remembers."""
    from model import engine, nccl_model
    first = nccl_model.in_node_collective_time("all_reduce", 1.0e6, 8.0, 2.0e11, 3.0e11)
    assert nccl_model._one_in_node_time.cache_info().currsize > 0
    engine.clear_plan_cache()
    assert nccl_model._one_in_node_time.cache_info().currsize == 0
    assert nccl_model.in_node_collective_time("all_reduce", 1.0e6, 8.0, 2.0e11, 3.0e11) == first


def _given_plan(scen):
    """``scen`` with every plan choice fixed at the searched plan of its first fabric: nothing left to search."""
    plan = evaluate(scen).at(scen.fabric.fabrics[0]).plan
    return scen.replace_many({"parallel.mode": "explicit", "parallel.tp": int(plan.tp), "parallel.pp": int(plan.pp),
                              "workload.micro_batch": int(plan.micro_batch), "parallel.virtual_stages": 1,
                              "workload.recompute": "selective", "parallel.zero_stage": 1})


@pytest.mark.parametrize("field, values", [("fabric.latency_us", [0.5, 7.0, 300.0]),
                                           ("fabric.roce.loss_rate", [0.0, 1e-5, 1e-3]),
                                           ("fabric.link_gbps", [100.0, 400.0])])
def test_a_given_plans_fabric_sweep_is_each_point_evaluated(scen, field, values):
    given = _given_plan(scen)
    res = sweep(given, field, values)
    assert res.throughput.step_time_s.shape == (4, len(values))
    for j, v in enumerate(values):
        key_name = field.rsplit(".", 1)[1]
        names = given.fabric.fabrics if field.count(".") == 1 else (field.split(".")[1],)
        single = evaluate(given.replace_many({f"fabric.custom.{n}.{key_name}": v for n in names}),
                          require_feasible=False)
        points = dict(single.arrays())
        for path, arr in res.arrays():  # every output, the breakdown, memory and plan included
            at = np.asarray(arr)[:, j]
            if at.dtype.kind == "f":
                assert_allclose(at, points[path], rtol=1e-12, err_msg=f"{path} at {v}")
            else:
                np.testing.assert_array_equal(at, points[path], err_msg=f"{path} at {v}")
