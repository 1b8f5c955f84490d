"""The desktop app: ``python -m gui.app`` (``make run``) opens the explorer window.

:func:`build_window` is the one factory the app, the tests and the benchmarks use.
"""

from __future__ import annotations

import sys

from PySide6 import QtCore, QtWidgets

import model
from model.files import check_writable

from gui.cli.main import EXIT_BAD_INPUT, OneLineParser, plain_text
from gui.system.heap import freeze_startup_objects, keep_heap
from gui.system.settings import APPLICATION, ORGANISATION, app_settings, set_aside_scenario


def ensure_app() -> QtWidgets.QApplication:
    """The QApplication, created once (high-DPI: fractional scale factors passed through)."""
    app = QtWidgets.QApplication.instance()
    if app is None:
        QtWidgets.QApplication.setHighDpiScaleFactorRoundingPolicy(
            QtCore.Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QtWidgets.QApplication(sys.argv[:1])
        app.setOrganizationName(ORGANISATION)
        app.setApplicationName(APPLICATION)
        app.setApplicationDisplayName(APPLICATION)
    from gui.system.cjk_font import register

    register()  # the bundled Chinese font, the same on every machine
    return app


def build_window(scenario: model.Scenario | None = None, *, restore: bool | None = None, settings=None):
    """The main window, built and computed, not yet shown.

    With ``scenario`` given, the window shows it. Without, it shows the last session's
    scenario when ``restore`` (default: True when no scenario is given) finds one in the
    settings, else the default preset. Window geometry comes back from the settings too.
    """
    ensure_app()
    import pyqtgraph as pg

    pg.setConfigOptions(antialias=False, background="w", foreground="#222222")
    from gui.window import DEFAULT_PRESET, MainWindow, restore_scenario

    if settings is None:
        settings = app_settings()
    from gui.i18n import apply_saved_language  # the language chosen last time, before any widget

    apply_saved_language(settings)
    if restore is None:
        restore = scenario is None
    loaded = source = None
    if scenario is None and restore:
        scenario, loaded, source = restore_scenario(settings)
        from gui.system.autosave import evaluation_problem, restore_autosave  # the autosave is newer than the on-close save

        if scenario is not None and evaluation_problem(scenario) is not None:
            set_aside_scenario(settings)  # a last session that no longer evaluates must not brick the start
            scenario = loaded = source = None
        scenario = restore_autosave(settings) or scenario
    if scenario is None:
        scenario, source = model.load_scenario(DEFAULT_PRESET), str(DEFAULT_PRESET)
    win = MainWindow(scenario, source_path=source, settings=settings)
    if loaded is not None:
        win.mark_loaded(loaded)
    if restore:
        win.restore_geometry()
    else:
        fit_to_screen(win)
    return win


def fit_to_screen(win, size=(1600, 1000)) -> None:
    """The default size, or 92 % of a smaller screen (a 1366 × 768 laptop, a projector)."""
    screen = win.screen() or QtWidgets.QApplication.primaryScreen()
    w, h = size
    if screen is not None and not screen.availableGeometry().isEmpty():
        geo = screen.availableGeometry()
        if QtWidgets.QApplication.platformName() != "offscreen":  # offscreen: a nominal 800 × 800 screen
            w, h = min(w, int(geo.width() * 0.92)), min(h, int(geo.height() * 0.92))
    win.resize(w, h)


OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints()"


def _quiet_offscreen_noise() -> None:
    """On the offscreen platform (CI, benchmarks) Qt warns on every main-window show that the
    plugin cannot propagate size hints; desktop platforms do not. Drop exactly that line."""
    if QtWidgets.QApplication.platformName() != "offscreen":
        return

    def handler(mode, context, message):
        if message == OFFSCREEN_NOISE:
            return
        sys.stderr.write(message + "\n")

    QtCore.qInstallMessageHandler(handler)


def main(argv=None) -> int:
    parser = OneLineParser(prog="fabric-whatif-gui", description="Fabric What-If explorer")
    parser.add_argument("scenario", nargs="?", help="scenario file (.toml) to open")
    parser.add_argument("--default", action="store_true", help="start from the default preset, not the last session")
    parser.add_argument("--screenshot", metavar="PNG", help="paint the window, save it to PNG and exit")
    parser.add_argument("--proposal", metavar="PDF",
                        help="export the window's proposal sheet (A4, as File ▸ Export proposal) to PDF and exit")
    args = parser.parse_args(argv)
    keep_heap()  # each slider value's evaluation reuses the last one's pages (see gui.system.heap)
    from gui.system.platform_check import check  # Linux: name the system packages Qt's xcb plugin lacks, before Qt aborts

    trouble = check()
    if trouble:
        print(trouble, file=sys.stderr)
        return 1
    app = ensure_app()
    _quiet_offscreen_noise()
    scenario = None
    try:
        if args.screenshot:
            check_writable(args.screenshot)  # before the window is built: a bad path is one line, exit 2
        if args.scenario:
            scenario = model.load_scenario(args.scenario)
    except model.ScenarioError as err:
        print(f"error: {plain_text(err)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    win = build_window(scenario, restore=not (args.scenario or args.default))
    if not win.settings.value("window/geometry"):
        fit_to_screen(win)
    win.show()
    if args.screenshot or args.proposal:  # non-interactive: a smoke test, a demo file
        app.processEvents()
        status = 0
        if args.screenshot and not win.grab().save(args.screenshot):
            print(f"error: {plain_text(args.screenshot)}: not written (a .png, .jpg or .bmp file in a writable "
                  "folder)", file=sys.stderr)
            status = EXIT_BAD_INPUT
        if args.proposal and not win.file_actions.export_proposal_to(args.proposal):
            print(f"error: {plain_text(win.file_actions.last_error)}", file=sys.stderr)  # one line; work is kept
            status = EXIT_BAD_INPUT
        win.close()
        return status
    freeze_startup_objects()  # the window and all before it live as long as the app (see gui.system.heap)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
