"""One fabric at a point, typed: what the table, the proposal and the command line read.

``result.at(fabric)`` (:meth:`model.results.SweepResult.at`) reads one fabric of an engine result into a frozen
:class:`FabricReport`: the same typed groups as the result (:mod:`model.results.groups`), one value per field. The
numbers are the engine's own (the same floats, not recomputed). Its JSON record
(:meth:`FabricReport.to_json`, the command line's ``evaluate --json``) names the engine's outputs as the engine
does; NaN is ``null`` where no parallel plan fits. :class:`FabricSummary` is a flat view of a report for the
window's tables.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from ..compute import RECOMPUTE_KINDS
from .groups import BREAKDOWN_KEYS, GROUPS, Breakdown, Money, Network, Plan, Reliability, Throughput, Workload, \
    group_fields, map_groups, tree_of


def describe_plan(plan) -> str:
    """One line for a plan: "TP 2 · PP 4 · DP 8 · micro-batch 1 · v 1 · ZeRO 1 · recompute selective"; ``plan`` a
    :class:`~model.results.groups.Plan` of scalars, or a mapping of the same names (None or NaN: unknown)."""
    get = plan.get if isinstance(plan, Mapping) else functools.partial(getattr, plan)

    def val(k):
        v = get(k, None)
        return None if v is None or (isinstance(v, float) and math.isnan(v)) else v

    def fmt(x):
        return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else str(int(x))
    text = (f"TP {fmt(val('tp'))} · PP {fmt(val('pp'))} · DP {fmt(val('dp'))} · "
            f"micro-batch {fmt(val('micro_batch'))} · v {fmt(val('virtual_stages'))}")
    if val("cp") is not None and val("cp") > 1:
        text += f" · CP {fmt(val('cp'))}"
    if val("ep") is not None and val("ep") > 1:
        text += f" · EP {fmt(val('ep'))}"
        if get("expert_tp", None) is not None and get("expert_tp", None) != get("tp", None):  # MoE parallel folding
            text += f" · expert TP {fmt(get('expert_tp', None))}"
    if val("zero_stage") is not None:
        text += f" · ZeRO {fmt(val('zero_stage'))}"
    if val("recompute") is not None:
        rc = val("recompute")
        text += f" · recompute {rc if isinstance(rc, str) else RECOMPUTE_KINDS[int(rc)]}"
    return text


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
        """One line as the engine writes a plan (:func:`describe_plan`): "TP 2 · PP 4 · DP 8 · ..."."""
        return describe_plan(self)


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


def _int_or_none(v):
    v = float(v)
    return None if math.isnan(v) else int(v)


def _row(v, i: int):
    """Fabric ``i``'s value of an engine array: a Python scalar at a point, its row (N,) along a sweep."""
    a = np.asarray(v)
    if a.ndim == 0:
        return a.item()
    a = a[i] if a.shape[0] > i else a
    return a.item() if a.ndim == 0 else a


# the JSON record's keys (schema version 1), in order: each an engine output (its path's first part) or one of
# the report's own fields
JSON_KEYS = ("label", "transport", "feasible", "plan", "global_batch_used", "global_batch_kept", "step_time_s",
             "model_tflops_per_gpu", "hardware_tflops_per_gpu", "mfu", "hfu", "tokens_per_s", "train_days",
             "breakdown_s", "memory_per_gpu_gb", "memory_margin_gb", "node_bandwidth_gbps", "loss_efficiency",
             "cpu_cores_busy", "inputs", "input_sources", "guesses", "network", "train_days_with_interruptions",
             "interruptions", "hours_lost", "capex", "opex_per_year", "tco", "cost_per_run", "cost_per_token",
             "currency", "switches", "links", "optics", "goodput", "interruptions_per_day",
             "network_interruptions_per_day", "mtbf_h", "checkpoint_write_min", "checkpoint_interval_min", "nics",
             "fat_tree", "capex_parts", "network_components", "opex_parts", "power_kw", "energy_kwh_per_year",
             "energy_cost_per_run", "runs_per_year")


@dataclass(frozen=True)
class FabricReport:
    """Everything the engine says about one fabric at a point: the result's typed groups
    (:mod:`model.results.groups`, units there), each field one value, with the fabric's resolved inputs. Money is
    in ``money.currency``; NaN where no plan fits.

    Attributes:
        fabric: the fabric's key (``infiniband``, or a user fabric's name).
        label: its display name.
        transport: ``tcp``, ``roce``, ``iwarp`` or ``infiniband``.
        inputs: the fabric's resolved inputs (link_gbps, latency_us, loss_rate, ...; units in the names).
        input_sources: where each input comes from (a publication, or "guess").
        guesses: the inputs that have no published source.
        scenario: the scenario evaluated (the plan's record names its architecture and precision).
        throughput: step time [s], MFU and HFU [0-1], tokens/s, days without interruptions.
        breakdown: the step's parts (compute, each communication, bubble, ...) [s].
        plan: the parallel plan, whether it fits, its memory per GPU [GB].
        network: a node's bandwidths [Gb/s], round trip [µs], congestion [×], fat-tree counts.
        reliability: interruptions, checkpoints [min], days with interruptions, goodput [0-1].
        money: capex, opex, TCO, cost per run [currency], power [kW], energy [kWh/year].
        workload: parameters and the architecture the engine resolved.
    """
    fabric: str
    label: str
    transport: str
    inputs: Mapping[str, object]
    input_sources: Mapping[str, str]
    guesses: tuple[str, ...]
    scenario: Any
    throughput: Throughput
    breakdown: Breakdown
    plan: Plan
    network: Network
    reliability: Reliability
    money: Money
    workload: Workload

    @classmethod
    def of(cls, result, i: int, groups: dict | None = None) -> "FabricReport":
        """Fabric ``i`` of an engine result (:class:`~model.results.SweepResult`); ``groups``: its groups, if already
        read (:func:`fabric_reports` reads every fabric's at once)."""
        row = result.fabric_rows[i]
        return cls(fabric=result.fabrics[i], label=result.labels[i], transport=row.transport,
                   inputs=MappingProxyType(dict(row.values)), input_sources=MappingProxyType(dict(row.sources)),
                   guesses=tuple(row.guesses), scenario=result.scenario,
                   **(map_groups(result, lambda v: _row(v, i)) if groups is None else groups))

    @property
    def feasible(self) -> bool:
        """A parallel plan fits in memory (else the plan's figures are NaN)."""
        return bool(self.plan.feasible)

    @property
    def currency(self) -> str:
        """ISO code of the money figures."""
        return str(self.money.currency)

    def parallel_plan(self) -> ParallelPlan | None:
        """The plan as whole numbers, or None where none fits."""
        if not self.feasible:
            return None
        p = self.plan
        return ParallelPlan(**{k: int(getattr(p, k)) for k in
                               ("tp", "pp", "dp", "micro_batch", "virtual_stages", "microbatches", "gpus_used",
                                "gpus_idle", "cp", "ep", "zero_stage")},
                            recompute=RECOMPUTE_KINDS[int(p.recompute)],
                            expert_tp=int(p.expert_tp) if p.expert_tp is not None else None)

    def plan_record(self) -> dict:
        """The chosen plan as the JSON record writes it: degrees, micro-batching, the ZeRO stage and recompute kind
        the search picked, and the architecture and precision it ran (grouped-query key/value heads, SwiGLU
        width, experts and top-k); None where no plan fits."""
        plan = tree_of(self)["plan"]
        out = {k: (None if math.isnan(float(v)) else (bool(v) if k == "distributed_optimizer" else int(v)))
               for k, v in plan.items()}
        if out.get("recompute") is not None:
            out["recompute"] = RECOMPUTE_KINDS[out["recompute"]]
        w = self.scenario.workload
        out["kv_heads"] = _int_or_none(self.workload.kv_heads)
        out["ffn_hidden"] = w.ffn_hidden
        out["precision"] = w.precision
        out["experts"] = w.experts or 1
        out["top_k"] = w.top_k or (2 if out["experts"] > 1 else 1)
        return out

    def to_json(self) -> dict:
        """The command line's JSON record (``fabric-whatif evaluate --json``, schema version 1): the keys of
        :data:`JSON_KEYS` in that order, the engine's outputs under the engine's names; NaN as None."""
        tree = tree_of(self)
        own = dict(label=self.label, transport=self.transport, feasible=self.feasible, plan=self.plan_record(),
                   global_batch_used=_int_or_none(self.plan.global_batch_used),
                   global_batch_kept=bool(self.plan.global_batch_kept), inputs=dict(self.inputs),
                   input_sources=dict(self.input_sources), guesses=self.guesses, currency=self.currency)
        return json_ready({k: own[k] if k in own else tree[k] for k in JSON_KEYS})


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
def fabric_reports(point) -> tuple[FabricReport, ...]:
    """One :class:`FabricReport` per fabric of an :func:`model.evaluate` result (not a sweep); the last result's
    are kept (:func:`keep_last`)."""
    if point.field is not None:
        raise ValueError(f"a point result from evaluate(), not a sweep along {point.field}")
    n = len(point.fabrics)

    def each(v):  # an output's value for every fabric, as _row gives it: one conversion per array
        a = np.asarray(v)
        if a.ndim == 1 and a.shape[0] == n and a.dtype.kind in "biuf":
            return a.tolist()
        return [_row(v, i) for i in range(n)]
    columns = group_fields(point, each)
    return tuple(FabricReport.of(point, i, {g: GROUPS[g](**{f: None if x is None else x[i] for f, x in fields.items()})
                                            for g, fields in columns.items()}) for i in range(n))


def _view(path: str, doc: str) -> property:
    """A read-only property of :class:`FabricSummary` reading ``summary.report.<path>`` (``"money.tco"``)."""
    return property(operator.attrgetter("report." + path), doc=doc)


@dataclass(frozen=True)
class FabricSummary:
    """A flat view of one :class:`FabricReport` for the window's tables: the figures a table shows, by name.

    Attributes:
        report: the fabric's report, everything the engine says about it.
    """
    report: FabricReport

    fabric = _view("fabric", "the fabric's key")
    label = _view("label", "its display name")
    feasible = _view("feasible", "a parallel plan fits in memory")
    step_time_s = _view("throughput.step_time_s", "one training step [s]")
    mfu = _view("throughput.mfu", "model FLOPs utilisation [fraction, 0-1]")
    tokens_per_s = _view("throughput.tokens_per_s", "throughput [tokens/s]")
    train_days = _view("throughput.train_days", "days without interruptions")
    train_days_with_interruptions = _view("reliability.train_days_with_interruptions",
                                          "days with failures, restarts and checkpoints")
    goodput = _view("reliability.goodput", "useful share of wall time [0-1]")
    interruptions = _view("reliability.interruptions", "during the run [count]")
    memory_per_gpu_gb = _view("plan.memory_per_gpu_gb", "memory per GPU [GB]")
    memory_margin_gb = _view("plan.memory_margin_gb", "usable memory left [GB]")
    effective_node_gbps = _view("network.effective_gbps", "a node's bandwidth after efficiency, loss and the CPU cap "
                                                          "[Gb/s]")
    capex = _view("money.capex", "servers and network bought [currency]")
    capex_servers = _view("money.capex_servers", "the servers' capex [currency]")
    capex_network = _view("money.capex_network", "the network's capex [currency]")
    opex_per_year = _view("money.opex_per_year", "[currency/year]")
    tco = _view("money.tco", "total cost of ownership [currency]")
    cost_per_run = _view("money.cost_per_run", "the run's cost [currency]")
    currency = _view("currency", "ISO code of the money figures")

    @property
    def step_breakdown_s(self) -> Mapping[str, float]:
        """The step's parts by :data:`model.BREAKDOWN_KEYS` [s] (read-only)."""
        return MappingProxyType({k: getattr(self.report.breakdown, k) for k in BREAKDOWN_KEYS})

    @functools.cached_property
    def plan(self) -> ParallelPlan | None:
        """The parallel plan, or None where none fits."""
        return self.report.parallel_plan()

    def to_json(self) -> dict:
        """A JSON-ready dict of the table's figures (NaN as None)."""
        out = {k: getattr(self, k) for k in SUMMARY_JSON_KEYS}
        out["plan"] = dataclasses.asdict(self.plan) if self.plan is not None else None
        return json_ready(out)


# the summary's JSON record, in order
SUMMARY_JSON_KEYS = ("fabric", "label", "feasible", "step_time_s", "mfu", "tokens_per_s", "train_days",
                     "train_days_with_interruptions", "goodput", "memory_per_gpu_gb", "memory_margin_gb",
                     "effective_node_gbps", "capex", "capex_servers", "capex_network", "opex_per_year", "tco",
                     "cost_per_run", "interruptions", "currency", "step_breakdown_s")


@keep_last
def fabric_summaries(point) -> tuple[FabricSummary, ...]:
    """One :class:`FabricSummary` per fabric of an :func:`model.evaluate` result (not a sweep); the last
    result's are kept (:func:`keep_last`: the window's table and cost view read the same point)."""
    return tuple(FabricSummary(r) for r in fabric_reports(point))


__all__ = ["FabricReport", "FabricSummary", "JSON_KEYS", "ParallelPlan", "describe_plan", "fabric_reports",
           "fabric_summaries", "json_ready", "keep_last"]
