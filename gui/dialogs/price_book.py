"""Edit the price book (Tools ▸ Price book…): component prices per fabric, the discount, support and currency.

:class:`PriceBookDialog` shows, for every compared fabric, the prices the engine uses — the leaf, spine and core
switch, the NIC, and a link either as one price with its optics and cable or split into an optic and a cable —
in the scenario's currency (converted at its exchange rate; the scenario keeps them in USD), and the price book's
discount and support per year. *Apply* writes what changed into the scenario in one recompute (the fabric's
``[fabric.custom.NAME]`` prices, ``[price_book]``, ``economics.currency``); values the engine refuses are named in
one line in the dialog and nothing is lost: the dialog stays open with the user's values.

Where the profile set prices the network per node (the article's way, "Article's inputs"), the component prices
do not enter the capex; the dialog says so and offers to price the network from its components.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtWidgets

import model
from model import ScenarioError, catalog
from model.economics import currency_of
from model.errors import shown_value

from gui.i18n import QT_TRANSLATE_NOOP, translate
from gui.i18n_data import field_label
from gui.present.format import currency_symbol

# (scenario field, column title); a link is priced either whole or as its cable and optics
COLUMNS = (("switch_price_usd", QT_TRANSLATE_NOOP("PriceBookDialog", "Leaf switch")),
           ("spine_switch_price_usd", QT_TRANSLATE_NOOP("PriceBookDialog", "Spine switch")),
           ("core_switch_price_usd", QT_TRANSLATE_NOOP("PriceBookDialog", "Core switch")),
           ("nic_price_usd", QT_TRANSLATE_NOOP("PriceBookDialog", "NIC")),
           ("link_price_usd", QT_TRANSLATE_NOOP("PriceBookDialog", "Link with optics")),
           ("optic_price_usd", QT_TRANSLATE_NOOP("PriceBookDialog", "Optic")),
           ("cable_price_usd", QT_TRANSLATE_NOOP("PriceBookDialog", "Cable")))
OPTIONAL = {"spine_switch_price_usd": "switch_price_usd", "core_switch_price_usd": "switch_price_usd",
            "optic_price_usd": None, "cable_price_usd": None}  # NaN in the engine: the leaf's price, the link's
NOT_SET = -1.0  # a spin box at its minimum shows the "not set" text
MAX_PRICE = 1e8


def _t(text: str) -> str:
    return translate("PriceBookDialog", text)


class PriceBookDialog(QtWidgets.QDialog):
    """The scenario's price book, editable; ``controller`` is the window's."""

    applied = QtCore.Signal()

    def __init__(self, controller, parent=None):
        super().__init__(parent)
        self.controller = controller
        self.setObjectName("priceBookDialog")
        self.setWindowTitle(translate("PriceBookDialog", "Price book"))
        s = controller.scenario
        self.rows = list(model.resolve_fabrics(s))
        self.rate = float(s.economics.cny_per_usd)
        self.shown_currency = currency_of(s)

        intro = QtWidgets.QLabel(translate("PriceBookDialog", "Prices of one item, in the currency below. Spine and core switches left at "
                                    "\"as leaf\" cost the leaf switch's price; a link is priced with its optics "
                                    "and cable, or as an optic and a cable when both are given (each link end "
                                    "has one optic)."))
        intro.setWordWrap(True)
        self.currency = QtWidgets.QComboBox()
        self.currency.setObjectName("priceCurrency")
        for code in ("USD", "CNY"):
            self.currency.addItem(code, code)
        self.currency.setCurrentIndex(self.currency.findData(self.shown_currency))
        self.currency.currentIndexChanged.connect(self._currency_changed)
        self.discount = self._percent_spin("priceDiscount", s.price_book.discount, 95.0)
        self.support = self._percent_spin("priceSupport", s.price_book.support_fraction, 50.0)
        self.components = QtWidgets.QCheckBox(translate("PriceBookDialog", "Price the network from its components (not per node)"))
        self.components.setObjectName("priceComponents")
        per_node = (s.economics.network_pricing or catalog.profile_site(s.fabric.profile_set, "economics").get(
            "network_pricing", "components")) == "per_node"
        self.components.setChecked(not per_node)
        self.components.setToolTip(translate("PriceBookDialog", "The article's inputs price the whole network per node; the component "
                                      "prices below count only when the network is priced from its components."))
        form = QtWidgets.QFormLayout()
        form.addRow(translate("PriceBookDialog", "Currency"), self.currency)
        form.addRow(translate("PriceBookDialog", "Discount on the bill of materials"), self.discount)
        form.addRow(translate("PriceBookDialog", "Support and maintenance per year (share of capex)"), self.support)
        form.addRow("", self.components)

        self.table = QtWidgets.QTableWidget(len(self.rows), len(COLUMNS))
        self.table.setObjectName("priceTable")
        self.table.setHorizontalHeaderLabels([_t(title) for _, title in COLUMNS])
        self.table.setVerticalHeaderLabels([r.label for r in self.rows])
        self.spins: dict[tuple[str, str], QtWidgets.QDoubleSpinBox] = {}
        for i, row in enumerate(self.rows):
            for j, (key, _) in enumerate(COLUMNS):
                spin = QtWidgets.QDoubleSpinBox()
                spin.setDecimals(0)
                spin.setRange(NOT_SET if key in OPTIONAL else 0.0, MAX_PRICE)
                spin.setGroupSeparatorShown(True)
                if key in OPTIONAL:
                    spin.setSpecialValueText(translate("PriceBookDialog", "as leaf") if OPTIONAL[key] else translate("PriceBookDialog", "in the link"))
                self.table.setCellWidget(i, j, spin)
                self.spins[(row.name, key)] = spin
        self._show_prices()
        self.table.resizeColumnsToContents()

        self.error = QtWidgets.QLabel()
        self.error.setObjectName("priceError")
        self.error.setWordWrap(True)
        self.error.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.error.setStyleSheet("color:#b00020")
        buttons = QtWidgets.QDialogButtonBox()
        self.apply_button = buttons.addButton(translate("PriceBookDialog", "&Apply"), QtWidgets.QDialogButtonBox.ButtonRole.AcceptRole)
        self.apply_button.setObjectName("applyPriceBook")
        cancel = buttons.addButton(QtWidgets.QDialogButtonBox.StandardButton.Cancel)
        cancel.setText(translate("PriceBookDialog", "Cancel"))
        self.apply_button.clicked.connect(self.apply)
        buttons.rejected.connect(self.reject)
        lay = QtWidgets.QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addLayout(form)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.error)
        lay.addWidget(buttons)
        self.resize(1040, 420)

    def _percent_spin(self, name: str, fraction: float, hi: float) -> QtWidgets.QDoubleSpinBox:
        spin = QtWidgets.QDoubleSpinBox()
        spin.setObjectName(name)
        spin.setRange(0.0, hi)
        spin.setDecimals(1)
        spin.setSuffix(" %")
        spin.setValue(fraction * 100.0)
        return spin

    # -- currency -------------------------------------------------------------
    def _per_usd(self, currency: str) -> float:
        return self.rate if currency == "CNY" else 1.0

    def _show_prices(self) -> None:
        k = self._per_usd(self.shown_currency)
        for row in self.rows:
            for key, _ in COLUMNS:
                usd = float(row.values.get(key, math.nan))
                self.spins[(row.name, key)].setValue(usd * k if math.isfinite(usd) else NOT_SET)
        self._prefix()

    def _prefix(self) -> None:
        for spin in self.spins.values():
            spin.setPrefix(currency_symbol(self.shown_currency))

    def _currency_changed(self, _i=None) -> None:
        new = self.currency.currentData()
        factor = self._per_usd(new) / self._per_usd(self.shown_currency)
        for spin in self.spins.values():
            if spin.value() != NOT_SET:
                spin.setValue(spin.value() * factor)
        self.shown_currency = new
        self._prefix()

    # -- apply ------------------------------------------------------------------
    def changes(self) -> dict:
        """The dotted scenario changes the dialog's values make (only what differs from the scenario's)."""
        s = self.controller.scenario
        k = self._per_usd(self.shown_currency)
        out = {}
        for row in self.rows:
            for key, _ in COLUMNS:
                value = self.spins[(row.name, key)].value()
                usd = None if value == NOT_SET else value / k
                old = float(row.values.get(key, math.nan))
                same = (usd is None and not math.isfinite(old)) or (
                    usd is not None and math.isfinite(old) and math.isclose(usd, old, rel_tol=1e-6, abs_tol=0.5 / k))
                if not same:
                    out[f"fabric.custom.{row.name}.{key}"] = None if usd is None else round(usd, 2)
        discount, support = self.discount.value() / 100.0, self.support.value() / 100.0
        if not math.isclose(discount, s.price_book.discount, abs_tol=1e-9):
            out["price_book.discount"] = discount
        if not math.isclose(support, s.price_book.support_fraction, abs_tol=1e-9):
            out["price_book.support_fraction"] = support
        if self.shown_currency != currency_of(s):
            out["economics.currency"] = self.shown_currency
        pricing = "components" if self.components.isChecked() else "per_node"
        default = catalog.profile_site(s.fabric.profile_set, "economics").get("network_pricing", "components")
        if pricing != (s.economics.network_pricing or default):
            out["economics.network_pricing"] = pricing
        return out

    def apply(self) -> bool:
        """Write the changes into the scenario (one recompute); a refused value is named and the dialog stays."""
        changes = self.changes()
        if not changes:
            self.accept()
            return True
        try:
            new = self.controller.scenario.replace_many(changes)
        except ScenarioError as err:  # named as the window names fields ("InfiniBand: Optic price = …")
            label = field_label(err.field) if isinstance(err.field, str) else str(err.field)
            value = translate("PriceBookDialog", "not given") if err.value is None else shown_value(err.value)
            self.error.setText(f"{label} = {value}: {err.allowed}")
            return False
        self.controller.set_scenario(new, source_path=self.controller.source_path)
        self.error.clear()
        self.applied.emit()
        self.accept()
        return True


__all__ = ["COLUMNS", "PriceBookDialog"]
