"""One number and money format per language (gui.present.format, no Qt)."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gui.present import format as fm


@pytest.fixture
def zh():
    fm.set_language("zh_CN")
    yield
    fm.set_language("en")


def test_money_in_english():
    assert fm.fmt_money(33_930_000, "CNY") == "¥33.93 M"
    assert fm.fmt_money(684_932, "CNY", digits=3) == "¥685 k"
    assert fm.fmt_money(39_100_000, "CNY") == "¥39.10 M"  # trailing zeros kept: table columns align
    assert fm.fmt_money(1.2e9, "USD", digits=3) == "$1.20 bn"
    assert fm.fmt_money(684, "EUR") == "€684"
    # thousands in grouped digits, not "¥5.971 k": the suffix starts where it saves digits
    assert fm.fmt_money(5_971.3, "CNY") == "¥5,971"
    assert fm.fmt_money(27_160, "CNY") == "¥27.16 k"
    assert fm.fmt_money(-1_160_000, "CNY", signed=True) == "−¥1.160 M"
    assert fm.fmt_money(float("nan"), "CNY") == fm.fmt_money(None) == "–"


def test_money_in_chinese_counts_in_wan_and_yi(zh):
    assert fm.fmt_money(33_930_000, "CNY") == "¥3,393 万"
    assert fm.fmt_money(684_932, "CNY", digits=3) == "¥68.5 万"
    assert fm.fmt_money(120_000_000, "CNY", digits=3) == "¥1.20 亿"
    assert fm.fmt_money(5_000, "CNY") == "¥0.5000 万"  # one format: never "¥5,000" beside "¥4.950 万"
    assert fm.fmt_money(6_441, "CNY") == "¥0.6441 万" and fm.fmt_money(684, "CNY") == "¥684"
    assert " M" not in fm.fmt_money(39_480_000, "CNY")


def test_percent_never_prints_an_exponent():
    assert fm.fmt_percent(3.3e-8, fraction=True) == "0.0000033 %"
    assert fm.fmt_percent(0.002, fraction=True) == "0.2 %"
    assert fm.fmt_percent(23.14) == "23.1 %"
    assert fm.fmt_percent(0.0) == "0.0 %"


@given(st.floats(min_value=1.0, max_value=1e13, allow_nan=False), st.sampled_from(["en", "zh_CN"]),
       st.integers(3, 4))
def test_money_reads_back_within_its_digits(v, lang, digits):
    fm.set_language(lang)
    try:
        text = fm.fmt_money(v, "CNY", digits=digits)
    finally:
        fm.set_language("en")
    assert "e" not in text.lower().replace("¥", "")
    m = re.fullmatch(r"¥([\d,]+(?:\.\d+)?)(?: (k|M|bn|万|亿))?", text)
    assert m, text
    scale = {None: 1, "k": 1e3, "M": 1e6, "bn": 1e9, "万": 1e4, "亿": 1e8}[m.group(2)]
    back = float(m.group(1).replace(",", "")) * scale
    decimals = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
    assert abs(back - v) <= 0.5 * 10 ** -decimals * scale * (1 + 1e-9)  # rounded, nothing more
    if m.group(2) is not None:  # scaled: at least the digits asked for
        assert len(m.group(1).replace(",", "").replace(".", "").lstrip("0")) >= digits


def test_the_format_module_needs_no_qt():
    import subprocess

    code = ("import sys, gui.present.format as f; f.fmt_money(1e6, 'CNY'); "
            "sys.exit(any(m.startswith(('PySide6', 'pyqtgraph')) for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_the_cli_shows_money_in_the_one_format(capsys):
    from pathlib import Path

    from gui.cli import main as cli
    preset = Path(__file__).resolve().parents[1] / "assets" / "presets" / "case2_autodriving_24xA100_30B.toml"
    assert cli.main(["evaluate", str(preset)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"¥\d+\.\d\d M", out) and not re.search(r"\d{3},\d{3}\s", out)


def test_csv_numbers_are_rounded_to_their_meaning():
    from gui.present.chart_export import csv_number

    assert csv_number(13.041234567891234) == "13.04" and csv_number(24.0) == "24"
    assert csv_number(0.00012345678) == "0.0001235" and csv_number(33_934_567.89) == "33934568"
    assert csv_number(-4.56789) == "-4.568" and csv_number(0.0) == "0" and csv_number(float("nan")) == ""


def test_the_language_is_held_in_one_place():
    """The formats' language is the GUI's: one value, set in either, read in both."""
    from gui import i18n

    try:
        fm.set_language("zh_CN")
        assert i18n.current_language() == "zh_CN" and i18n.is_chinese() and fm.language() == "zh"
        assert "万" in fm.fmt_money(40_570_000, "CNY")
    finally:
        fm.set_language("en")
    assert i18n.current_language() == "en" and not i18n.is_chinese() and fm.language() == "en"


def test_axis_values_never_print_an_exponent():
    from gui.present.series import format_x
    assert format_x("workload.params_b", 12_345.0) == "12,345 B"
    assert format_x("fabric.loss_rate", 0.0000033) == "0.0000033 %"
    assert format_x("fabric.latency_us", 1.5) == "1.5 µs"
    assert format_x("cluster.nodes", 2048.0) == "2,048"
