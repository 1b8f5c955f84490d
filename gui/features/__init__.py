"""The explorer's features, one module per concept, added to a :class:`gui.window.MainWindow` through
its public attributes and its session's signals (:func:`install_features`):

- :mod:`.docks`: the analysis docks (sensitivity, break-even, A/B compare);
- :mod:`.pin_compare`: pin A, compare with B, export the comparison;
- :mod:`.presentation_mode`: full screen, large text, thick lines (F11 / F5);
- :mod:`.language`: View ▸ Language, switched in place;
- :mod:`.log_dialogs`: the dialogs that read nccl-tests logs (calibrate, prediction);
- here: the settle clock, the uncertainty bands, the break-even markers, the theme, the Tools menu.

Menus and keys:

- File ▸ Calibrate fabric from nccl-tests… (Ctrl+K); File ▸ Export A/B comparison as CSV…
- View ▸ Uncertainty bands (P10–P90) (Ctrl+B, off by default)
- View ▸ Dark theme (Ctrl+Shift+D); View ▸ Presentation mode (F11, F5)
- View ▸ Language ▸ English / 简体中文
- Tools ▸ MoE vs dense fabric gap…; Pin as A (Ctrl+Shift+A), Clear pin; Sensitivity (tornado), Break-even,
  A/B compare (docks, Ctrl+Shift+T / Ctrl+Shift+E / Ctrl+Shift+C)

Work that costs more than a frame (Monte-Carlo bands, tornado, A's sweep along a new
x-axis) runs only when the view has *settled*: ``SETTLE_MS`` after the last
recompute and never while a slider is held.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from gui.charts.bands import BandsOverlay
from gui.charts.breakeven import BreakEvenMarkers, BreakEvenPanel
from gui.i18n import Texts, translate
from gui.dialogs.moe_gap import MoeGapDialog
from gui.dialogs.price_book import PriceBookDialog
from gui.theme import THEME_KEY, Theme
from gui.charts.tornado import TornadoPanel
from gui.features.docks import DOCK_SHORTCUTS, DOCK_TITLES, AnalysisDocks
from gui.features.language import LanguageMenu
from gui.features.log_dialogs import LogDialogs
from gui.features.pin_compare import PinCompare
from gui.features.presentation_mode import PresentationMode

SETTLE_MS = 300
THEME_SETTING = "view/theme"
MARKER_WIDTH, MARKER_WIDTH_PRESENTATION = 1.5, 2.5  # break-even lines [px]


class Features(QtCore.QObject):
    """Owns the features of one window; ``settled(snapshot)`` once the view is quiet."""

    settled = QtCore.Signal(object)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.texts = Texts()
        session = window.session
        c = window.controller
        self.bands = BandsOverlay(window)
        self.markers = BreakEvenMarkers(window)
        self.theme = Theme(window)
        self.docks = AnalysisDocks(window, {"tornadoDock": TornadoPanel, "breakEvenDock": self._make_breakeven,
                                            "compareDock": lambda: self.compare_feature.make_panel()})
        self.tornado_dock, self.breakeven_dock, self.compare_dock = (self.docks.tornado_dock, self.docks.breakeven_dock,
                                                                     self.docks.compare_dock)
        self.compare_feature = PinCompare(window, self.docks, self.texts)
        self.pinned = self.compare_feature.pinned
        self.presentation_mode = PresentationMode(window, self.texts)
        self.log_dialogs = LogDialogs(window, self.theme, self.texts)
        self._settle = QtCore.QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self.check_settled)
        self._build_menus()
        self.language = LanguageMenu(window, self.language_menu)
        self.docks.panelMade.connect(self._style_panel)
        self.docks.shown.connect(lambda _name: self._on_settled(c.snapshot))
        c.recomputed.connect(self._on_recomputed)
        session.on({"bands_on"}, lambda: (self.bands.set_enabled(session.state.bands_on),
                                          self.bands_action.setChecked(session.state.bands_on)))
        session.on({"tco_baseline"}, self._tco_baseline_changed)
        self.presentation_mode.toggled.connect(self._presentation_toggled)
        window.retranslated.connect(self.retranslate)
        self.settled.connect(self._on_settled)
        self.bands.computed.connect(self._bands_computed)
        self.bands.failed.connect(window.error_label.setText)
        window.destroyed.connect(self.bands.shutdown)
        st = window.settings
        if st is not None and st.value(THEME_SETTING) == "dark":
            self.dark_action.setChecked(True)
        if c.snapshot is not None:
            self._on_recomputed(c.snapshot)
            self._settle.start()

    # -- building ----------------------------------------------------------------
    def _make_breakeven(self) -> BreakEvenPanel:
        p = BreakEvenPanel()
        p.pairChanged.connect(self._pair_changed)
        return p

    def _build_menus(self) -> None:
        w, t = self.window, self.texts
        mb = w.menuBar()
        # File
        fm = w.file_menu
        self.calibrate_action = self.log_dialogs.calibrate_action
        for act in (self.calibrate_action, self.compare_feature.export_action):
            fm.insertAction(w.file_menu_anchor, act)
        # View
        vm = w.view_menu
        vm.addAction(self.presentation_mode.action)
        vm.addSeparator()
        self.bands_action = vm.addAction("")
        t.bind(self.bands_action.setText, lambda: translate("Features", "Uncertainty &bands (P10–P90)"))
        self.bands_action.setObjectName("bandsAction")
        self.bands_action.setCheckable(True)
        self.bands_action.setShortcut(QtGui.QKeySequence("Ctrl+B"))
        t.bind(self.bands_action.setToolTip, lambda: translate(
            "Features", "Monte-Carlo over every profile value given as a range: 1,000 seeded "
                        "samples, drawn when the view settles"))
        self.bands_action.toggled.connect(lambda on: self.window.session.state.update(bands_on=on))
        self.dark_action = vm.addAction("")
        t.bind(self.dark_action.setText, lambda: translate("Features", "&Dark theme"))
        self.dark_action.setObjectName("darkAction")
        self.dark_action.setCheckable(True)
        self.dark_action.setShortcut(QtGui.QKeySequence(THEME_KEY))
        self.dark_action.toggled.connect(self.set_dark)
        self.language_menu = vm.addMenu("")
        t.bind(self.language_menu.setTitle, lambda: translate("Features", "&Language"))
        self.language_menu.setObjectName("languageMenu")
        # Tools, before Help
        tools = QtWidgets.QMenu(w)
        t.bind(tools.setTitle, lambda: translate("Features", "&Tools"))
        tools.setObjectName("toolsMenu")
        mb.insertMenu(w.help_menu.menuAction(), tools)
        self.tools_menu = tools
        tools.addAction(self.calibrate_action)
        self.nccl_action = self.log_dialogs.nccl_action
        tools.addAction(self.nccl_action)
        self.moe_gap_action = tools.addAction("")
        t.bind(self.moe_gap_action.setText, lambda: translate("Features", "&MoE vs dense fabric gap…"))
        self.moe_gap_action.setObjectName("moeGapAction")
        self.moe_gap_action.triggered.connect(lambda: self.open_moe_gap())
        self.price_book_action = tools.addAction("")
        t.bind(self.price_book_action.setText, lambda: translate("Features", "&Price book…"))
        self.price_book_action.setObjectName("priceBookAction")
        self.price_book_action.triggered.connect(lambda: self.open_price_book())
        tools.addSeparator()
        pc = self.compare_feature
        self.pin_action, self.unpin_action, self.export_compare_action = pc.pin_action, pc.unpin_action, pc.export_action
        for act in (self.pin_action, self.unpin_action, self.export_compare_action):
            tools.addAction(act)
        tools.addSeparator()
        # each shortcut shows its dock and brings it to the front, never hides it (a dock is closed by its button)
        self.dock_actions = {}
        for name, key in DOCK_SHORTCUTS.items():
            act = QtGui.QAction(w)
            act.setObjectName(f"{name}Action")
            t.bind(act.setText, DOCK_TITLES[name])
            act.setShortcut(QtGui.QKeySequence(key))
            act.triggered.connect(lambda _=False, n=name: self.docks.show_dock(n))
            tools.addAction(act)
            w.addAction(act)  # the key works with the menu bar hidden too
            self.dock_actions[name] = act
        self.tornado_action = self.dock_actions["tornadoDock"]
        self.breakeven_action = self.dock_actions["breakEvenDock"]
        self.compare_action = self.dock_actions["compareDock"]

    # -- the panels, built when first shown ----------------------------------------------
    @property
    def tornado(self) -> TornadoPanel:
        return self.docks.panel("tornadoDock")

    @property
    def breakeven(self) -> BreakEvenPanel:
        return self.docks.panel("breakEvenDock")

    @property
    def compare(self):
        return self.docks.panel("compareDock")

    def _style_panel(self, panel) -> None:
        if self.theme.dark:
            for plot in getattr(panel, "plots", ()):
                self.theme.style_new_plot(plot)

    # -- the settle clock ----------------------------------------------------------
    def _on_recomputed(self, snap) -> None:
        """The live path: cheap things only (hide stale bands, restart the clock)."""
        self.bands.on_recomputed(snap)
        self._settle.start()

    def check_settled(self) -> None:
        """What the settle clock calls: emit ``settled`` unless a slider is held or a recompute is due
        (then the clock starts again)."""
        if self.window.session.state.dragging or self.window.controller.pending:
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
        for chart in self.window.charts.values():  # a chart in a hidden tab draws what it held back
            chart.catch_up()
        self.bands.on_settled(snap)
        self.markers.update(snap)
        if self.breakeven_dock.isVisible():
            self.breakeven.show_snapshot(snap, self.markers.effective_pair(snap))
        if self.tornado_dock.isVisible():
            self.tornado.show_snapshot(snap)
        self.compare_feature.update(snap)

    def _tco_baseline_changed(self) -> None:
        """The bands of the TCO chart against the new baseline (the window redraws its charts, the pin
        feature A's curves)."""
        snap = self.window.controller.snapshot
        b = self.bands
        if snap is not None and b.enabled and b.bands is not None and b.shown_key == b.key(snap):
            b.draw(b.bands, snap)

    def _bands_computed(self, ms: float) -> None:
        self.window.timing_label.setText(translate("Features", "engine {engine} ms · bands {bands} ms").format(
            engine=f"{self.window.controller.snapshot.compute_ms:.0f}", bands=f"{ms:.0f}"))

    def _pair_changed(self, pair) -> None:
        self.markers.pair = pair
        self._on_settled(self.window.controller.snapshot)

    # -- pin A / B ---------------------------------------------------------------------
    @property
    def pin_a(self):
        """The snapshot pinned as A (the session's), or None."""
        return self.window.session.state.pin

    @property
    def pinned_at(self) -> str:
        return self.window.session.state.pinned_at

    def pin(self) -> None:
        self.compare_feature.pin()

    def unpin(self) -> None:
        self.compare_feature.unpin()

    def export_compare(self, path):
        return self.compare_feature.export(path)

    def export_compare_dialog(self) -> None:
        self.compare_feature.export_dialog()

    # -- dialogs -----------------------------------------------------------------------
    def open_calibrate(self, path: str | None = None):
        return self.log_dialogs.open_calibrate(path)

    def open_nccl_tests(self, path: str | None = None):
        return self.log_dialogs.open_nccl_tests(path)

    def open_moe_gap(self):
        """The fabric gap of a mixture-of-experts run against its dense twin, per fabric (non-modal)."""
        self.moe_gap_dialog = MoeGapDialog(self.window.controller, self.window)
        self.theme.style_new_plot(self.moe_gap_dialog.plot)
        self.moe_gap_dialog.show()
        return self.moe_gap_dialog

    def open_price_book(self):
        """Switch, NIC, optic and cable prices per fabric, discount, support and currency (modal-less)."""
        self.price_book_dialog = PriceBookDialog(self.window.controller, self.window)
        self.price_book_dialog.show()
        return self.price_book_dialog

    # -- view modes ------------------------------------------------------------------
    def set_dark(self, on: bool) -> None:
        self.theme.set_dark(on)
        for panel in self.docks.panels():
            for plot in getattr(panel, "plots", ()):
                self.theme.style_new_plot(plot)
        if self.window.settings is not None:
            self.window.settings.setValue(THEME_SETTING, "dark" if on else "light")

    def _presentation_toggled(self, on: bool) -> None:
        tornado = self.docks.built("tornadoDock")
        if tornado is not None:
            tornado.apply_text_scale()
        self.compare_feature.set_presentation(on)
        for line in self.markers.lines:
            pen = line.pen
            pen.setWidthF(MARKER_WIDTH_PRESENTATION if on else MARKER_WIDTH)
            line.setPen(pen)

    @property
    def language_actions(self) -> dict:
        return self.language.actions

    def switch_language(self, code: str):
        return self.language.switch(code)

    def retranslate(self) -> None:
        """The features' texts in the current language (after the window's)."""
        self.texts.retranslate()
        self.docks.retranslate()
        self.language.sync()
        self.markers.update(self.window.controller.snapshot)
        if self.presentation_mode.on:
            tornado = self.docks.built("tornadoDock")
            if tornado is not None:
                tornado.apply_text_scale()
        self.settle_now()


def install_features(window) -> Features:
    """Add the features to ``window``; returns the :class:`Features` (also ``window.features``)."""
    window.features = Features(window)
    return window.features


__all__ = ["Features", "SETTLE_MS", "install_features"]
