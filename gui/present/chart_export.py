"""What a chart export is, without Qt: its formats and limits, and a chart's data as CSV (the
engine's numbers, not the screen's, with units in the headers).

:func:`series_csv` writes what :func:`gui.present.series.chart_series` gives one chart,
with the uncertainty bands (:func:`gui.present.bands.band_series`) and the pinned A of an
A/B compare as more columns; :func:`chart_format` reads an export's format from its
file name. ``fabric-whatif export … .csv`` and the window's File ▸ Export both write this.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np

from model import ScenarioError

from gui.present.bands import band_series
from gui.present.series import chart_series
from gui.present.text import QT_TRANSLATE_NOOP, translate

CHART_FORMATS = (".png", ".svg", ".pdf", ".csv")
MIN_PNG_WIDTH, MAX_PNG_WIDTH = 200, 12000  # px


def chart_format(path, chart: bool = True) -> str:
    """The export format of ``path`` from its extension, or a ScenarioError naming the choices."""
    suffix = Path(str(path)).suffix.lower()
    if suffix not in CHART_FORMATS:
        raise ScenarioError(str(path), suffix or "no extension",
                            "a file ending in " + ", ".join(CHART_FORMATS) + (" (the chart format)" if chart else ""))
    return suffix


CSV_DIGITS = 4
"""Significant figures of a CSV value: the engine's figures carry two or three (its inputs' precision), so a
fourth keeps rounding out of the way without printing 17-digit floats; whole numbers keep every digit."""


def csv_number(v, digits: int = CSV_DIGITS) -> str:
    """``v`` rounded to ``digits`` significant figures, never an exponent, whole numbers in full (``24``,
    ``13.04``, ``0.0001235``, ``33934568``); empty for a missing or non-finite value."""
    v = float(v)
    if not math.isfinite(v):
        return ""
    if v == 0:
        return "0"
    decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(v)))))
    text = f"{round(v, decimals):.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


_num = csv_number

CSV_HEADER = (  # the header block's keys, each a comment line above the columns
    QT_TRANSLATE_NOOP("Csv", "scenario"), QT_TRANSLATE_NOOP("Csv", "fingerprint"),
    QT_TRANSLATE_NOOP("Csv", "fabric figures"), QT_TRANSLATE_NOOP("Csv", "chart"),
    QT_TRANSLATE_NOOP("Csv", "units"), QT_TRANSLATE_NOOP("Csv", "engine"),
)


def header_block(result, data: dict) -> str:
    """The CSV's header block: ``# key: value`` lines naming the scenario (and its fingerprint), the fabric
    figures, the chart, the units of its columns and the engine's version; a spreadsheet or
    ``pandas.read_csv(..., comment="#")`` skips them."""
    import model
    from gui.present.pack import fingerprint
    from gui.present.text import profile_set_name

    s = result.scenario
    units = translate("Csv", "{x} along the rows; {y}; rounded to {n} significant figures").format(
        x=data.x_label, y=data.y_label, n=CSV_DIGITS)
    if data.currency:
        units += translate("Csv", "; money in {currency}").format(currency=data.currency)
    figures = f"{profile_set_name(s.fabric.profile_set)} ({s.fabric.profile_set})"
    values = (translate("Data", s.name), fingerprint(s), figures,
              data.title, units, f"fabric-whatif {model.__version__}")
    return "".join(f"# {translate('Csv', key)}: {' '.join(str(value).split())}\n"
                   for key, value in zip(CSV_HEADER, values))


def csv_text(cell: str) -> str:
    """A text cell a spreadsheet shows as text: one starting with ``= + - @`` (or a tab or carriage return)
    gets a leading apostrophe, so a fabric label cannot become a formula (OWASP, "CSV Injection")."""
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell


def series_csv(result, kind: str, *, bands=None, pinned=None, baseline: str | None = None) -> str:
    """The plotted data of one chart as CSV text: a header block (:func:`header_block`), then x and one column
    per fabric (and secondary series), values to :data:`CSV_DIGITS` significant figures (:func:`csv_number`).

    Headers carry units (``Nodes``, ``Latency (µs)``, ``... Model FLOPs utilisation (%)``); the TCO
    chart's columns are the plotted difference from the baseline fabric (unclipped) followed by
    each fabric's TCO in the scenario's currency;
    points where no parallel plan fits are empty cells. With ``bands`` (a
    :class:`model.analysis.Bands` along the same x-axis) three columns per fabric follow,
    ``InfiniBand [P10]: …``, ``[P50]``, ``[P90]``; with ``pinned`` (the A snapshot of an
    A/B compare, or its sweep) one per fabric, ``InfiniBand [A: name]: …``. When A's sweep
    has other x values than B's, the rows are the union of both, each column empty where it
    has no point. ``baseline``: the fabric the TCO chart is measured from (default: the Cost tab's default).
    """
    data = chart_series(result, kind, baseline)
    _check_overlays(result, bands, pinned)
    y = data.y_label
    cols = [(f"{s.label}: {y}", data.x, s.y if s.y_full is None else s.y_full)
            for s in data.series + data.extra]
    if data.relative:  # the TCO chart: each fabric's difference from the baseline, then its TCO
        money = f"TCO ({data.currency})" if data.currency else "TCO"
        cols += [(f"{label}: {money}", data.x, row) for label, row in zip(result.labels, data.tco)]
    if bands is not None:
        for b in band_series(bands, kind, result.field, baseline):
            cols += [(f"{b.label} [{p}]: {y}", b.x, getattr(b, k)) for p, k in (("P10", "lo"), ("P50", "mid"),
                                                                                ("P90", "hi"))]
    if pinned is not None:
        a = chart_series(_sweep_of(pinned), kind, baseline)
        name = _name_of(pinned)
        cols += [(f"{s.label} [A{': ' + name if name else ''}]: {y}", a.x, s.y if s.y_full is None else s.y_full)
                 for s in a.series]
    xs = data.x
    if any(len(x) != len(xs) or np.any(x != xs) for _, x, _ in cols):
        xs = np.unique(np.concatenate([x for _, x, _ in cols]))
    out = io.StringIO()
    out.write(header_block(result, data))
    w = csv.writer(out, lineterminator="\n")
    w.writerow([data.x_label] + [csv_text(h) for h, _, _ in cols])
    by_x = [dict(zip(np.asarray(x, dtype=float).tolist(), np.asarray(v, dtype=float).tolist())) for _, x, v in cols]
    for x in np.asarray(xs, dtype=float).tolist():
        w.writerow([_num(x)] + [_num(col.get(x, math.nan)) for col in by_x])
    return out.getvalue()


def _sweep_of(pinned):
    return getattr(pinned, "sweep", pinned)


def _name_of(pinned) -> str:
    s = getattr(pinned, "scenario", None)
    return getattr(s, "name", "") or ""


def _check_overlays(result, bands, pinned) -> None:
    """Bands and A must lie along the chart's x-axis (else their columns and curves mean nothing)."""
    if bands is not None and getattr(bands.nominal, "field", None) != result.field:
        raise ScenarioError("bands", getattr(bands.nominal, "field", None), f"bands along {result.field}")
    if pinned is not None and getattr(_sweep_of(pinned), "field", None) != result.field:
        raise ScenarioError("pinned", getattr(_sweep_of(pinned), "field", None), f"A's sweep along {result.field}")
