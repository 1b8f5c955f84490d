"""Fuzz the scenario loader: any bytes, any near-valid document, loads or raises ScenarioError, nothing else."""

from __future__ import annotations

import datetime as dt
import os
import tomllib
from pathlib import Path

import tomli_w
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import model
from model import ScenarioError, files
from model.files import parse_scenario_text
from model.sections import SECTIONS

DATA = Path(__file__).parent / "data"
PRESETS = Path(__file__).parent.parent / "assets" / "presets"
VALID_TEXT = (DATA / "scenario_v1.toml").read_text(encoding="utf-8")
# Bases for near-valid documents: every fixture and preset, so every section is mutated.
BASE_DOCS = [tomllib.loads(p.read_text(encoding="utf-8"))
             for p in sorted(DATA.glob("scenario_v*.toml")) + sorted(PRESETS.glob("*.toml"))]

# FABRIC_FUZZ_EXAMPLES=5000 for a long run before a release.
FUZZ = settings(max_examples=int(os.environ.get("FABRIC_FUZZ_EXAMPLES", "300")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def _load_or_scenario_error(path) -> model.Scenario | None:
    try:
        return model.load_scenario(path)
    except ScenarioError as err:
        assert str(err)  # every error has a message
        return None


def _parse_or_scenario_error(text: str) -> model.Scenario | None:
    try:
        return parse_scenario_text(text, source="fuzz.toml")
    except ScenarioError as err:
        assert str(err).startswith("fuzz.toml")  # the file is named
        return None


@FUZZ
@given(st.binary(max_size=2000))
@example(b"\x00")
@example(b"\xef\xbb\xbfname = 'bom'")
@example(b"schema_version = 1\n[cluster]\nnodes = 1e400\n")
@example(b"schema_version = 99999999999999999999\n")
def test_random_bytes(tmp_path, raw):
    path = tmp_path / "fuzz.toml"
    path.write_bytes(raw)
    _load_or_scenario_error(path)


@FUZZ
@given(st.text(max_size=400))
def test_random_text(text):
    _parse_or_scenario_error(text)


# Values of every TOML type, including the awkward ones.
toml_scalars = st.one_of(
    st.integers(min_value=-2**63, max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=20),
    st.sampled_from(["per_gpu", "auto", "explicit", "tcp", "roce", "infiniband", "seed", "published", "roce",
                     "ethernet", "none", "full", "A100-SXM-80GB", "H100-SXM", ""]),
    st.dates(), st.times(), st.datetimes(),
    st.datetimes(timezones=st.just(dt.timezone.utc)),
)
toml_values = st.recursive(
    toml_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(min_size=1, max_size=8), inner, max_size=4)),
    max_leaves=8,
)

FIELD_NAMES = sorted({f for cls in SECTIONS.values() for f in cls.__dataclass_fields__} |
                     {"schema_version", "name", "description", "custom", "compare", "roce", "infiniband"})


def _paths(doc, prefix=()):
    """Every (path) to a key in a nested document."""
    for key, value in doc.items():
        yield prefix + (key,)
        if isinstance(value, dict):
            yield from _paths(value, prefix + (key,))




def _mutate(doc: dict, op: str, path: tuple, value, new_key: str) -> dict:
    import copy

    doc = copy.deepcopy(doc)
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    if op == "set":
        parent[path[-1]] = value
    elif op == "delete":
        del parent[path[-1]]
    elif op == "add":
        target = parent[path[-1]] if isinstance(parent[path[-1]], dict) else parent
        target[new_key] = value
    elif op == "scale" and isinstance(parent[path[-1]], (int, float)) and not isinstance(parent[path[-1]], bool):
        parent[path[-1]] = parent[path[-1]] * (value if isinstance(value, (int, float)) else -1)
    return doc


def _mutations(doc):
    return st.lists(st.tuples(st.sampled_from(["set", "delete", "add", "scale"]), st.sampled_from(list(_paths(doc))),
                              toml_values, st.sampled_from(FIELD_NAMES) | st.text(min_size=1, max_size=6)),
                    min_size=1, max_size=4)


near_valid = st.sampled_from(BASE_DOCS).flatmap(lambda doc: st.tuples(st.just(doc), _mutations(doc)))


@FUZZ
@given(near_valid)
def test_near_valid_documents(tmp_path, case):
    doc, mutations = case
    for op, path, value, key in mutations:
        try:
            doc = _mutate(doc, op, path, value, key)
        except (KeyError, TypeError):
            continue  # the path went away in an earlier mutation
    try:
        text = tomli_w.dumps(doc)
    except (TypeError, ValueError):
        return  # not representable as TOML (e.g. mixed-type arrays tomli-w refuses)
    scen = _parse_or_scenario_error(text)
    if scen is not None:
        # Whatever loads also saves and loads back equal, and the engine takes it (the app
        # evaluates every scenario it opens: a crash there would be a file crashing the app).
        out = files.save_scenario(scen, tmp_path / "again.toml")
        assert model.load_scenario(out) == scen
        try:
            model.evaluate(scen, require_feasible=False)
        except ScenarioError:
            pass


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(VALID_TEXT)), st.integers(0, 8),
                          st.text(alphabet='[]="\'.,#\n -_0123456789aeiutrfnx{}', max_size=6)),
                min_size=1, max_size=5))
def test_edited_text(edits):
    """Typing in a text editor: cut and insert characters anywhere in a valid file."""
    text = VALID_TEXT
    for at, cut, insert in edits:
        at = min(at, len(text))
        text = text[:at] + insert + text[at + cut:]
    _parse_or_scenario_error(text)
