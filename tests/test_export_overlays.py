"""Exports carry what the window shows over the curves: P10–P90 bands and the pinned A.

Charts (PNG/SVG/PDF) draw them as the window does, the CSV gets P10/P50/P90 and A columns,
the proposal sheet draws them on its charts and adds an A/B table; `fabric-whatif export`
offers both (--bands, seeded, so the same file every time; --pin A.toml).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import model
from model import ScenarioError

import pdfread  # tests/pdfread.py: PDFs opened with PyPI libraries

ROOT = Path(__file__).resolve().parent.parent
PRESET = ROOT / "assets" / "presets" / "case2_autodriving_24xA100_30B.toml"
KEYS = {"utilisation": ("mfu", 100.0), "duration": ("train_days_with_interruptions", 1.0), "tco": ("tco", 1.0)}


@pytest.fixture(scope="module")
def pair(qapp):
    """(A, B, bands of B): the case-2 preset pinned as A, B the same at 60 B parameters."""
    from gui.export import charts as export
    from gui.charts.bands import compute_bands

    a = model.load_scenario(PRESET)
    b = dataclasses.replace(a.replace("workload.params_b", 60.0), name="Case 2 at 60B")
    snap_a, snap_b = export.snapshot_for(a), export.snapshot_for(b)
    bands = compute_bands(snap_b.scenario, snap_b.x_field, snap_b.sweep.x)[0]
    return snap_a, snap_b, bands


def _rows(text: str):
    """The columns' header and the rows, under the header block's "# key: value" lines."""
    rows = list(csv.reader(line for line in io.StringIO(text) if not line.startswith("#")))
    return rows[0], rows[1:]


def _col(head, body, name) -> np.ndarray:
    j = head.index(name)
    return np.array([float(r[j]) if r[j] else np.nan for r in body])


def _pdftext(path) -> str:
    return pdfread.text(path)


def _pages(path) -> str:
    return str(pdfread.page_count(path))


# --------------------------------------------------------------------------
# CSV
# --------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["utilisation", "duration", "tco"])
def test_csv_band_and_pinned_columns(pair, kind):
    from gui.export import charts as export
    snap_a, snap_b, bands = pair
    head, body = _rows(export.series_csv(snap_b.sweep, kind, bands=bands, pinned=snap_a))
    plain_head, plain_body = _rows(export.series_csv(snap_b.sweep, kind))
    assert head[: len(plain_head)] == plain_head  # B's columns first, as before
    assert len(body) == len(plain_body) == len(snap_b.sweep.x)  # same grid: one row per x
    key, scale = KEYS[kind]
    y = plain_head[1].split(": ", 1)[1]
    for i, label in enumerate(snap_b.sweep.labels):
        lo, mid, hi = (_col(head, body, f"{label} [{p}]: {y}") for p in ("P10", "P50", "P90"))
        ok = np.isfinite(lo)
        assert ok.sum() > 10
        assert np.all(lo[ok] <= mid[ok] + 1e-9) and np.all(mid[ok] <= hi[ok] + 1e-9)
        want_mid = np.asarray(bands.band(key, 50.0)[i], dtype=float) * scale
        want_a = np.asarray(snap_a.sweep.metric(key)[i], dtype=float) * scale
        if kind == "tco":  # against the baseline's (Ethernet's) nominal TCO, as the chart draws it
            assert snap_b.sweep.fabrics[0] == snap_a.sweep.fabrics[0] == "ethernet"
            want_mid = (want_mid / np.asarray(snap_b.sweep.money.tco[0], dtype=float) - 1.0) * 100.0
            want_a = (want_a / np.asarray(snap_a.sweep.money.tco[0], dtype=float) - 1.0) * 100.0
        np.testing.assert_allclose(mid[ok], want_mid[ok], rtol=5e-4)  # four significant figures
        got_a = _col(head, body, f"{label} [A: {snap_a.scenario.name}]: {y}")
        np.testing.assert_allclose(got_a, want_a, rtol=5e-4, equal_nan=True)
    assert len(head) == len(plain_head) + 4 * len(snap_b.sweep.fabrics)


def test_csv_rows_are_the_union_when_the_grids_differ(pair):
    """A pinned at 6,000 nodes sweeps up to 10,000: rows for both grids, each column empty off its own."""
    from gui.export import charts as export
    _, snap_b, _ = pair
    snap_a = export.snapshot_for(snap_b.scenario.replace("cluster.nodes", 6000))
    assert len(snap_a.sweep.x) != len(snap_b.sweep.x)
    head, body = _rows(export.series_csv(snap_b.sweep, "utilisation", pinned=snap_a))
    xs = np.array([float(r[0]) for r in body])
    np.testing.assert_array_equal(xs, np.union1d(snap_a.sweep.x, snap_b.sweep.x))
    ib_b = _col(head, body, next(h for h in head if h.startswith("InfiniBand:")))
    ib_a = _col(head, body, next(h for h in head if h.startswith("InfiniBand [A")))
    only_a = ~np.isin(xs, snap_b.sweep.x)
    assert only_a.any() and np.all(np.isnan(ib_b[only_a])) and np.isfinite(ib_a[only_a]).any()


def test_overlays_along_another_axis_are_refused(pair, tmp_path):
    from gui.export import charts as export
    snap_a, snap_b, bands = pair
    other = export.snapshot_for(snap_a.scenario, "fabric.latency_us")
    with pytest.raises(ScenarioError, match="pinned"):
        export.export_chart(snap_b, "tco", tmp_path / "x.csv", pinned=other)
    with pytest.raises(ScenarioError, match="bands"):
        export.export_chart(other, "tco", tmp_path / "x.png", bands=bands)
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------
# charts
# --------------------------------------------------------------------------

def test_chart_draws_bands_and_dashed_a_with_legend_entries(pair):
    from PySide6 import QtGui

    from gui.export import charts as export
    from gui.charts.compare import PINNED_ALPHA, PINNED_DASH

    snap_a, snap_b, bands = pair
    w = export.build_chart(snap_b, "duration", bands=bands, pinned=snap_a)
    try:
        import pyqtgraph as pg

        items = w.getPlotItem().items
        fills = [it for it in items if isinstance(it, pg.FillBetweenItem) and it.isVisible()]
        assert len(fills) == len(snap_b.sweep.fabrics)
        pens = [it.opts["pen"] for it in items if isinstance(it, pg.PlotDataItem) and it.isVisible()
                and isinstance(it.opts["pen"], QtGui.QPen)]
        dashed = [p for p in pens if list(p.dashPattern()) == PINNED_DASH and p.color().alpha() == PINNED_ALPHA]
        assert len(dashed) == len(snap_a.sweep.fabrics)  # A's curves, faint and dashed
        texts = [label.text for _, label in w.legend.items]
        assert any(t.startswith("A: Case 2") for t in texts) and "P10–P90" in texts
    finally:
        w.close()
    plain = export.build_chart(snap_b, "duration")
    try:
        assert not any(isinstance(it, pg.FillBetweenItem) for it in plain.getPlotItem().items)
        assert len(plain.legend.items) == len(w.legend.items) - 2
    finally:
        plain.close()


def _tint(hex_colour: str, alpha: int, over: str = "#ffffff") -> str:
    from PySide6 import QtGui

    c, b = QtGui.QColor(hex_colour), QtGui.QColor(over)
    mix = [round(v * alpha / 255 + w * (1 - alpha / 255))
           for v, w in zip((c.red(), c.green(), c.blue()), (b.red(), b.green(), b.blue()))]
    return "#%02x%02x%02x" % tuple(mix)


def test_png_shows_the_bands(pair, tmp_path):
    """The PNG has the band's tint (the fabric colour, translucent over white, or over the faint shading
    where the fabric in focus leaves GPUs idle) only when bands are given."""
    from PySide6 import QtGui

    from gui.export import charts as export
    from gui.charts.bands import BAND_ALPHA
    from gui.charts.plot_items import IDLE_SHADE_ALPHA

    _, snap_b, bands = pair
    # RoCE's colour, whose band is widest on this preset (TCP Ethernet sits near zero utilisation at the
    # article's 0.75 % loss, its band a thin line)
    focus = model.catalog.fabric_style(snap_b.scenario.fabric.focus_fabric)["colour"]
    tints = (_tint("#0072B2", BAND_ALPHA), _tint("#0072B2", BAND_ALPHA, over=_tint(focus, IDLE_SHADE_ALPHA)))

    def count(path) -> int:
        img = QtGui.QImage(str(path)).convertToFormat(QtGui.QImage.Format.Format_RGB32)
        arr = np.frombuffer(img.constBits(), dtype=np.uint8).reshape(img.height(), img.bytesPerLine())
        arr = arr[:, : img.width() * 4].reshape(img.height(), img.width(), 4)[..., :3].astype(int)
        hit = np.zeros(arr.shape[:2], dtype=bool)
        for tint in tints:
            c = QtGui.QColor(tint)
            hit |= np.abs(arr - [c.blue(), c.green(), c.red()]).max(axis=-1) < 8
        # a band is an area: count tinted pixels whose four neighbours are tinted too (a curve's
        # antialiased edge, a dotted line's dots, pass through the tint without filling anything)
        inner = hit[1:-1, 1:-1] & hit[:-2, 1:-1] & hit[2:, 1:-1] & hit[1:-1, :-2] & hit[1:-1, 2:]
        return int(inner.sum())

    with_bands = count(export.export_chart(snap_b, "utilisation", tmp_path / "b.png", width=800, bands=bands))
    without = count(export.export_chart(snap_b, "utilisation", tmp_path / "p.png", width=800))
    assert with_bands > 500 and without < with_bands / 20, (with_bands, without)  # inner pixels only


def test_svg_and_pdf_carry_the_overlays(pair, tmp_path):
    from gui.export import charts as export
    snap_a, snap_b, bands = pair
    svg = export.export_chart(snap_b, "tco", tmp_path / "t.svg", bands=bands, pinned=snap_a).read_text("utf-8")
    assert "stroke-dasharray" in svg and "P10–P90" in svg and "A: Case 2" in svg
    text = _pdftext(export.export_chart(snap_b, "tco", tmp_path / "t.pdf", bands=bands, pinned=snap_a))
    assert "P10–P90" in text and "A: Case 2" in text


# --------------------------------------------------------------------------
# the proposal sheet
# --------------------------------------------------------------------------

def test_proposal_with_pin_and_bands(pair, tmp_path):
    from gui.export import proposal
    from gui.charts.compare import compare_rows

    snap_a, snap_b, bands = pair
    c = proposal.proposal_content(snap_b, bands=bands, pinned=snap_a)
    assert c.bands == {"samples": 1000, "seed": 0}
    ib = next(r for r in c.compare["rows"] if r["fabric"] == "infiniband")
    days = next(r for r in compare_rows(snap_a.point, snap_b.point)
                if r["fabric"] == "infiniband" and r["metric"] == "days")
    assert ib["cells"]["days"]["a"] == f"{days['a']:.1f}" and ib["cells"]["days"]["b"] == f"{days['b']:.1f}"
    assert ib["cells"]["days"]["delta"].startswith("+") and ib["cells"]["days"]["colour"] == "#b00020"  # slower
    assert "Model parameters: 30 → 60" in c.compare["changes_html"]
    out = proposal.write_proposal(snap_b, tmp_path / "ab.pdf", bands=bands, pinned=snap_a)
    assert _pages(out) == "1"
    flat = " ".join(_pdftext(out).split())
    for words in ("A/B compare: A “Case 2 · 24 × A100 · 30B” (pinned, dashed on the charts) against B "
                  "“Case 2 at 60B”", "Δ = B − A", "A: Case 2",
                  "P10–P90 (1,000 seeded samples, seed 0)", "Changed from A: Model parameters: 30 → 60",
                  "Assumptions and sources"):
        assert words in flat, words
    plain = " ".join(_pdftext(proposal.write_proposal(snap_b, tmp_path / "p.pdf")).split())
    assert "A/B compare" not in plain and "seeded samples" not in plain


def test_the_audit_is_a_page_more_and_the_sheet_keeps_the_pin_and_every_source(pair, tmp_path):
    """A pinned A's table, every source and the case study's claims: the claims on a page of their own, nothing
    left out and the charts as large as without the audit."""
    from gui.export import charts as export
    from gui.export import proposal
    snap_a = pair[0]
    snap_b = export.snapshot_for(snap_a.scenario.replace("cluster.nodes", 48))  # still the case-2 preset, edited
    plain = " ".join(_pdftext(proposal.write_proposal(snap_b, tmp_path / "p.pdf", audit=True)).split())
    assert "The article’s claims beside the engine" in plain
    out = proposal.write_proposal(snap_b, tmp_path / "ab.pdf", pinned=snap_a, audit=True)
    without = proposal.write_proposal(snap_b, tmp_path / "ab-plain.pdf", pinned=snap_a)
    assert _pages(out) == "2" and _pages(without) == "1"
    sheet, audit = (" ".join(p.split()) for p in _pdftext(out).split("\f"))
    assert sheet == " ".join(_pdftext(without).split())  # the sheet as without the audit
    assert "A/B compare" in sheet and "The article’s claims beside the engine" in audit
    flat = sheet
    for source in ("Profile set", "NVIDIA A100 SXM4 80 GB: prices and power", "Reliability defaults",
                   "Economics defaults", "Electricity (CNY)"):  # the last source's guesses, whole
        assert source in flat, source


# --------------------------------------------------------------------------
# the command line
# --------------------------------------------------------------------------

def _cli(*args, timeout=240):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run([sys.executable, "-m", "gui.cli.main", "export", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=timeout)


@pytest.fixture(scope="module")
def b_file(tmp_path_factory):
    text = PRESET.read_text(encoding="utf-8")
    text = text.replace('name = "Case 2 · 24 × A100 · 30B (autonomous driving, InfiniBand)"',
                        'name = "Case 2 at 60B"')
    text = text.replace("params_b = 30.0", "params_b = 60.0")
    assert "Case 2 at 60B" in text and "params_b = 60.0" in text
    path = tmp_path_factory.mktemp("b") / "b60.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_cli_bands_are_reproducible_and_pin_adds_columns(b_file, tmp_path):
    outs = [tmp_path / "1.csv", tmp_path / "2.csv"]
    for out in outs:
        r = _cli(b_file, "--chart", "tco", "--bands", "--pin", PRESET, "--out", out)
        assert r.returncode == 0, r.stderr
    assert outs[0].read_bytes() == outs[1].read_bytes()  # seeded: the same file every time
    head, body = _rows(outs[0].read_text(encoding="utf-8"))
    assert sum("[P10]" in h for h in head) == sum("[P90]" in h for h in head) == 4
    assert sum("[A: Case 2 · 24 × A100 · 30B" in h for h in head) == 4
    r = _cli("--help")
    assert "--bands" in r.stdout and "--pin" in r.stdout


def test_cli_proposal_in_chinese_with_pin_and_bands(b_file, tmp_path):
    out = tmp_path / "zh.pdf"
    r = _cli(b_file, "--bands", "--pin", PRESET, "--lang", "zh_CN", "--out", out)
    assert r.returncode == 0, r.stderr
    assert _pages(out) == "1"
    flat = "".join(_pdftext(out).split())
    for words in ("A/B对比", "P10–P90区间", "固定种子样本", "相对A的改动"):
        assert words in flat, words
    assert not [ch for ch in flat if 0x2E80 <= ord(ch) <= 0x2FDF or 0xF900 <= ord(ch) <= 0xFAFF]


def test_cli_bad_pin_exits_2(b_file, tmp_path):
    r = _cli(b_file, "--chart", "tco", "--pin", tmp_path / "missing.toml", "--out", tmp_path / "x.csv")
    assert r.returncode == 2 and "missing.toml" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x.csv").exists()
