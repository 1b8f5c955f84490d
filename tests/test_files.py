"""Scenario files: old versions still load, save/load round-trips, writes are atomic, bad files fail clearly."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import model
from model import ScenarioError, files
from model.scenario import MAX_FILE_BYTES, SCHEMA_VERSION, scenario_to_dict

DATA = Path(__file__).parent / "data"
PRESETS = Path(__file__).parent.parent / "assets" / "presets"


def fixture_files():
    return sorted(DATA.glob("scenario_v*.toml"))


# --------------------------------------------------------------------------
# every shipped schema version keeps a file that still loads
# --------------------------------------------------------------------------

def test_every_schema_version_has_a_fixture():
    versions = {int(re.match(r"scenario_v(\d+)", p.name).group(1)) for p in fixture_files()}
    assert versions == set(range(1, SCHEMA_VERSION + 1)), (
        "add tests/data/scenario_v<N>.toml for every schema version that ships")


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.name)
def test_old_fixture_loads_and_evaluates(path):
    scen = model.load_scenario(path)
    res = model.evaluate(scen)
    assert len(res.fabrics) >= 1
    assert bool(res.plan.feasible.all())


def test_fixture_v1_keeps_every_value():
    s = model.load_scenario(DATA / "scenario_v1.toml")
    assert s.cluster.gpu == "H100-SXM" and s.cluster.nodes == 32 and s.cluster.host_cores == 96
    assert (s.workload.layers, s.workload.hidden, s.workload.heads) == (80, 8192, 64)
    assert (s.parallel.tp, s.parallel.pp) == (8, 4)
    assert s.fabric.compare == ("ethernet", "roce", "infiniband", "roce400x4")
    custom = s.fabric.custom_dict()
    assert custom["roce"].latency_us == 4.0 and custom["roce400x4"].nics_per_node == 4


# --------------------------------------------------------------------------
# save / load round-trips exactly
# --------------------------------------------------------------------------

@pytest.mark.parametrize("path", fixture_files() + sorted(PRESETS.glob("*.toml")), ids=lambda p: p.name)
def test_save_load_round_trips(path, tmp_path):
    scen = model.load_scenario(path)
    out = files.save_scenario(scen, tmp_path / "saved.toml")
    again = model.load_scenario(out)
    assert again == scen
    assert scenario_to_dict(again) == scenario_to_dict(scen)
    # Saving what was loaded writes the same bytes: nothing drifts between saves.
    files.save_scenario(again, tmp_path / "saved2.toml")
    assert (tmp_path / "saved.toml").read_bytes() == (tmp_path / "saved2.toml").read_bytes()


def test_round_trip_keeps_awkward_values(tmp_path):
    scen = model.Scenario(name='Quotes "and" \\ back\nslash, 中文, émoji 🚀', description="line 1\nline 2\t")
    scen = scen.replace("workload.params_b", 0.1 + 0.2).replace("fabric.custom.roce.loss_rate", 1e-9)
    scen = scen.replace("fabric.custom.infiniband.cpu_gbps_per_core", float("inf"))
    again = model.load_scenario(files.save_scenario(scen, tmp_path / "s.toml"))
    assert again == scen
    assert again.workload.params_b == 0.1 + 0.2


def test_saved_file_says_its_schema_version(tmp_path):
    files.save_scenario(model.Scenario(), tmp_path / "s.toml")
    assert f"schema_version = {SCHEMA_VERSION}" in (tmp_path / "s.toml").read_text()


# --------------------------------------------------------------------------
# atomic writes
# --------------------------------------------------------------------------

def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_atomic_write_replaces_and_leaves_no_temp_file(tmp_path):
    target = tmp_path / "a.toml"
    files.atomic_write(target, "one")
    files.atomic_write(target, "two")
    assert target.read_text() == "two"
    assert _leftovers(tmp_path) == []


def test_failed_write_keeps_old_file_and_leaves_nothing(tmp_path, monkeypatch):
    target = tmp_path / "a.toml"
    files.save_scenario(model.Scenario(name="old"), target)
    before = target.read_bytes()

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", boom)
    with pytest.raises(ScenarioError) as info:
        files.save_scenario(model.Scenario(name="new"), target)
    assert str(target) in str(info.value) and "No space left" in str(info.value)
    assert target.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_atomic_write_keeps_permissions(tmp_path):
    target = tmp_path / "a.toml"
    target.write_text("x")
    os.chmod(target, 0o640)
    files.atomic_write(target, "y")
    assert target.stat().st_mode & 0o777 == 0o640


def test_unwritable_destination_under_a_regular_file(tmp_path):
    # Root ignores file modes, so an unwritable place is a path below a regular file.
    blocker = tmp_path / "blocker"
    blocker.write_text("I am a file")
    for dest in (blocker / "s.toml", blocker / "deeper" / "s.toml"):
        with pytest.raises(ScenarioError) as info:
            files.save_scenario(model.Scenario(), dest)
        msg = str(info.value)
        assert str(dest) in msg and "not writable" in msg and str(blocker) in msg
    assert blocker.read_text() == "I am a file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker"]


@pytest.mark.parametrize("kind", ["folder", "missing_parent", "empty"])
def test_bad_destinations(tmp_path, kind):
    dest = {"folder": tmp_path, "missing_parent": tmp_path / "nope" / "s.toml", "empty": ""}[kind]
    with pytest.raises(ScenarioError) as info:
        files.save_scenario(model.Scenario(), dest)
    assert str(dest) in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_scenario_too_large_to_reload_is_refused(tmp_path):
    scen = model.Scenario(description="x" * (MAX_FILE_BYTES + 10))
    with pytest.raises(ScenarioError, match="description"):
        files.save_scenario(scen, tmp_path / "big.toml")
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------
# bad input: one clear message naming file, field, value and what is allowed
# --------------------------------------------------------------------------

VALID = (DATA / "scenario_v1.toml").read_text(encoding="utf-8")

BAD_TEXT = {
    # case: (document, words the message must contain)
    "malformed_toml": ("[cluster\nnodes = 4\n", ["not valid TOML", "line 1"]),
    "wrong_type": (VALID.replace("nodes = 32", 'nodes = "many"'), ["cluster.nodes", "'many'", "whole number"]),
    "bool_for_int": (VALID.replace("nodes = 32", "nodes = true"), ["cluster.nodes", "True", "whole number"]),
    "out_of_range": (VALID.replace("nodes = 32", "nodes = 0"), ["cluster.nodes", "0", "from 1 to 100000"]),
    "negative_loss": (VALID.replace("loss_rate = 0.0001", "loss_rate = -0.1"),
                      ["fabric.custom.roce.loss_rate", "-0.1", "from 0.0 to 0.5"]),
    "nan": (VALID.replace("params_b = 70.0", "params_b = nan"), ["workload.params_b", "nan", "a number"]),
    "unknown_key": (VALID.replace("nodes = 32", "nodes = 32\nnodez = 3"), ["cluster.nodez", "unknown key", "nodes"]),
    "unknown_section": (VALID + "\n[economy]\nx = 1\n", ["economy", "unknown section"]),
    "future_schema": (VALID.replace("schema_version = 1", f"schema_version = {SCHEMA_VERSION + 1}"),
                      ["schema_version", str(SCHEMA_VERSION + 1), "newer Fabric What-If"]),
    "schema_not_int": (VALID.replace("schema_version = 1", 'schema_version = "1"'), ["schema_version", "'1'"]),
    "unknown_choice": (VALID.replace('recompute = "selective"', 'recompute = "partial"'),
                       ["workload.recompute", "'partial'", "none, selective, full"]),
    "unknown_gpu": (VALID.replace('gpu = "H100-SXM"', 'gpu = "H100-SMX"'), ["cluster.gpu", "did you mean"]),
    "section_not_table": ('schema_version = 1\ncluster = 3\n', ["cluster", "a table"]),
    "empty": ("", ["empty file"]),
    "whitespace_only": ("  \n\t\n", ["empty file"]),
}


@pytest.mark.parametrize("case", sorted(BAD_TEXT))
def test_bad_file_names_file_field_value_and_allowed(tmp_path, case):
    text, words = BAD_TEXT[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        model.load_scenario(path)
    msg = str(info.value)
    assert str(path) in msg
    for w in words:
        assert w in msg, (w, msg)
    assert "\n" not in msg.strip() or case == "malformed_toml"


def test_binary_junk(tmp_path):
    path = tmp_path / "junk.toml"
    path.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(ScenarioError, match="binary data"):
        model.load_scenario(path)


def test_nul_bytes_in_utf8(tmp_path):
    path = tmp_path / "nul.toml"
    path.write_bytes(b"name = \"a\x00b\"\n")
    with pytest.raises(ScenarioError) as info:
        model.load_scenario(path)
    assert str(path) in str(info.value)


def test_very_large_file(tmp_path):
    path = tmp_path / "huge.toml"
    with open(path, "wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(ScenarioError) as info:
        model.load_scenario(path)
    assert str(path) in str(info.value) and f"at most {MAX_FILE_BYTES} bytes" in str(info.value)


@pytest.mark.parametrize("kind", ["missing", "folder", "under_a_file"])
def test_missing_or_unreadable_path(tmp_path, kind):
    (tmp_path / "file").write_text("x")
    path = {"missing": tmp_path / "nope.toml", "folder": tmp_path,
            "under_a_file": tmp_path / "file" / "s.toml"}[kind]
    with pytest.raises(ScenarioError) as info:
        model.load_scenario(path)
    assert str(path) in str(info.value)


# --------------------------------------------------------------------------
# recent files
# --------------------------------------------------------------------------

def test_recent_files_newest_first_unique_and_bounded(tmp_path):
    rec = files.RecentFiles(tmp_path / "cfg" / "recent.json", limit=3)
    assert rec.paths() == []
    for name in "abcdb":
        (tmp_path / f"{name}.toml").write_text("")
        rec.add(tmp_path / f"{name}.toml")
    assert [Path(p).stem for p in rec.paths()] == ["b", "d", "c"]
    (tmp_path / "d.toml").unlink()
    assert [Path(p).stem for p in rec.existing()] == ["b", "c"]
    rec.remove(tmp_path / "b.toml")
    assert [Path(p).stem for p in rec.paths()] == ["d", "c"]
    assert files.RecentFiles(tmp_path / "cfg" / "recent.json", limit=3).paths() == rec.paths()
    rec.clear()
    assert rec.paths() == []


@pytest.mark.parametrize("content", [b"", b"\xff\xfe junk", b"[1, 2]", b'{"recent": 3}', b'{"recent": [1, "", null]}'])
def test_recent_files_survive_a_garbled_store(tmp_path, content):
    store = tmp_path / "recent.json"
    store.write_bytes(content)
    rec = files.RecentFiles(store)
    assert rec.paths() == []
    rec.add(tmp_path / "x.toml")
    assert rec.paths() == [str(tmp_path / "x.toml")]


def test_recent_files_in_an_unwritable_place_do_not_raise(tmp_path):
    (tmp_path / "blocker").write_text("")
    rec = files.RecentFiles(tmp_path / "blocker" / "recent.json")
    assert rec.add(tmp_path / "x.toml") == [str(tmp_path / "x.toml")]
    assert rec.paths() == []
