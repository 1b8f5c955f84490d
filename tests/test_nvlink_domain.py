"""A GB200 NVL72 rack as one node: 72 GPUs in one NVLink domain, accepted and timed; 73 refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from model import ScenarioError, nccl_table
from model.scenario import scenario_from_dict


def nvl72(nodes=1, gpus_per_node=72):
    return scenario_from_dict({"cluster": {"gpu": "GB200-NVL72", "nodes": nodes, "gpus_per_node": gpus_per_node},
                               "fabric": {"profile_set": "published"}})


def test_a_72_gpu_nvlink_domain_is_one_node_with_nvlink_sharp():
    t = nccl_table.scenario_table(nvl72(), "infiniband", "all_reduce", sizes=2.0 ** np.arange(20, 33))
    assert t["ranks"] == 72 and t["nodes"] == 1
    # NVLS across the rack's NVLink switches: near the GPU's NVLS bus bandwidth (960 GB/s), never above it
    assert t["algorithm"][-1] == "nvls" and 850.0 < t["busbw_GBps"][-1] <= 960.0


def test_racks_of_72_leave_through_one_nic_per_gpu():
    t = nccl_table.scenario_table(nvl72(nodes=8), "infiniband", "all_reduce", sizes=2.0 ** np.arange(30, 35))
    assert t["ranks"] == 576
    assert np.all(np.isfinite(t["time_us"])) and t["busbw_GBps"].max() <= 960.0


def test_more_than_72_gpus_per_node_is_refused_by_name():
    with pytest.raises(ScenarioError) as err:
        nvl72(gpus_per_node=73)
    assert err.value.field == "cluster.gpus_per_node" and "72" in str(err.value)
