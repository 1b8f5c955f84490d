"""Chart exports (PNG/SVG/PDF/CSV), the proposal sheet and `fabric-whatif export`, checked by opening the files."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import model
from model import ScenarioError

import pdfread  # tests/pdfread.py: PDFs opened with PyPI libraries

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
PRESET = ROOT / "assets" / "presets" / "case2_autodriving_24xA100_30B.toml"
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def snap(qapp):
    from gui.export import charts as export
    return export.snapshot_for(model.load_scenario(PRESET))


def _pdftext(path) -> str:
    """The PDF's text as a reader copies it (ligatures such as "ﬁ" read as the letters they join)."""
    return unicodedata.normalize("NFKC", pdfread.text(path))


def _image(data_or_path):
    from PySide6 import QtGui

    img = QtGui.QImage()
    if isinstance(data_or_path, (bytes, bytearray)):
        assert img.loadFromData(data_or_path)
    else:
        assert img.load(str(data_or_path))
    return img


def _colour_pixels(img, hex_colour: str, tol: int = 40) -> int:
    """How many pixels are close to ``hex_colour`` (a curve's colour)."""
    from PySide6 import QtGui

    img = img.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    arr = np.frombuffer(img.constBits(), dtype=np.uint8).reshape(img.height(), img.bytesPerLine())
    arr = arr[:, : img.width() * 4].reshape(img.height(), img.width(), 4)
    c = QtGui.QColor(hex_colour)
    bgr = np.array([c.blue(), c.green(), c.red()])
    return int((np.abs(arr[..., :3].astype(int) - bgr).max(axis=-1) < tol).sum())


# --------------------------------------------------------------------------
# CSV
# --------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["utilisation", "duration", "tco", "cost_per_run"])
def test_csv_is_the_engine_result_with_units(snap, kind, tmp_path):
    from gui.export import charts as export
    out = export.export_chart(snap, kind, tmp_path / f"{kind}.csv")
    text = out.read_text(encoding="utf-8")
    block = dict(line[2:].split(": ", 1) for line in text.splitlines() if line.startswith("# "))
    assert block["scenario"] == snap.scenario.name and block["engine"] == f"fabric-whatif {model.__version__}"
    assert block["fabric figures"] == "Article's inputs (seed)" and "Nodes along the rows" in block["units"]
    assert re.fullmatch(r"[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}", block["fingerprint"])
    rows = list(csv.reader(line for line in io.StringIO(text) if not line.startswith("#")))
    head, body = rows[0], rows[1:]
    assert head[0] == "Nodes"
    # numbers rounded to their meaning: four significant figures, whole numbers whole, never a 17-digit float
    cells = [c for r in body for c in r[1:] if c]
    assert cells and all(len(c.replace("-", "").replace(".", "").lstrip("0")) <= 4 or "." not in c for c in cells)
    unit = {"utilisation": "(%)", "duration": "(days)", "tco": "(%)", "cost_per_run": "(CNY)"}[kind]
    plotted = [h for h in head[1:] if unit in h]
    assert len(plotted) == (len(snap.sweep.fabrics) if kind == "tco" else len(head) - 1)
    assert len(body) == len(snap.sweep.x)
    np.testing.assert_array_equal([float(r[0]) for r in body], snap.sweep.x)
    key = {"utilisation": "mfu", "duration": "train_days_with_interruptions", "tco": "tco",
           "cost_per_run": "cost_per_run"}[kind]
    scale = 100.0 if kind == "utilisation" else 1.0
    ib = list(snap.sweep.fabrics).index("infiniband")
    col = [h.startswith(snap.sweep.labels[ib] + ":") for h in head].index(True)
    got = np.array([float(r[col]) if r[col] else np.nan for r in body])
    want = np.asarray(snap.sweep.metric(key), dtype=float) * scale
    if kind == "tco":  # the plotted difference from the baseline (Ethernet), then each fabric's TCO in CNY
        eth = list(snap.sweep.fabrics).index("ethernet")
        assert all(h.endswith("TCO vs Ethernet (%)") for h in plotted)
        np.testing.assert_allclose(got, (want[ib] / want[eth] - 1.0) * 100.0, rtol=5e-4, equal_nan=True)
        assert np.nanmax(got) > 3.0  # case 2: InfiniBand's TCO a few percent above Ethernet's somewhere
        money = head.index(snap.sweep.labels[ib] + ": TCO (CNY)")
        got = np.array([float(r[money]) if r[money] else np.nan for r in body])
    np.testing.assert_allclose(got, want[ib], rtol=5e-4, equal_nan=True)


# --------------------------------------------------------------------------
# PNG: the chosen width, and lines that grow with it
# --------------------------------------------------------------------------

def test_png_default_width_is_at_least_twice_the_screen(snap, tmp_path):
    from gui.export import charts as export
    assert export.default_png_width() >= 2 * export.DESIGN_SIZE[0]
    img = _image(export.export_chart(snap, "utilisation", tmp_path / "u.png"))
    assert img.width() == export.default_png_width()
    assert img.height() == round(img.width() * export.DESIGN_SIZE[1] / export.DESIGN_SIZE[0])


@pytest.mark.parametrize("width", [800, 1600, 3200])
def test_png_width_and_white_background(snap, tmp_path, width):
    from gui.export import charts as export
    img = _image(export.export_chart(snap, "duration", tmp_path / "d.png", width=width))
    assert (img.width(), img.height()) == (width, width * 3 // 5)
    from PySide6 import QtGui

    for x, y in ((0, 0), (width - 1, 0), (0, img.height() - 1), (width - 1, img.height() - 1)):
        assert QtGui.QColor(img.pixel(x, y)).name() == "#ffffff"


def test_png_lines_scale_with_the_width(snap, tmp_path):
    """pyqtgraph's ImageExporter keeps 1-px lines in a wide PNG; ours scale like everything else."""
    from gui.export import charts as export
    small = _image(export.export_chart(snap, "utilisation", tmp_path / "s.png", width=800))
    big = _image(export.export_chart(snap, "utilisation", tmp_path / "b.png", width=3200))
    # InfiniBand's green covers an area that grows with the square of the scale (4x wider: ~16x),
    # a hair-line would grow only linearly (~4x).
    ratio = _colour_pixels(big, "#009E73") / max(1, _colour_pixels(small, "#009E73"))
    assert ratio > 10, ratio


def test_png_marker_sits_on_the_curve(snap, tmp_path):
    """The current-value markers are where the curves are at the current x, at any width."""
    from PySide6 import QtCore

    from gui.export import charts as export
    for width in (800, 2400):
        img = _image(export.export_chart(snap, "utilisation", tmp_path / "m.png", width=width))
        w = export.build_chart(snap, "utilisation")
        try:
            vb = w.getPlotItem().vb
            x = float(np.log10(snap.current_x[0]))
            ib = list(snap.point.fabrics).index("infiniband")
            y = float(snap.point.throughput.mfu[ib]) * 100
            pos = vb.mapViewToScene(QtCore.QPointF(x, y))
        finally:
            w.close()
        s = width / export.DESIGN_SIZE[0]
        px, py = int(pos.x() * s), int(pos.y() * s)
        r = int(3 * s)
        patch = img.copy(px - r, py - r, 2 * r, 2 * r)
        assert _colour_pixels(patch, "#009E73") > 0.2 * (2 * r) ** 2


# --------------------------------------------------------------------------
# SVG: a canvas size, a white background, strokes any program draws alike
# --------------------------------------------------------------------------

def test_svg_has_size_white_background_and_no_transformed_hairlines(snap, tmp_path):
    from gui.export import charts as export
    out = export.export_chart(snap, "tco", tmp_path / "t.svg")
    root = ET.parse(out).getroot()
    assert root.get("width") == f"{export.DESIGN_SIZE[0]}px" and root.get("height") == f"{export.DESIGN_SIZE[1]}px"
    assert root.get("viewBox") == f"0 0 {export.DESIGN_SIZE[0]} {export.DESIGN_SIZE[1]}"
    first = next(el for el in root.iter() if el.tag in (SVG_NS + "rect", SVG_NS + "path", SVG_NS + "polyline"))
    assert first.tag == SVG_NS + "rect" and first.get("width") == str(export.DESIGN_SIZE[0])
    parent_fill = [g for g in root.iter(SVG_NS + "g") if first in list(g)][0].get("fill")
    assert parent_fill == "#ffffff"
    # Strokes under a scaling transform would be drawn hundreds of pixels wide by programs that
    # ignore vector-effect (office suites, librsvg): none may be left.
    for g in root.iter(SVG_NS + "g"):
        a, b, c, d = (float(v) for v in (g.get("transform") or "matrix(1,0,0,1,0,0)")[7:-1].split(",")[:4])
        scaling = abs(a * d - b * c - 1) > 1e-6
        for el in g:
            assert not (scaling and el.get("vector-effect")), (g.get("transform"), el.tag)
    text = out.read_text(encoding="utf-8")
    assert "Nodes" in text and "InfiniBand" in text  # text stays text
    assert "sans-serif" in text


def test_svg_renders_like_the_png(snap, tmp_path):
    from PySide6 import QtCore, QtGui, QtSvg

    from gui.export import charts as export
    svg = export.export_chart(snap, "utilisation", tmp_path / "u.svg")
    png = _image(export.export_chart(snap, "utilisation", tmp_path / "u.png", width=1600))
    r = QtSvg.QSvgRenderer(str(svg))
    assert r.isValid()
    img = QtGui.QImage(1600, 960, QtGui.QImage.Format.Format_ARGB32)
    img.fill(QtGui.QColor(0, 0, 0, 0))  # transparent: the SVG must paint its own white
    p = QtGui.QPainter(img)
    r.render(p, QtCore.QRectF(0, 0, 1600, 960))
    p.end()
    assert QtGui.QColor(img.pixel(5, 5)).name() == "#ffffff" and img.pixelColor(5, 5).alpha() == 255
    for colour in ("#009E73", "#0072B2", "#D55E00"):
        a, b = _colour_pixels(img, colour), _colour_pixels(png, colour)
        assert abs(a - b) <= 0.1 * b, (colour, a, b)


def test_flatten_svg_bakes_transforms():
    from gui.export.charts import flatten_svg

    svg = ('<g fill="none" stroke="#009e73" stroke-width="2" transform="matrix(10,0,0,-2,5,100)"\n>\n'
           '<polyline fill="none" vector-effect="non-scaling-stroke" points="0,0 1,10 " />\n'
           '<path vector-effect="non-scaling-stroke" fill-rule="evenodd" d="M0,0 L2,5 C1,1 2,2 3,3 Z "/>\n'
           '<rect vector-effect="non-scaling-stroke" x="0" y="0" width="1" height="1"/>\n</g>'
           '<g transform="matrix(1,0,0,1,3,4)"\n>\n<text x="1" y="2">keep</text>\n</g>')
    out = flatten_svg(svg)
    assert 'points="5,100 15,80 "' in out
    assert 'd="M5,100 L25,90 C15,98 25,96 35,94 Z "' in out
    assert 'points="5,100 15,100 15,98 5,98"' in out
    assert "vector-effect" not in out and "matrix(10," not in out
    assert 'matrix(1,0,0,1,3,4)' in out and "keep" in out


# --------------------------------------------------------------------------
# PDF: vector, one page the size of the chart, text selectable
# --------------------------------------------------------------------------

def test_chart_pdf_text_is_selectable(snap, tmp_path):
    from gui.export import charts as export
    out = export.export_chart(snap, "duration", tmp_path / "d.pdf")
    assert out.read_bytes().startswith(b"%PDF")
    assert pdfread.page_count(out) == 1 and pdfread.page_size_pt(out) == (600, 360)
    text = _pdftext(out)
    assert "Training duration" in text and "Nodes" in text and "InfiniBand" in text
    # vector: no embedded raster image for the curves or markers
    assert pdfread.image_count(out) == 0


# --------------------------------------------------------------------------
# the proposal sheet
# --------------------------------------------------------------------------

@pytest.mark.parametrize("paper,size", [("a4", (595, 842)), ("letter", (612, 792))])
def test_proposal_one_page_with_everything(snap, tmp_path, paper, size):
    import datetime as dt

    from gui.export import proposal
    out = proposal.write_proposal(snap, tmp_path / f"p_{paper}.pdf", paper=paper, source=PRESET,
                                  today=dt.date(2026, 12, 2), audit=True)
    # the audit is a second page; the sheet stays one page
    assert pdfread.page_count(out) == 2 and pdfread.page_size_pt(out) == pdfread.page_size_pt(out, 1) == size
    assert "claims beside the engine" in pdfread.text(out).split("\f")[1]
    flat = " ".join(_pdftext(out).split())  # reading order: a wrapped title reads as one line
    for words in ("NETWORK FABRIC PROPOSAL", snap.scenario.name, "Inputs", "24 nodes", "Recommendation",
                  "decision tree", "GPU utilisation", "Training duration", "TCO",
                  "At this scenario", "RoCE", "iWARP", "InfiniBand", "claims", "22 days",
                  "Assumptions and sources", "Profile set", "2026-12-02", f"Fabric What-If {model.__version__}",
                  "seed"):
        assert words in flat, words
    # charts are vectors: no raster images on the page
    assert pdfread.image_count(out) == 0
    img = pdfread.render(out, dpi=40)
    assert _colour_pixels(img, "#009E73") > 50  # the InfiniBand curves are on the page


def test_customer_sheet_leads_with_the_answer_and_leaves_the_audit_out(snap, tmp_path):
    from gui.export import proposal
    c = proposal.proposal_content(snap)
    assert c.claims == [] and not c.audit
    assert re.match(r"InfiniBand: [\d,.]+ → 13\.0 days", c.takeaway) and "per training run" in c.takeaway
    text = " ".join(_pdftext(proposal.write_proposal(snap, tmp_path / "p.pdf")).split())
    assert c.takeaway in " ".join(text.split()) and "claims" not in text and "22 days" not in text
    assert "cannot hold the 24 GPU servers" in text  # the budget, said once in words
    audit = proposal.proposal_content(snap, audit=True)
    same_work = [r for r in audit.claims if "same work" in r.label]
    assert same_work and all(r.explanation for r in same_work)
    assert "↳" in proposal._claims_html(audit)


def test_proposal_without_claims_for_a_plain_scenario(qapp, tmp_path):
    from gui.export import charts as export
    from gui.export import proposal
    snap = export.snapshot_for(model.load_scenario(DATA / "scenario_v1.toml"))
    c = proposal.proposal_content(snap)
    assert c.claims == [] and c.claims_preset is None
    assert [f["label"] for f in c.fabrics] == list(snap.point.labels)
    out = proposal.write_proposal(snap, tmp_path / "p.pdf")
    text = _pdftext(out)
    assert "RoCE 4 × 400G" in text and "claims" not in text


def _pages(path) -> str:
    return str(pdfread.page_count(path))


def _flat(path) -> str:
    return " ".join(_pdftext(path).split())


@pytest.fixture(scope="module")
def crossing_snap(qapp):
    """A slow InfiniBand against a loss-free RoCE: they cross on TCO and on duration along nodes."""
    from gui.export import charts as export
    s = model.load_scenario(ROOT / "assets" / "presets" / "default.toml").replace_many({
        "fabric.custom.infiniband.link_gbps": 100.0, "fabric.custom.infiniband.latency_us": 1000.0,
        "fabric.custom.roce.loss_rate": 0.0})
    return export.snapshot_for(s)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_proposal_states_the_break_even(snap, tmp_path, paper):
    from gui.charts import breakeven
    from gui.export import proposal
    out = proposal.write_proposal(snap, tmp_path / "p.pdf", paper=paper)
    assert _pages(out) == "1"
    flat = _flat(out)
    assert "Break-even, InfiniBand vs RoCE" in flat
    pair = breakeven.default_pair(snap.sweep, snap.point)
    lines = breakeven.sentences(snap.sweep, pair)
    assert lines and all(" ".join(t.split()) in flat for t in lines), (lines, flat)
    # the sources are not cut to make room: their last entry is on the page
    assert "Economics defaults" in flat


def test_proposal_marks_the_crossings_on_its_charts(crossing_snap, tmp_path):
    from gui.export import proposal
    pair = ("infiniband", "roce")
    c = proposal.proposal_content(crossing_snap, pair=pair)
    assert {x.metric for x in c.breakeven["crossings"]} == {"tco", "train_days_with_interruptions"}
    out = proposal.write_proposal(crossing_snap, tmp_path / "p.pdf", pair=pair)
    assert _pages(out) == "1"
    flat = _flat(out)
    assert "InfiniBand costs less (TCO) above 2 nodes; RoCE below" in flat  # the sentence
    # the marker's label on the duration chart (on the page it is shortened to fit beside its line)
    from gui.charts import breakeven
    days = [x for x in c.breakeven["crossings"] if x.metric == "train_days_with_interruptions"]
    assert [breakeven.label_text(crossing_snap.sweep, x) for x in days] == ["RoCE faster above 1 nodes"]
    # the dashed lines (at 150 dpi: thin dashes anti-alias out of the colour at low resolutions)
    assert _colour_pixels(pdfread.render(out, dpi=150), "#6a3d9a", tol=30) > 300


CJK_TEXT = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_chinese_proposal(snap, qapp, tmp_path, paper):
    from gui import i18n
    from gui.export import proposal
    assert i18n.set_language("zh_CN")
    try:
        out = proposal.write_proposal(snap, tmp_path / "zh.pdf", paper=paper, source=PRESET)
    finally:
        i18n.set_language("en")
    assert _pages(out) == "1"
    flat = _flat(out)
    for words in ("网络方案建议书", "输入", "推荐", "盈亏平衡点", "本场景下", "假设与来源", "经济性默认值",
                  "节点数", "案例 2 · 24 × A100 · 30B"):  # the preset's name in Chinese too
        assert words in flat, words
    assert len(CJK_TEXT.findall(flat)) > 300
    for english in ("Recommendation", "Assumptions and sources", "At this scenario", "Break-even", "Generated by"):
        assert english not in flat, english
    # the bundled CJK font travels with the file
    fonts = pdfread.fonts(out)
    cjk = {name: emb for name, emb in fonts.items() if "CJK" in name}
    assert cjk and all(cjk.values()), fonts


def test_cli_lang_option(tmp_path):
    out = tmp_path / "zh.pdf"
    r = _cli("export", PRESET, "--out", out, "--lang", "zh_CN")
    assert r.returncode == 0, r.stderr
    assert "网络方案建议书" in _pdftext(out) and _pages(out) == "1"
    r = _cli("export", "--help")
    assert "--lang" in r.stdout and "zh_CN" in r.stdout


# --------------------------------------------------------------------------
# bad paths and formats: a clear error, nothing left behind
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["chart.jpg", "chart", "chart.PNG.bak"])
def test_bad_format(snap, tmp_path, name):
    from gui.export import charts as export
    with pytest.raises(ScenarioError) as info:
        export.export_chart(snap, "tco", tmp_path / name)
    assert ".png, .svg, .pdf, .csv" in str(info.value) and name in str(info.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("ext", [".png", ".svg", ".pdf", ".csv"])
def test_unwritable_destination(snap, tmp_path, ext):
    from gui.export import charts as export
    (tmp_path / "file").write_text("x")
    with pytest.raises(ScenarioError, match="not writable"):
        export.export_chart(snap, "utilisation", tmp_path / "file" / f"c{ext}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_failed_write_leaves_nothing(snap, tmp_path, monkeypatch):
    from gui.export import charts as export
    from model import files

    monkeypatch.setattr(files.os, "replace", lambda *a: (_ for _ in ()).throw(OSError(28, "No space left")))
    with pytest.raises(ScenarioError, match="No space left"):
        export.export_chart(snap, "utilisation", tmp_path / "c.png", width=400)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("width", [0, 50, 100_000, 1.5, True])
def test_bad_width(snap, tmp_path, width):
    from gui.export import charts as export
    with pytest.raises(ScenarioError, match="width"):
        export.export_chart(snap, "utilisation", tmp_path / "c.png", width=width)


# --------------------------------------------------------------------------
# the command line
# --------------------------------------------------------------------------

def _cli(*args, env_extra=None, timeout=240):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "gui.cli.main", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=timeout)


@pytest.mark.slow
def test_cli_exports_every_format_without_a_display(tmp_path):
    outs = [tmp_path / "u.png", tmp_path / "d.svg", tmp_path / "t.csv", tmp_path / "u.pdf", tmp_path / "sheet.pdf"]
    charts = ["utilisation", "duration", "tco", "utilisation", None]
    for out, chart in zip(outs, charts):
        args = [PRESET, "--out", out] + (["--chart", chart] if chart else [])
        if out.suffix == ".png":
            args += ["--width", "1000"]
        r = _cli("export", *args)
        assert r.returncode == 0, r.stderr
        assert out.is_file() and out.stat().st_size > 0
        assert "wrote" in r.stdout
    assert _image(outs[0]).width() == 1000
    text = _pdftext(outs[-1])
    assert "Recommendation" in text and "Assumptions and sources" in text


@pytest.mark.parametrize("args,words", [
    (["--out", "{tmp}/x.jpg", "--chart", "tco"], ["x.jpg", ".png, .svg, .pdf, .csv"]),
    (["--out", "{tmp}/x.png"], ["--chart", "utilisation", "proposal"]),
    (["--out", "{tmp}/file/x.pdf"], ["x.pdf", "not writable", "is a file"]),
    (["--out", "{tmp}/nope/x.pdf"], ["x.pdf", "does not exist"]),
    (["--out", "{tmp}/x.svg", "--chart", "tco", "--width", "900"], ["--width", "only for .png"]),
    (["--out", "{tmp}/x.png", "--chart", "speed"], ["invalid choice", "speed"]),
    (["--out", "{tmp}/x.png", "--chart", "tco", "--x", "cluster.gpu"], ["--x", "cluster.nodes"]),
])
def test_cli_bad_path_or_format_exits_2(tmp_path, args, words):
    (tmp_path / "file").write_text("x")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    r = _cli("export", PRESET, *args)
    assert r.returncode == 2, (r.returncode, r.stderr)
    for w in words:
        assert w in r.stderr, (w, r.stderr)
    assert "Traceback" not in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.mark.parametrize("content", [b"[cluster\n", b"\x00\xff\xfe", b"", b"[cluster]\nnodes = 0\n"])
def test_cli_bad_scenario_exits_2(tmp_path, content):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(content)
    r = _cli("export", bad, "--out", tmp_path / "x.pdf")
    assert r.returncode == 2 and str(bad) in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_cli_missing_scenario_exits_2(tmp_path):
    r = _cli("export", tmp_path / "missing.toml", "--out", tmp_path / "x.csv", "--chart", "tco")
    assert r.returncode == 2 and "missing.toml" in r.stderr


def test_proposal_says_when_the_claims_are_for_the_unedited_preset(snap):
    import dataclasses

    from gui.export import proposal
    assert proposal.proposal_content(snap, audit=True).claims_edited is False
    edited = dataclasses.replace(snap, scenario=snap.scenario.replace("cluster.nodes", 32))
    c = proposal.proposal_content(edited, audit=True)
    assert c.claims_edited is True and c.claims
    assert "edits are not in this table" in proposal._claims_html(c)


def test_export_ignores_presentation_mode_fonts(snap, qapp, tmp_path):
    """The window's presentation mode enlarges the app font; exports keep their design size."""
    from PySide6 import QtGui

    from gui.export import charts as export
    a = export.build_chart(snap, "utilisation")
    base = qapp.font()
    try:
        big = QtGui.QFont(base)
        big.setPointSizeF(base.pointSizeF() * 1.35)
        qapp.setFont(big)
        b = export.build_chart(snap, "utilisation")
        fa, fb = (w.getPlotItem().getAxis("left").style["tickFont"] for w in (a, b))
        assert fa.pointSizeF() == fb.pointSizeF() == export.EXPORT_FONT_PT
        b.close()
    finally:
        qapp.setFont(base)
        a.close()


@pytest.mark.parametrize("kind", ["utilisation", "duration", "tco"])
def test_compact_chart_fits_its_box(snap, kind):
    """On the sheet a chart is a third of the page wide: nothing (legend, title) may push its plot outside."""
    from PySide6 import QtCore

    from gui.export import charts as export
    w = export.build_chart(snap, kind, size=(230, 160), line_width=1.5, font_pt=6.5, compact=True)
    try:
        box = QtCore.QRectF(0, 0, 230, 160)
        pi = w.getPlotItem()
        assert box.contains(pi.vb.sceneBoundingRect()), pi.vb.sceneBoundingRect()
        assert box.contains(pi.getAxis("bottom").sceneBoundingRect())
        assert pi.vb.sceneBoundingRect().width() > 120 and pi.vb.sceneBoundingRect().height() > 80
        (x0, x1), _ = pi.vb.viewRange()
        assert x0 <= np.log10(snap.sweep.x.min()) + 0.1 and x1 >= np.log10(snap.sweep.x.max()) - 0.1
    finally:
        w.close()


def test_cli_audit_flag_adds_the_article_audit_to_the_proposal(tmp_path):
    r = _cli("export", PRESET, "--out", tmp_path / "audit.pdf", "--audit")
    assert r.returncode == 0, r.stderr
    text = " ".join(_pdftext(tmp_path / "audit.pdf").split())
    assert "The article’s claims beside the engine" in text and "would need" in text
    r = _cli("export", PRESET, "--out", tmp_path / "customer.pdf")
    assert r.returncode == 0, r.stderr
    assert "The article’s claims beside the engine" not in " ".join(_pdftext(tmp_path / "customer.pdf").split())


def test_chinese_svg_names_public_fonts_after_the_private_subset(snap, qapp, tmp_path):
    """The bundled subset's family is the app's own: an SVG names public Chinese fonts and sans-serif after it,
    so its text shows on a machine without the subset."""
    from gui import i18n
    from gui.export import charts as export
    from gui.system.cjk_font import FAMILY

    assert i18n.set_language("zh_CN")
    try:
        out = export.export_chart(snap, "duration", tmp_path / "zh.svg")
    finally:
        i18n.set_language("en")
    families = set(re.findall(r'font-family="([^"]*)"', out.read_text(encoding="utf-8")))
    assert families and any(FAMILY in f for f in families)
    for f in families:
        names = [n.strip(" '") for n in f.split(",")]
        assert names[-1] == "sans-serif"
        if FAMILY in names:
            assert set(export.PUBLIC_CJK_FAMILIES) <= set(names[names.index(FAMILY):])
