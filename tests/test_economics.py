"""Capex, power, opex and TCO: a hand-worked case, currency, and the engine's keys."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

import model
from model import economics


def _hand_inputs():
    """2 nodes x 8 A100 (400 W), half the step computing; 1 NDR switch; USD 0.10/kWh, PUE 1.5, 5 years."""
    s = model.scenario_from_dict({"cluster": {"gpu": "A100-SXM-80GB", "nodes": 2},
                                  "economics": {"currency": "USD"}})
    pt = dict(cny_per_usd=7.0, nodes=2.0, gpus=16.0, gpus_per_node=8.0, server_price_usd=np.nan,
              catalog_server_usd_per_gpu=199000.0 / 8, host_power_w_per_gpu=3300.0 / 8, board_power_w=400.0,
              gpu_idle_power_fraction=0.3, network_per_node_pricing=0.0, duty_cycle=1.0, pue=1.5,
              electricity_usd_per_kwh=0.10, electricity_cny_per_kwh=np.nan, operations_usd_per_node_year=0.0,
              years=5.0, run_cost_gpu_hour=0.0, gpu_hour_usd=2.0, train_tokens_b=1.0, discount=0.0,
              support_fraction=0.0)
    fab = dict(nic_price_usd=2000.0, switch_price_usd=43000.0, link_price_usd=1280.0, nic_power_w=20.0,
               switch_power_w=750.0, optic_power_w=8.5, network_cost_per_node_cny=np.nan,
               spine_switch_price_usd=np.nan, core_switch_price_usd=np.nan, optic_price_usd=np.nan,
               cable_price_usd=np.nan)
    out = dict(train_days=np.array([[9.0]]), train_days_with_interruptions=np.array([[10.0]]),
               step_time_s=np.array([[2.0]]), breakdown_s=dict(compute=np.array([[0.9]]),
                                                               optimizer=np.array([[0.1]])),
               nics=np.array([[2.0]]), switches=np.array([[1.0]]), links=np.array([[2.0]]),
               optics=np.array([[4.0]]), fat_tree=dict(leaf=np.array([[1.0]]), spine=np.array([[0.0]]),
                                                       core=np.array([[0.0]])))
    return s, pt, fab, out


def test_hand_worked_tco():
    s, pt, fab, out = _hand_inputs()
    r = economics.outputs(s, pt, fab, out)
    # capex: 2 x 199,000 + 2 NICs x 2,000 + 1 switch x 43,000 + 2 links x 1,280
    assert_allclose(r["capex"], 398000 + 4000 + 43000 + 2560)
    # power: GPUs 16 x 400 x (0.3 + 0.7 x 0.5) = 4,160 W; hosts 6,600; NICs 40; switch 750; optics 34
    assert_allclose(r["power_kw"], 11.584)
    # energy: 11.584 kW x 1.5 x 8,760 h = 152,213.76 kWh -> USD 15,221.376 a year
    assert_allclose(r["energy_kwh_per_year"], 152213.76)
    assert_allclose(r["opex_per_year"], 15221.376)
    assert_allclose(r["tco"], 447560 + 5 * 15221.376)
    # a 10-day run's share of 5 years
    assert_allclose(r["cost_per_run"], (447560 + 5 * 15221.376) * 240 / (5 * 8760))
    assert_allclose(r["cost_per_token"], r["cost_per_run"] / 1e9)
    assert_allclose(r["energy_cost_per_run"], 11.584 * 1.5 * 240 * 0.10)
    assert np.all(r["currency"] == "USD")


def test_currency_conversion_and_gpu_hour_basis():
    s, pt, fab, out = _hand_inputs()
    usd = economics.outputs(s, pt, fab, out)
    cny = economics.outputs(s.replace("economics.currency", "CNY"), pt, fab, out)
    assert_allclose(cny["tco"], usd["tco"] * 7.0)
    assert np.all(cny["currency"] == "CNY")
    pt["run_cost_gpu_hour"] = 1.0
    assert_allclose(economics.outputs(s, pt, fab, out)["cost_per_run"], 16 * 240 * 2.0)


def test_price_book_tiers_split_links_discount_and_support():
    """Two leaves and a spine, links as cables plus optics, 10 % off the bill, 12 % of capex a year for support."""
    s, pt, fab, out = _hand_inputs()
    out["fat_tree"] = dict(leaf=np.array([[2.0]]), spine=np.array([[1.0]]), core=np.array([[0.0]]))
    out["switches"] = np.array([[3.0]])
    fab.update(spine_switch_price_usd=60000.0, optic_price_usd=500.0, cable_price_usd=100.0)
    pt.update(discount=0.10, support_fraction=0.12)
    r = economics.outputs(s, pt, fab, out)
    switches, links = 2 * 43000.0 + 60000.0, 2 * 100.0 + 4 * 500.0
    assert_allclose(r["network_components"]["switches"], switches)
    assert_allclose(r["network_components"]["links"], links)
    listed = 398000 + 4000 + switches + links
    assert_allclose(r["capex_parts"]["servers"] + r["capex_parts"]["network"], listed)  # list prices
    assert_allclose(r["capex"], 0.9 * listed)
    assert_allclose(r["opex_parts"]["support"], 0.12 * 0.9 * listed)
    assert_allclose(r["opex_per_year"], r["opex_parts"]["energy"] + 0.12 * 0.9 * listed)


def test_per_node_network_pricing_in_cny():
    s, pt, fab, out = _hand_inputs()
    pt["network_per_node_pricing"] = 1.0
    fab["network_cost_per_node_cny"] = 7000.0
    r = economics.outputs(s, pt, fab, out)
    assert_allclose(r["capex_parts"]["network"], 2 * 1000.0)


def _scen(**econ):
    return model.scenario_from_dict({"cluster": {"gpu": "A100-SXM-80GB", "nodes": 24},
                                     "workload": {"params_b": 30.0}, "economics": econ})


def test_engine_keys_and_shapes():
    r = model.evaluate(_scen())
    for key in ("capex", "opex_per_year", "tco", "cost_per_run", "cost_per_token", "switches", "links", "optics",
                "train_days_with_interruptions", "interruptions", "hours_lost"):
        assert r.metric(key).shape == (4,), key
    assert list(r.money.currency) == ["CNY"] * 4  # the seed profile's currency
    w = model.sweep(_scen(), "economics.years", [1, 3, 5])
    assert w.money.tco.shape == (4, 3) and np.all(np.diff(w.money.tco, axis=1) > 0)


def test_electricity_in_either_currency():
    a = model.evaluate(_scen(electricity_usd_per_kwh=0.1, currency="USD"))
    b = model.evaluate(_scen(electricity_cny_per_kwh=0.71, currency="USD"))
    assert_allclose(a.money.opex_per_year, b.money.opex_per_year)
    with pytest.raises(model.ScenarioError, match="electricity_usd_per_kwh"):
        _scen(electricity_usd_per_kwh=0.1, electricity_cny_per_kwh=0.7)
    # sweeping the USD price overrides the profile's CNY default
    w = model.sweep(_scen(currency="USD"), "economics.electricity_usd_per_kwh", [0.1])
    assert_allclose(w.money.opex_per_year[:, 0], a.money.opex_per_year)


def test_evaluate_json_has_the_issue_keys(capsys):
    import json

    from gui.cli import main as cli
    from model import presets

    assert cli.main(["evaluate", str(presets.preset_path("case2")), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for name, fab in doc["fabrics"].items():
        for key in ("train_days_with_interruptions", "interruptions", "capex", "opex_per_year", "tco", "cost_per_run",
                    "currency", "switches", "links", "optics"):
            assert key in fab, (name, key)
        assert fab["currency"] == "CNY" and fab["tco"] > fab["capex"] > 0
