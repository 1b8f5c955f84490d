"""Which fabric: the article's decision tree, the engine's own pick, and why they differ.

The decision tree (article §3.4, seed-figures.md §6) has four rules:

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
TCO fits it; with neither, the lowest cost per run.

References
----------
1. The source article, §3.4 and §5 (shared/seed; seed-figures.md §6, §8).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SMALL_NODES = 8
LARGE_NODES = 32
SMALL_PARAMS_B = 10.0
LARGE_PARAMS_B = 50.0


@dataclass(frozen=True)
class TreeChoice:
    fabric: str
    rule: str       # "1", "2", "3" or "4"
    reason: str     # the rule, in words


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
        return TreeChoice("infiniband", "1", f"more than {LARGE_NODES} nodes: InfiniBand is the only choice")
    if params_b > LARGE_PARAMS_B:
        return TreeChoice("infiniband", "2", f"more than {LARGE_PARAMS_B:g}B parameters: InfiniBand")
    if nodes <= SMALL_NODES:
        return TreeChoice("roce", "1", f"{SMALL_NODES} nodes or fewer: RoCE")
    if budget_stance == "limited" and existing_ethernet:
        return TreeChoice("roce", "3", "limited budget and a good existing Ethernet: RoCE")
    if operations_team == "weak":
        return TreeChoice("roce", "4", "weak operations team: RoCE is easier to run")
    if params_b <= SMALL_PARAMS_B:
        return TreeChoice("roce", "2", f"{SMALL_PARAMS_B:g}B parameters or fewer: RoCE")
    return TreeChoice("infiniband", "1", f"{SMALL_NODES}-{LARGE_NODES} nodes with a {SMALL_PARAMS_B:g}B-"
                                         f"{LARGE_PARAMS_B:g}B model: InfiniBand preferred")


def tree_for_scenario(s) -> TreeChoice:
    """The decision tree on a scenario's nodes, model size and goals."""
    g = s.goals
    return decision_tree(s.cluster.nodes, s.workload.params_b, g.budget_stance, g.existing_ethernet,
                         g.operations_team)


@dataclass(frozen=True)
class EngineChoice:
    fabric: str | None
    criterion: str          # "lowest TCO within the deadline", ...
    runner_up: str | None
    margin: float           # relative advantage over the runner-up on the criterion [-]
    met: bool               # False when no fabric meets the deadline / budget (fastest given instead)


def _budget_in(s, currency):
    g, rate = s.goals, s.economics.cny_per_usd
    if g.budget_cny is not None:
        return g.budget_cny if currency == "CNY" else g.budget_cny / rate
    if g.budget_usd is not None:
        return g.budget_usd * rate if currency == "CNY" else g.budget_usd
    return None


def engine_choice(res, deadline_days=None, budget=None) -> EngineChoice:
    """The engine's recommendation from an :func:`~model.evaluate` result.

    Parameters
    ----------
    res : Result
        Per-fabric arrays of shape (F,).
    deadline_days : float, optional
        Longest acceptable run, with interruptions [days].
    budget : float, optional
        Largest acceptable TCO, in the result's currency.
    """
    names = list(res.fabrics)
    days = np.asarray(res["train_days_with_interruptions"], dtype=float)
    tco = np.asarray(res["tco"], dtype=float)
    per_run = np.asarray(res["cost_per_run"], dtype=float)
    ok = np.isfinite(days)
    if deadline_days is not None:
        key, crit, ok2 = tco, f"lowest TCO finishing within {deadline_days:g} days", ok & (days <= deadline_days)
    elif budget is not None:
        key, crit, ok2 = days, "fastest within the TCO budget", ok & (tco <= budget)
    else:
        key, crit, ok2 = per_run, "lowest cost per run", ok
    met = bool(np.any(ok2))
    if not met:  # nothing meets it: the fastest fabric, said so
        key, crit, ok2 = days, crit + " (none does: fastest instead)", ok
    if not np.any(ok2):
        return EngineChoice(None, crit, None, float("nan"), False)
    order = [i for i in np.argsort(np.where(ok2, key, np.inf)) if ok2[i]]
    best = order[0]
    if len(order) > 1:
        second = order[1]
        margin = float((key[second] - key[best]) / key[second]) if key[second] else 0.0
        return EngineChoice(names[best], crit, names[second], margin, met)
    return EngineChoice(names[best], crit, None, float("nan"), met)


def budget_for(s, res):
    """The scenario's TCO budget in the result's currency (``None`` when it has none)."""
    return _budget_in(s, str(np.asarray(res["currency"]).reshape(-1)[0]))


def engine_choice_for(s, res) -> EngineChoice:
    """:func:`engine_choice` with the scenario's deadline and budget."""
    return engine_choice(res, s.goals.deadline_days, budget_for(s, res))


def disagreement_reason(res, tree_fabric: str, engine_fabric: str | None, criterion: str = "",
                        deadline_days=None, budget=None) -> str:
    """One sentence on why the engine's pick differs from the tree's ("" when they agree)."""
    if engine_fabric is None or tree_fabric == engine_fabric:
        return ""
    if tree_fabric not in res.fabrics:
        return f"The tree names {tree_fabric}, which this scenario does not compare."
    lab = dict(zip(res.fabrics, res.labels))
    i, j = res.fabric_index(engine_fabric), res.fabric_index(tree_fabric)
    d = np.asarray(res["train_days_with_interruptions"], dtype=float)
    c = np.asarray(res["tco"], dtype=float)
    e, t = _short(lab[engine_fabric]), _short(lab[tree_fabric])
    days = f"{d[i]:.1f} vs {d[j]:.1f} days"
    why = "the tree looks at node count and model size, not at link speed, latency or price"
    if "none does" in criterion:
        return f"No fabric meets the goal, and {e} is the fastest ({days} for {t}); {why}."
    if criterion.startswith("lowest TCO"):
        if deadline_days is not None and not d[j] <= deadline_days:
            return (f"{t} misses the {deadline_days:g}-day deadline ({d[j]:.1f} days) and {e} meets it "
                    f"({d[i]:.1f}); {why}.")
        return f"{e} meets the deadline at {_pct(c[i], c[j])} TCO than {t} ({days}); {why}."
    if criterion.startswith("fastest"):
        if budget is not None and not c[j] <= budget:
            return f"{t}'s TCO is over the budget and {e} is the fastest fabric within it ({days}); {why}."
        return f"{e} is faster than {t} within the budget ({days}); {why}."
    per_run = np.asarray(res["cost_per_run"], dtype=float)
    return f"{e} costs {_pct(per_run[i], per_run[j], 'less', 'more')} per run than {t} ({days}); {why}."


def _pct(x, ref, lower="lower", higher="higher") -> str:
    """'12.3% lower' / '4.0% higher' for x against ref."""
    r = (x - ref) / ref * 100.0
    return f"{abs(r):.1f}% {lower if r < 0 else higher}"


def _short(label: str) -> str:
    return label.split(" (")[0]


def recommendation(s, res) -> dict:
    """Tree and engine side by side, with the reason when they differ (plain data for the GUI and exports)."""
    tree = tree_for_scenario(s)
    eng = engine_choice_for(s, res)
    return dict(tree_fabric=tree.fabric, tree_rule=tree.rule, tree_reason=tree.reason,
                engine_fabric=eng.fabric, engine_criterion=eng.criterion, runner_up=eng.runner_up,
                margin=eng.margin, criterion_met=eng.met, agree=tree.fabric == eng.fabric,
                reason=disagreement_reason(res, tree.fabric, eng.fabric, eng.criterion, s.goals.deadline_days,
                                           budget_for(s, res)))
