"""The plan search keeps what it found: fabric-free answers with the plan pairs they were read from (the
fewer-replicas pass's row options and the times of its options no fabric enters), and each fabric's answers on
their own (a drag of one fabric's latency or loss searches that fabric only). A sweep that meets kept answers, as
a fabric slider's drag does at every move, gives the outputs of a search from nothing, bit for bit."""

import numpy as np
import pytest

import model
from model import engine


def _fingerprint(result):
    return {path: np.ascontiguousarray(x).tobytes() for path, x in result.arrays()}


@pytest.mark.parametrize("preset,path,values", [
    ("default", "fabric.custom.roce.latency_us", (2.0, 9.0, 40.0, 2.0)),
    ("case2_autodriving_24xA100_30B", "fabric.custom.ethernet.latency_us", (20.0, 400.0, 5.0)),
    ("case3_centre_128xH100_1T", "fabric.custom.infiniband.loss_rate", (0.0, 1e-5, 1e-3)),
    ("moe_mixtral_8x22b", "fabric.custom.roce.latency_us", (3.0, 30.0, 300.0)),
    ("llama3_405b_16k_h100", "fabric.custom.iwarp.loss_rate", (1e-6, 1e-4, 1e-2)),
])
def test_a_sweep_on_kept_pairs_equals_a_search_from_nothing(preset, path, values):
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    nodes = np.unique(np.round(np.geomspace(1, 1024, 96)))
    engine.clear_plan_cache()
    warm = []
    for v in values:  # one drag: every move after the first meets the kept pairs
        warm.append(_fingerprint(model.sweep(s.replace(path, v), "cluster.nodes", nodes)))
    for v, got in zip(values, warm):
        engine.clear_plan_cache()
        want = _fingerprint(model.sweep(s.replace(path, v), "cluster.nodes", nodes))
        assert got.keys() == want.keys()
        for key in want:
            assert got[key] == want[key], (v, key)


def test_a_cluster_sweep_after_another_scenario_equals_a_sweep_from_nothing():
    """The network state kept for a cluster-size sweep (a model-size drag keeps it from move to move) is the one of
    the scenario swept: another model keeps it, another fabric value or GPU does not."""
    s = model.load_scenario("assets/presets/default.toml")
    nodes = np.unique(np.round(np.geomspace(1, 1000, 64)))
    steps = [s.replace("workload.params_b", 40.0), s.replace("workload.params_b", 45.0),
             s.replace("fabric.custom.roce.latency_us", 60.0), s.replace("cluster.gpu", "H100-SXM"),
             s.replace("fabric.custom.roce.loss_rate", 1e-6)]
    engine.clear_plan_cache()
    warm = [_fingerprint(model.sweep(x, "cluster.nodes", nodes)) for x in steps]
    for x, got in zip(steps, warm):
        engine.clear_plan_cache()
        assert got == _fingerprint(model.sweep(x, "cluster.nodes", nodes))
