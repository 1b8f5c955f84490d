"""Numbers, percentages and money, one format per language, without Qt.

Every view formats through these functions (the point table, the charts' axes and read-outs,
the A/B table, the tornado, the proposal sheet and the CLI), so money reads the same
everywhere:

- English: the currency's symbol, four significant figures (three in narrow tables) and
  k / M / bn (``¥33.93 M``, ``$685 k``, ``¥1.2 bn``); below a thousand, whole units (``¥684``).
- Chinese: the symbol and 万 (10⁴) / 亿 (10⁸), as Chinese readers count money
  (``¥3,393 万``, ``¥68.5 万``, ``¥1.20 亿``) — the convention of the People's Bank of
  China's statistical releases and of Chinese financial reporting; from ¥1,000 up in 万
  (``¥0.6441 万``), so one table never mixes whole yuan with 万. Both languages print whole
  units only below a thousand.

Numbers group thousands with a comma and use a point for decimals in both languages (the
convention of Simplified Chinese, GB/T 15835-2011 "General rules for writing numerals in
publications"). Percentages never print an exponent: ``0.0000033 %``, not ``3.3e-06 %``.

The language is set by :func:`set_language` (the GUI's :func:`gui.i18n.set_language`
calls it; the CLI leaves English).
"""

from __future__ import annotations

import math

CURRENCY_SYMBOLS = {"CNY": "¥", "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}
DASH = "–"  # what a missing or non-finite value shows

_state = {"lang": "en"}

# (scale, suffix, from) from the largest down; below the last, whole units. Both languages leave whole
# units only below a thousand: a Chinese table never prints "¥6,441" beside "¥4.950 万" (¥0.6441 万)
_STEPS = {
    "en": ((1e9, " bn", 1e9), (1e6, " M", 1e6), (1e3, " k", 1e4)),
    "zh": ((1e8, " 亿", 1e8), (1e4, " 万", 1e3)),
}


def set_language(lang: str) -> None:
    """'en' or a Chinese code ('zh_CN'): the formats that follow are that language's. The one place the
    language is held: the GUI's :func:`gui.i18n.current_language` reads it here."""
    _state["lang"] = str(lang)


def language_code() -> str:
    """The language as set ('en', 'zh_CN')."""
    return _state["lang"]


def language() -> str:
    """The formats' language: 'zh' for any Chinese code, else 'en'."""
    return "zh" if _state["lang"].startswith("zh") else "en"


def _finite(v) -> bool:
    try:
        return v is not None and math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


def fmt_number(v, decimals: int = 1) -> str:
    """``v`` with thousands grouped and ``decimals`` places (``12,345.6``); '–' for None/NaN/inf."""
    if not _finite(v):
        return DASH
    return f"{float(v):,.{max(int(decimals), 0)}f}"


def fmt_sig(v, digits: int = 3) -> str:
    """``v`` to ``digits`` significant figures, grouped, never an exponent, no trailing zeros
    (``8``, ``0.01``, ``12,300``, ``0.0000033``)."""
    if not _finite(v):
        return DASH
    v = float(v)
    if v == 0:
        return "0"
    decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(v)))))
    text = fmt_number(round(v, decimals), decimals)
    if decimals and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


# an axis tick's steps (scale, suffix, from): Chinese counts in 万 and 亿; a thousand keeps its digits ("2,000")
_COMPACT_STEPS = {
    "en": ((1e9, " bn", 1e9), (1e6, " M", 1e6), (1e3, "k", 1e4)),
    "zh": ((1e8, " 亿", 1e8), (1e4, " 万", 1e4)),
}


def fmt_compact(v, digits: int = 3) -> str:
    """A number for an axis tick, short: ``100k``, ``1.2 M``, ``1.2 万`` (from ten thousand up, ``digits``
    significant figures, trailing zeros dropped); below, grouped digits (``2,000``, ``0.5``)."""
    if not _finite(v):
        return DASH
    v = float(v)
    a = abs(v)
    sign = "−" if v < 0 else ""
    for scale, suffix, start in _COMPACT_STEPS[language()]:
        if a >= start:
            return f"{sign}{fmt_sig(a / scale, digits)}{suffix}"
    return sign + fmt_sig(a, max(digits, len(f"{a:.0f}")))


def fmt_percent(v, digits: int = 3, *, fraction: bool = False, signed: bool = False) -> str:
    """A percentage (``v`` in percent, or a fraction with ``fraction``): one decimal from 1 % up
    (``23.1 %``), ``digits`` significant figures below (``0.005 %``, ``0.0000033 %``)."""
    if not _finite(v):
        return DASH
    p = float(v) * (100.0 if fraction else 1.0)
    sign = "+" if signed and p > 0 else ""
    body = fmt_number(p, 1) if abs(p) >= 1 or p == 0 else fmt_sig(p, digits)
    return f"{sign}{body} %"


def currency_symbol(code: str) -> str:
    return CURRENCY_SYMBOLS.get(code, (code + " ") if code else "")


def fmt_money(v, currency: str = "", *, signed: bool = False, digits: int = 4, trim: bool = False) -> str:
    """Money with its symbol in the language's units: ``¥33.93 M`` / ``¥3,393 万`` (4 significant
    figures; 3 where space is short, such as the point table). ``trim`` drops trailing zeros
    (axis ticks: ``¥10 M``, not ``¥10.0 M``)."""
    if not _finite(v):
        return DASH
    v = float(v)
    sym = currency_symbol(currency)
    sign = "−" if v < 0 else ("+" if signed and v > 0 else "")
    a = abs(v)
    for scale, suffix, start in _STEPS[language()]:
        if a >= start:
            x = a / scale
            # never fewer digits than the whole part has: ¥3,393 万, not ¥3,390 万
            d = max(digits, int(math.floor(math.log10(x))) + 1) if x >= 1 else digits
            decimals = max(0, d - 1 - int(math.floor(math.log10(x))))  # trailing zeros kept: columns align
            text = fmt_number(x, decimals)
            if trim and "." in text:
                text = text.rstrip("0").rstrip(".")
            return f"{sign}{sym}{text}{suffix}"
    return f"{sign}{sym}{fmt_number(a, 0)}"


def fmt_quantity(v, unit: str, unit_text: str | None = None) -> str:
    """A figure with its unit (the claims table): money in the one money format when ``unit`` is a
    currency code; else two decimals below 10, one below 100, none above, then ``unit_text``
    (the unit as the reader's language writes it; default ``unit``)."""
    if not _finite(v):
        return DASH
    if unit in CURRENCY_SYMBOLS:
        return fmt_money(v, unit)
    a = abs(float(v))
    text = fmt_number(v, 0 if a >= 100 else 1 if a >= 10 else 2)
    shown = unit if unit_text is None else unit_text
    return f"{text} {shown}" if shown else text


__all__ = ["CURRENCY_SYMBOLS", "DASH", "currency_symbol", "fmt_compact", "fmt_money", "fmt_number", "fmt_percent", "fmt_quantity",
           "fmt_sig", "language", "language_code", "set_language"]
