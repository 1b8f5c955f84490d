"""The File menu's scenario and export actions, and the autosave, for the main window.

:func:`install_file_actions` adds Open…, Open Recent, Save, Save As…, Export chart, Export
proposal and Export proposal pack to ``window.file_menu`` (before ``window.file_menu_anchor``) and starts
the :class:`~gui.system.autosave.Autosave`. Dialogs live only here (and the pack's in
:mod:`gui.dialogs.pack_cover`); the work is done by functions that take a path
(:meth:`FileActions.open_path`, :meth:`save_to`, :meth:`export_chart_to`, :meth:`export_proposal_to`,
:meth:`export_pack_to`), which the tests call directly.

Every problem (a bad file, an unwritable folder) shows one message naming the file, the
field, the value and what is allowed, and leaves the current work as it was.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

import model
from model import ScenarioError, files
from model.errors import shown_value

from gui.system.autosave import Autosave, autosave_path, link_target, set_aside
from gui.i18n import translate  # translate("Context", "text"): what pyside6-lupdate collects

SCENARIO_FILTER = "Scenario files (*.toml);;All files (*)"
EXPORT_FILTERS = {".png": "PNG image (*.png)", ".svg": "SVG vector image (*.svg)", ".pdf": "PDF (*.pdf)",
                  ".csv": "CSV data (*.csv)"}
PRESETS_DIR = Path(model.catalog.ASSETS_DIR) / "presets"


def _slug(name: str) -> str:
    s = re.sub(r"[^\w\-]+", "_", name, flags=re.UNICODE).strip("_")
    return s[:60] or "scenario"


class FileActions(QtCore.QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        settings = window.settings
        self.config_dir = autosave_path(settings).parent
        self.recent = files.RecentFiles(self.config_dir / "recent.json")
        self.autosave = Autosave(self.controller, autosave_path(settings), parent=self)
        self.autosave.failed.connect(self._autosave_failed)
        self.last_dir = str(Path.home())
        self.error_box: QtWidgets.QMessageBox | None = None
        self.link_box: QtWidgets.QMessageBox | None = None
        self.last_error = ""
        self._build_menu()
        window.installEventFilter(self)
        if link_target(self.autosave.path) is not None:  # refused, not read or written through: the user decides
            self.autosave.paused = True
            QtCore.QTimer.singleShot(0, self, self.refuse_autosave_link)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt name)
        if obj is self.window and event.type() == QtCore.QEvent.Type.Close:
            self.autosave.flush()  # the last change is on disk before the window goes
        return False

    # ----------------------------------------------------------------- menu
    def _build_menu(self) -> None:
        w = self.window
        t = w.texts  # set again on a language switch
        menu, anchor = w.file_menu, w.file_menu_anchor
        a = self.open_action = QtGui.QAction(w)
        t.bind(a.setText, lambda: translate("FileActions", "&Open scenario…"))
        a.setShortcut(QtGui.QKeySequence.StandardKey.Open)
        a.triggered.connect(self.open_dialog)
        self.recent_menu = QtWidgets.QMenu(w)
        t.bind(self.recent_menu.setTitle, lambda: translate("FileActions", "Open &Recent"))
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        a2 = self.save_action = QtGui.QAction(w)
        t.bind(a2.setText, lambda: translate("FileActions", "&Save scenario"))
        a2.setShortcut(QtGui.QKeySequence.StandardKey.Save)
        a2.triggered.connect(self.save)
        a3 = self.save_as_action = QtGui.QAction(w)
        t.bind(a3.setText, lambda: translate("FileActions", "Save scenario &As…"))
        a3.setShortcut(QtGui.QKeySequence.StandardKey.SaveAs)
        a3.triggered.connect(self.save_as_dialog)
        self.export_menu = QtWidgets.QMenu(w)
        t.bind(self.export_menu.setTitle, lambda: translate("FileActions", "&Export chart"))
        from gui.present.series import CHART_KINDS

        titles = {"utilisation": lambda: translate("FileActions", "&Utilisation…"),
                  "duration": lambda: translate("FileActions", "&Training duration…"),
                  "tco": lambda: translate("FileActions", "T&CO…"),
                  "cost_per_run": lambda: translate("FileActions", "Cost per &run…")}
        for kind in CHART_KINDS:
            act = self.export_menu.addAction("")
            t.bind(act.setText, titles.get(kind, lambda k=kind: k))
            act.triggered.connect(lambda _=False, k=kind: self.export_chart_dialog(k))
        a4 = self.proposal_action = QtGui.QAction(w)
        t.bind(a4.setText, lambda: translate("FileActions", "Export &proposal sheet (PDF)…"))
        a4.setShortcut(QtGui.QKeySequence("Ctrl+P"))
        a4.triggered.connect(self.export_proposal_dialog)
        a5 = self.pack_action = QtGui.QAction(w)
        t.bind(a5.setText, lambda: translate("FileActions", "Export proposal pac&k…"))
        a5.setShortcut(QtGui.QKeySequence("Ctrl+Shift+P"))
        a5.triggered.connect(self.export_pack_dialog)
        menu.insertAction(anchor, a)
        menu.insertMenu(anchor, self.recent_menu)
        menu.insertSeparator(anchor)
        menu.insertAction(anchor, a2)
        menu.insertAction(anchor, a3)
        menu.insertSeparator(anchor)
        menu.insertMenu(anchor, self.export_menu)
        menu.insertAction(anchor, a4)
        menu.insertAction(anchor, a5)

    def _fill_recent(self) -> None:
        m = self.recent_menu
        m.clear()
        paths = self.recent.existing()
        for i, p in enumerate(paths):
            act = m.addAction(f"&{i + 1} {Path(p).name}")
            act.setToolTip(p)
            act.setStatusTip(p)
            act.triggered.connect(lambda _=False, path=p: self.open_path(path))
        if not paths:
            m.addAction(translate("FileActions", "(no recent files)")).setEnabled(False)
        m.addSeparator()
        clear = m.addAction(translate("FileActions", "Clear list"))
        clear.setEnabled(bool(paths))
        clear.triggered.connect(self.recent.clear)

    # ------------------------------------------------------------- messages
    def show_error(self, title: str, err) -> None:
        """One message naming the problem; non-blocking (window-modal), the work stays as it was."""
        self.last_error = str(err)
        box = self.error_box
        if box is None:
            box = self.error_box = QtWidgets.QMessageBox(self.window)
            box.setIcon(QtWidgets.QMessageBox.Icon.Warning)
            box.setStandardButtons(QtWidgets.QMessageBox.StandardButton.Ok)
        box.setWindowTitle(title)
        box.setText(f"<b>{title}</b>")
        box.setInformativeText(_explain(err))
        box.open()

    def refuse_autosave_link(self) -> None:
        """Say that the autosave file is a symbolic link, which is never read or written through, and offer a
        fresh autosave (the link set aside, what it points to left alone) or none for this session."""
        import html

        path = self.autosave.path
        target = link_target(path)
        if target is None:
            return
        box = self.link_box = QtWidgets.QMessageBox(self.window)
        box.setIcon(QtWidgets.QMessageBox.Icon.Warning)
        title = translate("FileActions", "Autosave is off: its file is a symbolic link")
        box.setWindowTitle(title)
        box.setText(f"<b>{html.escape(title)}</b>")
        box.setInformativeText(html.escape(translate(
            "FileActions", "{path} points to {target}. The autosave is never written through a link, which could "
                           "overwrite another file. A fresh autosave moves the link aside and writes a new file "
                           "there; the file it points to is not touched (open it with File ▸ Open if it holds "
                           "your work).").format(path=path, target=target)))
        self.fresh_autosave_button = box.addButton(translate("FileActions", "Start a fresh autosave"),
                                                   QtWidgets.QMessageBox.ButtonRole.AcceptRole)
        box.addButton(translate("FileActions", "Keep autosave off"), QtWidgets.QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(self.fresh_autosave_button)
        box.buttonClicked.connect(self._autosave_link_answered)
        box.open()

    def _autosave_link_answered(self, button) -> None:
        if button is not self.fresh_autosave_button:
            self.window.statusBar().showMessage(translate("FileActions", "Autosave is off for this session"))
            return
        path = self.autosave.path
        aside = set_aside(path) if link_target(path) is not None else path
        if aside is None:
            self.show_error(translate("FileActions", "Could not start a fresh autosave"),
                            ScenarioError(str(path), "a symbolic link", "a link this folder lets the app move"))
            return
        self.autosave.paused = False
        if self.autosave.write_now():
            self._status(translate("FileActions", "Autosave restarted; the link was moved to {name}").format(
                name=Path(aside).name))

    def _autosave_failed(self, message: str) -> None:
        self.window.statusBar().showMessage(f"Autosave failed: {message}", 15000)

    def _status(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 8000)

    # ------------------------------------------------------ work (no dialogs)
    def open_path(self, path) -> bool:
        """Open a scenario file; one that does not load or evaluate shows why and changes nothing."""
        try:
            s = files.open_scenario(path)
        except ScenarioError as err:
            self.show_error(translate("FileActions", "Could not open the scenario"), err)
            if not os.path.lexists(path):
                self.recent.remove(path)
            return False
        problem = self.controller.try_scenario(s)
        if problem is not None:
            self.show_error(translate("FileActions", "Could not open the scenario"), problem.with_source(str(path)))
            return False
        self.window.set_scenario(s, source_path=str(path))
        self.window.reset_zoom()
        self.recent.add(path)
        self.last_dir = str(Path(path).parent)
        self._status(f"Opened {path}")
        return True

    def save_to(self, path) -> bool:
        path = Path(path)
        if not path.suffix:
            path = path.with_suffix(files.SCENARIO_SUFFIX)
        s = self.controller.scenario
        try:
            files.save_scenario(s, path)
        except OSError as err:  # a path the checks did not foresee: a message all the same
            self.show_error(translate("FileActions", "Could not save the scenario"), files.unusable_path(path, err))
            return False
        except ScenarioError as err:
            self.show_error(translate("FileActions", "Could not save the scenario"), err)
            return False
        self.controller.source_path = str(path)
        # the saved file is now what "(edited)" compares with
        self.window.mark_loaded(s)
        self.recent.add(path)
        self.last_dir = str(path.parent)
        self._status(f"Saved {path}")
        return True

    def _user_file(self) -> str | None:
        """The file Save writes to: the one the scenario came from, unless that is a bundled preset."""
        src = self.controller.source_path
        if not src:
            return None
        p = Path(src).resolve()
        if PRESETS_DIR.resolve() in p.parents or p.suffix.lower() != ".toml":
            return None
        return str(p)

    def _snapshot(self):
        snap = self.controller.snapshot
        if snap is None or snap.scenario != self.controller.scenario:
            snap = self.controller.recompute_now() or self.controller.compute()
        return snap

    def _zoom(self, kind: str):
        """What the window's chart shows (its view range, zoomed or not): the export shows the same."""
        chart = self.window.charts.get(kind)
        if chart is None:
            return None
        chart.catch_up()  # a chart in a hidden tab holds its last result back until shown
        return chart.getPlotItem().vb.viewRange()

    def _export(self, write, path, failure: str) -> bool:
        """Run ``write(snapshot, overlays)`` for the window's snapshot with the bands and A/B pin it
        shows; a refusal is shown with ``failure`` and leaves everything as it was."""
        from gui.export.charts import window_overlays

        try:
            snap = self._snapshot()
            out = write(snap, window_overlays(self.window, snap))
        except ScenarioError as err:
            self.show_error(failure, err)
            return False
        except OSError as err:  # a path the checks did not foresee: a message all the same
            self.show_error(failure, files.unusable_path(path, err))
            return False
        self.last_dir = str(Path(path).parent)
        self._status(f"Exported {out}")
        return True

    def export_chart_to(self, kind: str, path, width: int | None = None) -> bool:
        from gui.export.charts import export_chart

        return self._export(lambda snap, extra: export_chart(snap, kind, path, width=width,
                                                              view_range=self._zoom(kind), **extra),
                            path, translate("FileActions", "Could not export the chart"))

    def export_proposal_to(self, path, paper: str = "a4") -> bool:
        from gui.export.proposal import write_proposal

        pair = self.window.features.markers.pair  # the break-even pair chosen in the window
        audit = self.window.recommendation.audit  # the article audit only when the window shows it
        return self._export(lambda snap, extra: write_proposal(snap, path, paper=paper,
                                                                source=self.controller.source_path, pair=pair,
                                                                audit=audit, **extra),
                            path, translate("FileActions", "Could not export the proposal sheet"))

    def export_pack_to(self, folder, cover=None, paper: str = "a4") -> bool:
        """Write the proposal pack into ``folder`` (the same files as ``fabric-whatif export --pack``), in the
        window's language, with the bands, A/B pin and TCO baseline the window shows; the article audit page when
        the window shows the audit."""
        from gui.export.pack_folder import check_folder, write_pack
        from gui.i18n import current_language

        audit = self.window.recommendation.audit

        def write(snap, extra):
            check_folder(folder, translate("PackDialog", "Folder"))
            write_pack(snap, folder, cover, lang=current_language(), paper=paper, source=self.controller.source_path,
                       audit=audit, **extra)
            return folder

        return self._export(write, Path(folder) / "proposal.pdf",
                            translate("FileActions", "Could not export the proposal pack"))

    # --------------------------------------------------------------- dialogs
    def open_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(self.window, translate("FileActions", "Open scenario"),
                                                        self.last_dir,
                                                        SCENARIO_FILTER)
        if path:
            self.open_path(path)

    def save(self) -> None:
        target = self._user_file()
        if target is None:
            self.save_as_dialog()
        else:
            self.save_to(target)

    def save_as_dialog(self) -> None:
        start = str(Path(self.last_dir) / (_slug(self.controller.scenario.name) + files.SCENARIO_SUFFIX))
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self.window, translate("FileActions", "Save scenario as"),
                                                        start, SCENARIO_FILTER)
        if path:
            self.save_to(path)

    def export_chart_dialog(self, kind: str) -> None:
        from gui.export.charts import MAX_PNG_WIDTH, MIN_PNG_WIDTH, default_png_width

        start = str(Path(self.last_dir) / f"{_slug(self.controller.scenario.name)}_{kind}.png")
        path, chosen = QtWidgets.QFileDialog.getSaveFileName(self.window, f"Export the {kind} chart", start,
                                                             ";;".join(EXPORT_FILTERS.values()))
        if not path:
            return
        if not Path(path).suffix:
            ext = next((e for e, f in EXPORT_FILTERS.items() if f == chosen), ".png")
            path += ext
        width = None
        if Path(path).suffix.lower() == ".png":
            width, ok = QtWidgets.QInputDialog.getInt(
                self.window, translate("FileActions", "PNG width"),
                translate("FileActions", "Width in pixels (height follows, 5 : 3):"), default_png_width(),
                MIN_PNG_WIDTH, MAX_PNG_WIDTH, 100)
            if not ok:
                return
        self.export_chart_to(kind, path, width)

    def export_proposal_dialog(self) -> None:
        start = str(Path(self.last_dir) / f"{_slug(self.controller.scenario.name)}_proposal.pdf")
        title = translate("FileActions", "Export the proposal sheet")
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self.window, title, start, "PDF (*.pdf)")
        if not path:
            return
        if not Path(path).suffix:
            path += ".pdf"
        letter = QtCore.QLocale().territory() in (QtCore.QLocale.Country.UnitedStates, QtCore.QLocale.Country.Canada)
        paper, ok = QtWidgets.QInputDialog.getItem(self.window, translate("FileActions", "Paper size"),
                                                   translate("FileActions", "Paper:"), ["A4", "Letter"],
                                                   1 if letter else 0, False)
        if ok:
            self.export_proposal_to(path, paper.lower())


    def export_pack_dialog(self) -> None:
        """Ask for the folder and the cover's fields (remembered for the next pack), then write the pack."""
        from gui.dialogs.pack_cover import PackDialog

        dialog = self.pack_dialog = PackDialog(self.window, self.window.settings,
                                               folder=str(Path(self.last_dir) / (_slug(self.controller.scenario.name)
                                                                                 + "_pack")))
        dialog.accepted.connect(self._pack_dialog_accepted)
        dialog.open()

    def _pack_dialog_accepted(self) -> None:
        dialog = self.pack_dialog
        dialog.remember()
        failure = translate("FileActions", "Could not export the proposal pack")
        if not dialog.folder():
            self.show_error(failure, ScenarioError(translate("PackDialog", "Folder"), "",
                                                   translate("FileActions", "a folder to write the pack into")))
            return
        try:
            cover = dialog.cover()
        except ScenarioError as err:
            self.show_error(failure, err)
            return
        self.export_pack_to(dialog.folder(), cover, dialog.paper())


def _explain(err) -> str:
    """The error as the message box shows it: file, field, value, what is allowed."""
    import html

    if isinstance(err, ScenarioError):
        parts = []
        if err.source:
            parts.append(f"File: {html.escape(err.source)}")
        parts.append(f"{'File' if not err.source and ('/' in err.field or err.field.endswith('.toml')) else 'Field'}"
                     f": {html.escape(err.field)}")
        parts.append(f"Value: {html.escape(shown_value(err.value))}")
        parts.append(f"Allowed: {html.escape(err.allowed)}")
        parts.append("<br>Your current scenario is unchanged.")
        return "<br>".join(parts)
    return html.escape(str(err))


def install_file_actions(window) -> FileActions:
    """Add the file actions to ``window``'s File menu and start the autosave (one call from the app)."""
    fa = FileActions(window)
    window.file_actions = fa
    return fa


__all__ = ["FileActions", "install_file_actions"]
