"""Chinese PDF text copies as typed: no look-alike radicals or compatibility ideographs.

Qt's PDF writer maps each embedded glyph back to the lowest code point the font maps to it;
Noto Sans CJK maps Kangxi radicals and unified ideographs to the same glyphs, so "网" used to
copy as "⽹" (U+2F79). The exports use the bundled subset, which has one code point per glyph
(gui/system/cjk_font.py). These tests read the text the way a reader copies it: PDFium, *no*
Unicode normalisation (NFKC would hide the bug by folding the radicals back).
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import pdfread  # tests/pdfread.py: PDFs opened with PyPI libraries
from gui.system.cjk_font import font_paths

ROOT = Path(__file__).resolve().parent.parent
PRESET = ROOT / "assets" / "presets" / "case2_autodriving_24xA100_30B.toml"
TS = ROOT / "assets" / "i18n" / "fabric_whatif_zh_CN.ts"
LOOKALIKES = ((0x2E80, 0x2FDF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _lookalikes(text: str) -> list[str]:
    return [f"U+{ord(ch):04X} {ch!r}" for ch in text if any(lo <= ord(ch) <= hi for lo, hi in LOOKALIKES)]


def _translation(context: str, source: str) -> str:
    for ctx in ET.parse(TS).getroot().iter("context"):
        if ctx.findtext("name") == context:
            for msg in ctx.iter("message"):
                if msg.findtext("source") == source:
                    return msg.findtext("translation")
    raise AssertionError(f"{context}/{source!r} is not in {TS.name}")


def test_one_to_one_cmap_keeps_the_ideograph():
    from gui.system.cjk_font import one_to_one_cmap

    cmap = {0x2F79: "net", 0x7F51: "net", 0x3B35: "glue", 0x80F6: "glue", 0x301C: "wave", 0xFF5E: "wave",
            0x2003: "sp", 0x3000: "sp", 0xF900: "kai", 0x8C48: "kai", 0x41: "A", 0x2ED3: "long"}
    assert one_to_one_cmap(cmap) == {0x7F51: "net", 0x80F6: "glue", 0xFF5E: "wave", 0x3000: "sp", 0x8C48: "kai",
                                     0x41: "A", 0x2ED3: "long"}  # a radical with a glyph of its own stays
    # the characters the product shows win a shared glyph, a radical never does
    assert one_to_one_cmap({0x2012: "dash", 0x2013: "dash"}, prefer={0x2013}) == {0x2013: "dash"}
    assert one_to_one_cmap({0x2F79: "net", 0x7F51: "net"}, prefer={0x2F79}) == {0x7F51: "net"}


@pytest.mark.parametrize("path", font_paths(), ids=lambda p: p.stem)
def test_bundled_font_maps_each_glyph_from_one_code_point(path):
    from fontTools.ttLib import TTFont

    from gui.system import cjk_font
    with TTFont(path, lazy=True) as font:
        cmap = font.getBestCmap()
        assert font["name"].getDebugName(1) == cjk_font.FAMILY
        assert font["name"].getDebugName(6).startswith("NotoSansCJKsc-")  # the same font, as the PDF names it
    assert len(set(cmap.values())) == len(cmap)  # one code point per glyph
    assert not [cp for cp in cmap if cjk_font.is_lookalike(cp)]
    assert 0x7F51 in cmap and 0x957F in cmap  # 网, 长: copied as radicals before


def _cli_export(*args, timeout=240, **extra_env):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(extra_env)
    return subprocess.run([sys.executable, "-m", "gui.cli.main", "export", str(PRESET), *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=timeout)


@pytest.mark.parametrize("chart", [None, "duration"])
def test_chinese_pdf_copies_as_typed(tmp_path, chart):
    out = tmp_path / "zh.pdf"
    r = _cli_export("--out", out, "--lang", "zh_CN", *(["--chart", chart] if chart else []))
    assert r.returncode == 0, r.stderr
    text = pdfread.text(out)
    assert not _lookalikes(text), _lookalikes(text)[:20]
    flat = "".join(text.split())
    if chart is None:  # the proposal sheet: headings, and inputs that held look-alikes before (网, 长, 入, 用)
        wanted = [("Proposal", "Network fabric proposal"), ("Proposal", "Inputs"), ("Proposal", "Recommendation"),
                  ("Proposal", "Assumptions and sources"), ("Proposal", "At this scenario"),
                  ("Proposal", "Economics defaults"), ("Axes", "Nodes")]
        words = [_translation(c, s) for c, s in wanted]
        words.append(_translation("Proposal", "sequence {n}").split("{")[0].strip())  # 序列长度
    else:
        words = [_translation("Axes", "Nodes"), _translation("Charts", "Training duration (days)")]
    for w in words:
        assert "".join(w.split()) in flat, (w, text[:400])
    fonts = pdfread.fonts(out)
    cjk = {name: emb for name, emb in fonts.items() if name.startswith("NotoSansCJKsc-")}
    assert cjk and all(cjk.values()), fonts  # the bundled font, embedded


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fontconfig decides the system fonts on Linux")
def test_chinese_proposal_on_a_machine_without_any_font(tmp_path):
    """Fontconfig told of no font folder at all: the sheet is drawn with the bundled fonts alone,
    one page, and copies as typed (a laptop without Noto or DejaVu gets the same file)."""
    conf = tmp_path / "fonts.conf"
    conf.write_text(f'<?xml version="1.0"?>\n<fontconfig><cachedir>{tmp_path / "cache"}</cachedir></fontconfig>\n')
    out = tmp_path / "zh.pdf"
    r = _cli_export("--out", out, "--lang", "zh_CN", FONTCONFIG_FILE=str(conf))
    assert r.returncode == 0, r.stderr
    assert pdfread.page_count(out) == 1
    flat = "".join(pdfread.text(out).split())
    assert "".join(_translation("Proposal", "Network fabric proposal").split()) in flat
    assert not _lookalikes(flat)
    fonts = pdfread.fonts(out)
    assert fonts and all(fonts.values()), fonts  # every font embedded
    assert {name.split("-")[0] for name in fonts} == {"DejaVuSans", "NotoSansCJKsc"}, fonts  # the bundled ones
