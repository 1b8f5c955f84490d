"""Points of a sweep that hold the same plan-search inputs are searched once: each point's outputs are those of
its own search, bit for bit, whichever other points the sweep holds."""

import numpy as np
import pytest

import model


def _outputs(result):
    return dict(result.arrays())


@pytest.mark.parametrize("preset,field,distinct", [
    # model sizes: the small ones round to the same hidden size and layer count at neighbouring values
    ("default", "workload.params_b", np.array([1.0, 7.0, 30.0, 175.0])),
    ("moe_mixtral_8x22b", "workload.global_batch", np.array([256.0, 512.0, 2048.0])),
    ("case3_centre_128xH100_1T", "workload.seq_len", np.array([2048.0, 8192.0, 32768.0])),
])
def test_a_repeated_point_gets_the_outputs_of_its_own_search(preset, field, distinct):
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    pattern = np.array([2, 0, 0, 1, 2, 1, 0] + list(range(distinct.size)))  # unsorted, repeated, every one
    swept = model.sweep(s, field, distinct[pattern])
    alone = model.sweep(s, field, distinct)
    got, want = _outputs(swept), _outputs(alone)
    assert got.keys() == want.keys()
    compared = 0
    for path, x in got.items():
        y = want[path]
        if x.ndim == 0 or x.shape[-1] != pattern.size:  # not per point
            continue
        y_at = np.take(np.broadcast_to(y, y.shape[:-1] + (distinct.size,)), pattern, axis=-1)
        assert x.tobytes() == np.ascontiguousarray(y_at, dtype=x.dtype).tobytes(), path
        compared += 1
    assert compared > 50


def test_neighbouring_model_sizes_share_a_model():
    """The case the repeated points serve: a 256-point model-size sweep has points of the same architecture, and
    each of them gets the plan of the first point of its architecture."""
    s = model.load_scenario("assets/presets/default.toml")
    r = model.sweep(s, "workload.params_b", np.geomspace(1, 1000, 256))
    arch = r.workload
    keys = np.stack([np.asarray(getattr(arch, k))[0] for k in ("hidden", "layers", "heads", "kv_heads")], axis=1)
    _, first, code = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    assert first.size < 256
    for k, x in vars(r.plan).items():
        x = np.asarray(x)
        assert x.tobytes() == x[:, first[code.reshape(-1)]].tobytes(), k
