"""Calibrating a fabric from nccl-tests output."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

import model
from model import ScenarioError, nccl_accuracy, nccl_fit
from model.collectives import NCCL_BASE_US, NCCL_NET_STEP_SW_US

DEFAULT = "assets/presets/default.toml"

HEADER = """# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
{ranks}#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
"""


def synth_log(alpha_us, busbw_gbs, nodes=2, gpn=8, noise=0.0, seed=0, name="all_reduce_perf"):
    n = nodes * gpn
    ranks = "".join(f"#  Rank {r:2d} Group  0 Pid {1000 + r} on node{r // gpn} device {r % gpn} [0x07] "
                    f"NVIDIA H100 80GB HBM3\n" for r in range(n))
    rng = np.random.default_rng(seed)
    lines = [f"$ mpirun -np {n} ./build/{name} -b 8 -e 8G -f 2 -g 1", HEADER.format(ranks=ranks)]
    factor = (2 if "reduce_perf" in name else 1) * (n - 1) / n  # nccl-tests' busbw/algbw of the collective
    for k in range(10, 34, 2):
        size = 2**k
        t = (alpha_us + size * factor / (busbw_gbs * 1e9) * 1e6) * (1 + noise * rng.standard_normal())
        algbw = size / t / 1e3
        lines.append(f"{size:12d} {size // 4:13d}     float     sum      -1 {t:8.1f} {algbw:7.2f} {algbw * factor:7.2f}"
                     f"      0 {t:8.1f} {algbw:7.2f} {algbw * factor:7.2f}      0")
    lines.append("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 40.1\n")
    return "\n".join(lines)


def test_fit_recovers_alpha_and_busbw():
    log = nccl_fit.parse_nccl_tests(synth_log(30.0, 46.0))
    assert (log.collective, log.ranks, log.nodes) == ("all_reduce", 16, 2)
    fit = nccl_fit.fit_alpha_beta(log)
    assert_allclose(fit.busbw_gb_per_s, 46.0, rtol=0.01)
    assert_allclose(fit.alpha_us, 30.0, rtol=0.05)
    assert fit.rms_relative_error < 0.01
    assert_allclose(fit.predict_time_us(log.size_bytes), log.time_us, rtol=0.02)


def test_fit_with_noise_stays_close():
    fit = nccl_fit.fit_alpha_beta(nccl_fit.parse_nccl_tests(synth_log(25.0, 90.0, noise=0.03, seed=3)))
    assert_allclose(fit.busbw_gb_per_s, 90.0, rtol=0.05)


def test_tagged_output_and_chatter_are_tolerated():
    text = synth_log(30.0, 46.0)
    tagged = "\n".join(f"[0] {line}" for line in text.splitlines())
    tagged += "\n[1] node1:123:456 [0] NCCL INFO comm 0x1 rank 1 nranks 16 - Init COMPLETE\n"
    log = nccl_fit.parse_nccl_tests(tagged)
    assert log.size_bytes.size == 12


def test_malformed_row_names_the_line():
    text = synth_log(30.0, 46.0).splitlines()
    idx = next(i for i, line in enumerate(text) if line.strip().startswith("4096 "))
    text[idx] = "        4096          1024     float     sum      -1    abc    0.1    0.2      0"
    with pytest.raises(ScenarioError, match=rf"line {idx + 1}"):
        nccl_fit.parse_nccl_tests("\n".join(text))


@pytest.mark.parametrize("text,needle", [
    ("", "two message sizes"),
    ("hello\nworld\n", "two message sizes"),
    ("         1024 256 float sum -1 10.0 0.1 0.1 0\n", "column header"),
])
def test_bad_logs(text, needle):
    with pytest.raises(ScenarioError, match=needle):
        nccl_fit.parse_nccl_tests(text, collective="all_reduce", ranks=16, nodes=2)


def test_collective_from_name_and_override():
    log = nccl_fit.parse_nccl_tests(synth_log(30.0, 46.0, name="all_gather_perf"))
    assert log.collective == "all_gather"
    log = nccl_fit.parse_nccl_tests(synth_log(30.0, 46.0, name="x_perf"), collective="reduce_scatter")
    assert log.collective == "reduce_scatter"


def test_calibrate_command_fits_and_saves(tmp_path, capsys):
    from gui.cli.main import main

    log = tmp_path / "ar.txt"
    log.write_text(synth_log(NCCL_BASE_US + 2 * (3.0 + NCCL_NET_STEP_SW_US), 360.0), encoding="utf-8")
    assert main(["calibrate", str(log)]) == 0
    assert "360" in capsys.readouterr().out
    out = tmp_path / "s.toml"
    # the collective model's own log of a 2-node H100 ring at 0.9 of 400G per NIC: calibration recovers 0.9
    from test_nccl_model import model_log_text

    ring = tmp_path / "ring.txt"
    ring.write_text(model_log_text(nccl_accuracy.NcclSetup("H100-SXM", 400.0, 8, "roce", "ring"), 0.9, 3.0))
    code = main(["calibrate", str(ring), "--link-gbps", "400", "--nics-per-node", "8", "--transport", "roce",
                 "--gpu", "H100-SXM", "--scenario", DEFAULT, "--name", "lab", "--out", str(out), "--loss-rate", "0",
                 "--latency-us", "3"])
    assert code == 0
    assert "busbw error at ≥ 64 MiB" in capsys.readouterr().out
    s = model.load_scenario(out)
    lab = dict(s.fabric.custom)["lab"]
    assert lab.achievable_fraction == pytest.approx(0.9, rel=0.03)
    assert (lab.latency_us, lab.loss_rate) == (3.0, 0.0)  # the stated latency and loss, kept
    # without them: the scenario's RoCE latency and loss, kept on the fabric (not zeroed)
    roce = next(r for r in model.resolve_fabrics(model.load_scenario(DEFAULT)) if r.transport == "roce")
    assert main(["calibrate", str(ring), "--link-gbps", "400", "--nics-per-node", "8", "--transport", "roce",
                 "--scenario", DEFAULT, "--name", "lab", "--out", str(out), "--overwrite"]) == 0
    lab = dict(model.load_scenario(out).fabric.custom)["lab"]
    assert (lab.latency_us, lab.loss_rate) == (roce.values["latency_us"], roce.values["loss_rate"]) and lab.loss_rate > 0
    assert main(["calibrate", str(tmp_path / "nope.txt")]) == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("garbage\n", encoding="utf-8")
    assert main(["calibrate", str(bad), "--collective", "all_reduce", "--ranks", "16", "--nodes", "2"]) == 2
    assert "two message sizes" in capsys.readouterr().err


def test_a_single_node_run_cannot_calibrate_a_fabric():
    """One node measures NVLink/PCIe, not the fabric: the calibrated fabric is refused, naming why."""
    log = nccl_fit.parse_nccl_tests(synth_log(10.0, 230.0, nodes=1))
    fit = nccl_fit.fit_model(log, nccl_accuracy.NcclSetup("H100-SXM", 200.0, 8, "infiniband", log.algorithm))
    with pytest.raises(ScenarioError, match="two nodes"):
        nccl_fit.fabric_from_model_fit(fit)

