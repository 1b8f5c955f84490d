"""The whole proposal pack in one folder — what ``fabric-whatif export --pack DIR`` and the window's
File ▸ Export proposal pack… both write, through :func:`write_pack`:

- ``proposal.pdf`` — the pages to staple (:mod:`gui.export.pack_pdf`);
- ``proposal.pptx`` — slides with native, editable charts; ``proposal.xlsx`` — the BOM and TCO as formulas
  (:mod:`gui.export.pack_files`);
- ``acceptance.csv`` — the busbw the chosen fabric must reach per collective, size and node count
  (:mod:`gui.export.acceptance_pack`), also a page of the PDF, a slide and a sheet;
- ``chart-<kind>.csv`` and ``chart-<kind>.svg`` per chart — the data with a header block (scenario, fabric
  figures, units, engine version) and the drawing with a generic font fallback.

Every file is written whole or not at all; the folder is created when missing.
"""

from __future__ import annotations

from pathlib import Path

from model import ScenarioError

from gui.present.series import CHART_KINDS
from gui.present import pack

DOCUMENTS = ("proposal.pdf", "proposal.pptx", "proposal.xlsx", "acceptance.csv")


def pack_files() -> tuple[str, ...]:
    """The names of the files a pack holds, in the order they are written."""
    return DOCUMENTS + tuple(f"chart-{kind}.{ext}" for kind in CHART_KINDS for ext in ("csv", "svg"))


def check_folder(folder, field: str = "--pack") -> Path:
    """``folder`` as a Path, or a ScenarioError when it names a file."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ScenarioError(field, str(folder), "a folder (this is a file)")
    return folder


def write_pack(snap, folder, cover: pack.Cover | None = None, *, lang: str = "en", paper: str = "a4", source=None,
               audit: bool = False, bands=None, pinned=None, baseline: str | None = None) -> list[Path]:
    """Write every file of the pack for ``snap`` (a window snapshot) into ``folder``, in the UI language (``lang``
    names it for the text the slides and workbook build themselves); returns the paths written."""
    from gui.export.acceptance_pack import write_acceptance_csv
    from gui.export.charts import export_chart
    from gui.export.pack_files import write_pptx, write_xlsx
    from gui.export.pack_pdf import write_pack_pdf

    folder = check_folder(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cover = cover or pack.Cover()
    pdf, pptx, xlsx, accept = (folder / name for name in DOCUMENTS)
    outs = [write_pack_pdf(snap, pdf, cover, paper=paper, source=source, audit=audit, bands=bands, pinned=pinned,
                           baseline=baseline),
            write_pptx(snap, pptx, lang, cover=cover), write_xlsx(snap.point, xlsx, lang),
            write_acceptance_csv(snap.scenario, accept)]
    for kind in CHART_KINDS:
        for ext in ("csv", "svg"):
            outs.append(export_chart(snap, kind, folder / f"chart-{kind}.{ext}", bands=bands, pinned=pinned,
                                     baseline=baseline))
    return outs


__all__ = ["DOCUMENTS", "check_folder", "pack_files", "write_pack"]
