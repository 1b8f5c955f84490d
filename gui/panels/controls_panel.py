"""The controls on the left, bound to scenario fields from the field metadata.

One table, :data:`GROUPS`, says which fields the panel shows and in which group; each numeric
field becomes a :class:`~gui.panels.controls.FieldSlider` made from its metadata in ``model.sections``
(label, unit, limits, help) and :data:`DISPLAY` (only what the metadata cannot say: a narrower
display range, a log scale, percent). Every slider writes through the controller and is synced by
one loop (:meth:`ControlsPanel.sync`), whatever its section. ``fabric.KEY`` binds the value of
the fabric in focus; an economics field the scenario leaves unset shows the profile's value.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

import model
from model import catalog, economics
from model.fields import field_meta
from model.sections import SECTIONS, FabricSpec
from model.transport import RDMA_TRANSPORTS

from gui.panels.controls import FieldSlider, GroupBox, labelled, slider_for
from gui.i18n import current_language, translate
from gui.i18n_data import tr_data, tr_field, tr_help, tr_unit
from gui.present.text import profile_set_name, tr_source
from gui.panels import control_texts as texts_
# (group title, fields): what the panel shows. "fabric.KEY": the fabric in focus's value.
GROUPS = (
    ("Cluster", ("cluster.gpu", "cluster.nodes", "cluster.gpus_per_node", "topology.oversubscription",
                 "topology.placement")),
    ("Model", ("workload.params_b", "workload.train_tokens_b")),
    ("Fabric in focus", ("fabric.focus", "fabric.roce_tuned", "fabric.latency_us", "fabric.loss_rate", "fabric.link_gbps",
                         "fabric.adaptive_routing", "fabric.loss_recovery", "fabric.qps_per_connection",
                         "fabric.sockets_per_connection", "fabric.gpudirect_tcp", "fabric.min_rto_ms",
                         "fabric.sharp")),
    ("Economics", ("economics.currency", "economics.electricity_cny_per_kwh", "economics.electricity_usd_per_kwh",
                   "economics.pue", "economics.years")),
)
GROUP_TITLES = {"Cluster": lambda: translate("MainWindow", "Cluster"),
                "Model": lambda: translate("MainWindow", "Model"),
                "Fabric in focus": lambda: translate("MainWindow", "Fabric in focus"),
                "Economics": lambda: translate("MainWindow", "Economics")}
# What the metadata cannot say: the display range a slider spans (the engine accepts more, typed into the value box,
# with an "outside the realistic range" badge), log or linear, a display scale and unit. The slider spans what real
# clusters have, so an over-drag cannot reach an absurd scenario:
# - latency 0.5–1,000 µs: below the fastest measured RDMA send (InfiniBand RC, 32 B: 0.81 µs, perftest
#   ib_send_lat) up to ~5× kernel TCP's round trip on 1GbE (110–220 µs, published measurements);
# - loss up to 1 %: the source article's worst Ethernet (0.5–1 %); go-back-N RoCE stops making progress above
#   1 % (Wang et al., ICCCN 2019), so more is not a fabric anyone runs;
# - bandwidth 1–1,600 Gb/s per NIC: 1GbE up to 1.6 Tb/s Ethernet (IEEE 802.3dj), above 800 Gb/s XDR InfiniBand;
# - nodes up to 4,096 (32,768 GPUs at 8 per node): twice the largest published single training run (Llama 3
#   405B on 16,384 H100 = 2,048 nodes, Llama 3 paper §3.3);
# - model up to 2,000 B parameters: above the largest published trained models (Switch-C, 1.6 T parameters,
#   Fedus et al. 2021; the article's case 3 at 1 T);
# - tokens up to 100,000 B (100 T), ~6× Llama 3's 15.6 T; economics spans the presets' sites (a design choice).
DISPLAY = {
    "fabric.latency_us": dict(log=True, display_lo=0.5, display_hi=1_000.0),
    "fabric.loss_rate": dict(log=True, display_lo=1e-9, display_hi=0.01, scale=100.0, unit="%"),
    "fabric.link_gbps": dict(log=True, display_lo=1.0, display_hi=1_600.0),
    "cluster.nodes": dict(log=True, display_hi=4_096.0),
    "cluster.gpus_per_node": dict(log=False),
    "topology.oversubscription": dict(log=False),
    # queue pairs 1-16 (NCCL's default 1; Meta's RoCE clusters 4, Llama 3 paper §3.3 / SIGCOMM 2024; up to 128
    # typed); TCP sockets 1-64 (NCCL's default 1 × 1, AWS 2 × 8, NCCL's cap 64); minimum RTO 0.1 ms (a tuned
    # data centre) to 1 s (five times Linux's 200 ms default)
    "fabric.qps_per_connection": dict(log=True, display_lo=1.0, display_hi=16.0),
    "fabric.sockets_per_connection": dict(log=True, display_lo=1.0, display_hi=64.0),
    "fabric.min_rto_ms": dict(log=True, display_lo=0.1, display_hi=1_000.0),
    "workload.params_b": dict(log=True, display_lo=0.1, display_hi=2_000.0),
    "workload.train_tokens_b": dict(log=True, display_lo=1.0, display_hi=100_000.0),
    "economics.electricity_cny_per_kwh": dict(log=False, display_lo=0.0, display_hi=3.0),
    "economics.electricity_usd_per_kwh": dict(log=False, display_lo=0.0, display_hi=0.5),
    "economics.pue": dict(log=False),
    "economics.years": dict(log=False, display_lo=1.0, display_hi=15.0),
}
# one electricity price per currency: setting one clears the other
OTHER_MONEY_FIELD = {"electricity_cny_per_kwh": "electricity_usd_per_kwh",
                     "electricity_usd_per_kwh": "electricity_cny_per_kwh"}
# the fabric values "Reset to profile" restores
FABRIC_SWEEPABLE_KEYS = ("latency_us", "loss_rate", "link_gbps", "achievable_fraction", "cpu_gbps_per_core",
                         "nics_per_node", "adaptive_routing", "loss_recovery", "qps_per_connection",
                         "sockets_per_connection", "gpudirect_tcp", "min_rto_ms", "sharp")
# the fabric controls that only some transports read: shown greyed out for the others (the engine refuses SHARP
# off InfiniBand by name; sockets and GPUDirect TCP belong to NCCL's socket transport, queue pairs to RDMA)
FABRIC_TRANSPORTS = {"sockets_per_connection": ("tcp",), "gpudirect_tcp": ("tcp",),
                     "qps_per_connection": ("roce", "iwarp", "infiniband"), "sharp": ("infiniband",)}
PLACEMENT_NAMES = {"contiguous": lambda: translate("MainWindow", "Contiguous"),
                   "fragmented": lambda: translate("MainWindow", "Fragmented")}
RECOVERY_NAMES = {"go_back_n": lambda: translate("MainWindow", "Go-back-N"),
                  "selective_repeat": lambda: translate("MainWindow", "Selective repeat"),
                  "link_retry": lambda: translate("MainWindow", "Link-level retry")}


# a fabric a profile set defines beside its four, compared on request ("fabric.NAME" in GROUPS: a check box)
COMPARED_ON_REQUEST = ("roce_tuned",)


def field_class(path: str) -> tuple[type, str]:
    """The dataclass and key of a bound path ("fabric.KEY": the fabric in focus's :class:`FabricSpec`)."""
    section, key = path.split(".", 1)
    if section == "fabric" and key not in ("focus",) + COMPARED_ON_REQUEST:
        return FabricSpec, key
    return SECTIONS[section], key


class ControlsPanel(QtWidgets.QScrollArea):
    """The scrolling column of controls; ``sliders`` (scenario paths) and ``fabric_sliders`` (keys of
    the fabric in focus) hold the sliders, ``widgets`` every control by its path."""

    def __init__(self, controller, session, texts, parent=None):
        super().__init__(parent)
        self.controller = controller
        self.session = session  # gui.present.session.Session
        self.texts = texts
        self.sliders: dict[str, FieldSlider] = {}
        self.fabric_sliders: dict[str, FieldSlider] = {}
        self.widgets: dict[str, QtWidgets.QWidget] = {}
        self.fabric_checks: dict[str, QtWidgets.QCheckBox] = {}  # the fabric in focus's on/off values by key
        self.compare_checks: dict[str, QtWidgets.QCheckBox] = {}  # profile fabrics compared on request, by name
        self._fabric_synced = None  # what the fabric controls were last synced to (see _sync_fabric)
        self._fabric_names: tuple = ()  # every fabric of the scenario (what "Apply to every fabric" sets)
        left = QtWidgets.QWidget()
        lay = QtWidgets.QVBoxLayout(left)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.setSpacing(6)
        for title, paths in GROUPS:
            g = GroupBox("")
            texts.bind(g.setTitle, GROUP_TITLES[title])
            for path in paths:
                g.add(self._control(path))
                if path == "fabric.sharp":  # after the fabric's last control
                    self._fabric_extras(g)
            lay.addWidget(g)
            if title == "Economics":
                self.economics_group = g
        lay.addStretch(1)
        self.setWidget(left)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(300)

    # -- building from the metadata -------------------------------------------------
    def _control(self, path: str) -> QtWidgets.QWidget:
        cls, key = field_class(path)
        c = self.controller
        if key in COMPARED_ON_REQUEST:  # not a field: whether the scenario compares the profile's extra fabric
            w = self.compare_checks[key] = QtWidgets.QCheckBox()
            w.setObjectName(f"check_compare_{key}")
            self.texts.bind(w.setText, lambda: translate("MainWindow", "Compare tuned RoCE"))
            w.toggled.connect(lambda on: c.set_fabric_compared(key, bool(on)))
            self.widgets[path] = w
            return w
        meta = field_meta(cls, key)
        if path == "cluster.gpu":
            w = self.gpu_combo = QtWidgets.QComboBox()
            for gid, entry in catalog.gpus().items():
                w.addItem(f"{entry.get('name', gid)}", gid)
                w.setItemData(w.count() - 1, tr_source(entry.get("source", "")), QtCore.Qt.ItemDataRole.ToolTipRole)
            w.currentIndexChanged.connect(lambda i: c.set_value(path, w.itemData(i)))
            return self._labelled(w, lambda: tr_field("GPU"), lambda: translate("MainWindow", "GPU type"))
        if path == "fabric.focus":
            w = self.focus_combo = QtWidgets.QComboBox()
            self.texts.bind(w.setToolTip, lambda: translate(
                "MainWindow", "The fabric whose latency, loss and bandwidth the sliders below edit; each fabric "
                              "keeps its own values"))
            w.currentIndexChanged.connect(self._on_focus_selected)
            return self._labelled(w, lambda: translate("MainWindow", "Fabric"),
                                  lambda: translate("MainWindow", "Fabric in focus"))
        if path == "fabric.latency_us":  # before the fabric's sliders: which fabric(s) they move
            self.all_fabrics_check = QtWidgets.QCheckBox()
            self.all_fabrics_check.setObjectName("allFabricsCheck")
            self.texts.bind(self.all_fabrics_check.setText, lambda: translate("MainWindow", "Apply to every fabric"))
            self.texts.bind(self.all_fabrics_check.setToolTip, lambda: translate(
                "MainWindow", "On: a change of latency, loss or bandwidth sets that value for every fabric at once; "
                              "off: only the fabric in focus"))
            self.all_fabrics_check.toggled.connect(lambda _on: self._name_subjects())
            box = QtWidgets.QWidget()
            lay = QtWidgets.QVBoxLayout(box)
            lay.setContentsMargins(0, 0, 0, 0)
            lay.setSpacing(2)
            lay.addWidget(self.all_fabrics_check)
            lay.addWidget(self._control_slider(path, cls, key))
            return box
        if cls is FabricSpec and key in ("adaptive_routing", "gpudirect_tcp", "sharp"):  # on or off
            w = self.fabric_checks[key] = QtWidgets.QCheckBox()
            self.texts.bind(w.setText, lambda: tr_field(meta.get("label") or key))
            w.setObjectName(f"check_{path}")
            w.toggled.connect(lambda on: c.set_fabric_value(self.session.focus, key, bool(on)))
            self.widgets[path] = w
            if key == "adaptive_routing":
                self.adaptive_check = w
            return w
        if path == "topology.placement":
            w = self.placement_combo = QtWidgets.QComboBox()
            w.setObjectName(f"combo_{path}")
            for choice in meta["choices"]:
                w.addItem("", choice)
                self.texts.bind(lambda t, i=w.count() - 1: w.setItemText(i, t), PLACEMENT_NAMES[choice])
            self.texts.bind(w.setToolTip, lambda: tr_help(meta.get("help", "")))
            w.currentIndexChanged.connect(lambda i: c.set_value(path, w.itemData(i)))
            self.widgets[path] = w
            return self._labelled(w, lambda: tr_field(meta.get("label") or key))
        if meta.get("choices") is not None:  # a list to choose from
            w = QtWidgets.QComboBox()
            w.setObjectName(f"combo_{path}")
            if section_of(path) == "fabric":
                self.recovery_combo = w
                for choice in meta["choices"]:
                    w.addItem("", choice)
                    self.texts.bind(lambda t, i=w.count() - 1: w.setItemText(i, t), RECOVERY_NAMES[choice])
                w.currentIndexChanged.connect(lambda i: c.set_fabric_value(self.session.focus, key, w.itemData(i)))
                self.widgets[path] = w
                return self._labelled(w, lambda: tr_field("Loss recovery"))
            w.addItem("", None)  # the profile's default, named on every sync (it says the currency)
            for ch in meta["choices"]:
                w.addItem(str(ch), ch)
            w.currentIndexChanged.connect(lambda i: c.set_value(path, w.itemData(i)))
            self.widgets[path] = w
            return self._labelled(w, lambda: tr_field(meta.get("label") or key),
                                  lambda: translate("MainWindow", "Currency"))
        return self._control_slider(path, cls, key)

    def make_slider(self, path: str) -> FieldSlider:
        """Another slider for ``path`` bound like the panel's own (the stage view's): it writes through the
        controller (a fabric value through :meth:`set_fabric_value`) and says when it is held."""
        cls, key = field_class(path)
        sl = slider_for(cls, key, **DISPLAY.get(path, {}))
        sl.setObjectName(f"stage_slider_{path}")
        if cls is FabricSpec:
            sl.valueEdited.connect(lambda v: self.set_fabric_value(key, v))
        else:
            sl.valueEdited.connect(lambda v: self.controller.set_value(path, v))
        sl.dragStateChanged.connect(lambda on: self.session.update(dragging=on))
        return sl

    def twin(self, path: str) -> FieldSlider:
        """The panel's slider for ``path``."""
        return self.sliders.get(path) or self.fabric_sliders[path.split(".", 1)[1]]

    def _control_slider(self, path: str, cls, key: str) -> FieldSlider:
        c = self.controller
        sl = slider_for(cls, key, **DISPLAY.get(path, {}))
        sl.setObjectName(f"slider_{path}")
        if cls is FabricSpec:
            sl.valueEdited.connect(lambda v: self.set_fabric_value(key, v))
            self.fabric_sliders[key] = sl
        elif key in OTHER_MONEY_FIELD:
            sl.valueEdited.connect(lambda v: c.set_values({f"economics.{OTHER_MONEY_FIELD[key]}": None, path: v}))
            self.sliders[path] = sl
        else:
            sl.valueEdited.connect(lambda v: c.set_value(path, v))
            self.sliders[path] = sl
        sl.dragStateChanged.connect(lambda on: self.session.update(dragging=on))
        self.widgets[path] = sl
        return sl

    def set_fabric_value(self, key: str, value) -> bool:
        """A fabric slider's change: the fabric in focus's value, or every fabric's with "Apply to every fabric"."""
        if not self.all_fabrics_check.isChecked():
            return self.controller.set_fabric_value(self.session.focus, key, value)
        return self.controller.set_values({f"fabric.custom.{name}.{key}": value for name in self._fabric_names})

    def _name_subjects(self) -> None:
        """Each fabric slider names what it moves: the fabric in focus, or every fabric."""
        subject = (translate("MainWindow", "every fabric") if self.all_fabrics_check.isChecked()
                   else self.focus_combo.currentText())
        for sl in self.fabric_sliders.values():
            sl.set_subject(subject)

    def _labelled(self, w, label, accessible=None) -> QtWidgets.QWidget:
        box = labelled("", w)
        lab = box.findChild(QtWidgets.QLabel)
        self.texts.bind(lab.setText, label)
        self.texts.bind(w.setAccessibleName, accessible or label)
        return box

    def _fabric_extras(self, g: GroupBox) -> None:
        self.reset_button = QtWidgets.QPushButton()
        self.texts.bind(self.reset_button.setText, lambda: translate("MainWindow", "&Reset to profile"))
        self.texts.bind(self.reset_button.setToolTip, lambda: translate(
            "MainWindow", "Restore the profile set's values for the fabric in focus"))
        self.reset_button.clicked.connect(lambda: self.controller.reset_fabric(self.session.focus))
        g.add(self.reset_button)
        self.fabric_source = QtWidgets.QLabel()
        self.fabric_source.setWordWrap(True)
        self.fabric_source.setStyleSheet("color:#555; font-size:8pt")
        g.add(self.fabric_source)

    def _on_focus_selected(self, i: int) -> None:
        name = self.focus_combo.itemData(i)
        if name and name != self.session.focus:
            self.controller.set_value("fabric.focus", name)

    def retranslate(self) -> None:
        """The sliders' names and units in the current language (the texts bound in ``texts`` are
        set by the window); the tooltips follow on the next :meth:`sync`."""
        for path, sl in list(self.sliders.items()) + [(f"fabric.{k}", s) for k, s in self.fabric_sliders.items()]:
            cls, key = field_class(path)
            meta = field_meta(cls, key)
            unit = DISPLAY.get(path, {}).get("unit")
            sl.retranslate(tr_field(meta.get("label") or key.replace("_", " ").capitalize()),
                           tr_unit(meta.get("unit", "") if unit is None else unit))
        for i in range(self.gpu_combo.count()):  # each GPU's source note, in the list's tooltips
            self.gpu_combo.setItemData(i, tr_source(catalog.gpu(self.gpu_combo.itemData(i)).get("source", "")),
                                       QtCore.Qt.ItemDataRole.ToolTipRole)

    # -- the scenario into the controls ------------------------------------------------
    def sync(self, s: model.Scenario, light: bool = False) -> None:
        """Every control shows ``s``, signals blocked (no write-back). ``light`` (a drag): values and
        names only; the tooltips, not seen while dragging, follow when the drag ends."""
        st = self.session
        resolved = _resolved_inputs(s)
        origin = texts_.origin_text(st.source_path, st.loaded.name, current_language())
        for path, sl in self.sliders.items():
            v = s.get(path)
            from_profile = v is None
            if from_profile:
                v = _profile_value(path, resolved)
            if v is not None and v == v:
                sl.set_value(v)
            section, key = path.split(".", 1)
            site = catalog.profile_site(s.fabric.profile_set, section) if from_profile else {}
            if not light:
                sl.set_tooltip(texts_.field_tooltip(
                    path, now=s.get(path), loaded=st.loaded.get(path), origin=origin, unit=sl.unit, scale=sl.scale,
                    from_profile=from_profile, profile_set=s.fabric.profile_set,
                    profile_source=tr_source(site.get("source", ""))))
            sl.set_label(sl.label_text, guess=key in site.get("guesses", ()), overridden=st.is_edited(path))
        with QtCore.QSignalBlocker(self.gpu_combo):
            self.gpu_combo.setCurrentIndex(self.gpu_combo.findData(s.cluster.gpu))
        with QtCore.QSignalBlocker(self.placement_combo):
            self.placement_combo.setCurrentIndex(self.placement_combo.findData(s.topology.placement))
        if not light:
            _set_tip(self.gpu_combo, texts_.gpu_tooltip(s.cluster.gpu))
        currency = economics.currency_of(s)
        combo = self.widgets["economics.currency"]
        v = s.economics.currency
        with QtCore.QSignalBlocker(combo):
            combo.setCurrentIndex(0 if v is None else max(combo.findData(v), 0))
            combo.setItemText(0, translate("MainWindow", "profile default ({currency})").format(currency=currency))
        if not light:
            _set_tip(combo, texts_.choice_tooltip("economics.currency", origin))
        for key in OTHER_MONEY_FIELD:
            self.sliders[f"economics.{key}"].setVisible(key == f"electricity_{currency.lower()}_per_kwh")
        self._sync_fabric(s, light)

    def _sync_fabric(self, s: model.Scenario, light: bool) -> None:
        # what the fabric controls show follows from these alone: a drag of another section's slider leaves them
        st = self.session
        key = (s.fabric, st.loaded.fabric, st.source_path, current_language())
        if light and key == self._fabric_synced:
            return
        self._fabric_synced = key
        rows = model.resolve_fabrics(s)
        with QtCore.QSignalBlocker(self.focus_combo):
            names = [r.name for r in rows]
            if [self.focus_combo.itemData(i) for i in range(self.focus_combo.count())] != names:
                self.focus_combo.clear()
                for r in rows:
                    self.focus_combo.addItem(catalog.fabric_style(r.name).get("short", r.label)
                                             if r.name in catalog.BUILTIN_FABRICS else r.label, r.name)
            self.focus_combo.setCurrentIndex(self.focus_combo.findData(s.fabric.focus_fabric))
        self._fabric_names = tuple(r.name for r in rows)
        self._name_subjects()
        row = next(r for r in rows if r.name == s.fabric.focus_fabric)
        prof = catalog.profile_set(s.fabric.profile_set)
        for name, w in self.compare_checks.items():
            with QtCore.QSignalBlocker(w):
                w.setChecked(name in s.fabric.fabrics)
            offered = name in prof["fabrics"]
            w.setEnabled(offered or name in s.fabric.fabrics)  # what is compared can always be taken out
            if not light:
                _set_tip(w, tr_source(prof["fabrics"][name].get("source", "")) if offered else translate(
                    "MainWindow", "The published profile set has tuned RoCE (QP scaling, enhanced ECMP); this set "
                                  "does not"))
        entry = prof["fabrics"].get(row.name) or next(
            (f for f in prof["fabrics"].values() if f["transport"] == row.transport), {})
        st = self.session
        for key, sl in self.fabric_sliders.items():
            sl.set_value(float(row.values[key]))
            src = row.sources.get(key, "")
            guess = key in row.guesses
            sl.set_label(sl.label_text, guess=guess, overridden=src == "scenario",
                         edited=st.is_edited(f"fabric.custom.{row.name}.{key}"))
            if not light:
                sl.set_tooltip(texts_.fabric_tooltip(
                    key, label=tr_data(row.label), source=src, profile_name=profile_set_name(prof["name"]),
                    profile_value=entry.get(key),
                    guess=guess, article_range=entry.get(f"{key}_range"),
                    entry_source=tr_source(entry["source"]) if "source" in entry else None,
                    scale=sl.scale))
        for key, w in self.fabric_checks.items():
            with QtCore.QSignalBlocker(w):
                w.setChecked(bool(row.values[key]))
        with QtCore.QSignalBlocker(self.recovery_combo):
            self.recovery_combo.setCurrentIndex(self.recovery_combo.findData(row.values["loss_recovery"]))
        self.recovery_combo.setEnabled(row.transport in RDMA_TRANSPORTS)  # TCP (tcp, iwarp) recovers by itself
        for key, transports in FABRIC_TRANSPORTS.items():
            (self.fabric_checks.get(key) or self.fabric_sliders[key]).setEnabled(row.transport in transports)
        if not light:
            for key, w in list(self.fabric_checks.items()) + [("loss_recovery", self.recovery_combo)]:
                _set_tip(w, texts_.fabric_choice_tooltip(key, tr_source(entry.get("source", ""))))
        set_by_scenario = s.fabric.focus_fabric in s.fabric.custom_dict() and any(
            row.sources.get(k) == "scenario" for k in FABRIC_SWEEPABLE_KEYS)
        self.reset_button.setEnabled(set_by_scenario)
        changed = any(st.is_edited(f"fabric.custom.{row.name}.{k}") for k in FABRIC_SWEEPABLE_KEYS)
        _set_text(self.fabric_source, texts_.fabric_origin(
            tr_data(row.label), prof["name"], changed=changed, set_by_scenario=set_by_scenario, scenario=s,
            source_path=st.source_path))
        _set_tip(self.fabric_source, tr_source(entry.get("source", "")))


def section_of(path: str) -> str:
    return path.split(".", 1)[0]


def _resolved_inputs(s: model.Scenario) -> dict:
    """Economics inputs with the profile's defaults filled in ({} when the scenario cannot give them)."""
    try:
        return {k: float(v) for k, v in economics.point_inputs(s).items()}
    except (model.ScenarioError, KeyError, TypeError, ValueError):
        return {}


def _profile_value(path: str, resolved: dict):
    """The profile's value of an economics field the scenario leaves unset (an electricity price in
    the other currency converted at the profile's rate)."""
    key = path.split(".", 1)[1]
    v = resolved.get(key)
    if key in OTHER_MONEY_FIELD and (v is None or v != v):
        ov, rate = resolved.get(OTHER_MONEY_FIELD[key]), resolved.get("cny_per_usd", 7.1)
        if ov is not None and ov == ov:
            v = ov * rate if key == "electricity_cny_per_kwh" else ov / rate
    return v


def _set_text(label: QtWidgets.QLabel, text: str) -> None:
    """Set a label's text only when it changes (rich-text layout costs a millisecond)."""
    if label.text() != text:
        label.setText(text)


def _set_tip(widget: QtWidgets.QWidget, text: str) -> None:
    if widget.toolTip() != text:
        widget.setToolTip(text)


__all__ = ["ControlsPanel", "DISPLAY", "FABRIC_SWEEPABLE_KEYS", "FABRIC_TRANSPORTS", "GROUPS", "OTHER_MONEY_FIELD",
           "field_class"]
