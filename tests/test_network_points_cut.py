"""The network state and the node bandwidths of a sweep that leaves the cluster alone (a model, batch or money
sweep) are computed once per fabric: the same values, bit for bit, as computed at every point."""

import numpy as np
import pytest

import model
from model import engine, network


def _leaves(tree, pre=""):
    if isinstance(tree, dict):
        return {k: v for key, x in tree.items() for k, v in _leaves(x, f"{pre}/{key}").items()}
    if isinstance(tree, tuple):
        return {k: v for i, x in enumerate(tree) for k, v in _leaves(x, f"{pre}/{i}").items()}
    return {pre: np.asarray(tree)}


@pytest.mark.parametrize("preset,field,values", [
    ("default", "workload.params_b", np.geomspace(1, 1000, 16)),
    ("default", "workload.global_batch", np.array([256.0, 512, 1024, 4096])),
    ("moe_mixtral_8x22b", "economics.electricity_usd_per_kwh", np.linspace(0.05, 0.3, 5)),
])
def test_the_network_of_points_that_share_their_cluster_is_that_of_every_point(preset, field, values):
    s = model.load_scenario(f"assets/presets/{preset}.toml").replace_many({"topology.oversubscription": 3.0})
    inp = engine.build_inputs(s, field, values, fabric_points_cut=True)
    shape = (len(inp.fabrics), inp.n)
    cut = _leaves(network.network_for(inp))
    pt = {k: inp.point[k] for k in network.NETWORK_POINT_KEYS}
    net = network.network_state(pt, inp.fabric)
    every = _leaves((net, network.inter_bandwidths(pt, inp.fabric, net)))
    assert cut.keys() == every.keys()
    assert all(x.size <= len(inp.fabrics) for x in cut.values())  # computed once per fabric
    for k, x in every.items():
        assert np.broadcast_to(cut[k], shape).tobytes() == np.broadcast_to(x, shape).tobytes(), k
