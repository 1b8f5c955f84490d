"""Uncertainty bands without Qt: one seeded Monte-Carlo over the sweep, and each chart's P10/P50/P90.

:func:`compute_bands` runs :func:`model.analysis.monte_carlo` over every profile range
(:data:`SAMPLES` samples, :data:`SEED`: the same bands every time); :func:`band_series`
gives one chart's bands in display units, as :func:`gui.present.series.chart_series` gives
its curves. The window (:mod:`gui.charts.bands`), the exports and the CSV draw or write them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from model import analysis

from gui.present.series import AXES, KIND_OUTPUTS, fabric_styles, tco_relative

BAND_METRICS = KIND_OUTPUTS  # each chart's engine output and display scale, as the chart draws it
SAMPLES = 1000
SEED = 0


@dataclass(frozen=True)
class Band:
    """One fabric's uncertainty band on a chart, in display units (NaN where the band is not defined)."""
    fabric: str  # the fabric's key
    label: str  # its legend text
    x: np.ndarray  # (N,) the x values
    lo: np.ndarray  # (N,) P10
    mid: np.ndarray  # (N,) P50
    hi: np.ndarray  # (N,) P90
    colour: str  # the fabric's colour


def band_series(bands, kind: str, field: str, baseline: str | None = None) -> list[Band]:
    """Display-unit band data for one chart: one :class:`Band` (P10, P50, P90) per fabric.

    Points where the band is not defined on both sides are NaN in all three."""
    metric, scale = BAND_METRICS[kind]
    if metric not in bands.percentiles:
        return []
    res = bands.nominal
    x = np.asarray(res.x, dtype=float) * AXES.get(field, {}).get("scale", 1.0)
    lo, mid, hi = (np.asarray(bands.band(metric, p), dtype=float) * scale for p in (10.0, 50.0, 90.0))
    if kind == "tco":  # against the baseline fabric's nominal TCO, as the chart draws it
        nominal = np.asarray(res.money.tco, dtype=float)
        lo, mid, hi = (tco_relative(a, res, nominal, baseline) for a in (lo, mid, hi))
    out = []
    for i, (name, st) in enumerate(zip(res.fabrics, fabric_styles(res))):
        bad = ~(np.isfinite(lo[i]) & np.isfinite(hi[i]))
        a, m, b = (np.where(bad, np.nan, arr[i]) for arr in (lo, mid, hi))
        out.append(Band(fabric=name, label=st["label"], x=x, lo=a, mid=m, hi=b, colour=st["colour"]))
    return out


def compute_bands(scenario, field: str, values, samples: int = SAMPLES, seed: int = SEED):
    """One Monte-Carlo over the sweep; returns (Bands, milliseconds)."""
    t0 = time.perf_counter()
    b = analysis.monte_carlo(scenario, field, values, samples=samples, seed=seed)
    return b, (time.perf_counter() - t0) * 1e3
