"""Uncertainty bands, tornado sensitivity and break-even."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

import model
from model import ScenarioError, analysis

DEFAULT = "assets/presets/default.toml"


@pytest.fixture(scope="module")
def scen():
    return model.load_scenario(DEFAULT)


def test_ranged_values_come_from_the_profile_and_scale_to_user_values(scen):
    rv = analysis.ranged_values(scen)
    keys = {(r.fabric, r.key) for r in rv}
    assert ("ethernet", "latency_us") in keys and ("infiniband", "link_gbps") in keys
    prof = next(r for r in rv if (r.fabric, r.key) == ("ethernet", "latency_us"))
    assert not prof.fixed
    s2 = scen.replace("fabric.custom.ethernet.latency_us", 70.0)
    mine = next(r for r in analysis.ranged_values(s2) if (r.fabric, r.key) == ("ethernet", "latency_us"))
    nominal = model.catalog.profile_set(scen.fabric.profile_set)["fabrics"]["ethernet"]["latency_us"]
    assert mine.fixed and "this scenario's value 70" in mine.source
    assert mine.low == pytest.approx(prof.low * 70.0 / nominal) and mine.high == pytest.approx(prof.high * 70.0 / nominal)
    assert mine.low <= 70.0 <= mine.high
    loss = next(r for r in rv if r.key == "loss_rate" and r.fabric == "roce")
    assert not loss.log_scale  # 0.1-0.3%: a factor 3
    pub = {(r.fabric, r.key): r for r in analysis.ranged_values(scen.replace("fabric.profile_set", "published"))}
    assert pub[("ethernet", "loss_rate")].log_scale  # 1e-5..1e-3


def test_a_set_line_rate_is_never_exceeded_and_fractions_stay_fractions(scen):
    s = scen.replace_many({"fabric.custom.infiniband.link_gbps": 800.0,
                           "fabric.custom.roce.achievable_fraction": 0.97})
    rv = {(r.fabric, r.key): r for r in analysis.ranged_values(s)}
    ib = rv[("infiniband", "link_gbps")]
    assert ib.fixed and ib.high == pytest.approx(800.0) and ib.low < 800.0
    if ("roce", "achievable_fraction") in rv:
        assert rv[("roce", "achievable_fraction")].high <= 1.0


def test_bands_bracket_the_median_and_are_seeded(scen):
    x = np.array([8, 16, 24, 48])
    b1 = analysis.monte_carlo(scen, "cluster.nodes", x, samples=200, seed=7)
    b2 = analysis.monte_carlo(scen, "cluster.nodes", x, samples=200, seed=7)
    b3 = analysis.monte_carlo(scen, "cluster.nodes", x, samples=200, seed=8)
    lo, mid, hi = (b1.band("train_days_with_interruptions", p) for p in (10.0, 50.0, 90.0))
    assert lo.shape == (4, 4)
    assert np.all(lo <= mid) and np.all(mid <= hi)
    assert np.any(hi > lo)  # the article's ranges do spread the result
    assert_allclose(b1.band("tco", 90.0), b2.band("tco", 90.0))
    assert not np.allclose(b1.band("tco", 90.0), b3.band("tco", 90.0))


def test_band_contains_nominal_for_the_article_midpoints(scen):
    b = analysis.monte_carlo(scen, None, samples=400, seed=1)
    nom = b.nominal.reliability.train_days_with_interruptions
    assert np.all(b.band("train_days_with_interruptions", 10.0) <= nom * 1.001)
    assert np.all(b.band("train_days_with_interruptions", 90.0) >= nom * 0.999)


def test_every_fabric_is_banded_even_where_the_scenario_fixes_its_values(scen):
    s = scen.replace_many({"fabric.compare": ["roce"], "fabric.custom.roce.latency_us": 25.0,
                           "fabric.custom.roce.loss_rate": 0.002, "fabric.custom.roce.cpu_gbps_per_core": 17.0,
                           "fabric.custom.roce.network_cost_per_node_cny": 4000.0})
    b = analysis.monte_carlo(s, None, samples=50, seed=0)
    assert b.unbanded == {}
    assert np.all(b.band("train_days_with_interruptions", 90.0) > b.band("train_days_with_interruptions", 10.0))
    assert all(rv.fixed for rv in b.inputs if rv.fabric == "roce" and rv.key in ("latency_us", "loss_rate"))


def test_a_fabric_without_any_range_says_why(scen):
    assert analysis.unbanded_fabrics(scen, [], ({"roce"}, "latency_us")) == {
        "ethernet": "no_range", "roce": "swept", "iwarp": "no_range", "infiniband": "no_range"}


def test_samples_out_of_range(scen):
    with pytest.raises(ScenarioError, match="samples"):
        analysis.monte_carlo(scen, None, samples=1)


def test_tornado_orders_by_effect_and_swings_both_ways(scen):
    sw = analysis.tornado(scen, "ethernet")
    assert len(sw) >= 4
    spans = [s.days_span for s in sw]
    assert spans == sorted(spans, reverse=True)
    lat = next(s for s in sw if s.field == "fabric.ethernet.latency_us")
    assert lat.days_high > lat.days_low  # more latency, longer run
    pue = next(s for s in sw if s.field == "economics.pue")
    assert pue.tco_high > pue.tco_low and pue.days_span == 0


def test_tornado_unknown_fabric(scen):
    with pytest.raises(ScenarioError, match="one of"):
        analysis.tornado(scen, "token-ring")


def test_break_even_on_a_known_crossing(scen):
    # latency sweep: RoCE starts faster than a slow InfiniBand and loses once latency grows for RoCE only?
    # Construct a clean crossing: Ethernet with a huge link vs InfiniBand, sweeping Ethernet's loss
    # (iWARP nearly loss-free: at the article's 0.3 % its TCP stalls on timeouts and nothing crosses it)
    res = model.sweep(scen.replace("fabric.custom.iwarp.loss_rate", 1e-7), "fabric.roce.loss_rate",
                      np.geomspace(1e-7, 0.2, 64))
    cross = analysis.break_even(res, "roce", "iwarp", "train_days")
    assert len(cross) == 1
    c = cross[0]
    i = res.fabric_index("roce")
    j = res.fabric_index("iwarp")
    below = res.x < c.x
    assert np.all(res.throughput.train_days[i][below] <= res.throughput.train_days[j][below] + 1e-9)
    assert not c.a_better_above
    assert "roce" in c.sentence("RoCE loss rate")


def test_break_even_needs_a_sweep(scen):
    with pytest.raises(ScenarioError, match="sweep"):
        analysis.break_even(model.evaluate(scen), "roce", "iwarp")


def test_bands_along_a_fabric_axis_follow_the_axis(scen):
    # the swept value is the x-axis, not a sample: the band moves with it and brackets the nominal curve
    x = np.geomspace(0.5, 1000, 8)
    # Ethernet at 0.1 % loss with a data-centre minimum RTO of 1 ms, so its round trip (TCP's window), not
    # 200 ms timeouts at the article's 0.75 %, sets its pace
    scen = scen.replace_many({"fabric.custom.ethernet.loss_rate": 1e-3, "fabric.custom.ethernet.min_rto_ms": 1.0})
    b = analysis.monte_carlo(scen, "fabric.latency_us", x, samples=300, seed=0)
    assert not any(rv.key == "latency_us" for rv in b.inputs)
    mid = b.band("train_days_with_interruptions", 50.0)
    nom = np.asarray(b.nominal.reliability.train_days_with_interruptions)
    assert np.all(np.diff(mid[0]) >= -1e-9) and mid[0, -1] > 2 * mid[0, 0]  # Ethernet: more latency, longer
    assert np.all(b.band("train_days_with_interruptions", 10.0) <= nom * 1.001)
    assert np.all(b.band("train_days_with_interruptions", 90.0) >= nom * 0.999)
    # one fabric swept: only its own latency leaves the samples
    b1 = analysis.monte_carlo(scen, "fabric.roce.latency_us", x, samples=50, seed=0)
    keys = {(rv.fabric, rv.key) for rv in b1.inputs}
    assert ("roce", "latency_us") not in keys and ("ethernet", "latency_us") in keys


@pytest.mark.parametrize("n", [2, 3, 10, 11, 1000, 1001])
def test_percentiles_of_sorted_rows_equal_numpy_bit_for_bit(n):
    rng = np.random.default_rng(n)
    x = rng.lognormal(size=(3, 4, n))
    x[0, 1] = np.nan  # an infeasible point: NaN in every sample
    x[1, 2, n // 2] = np.nan  # one NaN sample
    x[2, 3] = x[2, 3, 0]  # every sample equal
    for q in (analysis.PERCENTILES, (0.0, 25.0, 33.3, 100.0)):
        want = np.percentile(x, q, axis=-1)
        got = analysis.percentiles_of_sorted(np.sort(x, axis=-1), q)
        assert got.shape == want.shape
        assert np.array_equal(got, want, equal_nan=True)


def test_percentiles_of_sorted_refuses_percentiles_outside_0_100_and_empty_rows():
    rows = np.sort(np.random.default_rng(0).random((2, 5)), axis=-1)
    for q in ([150.0], [-10.0], [float("nan")]):
        with pytest.raises(ValueError, match=r"each percentile must be in \[0, 100\]") as err:
            analysis.percentiles_of_sorted(rows, [50.0] + q)
        assert f"q={q}" in str(err.value)
    with pytest.raises(ValueError, match="q=\\[150.0\\]: each percentile must be in \\[0, 100\\]"):
        analysis.percentiles_of_sorted(rows, 150.0)
    with pytest.raises(ValueError, match="no samples"):
        analysis.percentiles_of_sorted(np.empty((2, 0)), [50.0])
    with pytest.raises(ValueError, match="no samples"):
        analysis.percentiles_of_sorted(np.empty(0), [50.0])


def test_bands_without_spread_are_the_nominal_curve_bit_for_bit(scen, monkeypatch):
    """With no ranged input every sample is the nominal one: its days, days with interruptions and run cost
    (computed by the lean path) equal the nominal sweep's exactly."""
    monkeypatch.setattr(analysis, "ranged_values", lambda scenario: [])
    x = np.unique(np.round(np.geomspace(1, 4096, 40)))
    keys = ("train_days", "train_days_with_interruptions", "cost_per_run")
    b = analysis.monte_carlo(scen, "cluster.nodes", x, samples=3, seed=0, metrics=keys)
    assert b.inputs == ()
    for key in keys:
        for p in analysis.PERCENTILES:
            assert np.array_equal(b.band(key, p), b.nominal.metric(key), equal_nan=True), (key, p)
