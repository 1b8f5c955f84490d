"""The plan search's faster ways to the same numbers give what the plain ways give, bit for bit."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import model
from model import arrays, engine
from model.plan_search import fewer


def _cold_sweep(preset, field, values):
    """A sweep of a preset from an empty plan cache, leaving it empty."""
    s = model.load_scenario(f"assets/presets/{preset}.toml")
    engine.clear_plan_cache()
    try:
        return model.sweep(s, field, values)
    finally:
        engine.clear_plan_cache()


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=0, max_size=300), st.integers(0, 20))
def test_whole_number_keys_are_numbered_as_distinct_rows_numbers_them(keys, extra):
    """The second pass numbers its options by a count over whole-number keys rather than a sort: the first entry
    of each distinct key and each entry's number are those of :func:`model.arrays.distinct_rows`."""
    keys = np.array(keys, dtype=np.int64)
    first, code = fewer._numbered(keys, int(keys.max(initial=-1)) + 1 + extra)
    if not keys.size:
        assert first.size == 0 and code.size == 0
        return
    ref_first, ref_code = arrays.distinct_rows([keys.astype(float)], keys.size)
    np.testing.assert_array_equal(first, ref_first)
    np.testing.assert_array_equal(code, ref_code)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 9)), min_size=1, max_size=200),
       st.booleans())
def test_option_keys_tell_apart_what_distinct_rows_tells_apart(pairs, whole):
    """Two rows share an option number exactly where their degrees and replicas are the same, numbered in the
    order :func:`model.arrays.distinct_rows` gives (replicas first); also where the replicas are not whole
    numbers (the fallback)."""
    degrees = np.array([p[0] for p in pairs], dtype=np.int64)
    d = np.array([p[1] for p in pairs], dtype=float) + (0.0 if whole else 0.5)
    keys, size = fewer._option_keys(degrees, d)
    assert keys.min() >= 0 and keys.max() < size
    code = fewer._numbered(keys, size)[1]
    np.testing.assert_array_equal(code, arrays.distinct_rows([degrees.astype(float), d], d.size)[1])


@pytest.mark.parametrize("preset", ["default", "case1_lab_8xA10_5B", "case2_autodriving_24xA100_30B"])
@pytest.mark.parametrize("fabrics", ["as given", "congested", "unreachable"])
def test_free_and_networked_options_timed_in_one_call_are_timed_as_apart(preset, fabrics, monkeypatch):
    """The second pass times the options no fabric enters in the call that times the networked ones (at an
    infinite bandwidth, no latency, no slowdown): each step is the one a call of their own gives, bit for bit;
    also on congested fabrics (leaf uplinks crossed, slowdowns above 1 for the networked options) and on fabrics
    of infinite latency and no bandwidth (whose network terms no free option may read: 0 · ∞ is NaN)."""
    timed = fewer._timed
    seen = []

    def checked(geo, code, fab, point, bw, lat, congestion, n_free=0):
        if n_free and bw is not None:
            f_bw, f_lat, f_cong = bw, lat, congestion
            if fabrics == "congested":  # every fabric's NICs under leaves of 4 nodes, loaded
                loads = {"nodes_per_leaf": 4.0, "mean": 0.6, "spread": 0.3, "fragmented": 0.0}
                f_cong = {k: np.full(np.shape(x), loads[k]) for k, x in congestion.items()}
            elif fabrics == "unreachable":  # and its uplinks infinitely loaded
                f_bw, f_lat = np.zeros_like(bw), np.full_like(lat, np.inf)
                loads = {"nodes_per_leaf": 1.0, "mean": np.inf, "spread": np.inf, "fragmented": 1.0}
                f_cong = {k: np.full(np.shape(x), loads[k]) for k, x in congestion.items()}
            # every option made to fit (the networked options these sweeps reach seldom do): steps of both kinds
            fit = dict(geo, fits=np.ones_like(geo["fits"]))
            with np.errstate(all="ignore"):  # (the unreachable fabrics' networked steps: NaN)
                out = timed(fit, code, fab, point, f_bw, f_lat, f_cong, n_free)
                free = timed(fit, code[:n_free], None, None, None, None, None)
                networked = timed(fit, code[n_free:], fab, point, f_bw, f_lat, f_cong)
            np.testing.assert_array_equal(out, np.concatenate([free, networked]))
            seen.append(np.isfinite(networked).any() or fabrics == "unreachable")
        return timed(geo, code, fab, point, bw, lat, congestion, n_free)
    monkeypatch.setattr(fewer, "_timed", checked)
    monkeypatch.setattr(fewer, "PROBE_MIN_OPTIONS", 0)  # the path that times both kinds in one call
    # every option timed, also those whose states cannot fit (the networked options these sweeps reach)
    monkeypatch.setattr(fewer, "_state_bytes_per_parameter", lambda s, pt, dc, fp8: np.zeros(np.shape(dc)))
    _cold_sweep(preset, "workload.params_b", np.geomspace(1, 1000, 48))
    assert any(seen)  # both kinds met in one call, networked steps among them


@pytest.mark.parametrize("preset,field,values", [
    ("default", "workload.params_b", np.geomspace(1, 1000, 96)),
    ("tier_large", "workload.params_b", np.geomspace(1, 1000, 64)),
    ("tier_large", "cluster.nodes", np.unique(np.round(np.geomspace(1, 512, 64)))),
    ("case3_centre_128xH100_1T", "workload.params_b", np.geomspace(50, 2000, 48)),
    ("tier_small", "workload.global_batch", np.array([64, 256, 1024, 4096])),
])
def test_options_whose_states_cannot_fit_fit_at_no_kind_and_stage(preset, field, values, monkeypatch):
    """The second pass leaves out, before their geometry, the options whose model states alone exceed the usable
    memory: each of them, timed anyway at every recompute kind and ZeRO stage, fits at none (so the answer is the
    same), and some are left out (the test tests something)."""
    row_options, left_out = fewer._row_options, []

    def checked(s, pairs, pt, group, r, q):
        with monkeypatch.context() as m:
            m.setattr(fewer, "_state_bytes_per_parameter", lambda s, pt, dc, fp8: np.zeros(np.shape(dc)))
            every = row_options(s, pairs, pt, group, r, q)
        rows = row_options(s, pairs, pt, group, r, q)
        out = np.flatnonzero(every["valid"] & ~rows["valid"])
        if out.size:  # their geometry at every kind, each at a point of its row
            pair_of_row = np.empty(pairs.allowed.shape[0], dtype=int)
            pair_of_row[pairs.row] = np.arange(pairs.row.size)
            geo, _ = fewer._geometry(s, pairs, pt, dict(every, kind0=np.zeros_like(every["kind0"])), out,
                                     pairs.ni.take(pair_of_row.take(r.take(out))))
            assert not geo["fits"].any()
            left_out.append(out.size)
        return rows
    monkeypatch.setattr(fewer, "_row_options", checked)
    _cold_sweep(preset, field, values)
    assert sum(left_out) > 0


@pytest.mark.parametrize("preset", ["default", "tier_large", "case2_autodriving_24xA100_30B"])
def test_a_probe_at_the_lightest_kind_reads_what_every_kind_computes(preset, monkeypatch):
    """The second pass's probe times each option at its row's own (lightest) recompute kind only, with the plan
    side the first pass holds for that row: the probe's geometry is the full geometry's at that kind, bit for
    bit."""
    geometry, seen = fewer._geometry, []

    def checked(s, pairs, pt, rows, row, point, lightest=False):
        out = geometry(s, pairs, pt, rows, row, point, lightest)
        if lightest:
            full, code = geometry(s, pairs, pt, rows, row, point)
            light, light_code = out
            np.testing.assert_array_equal(code, light_code)
            kind = np.argmax(light["slot"] >= 0, axis=1)  # each option's one kind
            at = full["slot"][np.arange(kind.size), kind]  # that kind's row in the full geometry
            assert (at >= 0).all()
            for k in ("ci", "d", "m", "seqs"):
                np.testing.assert_array_equal(light[k], full[k][at], err_msg=k)
            for k in ("mem", "fits"):
                np.testing.assert_array_equal(light[k], full[k][at], err_msg=k)
            for k, x in light["cs"].items():
                y = full["cs"][k]
                y = y[at] if np.ndim(y) and np.shape(y)[0] == full["ci"].size else y
                np.testing.assert_array_equal(np.broadcast_to(x, np.broadcast_shapes(np.shape(x), np.shape(y))),
                                              np.broadcast_to(y, np.broadcast_shapes(np.shape(x), np.shape(y))),
                                              err_msg=k)
            seen.append(kind.size)
        return out
    monkeypatch.setattr(fewer, "_geometry", checked)
    monkeypatch.setattr(fewer, "PROBE_MIN_OPTIONS", 0)  # a probe first
    _cold_sweep(preset, "workload.params_b", np.geomspace(1, 1000, 64))
    assert sum(seen) > 0
