"""The plan candidates a sweep's points can use: those within the largest node, model, cluster and sequence."""

import numpy as np
import pytest

from model import engine, inputs, plan_search

AUTO = ((1.0, 2.0, 4.0, 8.0, 16.0), tuple(2.0 ** i for i in range(9)), (1.0, 2.0, 4.0), (1.0, 2.0, 4.0), (0, 1),
        (0, 1, 2), (1.0, 2.0, 4.0, 8.0, 16.0), (1.0,))


@pytest.mark.parametrize("gpn_max,layers_max,gpus_max,seq_len_max", [
    (8.0, 180.0, 192.0, 2048.0), (4.0, 12.0, 16.0, None), (16.0, 500.0, 1e6, 1e6), (1.0, 1.0, 1.0, 1.0)])
def test_usable_candidates_are_the_grid_columns_no_point_rules_out(gpn_max, layers_max, gpus_max, seq_len_max):
    engine.clear_plan_cache()
    grid = plan_search.candidates.candidate_grid(*AUTO)
    t, p, v, c = grid[0], grid[1], grid[3], grid[6]
    keep = [ti <= gpn_max and pi * vi <= layers_max and ti * pi * ci <= gpus_max
            and (seq_len_max is None or ci == 1 or seq_len_max / ci >= inputs.CP_MIN_TOKENS_PER_RANK)
            for ti, pi, vi, ci in zip(t, p, v, c)]
    want = grid[:, np.array(keep)] if any(keep) else grid[:, :len(AUTO[4]) * len(AUTO[5])]
    got = plan_search.candidates.usable_candidates(AUTO, gpn_max, layers_max, gpus_max, seq_len_max)
    assert got.shape == want.shape and got.tobytes() == want.tobytes()
    assert not got.flags.writeable
    assert 0 < got.shape[1] < grid.shape[1]
