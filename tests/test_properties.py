"""Properties over the whole input domain (hypothesis)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import model
from model import BREAKDOWN_KEYS, sweep

GPUS = ["A10", "A100-SXM-40GB", "A100-SXM-80GB", "H100-SXM", "H100-PCIe", "H200", "B200"]

# Bytes of device memory per parameter for mixed-precision Adam training: 2 (bf16 weights) + 2 (grads)
# + 12 (fp32 master weights and two moments) = 16 (Rajbhandari et al., "ZeRO", SC 2020, §3.1); 24 leaves
# room for activations, so a model drawn under this bound can be sharded to fit.
BYTES_PER_PARAM = 24.0


@st.composite
def scenarios(draw):
    """Scenarios a parallel plan can fit: the model is drawn as a share of what the cluster's memory can
    hold (ZeRO's 16 B per parameter and activations), the batch at least one sequence per GPU."""
    gpu = draw(st.sampled_from(GPUS))
    gpn = draw(st.sampled_from([1, 2, 4, 8]))
    nodes = draw(st.integers(1, 512))
    memory_gb = nodes * gpn * model.catalog.gpu(gpu)["memory_gb"]
    most_b = min(2000.0, memory_gb / BYTES_PER_PARAM)
    params = draw(st.floats(0.1, max(most_b, 0.1))) if most_b >= 0.1 else 0.1
    batch = draw(st.integers(nodes * gpn, max(nodes * gpn, 4096)))
    return model.scenario_from_dict({
        "cluster": {"gpu": gpu, "nodes": nodes, "gpus_per_node": gpn},
        "workload": {"params_b": params, "global_batch": batch, "seq_len": draw(st.sampled_from([512, 1024, 2048, 4096])),
                     "recompute": draw(st.sampled_from(["none", "selective", "full"])),
                     "flash_attention": draw(st.booleans()), "train_tokens_b": draw(st.floats(1.0, 20000.0))},
        "fabric": {"profile_set": draw(st.sampled_from(["seed", "published"]))},
    })


def feasible(res) -> np.ndarray:
    """The points where a plan fits; the example is discarded (hypothesis ``assume``) when none does."""
    ok = np.asarray(res.plan.feasible, dtype=bool)
    assume(ok.any())
    return ok


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _finite_nonneg(res):
    ok = feasible(res)
    for key in ("step_time_s", "mfu", "hfu", "tokens_per_s", "train_days", "model_tflops_per_gpu"):
        arr = res.metric(key)[ok]
        assert np.all(np.isfinite(arr)) and np.all(arr > 0), key
    for key in BREAKDOWN_KEYS:
        arr = getattr(res.breakdown, key)[ok]
        assert np.all(np.isfinite(arr)) and np.all(arr >= -1e-9 * res.throughput.step_time_s[ok]), key
    assert np.all(res.throughput.mfu[ok] <= 1.0)
    assert np.all(np.isnan(res.throughput.step_time_s[~ok]))


@SETTINGS
@given(scenarios())
def test_outputs_finite_and_non_negative(s):
    _finite_nonneg(model.evaluate(s, require_feasible=False))


def _monotone(s, field, values, increasing, rel_tol=1e-9):
    # time per token (train days): the step of a plan whose batch was rounded up is longer but does more
    res = sweep(s, field, values)
    ok = feasible(res)
    step = res.throughput.train_days
    both = ok[:, 1:] & ok[:, :-1]
    assume(both.any())  # at least one neighbouring pair to compare
    diff = np.diff(step, axis=1)[both]
    tol = rel_tol * np.nanmax(step) if np.any(np.isfinite(step)) else 0
    if increasing:
        assert np.all(diff >= -tol), (field, values)
    else:
        assert np.all(diff <= tol), (field, values)


MONOTONE_CASES = [
    # field, values drawn, True: train days never fall as the value grows / False: never rise
    ("fabric.loss_rate", st.lists(st.floats(0.0, 0.3), min_size=2, max_size=6), True),
    ("fabric.latency_us", st.lists(st.floats(0.0, 10_000.0), min_size=2, max_size=6), True),
    ("fabric.link_gbps", st.lists(st.floats(0.5, 3200.0), min_size=2, max_size=6), False),
    ("fabric.achievable_fraction", st.lists(st.floats(0.01, 1.0), min_size=2, max_size=6), False),
]


@pytest.mark.parametrize("field,values,increasing", MONOTONE_CASES, ids=[c[0] for c in MONOTONE_CASES])
@SETTINGS
@given(s=scenarios(), data=st.data())
def test_monotone_in_fabric_values(field, values, increasing, s, data):
    """More loss or latency never makes training faster; more bandwidth never slower."""
    _monotone(s, field, np.sort(data.draw(values)), increasing)


@SETTINGS
@given(scenarios(), st.sampled_from(["ethernet", "roce", "iwarp", "infiniband"]),
       st.lists(st.integers(1, 16), min_size=2, max_size=5))
def test_more_nics_never_slower(s, fabric, nics):
    """More NICs never make a run slower, but for what their ports and links cost: one more switch tier (its
    latency on every collective step; a 0.25B model on 10 A10 nodes, 4 -> 13 NICs: +2.8 µs round trip, +0.14 % of
    a 0.05 s step), or loss recovery waiting on more links (a collective waits whenever any of its links loses its
    last packet: B200, 481 nodes, the article's InfiniBand loss of 0.005 % with go-back-N, 7 -> 11 NICs: +1 %).
    A run grows past 0.1 % only by its loss recovery's growth, or (by 1 % at most) where a switch tier joined."""
    values = np.sort(np.asarray(nics, dtype=float))
    res = sweep(s, f"fabric.{fabric}.nics_per_node", values)
    ok = feasible(res)
    both = ok[:, 1:] & ok[:, :-1]
    assume(both.any())
    days = res.throughput.train_days
    recovery = days * res.breakdown.loss_recovery / res.throughput.step_time_s  # loss recovery's share [days]
    grew = np.diff(days, axis=1)
    by_recovery = grew <= np.maximum(np.diff(recovery, axis=1), 0.0) + 1e-3 * days[:, :-1]
    tiers = np.broadcast_to(np.diff(np.asarray(res.network.switch_levels, dtype=float), axis=-1), grew.shape)
    by_tier = (tiers > 0) & (grew <= 1e-2 * days[:, :-1])
    assert np.all(by_recovery | by_tier | ~both), (fabric, values)
