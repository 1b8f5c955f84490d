"""Chinese PDF text copies as typed (issue #6): no look-alike radicals or compatibility ideographs.

Qt's PDF writer maps each embedded glyph back to the lowest code point the font maps to it;
Noto Sans CJK maps Kangxi radicals and unified ideographs to the same glyphs, so "网" used to
copy as "⽹" (U+2F79). The exports now load a copy of the font with one code point per glyph
(gui/cjk_font.py). These tests read the text the way a reader copies it: pdftotext, *no*
Unicode normalisation (NFKC would hide the bug by folding the radicals back).
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRESET = ROOT / "assets" / "presets" / "case2_autodriving_24xA100_30B.toml"
TS = ROOT / "assets" / "i18n" / "fabric_whatif_zh_CN.ts"
LOOKALIKES = ((0x2E80, 0x2FDF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is missing: install Debian's poppler-utils (.ci/run does)")
    return path


def _lookalikes(text: str) -> list[str]:
    return [f"U+{ord(ch):04X} {ch!r}" for ch in text if any(lo <= ord(ch) <= hi for lo, hi in LOOKALIKES)]


def _translation(context: str, source: str) -> str:
    for ctx in ET.parse(TS).getroot().iter("context"):
        if ctx.findtext("name") == context:
            for msg in ctx.iter("message"):
                if msg.findtext("source") == source:
                    return msg.findtext("translation")
    raise AssertionError(f"{context}/{source!r} is not in {TS.name}")


@pytest.fixture(scope="module")
def faces():
    from gui import cjk_font

    found = cjk_font.find_faces()
    if not found:
        pytest.fail("Noto Sans CJK SC is not installed: install Debian's fonts-noto-cjk (.ci/run does)")
    return found


def test_one_to_one_cmap_keeps_the_ideograph():
    from gui.cjk_font import one_to_one_cmap

    cmap = {0x2F79: "net", 0x7F51: "net", 0x3B35: "glue", 0x80F6: "glue", 0x301C: "wave", 0xFF5E: "wave",
            0x2003: "sp", 0x3000: "sp", 0xF900: "kai", 0x8C48: "kai", 0x41: "A", 0x2ED3: "long"}
    assert one_to_one_cmap(cmap) == {0x7F51: "net", 0x80F6: "glue", 0xFF5E: "wave", 0x3000: "sp", 0x8C48: "kai",
                                     0x41: "A", 0x2ED3: "long"}  # a radical with a glyph of its own stays


def test_cleaned_font_maps_each_glyph_from_one_code_point(faces):
    from fontTools.ttLib import TTFont

    from gui import cjk_font

    path, index, _style = faces[0]
    with TTFont(path, fontNumber=index, lazy=True) as font:
        before = font.getBestCmap()
        ps_name = font["name"].getDebugName(6)
    assert before[0x2F79] == before[0x7F51]  # the bug's cause: KANGXI RADICAL NET draws 网's glyph
    with TTFont(io.BytesIO(cjk_font.clean_font(path, index)), lazy=True) as font:
        after = font.getBestCmap()
        assert font["name"].getDebugName(1) == cjk_font.EXPORT_FAMILY
        assert font["name"].getDebugName(6) == ps_name  # the same font, as the PDF names it
    assert len(set(after.values())) == len(after)  # one code point per glyph
    assert 0x2F79 not in after and after[0x7F51] == before[0x7F51]
    shared = {cp for cp in before if cp not in after}
    assert all(before[cp] in after.values() for cp in shared)  # nothing lost: every glyph still reachable
    assert len(after) > 40_000


def _cli_export(*args, timeout=240):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run([sys.executable, "-m", "gui.cli", "export", str(PRESET), *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=timeout)


@pytest.mark.parametrize("chart", [None, "duration"])
def test_chinese_pdf_copies_as_typed(faces, tmp_path, chart):
    out = tmp_path / "zh.pdf"
    r = _cli_export("--out", out, "--lang", "zh_CN", *(["--chart", chart] if chart else []))
    assert r.returncode == 0, r.stderr
    text = subprocess.run([_tool("pdftotext"), str(out), "-"], capture_output=True, text=True, check=True).stdout
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
    fonts = subprocess.run([_tool("pdffonts"), str(out)], capture_output=True, text=True, check=True).stdout
    cjk = [line.split() for line in fonts.splitlines() if "NotoSansCJK" in line]
    assert cjk and all(row[-5] == "yes" for row in cjk), fonts  # still embedded ("emb" column)
