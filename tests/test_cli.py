"""The command line: evaluate (table, JSON), validate, and every bad-input case."""

import json
import re
import subprocess
import sys

import pytest

from gui.cli.main import main

DEFAULT = "assets/presets/default.toml"


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, text, name="s.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_evaluate_table(capsys):
    code, out, err = run(["evaluate", DEFAULT], capsys)
    assert code == 0 and err == ""
    for label in ("InfiniBand", "RoCE", "iWARP", "Ethernet", "MFU", "breakdown"):
        assert label in out


def test_evaluate_json(capsys):
    code, out, _ = run(["evaluate", DEFAULT, "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["schema_version"] == 1 and doc["profile_set"] == "seed"
    assert doc["scenario"]["cluster"]["nodes"] == 24
    assert set(doc["fabrics"]) == {"ethernet", "roce", "iwarp", "infiniband"}
    for fab in doc["fabrics"].values():
        for key in ("step_time_s", "model_tflops_per_gpu", "hardware_tflops_per_gpu", "mfu", "hfu", "tokens_per_s",
                    "train_days", "breakdown_s", "plan"):
            assert key in fab
        assert {"tp", "pp", "dp", "micro_batch"} <= set(fab["plan"])
        assert abs(sum(fab["breakdown_s"].values()) - fab["step_time_s"]) < 1e-6 * fab["step_time_s"]


# the tie path (the article's small tier on one plan for both fabrics) is tests/test_recommend.py's: searched freely,
# the small tier's InfiniBand now fits a faster ZeRO-3 plan in the A10's 24 GB
@pytest.mark.parametrize("preset, tie", [("case2_autodriving_24xA100_30B", False)])
def test_evaluate_json_carries_the_recommendation(capsys, preset, tie):
    code, out, _ = run(["evaluate", f"assets/presets/{preset}.toml", "--json"], capsys)
    rec = json.loads(out)["recommendation"]
    assert code == 0 and {"pick", "equivalent", "margin", "article_pick", "agrees"} <= set(rec)
    assert (rec["pick"] is None) == tie and rec["agrees"] is True
    if tie:  # the article's RoCE is one of the equivalent fabrics
        assert len(rec["equivalent"]) >= 2 and rec["article_pick"] in rec["equivalent"]
        assert 0 <= rec["margin"] < rec["threshold"]
    else:
        assert rec["pick"] == rec["article_pick"] == "infiniband" and rec["margin"] > rec["threshold"]
    assert all(r["code"] for r in rec["reasons"])


def test_evaluate_table_ends_with_the_answer(capsys):
    code, out, _ = run(["evaluate", "assets/presets/case2_autodriving_24xA100_30B.toml"], capsys)
    assert re.search(r"InfiniBand: [\d,.]+ → 13\.0 days", out) and "budget cannot hold the 24 GPU servers" in out


def test_validate_passes(capsys):
    code, out, _ = run(["validate"], capsys)
    assert code == 0
    assert "PASS" in out and "nar21-1008b" in out and "kor22-1t-full" in out


@pytest.mark.parametrize("text,needles", [
    ("[cluster]\nnodez = 4\n", ["cluster.nodez", "did you mean 'nodes'"]),
    ("[cluster]\nnodes = \"four\"\n", ["cluster.nodes", "'four'", "whole number"]),
    ("[cluster]\nnodes = 0\n", ["cluster.nodes", "0", "from 1"]),
    ("[workload]\nparams_b = -3.0\n", ["workload.params_b", "-3.0", "0.01"]),
    ("[cluster]\ngpu = \"H100\"\n", ["cluster.gpu", "'H100'", "H100-SXM"]),
    ("[fabric]\ncompare = [\"infiniband\", \"infiniband2\"]\n", ["fabric.compare", "infiniband2", "did you mean"]),
    ("[fabric]\nprofile_set = \"sead\"\n", ["fabric.profile_set", "did you mean 'seed'"]),
    ("[workload]\nrecompute = \"partial\"\n", ["workload.recompute", "none, selective, full"]),
    ("[workload]\nframework = \"colossal\"\n", ["workload.framework", "'colossal'", "megatron, deepspeed"]),
    ("[cluster]\nslow_host_fraction = 0.9\n", ["cluster.slow_host_fraction", "0.9", "0.5"]),
    ("[cluster]\nnodes = 3\n[parallel]\ntp = 8\npp = 2\n", ["tp × pp", "must divide", "24 GPUs"]),
    ("[cluster]\ngpu = \"A10\"\nnodes = 1\n[workload]\nparams_b = 175.0\n[parallel]\ntp = 8\n",
     ["fits in 24 GB"]),
    ("[cluster]\ngpu = \"A10\"\nnodes = 1\n[workload]\nparams_b = 175.0\n", ["workload.params_b", "fits"]),
    ("[fabric.custom.x]\nlink_gbps = 100.0\n", ["fabric.custom.x.transport", "needs transport"]),
    ("[fabric.custom.roce]\nloss_rate = 2.0\n", ["fabric.custom.roce.loss_rate", "2.0", "0.5"]),
    ("[cluster\nnodes = 2\n", ["not valid TOML"]),
    ("[clusterr]\nnodes = 2\n", ["clusterr", "did you mean 'cluster'"]),
    ("schema_version = 99\n", ["schema_version", "99", "newer"]),
    ("", ["empty file"]),
])
def test_bad_scenarios_exit_2_with_one_clear_line(tmp_path, capsys, text, needles):
    path = write(tmp_path, text)
    code, out, err = run(["evaluate", path], capsys)
    assert code == 2 and out == ""
    line = err.strip()
    assert "\n" not in line and "Traceback" not in line
    for n in needles:
        assert n in line, (n, line)


def test_missing_and_unreadable_files(tmp_path, capsys):
    code, _, err = run(["evaluate", str(tmp_path / "nope.toml")], capsys)
    assert code == 2 and "missing" in err
    code, _, err = run(["evaluate", str(tmp_path)], capsys)
    assert code == 2 and "folder" in err
    junk = tmp_path / "junk.toml"
    junk.write_bytes(b"\xff\xfe\x00\x81binary")
    code, _, err = run(["evaluate", str(junk)], capsys)
    assert code == 2 and "binary" in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["evaluat", DEFAULT])
    assert exc.value.code == 2


def test_console_script_runs_without_a_display():
    # the installed entry point, in a fresh process: no Qt import needed for evaluate
    out = subprocess.run([sys.executable, "-m", "gui.cli.main", "evaluate", DEFAULT, "--json"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["fabrics"]["infiniband"]["train_days"] > 0
    bad = subprocess.run([sys.executable, "-m", "gui.cli.main", "evaluate", "no/such.toml"], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1
