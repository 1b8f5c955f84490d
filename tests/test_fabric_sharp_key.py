"""SHARP (InfiniBand in-network reduction) as a key of a user fabric: read, resolved, refused where it cannot be."""

from __future__ import annotations

import pytest

from model import ScenarioError, engine
from model.scenario import scenario_from_dict


def scenario(**custom):
    return scenario_from_dict({"cluster": {"gpu": "H100-SXM", "nodes": 64},
                               "fabric": {"profile_set": "published", "custom": {"ib_sharp": custom}}})


def test_a_user_fabric_can_have_sharp_and_the_built_in_ones_keep_theirs():
    rows = {r.name: r for r in engine.resolve_fabrics(scenario(transport="infiniband", sharp=True))}
    assert rows["ib_sharp"].values["sharp"] is True and rows["ib_sharp"].sources["sharp"] == "scenario"
    assert rows["infiniband"].values["sharp"] is False  # the published profile: off on a default cluster
    assert rows["roce"].values["sharp"] is False


@pytest.mark.parametrize("custom,why", [
    (dict(transport="roce", sharp=True), "InfiniBand switches"),
    (dict(transport="infiniband", sharp="yes"), "true or false"),
])
def test_sharp_where_it_cannot_be_is_refused_by_name(custom, why):
    with pytest.raises(ScenarioError) as err:
        scenario(**custom)
    assert err.value.field == "fabric.custom.ib_sharp.sharp" and why in str(err.value)
