"""The engine against published training runs (assets/validation/calibration_runs.csv).

Each row describes a published run completely (hardware, model, parallel plan,
fabric); the engine evaluates it as any user scenario and its step time is
converted to the row's metric under the row's FLOP convention:

- ``hardware_tflops_per_gpu`` (``eq3``): Narayanan et al. eq. 3,
  ``96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h))`` per iteration / (step · GPUs).
- ``iter_time_s``: the step time itself.

Tolerance: median absolute error ≤ 5 %, every row within ±12 %. A judged table's row that states
``not_judged_because`` is shown with its reason and left out of the summary.

Modern runs (``assets/validation/modern_runs.csv``), judged with the same tolerance: Llama 3 405B on
Meta's RoCE fabric at 8k and 16k GPUs (Dubey et al. 2024) and NVIDIA's NeMo / Megatron-Bridge performance
tables on DGX-H100. Their columns add what modern recipes state: ``flash_attention``, ``dp_overlap``,
``qps_per_connection``, ``kv_heads``, ``ffn_hidden``, ``untied_embeddings``, ``precision``,
``grad_precision``, ``cp``, ``zero_stage`` and ``tp_overlap``, and the metrics
``model_tflops_per_gpu`` (model FLOPs, Korthikanti et al. 2022 §6.3, per GPU-second) and
``tokens_per_s_per_gpu``.

Every row is evaluated as a user gets it: the engine's memory limit applies and the plan search chooses what
the row leaves open (recomputation included). :func:`memory_table` sets the engine's memory estimate for each
published recipe that ran without recomputation against its GPU's memory.

Mixture-of-experts runs (``assets/validation/moe_runs.csv``), judged with the same tolerance: DeepSeek-V3 on 2,048
H800 (DeepSeek-AI 2024) and Mixtral 8x7B and 8x22B with Megatron-Core on H100, read with the columns ``experts``,
``top_k``, ``ep`` and what MoE recipes state beyond them (``expert_tp``, ``shared_experts``, ``dense_layers``,
``dense_ffn_hidden``, ``max_routed_nodes``, ``expert_imbalance``, latent attention's ``kv_lora_rank``,
``q_lora_rank``, ``qk_nope_head_dim``, ``qk_rope_head_dim``, ``v_head_dim``, and the flags ``ep_overlap``,
``uneven_stages``, ``light_recompute``, ``fp8_activations``). A row the engine does not meet says why in
``not_judged_because`` and is left out of the summary.

Runs at scale (``assets/validation/scale_runs.csv``), judged with the same tolerance: Megatron-Turing NLG 530B
on 2,240-3,360 A100 GPUs under DeepSpeed (Smith et al. 2022, read with the column ``framework = deepspeed``,
:mod:`model.scale`) and MegaScale's Megatron-LM baseline for a 175B model on 256-12,288 A100 GPUs on RoCE (Jiang et
al. 2024, Table 2), whose drift with scale the straggler term of :mod:`model.scale` describes, and Megatron-Core's
GPT-3 175B strong scaling on 96 and 4,608 H100 in BF16 (NVIDIA's Megatron-LM README; the plan, which the README
gives only in a figure, searched). A row whose ``tp`` is empty leaves the whole plan to the search.

What was calibrated: the three compute constants in :mod:`model.compute`
(``GEMM_EFF_MAX``, ``GEMM_HALF_DIM``, ``MEM_PASSES``), once, for all rows
together. Nothing is set per run: a row only states what its paper states.
Both papers predate FlashAttention, so the rows run with
``flash_attention = false``; Megatron-LM of that time reduced gradients after
the backward pass (``dp_overlap = false``).
"""

from __future__ import annotations

import csv
import tomllib
from dataclasses import dataclass

import numpy as np

from .catalog import ASSETS_DIR, gpus
from .engine import evaluate
from .scenario import scenario_from_dict

CSV_PATH = ASSETS_DIR / "validation" / "calibration_runs.csv"
MODERN_CSV_PATH = ASSETS_DIR / "validation" / "modern_runs.csv"
MOE_CSV_PATH = ASSETS_DIR / "validation" / "moe_runs.csv"
SCALE_CSV_PATH = ASSETS_DIR / "validation" / "scale_runs.csv"
JUDGED_TABLES = (("Megatron-LM runs (Narayanan et al. 2021; Korthikanti et al. 2022)", CSV_PATH),
                 ("Modern runs (Llama 3 405B on RoCE; NVIDIA NeMo / Megatron-Bridge on H100)", MODERN_CSV_PATH),
                 ("Mixture-of-experts runs (DeepSeek-V3 on H800; Megatron-Core Mixtral on H100)", MOE_CSV_PATH),
                 ("Runs at scale (Megatron-Turing NLG 530B on DeepSpeed; MegaScale's Megatron-LM baseline, 256-12,288 "
                  "A100 on RoCE; Megatron-Core GPT-3 175B, 96-4,608 H100)", SCALE_CSV_PATH))
MEDIAN_TOLERANCE = 0.05
ROW_TOLERANCE = 0.12


@dataclass(frozen=True)
class Row:
    id: str
    source: str
    metric: str
    published: float
    engine: float
    plan: str
    memory_note: str = ""  # why no plan fits, where the engine refuses the row's recipe
    not_judged_because: str = ""  # a reference row: why it is shown but not judged

    @property
    def error(self) -> float:
        return self.engine / self.published - 1.0


# columns a row may leave empty (the engine's default applies): what modern recipes state besides the GPT shape
OPTIONAL_WORKLOAD = {"kv_heads": int, "ffn_hidden": int, "untied_embeddings": lambda x: x == "yes",
                     "experts": int, "top_k": int, "precision": str, "grad_precision": str, "framework": str,
                     # mixture-of-experts recipes beyond the routed experts, and multi-head latent attention
                     "shared_experts": int, "dense_layers": int, "dense_ffn_hidden": int, "expert_imbalance": float,
                     "max_routed_nodes": int, "kv_lora_rank": int, "q_lora_rank": int, "qk_nope_head_dim": int,
                     "qk_rope_head_dim": int, "v_head_dim": int}
OPTIONAL_PARALLEL = ("cp", "ep", "zero_stage", "expert_tp")
OPTIONAL_FLAGS = ("tp_overlap", "ep_overlap", "uneven_stages")
OPTIONAL_WORKLOAD_FLAGS = ("light_recompute", "fp8_activations")


def read_runs(path=CSV_PATH) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def run_to_scenario_dict(r: dict) -> dict:
    """A scenario document that states exactly what the paper states."""
    gpus, gpn = int(r["gpus"]), int(r["gpus_per_node"])
    par = {"sequence_parallel": r["sequence_parallel"] == "yes", "dp_overlap": r.get("dp_overlap") == "yes"}
    if r["tp"]:  # the source states the plan
        par.update(mode="explicit", tp=int(r["tp"]), pp=int(r["pp"]))
    else:  # it does not: the plan search chooses it, as for a user
        par["mode"] = "auto"
    if r["interleaved"] == "no":
        par["virtual_stages"] = 1
    elif r["virtual_stages"]:
        par["virtual_stages"] = int(r["virtual_stages"])
    wl = {"params_b": float(r["params_b"]), "layers": int(r["layers"]), "hidden": int(r["hidden"]),
          "heads": int(r["heads"]), "vocab": int(r["vocab"]), "seq_len": int(r["seq_len"]),
          "global_batch": int(r["global_batch"]), "flash_attention": r.get("flash_attention") == "yes"}
    if r["recompute"]:
        wl["recompute"] = r["recompute"]
    if r["micro_batch"]:
        wl["micro_batch"] = int(r["micro_batch"])
    for key in OPTIONAL_WORKLOAD:  # modern recipes: grouped-query attention, SwiGLU, experts, FP8 ...
        if r.get(key):
            wl[key] = OPTIONAL_WORKLOAD[key](r[key])
    for key in OPTIONAL_PARALLEL:
        if r.get(key):
            par[key] = int(r[key])
    for key in OPTIONAL_FLAGS:
        if r.get(key):
            par[key] = r[key] == "yes"
    for key in OPTIONAL_WORKLOAD_FLAGS:
        if r.get(key):
            wl[key] = r[key] == "yes"
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
    """Every row of ``path`` evaluated as a user gets it: the engine's memory limit applies, and what a row leaves
    open (micro-batch, virtual stages, recomputation) the plan search chooses. A row no plan fits is reported with
    no engine value (an error of 100 %), never timed past the memory limit."""
    from .engine import describe_plan
    from .errors import ScenarioError

    rows = []
    for r in read_runs(path):
        scen = scenario_from_dict(run_to_scenario_dict(r))
        try:
            res = evaluate(scen)
        except ScenarioError as exc:
            rows.append(Row(r["id"], r["source"], r["metric"], float(r["value"]), 0.0, "no plan fits",
                            f"refused: {exc}", r.get("not_judged_because", "")))
            continue
        rows.append(Row(r["id"], r["source"], r["metric"], float(r["value"]), _metric(r, res),
                        describe_plan(res.at("run").plan), "", r.get("not_judged_because", "")))
    return rows


def _metric(r: dict, res) -> float:
    """The row's metric from the engine's result, under the row's FLOP convention."""
    step = float(res.throughput.step_time_s[0])
    if r["metric"] == "hardware_tflops_per_gpu":
        return eq3_flops(r) / (step * int(r["gpus"])) / 1e12
    if r["metric"] == "iter_time_s":
        return step
    if r["metric"] == "model_tflops_per_gpu":
        return float(res.throughput.model_tflops_per_gpu[0])
    if r["metric"] == "tokens_per_s_per_gpu":
        return float(res.throughput.tokens_per_s[0]) / int(r["gpus"])
    raise ValueError(f"unknown metric {r['metric']}")  # pragma: no cover - the CSVs only have these


@dataclass(frozen=True)
class MemoryRow:
    """A published recipe that ran without activation recomputation, against the engine's memory estimate."""
    id: str
    source: str
    gpu: str
    plan: str
    estimate_gb: float   # the engine's peak per GPU for the recipe's plan without recomputation [GB]
    memory_gb: float     # the GPU's memory as its datasheet states it [GB]
    usable_gb: float     # what the engine lets a plan use of it [GB]
    # with ``light_recompute`` (the recipe's kernels keep the normalisations' and SwiGLU's inputs only): the same
    # plan's peak with every tensor Megatron-Core and Transformer Engine keep [GB]; NaN for the other recipes
    every_tensor_gb: float = float("nan")

    @property
    def fits(self) -> bool:
        return self.estimate_gb <= self.usable_gb


def _ran_without_recompute(r: dict) -> bool:
    """The source states no recomputation (``recompute = none``), or its recipe sets none (``recompute`` empty:
    NVIDIA's performance recipes and the MoE Model Zoo's scripts set no recomputation flag)."""
    return r.get("recompute", "") in ("", "none")


def recipe_scenario(r: dict):
    """The row's recipe as stated, without recomputation: the scenario a user who copies it evaluates."""
    d = run_to_scenario_dict(r)
    d["workload"]["recompute"] = "none"
    return scenario_from_dict(d)


def memory_table(paths=(MODERN_CSV_PATH, MOE_CSV_PATH)) -> list[MemoryRow]:
    """The engine's memory estimate for every published recipe that ran without recomputation, against the GPU.

    The plan is the recipe's; what it leaves open (the micro-batch, virtual stages) is the plan search's choice
    among the plans that fit, or, where none fits, its choice with the memory limit off (the fastest plan).
    """
    from .catalog import gpu
    from .engine import build_inputs, describe_plan, evaluate as _evaluate
    from .memory import USABLE_MEMORY_FRACTION

    out = []
    for path in paths:
        for r in read_runs(path):
            if not _ran_without_recompute(r):
                continue
            scen = recipe_scenario(r)
            res = _evaluate(scen, require_feasible=False)
            at = res.at("run")
            if not bool(np.all(res.plan.feasible)):
                res = _evaluate(scen, memory_limit=False)
                at = res.at("run")
            cap = float(build_inputs(scen).point["memory_bytes"][0]) / 1e9
            every = float("nan")
            if scen.workload.light_recompute:  # the same plan, every degree pinned, with every tensor kept
                plan = at.plan
                moe = (scen.workload.experts or 1) > 1  # expert degrees only where there are experts
                pinned = {f"parallel.{k}": int(getattr(plan, k)) for k in ("tp", "pp", "virtual_stages", "cp",
                                                                            "zero_stage") + ("ep", "expert_tp") * moe
                          if getattr(plan, k) is not None}
                kept = scen.replace_many({"workload.light_recompute": False, "parallel.mode": "explicit",
                                          "workload.micro_batch": int(plan.micro_batch), **pinned})
                every = float(_evaluate(kept, memory_limit=False).at("run").plan.memory_per_gpu_gb)
            out.append(MemoryRow(r["id"], r["source"], r["gpu"], describe_plan(at.plan),
                                 float(at.plan.memory_per_gpu_gb), float(gpu(r["gpu"])["memory_gb"]),
                                 cap * USABLE_MEMORY_FRACTION, every))
    return out


def validate_all(tables=JUDGED_TABLES) -> list[tuple[str, list[Row]]]:
    """Every judged table: (title, rows), the Megatron-LM runs then the modern ones (or ``tables``')."""
    return [(title, validate(path)) for title, path in tables]


def summary(rows: list[Row]) -> dict:
    errs = np.array([abs(r.error) for r in rows])
    return {"rows": len(rows), "median_abs_error": float(np.median(errs)), "max_abs_error": float(errs.max()),
            "within_row_tolerance": int(np.sum(errs <= ROW_TOLERANCE)),
            "passed": bool(np.median(errs) <= MEDIAN_TOLERANCE and errs.max() <= ROW_TOLERANCE)}


# --------------------------------------------------------------------------
# network: the collective model against real nccl-tests logs
# --------------------------------------------------------------------------

NCCL_DIR = ASSETS_DIR / "validation" / "nccl"
NETWORK_MEDIAN_TOLERANCE = 0.10   # median over network and NVLink logs of the median |error| at >= 64 MiB
NETWORK_ROW_TOLERANCE = 0.20      # every network (InfiniBand, RoCE) and NVLink log, median |error| at >= 64 MiB
JUDGED_SCOPES = ("network", "nvlink")


@dataclass(frozen=True)
class NetworkRow:
    """One log against the engine: busbw errors (engine / measured − 1) at >= 64 MiB and >= 1 MiB."""
    file: str
    scope: str
    source: str
    setup: str
    collective: str
    measured_peak_gb_per_s: float
    engine_peak_gb_per_s: float
    large_median: float
    large_max: float
    medium_median: float
    medium_max: float
    warnings: tuple
    sizes: np.ndarray = None
    measured: np.ndarray = None
    engine: np.ndarray = None

    @property
    def judged(self) -> bool:
        return self.scope in JUDGED_SCOPES


def read_nccl_index(directory=NCCL_DIR) -> list[dict]:
    with open(directory / "index.csv", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def log_scenario_dict(r: dict) -> dict:
    """A scenario stating exactly the log's setup: published profile set, the source's GPU, nodes and NICs, and
    the fabric settings the source states (``settings``: TOML ``key = value`` pairs separated by ``;``)."""
    run = {"transport": r["fabric"], "link_gbps": float(r["link_gbps"]), "nics_per_node": int(r["nics_per_node"])}
    run.update(tomllib.loads(r.get("settings", "").replace(";", "\n")))
    return {"name": r["file"], "cluster": {"gpu": r["gpu"], "nodes": int(r["nodes"]),
                                           "gpus_per_node": int(r["gpus_per_node"])},
            "fabric": {"profile_set": "published", "compare": ["run"], "custom": {"run": run}}}


def predictable(r: dict) -> bool:
    """Whether the engine can describe a log's setup: in scope, with its line rate stated and its GPU catalogued."""
    return r["scope"] != "not_evaluated" and bool(r["link_gbps"]) and r["gpu"] in gpus()


def validate_network(directory=NCCL_DIR) -> list[NetworkRow]:
    """Every log of the index: read, and unless out of the engine's reach, predicted without calibration."""
    from .nccl_accuracy import NcclSetup, floor_note, log_warnings, size_errors
    from .nccl_table import scenario_table
    from .nccl_log import parse_nccl_tests

    rows = []
    for r in read_nccl_index(directory):
        text = (directory / r["file"]).read_text(encoding="utf-8")
        log = parse_nccl_tests(text, source=r["file"], nodes=int(r["nodes"]))
        source = r["source"].split(", http")[0]
        peak = float(np.max(log.busbw_gb_per_s))
        if not predictable(r):
            rows.append(NetworkRow(r["file"], r["scope"], source, r["notes"], log.collective, peak, float("nan"),
                                   *(float("nan"),) * 4, (), log.size_bytes, log.busbw_gb_per_s, None))
            continue
        scen = scenario_from_dict(log_scenario_dict(r))
        pred = scenario_table(scen, "run", log.collective, sizes=log.size_bytes,
                              algorithm=r["algorithm"])["busbw_GBps"]
        err = size_errors(log, pred)
        setup = NcclSetup(r["gpu"], float(r["link_gbps"]), int(r["nics_per_node"]), r["fabric"], r["algorithm"])
        desc = (f"{r['gpu']}, {r['nodes']} × {r['gpus_per_node']} GPUs, {r['nics_per_node']} × {r['link_gbps']}G "
                f"{r['fabric']}" + (f" ({r['settings']})" if r.get("settings") else "")
                + f", algorithm {r['algorithm']}")
        rows.append(NetworkRow(r["file"], r["scope"], source, desc, log.collective, peak, float(np.max(pred)),
                               err["large_median"], err["large_max"], err["medium_median"], err["medium_max"],
                               tuple(log_warnings(log, setup)) + tuple(filter(None, [floor_note(log)])),
                               log.size_bytes, log.busbw_gb_per_s, pred))
    return rows


def network_summary(rows: list[NetworkRow]) -> dict:
    judged = np.array([r.large_median for r in rows if r.judged])
    return {"logs": len(rows), "judged": len(judged),
            "median_abs_error": float(np.median(judged)), "max_abs_error": float(np.max(judged)),
            "passed": bool(np.median(judged) <= NETWORK_MEDIAN_TOLERANCE
                           and np.max(judged) <= NETWORK_ROW_TOLERANCE)}
