"""Which fabric: the article's decision tree, the engine's own pick, and why they differ.

The decision tree (article §3.4) has four rules:

1. Nodes: ≤ 8 → RoCE; 8–32 → InfiniBand (preferred) or RoCE (limited budget);
   > 32 → InfiniBand (only choice).
2. Model size: ≤ 10B → RoCE; 10B–50B → InfiniBand; > 50B → InfiniBand.
3. Budget: limited budget and good existing Ethernet → RoCE; long-term
   stability and lower TCO → InfiniBand.
4. Operations: weak operations team → RoCE; professional team and a
   zero-interruption goal → InfiniBand.

The article does not say how the rules combine. Read here in its order, with
the hard constraints first: rule 1 decides at its ends (> 32 nodes, ≤ 8
nodes); rule 2's > 50B branch overrides a small cluster (the article calls
> 50B an InfiniBand job whatever its size); in the 8–32 band, where rule 1
leaves a choice, rules 3, 4 and 2 (≤ 10B) can each pick RoCE, and otherwise
InfiniBand, as rule 1 prefers.

The engine's pick: among the compared fabrics, the lowest TCO that finishes a
run (with interruptions) within the deadline; with a budget, the fastest whose
TCO fits it; with neither, the lowest cost per run. A budget smaller than the
GPU servers alone cannot be met by any fabric: it is reported once
(``note.budget_below_servers``) and the pick falls back to cost per run.

Ties are ties: the pick names a winner only when its margin over every other
fabric exceeds both :data:`TIE_THRESHOLD` and the model's uncertainty — the
fabrics' P10–P90 ranges on the criterion (:func:`model.analysis.monte_carlo`)
must not overlap. Otherwise the fabrics it cannot tell apart are *equivalent*,
with what would separate them; the article's choice among them counts as
agreement.

Every sentence is a :class:`Reason` — a code with parameters. The engine never
writes prose; ``gui/present/reasons.py`` holds the English and Chinese templates.

References
----------
1. The source article, §3.4 and §5.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

SMALL_NODES = 8
LARGE_NODES = 32
SMALL_PARAMS_B = 10.0
LARGE_PARAMS_B = 50.0

TIE_THRESHOLD = 0.03
"""Smallest relative margin that names a winner [-]. A guess: differences under 3 % are
within what one vendor quote or one measured latency moves, and below the engine's 6 %
median error against published training runs (``model.validation.MEDIAN_TOLERANCE``)."""

UNCERTAINTY_SAMPLES = 200
"""Monte-Carlo samples for the P10–P90 ranges the tie test uses (seeded, so reproducible)."""

# Every reason code the engine emits, with its parameters. ``gui/present/reasons.py`` has a template
# for each in English and Chinese (a test fails when one is missing).
REASON_CODES = {
    # the article's decision tree
    "tree.large_cluster": ("nodes",),
    "tree.large_model": ("params_b",),
    "tree.small_cluster": ("nodes",),
    "tree.limited_budget": (),
    "tree.weak_operations": (),
    "tree.small_model": ("params_b",),
    "tree.mid_cluster": ("nodes_low", "nodes_high", "params_low_b", "params_high_b"),
    # the engine's criterion
    "criterion.deadline": ("deadline_days",),
    "criterion.budget": ("budget", "currency"),
    "criterion.cost_per_run": (),
    "criterion.deadline_missed": ("deadline_days",),
    "criterion.budget_missed": ("budget", "currency"),
    # said once, in words, instead of a failing goal
    "note.budget_below_servers": ("budget", "servers", "nodes", "currency"),
    # winner or tie
    "verdict.winner": ("pick", "runner_up", "margin", "threshold"),
    "verdict.tie": ("fabrics", "margin", "threshold"),
    "separate.trade_off": ("faster", "faster_days", "slower_days", "cheaper", "tco_saving"),
    "separate.measure": ("fabrics",),
    "verdict.infeasible": (),
    # why the engine and the tree differ
    "diff.not_compared": ("tree",),
    "diff.none_meets": ("engine", "tree", "engine_days", "tree_days"),
    "diff.tree_misses_deadline": ("engine", "tree", "deadline_days", "engine_days", "tree_days"),
    "diff.cheaper_within_deadline": ("engine", "tree", "tco_change", "engine_days", "tree_days"),
    "diff.tree_over_budget": ("engine", "tree", "engine_days", "tree_days"),
    "diff.faster_within_budget": ("engine", "tree", "engine_days", "tree_days"),
    "diff.cheaper_per_run": ("engine", "tree", "per_run_change", "engine_days", "tree_days"),
    # the customer's answer: money for the same work first, the same cluster's TCO second
    "takeaway": ("fabric", "baseline", "baseline_days", "days", "per_run", "baseline_per_run", "per_mtok",
                 "saved_per_year", "gpu_hours_per_year", "currency"),
    "takeaway.alone": ("fabric", "days", "per_run", "per_mtok", "currency"),
    "takeaway.tco": ("fabric", "baseline", "years", "tco_change", "work_ratio"),
    "note.stalls": ("fabric", "cause"),
}


@dataclass(frozen=True)
class Reason:
    """One statement of the recommendation: a code from :data:`REASON_CODES` and its parameters.

    Parameters named ``*_days`` are days, ``margin``/``threshold``/``*_change``/``*_saving``/``*_delta``
    fractions [-], ``budget``/``servers`` money in ``currency``; fabric parameters
    (``pick``, ``engine``, ``tree``, ``faster`` ...) are fabric ids, ``fabrics`` a tuple of ids.
    """
    code: str
    params: dict = field(default_factory=dict)

    def __post_init__(self):
        want = REASON_CODES.get(self.code)
        if want is None:
            raise ValueError(f"reason code {self.code!r}: one of {', '.join(REASON_CODES)}")
        if set(want) != set(self.params):
            raise ValueError(f"reason {self.code}: parameters {sorted(self.params)}, expected {sorted(want)}")

    def to_json(self) -> dict:
        return {"code": self.code, "params": {k: (list(v) if isinstance(v, tuple) else v)
                                              for k, v in self.params.items()}}


def _r(code: str, **params) -> Reason:
    return Reason(code, params)


@dataclass(frozen=True)
class TreeChoice:
    fabric: str
    rule: str       # "1", "2", "3" or "4"
    reason: Reason  # the rule that fired


def decision_tree(nodes, params_b, budget_stance="long_term", existing_ethernet=True,
                  operations_team="professional") -> TreeChoice:
    """The article's decision tree: the fabric it names and the rule that fired [1].

    Parameters
    ----------
    nodes : int
        Nodes in the cluster [-].
    params_b : float
        Model parameters [billions].
    budget_stance : {"limited", "long_term"}
    existing_ethernet : bool
        A good Ethernet network is already in place.
    operations_team : {"weak", "professional"}

    References
    ----------
    1. The source article, §3.4.
    """
    if nodes > LARGE_NODES:
        return TreeChoice("infiniband", "1", _r("tree.large_cluster", nodes=LARGE_NODES))
    if params_b > LARGE_PARAMS_B:
        return TreeChoice("infiniband", "2", _r("tree.large_model", params_b=LARGE_PARAMS_B))
    if nodes <= SMALL_NODES:
        return TreeChoice("roce", "1", _r("tree.small_cluster", nodes=SMALL_NODES))
    if budget_stance == "limited" and existing_ethernet:
        return TreeChoice("roce", "3", _r("tree.limited_budget"))
    if operations_team == "weak":
        return TreeChoice("roce", "4", _r("tree.weak_operations"))
    if params_b <= SMALL_PARAMS_B:
        return TreeChoice("roce", "2", _r("tree.small_model", params_b=SMALL_PARAMS_B))
    return TreeChoice("infiniband", "1", _r("tree.mid_cluster", nodes_low=SMALL_NODES, nodes_high=LARGE_NODES,
                                             params_low_b=SMALL_PARAMS_B, params_high_b=LARGE_PARAMS_B))


def tree_for_scenario(s) -> TreeChoice:
    """The decision tree on a scenario's nodes, model size and goals."""
    g = s.goals
    return decision_tree(s.cluster.nodes, s.workload.params_b, g.budget_stance, g.existing_ethernet,
                         g.operations_team)


@dataclass(frozen=True)
class EngineChoice:
    """The engine's pick on one criterion, with the fabrics it cannot tell apart from it."""
    pick: str | None            # the winner; None when the best is tied (see ``equivalent``) or nothing fits
    best: str | None            # the best on the criterion, tied or not
    criterion: Reason
    runner_up: str | None
    margin: float               # relative advantage of ``best`` over the runner-up on the criterion [-]
    met: bool                   # False when no fabric meets the deadline / budget (fastest given instead)
    equivalent: tuple = ()      # fabrics within the uncertainty of ``best`` (``best`` included)
    metric: str = ""            # the result key the criterion ranks by

    @property
    def fabric(self) -> str | None:
        """The best fabric on the criterion (tied or not)."""
        return self.best

    @property
    def tied(self) -> bool:
        return len(self.equivalent) > 1


def _budget_in(s, currency):
    g, rate = s.goals, s.economics.cny_per_usd
    if g.budget_cny is not None:
        return g.budget_cny if currency == "CNY" else g.budget_cny / rate
    if g.budget_usd is not None:
        return g.budget_usd * rate if currency == "CNY" else g.budget_usd
    return None


def _servers_capex(res) -> float:
    """What the GPU servers alone cost, in the result's currency (the same for every fabric)."""
    servers = res.money.capex_servers
    return float(np.nanmin(np.asarray(servers, dtype=float))) if servers is not None else float("nan")


def engine_choice(res, deadline_days=None, budget=None, *, spread=None,
                  threshold: float = TIE_THRESHOLD) -> EngineChoice:
    """The engine's recommendation from an :func:`~model.evaluate` result.

    Parameters
    ----------
    res : Result
        Per-fabric arrays of shape (F,).
    deadline_days : float, optional
        Longest acceptable run, with interruptions [days].
    budget : float, optional
        Largest acceptable TCO, in the result's currency.
    spread : dict, optional
        ``{metric: (p10, p90)}``, arrays (F,): the model's uncertainty per fabric. A fabric
        whose range overlaps the best one's is equivalent to it.
    threshold : float
        A margin at or below this fraction is a tie whatever the ranges [-].
    """
    names = list(res.fabrics)
    days = np.asarray(res.reliability.train_days_with_interruptions, dtype=float)
    tco = np.asarray(res.money.tco, dtype=float)
    per_run = np.asarray(res.money.cost_per_run, dtype=float)
    currency = str(np.asarray(res.money.currency).reshape(-1)[0])
    ok = np.isfinite(days)
    if deadline_days is not None:
        metric, key, crit, ok2 = ("tco", tco, _r("criterion.deadline", deadline_days=float(deadline_days)),
                                  ok & (days <= deadline_days))
        missed = _r("criterion.deadline_missed", deadline_days=float(deadline_days))
    elif budget is not None:
        metric, key, crit, ok2 = ("train_days_with_interruptions", days,
                                  _r("criterion.budget", budget=float(budget), currency=currency), ok & (tco <= budget))
        missed = _r("criterion.budget_missed", budget=float(budget), currency=currency)
    else:
        metric, key, crit, ok2, missed = "cost_per_run", per_run, _r("criterion.cost_per_run"), ok, None
    met = bool(np.any(ok2))
    if not met and missed is not None:  # nothing meets the goal: the fastest fabric, said so
        metric, key, crit, ok2 = "train_days_with_interruptions", days, missed, ok
    if not np.any(ok2):
        return EngineChoice(None, None, crit, None, float("nan"), False, (), metric)
    order = [int(i) for i in np.argsort(np.where(ok2, key, np.inf)) if ok2[i]]
    best = order[0]
    if len(order) == 1:
        return EngineChoice(names[best], names[best], crit, None, float("nan"), met, (names[best],), metric)
    second = order[1]
    margin = float((key[second] - key[best]) / key[second]) if key[second] else 0.0
    lo_hi = spread.get(metric) if spread else None
    equivalent = [names[best]]
    for j in order[1:]:
        close = key[j] and (key[j] - key[best]) / key[j] <= threshold
        if lo_hi is not None:
            p10, p90 = (np.asarray(a, dtype=float).reshape(-1) for a in lo_hi)
            close = close or bool(p10[j] <= p90[best])  # the ranges overlap
        if close:
            equivalent.append(names[j])
    pick = names[best] if len(equivalent) == 1 else None
    return EngineChoice(pick, names[best], crit, names[second], margin, met, tuple(equivalent), metric)


def budget_for(s, res):
    """The scenario's TCO budget in the result's currency (``None`` when it has none)."""
    return _budget_in(s, str(np.asarray(res.money.currency).reshape(-1)[0]))


def uncertainty(s, samples: int = UNCERTAINTY_SAMPLES) -> dict:
    """P10 and P90 per fabric of the metrics the engine ranks by, at the scenario's point.

    ``{metric: (p10, p90)}`` with arrays (F,), from :func:`model.analysis.monte_carlo` (seed 0).
    """
    from . import analysis

    bands = analysis.monte_carlo(s, None, samples=samples, seed=0,
                                 metrics=("train_days_with_interruptions", "tco", "cost_per_run"))
    return {m: (np.asarray(p[10.0], dtype=float).reshape(-1), np.asarray(p[90.0], dtype=float).reshape(-1))
            for m, p in bands.percentiles.items()}


def _goals_for(s, res):
    """The deadline, the budget and the note when the budget cannot even hold the servers."""
    budget = budget_for(s, res)
    note = None
    if budget is not None and s.goals.deadline_days is None:
        servers = _servers_capex(res)
        if np.isfinite(servers) and budget < servers:
            currency = str(np.asarray(res.money.currency).reshape(-1)[0])
            note = _r("note.budget_below_servers", budget=float(budget), servers=servers,
                      nodes=int(s.cluster.nodes), currency=currency)
            budget = None
    return s.goals.deadline_days, budget, note


def engine_choice_for(s, res, spread=None) -> EngineChoice:
    """:func:`engine_choice` with the scenario's deadline and budget (a budget below the servers is set aside)."""
    deadline, budget, _ = _goals_for(s, res)
    return engine_choice(res, deadline, budget, spread=spread)


def disagreement_reason(res, tree_fabric: str, engine_fabric: str | None, criterion: Reason | None = None,
                        deadline_days=None, budget=None) -> Reason | None:
    """Why the engine's pick differs from the tree's (``None`` when they agree)."""
    if engine_fabric is None or tree_fabric == engine_fabric:
        return None
    if tree_fabric not in res.fabrics:
        return _r("diff.not_compared", tree=tree_fabric)
    i, j = res.fabric_index(engine_fabric), res.fabric_index(tree_fabric)
    d = np.asarray(res.reliability.train_days_with_interruptions, dtype=float)
    c = np.asarray(res.money.tco, dtype=float)
    both = dict(engine=engine_fabric, tree=tree_fabric, engine_days=float(d[i]), tree_days=float(d[j]))
    code = criterion.code if criterion is not None else "criterion.cost_per_run"
    if code.endswith("_missed"):
        return _r("diff.none_meets", **both)
    if code == "criterion.deadline":
        if deadline_days is not None and not d[j] <= deadline_days:
            return _r("diff.tree_misses_deadline", deadline_days=float(deadline_days), **both)
        return _r("diff.cheaper_within_deadline", tco_change=float((c[i] - c[j]) / c[j]), **both)
    if code == "criterion.budget":
        if budget is not None and not c[j] <= budget:
            return _r("diff.tree_over_budget", **both)
        return _r("diff.faster_within_budget", **both)
    per_run = np.asarray(res.money.cost_per_run, dtype=float)
    return _r("diff.cheaper_per_run", per_run_change=float((per_run[i] - per_run[j]) / per_run[j]), **both)


def _separator(res, equivalent) -> Reason:
    """What would separate equivalent fabrics: a trade-off a goal can decide, or a measurement."""
    idx = [res.fabric_index(f) for f in equivalent]
    d = np.asarray(res.reliability.train_days_with_interruptions, dtype=float)[idx]
    c = np.asarray(res.money.tco, dtype=float)[idx]
    fast, cheap = int(np.nanargmin(d)), int(np.nanargmin(c))
    if fast != cheap:
        return _r("separate.trade_off", faster=equivalent[fast], faster_days=float(d[fast]),
                  slower_days=float(d[cheap]), cheaper=equivalent[cheap],
                  tco_saving=float((c[fast] - c[cheap]) / c[fast]))
    return _r("separate.measure", fabrics=tuple(equivalent))


@dataclass(frozen=True)
class Recommendation:
    """The article's tree beside the engine's pick, every statement a :class:`Reason`."""
    tree_fabric: str
    tree_rule: str
    tree_reason: Reason
    pick: str | None                # the engine's winner; None for a tie (or when nothing fits)
    best: str | None                # the best on the criterion, tied or not
    equivalent: tuple               # fabric ids the engine cannot tell apart from ``best`` (``best`` included)
    criterion: Reason
    verdict: Reason                 # verdict.winner / verdict.tie / verdict.infeasible
    separator: Reason | None        # what would separate equivalent fabrics
    note: Reason | None             # e.g. a budget that cannot hold the servers
    runner_up: str | None
    margin: float                   # relative margin of the best over the runner-up [-]
    criterion_met: bool
    agrees: bool                    # the tree's fabric is the pick, or one of the equivalent ones
    reason: Reason | None           # why they differ (None when they agree)
    threshold: float = TIE_THRESHOLD

    @property
    def reasons(self) -> tuple:
        """Every reason shown, in reading order."""
        return tuple(r for r in (self.tree_reason, self.note, self.criterion, self.verdict, self.separator,
                                 self.reason) if r is not None)

    def to_json(self) -> dict:
        """The ``recommendation`` block of ``fabric-whatif evaluate --json``."""
        margin = self.margin if np.isfinite(self.margin) else None
        return {"pick": self.pick, "equivalent": list(self.equivalent), "margin": margin,
                "article_pick": self.tree_fabric, "agrees": self.agrees, "threshold": self.threshold,
                "criterion": self.criterion.to_json(), "reasons": [r.to_json() for r in self.reasons]}


def recommendation(s, res, spread=None, *, samples: int = UNCERTAINTY_SAMPLES) -> Recommendation:
    """Tree and engine side by side, ties called ties, and the reason when they differ.

    ``spread`` is the model's uncertainty (:func:`uncertainty`); computed here when not given
    (``samples`` Monte-Carlo samples at the scenario's point; ``samples=0`` uses the threshold only).
    """
    tree = tree_for_scenario(s)
    deadline, budget, note = _goals_for(s, res)
    if spread is None and samples:
        spread = uncertainty(s, samples)
    eng = engine_choice(res, deadline, budget, spread=spread)
    if eng.best is None:
        verdict, separator = _r("verdict.infeasible"), None
    elif eng.tied:
        verdict = _r("verdict.tie", fabrics=eng.equivalent, margin=eng.margin, threshold=TIE_THRESHOLD)
        separator = _separator(res, eng.equivalent)
    else:
        verdict = _r("verdict.winner", pick=eng.pick, runner_up=eng.runner_up, margin=eng.margin,
                     threshold=TIE_THRESHOLD)
        separator = None
    agrees = eng.best is not None and tree.fabric in eng.equivalent
    reason = None if agrees else disagreement_reason(res, tree.fabric, eng.best, eng.criterion, deadline, budget)
    return Recommendation(tree.fabric, tree.rule, tree.reason, eng.pick, eng.best, eng.equivalent, eng.criterion,
                          verdict, separator, note, eng.runner_up, eng.margin, eng.met, agrees, reason)


BASELINE_FABRIC = "ethernet"
"""The fabric the customer has today unless told otherwise: plain TCP Ethernet (the article's baseline)."""


def baseline_fabric(res, preferred: str | None = None) -> str:
    """The fabric differences are shown against: ``preferred`` when compared, else TCP Ethernet, else the
    slowest fabric."""
    names = list(res.fabrics)
    for name in (preferred, BASELINE_FABRIC):
        if name in names:
            return name
    days = np.asarray(res.reliability.train_days_with_interruptions, dtype=float)
    return names[int(np.nanargmax(np.where(np.isfinite(days), days, -np.inf)))]


@dataclass(frozen=True)
class SameWork:
    """Money and GPU time of ``fabric`` against ``baseline`` for the same work (the baseline's output).

    ``saved_per_year`` is what the baseline's yearly output (its runs per year at the duty cycle) costs
    on the baseline minus what it costs on ``fabric``, each at its own cost per run [currency/year];
    ``gpu_hours_per_year`` the GPU-hours that output no longer needs [GPU-h/year]. Both are negative
    when ``fabric`` is the slower or dearer one. The baseline's output is the conservative measure: at
    the faster fabric's output the baseline would need more clusters than the customer has.
    """
    fabric: str
    baseline: str
    days: float
    baseline_days: float
    per_run: float
    baseline_per_run: float
    per_mtok: float            # cost per million training tokens [currency]
    baseline_per_mtok: float
    saved_per_year: float
    gpu_hours_per_year: float
    tco: float                 # the same cluster's TCO over ``years`` [currency]
    baseline_tco: float
    years: float
    currency: str

    @property
    def tco_delta(self) -> float:
        """The same cluster's TCO change against the baseline [fraction]."""
        return self.tco / self.baseline_tco - 1.0

    @property
    def work_ratio(self) -> float:
        """How many times the baseline's work the fabric's cluster does in the same time [-]."""
        return self.baseline_days / self.days


def same_work(res, fabric: str, baseline: str) -> SameWork:
    """:class:`SameWork` of ``fabric`` against ``baseline`` at a point result."""
    s = res.scenario
    i, j = res.fabric_index(fabric), res.fabric_index(baseline)

    def v(key, k):
        return float(np.asarray(res.metric(key), dtype=float).reshape(-1)[k])

    runs_base = v("runs_per_year", j)
    gpus = s.cluster.nodes * s.cluster.gpus_per_node
    d_f, d_b = v("train_days_with_interruptions", i), v("train_days_with_interruptions", j)
    r_f, r_b = v("cost_per_run", i), v("cost_per_run", j)
    return SameWork(fabric, baseline, d_f, d_b, r_f, r_b, v("cost_per_token", i) * 1e6, v("cost_per_token", j) * 1e6,
                    runs_base * (r_b - r_f), runs_base * gpus * 24.0 * (d_b - d_f), v("tco", i), v("tco", j),
                    float(s.economics.years), str(np.asarray(res.money.currency).reshape(-1)[0]))


def money_baseline(res, fabric: str, baseline: str | None = None, stalls=None) -> str | None:
    """The fabric ``fabric``'s money for the same work is compared with: :func:`baseline_fabric`, or, when
    that one stalls (``stalls``: ``{fabric: cause code}``, the views' plausibility guard), the fastest fabric
    other than ``fabric`` that does not (the customer's next-best choice: the smallest, most defensible saving,
    never the slowest fabric's that would flatter the pick); ``None`` where there is none."""
    stalls = stalls or {}
    base = baseline_fabric(res, baseline)
    if base not in stalls:
        return base
    days = np.asarray(res.reliability.train_days_with_interruptions, dtype=float)
    others = [f for k, f in enumerate(res.fabrics) if f not in stalls and f != fabric and np.isfinite(days[k])]
    return min(others, key=lambda f: days[res.fabric_index(f)]) if others else None


def takeaway(res, rec: Recommendation, baseline: str | None = None, stalls=None) -> tuple[Reason, ...]:
    """The customer's answer, in reading order: the recommended fabric's days and money for the same work
    against the baseline, then the same cluster's TCO; a fabric that stalls is said to, not compared.

    The fabric is the pick; for a tie, the article's choice when it is among the equivalent fabrics, else
    the best on the criterion. ``stalls`` is ``{fabric: cause code}`` of the fabrics whose figures are
    past the plausibility bound (the views' guard): a stalling baseline is named with its cause and the
    money is shown against the fastest other fabric that does not stall (the next-best choice), or alone. Empty when nothing fits or
    the fabric is the baseline.
    """
    stalls = dict(stalls or {})
    fabric = rec.pick or (rec.tree_fabric if rec.tree_fabric in rec.equivalent else rec.best)
    named = baseline_fabric(res, baseline)
    if fabric is None or fabric == named:
        return ()
    out = [_r("note.stalls", fabric=named, cause=stalls[named])] if named in stalls else []
    base = money_baseline(res, fabric, baseline, stalls)
    if base is None:
        w = same_work(res, fabric, fabric)
        return (_r("takeaway.alone", fabric=fabric, days=w.days, per_run=w.per_run, per_mtok=w.per_mtok,
                   currency=w.currency), *out)
    w = same_work(res, fabric, base)
    return (_r("takeaway", fabric=fabric, baseline=base, baseline_days=w.baseline_days, days=w.days, per_run=w.per_run,
               baseline_per_run=w.baseline_per_run, per_mtok=w.per_mtok, saved_per_year=w.saved_per_year,
               gpu_hours_per_year=w.gpu_hours_per_year, currency=w.currency),
            _r("takeaway.tco", fabric=fabric, baseline=base, years=w.years, tco_change=w.tco_delta,
               work_ratio=w.work_ratio), *out)
