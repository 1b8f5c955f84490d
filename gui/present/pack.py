"""The proposal pack's numbers without Qt: the bill of materials each fabric's capex is made of, the
TCO's parts a spreadsheet recomputes, and the financials (NPV, payback, price per GPU-hour).

Every figure is the engine's (:func:`model.results.fabric_reports`): the BOM's quantities are the
topology model's (NICs, switches of the fat tree, links with their optics), its unit prices the
component prices the economics used, so its total is the app's capex. A network priced per node
(the article's way, the ``seed`` set) is one line, "network, priced per node", as the engine prices it.

Financials compare a fabric with a baseline for the same work (:func:`model.recommend.same_work`):
the extra capex against the money saved each year at the baseline's output, discounted at
:data:`DISCOUNT_RATE` over the scenario's years (``numpy_financial.npv``); payback is the extra
capex over the yearly saving; the price per GPU-hour is the TCO over the GPU-hours the cluster
delivers in its years at the duty cycle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy_financial as npf

from model import recommend
from model.economics import HOURS_PER_YEAR
from model.results import fabric_reports

from gui.present.text import QT_TRANSLATE_NOOP, translate

DISCOUNT_RATE = 0.08
"""Yearly discount rate of the NPV [fraction] (a guess: a typical corporate cost of capital; editable in the
spreadsheet)."""

ITEMS = {
    "servers": QT_TRANSLATE_NOOP("Pack", "GPU servers"),
    "nics": QT_TRANSLATE_NOOP("Pack", "Network cards (NICs)"),
    "switches": QT_TRANSLATE_NOOP("Pack", "Switches (fat tree)"),
    "links": QT_TRANSLATE_NOOP("Pack", "Links with optics and cables"),
    "network_per_node": QT_TRANSLATE_NOOP("Pack", "Network, priced per node (the article's price)"),
}


@dataclass(frozen=True)
class BomLine:
    """One line of a fabric's bill of materials: ``quantity`` × ``unit_price`` = ``total`` [currency]."""
    item: str
    quantity: float
    unit_price: float

    @property
    def total(self) -> float:
        return self.quantity * self.unit_price

    @property
    def label(self) -> str:
        return translate("Pack", ITEMS[self.item])


def bill_of_materials(point) -> dict[str, list[BomLine]]:
    """Per fabric, the lines whose totals add up to its capex (an ``evaluate`` result)."""
    s = point.scenario
    nodes = float(s.cluster.nodes)
    out = {}
    for name, r in zip(point.fabrics, fabric_reports(point)):
        servers = float(r.capex_parts["servers"])
        network = float(r.capex_parts["network"])
        lines = [BomLine("servers", nodes, servers / nodes)]
        comp = {k: float(v) for k, v in r.network_components.items()}
        counts = {"nics": float(r.nics), "switches": float(r.switches), "links": float(r.links)}
        if math.isclose(sum(comp.values()), network, rel_tol=1e-9):
            lines += [BomLine(k, counts[k], comp[k] / counts[k]) for k in ("nics", "switches", "links") if counts[k]]
        else:  # priced per node (the article's whole-network price), not from its parts
            lines.append(BomLine("network_per_node", nodes, network / nodes))
        out[name] = lines
    return out


@dataclass(frozen=True)
class TcoParts:
    """What a spreadsheet needs to recompute a fabric's TCO and cost per run as the engine does."""
    capex: float
    energy_kwh_per_year: float
    price_per_kwh: float       # [currency/kWh], the scenario's electricity price
    operations_per_year: float
    years: float
    run_hours: float           # the run with interruptions [h]
    duty_cycle: float
    tco: float                 # the engine's, to check against
    cost_per_run: float


def tco_parts(point) -> dict[str, TcoParts]:
    """Per fabric, the TCO's inputs and the engine's totals."""
    s = point.scenario
    out = {}
    for name, r in zip(point.fabrics, fabric_reports(point)):
        kwh = float(r.energy_kwh_per_year)
        out[name] = TcoParts(float(r.capex), kwh, float(r.opex_parts["energy"]) / kwh if kwh else 0.0,
                             float(r.opex_parts["operations"]), float(s.economics.years),
                             float(r.train_days_with_interruptions) * 24.0, float(s.economics.duty_cycle),
                             float(r.tco), float(r.cost_per_run))
    return out


@dataclass(frozen=True)
class Financials:
    """``fabric`` against ``baseline`` for the same work, money in ``currency``."""
    fabric: str
    baseline: str
    extra_capex: float          # [currency]
    saved_per_year: float       # at the baseline's output [currency/year]
    npv: float                  # of −extra capex, then the yearly saving over the years [currency]
    payback_years: float        # extra capex / yearly saving (0 when nothing extra is spent; inf when it never pays)
    gpu_hour_price: float       # the fabric's TCO per delivered GPU-hour [currency/GPU-h]
    discount_rate: float
    currency: str


def financials(point, fabric: str, baseline: str, rate: float = DISCOUNT_RATE) -> Financials:
    """NPV, payback and price per GPU-hour of ``fabric`` against ``baseline`` at a point result."""
    w = recommend.same_work(point, fabric, baseline)
    capex = np.asarray(point["capex"], dtype=float).reshape(-1)
    extra = float(capex[point.fabric_index(fabric)] - capex[point.fabric_index(baseline)])
    years = int(round(w.years))
    npv = float(npf.npv(rate, [-extra] + [w.saved_per_year] * years))
    if extra <= 0:
        payback = 0.0
    else:
        payback = extra / w.saved_per_year if w.saved_per_year > 0 else math.inf
    s = point.scenario
    gpu_hours = s.cluster.nodes * s.cluster.gpus_per_node * w.years * HOURS_PER_YEAR * s.economics.duty_cycle
    return Financials(fabric, baseline, extra, w.saved_per_year, npv, payback, w.tco / gpu_hours, rate, w.currency)


__all__ = ["DISCOUNT_RATE", "ITEMS", "BomLine", "Financials", "TcoParts", "bill_of_materials", "financials",
           "tco_parts"]
