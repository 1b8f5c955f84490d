"""The proposal pack's PDF, opened as a reader opens it: its cover (customer, preparer, date, validity, the
scenario fingerprint and its QR code), headline numbers, bill of materials, charts, assumptions with one guess
legend and a disclaimer, in English and Chinese for the three case studies; the audit adds a page and
removes nothing; the page list takes another page."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

import numpy as np
import pytest

import model
from model import ScenarioError, presets

import pdfread

CASES = ("case1", "case2", "case3")
DAY = dt.date(2026, 12, 5)
CJK = re.compile(r"[\u4e00-\u9fff]")


def _cover():
    from gui.present.pack import Cover

    return Cover("Example Robotics Co.", "J. Presales", DAY, 45)


def _flat(path) -> str:
    return " ".join(unicodedata.normalize("NFKC", pdfread.text(path)).split())


def _pages(path) -> list[str]:
    return [" ".join(p.split()) for p in unicodedata.normalize("NFKC", pdfread.text(path)).split("\f")]


@pytest.fixture(scope="module")
def packs(qapp, tmp_path_factory):
    """(case, lang) -> (snapshot, the PDF with the audit page)."""
    from gui import i18n
    from gui.export import charts as export
    from gui.export.pack_pdf import write_pack_pdf

    folder = tmp_path_factory.mktemp("pack")
    out = {}
    for lang in ("en", "zh_CN"):
        assert i18n.set_language(lang)
        try:
            for case in CASES:
                snap = export.snapshot_for(presets.load_preset(case))
                out[case, lang] = snap, write_pack_pdf(snap, folder / f"{case}-{lang}.pdf", _cover(), audit=True)
        finally:
            i18n.set_language("en")
    return out


@pytest.mark.parametrize("case", CASES)
def test_english_pack_has_cover_headline_bom_charts_assumptions(packs, case):
    from gui.present.pack import bill_of_materials, fingerprint

    snap, path = packs[case, "en"]
    flat = _flat(path)
    for words in ("Customer", "Example Robotics Co.", "Prepared by", "J. Presales", "2026-12-05",
                  "Valid until", "2027-01-19 (45 days)", "Scenario fingerprint", fingerprint(snap.scenario),
                  "Recommended fabric", "Cost per training run", "Bill of materials", "Unit price", "Capex",
                  "Cost and financials", "NPV", "Price per GPU-hour", "GPU utilisation", "Training duration",
                  "Assumptions and sources", "Disclaimer", "not a quotation", "page 1 of 6", "Acceptance: the bus bandwidth"):
        assert words in flat, words
    for lines in bill_of_materials(snap.point).values():  # every BOM line, by its name
        assert all(line.label in flat for line in lines)
    # guesses are marked by a sign and explained once, in a legend
    assert flat.count("a guess: no published source gives this figure") == 1 and "†" in flat
    assert "guesses (no published source)" not in flat
    assert pdfread.image_count(path) == 0  # charts and QR code are vectors


@pytest.mark.parametrize("case", CASES)
def test_chinese_pack_is_chinese_with_one_money_format(packs, case):
    from gui.present.pack import fingerprint

    snap, path = packs[case, "zh_CN"]
    flat = _flat(path)
    for words in ("网络方案建议书", "客户", "编制人", "有效期至", "场景指纹", fingerprint(snap.scenario), "推荐网络",
                  "物料清单", "单价", "成本与财务指标", "假设与来源", "免责声明", "第 1 页,共 6 页", "核对"):
        assert words in flat, words
    assert len(CJK.findall(flat)) > 600
    for english in ("Customer", "Prepared by", "Bill of materials", "Unit price", "Assumptions and sources",
                    "Disclaimer", "Recommended fabric", "Cost and financials", "page 1 of", "recompute",
                    "Traditional Ethernet", "days", "years", "a guess"):
        assert english not in flat, english
    # one money format: never whole yuan from a thousand up beside 万 ("¥6,441" beside "¥4.950 万")
    assert re.findall(r"¥\d{1,3},\d{3}(?![\d.]*\s*[万亿])", flat) == []
    assert not re.search(r"[¥$][\d.,]+ ?(M|k|bn)\b", flat)  # no English money units


def test_audit_adds_a_page_and_removes_nothing(qapp, packs, tmp_path):
    from gui.export.pack_pdf import write_pack_pdf

    snap, with_audit = packs["case2", "en"]
    plain = write_pack_pdf(snap, tmp_path / "plain.pdf", _cover())
    a, b = _pages(with_audit), _pages(plain)
    assert len(a) == len(b) + 1
    assert "The article’s claims beside the engine" in a[-1] and not any("claims beside" in p for p in b)
    for page_a, page_b in zip(a, b):  # the same pages, save "page n of N"
        assert re.sub(r"page \d+ of \d+", "", page_a) == re.sub(r"page \d+ of \d+", "", page_b)
    # the charts page keeps its size: three charts of the page's height, not squeezed by the audit
    img = pdfread.render(with_audit, dpi=40, index=1)
    assert _rows_with(img, "#009E73") > img.height() * 0.5


def _rows_with(img, colour: str) -> int:
    """How many pixel rows of ``img`` hold ``colour`` (a curve's), a measure of the charts' height."""
    from PySide6 import QtGui

    img = img.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    arr = np.frombuffer(img.constBits(), dtype=np.uint8).reshape(img.height(), img.bytesPerLine())
    arr = arr[:, : img.width() * 4].reshape(img.height(), img.width(), 4)
    c = QtGui.QColor(colour)
    hit = (np.abs(arr[..., :3].astype(int) - [c.blue(), c.green(), c.red()]).max(axis=-1) < 40).any(axis=1)
    return int(hit.sum()) * 3  # three charts: a curve spans about a third of each


def test_cover_qr_code_reads_the_fingerprint(packs):
    """The QR code on the cover, sampled at each module's centre, is segno's code of the payload."""
    from PySide6 import QtGui

    from gui.export.pack_pdf import QR_SIZE
    from gui.export.proposal import PAGE_MARGIN
    from gui.present.pack import fingerprint, qr_modules, qr_payload

    snap, path = packs["case1", "en"]
    payload = qr_payload(snap.scenario)
    assert fingerprint(snap.scenario) in payload and model.__version__ in payload
    want = qr_modules(payload)
    scale = 4.0  # pixels per 96-dpi unit
    img = pdfread.render(path, dpi=96 * scale).convertToFormat(QtGui.QImage.Format.Format_RGB32)
    n = want.shape[0] + 8
    cell = QR_SIZE / n
    left = img.width() / scale - PAGE_MARGIN - QR_SIZE
    got = np.array([[QtGui.QColor(img.pixel(int((left + (c + 4.5) * cell) * scale),
                                            int((PAGE_MARGIN + (r + 4.5) * cell) * scale))).lightness() < 128
                     for c in range(want.shape[1])] for r in range(want.shape[0])])
    assert (got == want).all()


def test_fingerprint_follows_the_inputs():
    from gui.present.pack import fingerprint

    s = presets.load_preset("case2")
    assert fingerprint(s) == fingerprint(presets.load_preset("case2"))
    assert re.fullmatch(r"[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}", fingerprint(s))
    assert fingerprint(s.replace_many({"cluster.nodes": s.cluster.nodes + 1})) != fingerprint(s)


@pytest.mark.parametrize("kwargs,field", [(dict(valid_days=0), "--valid-days"), (dict(valid_days=400), "--valid-days"),
                                          (dict(customer="a\nb"), "--customer"),
                                          (dict(prepared_by="x" * 200), "--prepared-by")])
def test_cover_fields_are_checked(kwargs, field):
    from gui.present.pack import Cover

    with pytest.raises(ScenarioError) as err:
        Cover(**kwargs)
    assert field in str(err.value)


def test_another_page_is_one_more_entry(qapp, monkeypatch, tmp_path):
    from gui.export import charts as export
    from gui.export import pack_pdf

    def extra(sheet, c, snap, overlays):
        sheet.block("<p>An extra page for the customer</p>")

    monkeypatch.setattr(pack_pdf, "PAGES", pack_pdf.PAGES + [pack_pdf.Page("extra", extra)])
    snap = export.snapshot_for(presets.load_preset("case1"))
    out = pack_pdf.write_pack_pdf(snap, tmp_path / "p.pdf")
    pages = _pages(out)
    n = len(pack_pdf.PAGES) - 1  # the audit page is not asked for
    assert len(pages) == n and "An extra page for the customer" in pages[-1] and f"page {n} of {n}" in pages[-1]


def test_cli_pack_takes_the_cover_and_checks_it(tmp_path, capsys):
    from gui.cli import main as cli

    folder = tmp_path / "pack"
    case = str(presets.preset_path("case3"))
    assert cli.main(["export", case, "--pack", str(folder), "--customer", "Acme AI", "--prepared-by", "Li Wei",
                     "--valid-days", "60"]) == 0
    flat = _flat(folder / "proposal.pdf")
    assert "Acme AI" in flat and "Li Wei" in flat and "(60 days)" in flat
    pinned = tmp_path / "ab"  # the A/B compare of --pin, as in the window
    assert cli.main(["export", case, "--pack", str(pinned), "--pin", str(presets.preset_path("case2"))]) == 0
    assert "A/B compare" in _flat(pinned / "proposal.pdf")
    assert any("[A: " in h for h in (pinned / "chart-duration.csv").read_text(encoding="utf-8").splitlines()[6:7])
    assert cli.main(["export", case, "--pack", str(tmp_path / "bad"), "--valid-days", "0"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "--valid-days" in err and "1 to 365" in err and not (tmp_path / "bad").exists()
