"""The engine against published training runs (assets/validation/calibration_runs.csv).

Each row describes a published run completely (hardware, model, parallel plan,
fabric); the engine evaluates it as any user scenario and its step time is
converted to the row's metric under the row's FLOP convention:

- ``hardware_tflops_per_gpu`` (``eq3``): Narayanan et al. eq. 3,
  ``96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h))`` per iteration / (step · GPUs).
- ``iter_time_s``: the step time itself.

Tolerance: median absolute error ≤ 6 %, every row within ±15 %.

Network-dependent runs (``assets/validation/network_runs.csv``): published runs whose
speed depends on the inter-node fabric (data parallelism over RoCE at thousands of
GPUs). Same reading, with the columns these papers add (``flash_attention``,
``dp_overlap``, ``qps_per_connection``) and the metric ``model_tflops_per_gpu`` (model
FLOPs, Korthikanti et al. 2022 §6.3, per GPU-second). Shown with their errors, outside
the compute tolerance: they check the network physics, which nothing was fitted to.

What was calibrated: the three compute constants in :mod:`model.compute`
(``GEMM_EFF_MAX``, ``GEMM_HALF_DIM``, ``MEM_PASSES``), once, for all rows
together. Nothing is set per run: a row only states what its paper states.
Both papers predate FlashAttention, so the rows run with
``flash_attention = false``; Megatron-LM of that time reduced gradients after
the backward pass (``dp_overlap = false``).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass

import numpy as np

from .catalog import ASSETS_DIR
from .engine import evaluate
from .scenario import scenario_from_dict

CSV_PATH = ASSETS_DIR / "validation" / "calibration_runs.csv"
NETWORK_CSV_PATH = ASSETS_DIR / "validation" / "network_runs.csv"
MEDIAN_TOLERANCE = 0.06
ROW_TOLERANCE = 0.15


@dataclass(frozen=True)
class Row:
    id: str
    source: str
    metric: str
    published: float
    engine: float
    plan: str

    @property
    def error(self) -> float:
        return self.engine / self.published - 1.0


def read_runs(path=CSV_PATH) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def run_to_scenario_dict(r: dict) -> dict:
    """A scenario document that states exactly what the paper states."""
    gpus, gpn = int(r["gpus"]), int(r["gpus_per_node"])
    par = {"mode": "explicit", "tp": int(r["tp"]), "pp": int(r["pp"]),
           "sequence_parallel": r["sequence_parallel"] == "yes", "dp_overlap": r.get("dp_overlap") == "yes"}
    if r["interleaved"] == "no":
        par["virtual_stages"] = 1
    elif r["virtual_stages"]:
        par["virtual_stages"] = int(r["virtual_stages"])
    wl = {"params_b": float(r["params_b"]), "layers": int(r["layers"]), "hidden": int(r["hidden"]),
          "heads": int(r["heads"]), "vocab": int(r["vocab"]), "seq_len": int(r["seq_len"]),
          "global_batch": int(r["global_batch"]), "recompute": r["recompute"], "flash_attention": r.get("flash_attention") == "yes"}
    if r["micro_batch"]:
        wl["micro_batch"] = int(r["micro_batch"])
    run = {"transport": r["transport"], "link_gbps": float(r["link_gbps"]), "nics_per_node": int(r["nics_per_node"]),
           "achievable_fraction": 0.90}
    if r.get("qps_per_connection"):
        run["qps_per_connection"] = int(r["qps_per_connection"])
    return {
        "name": r["id"],
        "cluster": {"gpu": r["gpu"], "nodes": gpus // gpn, "gpus_per_node": gpn},
        "workload": wl,
        "parallel": par,
        "fabric": {"profile_set": "published", "compare": ["run"], "custom": {"run": run}},
    }


def eq3_flops(r: dict) -> float:
    B, s, l, h, V = (float(r[k]) for k in ("global_batch", "seq_len", "layers", "hidden", "vocab"))
    return 96.0 * B * s * l * h**2 * (1.0 + s / (6.0 * h) + V / (16.0 * l * h))


def validate(path=CSV_PATH) -> list[Row]:
    from .engine import describe_plan

    rows = []
    for r in read_runs(path):
        res = evaluate(scenario_from_dict(run_to_scenario_dict(r)))
        step = float(res["step_time_s"][0])
        if r["metric"] == "hardware_tflops_per_gpu":
            value = eq3_flops(r) / (step * int(r["gpus"])) / 1e12
        elif r["metric"] == "iter_time_s":
            value = step
        elif r["metric"] == "model_tflops_per_gpu":
            value = float(res["model_tflops_per_gpu"][0])
        else:  # pragma: no cover - the CSV only has these two
            raise ValueError(f"unknown metric {r['metric']}")
        rows.append(Row(r["id"], r["source"], r["metric"], float(r["value"]), value,
                        describe_plan(res.at("run")["plan"])))
    return rows


def summary(rows: list[Row]) -> dict:
    errs = np.array([abs(r.error) for r in rows])
    return {"rows": len(rows), "median_abs_error": float(np.median(errs)), "max_abs_error": float(errs.max()),
            "within_row_tolerance": int(np.sum(errs <= ROW_TOLERANCE)),
            "passed": bool(np.median(errs) <= MEDIAN_TOLERANCE and errs.max() <= ROW_TOLERANCE)}
