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

import datetime as dt
import hashlib
import json
import math
from dataclasses import dataclass, field

import numpy as np
import numpy_financial as npf

import model
from model import ScenarioError, recommend
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
    "discount": QT_TRANSLATE_NOOP("Pack", "Discount (price book)"),
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
    """Per fabric, the lines whose totals add up to its capex (an ``evaluate`` result): list prices, then the
    price book's discount as a line of its own when there is one."""
    s = point.scenario
    nodes = float(s.cluster.nodes)
    out = {}
    for name, r in zip(point.fabrics, fabric_reports(point)):
        m, net = r.money, r.network
        servers = float(m.capex_servers)
        network = float(m.capex_network)
        lines = [BomLine("servers", nodes, servers / nodes)]
        comp = {"nics": float(m.nics_cost), "switches": float(m.switches_cost), "links": float(m.links_cost)}
        counts = {"nics": float(net.nics), "switches": float(net.switches), "links": float(net.links)}
        if math.isclose(sum(comp.values()), network, rel_tol=1e-9):
            lines += [BomLine(k, counts[k], comp[k] / counts[k]) for k in ("nics", "switches", "links") if counts[k]]
        else:  # priced per node (the article's whole-network price), not from its parts
            lines.append(BomLine("network_per_node", nodes, network / nodes))
        if s.price_book.discount > 0:  # the lines are list prices; the price book's discount comes off their sum
            lines.append(BomLine("discount", 1.0, float(m.capex) - servers - network))
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
        m = r.money
        kwh = float(m.energy_kwh_per_year)
        out[name] = TcoParts(float(m.capex), kwh, float(m.opex_energy) / kwh if kwh else 0.0,
                             float(m.opex_operations), float(s.economics.years),
                             float(r.reliability.train_days_with_interruptions) * 24.0, float(s.economics.duty_cycle),
                             float(m.tco), float(m.cost_per_run))
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
    capex = np.asarray(point.money.capex, dtype=float).reshape(-1)
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


# -- the cover: who it is for, by whom, how long it holds, and which scenario it is ------------------------

DEFAULT_VALID_DAYS = 30
"""How long a proposal's figures hold by default [days] (a guess: a usual validity of a hardware quotation;
``--valid-days`` and the window's dialog change it)."""
MAX_VALID_DAYS = 365
MAX_NAME_CHARS = 120  # customer and preparer: one line on the cover


def fingerprint(scenario) -> str:
    """The scenario's identifier on the cover: the first 48 bits of the SHA-256 of its inputs (as saved) and the
    engine's version, in three groups (``3F2A-91C0-7B1D``). Same inputs and engine, same figures, same fingerprint;
    any edit changes it."""
    from model.scenario import scenario_to_dict

    text = json.dumps({"scenario": scenario_to_dict(scenario), "engine": model.__version__}, sort_keys=True,
                      default=str, ensure_ascii=False)
    h = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12].upper()
    return "-".join(h[i:i + 4] for i in range(0, 12, 4))


def qr_payload(scenario) -> str:
    """What the cover's QR code says: the tool, the engine version and the fingerprint (a reader checks a
    printed proposal against the scenario file with ``fabric-whatif`` of that version)."""
    return f"fabric-whatif {model.__version__} scenario {fingerprint(scenario)}"


def qr_modules(text: str) -> np.ndarray:
    """The QR code of ``text`` (``segno``, a full QR code, error correction M) as a boolean matrix, dark = True,
    without its quiet zone."""
    import segno

    return np.array([[bool(v) for v in row] for row in segno.make_qr(text, error="m").matrix], dtype=bool)


@dataclass(frozen=True)
class Cover:
    """The cover block's fields, all optional: ``date`` defaults to today, ``valid_days`` to
    :data:`DEFAULT_VALID_DAYS`; an empty customer or preparer is left blank for a pen."""
    customer: str = ""
    prepared_by: str = ""
    date: dt.date | None = None
    valid_days: int = DEFAULT_VALID_DAYS

    def __post_init__(self):
        for name, flag in (("customer", "--customer"), ("prepared_by", "--prepared-by")):
            text = getattr(self, name)
            if not isinstance(text, str) or len(text) > MAX_NAME_CHARS or any(ch in text for ch in "\r\n"):
                raise ScenarioError(flag, text, f"one line of at most {MAX_NAME_CHARS} characters")
        if isinstance(self.valid_days, bool) or not isinstance(self.valid_days, int) or not (
                1 <= self.valid_days <= MAX_VALID_DAYS):
            raise ScenarioError("--valid-days", self.valid_days, f"a whole number of days from 1 to {MAX_VALID_DAYS}")

    @property
    def day(self) -> dt.date:
        return self.date or dt.date.today()

    @property
    def valid_until(self) -> dt.date:
        return self.day + dt.timedelta(days=self.valid_days)


@dataclass(frozen=True)
class Headline:
    """The cover's row of numbers: the recommended ``fabric`` against ``baseline`` for the same work
    (:class:`model.recommend.SameWork`), and its financials; ``baseline`` is ``None`` when there is nothing
    to compare with (the pick is the baseline, or every other fabric stalls)."""
    fabric: str
    baseline: str | None
    work: recommend.SameWork | None = None
    finance: Financials | None = None
    extra: dict = field(default_factory=dict)


def headline(point, stalls=None) -> Headline | None:
    """The cover's numbers for a point result (``stalls``: the views' plausibility guard), or ``None`` when
    no fabric can be recommended."""
    rec = recommend.recommendation(point.scenario, point, samples=0)
    fabric = rec.pick or (rec.tree_fabric if rec.tree_fabric in rec.equivalent else rec.best)
    if fabric is None:
        return None
    base = recommend.money_baseline(point, fabric, stalls=stalls)
    if base is None or base == fabric:
        return Headline(fabric, None)
    return Headline(fabric, base, recommend.same_work(point, fabric, base), financials(point, fabric, base))


__all__ = ["DEFAULT_VALID_DAYS", "DISCOUNT_RATE", "ITEMS", "MAX_VALID_DAYS", "BomLine", "Cover", "Financials",
           "Headline", "TcoParts", "bill_of_materials", "financials", "fingerprint", "headline", "qr_modules",
           "qr_payload", "tco_parts"]
