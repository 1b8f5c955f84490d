"""The price book in the scenario: bounds with one-line named errors, exit 2 on the command line, old files load,
and what it changes in the money."""

import pytest

import model
from model import ScenarioError
from model.files import parse_scenario_text

from gui.cli.main import main

OLD = """schema_version = 1
name = "written before the price book"
[cluster]
nodes = 8
"""


def test_a_file_without_a_price_book_loads_at_list_prices():
    s = parse_scenario_text(OLD)
    assert s.price_book.discount == 0.0 and s.price_book.support_fraction == 0.0
    again = parse_scenario_text(model.scenario_to_toml(s.replace("price_book.discount", 0.2)))
    assert again.price_book.discount == 0.2


@pytest.mark.parametrize("text, field, allowed", [
    ("[price_book]\ndiscount = 1.5\n", "price_book.discount", "from 0.0 to 0.95"),
    ("[price_book]\nsupport_fraction = -0.1\n", "price_book.support_fraction", "from 0.0 to 0.5"),
    ("[price_book]\nrebate = 0.1\n", "price_book.rebate", "unknown key"),
    ("[fabric.custom.infiniband]\ncable_price_usd = 100.0\n", "fabric.custom.infiniband.optic_price_usd",
     "cable_price_usd"),
    ("[fabric.custom.infiniband]\nspine_switch_price_usd = -5.0\n", "fabric.custom.infiniband.spine_switch_price_usd",
     "from 0.0")])
def test_bad_prices_are_named(text, field, allowed):
    with pytest.raises(ScenarioError) as err:
        parse_scenario_text(OLD + text)
    assert err.value.field == field and allowed in str(err.value)


def test_the_command_line_exits_2_with_one_line(tmp_path, capsys):
    p = tmp_path / "s.toml"
    p.write_text(OLD + "[price_book]\ndiscount = 2\n", encoding="utf-8")
    assert main(["evaluate", str(p)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "price_book.discount" in err and "0.95" in err


def test_discount_and_support_move_capex_and_opex():
    s = parse_scenario_text(OLD)
    base = model.evaluate(s)
    book = model.evaluate(s.replace_many({"price_book.discount": 0.1, "price_book.support_fraction": 0.05}))
    capex = base.money.capex
    assert book.money.capex == pytest.approx(0.9 * capex)
    assert book.money.opex_per_year == pytest.approx(base.money.opex_per_year + 0.05 * 0.9 * capex)
    # dearer spines raise only the fabrics whose tree has spines
    spine = model.evaluate(s.replace("fabric.custom.infiniband.spine_switch_price_usd", 1e6))
    i = base.fabric_index("infiniband")
    assert (spine.money.capex[i] > base.money.capex[i]) == (float(base.network.fat_tree_spine[i]) > 0)
