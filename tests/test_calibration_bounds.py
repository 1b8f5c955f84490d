"""Calibration on hostile and realistic logs: bounded whatever the length, independent of row order, every bad log
refused by name, every fitted fabric inside the schema's limits, the fabric's own latency and loss kept."""

from __future__ import annotations

import csv
import math
import random
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model import ScenarioError, nccl_accuracy, nccl_fit, nccl_log
from model.fields import validate_value
from model.sections import FabricSpec

LOGS = Path(__file__).resolve().parents[1] / "assets" / "validation" / "nccl"
INDEX = {r["file"]: r for r in csv.DictReader((LOGS / "index.csv").read_text(encoding="utf-8").splitlines())}
SETUP = nccl_accuracy.NcclSetup("H100-SXM", 400.0, 8, "infiniband", "ring")
RANKS = "".join(f"#  Rank {i:2d} Group  0 Pid 1 on node{i // 8} device {i % 8} [0x07] GPU\n" for i in range(16))
HEADER = "#       size         count      type   redop    root     time   algbw   busbw #wrong\n"


def rows_text(sizes, frac=0.8, kind="all_reduce"):
    r = nccl_accuracy.predict(SETUP, kind, np.asarray(sizes, float), ranks_per_node=8, nodes=2, achievable_fraction=frac,
                         latency_us=5.0)
    redop = "sum" if kind == "all_reduce" else "none"
    return "".join(f"{int(s):12d} {int(s) // 4:13d} float {redop} -1 {t:9.2f} {a:7.2f} {b:7.2f} 0\n"
                   for s, t, a, b in zip(sizes, r["time_us"], r["algbw_gb_per_s"], r["busbw_gb_per_s"]))


def long_log(n):
    """all_reduce_perf -b 1M -e nM -i 1M: n rows."""
    return (f"$ mpirun -x NCCL_ALGO=Ring ./all_reduce_perf -b 1M -e {n}M -i 1M\n" + RANKS + HEADER
            + rows_text(np.arange(1, n + 1) * 2.0**20))


def fabric_values(log, setup=SETUP):
    return nccl_fit.fabric_from_model_fit(nccl_fit.fit_model(log, setup))


# -- bounded ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rows", [1_000, 10_000])
def test_the_fit_works_on_model_arrays_of_bounded_size_whatever_the_rows(rows, monkeypatch):
    real = nccl_accuracy.predict
    largest = []

    def bounded(setup, kind, size_bytes, **kw):
        n = np.broadcast(np.asarray(size_bytes, float), *(np.asarray(v, float) for v in kw.values()
                                                          if v is not None)).size
        largest.append(n)
        assert n <= max(nccl_fit.GRID_CHUNK_ELEMENTS, rows), f"a model call over {n:,} points"
        return real(setup, kind, size_bytes, **kw)

    monkeypatch.setattr(nccl_fit, "predict", bounded)
    fit = nccl_fit.fit_model(nccl_fit.parse_nccl_tests(long_log(rows)), SETUP)
    assert fit.achievable_fraction == pytest.approx(0.8, rel=0.06)
    assert fit.errors["per_row"].size == rows  # every row judged
    assert len(largest) < 200  # the number of model calls does not grow with the rows either


def test_more_rows_than_the_maximum_are_refused_by_name():
    n = nccl_log.MAX_ROWS + 1
    text = "./all_reduce_perf\n" + RANKS + HEADER + "".join(
        f"{s} {s // 4} float sum -1 100.0 {s / 1e5:.2f} {s / 1e5 * 1.875:.2f} 0\n" for s in range(1024, 1024 + n))
    with pytest.raises(ScenarioError, match=f"at most {nccl_log.MAX_ROWS:,} rows"):
        nccl_log.parse_nccl_tests(text)


# -- order, duplicates, bad values -----------------------------------------------------------------------------

ROW = re.compile(r"^\s*(?:\d+:\s*)?\d+\s+\d+\s+(?:float|half|bfloat16|int\d*)\s")


def real_log_lines(name):
    lines = (LOGS / name).read_text(encoding="utf-8").splitlines()
    return lines, data_rows(lines)


def data_rows(lines):
    return [i for i, line in enumerate(lines) if ROW.match(line)]


def shuffled(name, seed):
    lines, data = real_log_lines(name)
    rows = [lines[i] for i in data]
    random.Random(seed).shuffle(rows)
    for i, row in zip(data, rows):
        lines[i] = row
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", ["ib_h100_2node_ndr_ring_tuned_allreduce.txt",
                                  "roce_a100_oci_bm_gpu4_2node_16gpu_allreduce.txt",
                                  "pathology_h100_2node_ndr_lowbw_ring_allreduce.txt"])
def test_the_same_rows_in_another_order_or_repeated_give_the_same_fabric(name):
    r = INDEX[name]
    setup = nccl_accuracy.NcclSetup(r["gpu"], float(r["link_gbps"]), int(r["nics_per_node"]), r["fabric"], r["algorithm"])
    text = (LOGS / name).read_text(encoding="utf-8")
    ref = fabric_values(nccl_log.parse_nccl_tests(text, nodes=2), setup)
    lines, data = real_log_lines(name)
    doubled = "\n".join(lines + [lines[data[3]], lines[data[-2]]]) + "\n"
    for variant in (shuffled(name, 1), shuffled(name, 2), doubled):
        assert fabric_values(nccl_log.parse_nccl_tests(variant, nodes=2), setup) == ref


@pytest.mark.parametrize("value,needle", [("nan", "busbw"), ("-3.1", "busbw"), ("inf", "busbw"),
                                          ("0.00", "algbw = size / time")])
def test_a_non_finite_or_non_positive_bandwidth_is_refused_by_line(value, needle):
    lines, data = real_log_lines("ib_h100_2node_ndr_ring_tuned_allreduce.txt")
    i = data[6]
    toks = lines[i].split()
    toks[7] = value  # busbw (out-of-place)
    if needle.startswith("algbw"):
        toks[6] = value
    lines[i] = " ".join(toks)
    with pytest.raises(ScenarioError, match=rf"line {i + 1}.*{needle}"):
        nccl_log.parse_nccl_tests("\n".join(lines))


def test_a_size_of_hundreds_of_digits_is_refused_by_line():
    lines, data = real_log_lines("ib_h100_2node_ndr_ring_tuned_allreduce.txt")
    lines[data[2]] = "9" * 400 + lines[data[2]].lstrip().split(" ", 1)[1]
    with pytest.raises(ScenarioError, match=rf"line {data[2] + 1}.*at most"):
        nccl_log.parse_nccl_tests("\n".join(lines))


def test_a_log_without_a_size_above_one_mib_is_refused_by_name():
    log = nccl_log.parse_nccl_tests("./all_reduce_perf\n" + RANKS + HEADER + rows_text(2.0 ** np.arange(3, 21)))
    with pytest.raises(ScenarioError, match="largest size 1 MiB.*sizes above 1 MiB"):
        nccl_fit.fit_model(log, SETUP)


def test_an_all_reduce_and_an_all_gather_pasted_together_are_refused_by_name():
    sizes = 2.0 ** np.arange(20, 31)
    ar = "./all_reduce_perf\n" + RANKS + HEADER + rows_text(sizes)
    ag = "./all_gather_perf\n" + RANKS + HEADER + rows_text(sizes, kind="all_gather")
    with pytest.raises(ScenarioError, match="all_gather_perf and all_reduce_perf.*one collective per log"):
        nccl_log.parse_nccl_tests(ar + ag)
    # without their names the rows' busbw/algbw still tells the two runs apart
    bare = RANKS + HEADER + rows_text(sizes) + rows_text(sizes * 3, kind="all_gather")
    with pytest.raises(ScenarioError, match="busbw/algbw from 0.94 to 1.88.*pasted together"):
        nccl_log.parse_nccl_tests(bare)


def test_a_log_listing_one_of_its_72_ranks_is_refused_by_name():
    """A GB200 NVL72 run whose log shows one '# Rank' line: read as one rank, busbw 0 GB/s."""
    n = 72
    sizes = 2.0 ** np.arange(20, 31)
    t = 20.0 + sizes * 2 * (n - 1) / n / 700e9 * 1e6
    rows = "".join(f"{int(s)} {int(s) // 4} float sum -1 {x:.2f} {s / x / 1e3:.2f} {s / x / 1e3 * 2 * (n - 1) / n:.2f} 0\n"
                   for s, x in zip(sizes, t))
    text = "./all_reduce_perf\n#  Rank  0 Group  0 Pid 1 on nvl72-a device  0 [0x07] GB200\n" + HEADER + rows
    with pytest.raises(ScenarioError, match=r"1 rank \(from its '# Rank' lines\)"):
        nccl_log.parse_nccl_tests(text)
    assert nccl_log.parse_nccl_tests(text, ranks=72, nodes=1).ranks == 72  # the run's ranks, stated, are read


# -- summaries and limits on the shipped logs -------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(INDEX))
def test_summaries_of_the_shipped_logs_are_consistent_and_fabrics_inside_the_limits(name):
    r = INDEX[name]
    gpu = r["gpu"] if r["gpu"] in ("H100-SXM", "A100-SXM-40GB") else "H100-SXM"
    setup = nccl_accuracy.NcclSetup(gpu, float(r["link_gbps"] or 10.0), int(r["nics_per_node"]), r["fabric"],
                               r["algorithm"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no NumPy warning on the way
        fit = nccl_fit.fit_model(nccl_log.parse_nccl_tests((LOGS / name).read_text(encoding="utf-8"),
                                                           nodes=int(r["nodes"])), setup)
    e = fit.errors
    summary = nccl_accuracy.error_summary(e)
    assert "nan" not in summary.lower()
    for key in ("large", "medium"):
        if math.isfinite(e[f"{key}_max_clean"]):
            assert e[f"{key}_median_clean"] <= e[f"{key}_max_clean"]
            assert f"median {e[f'{key}_median_clean'] * 100:.1f}% max {e[f'{key}_max_clean'] * 100:.1f}%" in summary
    if int(r["nodes"]) >= 2:
        for key, value in fabric_values(fit.log, setup).items():
            validate_value(FabricSpec, key, value, key)


# -- the fabric's own latency and loss ---------------------------------------------------------------------------

def test_the_fabric_keeps_its_stated_latency_and_loss_and_the_fraction_before_that_loss():
    text = "./all_reduce_perf\n" + RANKS + HEADER + rows_text(2.0 ** np.arange(3, 34), frac=0.6)
    log = nccl_log.parse_nccl_tests(text)
    lossless = fabric_values(log, nccl_accuracy.NcclSetup("H100-SXM", 400.0, 8, "roce", "ring", latency_us=4.0))
    assert lossless["latency_us"] == 4.0 and lossless["loss_rate"] == 0.0
    lossy_setup = nccl_accuracy.NcclSetup("H100-SXM", 400.0, 8, "roce", "ring", latency_us=4.0, loss_rate=1e-4)
    fit = nccl_fit.fit_model(log, lossy_setup)
    values = nccl_fit.fabric_from_model_fit(fit)
    assert values["latency_us"] == 4.0 and values["loss_rate"] == 1e-4  # inputs, not fitted, not zeroed
    assert values["achievable_fraction"] >= lossless["achievable_fraction"]  # before the loss's recovery cost
    assert fit.achievable_fraction == pytest.approx(lossless["achievable_fraction"], abs=1e-3)  # as measured


# -- hostile mutations of real logs ----------------------------------------------------------------------------

NAMES = sorted(n for n in INDEX if int(INDEX[n]["nodes"]) >= 2 and INDEX[n]["link_gbps"])
TOKENS = ["nan", "0", "-1", "inf", "1e308", "9" * 40, "0.00", "abc", ""]


@st.composite
def mutated_logs(draw):
    name = draw(st.sampled_from(NAMES))
    lines, data = real_log_lines(name)
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.sampled_from(data))
        toks = lines[i].split()
        if not toks:
            continue
        kind = draw(st.sampled_from(["token", "scale", "drop", "repeat"]))
        if kind == "token":
            toks[draw(st.integers(0, min(len(toks) - 1, 8)))] = draw(st.sampled_from(TOKENS))
            lines[i] = " ".join(toks)
        elif kind == "scale":
            j = draw(st.sampled_from([5, 6, 7]))
            try:
                toks[j] = f"{float(toks[j]) * draw(st.sampled_from([0.5, 0.9, 1.1, 3.0, 1e30])):.2f}"
            except ValueError:
                pass
            lines[i] = " ".join(toks)
        elif kind == "drop":
            lines[i] = ""
        else:
            lines.append(lines[i])
    return name, lines, draw(st.randoms(use_true_random=False))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(mutated_logs())
def test_a_mutated_real_log_gives_a_named_error_or_a_finite_fit_inside_the_limits_in_any_row_order(case):
    name, lines, rnd = case
    r = INDEX[name]
    setup = nccl_accuracy.NcclSetup(r["gpu"], float(r["link_gbps"]), int(r["nics_per_node"]), r["fabric"], r["algorithm"])

    def outcome(text):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                log = nccl_log.parse_nccl_tests(text, nodes=int(r["nodes"]))
                return fabric_values(log, setup)
            except ScenarioError as err:
                return ("refused", err.field.split(", line")[0], str(err.value).split(" (")[0])

    first = outcome("\n".join(lines))
    if isinstance(first, dict):
        for key, value in first.items():
            assert not isinstance(value, float) or math.isfinite(value)
            validate_value(FabricSpec, key, value, key)
        data = data_rows(lines)
        rows = [lines[i] for i in data]
        rnd.shuffle(rows)
        for i, row in zip(data, rows):
            lines[i] = row
        assert outcome("\n".join(lines)) == first  # the same fabric from the rows in another order


# -- the command line reads the log ------------------------------------------------------------------------------

def run_cli(capsys, *argv):
    from gui.cli.main import main

    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_nccl_compare_predicts_the_logs_own_run_unless_told_otherwise(capsys):
    ring = str(LOGS / "ib_h100_2node_ndr_ring_tuned_allreduce.txt")
    code, out, _ = run_cli(capsys, "nccl", "assets/presets/default.toml", "--fabric", "infiniband", "--compare", ring)
    assert code == 0
    assert "2 node(s), 16 ranks, NCCL_ALGO=ring" in out.splitlines()[0]  # not the scenario's 24 nodes nor the tuner
    assert all(line.split()[-4].startswith("ring/") for line in out.splitlines() if line[:1] == " ")
    code, out, _ = run_cli(capsys, "nccl", "assets/presets/default.toml", "--fabric", "infiniband", "--compare", ring,
                           "--nodes", "4", "--ranks", "32", "--algorithm", "auto")
    assert code == 0 and "4 node(s), 32 ranks" in out.splitlines()[0] and "NCCL_ALGO" not in out.splitlines()[0]


def test_nccl_takes_ranks_and_nodes_and_names_a_log_of_another_transport(capsys):
    code, out, _ = run_cli(capsys, "nccl", "assets/presets/default.toml", "--fabric", "roce", "--nodes", "2",
                           "--ranks", "16")
    assert code == 0 and "2 node(s), 16 ranks" in out.splitlines()[0]
    code, _, err = run_cli(capsys, "nccl", "assets/presets/default.toml", "--fabric", "roce", "--nodes", "2",
                           "--ranks", "15")
    assert code == 2 and "--ranks = 15" in err and len(err.strip().splitlines()) == 1
    socket = str(LOGS / "socket_tcp_v100_2node_1gpu_bcm_manual_allreduce.txt")
    code, out, _ = run_cli(capsys, "nccl", "assets/presets/default.toml", "--fabric", "infiniband", "--compare", socket)
    assert code == 0 and "# warning: the log ran over TCP, the compared fabric (InfiniBand) over InfiniBand" in out


def test_calibrate_reads_the_transport_from_the_log_and_keeps_the_stated_latency(capsys):
    socket = str(LOGS / "socket_tcp_v100_2node_1gpu_bcm_manual_allreduce.txt")
    code, out, err = run_cli(capsys, "calibrate", socket, "--link-gbps", "10", "--latency-us", "30",
                             "--loss-rate", "0")
    assert code == 0, err
    assert "transport: tcp (from the log)" in out and "nics-per-node: 1 (from the log)" in out
    fabric = next(line for line in out.splitlines() if line.startswith("fabric: "))
    assert "transport = tcp" in fabric and "latency_us = 30.0" in fabric and "nics_per_node = 1" in fabric
    code, _, err = run_cli(capsys, "calibrate", socket, "--link-gbps", "10", "--loss-rate", "nan")
    assert code == 2 and "--loss-rate" in err
