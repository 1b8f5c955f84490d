"""Presets: every case and tier loads, evaluates, reproduces its article duration; the claims table."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

import model
from gui.cli import main as cli
from model import catalog, claims, presets

NAMES = presets.preset_names()


def test_six_presets_in_menu_order():
    assert NAMES == ("case1", "case2", "case3", "small", "medium", "large")
    assert presets.DEFAULT_PRESET == "case2"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("profile", ["seed", "published"])
def test_preset_loads_and_evaluates(name, profile):
    s = model.load_scenario(presets.preset_path(name)).replace("fabric.profile_set", profile)
    r = model.evaluate(s)
    for key in ("train_days_with_interruptions", "tco", "capex", "cost_per_run", "switches"):
        assert np.all(np.isfinite(r.metric(key))), key
    assert s.fabric.focus in r.fabrics


@pytest.mark.parametrize("name", NAMES)
def test_tokens_reproduce_the_articles_after_duration(name):
    fig = presets.article_figures()[name]
    r = model.evaluate(presets.load_preset(name))
    assert_allclose(r.reliability.train_days_with_interruptions[r.fabric_index(fig["chosen"])], fig["after_days"], rtol=2e-3)


def test_solver_is_exact_in_one_step():
    s = presets.load_preset("case2").replace("workload.train_tokens_b", 1.0)
    tokens = presets.solve_train_tokens_b(s, "infiniband", 13.0)
    r = model.evaluate(s.replace("workload.train_tokens_b", tokens))
    assert_allclose(r.reliability.train_days_with_interruptions[r.fabric_index("infiniband")], 13.0, rtol=1e-9)


def test_unknown_preset_is_a_named_error():
    with pytest.raises(model.ScenarioError, match="case2"):
        presets.preset_path("case 2")


@pytest.mark.parametrize("name", NAMES)
def test_claims_table_has_both_profiles(name):
    rows = claims.claims_table(name)
    assert rows and all(np.isfinite(r.seed) and np.isfinite(r.published) for r in rows)
    assert {r.metric for r in rows} <= set(claims.METRICS)


def test_case2_claims_show_what_the_seed_reproduces():
    rows = {(r.metric, r.fabric): r for r in claims.claims_table("case2")}
    assert_allclose(rows[("days", "infiniband")].seed, 13.0, rtol=2e-3)
    assert_allclose(rows[("latency_us", "infiniband")].seed, 10.0)
    assert_allclose(rows[("interruption_rate_pct", "infiniband")].seed, 0.8, rtol=1e-3)
    # under the published set the article's latency is replaced by perftest's
    assert rows[("latency_us", "infiniband")].published < 1.0


def test_published_variant_drops_article_fabric_figures_keeps_site():
    s = presets.load_preset("case3")
    p = claims.published_variant(s)
    assert p.fabric.profile_set == "published"
    kept = {key for _, spec in p.fabric.custom for key, v in vars(spec).items() if v is not None}
    assert kept <= set(presets.CLUSTER_KEYS)  # only the cluster's NICs and link speeds, no article figure
    assert p.get("fabric.custom.infiniband.link_gbps") == 800.0 and p.get("fabric.custom.infiniband.latency_us") is None
    assert p.economics.pue == 1.15 and p.cluster.nodes == 128


@pytest.mark.parametrize("name", ["case1", "case2", "case3", "small", "medium", "large"])
def test_a_profile_switch_never_rewires_the_cluster(name):
    s = presets.load_preset(name)
    pub = presets.switch_profile_set(s, "published", presets.article_values(name))
    a, b = model.evaluate(s), model.evaluate(pub)
    for key in ("nics",):  # switches follow the set's switch model (its radix); the NICs are the cluster's
        assert np.array_equal(np.asarray(a.metric(key)), np.asarray(b.metric(key))), key
    assert np.array_equal(np.asarray(a.network.line_gbps), np.asarray(b.network.line_gbps))


def test_cli_claims(capsys):
    assert cli.main(["claims", "case1"]) == 0
    out = capsys.readouterr().out
    assert "Case 1" in out and "published" in out
    assert cli.main(["claims", "nope"]) == cli.EXIT_BAD_INPUT


def test_claim_names_are_whole_and_counterfactual_figures_explained():
    from model import claims

    for name in ("case2", "case3"):
        rows = claims.claims_table(name)
        keys = [(r.label, r.fabric) for r in rows]
        assert len(set(keys)) == len(keys)
        for r in rows:
            assert bool(r.explanation) == (r.metric in claims.COUNTERFACTUAL), r.metric
        text = claims.format_claims(name, rows)
        assert all(r.label in text for r in rows)


@pytest.mark.parametrize("name", ["case1", "case2", "case3"])
def test_switching_to_published_drops_the_articles_values_and_keeps_the_users(name):
    s = presets.load_preset(name)
    article = presets.article_values(name)
    assert article and all(s.get(p) == v for p, v in article.items())
    pub = presets.switch_profile_set(s, "published", article)
    figures = {p: v for p, v in article.items() if p.rsplit(".", 1)[-1] not in presets.CLUSTER_KEYS}
    assert pub.fabric.profile_set == "published" and all(pub.get(p) is None for p in figures)
    prof = catalog.profile_set("published")["fabrics"]
    for p, v in article.items():  # the cluster's wiring stays (as an override, or as the published set has it)
        if p not in figures:
            _, _, fab, key = p.split(".")
            assert pub.get(p) == v or (pub.get(p) is None and prof[fab][key] == v), p
    assert not [r for r in presets.overridden_values(pub, figures) if r[3]]  # no article figure left
    assert presets.switch_profile_set(pub, "seed", article) == s  # and back, as loaded
    path = next(iter(article))
    mine = s.replace(path, article[path] * 0.5)  # the user's own value stays under either set
    assert presets.switch_profile_set(mine, "published", article).get(path) == article[path] * 0.5
    # the published comparison differs from one that kept the article's values
    kept = s.replace("fabric.profile_set", "published")
    k, p = model.evaluate(kept), model.evaluate(pub)
    # (exactly: where a PCIe slot caps both the article's and the published NIC, the difference is small)
    assert not (np.array_equal(k.money.tco, p.money.tco) and np.array_equal(k.throughput.train_days, p.throughput.train_days))
