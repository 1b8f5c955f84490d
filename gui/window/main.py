"""The main window: controls on the left (:mod:`.controls_panel`), the three charts in the middle,
the current point on the right (:mod:`.point_panel`).

The window's state is its session (``window.session``, a :class:`gui.window.signals.SessionSignals`
with one ``changed`` signal; the values in ``window.session.state``): the scenario and the one it was loaded as, the source,
the x-axis, the pin, the bands, the TCO baseline, whether a slider is held. Data flows one way:
a control calls the :class:`~gui.window.controller.Controller`; the controller changes the session and,
coalesced, emits ``recomputed`` with a :class:`~gui.window.controller.Snapshot` that every view draws.
The features (:mod:`gui.features`) add menus, docks and overlays through the window's public
attributes and the session's signals. Hooks for the file helpers: ``window.controller`` and
``window.file_menu`` (add actions before ``window.file_menu_anchor``).
"""

from __future__ import annotations

import html
import re

from PySide6 import QtCore, QtGui, QtWidgets

import model
from model import catalog

from gui.present.series import WINDOW_CHART_KINDS, axis_label
from gui.charts.sweep import ChartWidget
from gui.window.controller import X_FIELDS, Controller
from gui.panels.controls import labelled
from gui.window.file_actions import install_file_actions
from gui.features import install_features
from gui.i18n import Texts, current_language, translate
from gui.present.text import profile_set_name, tr_source
from gui.present.session import Session
from gui.present.view import SnapshotView
from gui.panels.recommendation import preset_name_for
from gui.window.signals import SessionSignals
from gui.window import persistence
from gui.panels import control_texts
from gui.panels.controls_panel import ControlsPanel
from gui.panels.point_panel import PointPanel
from gui.window.presets import DEFAULT_PRESET, fill_presets_menu

APP_NAME = control_texts.APP_NAME
IDLE_LINE_WIDTH = 1.5
PRESENTATION_LINE_WIDTH = 2.5  # thick lines for a projector (a guess tuned on screenshots)
# Smallest chart height without its legend [px]: three charts, the toolbar, the status bar and an open dock fit a 1366 × 768
# laptop screen (the window never needs more than the screen).
CHART_MIN_HEIGHT = 132
MIDDLE_MIN_WIDTH = 380  # the charts' column gives the point table its width down to this [px]
DRAG_LINE_WIDTH = 1.0


class ToolbarLabel(QtWidgets.QLabel):
    """A label that asks the toolbar only for the width the other items leave: a toolbar moves the items
    that do not fit into its overflow menu, and the scenario's name must never push the x-axis selector
    there (a 1366-pixel laptop, presentation mode). What does not fit is left out whole, never cut inside a
    word: the parts of the line (separated by :attr:`SEPARATOR`) go from the end, and a name too long on its
    own ends in an ellipsis; :meth:`text` and the tooltip keep it all.

    The scenario line changes on every step of a slider drag. The label keeps a fixed size (a label that is not
    fixed asks its parent for a new layout on every ``setText``, and the toolbar's layout then asks every item
    for its size): the width its text takes, rounded up to :attr:`WIDTH_STEP_PX` and capped at the room the
    other items leave. A rich-text line is measured (~0.5 ms a part) only when its length changes: a drag's new
    numbers keep the length, the parts shown and the size. It is fitted again when the toolbar is resized or
    laid out, the font or the language changes."""

    WIDTH_STEP_PX = 24
    SEPARATOR = " &nbsp;·&nbsp; "
    _others: tuple = (None, 0)
    _measured = None  # (toolbar width and items, font, language), the text's length, width, height, parts shown
    _full = ""

    def text(self) -> str:
        """The whole line, whatever part of it the toolbar has room for."""
        return self._full

    def setText(self, text: str) -> None:  # noqa: N802 (Qt name)
        self._full = text
        self.fit()

    def fit(self) -> None:
        """Show the parts that fit and take the size :meth:`wanted_size` gives, if it is another."""
        want, shown = self._fitted()
        if super().text() != shown:
            super().setText(shown)
        if self.minimumSize() != want or self.maximumSize() != want:
            self.setFixedSize(want)

    def wanted_size(self) -> QtCore.QSize:
        return self._fitted()[0]

    def _shown(self, parts: int) -> str:
        """The line's first ``parts`` parts, or (0) its first part, the name, cut to the room with an ellipsis."""
        split = self._full.split(self.SEPARATOR)
        if parts:
            return self.SEPARATOR.join(split[:parts])
        bold = QtGui.QFont(self.font())
        bold.setBold(True)
        name = html.unescape(re.sub(r"<[^>]+>", "", split[0]))
        room = max(self._room() - self.contentsMargins().left() - self.contentsMargins().right() - 4, 20)
        return "<b>" + html.escape(QtGui.QFontMetrics(bold).elidedText(name, QtCore.Qt.TextElideMode.ElideRight,
                                                                       room)) + "</b>"

    def _room(self) -> int:
        bar = self.parentWidget()
        return bar.width() - self._others[1] - 2 * bar.layout().contentsMargins().left() - 16

    def _hint(self, text: str) -> QtCore.QSize:
        """The size the label takes to show ``text``, measured on a label outside the toolbar (a new text on
        this one would ask the toolbar for a new layout, which fits this label again)."""
        ruler = self.__dict__.get("_ruler")
        if ruler is None:
            ruler = self._ruler = QtWidgets.QLabel()
        if ruler.font() != self.font():
            ruler.setFont(self.font())
        if ruler.contentsMargins() != self.contentsMargins():
            ruler.setContentsMargins(self.contentsMargins())
        ruler.setText(text)
        return ruler.sizeHint()

    def _fitted(self) -> tuple[QtCore.QSize, str]:
        bar = self.parentWidget()
        if not isinstance(bar, QtWidgets.QToolBar):
            return self._hint(self._full), self._full
        key = (bar.width(), len(bar.children()), self.font().key(), current_language())
        n = len(self._full)
        m = self._measured
        if m is not None and m[0] == key and m[1] == n:
            return QtCore.QSize(m[2], m[3]), self._shown(m[4])
        if self._others[0] != key:
            # the items by their actions: one the toolbar has moved into its overflow menu is hidden, and still
            # needs its room
            items = [bar.widgetForAction(a) for a in bar.actions() if a.isVisible()]
            self._others = (key, sum(w.sizeHint().width() + bar.layout().spacing() for w in items
                                     if w is not None and w is not self))
        room = self._room()
        parts = len(self._full.split(self.SEPARATOR))
        while parts and self._hint(self._shown(parts)).width() > room:
            parts -= 1  # the last part goes whole
        shown = self._shown(parts)
        hint = self._hint(shown)
        step = self.WIDTH_STEP_PX
        want = QtCore.QSize(max(min(-(-hint.width() // step) * step, room), hint.width(), 40), hint.height())
        self._measured = (key, n, want.width(), want.height(), parts)
        return want, shown

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt name): the toolbar's resizes and layouts
        if watched is self.parentWidget():
            if event.type() == QtCore.QEvent.Type.LayoutRequest:
                self._others = (None, 0)  # another item changed its size (a font, a language)
                self._measured = None
                self.fit()
            elif event.type() == QtCore.QEvent.Type.Resize:
                self.fit()
        return False

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.LanguageChange,
                            QtCore.QEvent.Type.StyleChange):
            self.fit()


class MainWindow(QtWidgets.QMainWindow):
    """The explorer window. ``session`` holds the state, ``controller`` computes; views follow both."""

    def __init__(self, scenario: model.Scenario | None = None, *, source_path: str | None = None,
                 settings: QtCore.QSettings | None = None):
        super().__init__()
        self.settings = settings
        self.texts = Texts()  # every fixed text, set again on a language switch
        self.view: SnapshotView | None = None  # the snapshot and overlays the views drew last
        state = Session(scenario or model.load_scenario(DEFAULT_PRESET), source_path=source_path)
        self.controller = Controller(session=state, parent=self)
        self.session: SessionSignals = self.controller.signals
        self.setObjectName("MainWindow")
        self.setWindowTitle(APP_NAME)
        self._build_menus()
        self._build_toolbar()
        self._build_central()
        self._build_status()
        c = self.controller
        # controls follow the scenario once per burst of edits (a drag fires many), like the recompute
        self._sync_timer = QtCore.QTimer(self)
        self._sync_timer.setSingleShot(True)
        self._sync_timer.setInterval(0)
        self._sync_timer.timeout.connect(self.sync_controls)
        self.session.changed.connect(self._session_changed)
        self.cost_chart.baselineChanged.connect(lambda fabric: self.session.state.update(tco_baseline=fabric))
        c.recomputed.connect(self.show_snapshot)
        c.errorOccurred.connect(self.show_error)
        self._retranslate_timer = QtCore.QTimer(self)  # a LanguageChange event from outside switch_language
        self._retranslate_timer.setSingleShot(True)
        self._retranslate_timer.setInterval(0)
        self._retranslate_timer.timeout.connect(self.retranslate)
        self.sync_controls()
        c.recompute_now()
        install_file_actions(self)  # Open/Save/Recent/Export, autosave
        install_features(self)  # analysis docks, pin A/B, bands, cost baseline, presentation, theme, language

    # ------------------------------------------------------------------ build
    def _build_menus(self) -> None:
        mb = self.menuBar()
        t = self.texts
        self.file_menu = mb.addMenu("")
        t.bind(self.file_menu.setTitle, lambda: translate("MainWindow", "&File"))
        self.file_menu.setObjectName("fileMenu")
        self.file_menu_anchor = self.file_menu.addSeparator()  # file helpers insert before this
        quit_act = self.file_menu.addAction("")
        t.bind(quit_act.setText, lambda: translate("MainWindow", "&Quit"))
        quit_act.setShortcut(QtGui.QKeySequence.StandardKey.Quit)
        quit_act.triggered.connect(self.close)

        self.presets_menu = mb.addMenu("")
        t.bind(self.presets_menu.setTitle, lambda: translate("MainWindow", "&Presets"))
        self.preset_actions = fill_presets_menu(self.presets_menu, self.load_preset, t)

        self.view_menu = mb.addMenu("")
        t.bind(self.view_menu.setTitle, lambda: translate("MainWindow", "&View"))
        self.x_actions = QtGui.QActionGroup(self)
        for i, field in enumerate(X_FIELDS):
            act = self.view_menu.addAction("")
            t.bind(act.setText, lambda f=field: translate("MainWindow", "x-axis: {axis}").format(axis=axis_label(f)))
            act.setCheckable(True)
            act.setShortcut(QtGui.QKeySequence(f"Ctrl+{i + 1}"))
            act.setData(field)
            act.triggered.connect(lambda _=False, f=field: self.controller.set_x_field(f))
            self.x_actions.addAction(act)
            act.setChecked(field == self.controller.x_field)
        self.view_menu.addSeparator()
        reset_zoom = self.view_menu.addAction("")
        t.bind(reset_zoom.setText, lambda: translate("MainWindow", "Reset &zoom"))
        reset_zoom.setShortcut(QtGui.QKeySequence("Ctrl+0"))
        reset_zoom.triggered.connect(self.reset_zoom)

        self.help_menu = mb.addMenu("")
        t.bind(self.help_menu.setTitle, lambda: translate("MainWindow", "&Help"))
        about = self.help_menu.addAction("")
        t.bind(about.setText, lambda: translate("MainWindow", "&About Fabric What-If"))
        about.triggered.connect(self._about)

    def _build_toolbar(self) -> None:
        t = self.texts
        tb = self.addToolBar("")
        t.bind(tb.setWindowTitle, lambda: translate("MainWindow", "Scenario"))
        tb.setObjectName("scenarioToolbar")
        tb.setMovable(False)
        self.preset_button = QtWidgets.QToolButton()
        t.bind(self.preset_button.setText, lambda: translate("MainWindow", "Preset"))
        self.preset_button.setMenu(self.presets_menu)
        self.preset_button.setPopupMode(QtWidgets.QToolButton.ToolButtonPopupMode.InstantPopup)
        t.bind(self.preset_button.setToolTip, lambda: translate(
            "MainWindow", "Load a case study or scale tier: sets every control at once"))
        tb.addWidget(self.preset_button)
        self.scenario_label = ToolbarLabel()
        self.scenario_label.setObjectName("scenarioLabel")
        self.scenario_label.setContentsMargins(10, 0, 16, 0)
        tb.addWidget(self.scenario_label)
        tb.installEventFilter(self.scenario_label)  # fitted again to the toolbar's new width
        spacer = QtWidgets.QWidget()
        spacer.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Preferred)
        tb.addWidget(spacer)
        profiles = QtWidgets.QLabel()
        t.bind(profiles.setText, lambda: translate("MainWindow", "Fabric figures: "))
        tb.addWidget(profiles)
        self.profile_buttons: dict[str, QtWidgets.QRadioButton] = {}
        self.profile_group = QtWidgets.QButtonGroup(self)
        tips = {"seed": lambda: translate("MainWindow", "The source article's fabric table (midpoints of its ranges) "
                                                        "and its case figures; file id: seed. The cluster's NICs "
                                                        "and link speeds stay as they are."),
                "published": lambda: translate("MainWindow", "Measured and specified figures with their sources; "
                                                             "file id: published. The cluster's NICs and link "
                                                             "speeds stay as they are.")}
        for name in catalog.PROFILE_SETS:
            rb = QtWidgets.QRadioButton(name)
            rb.setObjectName(f"profileSet_{name}")
            t.bind(rb.setText, lambda n=name: profile_set_name(n))
            source = catalog.profile_set(name).get("source", "")
            t.bind(rb.setToolTip, lambda n=name, src=source: (tips[n]() if n in tips else n) + "\n" + tr_source(src))
            self.profile_group.addButton(rb)
            self.profile_buttons[name] = rb
            rb.toggled.connect(lambda on, n=name: on and self.controller.set_profile_set(n))
            tb.addWidget(rb)
        tb.addSeparator()
        self.x_combo = QtWidgets.QComboBox()
        for i, field in enumerate(X_FIELDS):
            self.x_combo.addItem("", field)
            t.bind(lambda text, i=i: self.x_combo.setItemText(i, text), lambda f=field: axis_label(f))
        self.x_combo.setCurrentIndex(X_FIELDS.index(self.controller.x_field))
        self.x_combo.currentIndexChanged.connect(lambda i: self.controller.set_x_field(self.x_combo.itemData(i)))
        box = labelled("", self.x_combo)
        t.bind(box.findChild(QtWidgets.QLabel).setText, lambda: translate("MainWindow", "  x-axis: "))
        t.bind(self.x_combo.setAccessibleName, lambda: translate("MainWindow", "x-axis"))
        tb.addWidget(box)

    def _build_central(self) -> None:
        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        split.setObjectName("mainSplitter")
        split.setChildrenCollapsible(False)
        self.splitter = split
        self.controls = ControlsPanel(self.controller, self.session.state, self.texts)
        split.addWidget(self.controls)
        mid = QtWidgets.QWidget()
        ml = QtWidgets.QVBoxLayout(mid)
        ml.setContentsMargins(2, 2, 2, 2)
        ml.setSpacing(2)
        self.charts: dict[str, ChartWidget] = {}
        for kind in WINDOW_CHART_KINDS:
            ch = ChartWidget(kind, line_width=IDLE_LINE_WIDTH)
            ch.setObjectName(f"chart_{kind}")
            ch.plot_min_height = CHART_MIN_HEIGHT
            ch.setMinimumHeight(CHART_MIN_HEIGHT)
            self.charts[kind] = ch
            ml.addWidget(ch, 1)
        first = self.charts[WINDOW_CHART_KINDS[0]]
        for kind in WINDOW_CHART_KINDS[1:]:
            self.charts[kind].setXLink(first)
            self.charts[kind].set_fabric_legend(False)  # one legend for the three, on the top chart
        for kind in WINDOW_CHART_KINDS[:-1]:
            self.charts[kind].x_label_shown = False  # one x-axis title, under the bottom chart
        split.addWidget(mid)
        self.chart_column = mid
        # the TCO of the same cluster along the x-axis, a tab of the point panel (second to the cost per run: with
        # latency or loss on the x-axis the TCO falls as the network gets worse while the cost per run rises)
        run_chart = self.charts["tco"] = ChartWidget("tco", line_width=IDLE_LINE_WIDTH)
        run_chart.setObjectName("chart_tco")
        # not x-linked to the stacked charts: pyqtgraph aligns linked views by their screen geometry, and a chart
        # in a hidden tab has none, which threw the stacked charts' x-range off; it fits its own x-range instead
        run_chart.set_fabric_legend(False)  # the fabrics' colours are named on the top chart
        run_chart.standalone_geometry = True
        run_chart.draws_only_when_shown = True  # in a tab: not redrawn while out of sight
        run_chart.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Ignored)
        for ch in self.charts.values():  # no text over the curves: the idle-GPU dots in the legend, the other notes on hover
            ch.plot_notes = False
        self.point_panel = PointPanel(self.texts, run_chart)
        split.addWidget(self.point_panel)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 2)
        split.setSizes([320, 760, 520])
        # the window's pages: the explorer (controls, charts, point) and, in presentation mode, the stage view
        self.pages = QtWidgets.QStackedWidget()
        self.pages.setObjectName("pages")
        self.pages.addWidget(split)
        self.setCentralWidget(self.pages)
        # the views tests, exports and features reach by name
        c, p = self.controls, self.point_panel
        self.sliders, self.fabric_sliders = c.sliders, c.fabric_sliders
        self.gpu_combo, self.focus_combo, self.recovery_combo = c.gpu_combo, c.focus_combo, c.recovery_combo
        self.adaptive_check, self.reset_button, self.fabric_source = c.adaptive_check, c.reset_button, c.fabric_source
        self.fabric_checks, self.placement_combo, self.compare_checks = c.fabric_checks, c.placement_combo, \
            c.compare_checks
        self.table, self.breakdown, self.cost_chart = p.table, p.breakdown, p.cost_chart
        self.recommendation, self.point_tabs, self.breakdown_legend = p.recommendation, p.point_tabs, p.breakdown_legend

    def _build_status(self) -> None:
        sb = self.statusBar()
        self.error_label = QtWidgets.QLabel()
        self.error_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # messages quote values from files
        self.error_label.setStyleSheet("color:#b00020")
        self.error_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        sb.addWidget(self.error_label, 1)
        self.timing_label = QtWidgets.QLabel()
        self.timing_label.setStyleSheet("color:#666")
        sb.addPermanentWidget(self.timing_label)

    # ------------------------------------------------------------------ state
    @property
    def focus(self) -> str:
        return self.session.state.focus

    @property
    def dragging(self) -> bool:
        """True while a slider is held: the drag path (thin pens, no tooltips, no band computation)."""
        return self.session.state.dragging

    @property
    def loaded_scenario(self) -> model.Scenario:
        """The scenario as loaded or last saved: what "(edited)" and the changed-field marks compare with."""
        return self.session.state.loaded

    @property
    def presentation_action(self) -> QtGui.QAction:
        """View ▸ Presentation mode (the feature :mod:`gui.features.presentation_mode` owns it)."""
        return self.features.presentation_mode.action

    @property
    def presentation_on(self) -> bool:
        """Presentation mode (:mod:`gui.features.presentation_mode`) is on: thick lines, large text."""
        return self.features.presentation_mode.on

    def mark_loaded(self, scenario: model.Scenario) -> None:
        """Make ``scenario`` the as-loaded one (after Save, a restored session) and refresh the title and
        the changed-field marks."""
        self.session.state.loaded = scenario
        self.sync_controls()

    def load_preset(self, path) -> bool:
        """Load a preset (or any scenario file): every control at once, one recompute."""
        try:
            s = model.load_scenario(path)
        except model.ScenarioError as err:
            self.show_error(str(err))
            return False
        self.set_scenario(s, source_path=str(path))
        self.reset_zoom()
        return True

    def set_scenario(self, scenario: model.Scenario, source_path: str | None = None) -> None:
        """Show ``scenario`` (Open, autosave restore): every control at once, one recompute."""
        self.controller.set_scenario(scenario, source_path=source_path, loaded=scenario)

    def charts_min_height(self) -> int:
        """The height the chart column needs at the least [px] (its charts' minimum): a dock takes only the rest."""
        return self.chart_column.minimumSizeHint().height()

    def reset_zoom(self) -> None:
        for ch in self.charts.values():
            ch.reset_zoom()

    def idle_line_width(self) -> float:
        return PRESENTATION_LINE_WIDTH if self.presentation_on else IDLE_LINE_WIDTH

    def apply_line_widths(self) -> None:
        """The charts' pens for the current mode: thin while a slider is held, except in presentation
        mode (the audience is watching)."""
        live = self.session.state.dragging
        width = DRAG_LINE_WIDTH if live and not self.presentation_on else self.idle_line_width()
        for ch in self.charts.values():
            ch.set_line_width(width)
            ch.set_live(live)

    def _session_changed(self, names: frozenset) -> None:
        """The window's part of a change: the controls follow the scenario (once per burst of edits, like the
        recompute), or now when the loaded one changed; the x-axis selector; the pens; the baseline."""
        if "loaded" in names:
            self.sync_controls()
        elif "scenario" in names:
            self._sync_timer.start()
        if "x_field" in names:
            self._x_field_changed(self.session.state.x_field)
        if "dragging" in names:
            self._dragging_changed()
        if "tco_baseline" in names and not self.controller.pending:  # else the recompute due draws it
            self.refresh()  # the charts and the Cost tab against the new baseline

    def _dragging_changed(self) -> None:
        if not self.session.state.dragging:
            self.sync_controls(keep_error=True)  # the tooltips skipped while dragging (any message stays)
            snap = self.controller.snapshot
            if snap is not None:  # the tie test with the uncertainty skipped while dragging
                self.recommendation.show_snapshot(snap, self._preset_name())
        self.apply_line_widths()

    def _preset_name(self):
        return preset_name_for(self.controller.source_path)

    # ----------------------------------------------------------- model -> UI
    def sync_controls(self, keep_error: bool = False) -> None:
        """Push the current scenario into every control now, signals blocked (normally once per burst).

        During a slider drag only values and labels follow; the tooltips are brought up to date when
        the drag ends."""
        self._sync_timer.stop()
        s = self.controller.scenario
        if self.error_label.text() and not keep_error:
            self.error_label.clear()
        self.controls.sync(s, light=self.session.state.dragging)
        for name, rb in self.profile_buttons.items():
            with QtCore.QSignalBlocker(rb):
                rb.setChecked(name == s.fabric.profile_set)
        edited = self.session.state.edited
        title = control_texts.window_title(s, edited)
        if self.windowTitle() != title:
            self.setWindowTitle(title)
        text, tip = control_texts.scenario_line(s, edited)
        if self.scenario_label.text() != text:
            self.scenario_label.setText(text)
        if self.scenario_label.toolTip() != tip:
            self.scenario_label.setToolTip(tip)

    def scenario_name(self, s: model.Scenario) -> str:
        """``s``'s name as the charts show it ("(edited)" when it is not the loaded one)."""
        return control_texts.scenario_name(s, s != self.session.state.loaded)

    def view_of(self, snap) -> SnapshotView:
        """``snap`` as the window's views draw it: with the session's overlays and the charts' captions (following
        the view drawn last, :meth:`SnapshotView.follow`)."""
        s = snap.scenario
        args = (snap, self.session.state.overlays, self.scenario_name(s), profile_set_name(s.fabric.profile_set))
        return self.view.follow(*args) if self.view is not None else SnapshotView(*args)

    def show_snapshot(self, snap) -> None:
        """Every view draws ``snap`` (what ``recomputed`` calls): the charts first, then the controls if a burst of
        edits left them behind (all before the repaint), then the point's panel."""
        view = self.view = self.view_of(snap)
        for ch in self.charts.values():
            ch.show_view(view)
        if self._sync_timer.isActive():
            self.sync_controls()
        live = self.session.state.dragging
        self.point_panel.show_view(view, self.controller.source_path, live)
        if not live:
            self.timing_label.setText(
                translate("MainWindow", "engine: cached result") if snap.cached
                else translate("MainWindow", "engine {ms} ms").format(ms=f"{snap.compute_ms:.0f}"))

    def refresh(self) -> None:
        """Controls and views again from the session and the last results (a theme, a language)."""
        self.sync_controls(keep_error=True)
        snap = self.controller.snapshot
        if snap is not None:
            self.show_snapshot(snap)

    def _x_field_changed(self, field: str) -> None:
        with QtCore.QSignalBlocker(self.x_combo):
            self.x_combo.setCurrentIndex(X_FIELDS.index(field))
        for act in self.x_actions.actions():
            act.setChecked(act.data() == field)
        self.reset_zoom()

    def show_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setToolTip(f"<p>{html.escape(message)}</p>")  # a tooltip is rich text: quote, not render
        self.sync_controls(keep_error=True)  # put the controls back on the values the scenario really has

    # ------------------------------------------------------------- language
    def retranslate(self) -> None:
        """Every text in the current language, in place: the fixed texts, the controls' names and
        tooltips, the views drawn from the results, the features' menus and docks."""
        self._retranslate_timer.stop()
        self.view = None  # the chart data again, in the new language
        self.texts.retranslate()
        self.controls.retranslate()
        self.point_panel.retranslate()
        for ch in self.charts.values():
            ch.retranslate()
        self.retranslated.emit()
        self.refresh()
        QtCore.QTimer.singleShot(0, self, self.fit_panels)  # the table's width in the new language

    retranslated = QtCore.Signal()  # after retranslate(): the features translate their own texts

    def changeEvent(self, event: QtCore.QEvent) -> None:  # noqa: N802 (Qt name)
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self._retranslate_timer.start()  # several translators change at once: translate once
        super().changeEvent(event)

    def _about(self) -> None:
        QtWidgets.QMessageBox.about(
            self, translate("MainWindow", "About {app}").format(app=APP_NAME),
            translate("MainWindow", "<b>{app}</b> {version}<br>How the network fabric of a GPU training cluster "
                                    "changes GPU utilisation, training duration and TCO.<br><br>Engine: Megatron-LM "
                                    "compute, α–β collectives, 1F1B pipeline bubble, per-transport loss recovery. "
                                    "Every default names its source (hover a control).").format(
                app=APP_NAME, version=model.__version__))

    # ---------------------------------------------------------------- persist
    def restore_geometry(self) -> None:
        """Size, docks, splitter and x-axis as the last session left them (:mod:`.persistence`)."""
        persistence.restore_window(self)

    def save_state(self) -> None:
        """Size, docks, splitter, x-axis and the scenario into the settings (:mod:`.persistence`)."""
        persistence.save_window(self)

    def showEvent(self, event: QtGui.QShowEvent) -> None:  # noqa: N802 (Qt name)
        super().showEvent(event)
        QtCore.QTimer.singleShot(0, self, self.fit_panels)

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        QtCore.QTimer.singleShot(0, self, self.fit_panels)

    def fit_panels(self) -> None:
        """Give the right-hand panel the width its table needs, taken from the charts."""
        sizes = self.splitter.sizes()
        if len(sizes) < 3 or not all(sizes):
            return
        need = self.table.full_width() + 16 + self.point_panel.verticalScrollBar().sizeHint().width()
        if sizes[2] >= need:
            return
        short = need - sizes[2]
        # from the charts down to their narrowest readable width, then from the controls (they scroll)
        for i, floor in ((1, MIDDLE_MIN_WIDTH), (0, self.splitter.widget(0).minimumSizeHint().width())):
            take = max(0, min(short, sizes[i] - floor))
            sizes[i] -= take
            sizes[2] += take
            short -= take
        self.splitter.setSizes(sizes)

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:  # noqa: N802 (Qt name)
        self.save_state()
        super().closeEvent(event)


__all__ = ["APP_NAME", "MainWindow"]
