"""Typed per-fabric results: what the table, the proposal and the command line read at a point.

:func:`fabric_summaries` reads an :func:`model.evaluate` result into one frozen
:class:`FabricSummary` per fabric. The numbers are the engine's own (the same floats, not
recomputed); only their names, types and units are fixed here, so a consumer reads
``summary.train_days`` instead of probing ``result.data["train_days"][i]``. JSON comes from
the dataclass (:meth:`FabricSummary.to_json`), NaN as ``null`` where no parallel plan fits.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .engine import BREAKDOWN_KEYS, Result


@dataclass(frozen=True)
class ParallelPlan:
    """The parallel plan the engine chose for one fabric (Megatron-LM's degrees; Narayanan et al., SC 2021).

    Attributes:
        tp: tensor-parallel degree [GPUs].
        pp: pipeline-parallel degree [stages].
        dp: data-parallel degree [replicas].
        micro_batch: sequences per micro-batch.
        virtual_stages: interleaved virtual pipeline stages per GPU (1: not interleaved).
        microbatches: micro-batches per step per replica.
        gpus_used: GPUs the plan occupies (tp × pp × dp) [GPUs].
    """
    tp: int
    pp: int
    dp: int
    micro_batch: int
    virtual_stages: int
    microbatches: int
    gpus_used: int


@dataclass(frozen=True)
class FabricSummary:
    """One fabric at the scenario's point. Money is in :attr:`currency`; NaN where no plan fits.

    Attributes:
        fabric: the fabric's key (``infiniband``, or a user fabric's name).
        label: its display name.
        feasible: a parallel plan fits in memory (else every figure below is NaN, ``plan`` None).
        step_time_s: one training step [s].
        mfu: model FLOPs utilisation [fraction, 0-1] (PaLM's definition; Chowdhery et al., 2022).
        tokens_per_s: training throughput of the whole cluster [tokens/s].
        train_days: the run's duration without interruptions [days].
        train_days_with_interruptions: with failures, restarts and checkpoints [days].
        goodput: useful share of the run's wall-clock time [fraction, 0-1].
        memory_per_gpu_gb: device memory the plan needs per GPU [GB].
        effective_node_gbps: network bandwidth a node achieves after efficiency and loss [Gb/s].
        capex: servers and network bought [currency].
        opex_per_year: energy and operations per year [currency/year].
        tco: total cost of ownership over the scenario's years [currency].
        cost_per_run: the training run's share of cost [currency].
        currency: ISO code of the money figures (``CNY``, ``USD``).
        step_breakdown_s: the step's parts (compute, each communication, bubble, ...) [s].
        plan: the parallel plan, or None where none fits.
    """
    fabric: str
    label: str
    feasible: bool
    step_time_s: float
    mfu: float
    tokens_per_s: float
    train_days: float
    train_days_with_interruptions: float
    goodput: float
    memory_per_gpu_gb: float
    effective_node_gbps: float
    capex: float
    opex_per_year: float
    tco: float
    cost_per_run: float
    currency: str
    step_breakdown_s: Mapping[str, float]
    plan: ParallelPlan | None

    def to_json(self) -> dict:
        """A JSON-ready dict (field names as keys, NaN as None)."""
        def clean(v):
            if isinstance(v, float) and not math.isfinite(v):
                return None
            if isinstance(v, Mapping):
                return {k: clean(x) for k, x in v.items()}
            return v

        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["plan"] = dataclasses.asdict(self.plan) if self.plan is not None else None
        return {k: clean(v) for k, v in out.items()}


def _float(arr, i: int) -> float:
    a = np.asarray(arr)
    return float(a.reshape(-1)[i] if a.ndim else a)


def fabric_summaries(point: Result) -> tuple[FabricSummary, ...]:
    """One :class:`FabricSummary` per fabric of an :func:`model.evaluate` result (not a sweep)."""
    if point.field is not None:
        raise ValueError(f"a point result from evaluate(), not a sweep along {point.field}")
    d = point.data
    out = []
    for i, (name, label) in enumerate(zip(point.fabrics, point.labels)):
        ok = bool(np.asarray(d["feasible"]).reshape(-1)[i])
        plan = None
        if ok:
            p = d["plan"]
            plan = ParallelPlan(**{k: int(_float(p[k], i)) for k in
                                   ("tp", "pp", "dp", "micro_batch", "virtual_stages", "microbatches", "gpus_used")})
        cur = np.asarray(d["currency"]).reshape(-1)
        out.append(FabricSummary(
            fabric=name, label=label, feasible=ok,
            step_time_s=_float(d["step_time_s"], i), mfu=_float(d["mfu"], i),
            tokens_per_s=_float(d["tokens_per_s"], i), train_days=_float(d["train_days"], i),
            train_days_with_interruptions=_float(d["train_days_with_interruptions"], i),
            goodput=_float(d["goodput"], i), memory_per_gpu_gb=_float(d["memory_per_gpu_gb"], i),
            effective_node_gbps=_float(d["node_bandwidth_gbps"]["effective"], i),
            capex=_float(d["capex"], i), opex_per_year=_float(d["opex_per_year"], i), tco=_float(d["tco"], i),
            cost_per_run=_float(d["cost_per_run"], i), currency=str(cur[min(i, cur.size - 1)]),
            step_breakdown_s=MappingProxyType({k: _float(d["breakdown_s"][k], i) for k in BREAKDOWN_KEYS}),
            plan=plan))
    return tuple(out)


__all__ = ["FabricSummary", "ParallelPlan", "fabric_summaries"]
