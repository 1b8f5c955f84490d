"""The main window: controls on the left, the three charts in the middle, the current
point (table, step-time breakdown, recommendation) on the right.

Data flows one way: a control calls the :class:`~gui.controller.Controller`; the
controller emits ``scenarioChanged`` (the controls re-sync with their signals blocked,
once per burst of edits) and, coalesced, ``recomputed`` with a
:class:`~gui.controller.Snapshot` that every view draws. Hooks for the file helpers: ``window.controller`` and
``window.file_menu`` (add actions before ``window.file_menu_anchor``).
"""

from __future__ import annotations

import dataclasses
import functools
import html
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

import model
from model import catalog
from model import presets as presets_mod
from model.scenario import SECTIONS, FabricSpec, field_meta
from model.transport import RDMA_TRANSPORTS

from .breakdown import BreakdownChart
from .charts import AXES, WINDOW_CHART_KINDS, ChartWidget, axis_label
from .cost_chart import CostChart
from .overrides import overrides_html
from .controller import X_FIELDS, Controller
from .controls import FieldSlider, GroupBox, labelled, slider_for
from .i18n import translate
from .i18n_data import tr_data, tr_description, tr_field, tr_help, tr_name
from .point_table import PointTable
from .presentation import scaled_pt, set_text_scale
from .recommendation import RecommendationPanel, preset_name_for
from .richtext import RichText

PRESETS_DIR = catalog.ASSETS_DIR / "presets"
DEFAULT_PRESET = presets_mod.preset_path(presets_mod.DEFAULT_PRESET)  # Case 2, the article's default
APP_NAME = "Fabric What-If"

# The fabric values the sliders edit for the fabric in focus: key -> slider options.
FABRIC_CONTROLS = {
    "latency_us": dict(log=True, display_lo=0.1, display_hi=100_000.0),
    "loss_rate": dict(log=True, display_lo=1e-9, display_hi=0.5, scale=100.0, unit="%"),
    "link_gbps": dict(log=True, display_lo=1.0, display_hi=12_800.0),
}
# Cluster and workload sliders: dotted path -> slider options (limits from field metadata).
SCENARIO_CONTROLS = {
    "cluster.nodes": dict(log=True, display_hi=16_384.0),
    "cluster.gpus_per_node": dict(log=False),
    "topology.oversubscription": dict(log=False),
    "workload.params_b": dict(log=True, display_lo=0.1, display_hi=10_000.0),
    "workload.train_tokens_b": dict(log=True, display_lo=1.0, display_hi=100_000.0),
}
# Economics sliders: key -> slider options; None fields show the profile's value.
ECONOMICS_CONTROLS = {
    "electricity_cny_per_kwh": dict(log=False, display_lo=0.0, display_hi=3.0),
    "electricity_usd_per_kwh": dict(log=False, display_lo=0.0, display_hi=0.5),
    "pue": dict(log=False),
    "years": dict(log=False, display_lo=1.0, display_hi=15.0),
}
OTHER_MONEY_FIELD = {"electricity_cny_per_kwh": "electricity_usd_per_kwh",
                     "electricity_usd_per_kwh": "electricity_cny_per_kwh"}
IDLE_LINE_WIDTH = 1.5
# Smallest chart height without its legend [px]: three charts, the toolbar, the status bar and an open dock fit a 1366 × 768
# laptop screen (the window never needs more than the screen).
CHART_MIN_HEIGHT = 132
MIDDLE_MIN_WIDTH = 380  # the charts' column gives the point table its width down to this [px]
DRAG_LINE_WIDTH = 1.0


def _prefixed(prefix: str, text: str) -> str:
    return prefix + text if text else ""


class ToolbarLabel(QtWidgets.QLabel):
    """A label that asks the toolbar only for the width the other items leave: a toolbar moves the items
    that do not fit into its overflow menu, and the scenario's name must never push the x-axis selector
    there (a 1366-pixel laptop, presentation mode). What does not fit is cut; the tooltip has it all."""

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt name)
        hint = super().sizeHint()
        bar = self.parentWidget()
        if not isinstance(bar, QtWidgets.QToolBar):
            return hint
        items = bar.findChildren(QtWidgets.QWidget, options=QtCore.Qt.FindChildOption.FindDirectChildrenOnly)
        others = sum(w.sizeHint().width() + bar.layout().spacing() for w in items if w is not self
                     and w.isVisibleTo(bar) and w.objectName() != "qt_toolbar_ext_button")
        room = bar.width() - others - 2 * bar.layout().contentsMargins().left() - 16
        return QtCore.QSize(max(min(hint.width(), room), 80), hint.height())

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt name)
        return QtCore.QSize(80, super().minimumSizeHint().height())


def list_presets() -> list[tuple[str, Path]]:
    """(name, path) of every preset in ``assets/presets``: the case studies and scale tiers in
    the engine's order, then any other file; unreadable files are skipped."""
    ordered = [presets_mod.preset_path(n) for n in presets_mod.preset_names()]
    others = [p for p in sorted(PRESETS_DIR.glob("*.toml")) if p not in ordered]
    out = []
    for p in ordered + others:
        try:
            s = model.load_scenario(p)
        except model.ScenarioError:
            continue
        out.append((s.name, p))
    return out


@functools.lru_cache(maxsize=64)
def preset_description(path: Path) -> str:
    """The preset's one-line description ('' when it has none or cannot be read), in English: shown
    through :func:`~gui.i18n_data.tr_description`."""
    try:
        return model.load_scenario(path).description or ""
    except model.ScenarioError:
        return ""


def preset_group(path: Path) -> str:
    name = preset_name_for(path)
    if name is None:
        return "Other"
    return "Case studies" if name.startswith("case") else "Scale tiers"  # translated where shown (tr_data)


class MainWindow(QtWidgets.QMainWindow):
    """The explorer window. ``controller`` owns the scenario; views follow it."""

    def __init__(self, scenario: model.Scenario | None = None, *, source_path: str | None = None,
                 settings: QtCore.QSettings | None = None):
        super().__init__()
        self.settings = settings
        self.controller = Controller(scenario or model.load_scenario(DEFAULT_PRESET), parent=self)
        self.controller.source_path = source_path
        self._loaded = self.controller.scenario  # the scenario as loaded: what "edited" compares to
        self._dragging = False
        self._econ_controls: dict[str, QtWidgets.QWidget] = {}
        self.sliders: dict[str, FieldSlider] = {}
        self.fabric_sliders: dict[str, FieldSlider] = {}
        self.setObjectName("MainWindow")
        self.setWindowTitle(APP_NAME)
        self._build_actions()
        self._build_toolbar()
        self._build_central()
        self._build_status()
        c = self.controller
        # controls follow the scenario once per burst of edits (a drag fires many), like the recompute
        self._sync_timer = QtCore.QTimer(self)
        self._sync_timer.setSingleShot(True)
        self._sync_timer.setInterval(0)
        self._sync_timer.timeout.connect(self.sync_controls)
        c.scenarioChanged.connect(self._sync_timer.start)
        c.recomputed.connect(self._on_recomputed)
        c.errorOccurred.connect(self._on_error)
        c.xFieldChanged.connect(self._on_x_field_changed)
        self._on_scenario_changed(c.scenario)
        c.recompute_now()
        from .file_actions import install_file_actions  # Open/Save/Recent/Export, autosave

        install_file_actions(self)
        from .features import install_features  # calibrate, bands, tornado, break-even, A/B, i18n

        install_features(self)

    # ------------------------------------------------------------------ build
    def _build_actions(self) -> None:
        mb = self.menuBar()
        self.file_menu = mb.addMenu(translate("MainWindow", "&File"))
        self.file_menu.setObjectName("fileMenu")
        self.file_menu_anchor = self.file_menu.addSeparator()  # file helpers insert before this
        quit_act = self.file_menu.addAction(translate("MainWindow", "&Quit"))
        quit_act.setShortcut(QtGui.QKeySequence.StandardKey.Quit)
        quit_act.triggered.connect(self.close)

        self.presets_menu = mb.addMenu(translate("MainWindow", "&Presets"))
        self.preset_actions: dict[str, QtGui.QAction] = {}
        groups: dict[str, list] = {}
        for name, path in list_presets():
            groups.setdefault(preset_group(path), []).append((name, path))
        for gi, group in enumerate(("Case studies", "Scale tiers", "Other")):
            items = groups.get(group)
            if not items:
                continue
            if gi and self.presets_menu.actions():
                self.presets_menu.addSeparator()
            head = self.presets_menu.addAction(tr_data(group))
            head.setEnabled(False)
            for name, path in items:
                act = self.presets_menu.addAction(tr_name(name))
                act.setData(str(path))
                desc = preset_description(path)
                act.setToolTip(tr_description(desc) or str(path.relative_to(catalog.ASSETS_DIR.parent)))
                act.setStatusTip(tr_description(desc))
                act.triggered.connect(lambda _=False, p=path: self.load_preset(p))
                self.preset_actions[str(path)] = act

        self.view_menu = mb.addMenu(translate("MainWindow", "&View"))
        self.x_actions = QtGui.QActionGroup(self)
        for i, field in enumerate(X_FIELDS):
            act = self.view_menu.addAction(translate("MainWindow", "x-axis: {axis}").format(axis=axis_label(field)))
            act.setCheckable(True)
            act.setShortcut(QtGui.QKeySequence(f"Ctrl+{i + 1}"))
            act.setData(field)
            act.triggered.connect(lambda _=False, f=field: self.controller.set_x_field(f))
            self.x_actions.addAction(act)
            if field == self.controller.x_field:
                act.setChecked(True)
        self.view_menu.addSeparator()
        reset_zoom = self.view_menu.addAction(translate("MainWindow", "Reset &zoom"))
        reset_zoom.setShortcut(QtGui.QKeySequence("Ctrl+0"))
        reset_zoom.triggered.connect(self.reset_zoom)
        self.presentation_action = self.view_menu.addAction(
            translate("MainWindow", "&Presentation mode (large text, thick lines)"))
        self.presentation_action.setCheckable(True)
        self.presentation_action.setShortcut(QtGui.QKeySequence("F5"))
        self.presentation_action.toggled.connect(self.set_presentation)

        help_menu = mb.addMenu(translate("MainWindow", "&Help"))
        about = help_menu.addAction(translate("MainWindow", "&About Fabric What-If"))
        about.triggered.connect(self._about)

    def _build_toolbar(self) -> None:
        tb = self.addToolBar(translate("MainWindow", "Scenario"))
        tb.setObjectName("scenarioToolbar")
        tb.setMovable(False)
        self.preset_button = QtWidgets.QToolButton()
        self.preset_button.setText(translate("MainWindow", "Preset"))
        self.preset_button.setMenu(self.presets_menu)
        self.preset_button.setPopupMode(QtWidgets.QToolButton.ToolButtonPopupMode.InstantPopup)
        self.preset_button.setToolTip(translate("MainWindow",
                                                "Load a case study or scale tier: sets every control at once"))
        tb.addWidget(self.preset_button)
        self.scenario_label = ToolbarLabel()
        self.scenario_label.setObjectName("scenarioLabel")
        self.scenario_label.setContentsMargins(10, 0, 16, 0)
        tb.addWidget(self.scenario_label)
        spacer = QtWidgets.QWidget()
        spacer.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Preferred)
        tb.addWidget(spacer)
        tb.addWidget(QtWidgets.QLabel(translate("MainWindow", "Profile set: ")))
        self.profile_buttons: dict[str, QtWidgets.QRadioButton] = {}
        self.profile_group = QtWidgets.QButtonGroup(self)
        profiles_tip = {
            "seed": translate("MainWindow", "seed: the source article's fabric table (midpoints of its ranges)"),
            "published": translate("MainWindow", "published: measured and specified figures with their sources"),
        }
        for name in catalog.PROFILE_SETS:
            rb = QtWidgets.QRadioButton(name)
            rb.setToolTip(profiles_tip.get(name, name) + "\n" + catalog.profile_set(name).get("source", ""))
            self.profile_group.addButton(rb)
            self.profile_buttons[name] = rb
            rb.toggled.connect(lambda on, n=name: on and self.controller.set_profile_set(n))
            tb.addWidget(rb)
        tb.addSeparator()
        self.x_combo = QtWidgets.QComboBox()
        self.x_combo.setAccessibleName(translate("MainWindow", "x-axis"))
        for field in X_FIELDS:
            self.x_combo.addItem(axis_label(field), field)
        self.x_combo.setCurrentIndex(X_FIELDS.index(self.controller.x_field))
        self.x_combo.currentIndexChanged.connect(lambda i: self.controller.set_x_field(self.x_combo.itemData(i)))
        tb.addWidget(labelled(translate("MainWindow", "  x-axis: "), self.x_combo))

    def _build_central(self) -> None:
        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        split.setObjectName("mainSplitter")
        split.setChildrenCollapsible(False)
        self.splitter = split
        # -- left: controls
        left = QtWidgets.QWidget()
        ll = QtWidgets.QVBoxLayout(left)
        ll.setContentsMargins(6, 6, 6, 6)
        ll.setSpacing(6)
        ll.addWidget(self._cluster_group())
        ll.addWidget(self._model_group())
        ll.addWidget(self._fabric_group())
        ll.addWidget(self._economics_group())
        ll.addStretch(1)
        scroll = QtWidgets.QScrollArea()
        scroll.setWidget(left)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(300)
        split.addWidget(scroll)
        # -- middle: charts
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
        # -- right: the current point
        right = QtWidgets.QWidget()
        right.setMinimumWidth(420)
        rl = QtWidgets.QVBoxLayout(right)
        rl.setContentsMargins(6, 6, 6, 6)
        self.point_title = RichText()  # new numbers on every slider move: cheaper than a rich-text QLabel
        rl.addWidget(self.point_title)
        self.table = PointTable()
        rl.addWidget(self.table)
        self.breakdown = BreakdownChart()
        self.breakdown.setMinimumHeight(200)
        step_tab = QtWidgets.QWidget()  # the step time and the cost at this point share one place, as tabs
        sl = QtWidgets.QVBoxLayout(step_tab)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(self.breakdown, 1)
        self.breakdown_legend = QtWidgets.QLabel(BreakdownChart.legend_html())
        self.breakdown_legend.setWordWrap(True)
        self.breakdown_legend.setStyleSheet("font-size:8pt")
        sl.addWidget(self.breakdown_legend)
        self.cost_chart = CostChart()
        self.cost_chart.setObjectName("costChart")
        self.point_tabs = QtWidgets.QTabWidget()
        self.point_tabs.setObjectName("pointTabs")
        self.point_tabs.addTab(step_tab, translate("MainWindow", "Step time"))
        self.point_tabs.addTab(self.cost_chart, translate("MainWindow", "Cost"))
        # cost per training run along the x-axis: with latency or loss on the x-axis the TCO falls as the
        # network gets worse while the cost per run rises
        run_chart = self.charts["cost_per_run"] = ChartWidget("cost_per_run", line_width=IDLE_LINE_WIDTH)
        run_chart.setObjectName("chart_cost_per_run")
        run_chart.setXLink(first)
        run_chart.set_fabric_legend(False)  # the fabrics' colours are named on the top chart
        run_chart.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Ignored)
        self.point_tabs.addTab(run_chart, translate("MainWindow", "Cost per run (sweep)"))
        for ch in self.charts.values():  # the dotted idle-GPU curves explained in the plot's corner, not a legend row
            ch.idle_note_in_legend = False
        rl.addWidget(self.point_tabs, 2)
        rec_box = GroupBox(translate("MainWindow", "Recommendation"))
        self.recommendation = RecommendationPanel()
        rec_box.add(self.recommendation)
        rl.addWidget(rec_box, 3)
        # the panel scrolls rather than make the window taller than a 768-pixel laptop screen
        right_scroll = QtWidgets.QScrollArea()
        right_scroll.setObjectName("pointPanel")
        right_scroll.setWidget(right)
        right_scroll.setWidgetResizable(True)
        right_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        right_scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        bar = right_scroll.verticalScrollBar().sizeHint().width()
        right_scroll.setMinimumWidth(right.minimumWidth())  # the window's minimum width stays what it was
        right.setMinimumWidth(right.minimumWidth() - bar)
        self.point_panel = right_scroll
        split.addWidget(right_scroll)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 2)
        split.setSizes([320, 760, 520])
        self.setCentralWidget(split)

    def _slider(self, path: str, **opts) -> FieldSlider:
        section, key = path.split(".", 1)
        s = slider_for(SECTIONS[section], key, **opts)
        s.setObjectName(f"slider_{path}")
        s.valueEdited.connect(lambda v, p=path: self.controller.set_value(p, v))
        s.dragStateChanged.connect(self._set_dragging)
        self.sliders[path] = s
        return s

    def _cluster_group(self) -> QtWidgets.QGroupBox:
        g = GroupBox(translate("MainWindow", "Cluster"))
        self.gpu_combo = QtWidgets.QComboBox()
        self.gpu_combo.setAccessibleName(translate("MainWindow", "GPU type"))
        for gid, entry in catalog.gpus().items():
            self.gpu_combo.addItem(f"{entry.get('name', gid)}", gid)
            self.gpu_combo.setItemData(self.gpu_combo.count() - 1, entry.get("source", ""),
                                       QtCore.Qt.ItemDataRole.ToolTipRole)
        self.gpu_combo.currentIndexChanged.connect(
            lambda i: self.controller.set_value("cluster.gpu", self.gpu_combo.itemData(i)))
        g.add(labelled(tr_field("GPU"), self.gpu_combo))
        g.add(self._slider("cluster.nodes", **SCENARIO_CONTROLS["cluster.nodes"]))
        g.add(self._slider("cluster.gpus_per_node", **SCENARIO_CONTROLS["cluster.gpus_per_node"]))
        g.add(self._slider("topology.oversubscription", **SCENARIO_CONTROLS["topology.oversubscription"]))
        return g

    def _model_group(self) -> QtWidgets.QGroupBox:
        g = GroupBox(translate("MainWindow", "Model"))
        g.add(self._slider("workload.params_b", **SCENARIO_CONTROLS["workload.params_b"]))
        g.add(self._slider("workload.train_tokens_b", **SCENARIO_CONTROLS["workload.train_tokens_b"]))
        return g

    def _fabric_group(self) -> QtWidgets.QGroupBox:
        g = GroupBox(translate("MainWindow", "Fabric in focus"))
        self.focus_combo = QtWidgets.QComboBox()
        self.focus_combo.setAccessibleName(translate("MainWindow", "Fabric in focus"))
        self.focus_combo.setToolTip(translate("MainWindow", "The fabric whose latency, loss and bandwidth the sliders "
                                                            "below edit; each fabric keeps its own values"))
        self.focus_combo.currentIndexChanged.connect(self._on_focus_selected)
        g.add(labelled(translate("MainWindow", "Fabric"), self.focus_combo))
        for key, opts in FABRIC_CONTROLS.items():
            s = slider_for(FabricSpec, key, **opts)
            s.setObjectName(f"slider_fabric.{key}")
            s.valueEdited.connect(lambda v, k=key: self.controller.set_fabric_value(self.focus, k, v))
            s.dragStateChanged.connect(self._set_dragging)
            self.fabric_sliders[key] = s
            g.add(s)
        # how the fabric in focus routes and recovers: adaptive routing, and (RDMA) its loss recovery
        self.adaptive_check = QtWidgets.QCheckBox(tr_field("Adaptive routing"))
        self.adaptive_check.setObjectName("check_fabric.adaptive_routing")
        self.adaptive_check.toggled.connect(
            lambda on: self.controller.set_fabric_value(self.focus, "adaptive_routing", bool(on)))
        g.add(self.adaptive_check)
        self.recovery_combo = QtWidgets.QComboBox()
        self.recovery_combo.setObjectName("combo_fabric.loss_recovery")
        names = {"go_back_n": translate("MainWindow", "Go-back-N"),
                 "selective_repeat": translate("MainWindow", "Selective repeat"),
                 "link_retry": translate("MainWindow", "Link-level retry")}
        for choice in field_meta(FabricSpec, "loss_recovery")["choices"]:
            self.recovery_combo.addItem(names[choice], choice)
        self.recovery_combo.currentIndexChanged.connect(lambda i: self.controller.set_fabric_value(
            self.focus, "loss_recovery", self.recovery_combo.itemData(i)))
        g.add(labelled(tr_field("Loss recovery"), self.recovery_combo))
        self.reset_button = QtWidgets.QPushButton(translate("MainWindow", "&Reset to profile"))
        self.reset_button.setToolTip(translate("MainWindow",
                                               "Restore the profile set's values for the fabric in focus"))
        self.reset_button.clicked.connect(lambda: self.controller.reset_fabric(self.focus))
        g.add(self.reset_button)
        self.fabric_source = QtWidgets.QLabel()
        self.fabric_source.setWordWrap(True)
        self.fabric_source.setStyleSheet("color:#555; font-size:8pt")
        g.add(self.fabric_source)
        return g

    def _economics_group(self) -> QtWidgets.QGroupBox:
        """Currency, electricity price, PUE and years (the economics model's inputs)."""
        g = GroupBox(translate("MainWindow", "Economics"))
        self.economics_group = g
        cls = SECTIONS.get("economics")
        if cls is None:
            lab = QtWidgets.QLabel(translate("MainWindow", "<i>Electricity price, PUE, years and currency arrive "
                                                           "with the economics model.</i>"))
            lab.setWordWrap(True)
            g.add(lab)
            return g
        names = {f.name for f in dataclasses.fields(cls)}
        if "currency" in names:
            combo = QtWidgets.QComboBox()
            combo.setObjectName("combo_economics.currency")
            combo.setAccessibleName(translate("MainWindow", "Currency"))
            combo.addItem(translate("MainWindow", "profile default"), None)
            for ch in field_meta(cls, "currency").get("choices") or ():
                combo.addItem(str(ch), ch)
            combo.currentIndexChanged.connect(lambda i, c=combo: self.controller.set_value("economics.currency",
                                                                                          c.itemData(i)))
            self._econ_controls["economics.currency"] = combo
            g.add(labelled(tr_field("Currency"), combo))
        for key, opts in ECONOMICS_CONTROLS.items():
            if key not in names:
                continue
            path = f"economics.{key}"
            sl = self._slider(path, **opts)
            if key in OTHER_MONEY_FIELD:
                sl.valueEdited.disconnect()
                sl.valueEdited.connect(lambda v, p=path: self.controller.set_values(
                    {f"economics.{OTHER_MONEY_FIELD[p.split('.')[1]]}": None, p: v}))
            self._econ_controls[path] = sl
            g.add(sl)
        return g

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
        return self.controller.scenario.fabric.focus_fabric

    def _on_focus_selected(self, i: int) -> None:
        name = self.focus_combo.itemData(i)
        if name and name != self.focus:
            self.controller.set_value("fabric.focus", name)

    @property
    def dragging(self) -> bool:
        """True while a slider is held: the drag path (thin pens, no tooltips, no band computation)."""
        return self._dragging

    @property
    def loaded_scenario(self) -> model.Scenario:
        """The scenario as loaded or last saved: what "(edited)" and the changed-field marks compare with."""
        return self._loaded

    def mark_loaded(self, scenario: model.Scenario) -> None:
        """Make ``scenario`` the as-loaded one (after Save, a restored session, a language switch) and
        refresh the title and the changed-field marks."""
        self._loaded = scenario
        self._on_scenario_changed(self.controller.scenario)

    def _set_dragging(self, on: bool) -> None:
        self._dragging = on
        if not on:
            self._on_scenario_changed_quiet()  # the tooltips skipped while dragging (any message stays)
            if self.controller.snapshot is not None:  # the tie test with the uncertainty skipped while dragging
                self.recommendation.show_snapshot(self.controller.snapshot,
                                                  preset_name_for(self.controller.source_path))
        # thin pens on the live drag path, except in presentation mode (the audience is watching)
        width = DRAG_LINE_WIDTH if on and not self.presentation_action.isChecked() else self._idle_width()
        for ch in self.charts.values():
            ch.set_line_width(width)
            ch.set_live(on)

    def _idle_width(self) -> float:
        return 2.5 if self.presentation_action.isChecked() else IDLE_LINE_WIDTH

    def load_preset(self, path) -> bool:
        """Load a preset (or any scenario file): every control at once, one recompute."""
        try:
            s = model.load_scenario(path)
        except model.ScenarioError as err:
            self._on_error(str(err))
            return False
        self._loaded = s
        self.controller.set_scenario(s, source_path=str(path))
        self.reset_zoom()
        return True

    def set_scenario(self, scenario: model.Scenario, source_path: str | None = None) -> None:
        """Show ``scenario`` (Open, autosave restore): every control at once, one recompute."""
        self._loaded = scenario
        self.controller.set_scenario(scenario, source_path=source_path)

    def reset_zoom(self) -> None:
        for ch in self.charts.values():
            ch.reset_zoom()

    # ----------------------------------------------------------- model -> UI
    def _on_scenario_changed(self, s: model.Scenario) -> None:
        """Push the scenario into every control, signals blocked (no write-back).

        During a slider drag only values and labels follow; the tooltips (HTML built per
        control, not seen while dragging) are brought up to date when the drag ends."""
        light = self._dragging
        if self.error_label.text():
            self.error_label.clear()
        resolved = _resolved_inputs(s)
        for path, sl in self.sliders.items():
            try:
                v = s.get(path)
            except AttributeError:
                continue
            from_profile = v is None
            if v is None:
                v = resolved.get(path.split(".", 1)[1])
                if path.endswith("_per_kwh") and (v is None or v != v):
                    other = OTHER_MONEY_FIELD[path.split(".", 1)[1]]
                    ov, rate = resolved.get(other), resolved.get("cny_per_usd", 7.1)
                    if ov is not None and ov == ov:
                        v = ov * rate if path.endswith("cny_per_kwh") else ov / rate
            if v is not None and v == v:
                sl.set_value(v)
            section, key = path.split(".", 1)
            site = catalog.profile_site(s.fabric.profile_set, section) if from_profile else {}
            if not light:
                sl.set_tooltip(self._tooltip(path, sl, from_profile, site.get("source", "")))
            sl.set_label(sl._label_text, guess=key in site.get("guesses", ()), overridden=self._edited(path, s))
        with QtCore.QSignalBlocker(self.gpu_combo):
            self.gpu_combo.setCurrentIndex(self.gpu_combo.findData(s.cluster.gpu))
        gentry = catalog.gpu(s.cluster.gpu)
        if not light:
            _set_tip(self.gpu_combo, f"<b>{html.escape(gentry.get('name', s.cluster.gpu))}</b><br>"
                                 f"{html.escape(gentry.get('source', ''))}")
        for name, rb in self.profile_buttons.items():
            with QtCore.QSignalBlocker(rb):
                rb.setChecked(name == s.fabric.profile_set)
        currency = _currency(s)
        for path, w in self._econ_controls.items():
            if isinstance(w, QtWidgets.QComboBox):
                v = s.get(path)
                with QtCore.QSignalBlocker(w):
                    w.setCurrentIndex(0 if v is None else max(w.findData(v), 0))
                    w.setItemText(0, translate("MainWindow", "profile default ({currency})").format(currency=currency))
                if not light:
                    _set_tip(w, self._econ_tooltip(path))
            elif path.endswith("_per_kwh"):
                w.setVisible(path.endswith(f"_{currency.lower()}_per_kwh"))
        self._sync_fabric_controls(s, light)
        self._update_title(s)

    def _sync_fabric_controls(self, s: model.Scenario, light: bool = False) -> None:
        rows = model.resolve_fabrics(s)
        with QtCore.QSignalBlocker(self.focus_combo):
            names = [r.name for r in rows]
            if [self.focus_combo.itemData(i) for i in range(self.focus_combo.count())] != names:
                self.focus_combo.clear()
                for r in rows:
                    self.focus_combo.addItem(catalog.fabric_style(r.name).get("short", r.label)
                                             if r.name in catalog.BUILTIN_FABRICS else r.label, r.name)
            self.focus_combo.setCurrentIndex(self.focus_combo.findData(s.fabric.focus_fabric))
        row = next(r for r in rows if r.name == s.fabric.focus_fabric)
        prof = catalog.profile_set(s.fabric.profile_set)
        entry = prof["fabrics"].get(row.name) or next(
            (f for f in prof["fabrics"].values() if f["transport"] == row.transport), {})
        for key, sl in self.fabric_sliders.items():
            sl.set_value(float(row.values[key]))
            src = row.sources.get(key, "")
            guess = key in row.guesses
            sl.set_label(sl._label_text, guess=guess, overridden=src == "scenario",
                         edited=self._edited(f"fabric.custom.{row.name}.{key}", s))
            if light:
                continue
            meta = field_meta(FabricSpec, key)
            if src == "scenario":
                default = entry.get(key)
                origin = translate("MainWindow", "Set by the scenario, not the profile; profile value ({profile}): "
                                                 "{value}").format(profile=prof["name"], value=_fmt(default, sl))
            else:
                origin = translate("MainWindow", "From the {profile} profile set").format(profile=prof["name"]) + (
                    translate("MainWindow", " — a guess, no published source") if guess else "")
            rng = entry.get(f"{key}_range")
            tip = (f"<b>{html.escape(row.label)}: {html.escape(tr_field(meta.get('label') or key))}</b><br>"
                   f"{html.escape(tr_help(meta.get('help', '')))}<br>{html.escape(origin)}"
                   + ("<br>" + translate("MainWindow", "Article range: {lo} – {hi}").format(lo=f"{rng[0]:g}",
                                                                                          hi=f"{rng[1]:g}")
                      if rng else "")
                   + "<br><i>" + translate("MainWindow", "Source: {source}").format(
                       source=html.escape(entry.get("source", translate("MainWindow", "engine default")))) + "</i>")
            sl.set_tooltip(tip)
        with QtCore.QSignalBlocker(self.adaptive_check):
            self.adaptive_check.setChecked(bool(row.values["adaptive_routing"]))
        rdma = row.transport in RDMA_TRANSPORTS
        with QtCore.QSignalBlocker(self.recovery_combo):
            self.recovery_combo.setCurrentIndex(self.recovery_combo.findData(row.values["loss_recovery"]))
        self.recovery_combo.setEnabled(rdma)  # TCP (tcp, iwarp) recovers by itself
        if not light:
            for w, key in ((self.adaptive_check, "adaptive_routing"), (self.recovery_combo, "loss_recovery")):
                _set_tip(w, html.escape(field_meta(FabricSpec, key).get("help", ""))
                         + "<br><i>" + html.escape(entry.get("source", "")) + "</i>")
        edited = s.fabric.focus_fabric in s.fabric.custom_dict() and any(
            row.sources.get(k) == "scenario" for k in FABRIC_SWEEPABLE_KEYS)
        self.reset_button.setEnabled(edited)
        changed = any(self._edited(f"fabric.custom.{row.name}.{k}", s) for k in FABRIC_SWEEPABLE_KEYS)
        _set_text(self.fabric_source, translate("MainWindow", "{fabric} · {profile} profile").format(
            fabric=html.escape(row.label), profile=prof["name"])
                  + (translate("MainWindow", " · edited") if changed
                     else translate("MainWindow", " · values set by the scenario") if edited else "")
                  + _prefixed("<br>", overrides_html(s, self.controller.source_path)))
        _set_tip(self.fabric_source, entry.get("source", ""))

    def _edited(self, path: str, s: model.Scenario) -> bool:
        try:
            return s.get(path) != self._loaded.get(path)
        except AttributeError:
            return False

    def _tooltip(self, path: str, sl: FieldSlider, from_profile: bool = False, profile_source: str = "") -> str:
        section, key = path.split(".", 1)
        meta = field_meta(SECTIONS[section], key)
        origin = self._origin_text()
        loaded = self._loaded.get(path)
        now = self.controller.scenario.get(path)
        src = meta.get("source")
        lines = [f"<b>{html.escape(tr_field(meta.get('label') or key))}</b>",
                 html.escape(tr_help(meta.get("help", "")))]
        if from_profile:
            lines.append(translate("MainWindow", "Not set by the scenario: the {profile} profile set's value").format(
                profile=html.escape(self.controller.scenario.fabric.profile_set)))
            if profile_source:
                src = src or profile_source
        elif now != loaded:
            lines.append(translate("MainWindow", "Edited; {origin} sets {value}").format(
                origin=html.escape(origin), value=_fmt(loaded, sl)))
        else:
            lines.append(translate("MainWindow", "Value from {origin}").format(origin=html.escape(origin)))
        lines.append(translate("MainWindow", "Allowed: {lo} – {hi} {unit}").format(
            lo=_fmt(meta.get("lo"), sl), hi=_fmt(meta.get("hi"), sl), unit=html.escape(sl.unit)))
        if src:
            lines.append("<i>" + translate("MainWindow", "Source: {source}").format(source=html.escape(str(src)))
                         + "</i>")
        return "<br>".join(lines)

    def _econ_tooltip(self, path: str) -> str:
        section, key = path.split(".", 1)
        meta = field_meta(SECTIONS[section], key)
        out = (f"<b>{html.escape(tr_field(meta.get('label') or key))}</b><br>"
               f"{html.escape(tr_help(meta.get('help', '')))}")
        if meta.get("source"):
            out += "<br><i>" + translate("MainWindow", "Source: {source}").format(
                source=html.escape(str(meta["source"]))) + "</i>"
        return out + "<br>" + translate("MainWindow", "Value from {origin}").format(
            origin=html.escape(self._origin_text()))

    def _origin_text(self) -> str:
        return _origin_text(self.controller.source_path, self._loaded.name)

    def _update_title(self, s: model.Scenario) -> None:
        modified = s != self._loaded
        name = tr_name(s.name) + (translate("MainWindow", " (edited)") if modified else "")
        title = translate("MainWindow", "{name} — profile: {profile} — {app}").format(
            name=name, profile=s.fabric.profile_set, app=APP_NAME)
        if self.windowTitle() != title:
            self.setWindowTitle(title)
        c = s.cluster
        gname = catalog.gpu(c.gpu).get("name", c.gpu).replace("NVIDIA ", "")
        _set_text(self.scenario_label, translate(
            "MainWindow", "<b>{name}</b> &nbsp;·&nbsp; {nodes} × {gpn} {gpu} &nbsp;·&nbsp; {params} B params "
                          "&nbsp;·&nbsp; profile: <b>{profile}</b>").format(
            name=html.escape(name), nodes=f"{c.nodes:,}", gpn=c.gpus_per_node, gpu=html.escape(gname),
            params=f"{s.workload.params_b:,.4g}", profile=html.escape(s.fabric.profile_set)))
        desc = tr_description(s.description) if s.description else ""
        _set_tip(self.scenario_label, self.scenario_label.text() + (f"<br>{html.escape(desc)}" if desc else ""))

    # ---------------------------------------------------------- results -> UI
    def sync_controls(self) -> None:
        """Push the current scenario into the controls now (normally done once per burst)."""
        self._sync_timer.stop()
        self._on_scenario_changed(self.controller.scenario)

    def _on_recomputed(self, snap) -> None:
        if self._sync_timer.isActive():
            self.sync_controls()
        s = snap.scenario
        focus = s.fabric.focus_fabric
        name = tr_name(s.name) + (translate("MainWindow", " (edited)") if s != self._loaded else "")
        for kind, ch in self.charts.items():
            ch.show_result(snap.sweep, kind, current_x=snap.current_x, focus=focus,
                           profile_set=s.fabric.profile_set, scenario_name=name, point=snap.point)
        self.table.show_point(snap.point, focus)
        self.breakdown.show_point(snap.point, focus)
        self.cost_chart.show_point(snap.point, focus)
        self.recommendation.show_snapshot(snap, preset_name_for(self.controller.source_path), live=self._dragging)
        c = s.cluster
        _set_text(self.point_title, translate(
            "MainWindow", "<b>At this point</b>: {nodes} nodes × {gpus} GPUs, {params} B parameters, {tokens} B "
                          "tokens").format(nodes=f"{c.nodes:,}", gpus=c.gpus_per_node,
                                           params=f"{s.workload.params_b:,.4g}",
                                           tokens=f"{s.workload.train_tokens_b:,.4g}"))
        if not self._dragging:
            self.timing_label.setText(
                translate("MainWindow", "engine: cached result") if snap.cached
                else translate("MainWindow", "engine {ms} ms").format(ms=f"{snap.compute_ms:.0f}"))

    def _on_x_field_changed(self, field: str) -> None:
        with QtCore.QSignalBlocker(self.x_combo):
            self.x_combo.setCurrentIndex(X_FIELDS.index(field))
        for act in self.x_actions.actions():
            act.setChecked(act.data() == field)
        self.reset_zoom()

    def _on_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setToolTip(f"<p>{html.escape(message)}</p>")  # a tooltip is rich text: quote, not render
        # put the controls back on the values the scenario really has
        self._on_scenario_changed_quiet()

    def _on_scenario_changed_quiet(self) -> None:
        msg = self.error_label.text()
        self._on_scenario_changed(self.controller.scenario)
        self.error_label.setText(msg)

    # ------------------------------------------------------------- view modes
    def set_presentation(self, on: bool) -> None:
        """Large text and thick lines for a projector: every text scales, from the start-up font
        (never from the current one, so a rebuilt window or a second toggle does not compound it)."""
        set_text_scale(on)
        self._apply_small_text()
        for ch in self.charts.values():
            ch.set_line_width(self._idle_width())
            ch.apply_text_scale()
        self.table.apply_font()
        self.breakdown.update()
        QtCore.QTimer.singleShot(0, self._fit_panels)

    def _apply_small_text(self) -> None:
        """The labels set in a smaller size than the body text, scaled with it."""
        self.breakdown_legend.setStyleSheet(f"font-size:{scaled_pt(8)}pt")
        sheet = self.fabric_source.styleSheet()
        colour = sheet.split("color:", 1)[1].split(";", 1)[0] if "color:" in sheet else "#555"
        self.fabric_source.setStyleSheet(f"color:{colour}; font-size:{scaled_pt(8)}pt")

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
        st = self.settings
        if st is None:
            return
        geo = st.value("window/geometry")
        if isinstance(geo, (QtCore.QByteArray, bytes)) and len(geo):
            self.restoreGeometry(QtCore.QByteArray(geo))
        state = st.value("window/state")
        if isinstance(state, (QtCore.QByteArray, bytes)) and len(state):
            self.restoreState(QtCore.QByteArray(state))
        split = st.value("window/splitter")
        if isinstance(split, (QtCore.QByteArray, bytes)) and len(split):
            self.splitter.restoreState(QtCore.QByteArray(split))
        xf = st.value("view/x_field")
        if isinstance(xf, str) and xf in X_FIELDS:
            self.controller.set_x_field(xf)

    def save_state(self) -> None:
        st = self.settings
        if st is None:
            return
        st.setValue("window/geometry", self.saveGeometry())
        st.setValue("window/state", self.saveState())
        st.setValue("window/splitter", self.splitter.saveState())
        st.setValue("view/x_field", self.controller.x_field)
        st.setValue("scenario/toml", model.scenario_to_toml(self.controller.scenario))
        st.setValue("scenario/loaded_toml", model.scenario_to_toml(self._loaded))
        st.setValue("scenario/source", self.controller.source_path or "")
        st.sync()

    def showEvent(self, event: QtGui.QShowEvent) -> None:  # noqa: N802 (Qt name)
        super().showEvent(event)
        QtCore.QTimer.singleShot(0, self._fit_panels)

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        QtCore.QTimer.singleShot(0, self._fit_panels)

    def _fit_panels(self) -> None:
        """Give the right-hand panel the width its table needs, taken from the charts."""
        sizes = self.splitter.sizes()
        if len(sizes) < 3 or not all(sizes):
            return
        need = self.table.minimumSizeHint().width() + 16 + self.point_panel.verticalScrollBar().sizeHint().width()
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


FABRIC_SWEEPABLE_KEYS = tuple(FABRIC_CONTROLS) + ("achievable_fraction", "cpu_gbps_per_core", "nics_per_node",
                                                  "adaptive_routing", "loss_recovery")


def _fmt(v, sl: FieldSlider | None = None) -> str:
    if v is None:
        return "–"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        scale = sl.scale if sl is not None else 1.0
        x = v * scale
        return f"{x:,.0f}" if float(x).is_integer() and abs(x) >= 1 else f"{x:.4g}"
    return str(v)


@functools.lru_cache(maxsize=64)
def _origin_text(path: str | None, name: str) -> str:
    """Where the loaded scenario came from, for tooltips: its name and file."""
    if path:
        try:
            rel = Path(path).resolve().relative_to(catalog.ASSETS_DIR.parent)
        except ValueError:
            rel = Path(path).name
        return translate("MainWindow", "'{name}' ({path})").format(name=name, path=rel)
    return translate("MainWindow", "scenario '{name}'").format(name=name)


def _set_text(label: QtWidgets.QLabel, text: str) -> None:
    """Set a label's text only when it changes (rich-text layout costs a millisecond)."""
    if label.text() != text:
        label.setText(text)


def _set_tip(widget: QtWidgets.QWidget, text: str) -> None:
    if widget.toolTip() != text:
        widget.setToolTip(text)


def _resolved_inputs(s: model.Scenario) -> dict:
    """Economics/reliability inputs with the profile's defaults filled in."""
    try:
        from model import economics
    except ImportError:
        return {}
    fn = getattr(economics, "point_inputs", None)
    if fn is None:
        return {}
    try:
        return {k: float(v) for k, v in fn(s).items()}
    except (model.ScenarioError, KeyError, TypeError, ValueError):
        return {}


def _currency(s: model.Scenario) -> str:
    try:
        from model import economics
        return economics.currency_of(s)
    except (ImportError, AttributeError, KeyError):
        return getattr(getattr(s, "economics", None), "currency", None) or "USD"


def restore_scenario(settings: QtCore.QSettings) -> tuple[model.Scenario | None, model.Scenario | None, str | None]:
    """The last session's scenario (and the one it was loaded as) from ``settings``, if valid."""
    text = settings.value("scenario/toml")
    if not isinstance(text, str) or not text.strip():
        return None, None, None
    try:
        s = model.parse_scenario_text(text, source="last session")
    except model.ScenarioError:
        return None, None, None
    loaded = None
    lt = settings.value("scenario/loaded_toml")
    if isinstance(lt, str) and lt.strip():
        try:
            loaded = model.parse_scenario_text(lt, source="last session")
        except model.ScenarioError:
            loaded = None
    src = settings.value("scenario/source")
    return s, loaded, (src if isinstance(src, str) and src else None)


__all__ = ["AXES", "DEFAULT_PRESET", "MainWindow", "list_presets", "restore_scenario"]
