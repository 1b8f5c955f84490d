"""The engine's outputs as typed groups, each a frozen dataclass of arrays with their units.

Every array field holds one value per fabric: shape (F,) from :func:`model.evaluate` (a scalar when the scenario
has one fabric), (F, N) from :func:`model.sweep` along N points, (F, N, S) in the Monte-Carlo bands' samples
(:mod:`model.analysis`); in a :class:`~model.results.FabricReport` (one fabric at a point) each is a float. A field
is None in the lean outputs (the bands' samples) where the engine does not compute it. Where no parallel plan fits,
a figure that depends on the plan is NaN.

:data:`ENGINE_PATHS` names, for every field, its place in the engine's own nested outputs (``/breakdown_s/compute``):
the command line's JSON records and the golden-output fingerprints are written under those names.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

Array = Any  # an ndarray (F,), (F, N) or (F, N, S); a float in a FabricReport


@dataclass(frozen=True)
class Throughput:
    """How fast the cluster trains (Narayanan et al., SC 2021; PaLM's MFU, Chowdhery et al. 2022)."""
    step_time_s: Array = None  # one training step [s]
    mfu: Array = None  # model FLOPs utilisation [fraction, 0-1]
    tokens_per_s: Array = None  # training throughput of the whole cluster [tokens/s]
    train_days: Array = None  # the run's duration without interruptions [days]
    model_tflops_per_gpu: Array = None  # model FLOPs per GPU per second [TFLOP/s]
    hardware_tflops_per_gpu: Array = None  # FLOPs the GPUs execute, recomputation included [TFLOP/s]
    hfu: Array = None  # hardware FLOPs utilisation [fraction, 0-1]
    model_flops_per_iter: Array = None  # model FLOPs of one step, the whole cluster [FLOP]
    hardware_flops_per_iter: Array = None  # FLOPs executed in one step, recomputation included [FLOP]


@dataclass(frozen=True)
class Breakdown:
    """One step's time by mechanism [s]; the parts add up to :attr:`Throughput.step_time_s`. The lean outputs
    carry only ``compute`` and ``optimizer``."""
    compute: Array = None  # forward, backward and recomputation of every micro-batch, logits included [s]
    tp_comm: Array = None  # tensor-parallel collectives inside the layers [s]
    cp_comm: Array = None  # what the context-parallel ring leaves exposed [s]
    ep_comm: Array = None  # the experts' all-to-all, over NVLink and the fabric [s]
    pp_comm: Array = None  # pipeline point-to-point sends [s]
    dp_comm: Array = None  # the data-parallel gradient reduction left exposed after overlap [s]
    bubble: Array = None  # the 1F1B pipeline bubble [s]
    loss_recovery: Array = None  # what packet loss adds (the step at the lossy over the ideal bandwidth) [s]
    cpu: Array = None  # what the host-CPU cap on the transport adds [s]
    optimizer: Array = None  # the optimizer step [s]


BREAKDOWN_KEYS = tuple(f.name for f in dataclasses.fields(Breakdown))
BREAKDOWN_LABELS = {
    "compute": "Compute", "tp_comm": "Tensor-parallel comm", "cp_comm": "Context-parallel ring (exposed)",
    "ep_comm": "Expert all-to-all", "pp_comm": "Pipeline comm",
    "dp_comm": "Data-parallel comm (exposed)", "bubble": "Pipeline bubble", "loss_recovery": "Loss recovery",
    "cpu": "Host CPU limit", "optimizer": "Optimizer step",
}


@dataclass(frozen=True)
class Plan:
    """The parallel plan the engine chose (Megatron-LM's degrees; NaN where no plan fits) and its memory."""
    feasible: Array = None  # a plan is possible and fits in memory [bool]
    tp: Array = None  # tensor-parallel degree [GPUs]
    pp: Array = None  # pipeline-parallel degree [stages]
    dp: Array = None  # data-parallel degree [replicas]
    micro_batch: Array = None  # sequences per micro-batch
    virtual_stages: Array = None  # interleaved virtual pipeline stages per GPU (1: not interleaved)
    gpus_used: Array = None  # GPUs the plan occupies, tp × pp × cp × dp [GPUs]
    gpus_idle: Array = None  # the cluster's GPUs the plan leaves idle [GPUs]
    microbatches: Array = None  # micro-batches per step per replica
    global_batch: Array = None  # sequences per step [sequences]
    recompute: Array = None  # activation recomputation, an index of model.compute.RECOMPUTE_KINDS
    zero_stage: Array = None  # the ZeRO stage of the optimizer state's sharding (0-3)
    cp: Array = None  # context-parallel degree [GPUs] (1: none)
    ep: Array = None  # expert-parallel degree [GPUs] (1: none)
    expert_tp: Array = None  # the experts' tensor-parallel degree [GPUs] (MoE parallel folding)
    distributed_optimizer: Array = None  # the optimizer state is sharded over the data-parallel ranks [bool]
    global_batch_used: Array = None  # sequences per step the plan runs [sequences]
    global_batch_kept: Array = None  # some plan runs the scenario's global batch as given [bool]
    degrees_exist: Array = None  # some plan's degrees are possible [bool]
    memory_per_gpu_gb: Array = None  # device memory the plan needs per GPU [GB]
    memory_margin_gb: Array = None  # usable device memory per GPU the plan leaves free [GB]


@dataclass(frozen=True)
class Network:
    """The fabric as the step sees it (bandwidth, round trip, congestion) and as it is built (fat-tree counts)."""
    line_gbps: Array = None  # a node's line rate, NICs × link rate [Gb/s]
    ideal_gbps: Array = None  # a node's bandwidth after the transport's efficiency [Gb/s]
    with_loss_gbps: Array = None  # ... and after packet loss [Gb/s]
    effective_gbps: Array = None  # ... and under the host-CPU cap: what the step uses [Gb/s]
    loss_efficiency: Array = None  # share of the bandwidth left after packet loss [fraction, 0-1]
    loaded_rtt_us: Array = None  # round trip under load [µs]
    switch_levels: Array = None  # switch levels a message crosses [levels]
    dp_congestion_slowdown: Array = None  # data-parallel traffic's slowdown by congestion [×]
    pp_congestion_slowdown: Array = None  # pipeline traffic's slowdown by congestion [×]
    ep_congestion_slowdown: Array = None  # expert all-to-all's slowdown by congestion [×]
    cpu_cores_busy: Array = None  # host CPU cores the transport keeps busy per node [cores]
    nics: Array = None  # network interface cards [count]
    switches: Array = None  # network switches [count]
    links: Array = None  # cables, NIC links included [count]
    optics: Array = None  # optical transceivers [count]
    fat_tree_levels: Array = None  # the fat tree's levels (1-3)
    fat_tree_leaf: Array = None  # leaf switches [count]
    fat_tree_spine: Array = None  # spine switches [count]
    fat_tree_core: Array = None  # core switches [count]


@dataclass(frozen=True)
class Reliability:
    """Interruptions, checkpoints and the run's wall time with them (Daly 2006; model.reliability)."""
    mtbf_h: Array = None  # mean time between job interruptions [h]
    interruptions_per_day: Array = None  # job interruptions per day, every cause [1/day]
    network_interruptions_per_day: Array = None  # of which the network's [1/day]
    checkpoint_write_min: Array = None  # one checkpoint's write [min]
    checkpoint_interval_min: Array = None  # the checkpoint interval (Daly's optimum unless fixed) [min]
    interruptions: Array = None  # job interruptions expected during the run [count]
    goodput: Array = None  # useful share of the run's wall-clock time [fraction, 0-1]
    hours_lost: Array = None  # hours the interruptions cost [h]
    train_days_with_interruptions: Array = None  # the run's duration with failures, restarts, checkpoints [days]


@dataclass(frozen=True)
class Money:
    """Capex, opex, TCO and the run's cost in :attr:`currency`, with the power and energy the opex comes from."""
    capex: Array = None  # servers and network bought, after the price book's discount [currency]
    opex_per_year: Array = None  # energy, operations and support per year [currency/year]
    tco: Array = None  # total cost of ownership over the scenario's years [currency]
    cost_per_run: Array = None  # the training run's cost [currency]
    energy_cost_per_run: Array = None  # the run's energy bill [currency]
    cost_per_token: Array = None  # cost per run per training token [currency/token]
    capex_servers: Array = None  # the GPU servers at list price [currency]
    capex_network: Array = None  # the network at list price (NICs, switches, links) [currency]
    nics_cost: Array = None  # the NICs priced from parts [currency]
    switches_cost: Array = None  # the switches priced from parts [currency]
    links_cost: Array = None  # the links (cables, optics) priced from parts [currency]
    opex_energy: Array = None  # energy per year [currency/year]
    opex_operations: Array = None  # operations per year [currency/year]
    opex_support: Array = None  # support per year (the price book's share of capex) [currency/year]
    power_kw: Array = None  # IT power while training [kW]
    energy_kwh_per_year: Array = None  # energy per year at the duty cycle, PUE included [kWh/year]
    runs_per_year: Array = None  # runs the cluster completes per year at the duty cycle [runs/year]
    currency: Array = None  # ISO code of the money figures (``CNY``, ``USD``) [text]


@dataclass(frozen=True)
class Workload:
    """The model the scenario trains, as the engine resolved it."""
    params: Array = None  # parameters [count]
    layers: Array = None  # transformer layers [count]
    hidden: Array = None  # hidden width [count]
    heads: Array = None  # attention heads [count]
    kv_heads: Array = None  # key/value heads (grouped-query attention) [count]


GROUPS = {"throughput": Throughput, "breakdown": Breakdown, "plan": Plan, "network": Network,
          "reliability": Reliability, "money": Money, "workload": Workload}
# each group's field names, read once (``dataclasses.fields`` costs a few microseconds a call)
_GROUP_FIELDS = tuple((g, cls, tuple(f.name for f in dataclasses.fields(cls))) for g, cls in GROUPS.items())


def _paths():
    """Every field's path in the engine's nested outputs, in the engine's order (its full outputs')."""
    t, b, p, n, r, m, w = GROUPS
    out = [(("step_time_s",), t, "step_time_s"), (("mfu",), t, "mfu"), (("tokens_per_s",), t, "tokens_per_s"),
           (("train_days",), t, "train_days"), (("params",), w, "params"), (("feasible",), p, "feasible"),
           (("model_tflops_per_gpu",), t, "model_tflops_per_gpu"),
           (("hardware_tflops_per_gpu",), t, "hardware_tflops_per_gpu"), (("hfu",), t, "hfu")]
    out += [(("breakdown_s", k), b, k) for k in BREAKDOWN_KEYS]
    out += [(("plan", k), p, k) for k in ("tp", "pp", "dp", "micro_batch", "virtual_stages", "gpus_used",
                                          "gpus_idle", "microbatches", "global_batch", "recompute", "zero_stage",
                                          "cp", "ep", "expert_tp", "distributed_optimizer")]
    out += [((k,), p, k) for k in ("global_batch_used", "global_batch_kept", "memory_per_gpu_gb",
                                   "memory_margin_gb", "degrees_exist")]
    out += [(("node_bandwidth_gbps", k), n, f"{k}_gbps") for k in ("line", "ideal", "with_loss", "effective")]
    out += [(("loss_efficiency",), n, "loss_efficiency")]
    out += [(("network", k), n, k) for k in ("loaded_rtt_us", "switch_levels", "dp_congestion_slowdown",
                                             "pp_congestion_slowdown", "ep_congestion_slowdown")]
    out += [(("cpu_cores_busy",), n, "cpu_cores_busy")]
    out += [(("architecture", k), w, k) for k in ("layers", "hidden", "heads", "kv_heads")]
    out += [(("model_flops_per_iter",), t, "model_flops_per_iter"),
            (("hardware_flops_per_iter",), t, "hardware_flops_per_iter")]
    out += [((k,), r, k) for k in ("mtbf_h", "interruptions_per_day", "network_interruptions_per_day",
                                   "checkpoint_write_min", "checkpoint_interval_min", "interruptions", "goodput",
                                   "hours_lost", "train_days_with_interruptions")]
    out += [((k,), n, k) for k in ("nics", "switches", "links", "optics")]
    out += [(("fat_tree", k), n, f"fat_tree_{k}") for k in ("levels", "leaf", "spine", "core")]
    out += [((k,), m, k) for k in ("capex", "opex_per_year", "tco", "cost_per_run", "energy_cost_per_run",
                                   "cost_per_token")]
    out += [(("capex_parts", k), m, f"capex_{k}") for k in ("servers", "network")]
    out += [(("network_components", k), m, f"{k}_cost") for k in ("nics", "switches", "links")]
    out += [(("opex_parts", k), m, f"opex_{k}") for k in ("energy", "operations", "support")]
    out += [((k,), m, k) for k in ("power_kw", "energy_kwh_per_year", "runs_per_year", "currency")]
    return tuple(out)


ENGINE_PATHS = _paths()  # (path in the engine's outputs, group, field), in the engine's order


# the outputs a user or a chart may name (``--metric tco``, a band's metric): an engine output that is one array
METRICS = {path[0]: (g, f) for path, g, f in ENGINE_PATHS if len(path) == 1}


def _check_paths():
    """Every field of every group has exactly one engine path (a field added to a group needs one)."""
    named = {(g, f) for _, g, f in ENGINE_PATHS}
    fields = {(g, f.name) for g, cls in GROUPS.items() for f in dataclasses.fields(cls)}
    assert named == fields and len(named) == len(ENGINE_PATHS), sorted(named ^ fields)


_check_paths()


def groups_from_tree(tree: dict) -> dict:
    """The typed groups of the engine's nested outputs ``tree`` (its arrays as they are, not copied); a path the
    tree lacks (the lean outputs) reads None."""
    values = {g: {} for g in GROUPS}
    for path, g, f in ENGINE_PATHS:
        node = tree
        for k in path:
            node = node.get(k) if isinstance(node, dict) else None
            if node is None:
                break
        if node is not None:
            values[g][f] = node
    return {g: cls(**values[g]) for g, cls in GROUPS.items()}


def tree_of(holder) -> dict:
    """The engine's nested outputs from an object holding the groups as attributes (a result or a report), in the
    engine's order; fields that are None are left out."""
    out: dict = {}
    for path, g, f in ENGINE_PATHS:
        v = getattr(getattr(holder, g), f)
        if v is None:
            continue
        node = out
        for k in path[:-1]:
            node = node.setdefault(k, {})
        node[path[-1]] = v
    return out


def map_groups(holder, fn) -> dict:
    """Every group of ``holder`` with ``fn`` applied to each field that is not None: ``{group name: group}``."""
    return {g: GROUPS[g](**fields) for g, fields in group_fields(holder, fn).items()}


def group_fields(holder, fn) -> dict:
    """:func:`map_groups`' values before they become groups: ``{group name: {field: fn(value) or None}}``."""
    out = {}
    for g, cls, names in _GROUP_FIELDS:
        group = getattr(holder, g)
        out[g] = {f: (None if (v := getattr(group, f)) is None else fn(v)) for f in names}
    return out


def leaves(holder):
    """Every array of ``holder``'s groups under its engine path (``"/breakdown_s/compute"``), as an ndarray, in the
    engine's order (the golden outputs' fingerprints)."""
    for path, g, f in ENGINE_PATHS:
        v = getattr(getattr(holder, g), f)
        if v is not None:
            yield "/" + "/".join(path), np.asarray(v)
