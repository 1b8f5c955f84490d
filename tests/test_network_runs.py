"""Published runs whose speed depends on the fabric (assets/validation/network_runs.csv), read as the paper states."""

import numpy as np

from gui import cli
from model import validation


def test_network_runs_are_read_and_evaluated_with_their_fabric():
    runs = validation.read_runs(validation.NETWORK_CSV_PATH)
    assert len(runs) == 2 and all(r["transport"] == "roce" for r in runs)
    d = validation.run_to_scenario_dict(runs[0])
    assert d["fabric"]["custom"]["run"]["qps_per_connection"] == 16  # Llama 3 §3.3.1: 16 flows per GPU pair
    assert d["workload"]["flash_attention"] and d["parallel"]["dp_overlap"]
    rows = validation.validate(validation.NETWORK_CSV_PATH)
    assert all(np.isfinite(r.engine) and r.engine > 0 for r in rows)
    # twice the GPUs at the same global batch: both the paper and the engine lose throughput per GPU
    by_id = {r.id: r for r in rows}
    small, big = by_id["llama3-405b-8k"], by_id["llama3-405b-16k"]
    assert big.published < small.published and big.engine < small.engine


def test_cli_validate_shows_the_network_runs(capsys):
    assert cli.main(["validate"]) == 0
    out = capsys.readouterr().out
    assert "Network-dependent runs" in out and "llama3-405b-16k" in out
