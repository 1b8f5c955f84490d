"""The engine's result: its typed output groups, with the scenario, the fabrics and the sweep's axis.

:class:`Outputs` holds the seven groups of :mod:`model.results.groups` (throughput, breakdown, plan, network,
reliability, money, workload); :class:`SweepResult` adds what they were computed for. ``result.at(fabric)``
reads one fabric as a :class:`~model.results.report.FabricReport` (the same groups, one value per field).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..scenario import Scenario
from .groups import METRICS, Breakdown, Money, Network, Plan, Reliability, Throughput, Workload, groups_from_tree, leaves
from .report import FabricReport


@dataclass(frozen=True)
class Outputs:
    """The engine's outputs, grouped by concept; each array (F,) from :func:`model.evaluate`, (F, N) from
    :func:`model.sweep`, (F, N, S) for Monte-Carlo samples (units: :mod:`model.results.groups`)."""
    throughput: Throughput  # step time, utilisation, tokens per second, days
    breakdown: Breakdown  # the step's time by mechanism [s]
    plan: Plan  # the parallel plan chosen, whether one fits, its memory
    network: Network  # bandwidths, round trip, congestion, fat-tree counts
    reliability: Reliability  # interruptions, checkpoints, days with interruptions
    money: Money  # capex, opex, TCO, cost per run, power and energy
    workload: Workload  # the model trained: parameters and shape

    @classmethod
    def from_tree(cls, tree: dict, **context):
        """The groups of the engine's nested outputs ``tree`` (:func:`model.engine.evaluate_inputs`' assembly),
        with the ``context`` fields of a subclass."""
        return cls(**groups_from_tree(tree), **context)

    def metric(self, name: str):
        """The output a user or a chart names by its engine name (``"tco"``, ``"mfu"``,
        ``"train_days_with_interruptions"``: :data:`~model.results.groups.METRICS`); None where these outputs do
        not compute it (the lean outputs). KeyError for a name that is no such output."""
        group, field = METRICS[name]
        return getattr(getattr(self, group), field)

    def arrays(self):
        """Every output array under its engine path (``"/breakdown_s/compute"``), as an ndarray."""
        return leaves(self)


@dataclass(frozen=True)
class SweepResult(Outputs):
    """The engine's result for a scenario's fabrics: at one point (:func:`model.evaluate`, arrays (F,), a scalar
    with one fabric) or along a sweep (:func:`model.sweep`, arrays (F, N) along :attr:`x`)."""
    scenario: Scenario  # what was evaluated
    fabrics: tuple  # the fabrics' keys, one per row (F)
    labels: tuple  # their display names
    field: str | None  # the swept scenario path (:data:`model.SWEEPABLE`), None at a point
    x: np.ndarray | None  # the sweep's values (N,) in the field's units, None at a point
    fabric_rows: tuple  # the fabrics' resolved inputs (:class:`model.inputs.FabricRow`)

    def fabric_index(self, name: str) -> int:
        return self.fabrics.index(name)

    @property
    def currency(self) -> str:
        """ISO code of the money figures (``CNY``, ``USD``)."""
        return str(np.asarray(self.money.currency).reshape(-1)[0])

    def at(self, fabric: str) -> FabricReport:
        """One fabric's :class:`FabricReport`: each field a Python scalar at a point (rows (N,) for a sweep)."""
        return FabricReport.of(self, self.fabric_index(fabric))


__all__ = ["Outputs", "SweepResult"]
