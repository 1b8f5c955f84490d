"""The engine's results, typed: :class:`SweepResult` (what :func:`model.evaluate` and :func:`model.sweep` return),
made of frozen groups of arrays with their units (:mod:`model.results.groups`: throughput, breakdown, plan,
network, reliability, money, workload), and :class:`FabricReport`, one fabric at a point
(``result.at(fabric)``), with its JSON record and a flat :class:`FabricSummary` view for tables.

A reader writes ``result.reliability.train_days_with_interruptions`` or ``report.money.tco``, never a string key;
the engine's own names (``/breakdown_s/compute``) remain only in the JSON record and the golden outputs
(:data:`ENGINE_PATHS`).
"""

from .groups import BREAKDOWN_KEYS, BREAKDOWN_LABELS, ENGINE_PATHS, GROUPS, METRICS, Breakdown, Money, Network, Plan, \
    Reliability, Throughput, Workload
from .report import JSON_KEYS, FabricReport, FabricSummary, ParallelPlan, describe_plan, fabric_reports, \
    fabric_summaries, json_ready, keep_last
from .sweep import Outputs, SweepResult

__all__ = ["BREAKDOWN_KEYS", "BREAKDOWN_LABELS", "Breakdown", "ENGINE_PATHS", "FabricReport", "FabricSummary",
           "GROUPS", "JSON_KEYS", "METRICS", "Money", "Network", "Outputs", "ParallelPlan", "Plan", "Reliability", "SweepResult",
           "Throughput", "Workload", "describe_plan", "fabric_reports", "fabric_summaries", "json_ready", "keep_last"]
