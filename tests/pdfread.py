"""Open the PDFs the exports write, with PyPI libraries only (no poppler, nothing from apt).

pypdfium2 (PDFium, the PDF engine of Chrome) extracts the text as a reader copies it and
renders pages; pypdf reads the file's structure (pages, embedded fonts, raster images).
"""

from __future__ import annotations

from pathlib import Path

import pypdf
import pypdfium2 as pdfium


def text(path) -> str:
    """The text of every page as PDFium extracts it (what a reader copies), pages separated by a form feed."""
    doc = pdfium.PdfDocument(str(path))
    try:
        pages = []
        for page in doc:
            tp = page.get_textpage()
            pages.append(tp.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
            tp.close()
            page.close()
        return "\f".join(pages)
    finally:
        doc.close()


def page_count(path) -> int:
    return len(pypdf.PdfReader(str(path)).pages)


def page_size_pt(path, index: int = 0) -> tuple[int, int]:
    """(width, height) of a page in points, rounded as pdfinfo prints them."""
    box = pypdf.PdfReader(str(path)).pages[index].mediabox
    return round(float(box.width)), round(float(box.height))


def _xobjects(resources, seen):
    """Every XObject reachable from ``resources`` (forms inside forms included)."""
    if resources is None:
        return
    xobjects = resources.get_object().get("/XObject")
    if xobjects is None:
        return
    for ref in xobjects.get_object().values():
        obj = ref.get_object()
        key = id(obj) if not hasattr(ref, "idnum") else ref.idnum
        if key in seen:
            continue
        seen.add(key)
        yield obj
        if obj.get("/Subtype") == "/Form":
            yield from _xobjects(obj.get("/Resources"), seen)


def _resources(reader):
    for page in reader.pages:
        res = page.get("/Resources")
        yield res
        for obj in _xobjects(res, set()):
            if obj.get("/Subtype") == "/Form":
                yield obj.get("/Resources")


def image_count(path) -> int:
    """How many raster images the file draws (a vector chart draws none)."""
    reader = pypdf.PdfReader(str(path))
    seen: set = set()
    return sum(1 for page in reader.pages for obj in _xobjects(page.get("/Resources"), seen)
               if obj.get("/Subtype") == "/Image")


def fonts(path) -> dict[str, bool]:
    """Every font the file uses: base name (subset prefix removed) -> whether its program is embedded."""
    reader = pypdf.PdfReader(str(path))
    out: dict[str, bool] = {}
    for res in _resources(reader):
        if res is None or "/Font" not in res.get_object():
            continue
        for ref in res.get_object()["/Font"].values():
            font = ref.get_object()
            descendants = [d.get_object() for d in font.get("/DescendantFonts", [])] or [font]
            for d in descendants:
                desc = d.get("/FontDescriptor")
                embedded = desc is not None and any(k in desc.get_object()
                                                    for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                name = str(d.get("/BaseFont", font.get("/BaseFont", "")))
                out[name.lstrip("/").split("+", 1)[-1]] = embedded
    return out


def render(path, dpi: float = 72, index: int = 0):
    """Page ``index`` rendered by PDFium at ``dpi``, as a QImage (RGB)."""
    from PySide6 import QtGui

    doc = pdfium.PdfDocument(str(path))
    try:
        page = doc[index]
        bitmap = page.render(scale=dpi / 72, rev_byteorder=True)
        arr = bitmap.to_numpy()
        h, w = arr.shape[:2]
        fmt = QtGui.QImage.Format.Format_RGBA8888 if arr.shape[2] == 4 else QtGui.QImage.Format.Format_RGB888
        img = QtGui.QImage(arr.tobytes(), w, h, arr.strides[0], fmt).copy()
        page.close()
        return img
    finally:
        doc.close()


__all__ = ["fonts", "image_count", "page_count", "page_size_pt", "render", "text"]


if __name__ == "__main__":  # a quick look at a file: python tests/pdfread.py FILE.pdf
    import sys

    p = Path(sys.argv[1])
    print(page_count(p), page_size_pt(p), image_count(p), fonts(p))
    print(text(p))
