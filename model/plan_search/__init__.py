"""The plan search: the fastest parallel plan that fits, per fabric and point, exactly and vectorised.

- :mod:`.candidates`: the plans tried (degrees, micro-batch, virtual stages, recompute kind, ZeRO stage).
- :mod:`.pairs`: the (point, plan) pairs that fit, with their step geometry (cached).
- :mod:`.bounds`: lower bounds of a pair's step on any fabric, so that most pairs are never timed.
- :mod:`.search`: the search itself; its result is that of timing every pair.

The engine calls :func:`search_plans`; :func:`clear_plan_cache` makes the next evaluation a cold one.
"""

from __future__ import annotations

from typing import NamedTuple

from .. import inputs, nccl_model, network, plan_fit
from . import bounds, candidates, pairs, search
from .candidates import PLAN_ARRAY_KEYS, PLAN_POINT_KEYS, plan_candidates
from .pairs import PlanPairs, plan_pairs
from .search import search_plans


class PlanCacheInfo(NamedTuple):
    """How the plan-search cache has served lookups (as :func:`functools.lru_cache`'s ``cache_info``)."""
    hits: int  # plan searches answered from the cache
    misses: int  # plan searches run from scratch
    size: int  # entries held now


def clear_plan_cache() -> None:
    """Forget the cached plan-search geometry and its counts, and the memos a session's repeated sweeps of one
    scenario reuse (the resolved fabric rows, the network state, the usable candidates per sweep range, the
    divisor tables, the single in-node collectives): the next evaluation computes everything from scratch, as a
    cold call (benchmarks time it so). Each module clears its own.
    """
    pairs.clear_cache()
    search.clear_cache()
    inputs.clear_cache()
    network.clear_cache()
    candidates.clear_cache()
    plan_fit.clear_cache()
    nccl_model.clear_memo()


def plan_cache_info() -> PlanCacheInfo:
    """Hits, misses and size of the plan-search cache since it was last cleared."""
    return PlanCacheInfo(*pairs.cache_counts())


__all__ = ["PLAN_ARRAY_KEYS", "PLAN_POINT_KEYS", "PlanCacheInfo", "PlanPairs", "bounds", "candidates", "clear_plan_cache",
           "pairs", "plan_cache_info", "plan_candidates", "plan_pairs", "search", "search_plans"]
