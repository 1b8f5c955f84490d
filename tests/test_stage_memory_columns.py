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


def test_pipeline_terms_once_per_column_are_those_of_each_pair():
    """The plan search's pipeline terms of the memory (the forwards held, and with the micro-batches what the
    busiest rank holds) computed once per column of degrees and read at each (point, degrees) pair: the stage terms
    and the activations are those computed at every pair, bit for bit, micro-batches infinite (no replica) too."""
    from model.memory import activation_bytes, held_forwards, pipeline_schedule, schedule_forwards
    rng = np.random.default_rng(11)
    cols, pairs = 60, 2000
    p = rng.choice([1.0, 2.0, 3.0, 4.0, 8.0, 16.0], cols)
    v = np.where(rng.random(cols) < 0.5, 1.0, rng.choice([2.0, 3.0, 4.0, 8.0], cols))
    m = rng.choice([1.0, 2.0, 5.0, 16.0, 64.0, 1000.0, np.inf], cols)
    col = rng.integers(0, cols, pairs)
    layers = rng.integers(1, 200, (pairs, 1)).astype(float)
    p_at, v_at, m_at = (x.take(col)[:, None] for x in (p, v, m))
    forwards = schedule_forwards(p, v)
    given = pipeline_schedule(layers, p_at, v_at, {k: x.take(col)[:, None] for k, x in forwards.items()})
    each = pipeline_schedule(layers, p_at, v_at)
    assert given.keys() == each.keys()
    for k in each:
        assert np.array_equal(np.broadcast_to(given[k], (pairs, 1)), np.broadcast_to(each[k], (pairs, 1))), k
    stage = dict(each, activations=rng.uniform(1e6, 1e9, (pairs, 3)), working=rng.uniform(0.0, 1e9, (pairs, 3)),
                 logits=rng.uniform(0.0, 1e8, (pairs, 1)))
    with np.errstate(invalid="ignore"):
        held = tuple(x.take(col)[:, None] for x in held_forwards(dict(chunks=v, **forwards), p, m))
    want = activation_bytes(stage, p_at, m_at)
    assert np.array_equal(activation_bytes(stage, p_at, m_at, held), want, equal_nan=True)
    assert np.isfinite(want).any() and np.unique(want).size > pairs // 2
