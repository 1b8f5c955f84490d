"""``fabric-whatif export SCENARIO.toml --out FILE [--chart KIND]``: a chart or the proposal sheet.

An English CSV is written without Qt (:mod:`gui.present.chart_export`); PNG, SVG and PDF
charts (:mod:`gui.export.charts`), the proposal sheet (:mod:`gui.export.proposal`) and another language's
text need Qt, which is imported only for them, so the command line starts headless.
"""

from __future__ import annotations

import model
from model import ScenarioError
from model.files import atomic_write, check_writable

from gui.present.bands import compute_bands
from gui.present.chart_export import MAX_PNG_WIDTH, MIN_PNG_WIDTH, chart_format, series_csv
from gui.present.series import CHART_KINDS
from gui.present.sweep import X_FIELDS, compute_snapshot
from gui.present.text import LANGUAGES

PAPERS = ("a4", "letter")
PAPERS = ("a4", "letter")


def add_export_command(sub) -> None:
    """Register ``export`` on the CLI's subparsers."""
    ex = sub.add_parser(
        "export", help="write a chart (PNG, SVG, PDF, CSV) or the one-page proposal PDF",
        description="Write a chart or the one-page proposal sheet. The format comes from the extension of "
                    "--out: .png .svg .pdf .csv; a .pdf without --chart is the proposal sheet. Needs no display.")
    ex.add_argument("scenario", help="scenario file (.toml)")
    ex.add_argument("--out", metavar="FILE", help="file to write (.png, .svg, .pdf or .csv)")
    ex.add_argument("--pack", metavar="DIR",
                    help="write the proposal pack into DIR instead: proposal.pdf, proposal.pptx (native, editable "
                         "charts) and proposal.xlsx (bill of materials and TCO as formulas you can edit)")
    ex.add_argument("--chart", choices=CHART_KINDS, help="which chart (required except for the proposal .pdf)")
    ex.add_argument("--width", type=int, metavar="PX",
                    help=f"PNG width in pixels ({MIN_PNG_WIDTH}-{MAX_PNG_WIDTH}; default twice the screen's)")
    ex.add_argument("--x", dest="x_field", default="cluster.nodes", metavar="FIELD",
                    help="x-axis of the charts (default cluster.nodes)")
    ex.add_argument("--paper", choices=PAPERS, default="a4", help="proposal paper size (default a4)")
    ex.add_argument("--lang", choices=tuple(LANGUAGES), default="en",
                    help="language of the proposal sheet and the charts: en (English, the default) or zh_CN "
                         "(Simplified Chinese, money in 万/亿; the PDF embeds the Noto Sans CJK font). "
                         "The app's saved UI language is not consulted, so a script gets the same file anywhere")
    ex.add_argument("--bands", action="store_true",
                    help="draw the P10-P90 uncertainty bands (Monte-Carlo over every profile range, 1,000 samples, "
                         "seeded as in the window, so the same file every time); CSV: P10/P50/P90 columns")
    ex.add_argument("--pin", metavar="A.toml",
                    help="A/B compare: draw this scenario as A (dashed, faint) under SCENARIO (B); CSV: A's "
                         "columns; proposal: a table of A, B and the differences")
    ex.add_argument("--audit", action="store_true",
                    help="proposal: add the article audit (the case study's claims beside the engine's figures, "
                         "each counterfactual figure explained); left out of the customer sheet by default")
    ex.set_defaults(func=cmd_export)


def cmd_export(args) -> int:
    if getattr(args, "pack", None):
        return _export_pack(args)
    if not args.out:
        raise ScenarioError("--out", None, "a file to write (.png, .svg, .pdf or .csv), or --pack DIR")
    fmt = chart_format(args.out)
    if args.chart is None and fmt != ".pdf":
        raise ScenarioError("--chart", None, f"one of {', '.join(CHART_KINDS)}: which chart to write as {fmt} "
                                             "(only a .pdf without --chart is the whole proposal sheet)")
    if args.width is not None and fmt != ".png":
        raise ScenarioError("--width", args.width, "only for .png files")
    check_writable(args.out)
    scenario = model.load_scenario(args.scenario)
    lang = getattr(args, "lang", "en") or "en"
    headless = fmt == ".csv" and lang == "en"  # an English CSV needs no Qt at all
    if not headless:
        from gui.export.charts import ensure_app  # Qt: drawing, fonts, or the translator of another language

        ensure_app()
    if lang != "en":
        from gui.i18n import set_language

        if not set_language(lang):
            raise ScenarioError("--lang", lang, "a language whose catalogue is installed (assets/i18n/*.qm)")
    if args.x_field not in X_FIELDS:
        raise ScenarioError("--x", args.x_field, "one of " + ", ".join(X_FIELDS))
    snap = compute_snapshot(scenario, args.x_field)
    extra = {}
    if getattr(args, "pin", None):
        extra["pinned"] = compute_snapshot(model.load_scenario(args.pin), args.x_field)
    if getattr(args, "bands", False):
        extra["bands"] = compute_bands(snap.scenario, snap.x_field, snap.sweep.x)[0]
    if fmt == ".csv":
        out = atomic_write(args.out, series_csv(snap.sweep, args.chart, **extra))
    elif args.chart is None:
        from gui.export.proposal import write_proposal

        out = write_proposal(snap, args.out, paper=args.paper, source=args.scenario,
                             audit=getattr(args, "audit", False), **extra)
    else:
        from gui.export.charts import export_chart

        out = export_chart(snap, args.chart, args.out, width=args.width, **extra)
    print(f"wrote {out}")
    return 0


PACK_FILES = ("proposal.pdf", "proposal.pptx", "proposal.xlsx")


def _export_pack(args) -> int:
    """``--pack DIR``: the proposal sheet (PDF), the slides (PPTX) and the workbook (XLSX) in one folder."""
    from pathlib import Path

    if args.out or args.chart:
        raise ScenarioError("--pack", args.pack, "a folder on its own: --out and --chart name single files")
    folder = Path(args.pack)
    if folder.exists() and not folder.is_dir():
        raise ScenarioError("--pack", args.pack, "a folder (this is a file)")
    scenario = model.load_scenario(args.scenario)
    if args.x_field not in X_FIELDS:
        raise ScenarioError("--x", args.x_field, "one of " + ", ".join(X_FIELDS))
    lang = getattr(args, "lang", "en") or "en"
    from gui.export.charts import ensure_app  # the PDF is drawn with Qt

    ensure_app()
    if lang != "en":
        from gui.i18n import set_language

        if not set_language(lang):
            raise ScenarioError("--lang", lang, "a language whose catalogue is installed (assets/i18n/*.qm)")
    folder.mkdir(parents=True, exist_ok=True)
    snap = compute_snapshot(scenario, args.x_field)
    from gui.export.pack_files import write_pptx, write_xlsx
    from gui.export.proposal import write_proposal

    pdf, pptx, xlsx = (folder / name for name in PACK_FILES)
    outs = [write_proposal(snap, pdf, paper=args.paper, source=args.scenario, audit=getattr(args, "audit", False)),
            write_pptx(snap, pptx, lang), write_xlsx(snap.point, xlsx, lang)]
    for out in outs:
        print(f"wrote {out}")
    return 0


__all__ = ["PACK_FILES", "PAPERS", "add_export_command", "cmd_export"]
