"""The article's decision tree on each branch, the engine's pick, and the reason when they differ."""

import numpy as np
import pytest

import model
from model import presets
from model.recommend import decision_tree, engine_choice, recommendation


@pytest.mark.parametrize("kw, fabric, rule", [
    (dict(nodes=64, params_b=5), "infiniband", "1"),          # > 32 nodes, whatever else
    (dict(nodes=33, params_b=30, budget_stance="limited", operations_team="weak"), "infiniband", "1"),
    (dict(nodes=4, params_b=100), "infiniband", "2"),         # > 50B overrides a small cluster
    (dict(nodes=8, params_b=30), "roce", "1"),                # <= 8 nodes
    (dict(nodes=2, params_b=1), "roce", "1"),
    (dict(nodes=16, params_b=30, budget_stance="limited", existing_ethernet=True), "roce", "3"),
    (dict(nodes=16, params_b=30, budget_stance="limited", existing_ethernet=False), "infiniband", "1"),
    (dict(nodes=16, params_b=30, operations_team="weak"), "roce", "4"),
    (dict(nodes=16, params_b=10), "roce", "2"),               # <= 10B in the 8-32 band
    (dict(nodes=9, params_b=50), "infiniband", "1"),          # 8-32 nodes, 10-50B: preferred
    (dict(nodes=32, params_b=10.5), "infiniband", "1"),
])
def test_decision_tree_branches(kw, fabric, rule):
    c = decision_tree(**kw)
    assert (c.fabric, c.rule) == (fabric, rule)
    assert c.reason


def test_the_articles_cases_follow_the_tree():
    for name, fabric in (("case1", "roce"), ("case2", "infiniband"), ("case3", "infiniband")):
        s = presets.load_preset(name)
        assert recommendation(s, model.evaluate(s))["tree_fabric"] == fabric


class _Res:
    """A minimal evaluate-like result for the engine's choice."""

    def __init__(self, days, tco, per_run):
        self.fabrics = ("ethernet", "roce", "iwarp", "infiniband")
        self.labels = ("Ethernet", "RoCE", "iWARP", "InfiniBand")
        self.data = dict(train_days_with_interruptions=np.array(days, float), tco=np.array(tco, float),
                         cost_per_run=np.array(per_run, float), currency=np.array(["USD"] * 4))

    def __getitem__(self, k):
        return self.data[k]

    def fabric_index(self, name):
        return self.fabrics.index(name)


def test_engine_choice_deadline_budget_and_default():
    r = _Res(days=[30, 14, 20, 12], tco=[100, 110, 105, 130], per_run=[9, 4, 6, 5])
    c = engine_choice(r, deadline_days=15)
    assert (c.fabric, c.runner_up, c.met) == ("roce", "infiniband", True)
    assert c.margin == pytest.approx(20 / 130)
    c = engine_choice(r, budget=112)
    assert (c.fabric, c.runner_up) == ("roce", "iwarp")
    assert engine_choice(r).fabric == "roce"
    c = engine_choice(r, deadline_days=5)
    assert (c.fabric, c.met) == ("infiniband", False) and "fastest instead" in c.criterion


def test_disagreement_gets_one_sentence():
    s = presets.load_preset("case2").replace("goals.budget_cny", None).replace("goals.deadline_days", 60.0)
    rec = recommendation(s, model.evaluate(s))
    assert not rec["agree"] and rec["reason"].count(".") >= 1 and rec["tree_fabric"] in ("infiniband",)
    assert rec["reason"].endswith(".") and "\n" not in rec["reason"]
    same = recommendation(s.replace("goals.deadline_days", 13.2), model.evaluate(s))
    assert same["agree"] and same["reason"] == ""


def test_reason_names_a_missed_deadline():
    s = presets.load_preset("small").replace("goals.deadline_days", 7.4)
    rec = recommendation(s, model.evaluate(s))
    assert rec["tree_fabric"] == "roce" and rec["engine_fabric"] == "infiniband"
    assert "misses the 7.4-day deadline" in rec["reason"]
