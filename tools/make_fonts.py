"""Build the bundled fonts in ``assets/fonts/``: subsets of Noto Sans CJK SC and of DejaVu Sans.

Usage (from the repository, with the venv's fontTools)::

    apt-get download fonts-noto-cjk fonts-dejavu-core
    dpkg-deb -x fonts-noto-cjk_*.deb src && dpkg-deb -x fonts-dejavu-core_*.deb src
    .venv/bin/python tools/make_fonts.py src/usr/share/fonts/opentype/noto src/usr/share/fonts/truetype/dejavu

DejaVu Sans (Bitstream Vera licence, DejaVu changes public domain; Debian's
``fonts-dejavu-core`` 2.37) is the Latin font the proposal sheet names: bundled, the sheet
has the same Latin text and line breaks on Windows and macOS, which lack it. Its subset keeps
Latin, Greek, Cyrillic, punctuation, arrows, mathematical and geometric symbols.

Source: Noto Sans CJK SC (Adobe and Google, SIL Open Font License 1.1; Debian's
``fonts-noto-cjk`` 1:20220127, the upstream 2.004 release), faces "Regular" and "Bold"
of ``NotoSansCJK-Regular.ttc`` / ``NotoSansCJK-Bold.ttc``.

What the subset keeps (:func:`wanted_text`):

- every character of the translations (``assets/i18n/*.ts``), the presets and other asset
  files, and the strings in ``gui/`` and ``model/`` (money in 万/亿, units, arrows);
- printable ASCII, Latin-1, general punctuation, CJK symbols and punctuation, fullwidth forms;
- the 6,763 hanzi of GB 2312-80 (the national standard character set; covers more than
  99.9 % of modern Simplified Chinese text), so names a user types render in the same font.

The cmap is made one-to-one (:func:`gui.system.cjk_font.one_to_one_cmap`) so that Qt's PDF writer,
which maps each glyph back to the lowest code point pointing at it, writes text that copies
as typed. The family is renamed to :data:`gui.system.cjk_font.FAMILY` so it never collides with an
installed Noto font (a modified OFL font may keep the name "Noto": only "Source" is reserved).
Run it again after translations change; ``tests/test_cjk_font.py`` fails while a translated
character is missing from the bundled font.

Both licences are in ``assets/fonts/`` (OFL.txt, DejaVu-LICENSE.txt).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gui.system.cjk_font import FAMILY, FONT_DIR, FONT_FILES, LATIN_FILES, one_to_one_cmap  # noqa: E402

SOURCE_FAMILY = "Noto Sans CJK SC"
SOURCE_FILES = {"Regular": "NotoSansCJK-Regular.ttc", "Bold": "NotoSansCJK-Bold.ttc"}
SHOWN_SOURCES = ("assets/i18n/*.ts", "assets/**/*.toml")  # their characters win a glyph shared with another
TEXT_SOURCES = (*SHOWN_SOURCES, "assets/**/*.csv", "gui/*.py", "model/*.py")
RANGES = ((0x20, 0x7E), (0xA0, 0xFF), (0x2010, 0x2027), (0x2030, 0x205E), (0x2190, 0x2193), (0x2212, 0x2212),
          (0x2264, 0x2265), (0x25B2, 0x25BC), (0x3000, 0x303F), (0xFF01, 0xFF5E), (0xFFE0, 0xFFE6))


def gb2312_hanzi() -> str:
    """The 6,763 hanzi of GB 2312-80 (rows 16-87 of the code table), from Python's gb2312 codec."""
    out = []
    for row in range(0xB0, 0xF8):
        for cell in range(0xA1, 0xFF):
            try:
                out.append(bytes((row, cell)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return "".join(out)


def _chars(patterns, root: Path) -> set[str]:
    chars: set[str] = set()
    for pattern in patterns:
        for path in root.glob(pattern):
            chars.update(path.read_text(encoding="utf-8"))
    return {ch for ch in chars if ch.isprintable() or ch == "\u3000"}


def wanted_text(root: Path = ROOT) -> str:
    """Every character the bundled font must draw (see the module docstring)."""
    chars = set(gb2312_hanzi()) | _chars(TEXT_SOURCES, root)
    for lo, hi in RANGES:
        chars.update(map(chr, range(lo, hi + 1)))
    return "".join(sorted(chars))


def _face(path: Path):
    from fontTools.ttLib import TTCollection

    collection = TTCollection(str(path), recalcTimestamp=False)  # the same bytes when nothing changed
    for face in collection.fonts:
        if face["name"].getDebugName(1) == SOURCE_FAMILY:
            return face
    raise SystemExit(f"{path}: no face named {SOURCE_FAMILY!r}")


def build(source_dir: Path, out_dir: Path = ROOT / FONT_DIR) -> list[Path]:
    from fontTools import subset

    text = wanted_text()
    shown = {ord(ch) for ch in _chars(SHOWN_SOURCES, ROOT)}
    written = []
    for style, out_name in FONT_FILES.items():
        font = _face(source_dir / SOURCE_FILES[style])
        options = subset.Options()
        options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 16, 17]
        options.name_languages = [0x409]
        options.notdef_outline = True
        # No glyph substitution (GSUB): a substituted glyph has no code point, so Qt's PDF writer could
        # not map it back to text ("4" between spaces came out as U+000E). Kerning (GPOS) stays.
        options.drop_tables += ["GSUB"]
        options.layout_features = ["kern", "palt", "halt", "vkrn", "vpal", "vhal"]
        sub = subset.Subsetter(options)
        sub.populate(text=text)
        sub.subset(font)
        for rec in font["name"].names:
            if rec.nameID in (1, 3, 4, 16):
                rec.string = rec.toUnicode().replace(SOURCE_FAMILY, FAMILY)
        written.append(_save_one_to_one(font, shown, out_dir / out_name, only=text))
    return written


def _save_one_to_one(font, shown: set[int], out: Path, only: str | None = None) -> Path:
    """Make ``font``'s cmap one-to-one (limited to the characters of ``only``, when given) and save it."""
    cmap = font["cmap"].getBestCmap()
    keep = one_to_one_cmap({cp: g for cp, g in cmap.items() if only is None or chr(cp) in only}, shown)
    for table in font["cmap"].tables:
        if table.format != 14:
            table.cmap = {cp: g for cp, g in table.cmap.items() if cp in keep}
    out.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(out))
    print(f"{out.name}: {len(keep)} characters, {out.stat().st_size / 1e6:.2f} MB")
    return out


LATIN_RANGES = ((0x20, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x2000, 0x2BFF))


def build_latin(source_dir: Path, out_dir: Path = ROOT / FONT_DIR) -> list[Path]:
    """DejaVu Sans, Regular/Bold/Oblique/Bold Oblique, subset to :data:`LATIN_RANGES` (hints kept)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    unicodes = {cp for lo, hi in LATIN_RANGES for cp in range(lo, hi + 1)}
    unicodes |= {ord(ch) for ch in wanted_text() if ord(ch) < 0x2E80}
    shown = {ord(ch) for ch in _chars(SHOWN_SOURCES, ROOT)}
    written = []
    for style, out_name in LATIN_FILES.items():
        font = TTFont(str(source_dir / out_name.replace("-Subset", "").replace("-Regular", "")), recalcTimestamp=False)
        options = subset.Options()
        options.name_IDs = ["*"]
        options.notdef_outline = True
        options.hinting = True
        sub = subset.Subsetter(options)
        sub.populate(unicodes=unicodes)
        sub.subset(font)
        written.append(_save_one_to_one(font, shown, out_dir / out_name))
    return written


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("noto_dir", type=Path, help="folder with NotoSansCJK-Regular.ttc and NotoSansCJK-Bold.ttc")
    p.add_argument("dejavu_dir", type=Path, help="folder with DejaVuSans.ttf, DejaVuSans-Bold.ttf, ...")
    args = p.parse_args(argv)
    build(args.noto_dir)
    build_latin(args.dejavu_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
