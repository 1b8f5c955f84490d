"""The bundled Chinese font (assets/fonts/) draws every character the product shows, and Qt uses it.

The font is a subset (tools/make_fonts.py): a translation that adds a character the
subset lacks would be drawn by whatever font the machine has, or as a box. These tests
fail then, naming the character and the string; rebuild the font with the tool.
"""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from gui.system import cjk_font
ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = sorted((ROOT / "assets" / "i18n").glob("*.ts"))
PRESETS = sorted((ROOT / "assets" / "presets").glob("*.toml"))


def _cmap(path: Path) -> set[int]:
    with TTFont(path, lazy=True) as font:
        return set(font.getBestCmap())


@pytest.fixture(scope="module")
def covered() -> dict[str, set[int]]:
    return {p.stem: _cmap(p) for p in cjk_font.font_paths()}


def missing(text: str, cmap: set[int]) -> list[str]:
    """The characters of ``text`` the font cannot draw, as 'U+XXXX c'. White space aside, and symbols
    (Unicode category So: ▸ ✔ ▲) that Noto Sans CJK does not have: the Latin font draws those."""
    return sorted({f"U+{ord(ch):04X} {ch}" for ch in text
                   if not ch.isspace() and unicodedata.category(ch) != "So" and ord(ch) not in cmap})


def _translations() -> list[tuple[str, str]]:
    out = []
    for ts in TRANSLATIONS:
        for ctx in ET.parse(ts).getroot().iter("context"):
            name = ctx.findtext("name")
            for msg in ctx.iter("message"):
                for tr in msg.iter("translation"):
                    texts = [n.text or "" for n in tr.iter("numerusform")] or [tr.text or ""]
                    out += [(f"{ts.name}:{name}/{msg.findtext('source')!r}", t) for t in texts if t]
    return out


def test_the_font_files_are_there_with_their_licence():
    assert all(p.is_file() for p in cjk_font.font_paths())
    licence = (ROOT / cjk_font.FONT_DIR / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Adobe" in licence
    total_mb = sum(p.stat().st_size for p in cjk_font.font_paths()) / 1e6
    assert total_mb < 6, total_mb  # a subset, not the 20 MB font
    assert all(p.is_file() for p in cjk_font.latin_font_paths())
    assert "Bitstream" in (ROOT / cjk_font.FONT_DIR / "DejaVu-LICENSE.txt").read_text(encoding="utf-8")


def test_the_latin_font_draws_the_english_strings():
    """DejaVu Sans, bundled for the proposal's Latin text: every character of the English sources."""
    sources = [src for ts in TRANSLATIONS for src in (m.findtext("source") or "" for m in
                                                       ET.parse(ts).getroot().iter("message"))]
    for path in cjk_font.latin_font_paths():
        cmap = _cmap(path)
        bad = {s: missing(s, cmap) for s in sources if missing(s, cmap)}
        assert not bad, (path.name, bad)


def test_every_translated_string_has_its_glyphs(covered):
    strings = _translations()
    assert len(strings) > 300  # the catalogue was read
    for face, cmap in covered.items():
        bad = {where: missing(text, cmap) for where, text in strings if missing(text, cmap)}
        assert not bad, f"{face} lacks glyphs (rebuild with tools/make_fonts.py): {bad}"


def test_presets_digits_and_punctuation_have_their_glyphs(covered):
    text = "".join(p.read_text(encoding="utf-8") for p in PRESETS)
    text += "0123456789.,:;%+-−×–—…·¥$€£µ≤≥→←↑↓()[]（），。：；、！？“”‘’《》【】万亿"
    for face, cmap in covered.items():
        assert not missing(text, cmap), (face, missing(text, cmap))


def test_common_names_a_user_types_render(covered):
    """Names a customer types: GB 2312's hanzi are in (a rarer character is drawn by the platform's font)."""
    for cmap in covered.values():
        assert not missing("北京上海深圳杭州智算中心训练集群张伟王芳李娜刘洋陈静杨帆赵磊", cmap)
        assert sum(0x4E00 <= cp <= 0x9FFF for cp in cmap) >= 6763


def test_the_coverage_check_can_fail(covered):
    cmap = next(iter(covered.values()))
    assert missing("网络 𠀀 㐀", cmap) == ["U+20000 𠀀", "U+3400 㐀"]


def test_qt_draws_chinese_with_the_bundled_font(qapp):
    from PySide6 import QtGui

    assert cjk_font.register() == cjk_font.FAMILY
    assert cjk_font.FAMILY in QtGui.QFontDatabase.families()
    app_font = QtGui.QGuiApplication.font()
    assert app_font.families()[-1] == cjk_font.FAMILY  # the fallback after the Latin family
    # the Chinese is drawn by the bundled font: the same pixels as text set in it alone
    def draw(font):
        img = QtGui.QImage(240, 40, QtGui.QImage.Format.Format_RGB32)
        img.fill(0xFFFFFF)
        p = QtGui.QPainter(img)
        p.setFont(font)
        p.drawText(4, 28, "网络方案建议书")
        p.end()
        return img

    explicit = QtGui.QFont(cjk_font.FAMILY)
    explicit.setPointSizeF(app_font.pointSizeF())
    assert draw(app_font) == draw(explicit)
    blank = QtGui.QImage(240, 40, QtGui.QImage.Format.Format_RGB32)
    blank.fill(0xFFFFFF)
    assert draw(explicit) != blank
