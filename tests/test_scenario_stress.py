"""Every valid scenario evaluates to finite numbers or is refused with a ScenarioError, nothing else.

Scenarios are drawn from the fields' own metadata (types, limits, choices), so a field added
to ``model/scenario.py`` is fuzzed without touching this file. Extremes are drawn on purpose
(hypothesis favours the limits): a value the validation accepts must not give an infinite
output, a NumPy warning or an exception other than :class:`ScenarioError`.
"""

from __future__ import annotations

import dataclasses
import math
import os
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import model
from model import ScenarioError, catalog
from model.fields import _base_types, field_meta
from model.scenario import scenario_from_dict
from model.sections import SECTIONS, FabricSpec

STRESS = settings(max_examples=int(os.environ.get("FABRIC_STRESS_EXAMPLES", "60")), deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# outputs that are infinite by meaning, not by overflow: no interruptions at all means an infinite MTBF
INFINITE_BY_MEANING = {"mtbf_h"}


def _value(cls, f: dataclasses.Field):
    meta = field_meta(cls, f.name)
    kinds = [k for k in _base_types(f.type) if k is not type(None)]
    if meta.get("choices"):
        return st.sampled_from(meta["choices"])
    if f.name == "gpu":
        return st.sampled_from(sorted(catalog.gpus()))
    if f.name == "nics_per_node":
        return st.one_of(st.just("per_gpu"), st.integers(meta["lo"], meta["hi"]))
    if bool in kinds:
        return st.booleans()
    lo, hi = meta.get("lo"), meta.get("hi")
    if int in kinds and float not in kinds:
        return st.integers(lo if lo is not None else 0, hi if hi is not None else 10**6)
    if float in kinds:
        numbers = st.floats(min_value=lo, max_value=hi, exclude_min=bool(meta.get("lo_open")) and lo is not None,
                            allow_nan=False, allow_infinity=hi is None)
        return st.one_of(numbers, st.just(math.inf)) if meta.get("inf_ok") else numbers
    if str in kinds:
        return st.text(max_size=20)
    return st.nothing()


def _section(cls, skip=()):
    fields = [f for f in dataclasses.fields(cls) if f.name not in skip]
    return st.fixed_dictionaries({}, optional={f.name: _value(cls, f) for f in fields})


@st.composite
def valid_dicts(draw):
    doc = {}
    for name, cls in SECTIONS.items():
        if name == "fabric":
            continue
        skip = ("layers", "hidden", "heads") if name == "workload" else ()
        doc[name] = draw(_section(cls, skip))
    if draw(st.booleans()):  # an explicit architecture: heads divide hidden
        heads = draw(st.sampled_from([8, 16, 32, 64]))
        doc["workload"].update(layers=draw(st.integers(1, 200)), heads=heads,
                               hidden=heads * draw(st.integers(1, 256)))
    fabric = {"profile_set": draw(st.sampled_from(catalog.PROFILE_SETS))}
    custom = {}
    for name in draw(st.lists(st.sampled_from([*catalog.BUILTIN_FABRICS, "mine", "lab"]), max_size=3, unique=True)):
        spec = draw(_section(FabricSpec))
        if name not in catalog.BUILTIN_FABRICS:
            spec["transport"] = draw(st.sampled_from(("tcp", "roce", "iwarp", "infiniband")))
        custom[name] = spec
    if custom:
        fabric["custom"] = custom
    doc["fabric"] = fabric
    return doc


def _non_finite(result, feasible):
    """Paths of float outputs that are not finite where the fabric's plan fits."""
    bad = []
    for path, a in result.arrays():
        if path.split("/")[1] in INFINITE_BY_MEANING:
            continue
        if a.dtype.kind == "f" and a.shape[:1] == feasible.shape:
            rows = a[feasible].reshape(-1)
            if rows.size and not np.all(np.isfinite(rows)):
                bad.append(path)
    return bad


@STRESS
@given(valid_dicts())
def test_every_valid_scenario_evaluates_to_finite_numbers_or_is_refused(doc):
    try:
        scen = scenario_from_dict(doc)
    except ScenarioError:
        return  # a cross-field rule (tp × pp, batch divisibility ...) refused it, with a message
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no NumPy overflow or division warnings on stderr either
        try:
            res = model.evaluate(scen, require_feasible=False)
        except ScenarioError as err:
            assert str(err) and "\n" not in str(err)
            return
    feasible = np.asarray(res.plan.feasible, dtype=bool)
    assert _non_finite(res, feasible) == [], scen


@STRESS
@given(st.sampled_from(["cluster.nodes", "workload.params_b"]), valid_dicts())
def test_a_sweep_of_a_valid_scenario_never_overflows(field, doc):
    try:
        scen = scenario_from_dict(doc)
    except ScenarioError:
        return
    meta = field_meta(*((SECTIONS["cluster"], "nodes") if field == "cluster.nodes" else
                        (SECTIONS["workload"], "params_b")))
    values = np.geomspace(max(meta["lo"], 1), meta["hi"], 9)
    if field == "cluster.nodes":
        values = np.round(values)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            res = model.sweep(scen, field, values)
        except ScenarioError:
            return
    days = np.asarray(res.reliability.train_days_with_interruptions, dtype=float)
    assert not np.any(np.isinf(days))  # a run that never finishes is NaN (a gap), never infinite
    assert all(math.isfinite(x) for x in res.x)


def test_a_sweep_where_no_plan_fits_anywhere_is_all_gaps_without_warnings():
    # 27 chunks a stage split the default model's 48 layers on no pipeline (not 48, 49 nor 50 layers' worth on p
    # stages; 25 would: one-layer chunks on 2 stages, the embedding and the loss in the end chunks)
    doc = {"cluster": {"gpu": "A10", "gpus_per_node": 1, "host_cores": 1, "cpu_for_network_fraction": 1.0},
           "parallel": {"virtual_stages": 27}, "fabric": {"profile_set": "seed"}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = model.sweep(scenario_from_dict(doc), "cluster.nodes", [1.0, 16.0, 4096.0])
    days = np.asarray(res.reliability.train_days_with_interruptions, dtype=float)
    assert np.all(np.isnan(days))
