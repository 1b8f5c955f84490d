"""The acceptance table: the bus bandwidth nccl-tests must reach on the chosen fabric, with measured tolerances."""

import math

import numpy as np
import pytest

import model
from model import ScenarioError, acceptance, nccl_accuracy, nccl_fit, nccl_table, validation
from model.nccl_log import parse_nccl_tests

from gui.cli.main import main

CASE2 = "assets/presets/case2_autodriving_24xA100_30B.toml"
NCCL = validation.NCCL_DIR


@pytest.fixture(scope="module")
def case2():
    return model.load_scenario(CASE2)


@pytest.fixture(scope="module")
def case2_table(case2):
    return acceptance.acceptance_table(case2)


def test_case2_lists_all_reduce_and_all_gather_from_1_mib_to_8_gib_at_2_8_24_nodes(case2_table):
    t = case2_table
    assert t.fabric == "infiniband" and t.collectives == ("all_reduce", "all_gather")
    assert list(t.nodes) == [2, 8, 24]
    assert t.size_bytes[0] == 2**20 and t.size_bytes[-1] == 8 * 2**30 and t.size_bytes.size == 14
    assert t.expected_busbw_GBps.shape == (2, 3, 14)
    assert np.all(t.tolerance > 0) and np.all(t.min_busbw_GBps < t.expected_busbw_GBps)
    assert len(t.rows()) == 2 * 3 * 14


def test_each_node_count_is_what_nccl_would_print_at_that_size_of_cluster(case2, case2_table):
    """One vectorised call over node counts gives, at each, the engine's nccl-tests table for a cluster that size."""
    for c, kind in enumerate(case2_table.collectives):
        for j, n in enumerate(case2_table.nodes):
            ref = nccl_table.scenario_table(case2, "infiniband", kind, int(n), sizes=case2_table.size_bytes)
            np.testing.assert_allclose(case2_table.expected_busbw_GBps[c, j], ref["busbw_GBps"], rtol=1e-12)


def test_tolerances_are_the_largest_shortfall_of_the_real_logs_per_size_band():
    bands = acceptance.validation_tolerances()
    assert bands[0] > max(bands[1:]) and min(bands) > 0  # the engine is least sure at 1-16 MiB
    for row in validation.validate_network():
        if row.scope != "network":
            continue
        short = 1 - row.measured / row.engine
        band = acceptance.band_index(row.sizes)
        ok = row.sizes >= 2**20
        for i, tol in enumerate(bands):
            sel = ok & (band == i)
            assert np.all(short[sel] <= tol + 1e-12)


def _log_scenario(name):
    r = next(r for r in validation.read_nccl_index() if r["file"] == name)
    return r, model.scenario_from_dict(validation.log_scenario_dict(r))


def _judge(name):
    """The measured busbw of a validation log against its own setup's acceptance minimum (the sizes it has)."""
    r, scen = _log_scenario(name)
    log = parse_nccl_tests((NCCL / name).read_text(encoding="utf-8"), nodes=int(r["nodes"]))
    keep = (log.size_bytes >= 2**20) & (log.size_bytes <= 8 * 2**30)
    t = acceptance.acceptance_table(scen, "run", [log.collective], log.size_bytes[keep], [int(r["nodes"])])
    return log.busbw_gb_per_s[keep] >= t.min_busbw_GBps[0, 0]


def test_a_healthy_real_run_passes_and_a_broken_one_fails():
    assert _judge("roce_a100_oci_bm_gpu4_2node_16gpu_allreduce.txt").all()
    broken = _judge("pathology_h100_2node_ndr_lowbw_ring_allreduce.txt")
    assert not broken[-4:].any()  # large messages 3× below what the fabric gives


def test_calibration_sets_the_tolerance_where_its_log_ran():
    r, scen = _log_scenario("ib_h100_2node_ndr_ring_tuned_allreduce.txt")
    text = (NCCL / r["file"]).read_text(encoding="utf-8")
    calibrated, cal = acceptance.calibrated(scen, "run", text, source=r["file"], nodes=2)
    assert calibrated.fabric.custom_dict()["run"].achievable_fraction == pytest.approx(
        nccl_fit.fabric_from_model_fit(cal.fit)["achievable_fraction"])
    t = acceptance.acceptance_table(calibrated, "run", ["all_reduce", "all_gather"], nodes=[2, 8], calibration=cal)
    assert t.calibration == r["file"]
    here = t.basis[0, 0]
    assert set(here) == {"calibration"} and set(t.basis[1].ravel()) == {"validation"}
    big = t.size_bytes >= nccl_accuracy.LARGE_BYTES
    assert np.all(t.tolerance[0, 0, big] < t.tolerance[0, 1, big])  # the fit is tighter than the validation band
    assert np.all(t.tolerance[0, 0, big] >= nccl_accuracy.LARGE_TOLERANCE)


@pytest.mark.parametrize("kwargs, field", [
    (dict(sizes=[2**10]), "sizes"), (dict(nodes=[1, 8]), "nodes"), (dict(collectives=["all_reduce", "bcast"]),
                                                                     "collectives"),
    (dict(fabric="nope"), "fabric")])
def test_bad_requests_name_their_field(case2, kwargs, field):
    with pytest.raises(ScenarioError) as err:
        acceptance.acceptance_table(case2, **kwargs)
    assert err.value.field == field


def test_cli_prints_the_table_and_writes_a_csv_with_its_header(tmp_path, capsys):
    out = tmp_path / "acceptance.csv"
    assert main(["nccl", CASE2, "--acceptance", "--csv", str(out)]) == 0
    text = capsys.readouterr().out
    assert "all_reduce:" in text and "all_gather:" in text and "24 nodes: expected" in text and "8 GiB" in text
    lines = out.read_text(encoding="utf-8").splitlines()
    head = [line for line in lines if line.startswith("#")]
    for needle in ("scenario: Case 2", "fabric: InfiniBand", "profile set: seed", "units: bus bandwidth in GB/s",
                   f"engine: fabric-whatif {model.__version__}", "tolerance (validation)"):
        assert any(needle in line for line in head), needle
    rows = [line.split(",") for line in lines if not line.startswith("#")]
    assert rows[0][:3] == ["collective", "nodes", "ranks"] and len(rows) == 1 + 84
    assert {r[1] for r in rows[1:]} == {"2", "8", "24"}
    assert all(len(r[5].split(".")[-1]) <= 1 for r in rows[1:])  # busbw rounded to 0.1 GB/s


@pytest.mark.parametrize("args, needle", [
    (["--sizes", "1K:8G"], "--sizes"), (["--node-counts", "1,8"], "--node-counts"),
    (["--collectives", "all_reduce,bcast"], "--collectives"), (["--sizes", "3X"], "--sizes")])
def test_cli_bad_options_exit_2_with_one_line(capsys, args, needle):
    assert main(["nccl", CASE2, "--acceptance", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and needle in err


def test_pack_has_the_acceptance_page_slide_sheet_and_csv(tmp_path, capsys):
    import openpyxl
    from pptx import Presentation

    import pdfread

    folder = tmp_path / "pack"
    assert main(["export", CASE2, "--pack", str(folder)]) == 0
    pages = pdfread.text(folder / "proposal.pdf").split("\f")
    page = next(p for p in pages if "Acceptance: the bus bandwidth" in p)  # a page of its own
    for needle in ("Acceptance: the bus bandwidth InfiniBand must reach", "all_reduce", "all_gather", "1 MiB",
                   "8 GiB", "2 nodes", "8 nodes", "24 nodes", "Tolerance",
                   *(f"{math.ceil(round(b * 100, 6))} %" for b in acceptance.validation_tolerances())):
        assert needle in page, needle
    ws = openpyxl.load_workbook(folder / "proposal.xlsx")["Acceptance"]
    values = [row for row in ws.iter_rows(values_only=True) if row and row[0] in ("all_reduce", "all_gather")]
    assert len(values) == 84 and {v[1] for v in values} == {2, 8, 24}
    slide_tables = [sh.table for slide in Presentation(str(folder / "proposal.pptx")).slides for sh in slide.shapes
                    if sh.has_table and sh.table.cell(1, 0).text == "Message size"]
    assert len(slide_tables) == 1 and slide_tables[0].cell(len(slide_tables[0].rows) - 1, 0).text == "8 GiB"
    csv_lines = (folder / "acceptance.csv").read_text(encoding="utf-8").splitlines()
    assert csv_lines[0].startswith("# scenario: Case 2") and len([x for x in csv_lines if x[:1] != "#"]) == 85
