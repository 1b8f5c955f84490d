"""The CJK font of the PDF exports, with a one-to-one character map, so Chinese text copies as typed.

Why: Qt's PDF writer builds each embedded font's ToUnicode map from the glyphs alone:
for every glyph it takes the *lowest* BMP code point the font's cmap maps to it.
Noto Sans CJK maps the Kangxi and CJK radicals (U+2E80–U+2FDF) and the compatibility
ideographs (U+F900–U+FAFF) to the same glyphs as the unified ideographs, and a few
unified ideographs to the glyph of an Extension A look-alike (胶 U+80F6 and 㬵 U+3B35).
A Chinese proposal therefore looks right but copies and searches "网络" as "⽹络" (U+2F79,
KANGXI RADICAL NET) and "长" as "⻓".

Fix: the exports load a copy of Noto Sans CJK SC whose cmap keeps **one code point per
glyph** (:func:`one_to_one_cmap`: the unified ideograph before Extension A, fullwidth
forms and CJK punctuation, then anything else, radicals and compatibility ideographs
last), under its own family name :data:`EXPORT_FAMILY`, so Qt's reverse map is exact for
every glyph the font draws. A code point that lost its mapping is drawn by a fallback
font (the radicals are never in the app's text). The glyphs, metrics, layout tables and
PostScript name stay those of the installed font; only ``cmap`` and the family name
change (fontTools rewrites those two tables and copies the rest byte for byte, about a
second per weight, once per process).

Without fontTools or without the font file the exports name :data:`SYSTEM_FAMILY` as
before: the page looks the same, the copied text keeps the radicals.
"""

from __future__ import annotations

import functools
import glob
import io
import os
from collections import defaultdict

SYSTEM_FAMILY = "Noto Sans CJK SC"        # Debian's fonts-noto-cjk; what the README names
EXPORT_FAMILY = "Noto Sans CJK SC PDF"    # the same glyphs with a one-to-one cmap (registered by this module)
LOOKALIKE_RANGES = ((0x2E80, 0x2FDF),     # CJK radicals supplement, Kangxi radicals
                    (0xF900, 0xFAFF),     # CJK compatibility ideographs
                    (0x2F800, 0x2FA1F))   # CJK compatibility ideographs supplement
STYLES = ("Regular", "Bold")            # what the exports set (bold text is 600-700); ~1 s each to prepare
_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts",
              "/Library/Fonts", "~/Library/Fonts", "/System/Library/Fonts", "C:/Windows/Fonts",
              "~/AppData/Local/Microsoft/Windows/Fonts")
_FILE_PATTERNS = ("NotoSansCJK*.tt[cf]", "NotoSansCJK*.otf", "NotoSansSC*.otf", "NotoSansSC*.ttf")


def is_lookalike(cp: int) -> bool:
    """True for a radical or compatibility ideograph (drawn like a unified ideograph, read as another)."""
    return any(lo <= cp <= hi for lo, hi in LOOKALIKE_RANGES)


def _rank(cp: int) -> tuple[int, int]:
    """Which of the code points sharing a glyph the cmap keeps: the lowest rank, then the lowest code point."""
    if 0x4E00 <= cp <= 0x9FFF:            # CJK unified ideographs: what Chinese text is written in
        r = 0
    elif 0x3400 <= cp <= 0x4DBF:          # extension A (㬵 shares 胶's glyph)
        r = 1
    elif 0xFF01 <= cp <= 0xFF5E:          # fullwidth forms (／ ～ in Chinese text, not ∕ 〜)
        r = 2
    elif 0x3000 <= cp <= 0x303F:          # CJK symbols and punctuation (ideographic space before em space)
        r = 3
    elif is_lookalike(cp):
        r = 5
    else:
        r = 4
    return r, cp


def one_to_one_cmap(cmap: dict[int, str]) -> dict[int, str]:
    """``cmap`` (code point -> glyph name) with one code point per glyph, chosen by :func:`_rank`."""
    by_glyph: dict[str, list[int]] = defaultdict(list)
    for cp, glyph in cmap.items():
        by_glyph[glyph].append(cp)
    keep = {min(cps, key=_rank) for cps in by_glyph.values()}
    return {cp: g for cp, g in cmap.items() if cp in keep}


def clean_font(path: str, index: int = 0) -> bytes:
    """Face ``index`` of font file ``path`` with a one-to-one cmap and family :data:`EXPORT_FAMILY` (OpenType bytes)."""
    from fontTools.ttLib import TTFont

    with TTFont(path, fontNumber=index, lazy=True) as font:
        return _cleaned(font)


def _cleaned(font) -> bytes:
    # Placeholder glyph names: the cmap needs only glyph ids, and asking the CFF table for
    # its names would decompile (and then recompile) all 65,535 outlines (~20 s).
    n = font["maxp"].numGlyphs
    font.setGlyphOrder([".notdef"] + [f"g{i}" for i in range(1, n)])
    cmap = font["cmap"]
    keep = one_to_one_cmap(cmap.getBestCmap())
    for table in cmap.tables:
        if table.format == 14:  # variation sequences: none in Noto Sans CJK SC; left as they are
            continue
        for cp in [cp for cp in table.cmap if cp not in keep]:
            del table.cmap[cp]
    name = font["name"]
    for rec in name.names:
        if rec.nameID in (1, 4, 16):  # family, full name, typographic family
            rec.string = rec.toUnicode().replace(SYSTEM_FAMILY, EXPORT_FAMILY)
    buf = io.BytesIO()
    font.save(buf, reorderTables=False)
    return buf.getvalue()


def _candidates() -> list[str]:
    """Font files that may hold Noto Sans CJK SC, from the usual font folders of Linux, macOS
    and Windows (no shell-out to fontconfig: the same code on every laptop)."""
    found = set()
    for d in _FONT_DIRS:
        d = os.path.expanduser(d)
        if os.path.isdir(d):
            for pat in _FILE_PATTERNS:
                found.update(glob.glob(os.path.join(d, "**", pat), recursive=True))
    return sorted(found)


def find_faces() -> list[tuple[str, int, str]]:
    """``(path, face index, style)`` of the installed Regular and Bold faces of Noto Sans CJK SC."""
    from fontTools.ttLib import TTCollection, TTFont, TTLibError

    out, seen = [], set()
    for path in _candidates():
        try:
            font = TTCollection(path, lazy=True) if path.lower().endswith(".ttc") else TTFont(path, lazy=True)
        except (OSError, TTLibError, AssertionError, KeyError):
            continue
        with font:
            for i, face in enumerate(font.fonts if isinstance(font, TTCollection) else [font]):
                try:
                    name = face["name"]
                    family = name.getDebugName(16) or name.getDebugName(1)
                    style = name.getDebugName(17) or name.getDebugName(2) or ""
                except (KeyError, TTLibError):
                    continue
                if family == SYSTEM_FAMILY and style in STYLES and style not in seen:
                    seen.add(style)
                    out.append((path, i, style))
    return out


@functools.lru_cache(maxsize=1)
def export_family() -> str:
    """The CJK family the exports name: :data:`EXPORT_FAMILY` once registered with Qt, else :data:`SYSTEM_FAMILY`.

    Needs a QGuiApplication. Computed once per process."""
    try:
        faces = find_faces()
    except ImportError:  # fontTools is a dependency; a trimmed install still exports, with the radicals
        return SYSTEM_FAMILY
    from PySide6 import QtCore, QtGui

    registered = False
    for path, index, _style in faces:
        try:
            data = clean_font(path, index)
        except Exception:  # noqa: BLE001 (an unexpected font file: keep the system font for this face)
            continue
        fid = QtGui.QFontDatabase.addApplicationFontFromData(QtCore.QByteArray(data))
        registered |= fid >= 0 and EXPORT_FAMILY in QtGui.QFontDatabase.applicationFontFamilies(fid)
    return EXPORT_FAMILY if registered else SYSTEM_FAMILY


__all__ = ["EXPORT_FAMILY", "LOOKALIKE_RANGES", "SYSTEM_FAMILY", "clean_font", "export_family", "find_faces",
           "is_lookalike", "one_to_one_cmap"]
