"""Properties: more nodes never lowers capex; dearer electricity never lowers TCO; more interruptions
never shorten the run. Each example is one vectorised sweep over sorted values, all fabrics at once."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import model
from model import presets

BASES = {name: presets.load_preset(name) for name in ("case1", "case2", "small")}
base = st.sampled_from(sorted(BASES))
profile = st.sampled_from(["seed", "published"])


def _scen(name, prof):
    return BASES[name].replace("fabric.profile_set", prof)


def _nondecreasing(a):
    a = np.asarray(a, dtype=float)
    ok = np.isfinite(a)
    for row, m in zip(a, ok):
        v = row[m]
        assert np.all(np.diff(v) >= -1e-9 * np.abs(v[1:])), row


@settings(max_examples=25, deadline=None)
@given(base, profile, st.lists(st.integers(1, 600), min_size=2, max_size=12, unique=True),
       st.sampled_from([1.0, 2.0, 3.0]))
def test_more_nodes_never_lower_capex(name, prof, nodes, over):
    s = _scen(name, prof).replace("topology.oversubscription", over)
    w = model.sweep(s, "cluster.nodes", sorted(nodes))
    _nondecreasing(w.money.capex)
    _nondecreasing(w.network.switches)


@settings(max_examples=25, deadline=None)
@given(base, profile, st.lists(st.floats(0.0, 5.0), min_size=2, max_size=10, unique=True))
def test_dearer_electricity_never_lowers_tco(name, prof, prices):
    w = model.sweep(_scen(name, prof), "economics.electricity_usd_per_kwh", sorted(prices))
    _nondecreasing(w.money.tco)
    _nondecreasing(w.money.cost_per_run)


@settings(max_examples=25, deadline=None)
@given(base, profile, st.lists(st.floats(0.0, 5000.0), min_size=2, max_size=10, unique=True),
       st.sampled_from(["reliability.gpu_host_interruptions_per_1m_gpu_hours",
                        "fabric.net_interruptions_per_1m_node_hours"]))
def test_more_interruptions_never_shorten_the_run(name, prof, rates, field):
    w = model.sweep(_scen(name, prof), field, sorted(rates))
    _nondecreasing(w.reliability.train_days_with_interruptions)
    _nondecreasing(w.reliability.interruptions)
    assert np.all(w.reliability.train_days_with_interruptions >= w.throughput.train_days * (1 - 1e-12))
