"""The plan search's model-state memory a ZeRO stage at a time equals the general expression, bit for bit."""

import numpy as np

from model.memory import model_state_bytes, model_state_bytes_by_stage


def test_model_state_by_stage_matches_the_general_expression():
    rng = np.random.default_rng(7)
    rows = 500
    stage = dict(params=rng.uniform(1e6, 1e10, (rows, 1)), layer_params=rng.uniform(1e5, 1e8, (rows, 1)),
                 fp8=np.where(rng.random((rows, 1)) < 0.5, 1.0, 0.0))
    dp = rng.choice([1.0, 2.0, 3.0, 8.0, 24.0, 512.0], (rows, 1))
    for stages in ((0.0, 1.0, 2.0, 3.0), (1.0, 2.0, 3.0), (3.0,)):
        zs = np.array(stages)
        want = model_state_bytes(stage, dp, np.where(dp > 1, zs, 0.0))
        got = model_state_bytes_by_stage(stage, dp, zs)
        assert got.shape == want.shape
        assert np.array_equal(got, want)
        if zs.size > 1:  # the stages differ where sharded
            assert np.any(got[dp[:, 0] > 1] != got[dp[:, 0] > 1][:, :1])
