"""The explorer's analysis views and modes: calibrate, bands, sensitivity, break-even, A/B compare,
language, presentation and theme. :func:`install_features` adds them to a
:class:`~gui.main_window.MainWindow` (menus, docks, chart overlays) without the window
knowing their insides.

Menus and keys:

- File ▸ Calibrate fabric from nccl-tests… (Ctrl+K)
- File ▸ Export A/B comparison as CSV…
- View ▸ Uncertainty bands (P10–P90) (Ctrl+B, off by default)
- View ▸ Dark theme (Ctrl+Shift+D); View ▸ Presentation mode (F11)
- View ▸ Language ▸ English / 简体中文
- Tools ▸ MoE vs dense fabric gap…; Pin as A (Ctrl+Shift+A), Clear pin; Sensitivity (tornado), Break-even,
  A/B compare (docks, Ctrl+Shift+T / Ctrl+Shift+E / Ctrl+Shift+C)

Work that costs more than a frame (Monte-Carlo bands, tornado, A's sweep along a new
x-axis) runs only when the view has *settled*: ``SETTLE_MS`` after the last
recompute and never while a slider is held.
"""

from __future__ import annotations

import datetime

from PySide6 import QtCore, QtGui, QtWidgets

from . import i18n
from .bands import BandsOverlay
from .breakeven import BreakEvenMarkers, BreakEvenPanel
from .compare import ComparePanel, PinnedCurves, export_csv
from .i18n import translate
from .present.series import set_tco_baseline
from .presentation import THEME_KEY, Presentation
from .tornado import TornadoPanel

SETTLE_MS = 300
THEME_SETTING = "view/theme"



class Features(QtCore.QObject):
    """Owns the analysis views (calibrate, bands, tornado, break-even, A/B) of one window."""

    settled = QtCore.Signal(object)  # Snapshot, once the view is quiet

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        c = window.controller
        self.bands = BandsOverlay(window)
        self.markers = BreakEvenMarkers(window)
        self.pinned = PinnedCurves(window)
        self.presentation = Presentation(window)
        self.pin_a = None  # Snapshot pinned as A
        self.pinned_at = ""
        self._settle = QtCore.QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self.check_settled)
        self._build_docks()
        self._build_actions()
        c.recomputed.connect(self._on_recomputed)
        cost = getattr(window, "cost_chart", None)
        set_tco_baseline(getattr(cost, "baseline", None))  # a new window starts from the default baseline
        if cost is not None:
            cost.baselineChanged.connect(self._tco_baseline_changed)
        self.settled.connect(self._on_settled)
        self.bands.computed.connect(self._bands_computed)
        self.bands.failed.connect(lambda msg: window.error_label.setText(msg))
        window.destroyed.connect(self.bands.shutdown)
        if getattr(window, "presentation_action", None) is not None:
            window.presentation_action.toggled.connect(self._presentation_toggled)
        st = window.settings
        if st is not None and st.value(THEME_SETTING) == "dark":
            self.dark_action.setChecked(True)
        if c.snapshot is not None:
            self._on_recomputed(c.snapshot)
            self._settle.start()

    # -- building ----------------------------------------------------------------
    def _dock(self, name: str, title: str) -> QtWidgets.QDockWidget:
        d = QtWidgets.QDockWidget(title, self.window)
        d.setObjectName(name)
        d.setAllowedAreas(QtCore.Qt.DockWidgetArea.BottomDockWidgetArea | QtCore.Qt.DockWidgetArea.TopDockWidgetArea
                          | QtCore.Qt.DockWidgetArea.RightDockWidgetArea)
        self.window.addDockWidget(QtCore.Qt.DockWidgetArea.BottomDockWidgetArea, d)
        d.hide()
        d.visibilityChanged.connect(lambda vis, d=d: vis and self._dock_shown(d))
        return d

    def _dock_shown(self, dock) -> None:
        {"tornadoDock": lambda: self.tornado, "breakEvenDock": lambda: self.breakeven,
         "compareDock": lambda: self.compare}[dock.objectName()]()
        if not getattr(dock, "_sized", False):  # first time: at most 300 px, the charts keep the rest
            dock._sized = True
            self.window.resizeDocks([dock], [min(300, max(200, self.window.height() // 3))],
                                   QtCore.Qt.Orientation.Vertical)
        self._on_settled(self.window.controller.snapshot)

    def _build_docks(self) -> None:
        w = self.window
        # the panels are built the first time they are needed (start-up stays fast)
        self._panels: dict[str, QtWidgets.QWidget] = {}
        self.tornado_dock = self._dock("tornadoDock", translate("Features", "Sensitivity (tornado)"))
        self.breakeven_dock = self._dock("breakEvenDock", translate("Features", "Break-even"))
        self.compare_dock = self._dock("compareDock", translate("Features", "A/B compare"))
        w.tabifyDockWidget(self.tornado_dock, self.breakeven_dock)
        w.tabifyDockWidget(self.breakeven_dock, self.compare_dock)

    def _panel(self, dock: QtWidgets.QDockWidget, make):
        panel = self._panels.get(dock.objectName())
        if panel is None:
            panel = make()
            self._panels[dock.objectName()] = panel
            dock.setWidget(panel)
            if self.presentation.dark:
                for plot in getattr(panel, "plots", ()):
                    self.presentation.style_new_plot(plot)
        return panel

    @property
    def tornado(self) -> TornadoPanel:
        return self._panel(self.tornado_dock, TornadoPanel)

    @property
    def breakeven(self) -> BreakEvenPanel:
        def make():
            p = BreakEvenPanel()
            p.pairChanged.connect(self._pair_changed)
            return p
        return self._panel(self.breakeven_dock, make)

    @property
    def compare(self) -> ComparePanel:
        def make():
            p = ComparePanel()
            p.export_button.clicked.connect(self.export_compare_dialog)
            return p
        return self._panel(self.compare_dock, make)

    def _build_actions(self) -> None:
        w = self.window
        mb = w.menuBar()
        # File
        fm = w.file_menu
        anchor = getattr(w, "file_menu_anchor", None)
        self.calibrate_action = QtGui.QAction(translate("Features", "&Calibrate fabric from nccl-tests…"), w)
        self.calibrate_action.setObjectName("calibrateAction")
        self.calibrate_action.setShortcut(QtGui.QKeySequence("Ctrl+K"))
        self.calibrate_action.triggered.connect(self.open_calibrate)
        self.export_compare_action = QtGui.QAction(translate("Features", "Export A/B comparison as CSV…"), w)
        self.export_compare_action.setEnabled(False)
        self.export_compare_action.triggered.connect(self.export_compare_dialog)
        for act in (self.calibrate_action, self.export_compare_action):
            fm.insertAction(anchor, act) if anchor is not None else fm.addAction(act)
        # View
        vm = w.view_menu
        vm.addSeparator()
        self.bands_action = vm.addAction(translate("Features", "Uncertainty &bands (P10–P90)"))
        self.bands_action.setObjectName("bandsAction")
        self.bands_action.setCheckable(True)
        self.bands_action.setShortcut(QtGui.QKeySequence("Ctrl+B"))
        self.bands_action.setToolTip(translate(
            "Features", "Monte-Carlo over every profile value given as a range: 1,000 seeded "
                        "samples, drawn when the view settles"))
        self.bands_action.toggled.connect(self.bands.set_enabled)
        self.dark_action = vm.addAction(translate("Features", "&Dark theme"))
        self.dark_action.setObjectName("darkAction")
        self.dark_action.setCheckable(True)
        self.dark_action.setShortcut(QtGui.QKeySequence(THEME_KEY))
        self.dark_action.toggled.connect(self.set_dark)
        self.language_menu = vm.addMenu(translate("Features", "&Language"))
        self.language_menu.setObjectName("languageMenu")
        group = QtGui.QActionGroup(self)
        self.language_actions = {}
        for code, name in i18n.LANGUAGES.items():
            act = self.language_menu.addAction(name)
            act.setCheckable(True)
            act.setChecked(code == i18n.current_language())
            act.setData(code)
            group.addAction(act)
            act.triggered.connect(lambda _=False, c=code: self.switch_language(c))
            self.language_actions[code] = act
        # Tools
        tools = QtWidgets.QMenu(translate("Features", "&Tools"), w)
        tools.setObjectName("toolsMenu")
        help_act = mb.actions()[-1] if mb.actions() else None  # Tools goes before Help
        mb.insertMenu(help_act, tools) if help_act is not None else mb.addMenu(tools)
        self.tools_menu = tools
        tools.addAction(self.calibrate_action)
        self.nccl_action = tools.addAction(translate("Features", "&nccl-tests prediction…"))
        self.nccl_action.setObjectName("ncclTestsAction")
        self.nccl_action.triggered.connect(self.open_nccl_tests)
        self.moe_gap_action = tools.addAction(translate("Features", "&MoE vs dense fabric gap…"))
        self.moe_gap_action.setObjectName("moeGapAction")
        self.moe_gap_action.triggered.connect(self.open_moe_gap)
        tools.addSeparator()
        self.pin_action = tools.addAction(translate("Features", "&Pin as A"))
        self.pin_action.setObjectName("pinAction")
        self.pin_action.setShortcut(QtGui.QKeySequence("Ctrl+Shift+A"))
        self.pin_action.triggered.connect(self.pin)
        self.unpin_action = tools.addAction(translate("Features", "C&lear pin"))
        self.unpin_action.setEnabled(False)
        self.unpin_action.triggered.connect(self.unpin)
        tools.addAction(self.export_compare_action)
        tools.addSeparator()
        for dock, key in ((self.tornado_dock, "Ctrl+Shift+T"), (self.breakeven_dock, "Ctrl+Shift+E"),
                          (self.compare_dock, "Ctrl+Shift+C")):
            act = dock.toggleViewAction()
            act.setShortcut(QtGui.QKeySequence(key))
            tools.addAction(act)
        self.tornado_action = self.tornado_dock.toggleViewAction()
        self.breakeven_action = self.breakeven_dock.toggleViewAction()
        self.compare_action = self.compare_dock.toggleViewAction()

    # -- the settle clock ----------------------------------------------------------
    def _on_recomputed(self, snap) -> None:
        """The live path: cheap things only (hide stale bands, restart the clock)."""
        self.bands.on_recomputed(snap)
        self._settle.start()

    def check_settled(self) -> None:
        """What the settle clock calls: emit ``settled`` unless a slider is held or a recompute is due
        (then the clock starts again)."""
        if self.window.dragging or self.window.controller.pending:
            self._settle.start()
            return
        snap = self.window.controller.snapshot
        if snap is not None:
            self.settled.emit(snap)

    def settle_now(self) -> None:
        """Tests and exports: run the settled work now."""
        self._settle.stop()
        snap = self.window.controller.snapshot
        if snap is not None:
            self._on_settled(snap)

    def _on_settled(self, snap) -> None:
        if snap is None:
            return
        self.bands.on_settled(snap)
        self.markers.update(snap)
        if self.breakeven_dock.isVisible():
            self.breakeven.show_snapshot(snap, self.markers.effective_pair(snap))
        if self.tornado_dock.isVisible():
            self.tornado.show_snapshot(snap)
        self._update_compare(snap)

    def _tco_baseline_changed(self, fabric: str) -> None:
        """The Cost tab's baseline is the TCO chart's too: its curves, bands and A's curves again."""
        set_tco_baseline(fabric)
        snap = self.window.controller.snapshot
        chart = self.window.charts.get("tco")
        if snap is None or chart is None:
            return
        chart._last_result = None  # the same sweep, drawn against another fabric
        self.window._on_recomputed(snap)
        if self.bands.enabled and self.bands.bands is not None and self.bands.shown_key == self.bands.key(snap):
            self.bands.draw(self.bands.bands, snap)
        if self.pin_a is not None:
            self.pinned.key = None
            self._update_compare(snap)

    def _bands_computed(self, ms: float) -> None:
        self.window.timing_label.setText(translate("Features", "engine {engine} ms · bands {bands} ms").format(
            engine=f"{self.window.controller.snapshot.compute_ms:.0f}", bands=f"{ms:.0f}"))

    def _pair_changed(self, pair) -> None:
        self.markers.pair = pair
        self._on_settled(self.window.controller.snapshot)

    # -- calibrate -------------------------------------------------------------------
    def open_calibrate(self, path: str | None = None):
        from .calibrate_dialog import CalibrateDialog

        self.calibrate_dialog = self._open_log_dialog(CalibrateDialog, path, modal=True)
        return self.calibrate_dialog

    def open_nccl_tests(self, path: str | None = None):
        """The collective model's nccl-tests curve for a fabric, with a measured log over it."""
        from .nccl_dialog import NcclTestsDialog

        self.nccl_dialog = self._open_log_dialog(NcclTestsDialog, path, modal=False)
        return self.nccl_dialog

    def open_moe_gap(self):
        """The fabric gap of a mixture-of-experts run against its dense twin, per fabric."""
        from .moe_gap_dialog import MoeGapDialog

        self.moe_gap_dialog = MoeGapDialog(self.window.controller, self.window)
        self.presentation.style_new_plot(self.moe_gap_dialog.plot)
        self.moe_gap_dialog.show()
        return self.moe_gap_dialog

    def _open_log_dialog(self, cls, path: str | None, modal: bool):
        """A dialog that reads an nccl-tests log: styled like the charts, ``path`` loaded if given, shown."""
        dlg = cls(self.window.controller, self.window, choose_file=self._choose_log)
        self.presentation.style_new_plot(dlg.plot)
        if path:
            dlg.load_file(path)
        dlg.setModal(modal)
        dlg.show()
        return dlg

    def _choose_log(self) -> str:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self.window, translate("Features", "Open nccl-tests output"), "",
            translate("Features", "nccl-tests logs (*.txt *.log *.out);;All files (*)"))
        return path

    # -- A/B -------------------------------------------------------------------------
    def pin(self) -> None:
        snap = self.window.controller.snapshot
        if snap is None:
            return
        self.pin_a = snap
        self.pinned_at = QtCore.QTime.currentTime().toString("HH:mm")
        self.pinned.key = None
        self.unpin_action.setEnabled(True)
        self.export_compare_action.setEnabled(True)
        self.compare_dock.show()
        self.compare_dock.raise_()
        self._update_compare(snap)

    def unpin(self) -> None:
        self.pin_a = None
        self.pinned.clear()
        if "compareDock" in self._panels:
            self.compare.show_pair(None, None)
        self.unpin_action.setEnabled(False)
        self.export_compare_action.setEnabled(False)

    def _a_along(self, field: str):
        """A's snapshot along ``field`` (the current x-axis), computed once per field."""
        a = self.pin_a
        if a.x_field == field:
            return a
        return self.window.controller.compute(a.scenario, field)

    def _update_compare(self, snap) -> None:
        if self.pin_a is None:
            return
        a = self._a_along(snap.x_field)
        key = (a.scenario, snap.x_field)
        if self.pinned.key != key:
            self.pinned.draw(a.sweep, a)
            self.pinned.key = key
        self.compare.show_pair(a, snap, self.pinned_at)

    def export_compare(self, path):
        snap = self.window.controller.snapshot
        if self.pin_a is None or snap is None:
            return None
        return export_csv(path, self.pin_a.point, snap.point, name_a=self.pin_a.scenario.name,
                          name_b=snap.scenario.name)

    def export_compare_dialog(self) -> None:
        if self.pin_a is None:
            return
        stamp = datetime.date.today().isoformat()
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.window, translate("Features", "Export A/B comparison"), f"ab-compare-{stamp}.csv",
            translate("Features", "CSV files (*.csv)"))
        if path:
            from model import ScenarioError

            try:
                self.export_compare(path)
            except ScenarioError as err:  # says why: a folder, a pipe, not writable
                self.window.error_label.setText(translate("Features", "Could not write {path}: {error}").format(
                    path=path, error=f"{err.value}; {err.allowed}"))

    # -- view modes ------------------------------------------------------------------
    def set_dark(self, on: bool) -> None:
        self.presentation.set_dark(on)
        for panel in self._panels.values():
            for plot in getattr(panel, "plots", ()):
                self.presentation.style_new_plot(plot)
        if self.window.settings is not None:
            self.window.settings.setValue(THEME_SETTING, "dark" if on else "light")

    def _presentation_toggled(self, on: bool) -> None:
        tornado = self._panels.get("tornadoDock")
        if tornado is not None:
            tornado.apply_text_scale()
        self.pinned.width = 2.2 if on else 1.2
        self.pinned.key = None
        if self.pin_a is not None and self.window.controller.snapshot is not None:
            self._update_compare(self.window.controller.snapshot)
        for line in self.markers.lines:
            pen = line.pen
            pen.setWidthF(2.5 if on else 1.5)
            line.setPen(pen)

    def switch_language(self, code: str):
        return i18n.switch_language(self.window, code)

    # -- carrying state into a rebuilt window (language switch) -------------------------
    def save_state(self) -> dict:
        return dict(bands=self.bands_action.isChecked(), dark=self.dark_action.isChecked(), pin=self.pin_a,
                    pinned_at=self.pinned_at, pair=self.markers.pair,
                    tco_baseline=getattr(getattr(self.window, "cost_chart", None), "baseline", None),
                    presentation=bool(getattr(self.window, "presentation_action", None)
                                      and self.window.presentation_action.isChecked()),
                    docks={d.objectName(): d.isVisible() for d in (self.tornado_dock, self.breakeven_dock,
                                                                   self.compare_dock)})

    def restore_state(self, state: dict) -> None:
        if not state:
            return
        self.dark_action.setChecked(bool(state.get("dark")))
        if state.get("pin") is not None:
            self.pin()
            self.pin_a = state["pin"]
            self.pinned_at = state.get("pinned_at", "")
            self.pinned.key = None
        self.markers.pair = state.get("pair")
        if state.get("tco_baseline") and getattr(self.window, "cost_chart", None) is not None:
            self.window.cost_chart.set_baseline(state["tco_baseline"])  # the Cost tab's and the TCO chart's
        for d in (self.tornado_dock, self.breakeven_dock, self.compare_dock):
            if state.get("docks", {}).get(d.objectName()):
                d.show()
        self.bands_action.setChecked(bool(state.get("bands")))
        if state.get("presentation") and getattr(self.window, "presentation_action", None) is not None:
            self.window.presentation_action.setChecked(True)
        self.settle_now()


def install_features(window) -> Features:
    """Add the analysis views and modes to ``window``; returns the :class:`Features` (also ``window.features``)."""
    window.features = Features(window)
    return window.features


__all__ = ["Features", "SETTLE_MS", "install_features"]
