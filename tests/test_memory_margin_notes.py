"""A plan that recomputes activations to fit, or lies near its GPU's usable memory, carries its memory margin
beside it: in the point table's plan tip and the charts' hover read-out (Qt-free texts)."""

import numpy as np

import model
from model import presets
from model.compute import RECOMPUTE_KINDS
from gui.present.text import MEMORY_NEAR_LIMIT_GB, memory_at, memory_note


def _recomputing():
    """65B on 8 A100 nodes at sequence 16,384, TP 8 · PP 1: fits only with half the layers recomputed."""
    return model.scenario_from_dict({"cluster": {"gpu": "A100-SXM-80GB", "nodes": 8},
                                     "workload": {"params_b": 65, "seq_len": 16384, "global_batch": 64,
                                                  "micro_batch": 1},
                                     "parallel": {"tp": 8, "pp": 1, "zero_stage": 1}})


def test_a_recomputing_plan_says_its_memory_and_margin():
    res = model.evaluate(_recomputing())
    f = res.fabric_index("infiniband")
    rep = res.at("infiniband")
    kind = RECOMPUTE_KINDS[int(rep.plan.recompute)]
    assert kind != "none"
    note = memory_note(rep.plan.memory_per_gpu_gb, rep.plan.memory_margin_gb, kind)
    assert f"{rep.plan.memory_margin_gb:,.1f} GB of usable memory left" in note
    swept = model.sweep(_recomputing(), "cluster.nodes", np.array([8.0, 16.0]))
    hover = memory_at(swept, f, 0)
    assert hover.startswith(f"recompute {kind}") and "usable memory left" in hover


def test_a_plan_far_from_the_limit_without_recompute_says_nothing():
    assert memory_note(40.0, 30.0, "none") == ""
    assert memory_note(79.0, MEMORY_NEAR_LIMIT_GB - 0.1, "none").endswith("of usable memory left")
    assert memory_note(float("nan"), 3.0, "full") == ""
    res = model.sweep(presets.load_preset("case2"), "cluster.nodes", np.array([24.0]))
    f = res.fabric_index("infiniband")
    assert float(res.plan.recompute[f, 0]) == 0 and float(res.plan.memory_margin_gb[f, 0]) >= MEMORY_NEAR_LIMIT_GB
    assert memory_at(res, f, 0) == ""
