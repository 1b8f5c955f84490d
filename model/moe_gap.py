"""The fabric gap a mixture-of-experts run opens against a dense run of the same compute.

A mixture-of-experts model sends every token's hidden state to the experts that hold it and back
(:data:`~model.step_time.MOE_ALL_TO_ALLS` all-to-alls per MoE layer and micro-batch, Lepikhin et al. 2021,
GShard), on the critical path; when expert parallelism spans nodes, that traffic crosses the fabric. Its
*dense twin* (:func:`dense_twin`) has the same layers, attention and active MLP compute per token
(one SwiGLU MLP ``top_k`` experts wide), the same cluster, batch and tokens: the same FLOPs per token and
no all-to-all. :func:`fabric_gap` evaluates both for every fabric of the scenario, at its point or along a
sweep, and reports each fabric's step time over the best fabric's: the slowdown a slower fabric costs the
MoE run, beside what it costs the dense one.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .engine import evaluate, sweep
from .errors import ScenarioError
from .scenario import Scenario


def is_moe(s: Scenario) -> bool:
    return (s.workload.experts or 1) > 1


def dense_twin(s: Scenario) -> Scenario:
    """``s`` with its experts replaced by one dense MLP of the same active width (``top_k`` experts' worth).

    The shared parts (layers, hidden size, attention, vocabulary, cluster, batch, tokens, precision,
    fabrics) are kept; shared experts join the active width, dense first layers become like the others;
    expert parallelism is dropped (nothing to split) and ``params_b`` becomes the active
    parameter count the architecture gives. Mixtral 8x22B's twin is ``assets/presets/moe_dense_39b.toml``.
    """
    if not is_moe(s):
        raise ScenarioError("workload.experts", s.workload.experts or 1, "a mixture-of-experts model (experts > 1) "
                                                                    "to compare with its dense twin")
    w = s.workload
    top_k = (w.top_k or 2) + w.shared_experts  # the shared experts are active for every token too
    width = w.ffn_hidden if w.ffn_hidden is not None else None
    twin_w = dataclasses.replace(w, experts=None, top_k=None, capacity_factor=1.0,
                                 ffn_hidden=None if width is None else width * top_k, shared_experts=0,
                                 dense_layers=0, dense_ffn_hidden=None, expert_imbalance=None, max_routed_nodes=None)
    if width is None:  # experts are GPT MLPs of 4h (8h² weights each): the twin's MLP has top_k times their
        # weights, written as the SwiGLU width with as many (3·h·f = top_k · 8h²)
        twin_w = dataclasses.replace(twin_w, ffn_hidden=int(round(top_k * 8 * (w.hidden or 0) / 3)) or None)
    twin_w = dataclasses.replace(twin_w, params_b=_active_params_b(s))
    par = dataclasses.replace(s.parallel, ep=None, expert_tp=None)
    return dataclasses.replace(s, name=f"{s.name} (dense twin)", workload=twin_w, parallel=par)


def _active_params_b(s: Scenario) -> float:
    """Parameters a token meets [10⁹]: the architecture's, with ``top_k`` experts instead of all."""
    res = evaluate(s, require_feasible=False)
    total = float(np.asarray(res.workload.params).reshape(-1)[0])
    w = s.workload
    experts, top_k = float(w.experts or 1), float(w.top_k or 2)
    arch = res.workload
    h, a = float(np.asarray(arch.hidden).reshape(-1)[0]), float(np.asarray(arch.heads).reshape(-1)[0])
    kv = float(np.asarray(arch.kv_heads).reshape(-1)[0])
    layers = float(np.asarray(arch.layers).reshape(-1)[0])
    from .compute import layer_matmul_weights

    mlp = float(layer_matmul_weights(h, a, kv, w.ffn_hidden if w.ffn_hidden else np.nan)
                - layer_matmul_weights(h, a, kv, 0.0))
    # experts (and their router columns) a token does not use, in the MoE layers (not the dense first ones)
    idle = (layers - w.dense_layers) * (experts - top_k) * (mlp + h)
    return max((total - idle) / 1e9, 0.01)


def fabric_gap(s: Scenario, field: str | None = None, values=None) -> dict:
    """Step time of each fabric over the best fabric's, for ``s`` (MoE) and its dense twin [-].

    Returns ``fabrics``, ``labels``, ``x`` (``None`` at the scenario's point), ``moe_step_s`` and
    ``dense_step_s`` [s] and ``moe_slowdown`` / ``dense_slowdown`` (step over the best fabric's at each
    point, minus one) with shape (F,) at the point or (F, N) along the sweep, and ``gap`` (MoE slowdown minus
    dense slowdown). NaN where a fabric has no plan that fits.
    """
    twin = dense_twin(s)
    if field is None:
        moe, dense = evaluate(s, require_feasible=False), evaluate(twin, require_feasible=False)
    else:
        moe, dense = sweep(s, field, values), sweep(twin, field, values)
    out = {"fabrics": moe.fabrics, "labels": moe.labels, "x": None if field is None else moe.x, "field": field}
    for key, res in (("moe", moe), ("dense", dense)):
        step = np.asarray(res.throughput.step_time_s, dtype=float)
        with np.errstate(invalid="ignore"):
            best = np.nanmin(np.where(np.isfinite(step), step, np.nan), axis=0) if np.any(np.isfinite(step)) \
                else np.full(step.shape[1:], np.nan)
        out[f"{key}_step_s"] = step
        out[f"{key}_slowdown"] = step / best - 1.0
    out["gap"] = out["moe_slowdown"] - out["dense_slowdown"]
    return out


def gap_to_json(gap: dict) -> dict:
    """:func:`fabric_gap` as plain lists (NaN as ``None``)."""
    def plain(x):
        arr = np.asarray(x, dtype=float)
        return [None if not np.isfinite(v) else float(v) for v in arr.reshape(-1)] if arr.ndim <= 1 else \
            [plain(row) for row in arr]
    out = {"fabrics": list(gap["fabrics"]), "labels": list(gap["labels"]), "field": gap["field"],
           "x": None if gap["x"] is None else plain(gap["x"])}
    for key in ("moe_step_s", "dense_step_s", "moe_slowdown", "dense_slowdown", "gap"):
        out[key] = plain(gap[key])
    return out
