"""Gradients on the wire (workload.grad_precision) and tensor-parallel overlap (parallel.tp_overlap)."""

import numpy as np
import pytest

from model.compute import TP_OVERLAP_GEMM_SLOWDOWN

import model
from model import ScenarioError, evaluate


def _dp_bound(grad_precision, precision="fp8", zero_stage=0):
    """A 3B model on 32 H100 nodes over 100G Ethernet, data parallel only: the gradient exchange dominates."""
    return model.scenario_from_dict({
        "cluster": {"gpu": "H100-SXM", "nodes": 32},
        "workload": {"params_b": 3, "global_batch": 256, "micro_batch": 1, "recompute": "full",
                     "precision": precision, "grad_precision": grad_precision},
        "parallel": {"tp": 1, "pp": 1, "zero_stage": zero_stage, "dp_overlap": False},
        "fabric": {"profile_set": "published", "compare": ["eth"],
                   "custom": {"eth": {"transport": "roce", "link_gbps": 100, "nics_per_node": 1}}},
    })


@pytest.mark.parametrize("zero_stage", [0, 1])
def test_fp8_gradients_halve_the_data_parallel_traffic(zero_stage):
    bf16 = evaluate(_dp_bound("bf16", zero_stage=zero_stage)).breakdown.dp_comm[0]
    fp8 = evaluate(_dp_bound("fp8", zero_stage=zero_stage)).breakdown.dp_comm[0]
    fp32 = evaluate(_dp_bound("fp32", zero_stage=zero_stage)).breakdown.dp_comm[0]
    assert fp8 < bf16 < fp32
    if zero_stage == 0:  # an all-reduce of gradients: all of it scales with the gradient bytes
        assert fp8 == pytest.approx(0.5 * bf16, rel=0.05) and fp32 == pytest.approx(2.0 * bf16, rel=0.05)
    else:  # the reduce-scatter half scales, the all-gather of bf16 weights does not
        assert fp8 == pytest.approx(0.75 * bf16, rel=0.05)


def test_fp8_gradients_need_fp8_training():
    with pytest.raises(ScenarioError) as e:
        _dp_bound("fp8", precision="bf16")
    msg = str(e.value)
    assert "workload.grad_precision" in msg and "fp8" in msg and "precision = fp8" in msg


def test_unknown_grad_precision_is_refused_by_name():
    with pytest.raises(ScenarioError) as e:
        _dp_bound("int4")
    assert "workload.grad_precision" in str(e.value)


def _tp_bound(tp_overlap):
    return model.scenario_from_dict({
        "cluster": {"gpu": "H100-SXM", "nodes": 8},
        "workload": {"params_b": 70, "layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8, "ffn_hidden": 28672,
                     "seq_len": 4096, "global_batch": 128, "micro_batch": 1, "recompute": "none"},
        "parallel": {"tp": 4, "pp": 4, "virtual_stages": 1, "zero_stage": 1, "tp_overlap": tp_overlap},
        "fabric": {"profile_set": "published", "compare": ["infiniband"]},
    })


def test_tensor_parallel_overlap_hides_most_of_the_tp_traffic():
    plain, overlapped = evaluate(_tp_bound(False)), evaluate(_tp_bound(True))
    tp0, tp1 = plain.breakdown.tp_comm[0], overlapped.breakdown.tp_comm[0]
    assert tp1 == pytest.approx(tp0 / 4, rel=0.01)  # the first of tp = 4 steps stays exposed
    assert overlapped.throughput.step_time_s[0] < plain.throughput.step_time_s[0]
    # the SMs the overlapped communication takes slow the dense GEMMs (model.compute.TP_OVERLAP_GEMM_SLOWDOWN)
    c0, c1 = plain.breakdown.compute[0], overlapped.breakdown.compute[0]
    assert c0 < c1 < c0 * (1 + TP_OVERLAP_GEMM_SLOWDOWN)
