"""The engine reproduces published training runs (assets/validation/calibration_runs.csv)."""

import numpy as np
import pytest

from model import validation


@pytest.fixture(scope="module")
def rows():
    return validation.validate()


def test_every_published_run_is_checked(rows):
    assert len(rows) == len(validation.read_runs()) == 18
    assert {r.metric for r in rows} == {"hardware_tflops_per_gpu", "iter_time_s"}


def test_median_error_within_the_median_tolerance(rows):
    assert np.median([abs(r.error) for r in rows]) <= validation.MEDIAN_TOLERANCE


@pytest.mark.parametrize("i", range(18))
def test_each_row_within_the_row_tolerance(rows, i):
    r = rows[i]
    assert abs(r.error) <= validation.ROW_TOLERANCE, (r.id, r.published, r.engine)


def test_summary_passes(rows):
    s = validation.summary(rows)
    assert s["passed"] and s["within_row_tolerance"] == 18


def test_rows_state_only_what_the_paper_states():
    # the scenario built from a row carries the plan and model of the paper, nothing tuned per run
    r = validation.read_runs()[0]
    d = validation.run_to_scenario_dict(r)
    assert d["parallel"]["tp"] == int(r["tp"]) and d["parallel"]["pp"] == int(r["pp"])
    assert set(d["workload"]) <= {"params_b", "layers", "hidden", "heads", "vocab", "seq_len", "global_batch",
                                  "micro_batch", "recompute", "flash_attention"}
    keys = {frozenset(validation.run_to_scenario_dict(x)["fabric"]["custom"]["run"]) for x in validation.read_runs()}
    assert len(keys) == 1  # the same fabric fields for every row
