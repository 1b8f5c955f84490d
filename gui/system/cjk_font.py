"""The bundled Chinese font: the app and every export draw Chinese with it, on every machine.

``assets/fonts/`` holds a subset of Noto Sans CJK SC (Adobe and Google, SIL Open Font
License 1.1, ``assets/fonts/OFL.txt``), Regular and Bold, made by ``tools/make_fonts.py``
from the characters of the translations, presets, digits and punctuation plus the 6,763
hanzi of GB 2312-80, under its own family name :data:`FAMILY`. :func:`register` adds both
faces to Qt's font database (``QFontDatabase.addApplicationFontFromData``) and puts the
family after the Latin one in the application font and as a substitute of the Latin
families in use, so Qt draws every Chinese character with it, whatever CJK fonts the
machine has or lacks. The exports name it explicitly (:func:`export_family`) and embed it.
Beside it, a subset of DejaVu Sans (:data:`LATIN_FILES`, ``assets/fonts/DejaVu-LICENSE.txt``),
the Latin font the proposal sheet names, is registered too: Windows and macOS lack it.

Copying text from a PDF: Qt's PDF writer builds each embedded font's ToUnicode map by taking,
for every glyph, the *lowest* code point the font's cmap maps to it. Noto Sans CJK maps the
Kangxi and CJK radicals (U+2E80–U+2FDF) and compatibility ideographs (U+F900–U+FAFF) to the
glyphs of unified ideographs, so "网络" would copy as "⽹络" (U+2F79). The bundled subset's
cmap keeps **one code point per glyph** (:func:`one_to_one_cmap`), so the text copies as typed.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from pathlib import Path

from model.catalog import ASSETS_DIR

FAMILY = "Noto Sans SC Subset"            # the bundled faces' family (never an installed font's name)
FONT_DIR = ASSETS_DIR / "fonts"           # the repository's assets (and the bundled app's), as the engine finds them
FONT_FILES = {"Regular": "NotoSansSC-Subset-Regular.otf", "Bold": "NotoSansSC-Subset-Bold.otf"}
# DejaVu Sans (subset, same family name): the Latin font the proposal sheet names, so its text and
# line breaks are the same on machines without it (Windows, macOS).
LATIN_FILES = {"Regular": "DejaVuSans-Subset-Regular.ttf", "Bold": "DejaVuSans-Subset-Bold.ttf",
               "Oblique": "DejaVuSans-Subset-Oblique.ttf", "Bold Oblique": "DejaVuSans-Subset-BoldOblique.ttf"}
LATIN_FAMILIES = ("DejaVu Sans",)  # what the exports name for Latin text (gui/export/proposal.py)
LOOKALIKE_RANGES = ((0x2E80, 0x2FDF),     # CJK radicals supplement, Kangxi radicals
                    (0xF900, 0xFAFF),     # CJK compatibility ideographs
                    (0x2F800, 0x2FA1F))   # CJK compatibility ideographs supplement


def font_paths() -> list[Path]:
    """The bundled Chinese font files (Regular, Bold)."""
    root = FONT_DIR
    return [root / name for name in FONT_FILES.values()]


def latin_font_paths() -> list[Path]:
    """The bundled DejaVu Sans files (Regular, Bold, Oblique, Bold Oblique)."""
    root = FONT_DIR
    return [root / name for name in LATIN_FILES.values()]


def is_lookalike(cp: int) -> bool:
    """True for a radical or compatibility ideograph (drawn like a unified ideograph, read as another)."""
    return any(lo <= cp <= hi for lo, hi in LOOKALIKE_RANGES)


def _rank(cp: int, prefer=frozenset()) -> tuple[int, int]:
    """Which of the code points sharing a glyph the cmap keeps: the lowest rank, then the lowest code point.

    Code points in ``prefer`` (the characters the product's text uses) come first: "–" (en dash)
    rather than the figure dash that shares its glyph."""
    if cp in prefer:
        r = -1
    elif 0x4E00 <= cp <= 0x9FFF:            # CJK unified ideographs: what Chinese text is written in
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


def one_to_one_cmap(cmap: dict[int, str], prefer=frozenset()) -> dict[int, str]:
    """``cmap`` (code point -> glyph name) with one code point per glyph, chosen by :func:`_rank`
    (code points in ``prefer`` first, but never a radical or compatibility ideograph)."""
    prefer = frozenset(cp for cp in prefer if not is_lookalike(cp))
    by_glyph: dict[str, list[int]] = defaultdict(list)
    for cp, glyph in cmap.items():
        by_glyph[glyph].append(cp)
    keep = {min(cps, key=lambda cp: _rank(cp, prefer)) for cps in by_glyph.values()}
    return {cp: g for cp, g in cmap.items() if cp in keep}


@functools.lru_cache(maxsize=1)
def register() -> str:
    """Add the bundled faces to Qt's font database and make them the fallback for Chinese text.

    Returns :data:`FAMILY`, or ``""`` when a font file is missing or Qt rejects it (the app
    then draws Chinese with whatever the platform has). Needs a QGuiApplication; once per process."""
    from PySide6 import QtGui

    registered = True
    for path in font_paths() + latin_font_paths():
        try:
            data = path.read_bytes()
        except OSError:
            registered = False
            continue
        fid = QtGui.QFontDatabase.addApplicationFontFromData(data)
        registered &= fid >= 0
    registered &= FAMILY in QtGui.QFontDatabase.families()
    if not registered:
        return ""
    app_font = QtGui.QGuiApplication.font()
    latin = QtGui.QFontInfo(app_font).family()  # an alias ("Sans Serif") would not resolve inside a list
    for family in LATIN_FAMILIES:
        if FAMILY not in QtGui.QFont.substitutes(family):
            QtGui.QFont.insertSubstitution(family, FAMILY)
    if FAMILY not in app_font.families():
        app_font.setFamilies([latin, FAMILY])
        QtGui.QGuiApplication.setFont(app_font)
    return FAMILY


def export_family() -> str:
    """The CJK family the exports name: the bundled :data:`FAMILY` (registered on first use).

    Needs a QGuiApplication."""
    return register() or FAMILY


__all__ = ["FAMILY", "FONT_DIR", "FONT_FILES", "LATIN_FAMILIES", "LATIN_FILES", "LOOKALIKE_RANGES",
           "export_family", "font_paths", "is_lookalike", "latin_font_paths", "one_to_one_cmap", "register"]
