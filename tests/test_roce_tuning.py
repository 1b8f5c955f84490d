"""RoCE as a default cluster runs it and RoCE tuned (QP scaling, enhanced ECMP), each with its sources."""

from __future__ import annotations

import numpy as np
import pytest

from model import ScenarioError, catalog, engine, nccl_table
from model.scenario import scenario_from_dict


def scenario(profile="published", nodes=2, **tuned):
    return scenario_from_dict({"cluster": {"gpu": "H100-SXM", "nodes": nodes},
                               "fabric": {"profile_set": profile, "compare": ["roce", "roce_tuned", "infiniband"],
                                          "custom": {"roce_tuned": tuned}}})


def test_tuned_roce_comes_from_the_published_profile_with_its_sources():
    rows = {r.name: r for r in engine.resolve_fabrics(scenario())}
    tuned, untuned = rows["roce_tuned"], rows["roce"]
    assert tuned.transport == "roce" and tuned.label == "RoCE v2 (tuned)"
    assert tuned.values["achievable_fraction"] == 0.9 and tuned.values["qps_per_connection"] == 4
    assert untuned.values["achievable_fraction"] == 0.75 and untuned.values["qps_per_connection"] == 1
    assert tuned.sources["achievable_fraction"] == "published profile"
    assert "qps_per_connection" in tuned.guesses  # the count Meta used is not published
    assert "SIGCOMM 2024" in catalog.profile_set("published")["fabrics"]["roce_tuned"]["source"]
    assert catalog.fabric_style("roce_tuned")["short"] == "RoCE tuned"


def test_tuned_roce_runs_all_reduce_within_a_few_percent_of_infiniband_untuned_does_not():
    # Meta: RoCE and InfiniBand clusters tuned to equivalent performance (Llama 3, SIGCOMM 2024)
    s, sizes = scenario(), 2.0 ** np.arange(30, 34)
    bus = {f: nccl_table.scenario_table(s, f, "all_reduce", sizes=sizes, algorithm="ring")["busbw_GBps"]
           for f in ("roce", "roce_tuned", "infiniband")}
    assert np.all(np.abs(bus["roce_tuned"] / bus["infiniband"] - 1.0) < 0.05)
    assert np.all(bus["roce"] / bus["infiniband"] < 0.85)


def test_a_user_value_overrides_the_tuned_row():
    rows = {r.name: r for r in engine.resolve_fabrics(scenario(qps_per_connection=8))}
    assert rows["roce_tuned"].values["qps_per_connection"] == 8
    assert rows["roce_tuned"].sources["qps_per_connection"] == "scenario"


def test_the_article_set_has_no_tuned_roce_row_so_it_needs_a_transport():
    with pytest.raises(ScenarioError) as err:
        scenario(profile="seed")
    assert err.value.field == "fabric.custom.roce_tuned.transport"


def test_tuned_roce_compared_on_request_and_taken_out_again():
    plain = scenario_from_dict({"cluster": {"gpu": "H100-SXM", "nodes": 2}, "fabric": {"profile_set": "published"}})
    with_tuned = plain.with_fabric_compared("roce_tuned", True)
    assert with_tuned.fabric.fabrics == plain.fabric.fabrics + ("roce_tuned",)
    assert with_tuned.fabric.custom_dict()["roce_tuned"] == type(with_tuned.fabric.custom[0][1])()  # all profile
    assert with_tuned.with_fabric_compared("roce_tuned", False) == plain  # the same scenario back
    # a compared fabric the user set values on keeps its table when taken out of the comparison
    edited = with_tuned.replace("fabric.custom.roce_tuned.qps_per_connection", 8)
    assert edited.with_fabric_compared("roce_tuned", False).fabric.custom_dict()["roce_tuned"].qps_per_connection == 8
    seed = plain.replace("fabric.profile_set", "seed")
    with pytest.raises(ScenarioError, match="fabric.custom.roce_tuned"):  # the article's set has no tuned RoCE
        seed.with_fabric_compared("roce_tuned", True)
