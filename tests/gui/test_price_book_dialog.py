"""The price book dialog: edits prices, discount, support and currency into the scenario in one recompute, the
Cost tab's money and financials follow, and a refused value is named without losing the user's values."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from guihelpers import settle


@pytest.fixture
def book(window, qtbot):
    dlg = window.features.open_price_book()
    qtbot.addWidget(dlg)
    yield dlg
    dlg.close()


def test_the_tools_menu_opens_it(window):
    assert window.features.price_book_action in window.features.tools_menu.actions()


def test_prices_discount_and_support_reach_the_cost_tab(window, book, qtbot):
    c = window.controller
    c.set_profile_set("published")  # priced from components
    c.recompute_now()
    settle(window)
    book = window.features.open_price_book()
    qtbot.addWidget(book)
    fin_before = window.cost_chart.financials_label.text()
    rows_before = {r.fabric: r.tco for r in window.cost_chart.data.rows}
    assert "per GPU-hour" in fin_before and "NPV" in fin_before
    book.currency.setCurrentIndex(book.currency.findData("USD"))
    book.spins[("infiniband", "spine_switch_price_usd")].setValue(250_000)
    book.discount.setValue(12.0)
    book.support.setValue(6.0)
    before = c.recompute_count
    qtbot.mouseClick(book.apply_button, QtCore.Qt.MouseButton.LeftButton)
    c.recompute_now()
    settle(window)
    assert c.recompute_count == before + 1
    s = c.scenario
    assert s.price_book.discount == pytest.approx(0.12) and s.price_book.support_fraction == pytest.approx(0.06)
    assert s.fabric.custom_dict()["infiniband"].spine_switch_price_usd == pytest.approx(250_000, rel=1e-6)
    after = {r.fabric: r.tco for r in window.cost_chart.data.rows}
    assert all(after[f] != pytest.approx(rows_before[f]) for f in after)
    assert window.cost_chart.financials_label.text() != fin_before


def test_currency_shows_prices_converted_and_saves_in_usd(window, book):
    c = window.controller
    usd = book.spins[("infiniband", "nic_price_usd")]
    book.currency.setCurrentIndex(book.currency.findData("USD"))
    price = usd.value()
    book.currency.setCurrentIndex(book.currency.findData("CNY"))
    assert usd.value() == pytest.approx(price * c.scenario.economics.cny_per_usd, abs=1)
    assert book.changes().get("economics.currency") == "CNY" or c.scenario.economics.currency == "CNY"
    assert not any(k.endswith("nic_price_usd") for k in book.changes())  # a converted price is not a change


def test_half_a_split_link_is_named_and_the_dialog_keeps_the_values(window, book):
    s = window.controller.scenario
    book.spins[("infiniband", "cable_price_usd")].setValue(150)
    assert not book.apply()
    text = book.error.text()
    assert "Optic price" in text and "InfiniBand" in text and "cable_price_usd" in text and "\n" not in text
    assert window.controller.scenario is s and book.isVisible()
    assert book.spins[("infiniband", "cable_price_usd")].value() == 150
