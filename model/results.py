"""Typed per-fabric results: what the table, the proposal and the command line read at a point.

:func:`fabric_summaries` reads an :func:`model.evaluate` result into one frozen
:class:`FabricSummary` per fabric. The numbers are the engine's own (the same floats, not
recomputed); only their names, types and units are fixed here, so a consumer reads
``summary.train_days`` instead of probing ``result.data["train_days"][i]``. JSON comes from
the dataclass (:meth:`FabricSummary.to_json`), NaN as ``null`` where no parallel plan fits.
"""

from __future__ import annotations

import functools

import dataclasses
import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np

from .compute import RECOMPUTE_KINDS
from .engine import BREAKDOWN_KEYS, Result, describe_plan


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
        gpus_used: GPUs the plan occupies (tp × pp × dp × cp) [GPUs].
        gpus_idle: the cluster's GPUs the plan leaves idle [GPUs]: a global batch that does not split into whole
            micro-batches over more replicas, or fewer replicas because they keep the gradient reduction inside a
            node and are faster on this fabric.
        cp: context-parallel degree [GPUs] (1: none).
        ep: expert-parallel degree [GPUs] (1: none).
        zero_stage: the ZeRO stage the optimizer state is sharded with (Rajbhandari et al., SC 2020).
        recompute: activation recomputation: one of :data:`model.compute.RECOMPUTE_KINDS`.
        expert_tp: the experts' tensor-parallel degree [GPUs] (MoE parallel folding; None: the attention's tp).
    """
    tp: int
    pp: int
    dp: int
    micro_batch: int
    virtual_stages: int
    microbatches: int
    gpus_used: int
    gpus_idle: int = 0
    cp: int = 1
    ep: int = 1
    zero_stage: int = 0
    recompute: str = RECOMPUTE_KINDS[0]
    expert_tp: int | None = None

    def describe(self) -> str:
        """One line as the engine writes a plan (:func:`model.describe_plan`): "TP 2 · PP 4 · DP 8 · ..."."""
        return describe_plan(dict(dataclasses.asdict(self), recompute=RECOMPUTE_KINDS.index(self.recompute)))


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
        memory_margin_gb: usable device memory per GPU the plan leaves free [GB] (usable: the catalogue's memory
            less the runtime's reserve); a margin of a few GB means the plan's recompute choice sits near the
            memory limit, where the estimate's own error can flip it.
        effective_node_gbps: network bandwidth a node achieves after efficiency and loss [Gb/s].
        capex: servers and network bought [currency].
        capex_servers: the GPU servers' share of :attr:`capex` [currency].
        capex_network: the network's share of :attr:`capex` (NICs, switches, links) [currency].
        opex_per_year: energy and operations per year [currency/year].
        tco: total cost of ownership over the scenario's years [currency].
        cost_per_run: the training run's share of cost [currency].
        interruptions: job interruptions expected during the run [count].
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
    memory_margin_gb: float
    effective_node_gbps: float
    capex: float
    capex_servers: float
    capex_network: float
    opex_per_year: float
    tco: float
    cost_per_run: float
    interruptions: float
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


def keep_last(fn):
    """``fn(result)`` kept for the last result it was given (by identity): a window's views read the same
    result several times per update. A result is not changed once made, and the (result, answer) pair is
    replaced whole, so a thread never reads another result's answer."""
    last = [(None, None)]

    @functools.wraps(fn)
    def kept(result):
        held = last[0]
        if held[0] is result:
            return held[1]
        out = fn(result)
        last[0] = (result, out)
        return out

    return kept


@keep_last
def fabric_summaries(point: Result) -> tuple[FabricSummary, ...]:
    """One :class:`FabricSummary` per fabric of an :func:`model.evaluate` result (not a sweep); the last
    result's are kept (:func:`keep_last`: the window's table and cost view read the same point)."""
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
                                   ("tp", "pp", "dp", "micro_batch", "virtual_stages", "microbatches", "gpus_used",
                                    "gpus_idle", "cp", "ep", "zero_stage")},
                                recompute=RECOMPUTE_KINDS[int(_float(p["recompute"], i))],
                                expert_tp=int(_float(p["expert_tp"], i)) if "expert_tp" in p else None)
        cur = np.asarray(d["currency"]).reshape(-1)
        out.append(FabricSummary(
            fabric=name, label=label, feasible=ok,
            step_time_s=_float(d["step_time_s"], i), mfu=_float(d["mfu"], i),
            tokens_per_s=_float(d["tokens_per_s"], i), train_days=_float(d["train_days"], i),
            train_days_with_interruptions=_float(d["train_days_with_interruptions"], i),
            goodput=_float(d["goodput"], i), memory_per_gpu_gb=_float(d["memory_per_gpu_gb"], i),
            memory_margin_gb=_float(d["memory_margin_gb"], i),
            effective_node_gbps=_float(d["node_bandwidth_gbps"]["effective"], i),
            capex=_float(d["capex"], i), capex_servers=_float(d["capex_parts"]["servers"], i),
            capex_network=_float(d["capex_parts"]["network"], i),
            opex_per_year=_float(d["opex_per_year"], i), tco=_float(d["tco"], i),
            cost_per_run=_float(d["cost_per_run"], i), interruptions=_float(d["interruptions"], i),
            currency=str(cur[min(i, cur.size - 1)]),
            step_breakdown_s=MappingProxyType({k: _float(d["breakdown_s"][k], i) for k in BREAKDOWN_KEYS}),
            plan=plan))
    return tuple(out)


def json_ready(x):
    """``x`` with numpy scalars and arrays as plain Python, NaN and infinities as None (JSON's null)."""
    if isinstance(x, Mapping):
        return {k: json_ready(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_ready(v) for v in x]
    if isinstance(x, np.ndarray):
        return json_ready(x.tolist())
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return x if math.isfinite(x) else None
    if isinstance(x, np.str_):
        return str(x)
    return x


@dataclass(frozen=True)
class FabricReport:
    """Everything the engine says about one fabric at a point: the command line's JSON record
    (``fabric-whatif evaluate --json``, schema version 1), one field per key. Money is in
    :attr:`currency`; NaN (``null`` in JSON) where no plan fits.

    Attributes:
        label: the fabric's display name.
        transport: ``tcp``, ``roce``, ``iwarp`` or ``infiniband``.
        feasible: a parallel plan fits in memory.
        plan: the plan's degrees (tp, pp, dp, cp, ep), micro-batching, ZeRO stage and recompute kind, the GPUs
            it uses and those it leaves idle (gpus_used, gpus_idle [GPUs]), with the architecture and precision it
            ran (kv_heads, ffn_hidden, precision, experts, top_k); None values where no plan fits.
        global_batch_used: sequences per step the plan runs [sequences] (None where no plan fits).
        global_batch_kept: the plan runs the scenario's global batch unchanged.
        step_time_s: one training step [s].
        model_tflops_per_gpu: model FLOPs per GPU per second [TFLOP/s].
        hardware_tflops_per_gpu: FLOPs the hardware executes, recomputation included [TFLOP/s].
        mfu: model FLOPs utilisation [fraction, 0-1].
        hfu: hardware FLOPs utilisation [fraction, 0-1].
        tokens_per_s: training throughput of the cluster [tokens/s].
        train_days: the run's duration without interruptions [days].
        breakdown_s: the step's parts (compute, each communication, bubble, ...) [s].
        memory_per_gpu_gb: device memory the plan needs per GPU [GB].
        memory_margin_gb: usable device memory per GPU the plan leaves free [GB] (usable: the catalogue's memory
            less the runtime's reserve); a margin of a few GB means the plan's recompute choice sits near the
            memory limit, where the estimate's own error can flip it.
        node_bandwidth_gbps: a node's network bandwidth: line rate, ideal, with loss, effective [Gb/s].
        loss_efficiency: share of the bandwidth left after packet loss [fraction, 0-1].
        cpu_cores_busy: host CPU cores the transport keeps busy per node [cores].
        inputs: the fabric's resolved inputs (link_gbps, latency_us, loss_rate, ...; units in the names).
        input_sources: where each input comes from (a publication, or "guess").
        guesses: the inputs that have no published source.
        network: loaded round-trip time [µs], switch levels, data-parallel congestion slowdown [x].
        train_days_with_interruptions: with failures, restarts and checkpoints [days].
        interruptions: job interruptions expected during the run [count].
        hours_lost: hours the interruptions cost [h].
        capex: servers and network bought [currency].
        opex_per_year: energy and operations per year [currency/year].
        tco: total cost of ownership over the scenario's years [currency].
        cost_per_run: the training run's share of cost [currency].
        cost_per_token: :attr:`cost_per_run` per training token [currency/token].
        currency: ISO code of the money figures.
        switches: network switches [count].
        links: cables [count].
        optics: optical transceivers [count].
        goodput: useful share of the run's wall-clock time [fraction, 0-1].
        interruptions_per_day: job interruptions per day, every cause [1/day].
        network_interruptions_per_day: of which the network's [1/day].
        mtbf_h: mean time between job interruptions [h].
        checkpoint_write_min: one checkpoint's write [min].
        checkpoint_interval_min: the checkpoint interval that minimises lost time [min].
        nics: network interface cards [count].
        fat_tree: the fat tree's levels and switches per level (leaf, spine, core) [count].
        capex_parts: capex split into servers and network [currency].
        network_components: the network priced from its parts: NICs, switches, links [currency].
        opex_parts: opex per year split into energy and operations [currency/year].
        power_kw: IT power while training [kW].
        energy_kwh_per_year: energy per year at the duty cycle, PUE included [kWh/year].
        energy_cost_per_run: the run's energy bill [currency].
        runs_per_year: runs the cluster completes per year at the duty cycle [runs/year].
    """
    label: str
    transport: str
    feasible: bool
    plan: Mapping[str, object]
    global_batch_used: int | None
    global_batch_kept: bool
    step_time_s: float
    model_tflops_per_gpu: float
    hardware_tflops_per_gpu: float
    mfu: float
    hfu: float
    tokens_per_s: float
    train_days: float
    breakdown_s: Mapping[str, float]
    memory_per_gpu_gb: float
    memory_margin_gb: float
    node_bandwidth_gbps: Mapping[str, float]
    loss_efficiency: float
    cpu_cores_busy: float
    inputs: Mapping[str, object]
    input_sources: Mapping[str, str]
    guesses: tuple[str, ...]
    network: Mapping[str, float]
    train_days_with_interruptions: float
    interruptions: float
    hours_lost: float
    capex: float
    opex_per_year: float
    tco: float
    cost_per_run: float
    cost_per_token: float
    currency: str
    switches: float
    links: float
    optics: float
    goodput: float
    interruptions_per_day: float
    network_interruptions_per_day: float
    mtbf_h: float
    checkpoint_write_min: float
    checkpoint_interval_min: float
    nics: float
    fat_tree: Mapping[str, float]
    capex_parts: Mapping[str, float]
    network_components: Mapping[str, float]
    opex_parts: Mapping[str, float]
    power_kw: float
    energy_kwh_per_year: float
    energy_cost_per_run: float
    runs_per_year: float

    def to_json(self) -> dict:
        """The JSON record: field names as keys, in this order; NaN as None."""
        return json_ready({f.name: getattr(self, f.name) for f in dataclasses.fields(self)})


def _int_or_none(v):
    v = float(v)
    return None if math.isnan(v) else int(v)


def _plan_record(plan: Mapping, d: Mapping, s) -> dict:
    """The chosen plan: degrees, micro-batching, the ZeRO stage and recompute kind the search picked, and the
    architecture and precision it ran (grouped-query key/value heads, SwiGLU width, experts and top-k)."""
    out = {k: (None if math.isnan(float(v)) else (bool(v) if k == "distributed_optimizer" else int(v)))
           for k, v in plan.items()}
    if out.get("recompute") is not None:
        out["recompute"] = RECOMPUTE_KINDS[out["recompute"]]
    out["kv_heads"] = _int_or_none(d["architecture"]["kv_heads"])
    out["ffn_hidden"] = s.workload.ffn_hidden
    out["precision"] = s.workload.precision
    out["experts"] = s.workload.experts or 1
    out["top_k"] = s.workload.top_k or (2 if out["experts"] > 1 else 1)
    return out


def _value(v):
    """A per-fabric engine value as a Python scalar, or a frozen mapping of them."""
    if isinstance(v, Mapping):
        return MappingProxyType({k: _value(x) for k, x in v.items()})
    a = np.asarray(v)
    return a.item() if a.ndim == 0 else v


_DIRECT = tuple(f.name for f in dataclasses.fields(FabricReport)
                if f.name not in ("label", "transport", "feasible", "plan", "global_batch_used", "global_batch_kept",
                                  "inputs", "input_sources", "guesses", "currency"))


def fabric_reports(point: Result) -> tuple[FabricReport, ...]:
    """One :class:`FabricReport` per fabric of an :func:`model.evaluate` result (not a sweep)."""
    if point.field is not None:
        raise ValueError(f"a point result from evaluate(), not a sweep along {point.field}")
    out = []
    for i, name in enumerate(point.fabrics):
        d = point.at(name)
        row = point.fabric_rows[i]
        out.append(FabricReport(
            label=point.labels[i], transport=row.transport, feasible=bool(d["feasible"]),
            plan=MappingProxyType(_plan_record(d["plan"], d, point.scenario)),
            global_batch_used=_int_or_none(d["global_batch_used"]), global_batch_kept=bool(d["global_batch_kept"]),
            inputs=MappingProxyType(dict(row.values)), input_sources=MappingProxyType(dict(row.sources)),
            guesses=tuple(row.guesses), currency=str(d["currency"]),
            **{k: _value(d[k]) for k in _DIRECT}))
    return tuple(out)


__all__ = ["FabricReport", "FabricSummary", "ParallelPlan", "fabric_reports", "fabric_summaries", "json_ready"]
