"""Hostile files and paths: every TOML read goes through one guard, names the line, costs little and
never raises anything but the app's error; unusable paths and usage errors are one line, exit 2."""

from __future__ import annotations

import errno
import os
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import model
from gui.cli.main import main
from model import ScenarioError, files
from model.fields import MAX_LABEL_CHARS

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = str(ROOT / "assets/presets/default.toml")
NCCL_LOG = str(ROOT / "assets/validation/nccl/ib_h100_2node_ndr_ring_tuned_allreduce.txt")
LONG_NAME = "x" * 300  # longer than any file system's name limit (255 bytes)


def run(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse
        code = stop.code
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# --------------------------------------------------------------------------
# the parser guard
# --------------------------------------------------------------------------

def test_an_integer_beyond_what_python_converts_names_the_line(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text("[cluster]\ngpu = \"H100-SXM\"\nnodes = " + "1" * 5000 + "\n")
    with pytest.raises(ScenarioError) as info:
        model.load_scenario(path)
    msg = str(info.value)
    assert str(path) in msg and "line 3" in msg and "5,000" in msg, msg


def test_the_same_guard_reads_text_from_the_settings():
    with pytest.raises(ScenarioError, match="last session: line 2"):
        model.parse_scenario_text("[workload]\nparams_b = " + "9" * 4400 + "\n", source="last session")


def test_digits_inside_strings_and_comments_are_text_not_numbers(tmp_path):
    digits = "7" * 5000
    scen = model.parse_scenario_text(f'description = "{digits}"\n# {digits}\n[cluster]\nnodes = 4\n')
    assert scen.description == digits and scen.cluster.nodes == 4


@pytest.mark.parametrize("key", ["a." * 19_999 + "a = 1\n", '"a".' * 19_999 + '"a" = 1\n',
                                 "[" + "a." * 19_999 + "a]\n"])
def test_a_key_of_twenty_thousand_dotted_parts_is_refused_cheaply(key):
    tracemalloc.start()
    try:
        with pytest.raises(ScenarioError) as info:
            model.parse_scenario_text("[cluster]\nnodes = 4\n" + key, source="deep.toml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    msg = str(info.value)
    assert "deep.toml: line 3" in msg and f"at most {files.MAX_KEY_PARTS} parts" in msg, msg
    assert peak < 20 * 1024 * 1024, peak  # the parser took 1.5 GB


def test_the_deepest_key_a_scenario_has_still_reads():
    scen = model.parse_scenario_text('fabric.custom.mine.transport = "roce"\nfabric.custom.mine.link_gbps = 200.0\n')
    assert scen.fabric.custom_dict()["mine"].link_gbps == 200.0


@pytest.mark.parametrize("text", ["# only a comment\n", "\n# one\n\n# two\n", "\ufeff# after a byte-order mark\n"])
def test_a_comment_only_file_is_refused_like_an_empty_one(tmp_path, text):
    empty, comments = tmp_path / "empty.toml", tmp_path / "comments.toml"
    empty.write_text("")
    comments.write_text(text, encoding="utf-8")
    errors = []
    for path in (empty, comments):
        with pytest.raises(ScenarioError) as info:
            model.load_scenario(path)
        errors.append(info.value)
    assert errors[1].allowed == errors[0].allowed and errors[1].value == "only comments"


def test_the_cli_names_the_line_of_a_hostile_file_in_one_line(tmp_path, capsys):
    path = tmp_path / "big.toml"
    path.write_text("[cluster]\nnodes = " + "1" * 5000 + "\n")
    code, _, err = run(["evaluate", str(path)], capsys)
    assert code == 2 and "line 2" in one_line(err) and "ValueError" not in err


# --------------------------------------------------------------------------
# fabric names
# --------------------------------------------------------------------------

def test_fabric_names_have_a_limit_like_labels():
    ok = "n" * MAX_LABEL_CHARS
    scen = model.parse_scenario_text(f'[fabric.custom.{ok}]\ntransport = "roce"\n')
    assert ok in scen.fabric.fabrics
    long = "n" * 40_000
    with pytest.raises(ScenarioError) as info:
        model.parse_scenario_text(f'[fabric.custom.{long}]\ntransport = "roce"\n')
    assert "fabric.custom" in str(info.value) and f"at most {MAX_LABEL_CHARS} characters" in str(info.value)
    assert len(str(info.value)) < 300


# --------------------------------------------------------------------------
# paths that cannot be looked up, and usage errors: one line, exit 2
# --------------------------------------------------------------------------

def _commands(tmp_path, bad: str):
    return {
        "evaluate": ["evaluate", bad + ".toml"],
        "evaluate in a folder": ["evaluate", f"{bad}/s.toml"],
        "export --out": ["export", DEFAULT, "--out", bad + ".csv", "--chart", "tco"],
        "export --out in a folder": ["export", DEFAULT, "--out", f"{bad}/c.csv", "--chart", "tco"],
        "calibrate": ["calibrate", bad + ".log"],
        "calibrate --out": ["calibrate", NCCL_LOG, "--link-gbps", "400", "--scenario", DEFAULT,
                            "--out", str(tmp_path / (bad + ".toml"))],
        "nccl --compare": ["nccl", DEFAULT, "--fabric", "infiniband", "--compare", f"{bad}/x.log"],
    }


@pytest.mark.parametrize("command", sorted(_commands(Path("."), LONG_NAME)))
def test_a_name_too_long_for_the_file_system_is_one_named_line(tmp_path, capsys, command):
    if command.startswith("calibrate --out") and not Path(NCCL_LOG).exists():
        pytest.skip("the nccl-tests log is not here")
    code, _, err = run(_commands(tmp_path, LONG_NAME)[command], capsys)
    assert code == 2 and LONG_NAME in one_line(err), err


def test_a_folder_that_cannot_be_searched_is_one_named_line(tmp_path, capsys, monkeypatch):
    """As root every folder can be searched, so the system's refusal is played by os.stat."""
    locked = tmp_path / "locked"
    real_stat = os.stat

    def stat(path, *args, **kwargs):
        if str(path).startswith(str(locked)) and str(path) != str(locked):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    locked.mkdir()
    monkeypatch.setattr(os, "stat", stat)
    code, _, err = run(["export", DEFAULT, "--out", str(locked / "c.csv"), "--chart", "tco"], capsys)
    assert code == 2 and str(locked / "c.csv") in one_line(err) and "Permission denied" in err


@pytest.mark.parametrize("argv", [["evaluate"], ["nope"], ["nccl", DEFAULT, "--algorithm", "x"],
                                  ["evaluate", DEFAULT, "--bogus"], []])
def test_usage_errors_are_one_line_exit_2(capsys, argv):
    code, _, err = run(argv, capsys)
    assert code == 2 and one_line(err).startswith("fabric-whatif")


def test_nccl_columns_never_run_together_at_a_hundred_thousand_nodes(capsys):
    code, out, _ = run(["nccl", DEFAULT, "--fabric", "ethernet", "--nodes", "100000"], capsys)
    assert code == 0
    lines = out.splitlines()
    header = lines[1].lstrip("#").split()
    rows = [line.split() for line in lines[3:]]
    assert rows and all(len(r) == len(header) for r in rows), [r for r in rows if len(r) != len(header)]
    assert all(r[4] == "-1" for r in rows)  # the root column stands alone, the time beside it


# --------------------------------------------------------------------------
# no NumPy warning from a normal command (the suite turns warnings into errors)
# --------------------------------------------------------------------------

def test_a_scenario_whose_baseline_costs_nothing_charts_without_warnings(tmp_path):
    from gui.present.series import chart_series
    from gui.present.sweep import compute_snapshot

    path = tmp_path / "free.toml"
    path.write_text("[cluster]\nnodes = 8\n[economics]\nserver_price_usd = 0.0\nelectricity_usd_per_kwh = 0.0\n"
                    "network_pricing = \"components\"\n[fabric.custom.ethernet]\nswitch_price_usd = 0.0\n"
                    "nic_price_usd = 0.0\nlink_price_usd = 0.0\n")
    snap = compute_snapshot(model.load_scenario(path), "cluster.nodes")
    data = chart_series(snap.sweep, "tco")
    assert data.relative and not np.isfinite(data.series[0].y).any()  # no percentage of 0, and no warning


def test_break_even_of_two_fabrics_that_both_never_finish_warns_nothing():
    from model.analysis import break_even

    inf = np.inf
    result = SimpleNamespace(x=np.array([1.0, 2.0, 3.0, 4.0]), fabrics=("a", "b"),
                             fabric_index=("a", "b").index,
                             metric={"train_days": np.array([[inf, inf, 5.0, 3.0], [inf, inf, 4.0, 4.0]])}.get)
    crossings = break_even(result, "a", "b", "train_days")
    assert [round(c.x, 3) for c in crossings] == [3.0] or len(crossings) == 1


# --------------------------------------------------------------------------
# fabric labels stay distinct
# --------------------------------------------------------------------------

def test_a_builtin_fabric_moved_to_another_transport_keeps_its_own_label():
    scen = model.parse_scenario_text('[fabric.custom.infiniband]\ntransport = "tcp"\n')
    labels = model.evaluate(scen).labels
    assert len(set(labels)) == len(labels), labels
    assert labels[scen.fabric.fabrics.index("infiniband")].startswith("InfiniBand")


def test_two_fabrics_given_the_same_label_are_told_apart_by_name():
    scen = model.parse_scenario_text('[fabric.custom.roce]\nlabel = "InfiniBand"\n')
    labels = [r.label for r in model.resolve_fabrics(scen)]
    assert len(set(labels)) == len(labels) and "InfiniBand [roce]" in labels, labels
