"""Hostile files and values: every one is refused with one named line, nothing blocks, overflows or injects."""

from __future__ import annotations

import dataclasses
import os
import stat
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import model
from gui.cli.main import main, plain_text, result_table
from model import ScenarioError, files
from model.scenario import MAX_FABRICS, MAX_FILE_BYTES, Scenario
from model.sections import Cluster, FabricSpec, Parallel

DEFAULT = "assets/presets/default.toml"
POSIX = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def write(tmp_path, text, name="s.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# --------------------------------------------------------------------------
# reads: regular files only, bounded by the bytes actually read
# --------------------------------------------------------------------------

@POSIX
def test_a_named_pipe_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # no writer: a blocking open would wait for ever
    with pytest.raises(ScenarioError, match="named pipe") as info:
        model.load_scenario(fifo)
    assert str(fifo) in str(info.value) and "regular" in str(info.value)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_link_to_an_endless_device_is_refused(tmp_path):
    link = tmp_path / "zero.toml"
    link.symlink_to("/dev/zero")
    with pytest.raises(ScenarioError, match="a device"):
        model.load_scenario(link)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_the_limit_counts_bytes_read_not_the_reported_size():
    status = Path("/proc/self/status")
    assert status.stat().st_size == 0  # the file system says empty; the file holds about a kilobyte
    with pytest.raises(ScenarioError, match="at most 100 bytes"):
        files.read_bounded(status, limit=100)
    assert len(files.read_bounded(status, limit=1 << 20)) > 100


def test_a_regular_file_over_the_limit_is_refused(tmp_path):
    p = tmp_path / "big.toml"
    p.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(ScenarioError, match=f"at most {MAX_FILE_BYTES} bytes"):
        model.load_scenario(p)


def test_a_byte_order_mark_is_accepted(tmp_path):
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbf[cluster]\nnodes = 4\n")
    assert model.load_scenario(p).cluster.nodes == 4


@pytest.mark.parametrize("text", [
    "name = " + "[" * 600 + "]" * 600,                          # arrays: tomllib recurses
    "[cluster]\nnodes = " + "{a = " * 600 + "1" + "}" * 600,    # inline tables
    "name = " + "[" * 200 + "]" * 200,                          # parses, then fails validation
    "[fabric.custom.x]\nlabel = " + "[" * 300 + "1" + "]" * 300,
])
def test_deep_nesting_is_one_named_line(tmp_path, text):
    p = write(tmp_path, text + "\n")
    with pytest.raises(ScenarioError) as info:
        model.load_scenario(p)
    msg = str(info.value)
    assert str(p) in msg and "\n" not in msg and len(msg) < 400


def test_an_error_about_a_deeply_nested_value_can_be_printed():
    deep: list = []
    cur = deep
    for _ in range(5000):
        cur.append([])
        cur = cur[0]
    err = ScenarioError("name", deep, "text")
    assert "name = [[[" in str(err) and len(str(err)) < 120


@POSIX
@pytest.mark.parametrize("kind", ["deep", "fifo", "huge"])
def test_a_hostile_recent_files_store_reads_as_empty(tmp_path, kind):
    store = tmp_path / "recent.json"
    if kind == "deep":
        store.write_text('{"recent": ' + "[" * 100_000 + "]" * 100_000 + "}")
    elif kind == "fifo":
        os.mkfifo(store)
    else:
        store.write_text('{"recent": ["' + "x" * (files.MAX_RECENT_BYTES + 1) + '"]}')
    assert files.RecentFiles(store).paths() == []


# --------------------------------------------------------------------------
# writes: never through a special file; scenarios are .toml
# --------------------------------------------------------------------------

@POSIX
def test_a_write_never_replaces_a_named_pipe(tmp_path):
    fifo = tmp_path / "out.toml"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError, match="named pipe"):
        files.save_scenario(Scenario(), fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    link = tmp_path / "link.csv"
    link.symlink_to(fifo)
    with pytest.raises(ScenarioError, match="link to a named pipe"):
        files.atomic_write(link, "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and link.is_symlink()


def test_a_link_to_a_regular_file_is_written_through_unless_refused(tmp_path):
    target = tmp_path / "real.toml"
    target.write_text("old")
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    files.atomic_write(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    with pytest.raises(ScenarioError, match="symbolic link"):
        files.atomic_write(link, "newer", follow_symlinks=False)
    assert target.read_text() == "new"


def test_a_loop_of_links_is_one_named_line(tmp_path):
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    with pytest.raises(ScenarioError, match="loop of symbolic links"):
        files.save_scenario(Scenario(), tmp_path / "a.toml")
    with pytest.raises(ScenarioError, match="a.toml"):
        model.load_scenario(tmp_path / "a.toml")


@pytest.mark.parametrize("name", ["chart.png", "scenario", "s.toml.bak"])
def test_a_scenario_is_saved_only_under_a_toml_name(tmp_path, name):
    with pytest.raises(ScenarioError, match=r"ending in \.toml"):
        files.save_scenario(Scenario(), tmp_path / name)
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------
# validation and evaluation: a named line, never a traceback or an infinity
# --------------------------------------------------------------------------

def test_interleaving_without_a_pipeline_is_refused(tmp_path, capsys):
    p = write(tmp_path, '[cluster]\nnodes = 16\n[parallel]\nmode = "explicit"\npp = 1\nvirtual_stages = 2\n')
    with pytest.raises(ScenarioError, match="parallel.virtual_stages"):
        model.load_scenario(p)
    code, _, err = run(["evaluate", str(p)], capsys)
    assert code == 2 and "parallel.virtual_stages = 2" in one_line(err)


def test_the_plan_search_guard_names_the_field_when_validation_is_bypassed():
    s = dataclasses.replace(Scenario(), cluster=Cluster(nodes=16),
                            parallel=Parallel(mode="explicit", pp=1, virtual_stages=4))
    with pytest.raises(ScenarioError, match="parallel.virtual_stages"):
        model.evaluate(s)


def test_an_unforeseen_engine_failure_is_one_line_and_exit_2(monkeypatch, capsys):
    def broken(*_a, **_k):
        raise IndexError("index 0 is out of bounds for axis 0 with size 0")

    monkeypatch.setattr(model, "evaluate", broken)
    code, _, err = run(["evaluate", DEFAULT], capsys)
    line = one_line(err)
    assert code == 2 and "IndexError" in line and "Traceback" not in err


def test_the_number_of_fabrics_is_limited(tmp_path):
    tables = "".join(f'[fabric.custom.f{i}]\ntransport = "roce"\n' for i in range(MAX_FABRICS + 1))
    with pytest.raises(ScenarioError, match=f"at most {MAX_FABRICS}"):
        model.load_scenario(write(tmp_path, tables))
    tables = "".join(f'[fabric.custom.f{i}]\ntransport = "roce"\n' for i in range(MAX_FABRICS - 3))
    with pytest.raises(ScenarioError, match="fabric.compare"):  # 4 built-in + 9 of the user's
        model.load_scenario(write(tmp_path, tables))
    ok = model.load_scenario(write(tmp_path, tables + '[fabric]\ncompare = ["f0", "f1", "roce"]\n'))
    assert ok.fabric.fabrics == ("f0", "f1", "roce")


@pytest.mark.parametrize("label, allowed", [
    ("Lab\x1b]0;pwned\x07", "control characters"),
    ("\u202eevil", "control characters"),
    ("x" * 81, "at most 80 characters"),
])
def test_labels_are_one_line_of_plain_text(label, allowed):
    with pytest.raises(ScenarioError, match=allowed):
        Scenario().replace("fabric.custom.roce.label", label)


def test_markup_in_a_label_is_kept_as_text():
    s = Scenario().replace("fabric.custom.roce.label", "<img src='/etc/passwd'>")
    assert "<img src='/etc/passwd'>" in model.evaluate(s).labels


def test_terminal_output_carries_no_control_characters():
    s = Scenario()
    spec = FabricSpec(label="Lab\x1b[2J\x9b31m")  # as if validation had been bypassed
    s = dataclasses.replace(s, name="n\x1b]0;t\x07", fabric=dataclasses.replace(s.fabric, custom=(("roce", spec),)))
    text = result_table(model.evaluate(s))
    assert "\x1b" not in text and "\x9b" not in text and "\x07" not in text
    assert "Lab\ufffd[2J" in text
    assert plain_text("ok\tµ") == "ok\ufffdµ"


@pytest.mark.parametrize("field, value", [("economics.duty_cycle", 0.0), ("reliability.storage_gb_per_s", 1e-300),
                                          ("cluster.cpu_for_network_fraction", 5e-324),
                                          ("fabric.custom.roce.cpu_gbps_per_core", 1e300)])
def test_values_that_would_overflow_are_refused_at_validation(field, value):
    with pytest.raises(ScenarioError, match=field.replace(".", r"\.")):
        Scenario().replace(field, value)


def test_offloaded_transport_still_takes_infinity():
    s = Scenario().replace("fabric.custom.roce.cpu_gbps_per_core", float("inf"))
    assert np.all(np.isfinite(model.evaluate(s).throughput.step_time_s))


@pytest.mark.parametrize("changes", [{"reliability.checkpoint_interval_min": 1e6},
                                     {"reliability.checkpoint_interval_min": 1e-300},
                                     {"reliability.restart_min": 100_000.0,
                                      "reliability.gpu_host_interruptions_per_1m_gpu_hours": 1000.0}])
def test_a_run_that_never_finishes_is_refused_not_infinite(changes):
    s = Scenario().replace_many(changes)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ScenarioError, match="a run that finishes"):
            model.evaluate(s, require_feasible=False)


def test_a_sweep_shows_a_gap_where_the_run_never_finishes():
    s = Scenario().replace("reliability.checkpoint_interval_min", 600.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = model.sweep(s, "cluster.nodes", np.array([8.0, 24.0, 20_000.0, 100_000.0]))
    days = np.asarray(res.reliability.train_days_with_interruptions)
    assert np.all(np.isfinite(days[:, :2])) and np.any(np.isnan(days[:, -1])) and not np.any(np.isinf(days))


# --------------------------------------------------------------------------
# calibrate: arguments, bounded log, a new file with the comments kept
# --------------------------------------------------------------------------

@pytest.fixture
def log_file(tmp_path):
    sys.path.insert(0, str(Path(__file__).parent))
    from test_nccl_fit import synth_log

    p = tmp_path / "allreduce.txt"
    p.write_text(synth_log(30.0, 80.0))
    return p


@pytest.mark.parametrize("args, named", [
    (["--link-gbps", "0"], "--link-gbps = 0.0"),
    (["--link-gbps", "-5"], "--link-gbps = -5.0"),
    (["--link-gbps", "nan"], "--link-gbps = nan"),
    (["--link-gbps", "400", "--nics-per-node", "0"], "--nics-per-node = 0"),
    (["--ranks", "-4"], "--ranks = -4"),
    (["--nodes", str(10**18)], "--nodes = 1000000000000000000"),
    (["--ranks", "4", "--nodes", "8"], "--ranks = 4"),
    (["--name", "a.b"], "--name = 'a.b'"),
    (["--out", "x.toml"], "--out = 'x.toml'"),
])
def test_calibrate_arguments_are_checked_like_fields(log_file, capsys, args, named):
    code, out, err = run(["calibrate", str(log_file), *args], capsys)
    assert code == 2 and out == ""
    assert one_line(err).startswith(f"fabric-whatif: {named}:")


def test_calibrate_writes_a_new_file_and_keeps_comments(log_file, tmp_path, capsys):
    scen = write(tmp_path, "# my cluster, measured in March\n[cluster]\nnodes = 16  # racks A and B\n")
    before = scen.read_text()
    code, out, _ = run(["calibrate", str(log_file), "--link-gbps", "400", "--scenario", str(scen)], capsys)
    new = tmp_path / "s-measured.toml"
    assert code == 0 and str(new) in out
    assert scen.read_text() == before  # the user's file is untouched
    text = new.read_text()
    assert text.startswith("# my cluster, measured in March\n") and "# racks A and B" in text
    s = model.load_scenario(new)
    assert s.cluster.nodes == 16 and s.fabric.custom_dict()["measured"].link_gbps == 400.0
    # a second run does not overwrite the new file unless asked
    code, _, err = run(["calibrate", str(log_file), "--link-gbps", "400", "--scenario", str(scen)], capsys)
    assert code == 2 and "--overwrite" in one_line(err)
    code, _, _ = run(["calibrate", str(log_file), "--link-gbps", "200", "--scenario", str(scen), "--overwrite"],
                     capsys)
    assert code == 0 and scen.read_text().startswith("# my cluster")
    assert model.load_scenario(scen).fabric.custom_dict()["measured"].link_gbps == 200.0


def test_calibrate_refuses_an_oversized_log(tmp_path, capsys):
    big = tmp_path / "huge.log"
    with open(big, "wb") as fh:
        fh.truncate(files.MAX_LOG_BYTES + 1)
    code, _, err = run(["calibrate", str(big)], capsys)
    assert code == 2 and "at most 16 MiB" in one_line(err)


@POSIX
def test_calibrate_refuses_a_pipe_as_log_and_as_scenario(log_file, tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err = run(["calibrate", str(fifo)], capsys)
    assert code == 2 and "named pipe" in one_line(err)
    code, _, err = run(["calibrate", str(log_file), "--link-gbps", "400", "--scenario", str(fifo),
                        "--out", str(tmp_path / "o.toml")], capsys)
    assert code == 2 and "named pipe" in one_line(err)


@POSIX
def test_a_pipe_given_as_pinned_scenario_is_refused(tmp_path, capsys):
    fifo = tmp_path / "a.toml"
    os.mkfifo(fifo)
    code, _, err = run(["export", DEFAULT, "--out", str(tmp_path / "c.csv"), "--chart", "tco", "--pin", str(fifo)],
                       capsys)
    assert code == 2 and "named pipe" in one_line(err)
    assert not (tmp_path / "c.csv").exists()


@pytest.mark.parametrize("field, values, allowed, fine", [
    ("cluster.cpu_for_network_fraction", [0.0, 0.5], "from 0.01 to 1.0", [0.25, 0.5]),
    ("cluster.nodes", [0.0, 4.0], "from 1 to", [1.0, 4.0]),
    ("workload.params_b", [-1.0, 5.0], "from 0.01 to", [0.5, 5.0]),
    ("workload.seq_len", [1024.0, 1e9], "to", [1024.0, 2048.0]),
])
def test_a_sweep_beyond_a_fields_limits_is_refused_naming_the_field_and_the_value(field, values, allowed, fine):
    """A swept cluster or workload value is held to the limits its field has in a scenario (a zero CPU share
    once reached the plan search and raised an index error); values inside them sweep."""
    s = model.load_scenario(DEFAULT)
    with pytest.raises(ScenarioError) as err:
        model.sweep(s, field, np.array(values))
    text = str(err.value)
    assert text.startswith(field) and allowed in text, text
    assert model.sweep(s, field, np.array(fine)).x.size == len(fine)
