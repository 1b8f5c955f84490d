"""Smoke test of the built one-folder app (`make bundle`): run by .ci/run after the build.

Starts dist/FabricWhatIf/FabricWhatIf offscreen, in English and in Chinese, from the default
preset; each run must paint the window to a non-blank PNG and export a one-page proposal PDF
whose text is the sheet's (in Chinese: drawn and embedded with the bundled font). Prints one
line per check and exits 1 on the first failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
APP = ROOT / "dist" / "FabricWhatIf" / ("FabricWhatIf.exe" if sys.platform == "win32" else "FabricWhatIf")
EXPECT = {"en": "NETWORK FABRIC PROPOSAL", "zh_CN": "网络方案建议书"}


def fail(msg: str) -> None:
    print(f"bundle smoke test FAILED: {msg}")
    sys.exit(1)


def non_blank(png: Path) -> int:
    """Distinct colours in the screenshot (a blank or black window has one or two)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6 import QtGui

    img = QtGui.QImage(str(png))
    if img.isNull():
        fail(f"{png.name} is not an image")
    step = max(1, img.width() // 200)
    return len({img.pixel(x, y) for x in range(0, img.width(), step) for y in range(0, img.height(), step)})


def run(lang: str, tmp: Path) -> None:
    import pdfread

    settings = tmp / lang / "settings.ini"
    settings.parent.mkdir(parents=True)
    settings.write_text(f"[view]\nlanguage={lang}\n", encoding="utf-8")
    png, pdf = tmp / lang / "window.png", tmp / lang / "proposal.pdf"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", FABRIC_WHATIF_SETTINGS=str(settings))
    t = time.perf_counter()
    r = subprocess.run([str(APP), "--default", "--screenshot", str(png), "--proposal", str(pdf)], env=env,
                       capture_output=True, text=True, timeout=180)
    secs = time.perf_counter() - t
    if r.returncode != 0:
        fail(f"{lang}: exit {r.returncode}: {r.stderr.strip()[-500:]}")
    colours = non_blank(png)
    if colours < 20:
        fail(f"{lang}: the screenshot has {colours} colours (blank)")
    text = pdfread.text(pdf)
    if pdfread.page_count(pdf) != 1 or EXPECT[lang] not in text:
        fail(f"{lang}: proposal has {pdfread.page_count(pdf)} pages, text starts {text[:80]!r}")
    fonts = pdfread.fonts(pdf)
    if lang != "en" and not any(name.startswith("NotoSansCJKsc-") and emb for name, emb in fonts.items()):
        fail(f"{lang}: the bundled Chinese font is not embedded: {fonts}")
    print(f"bundle {lang}: started and exited in {secs:.1f} s; window {colours} colours; "
          f"proposal 1 page, {pdf.stat().st_size // 1024} KiB, fonts {sorted(fonts)}")


def main() -> int:
    if not APP.is_file():
        fail(f"{APP.relative_to(ROOT)} is missing: run `make bundle` first")
    size_mb = sum(f.stat().st_size for f in APP.parent.rglob("*") if f.is_file() and not f.is_symlink()) / 2**20
    print(f"bundle: {APP.parent.relative_to(ROOT)} is {size_mb:.0f} MiB")
    with tempfile.TemporaryDirectory() as tmp:
        for lang in EXPECT:
            run(lang, Path(tmp))
    print("bundle smoke test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
