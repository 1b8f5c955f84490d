"""Languages: English (the source text) and Simplified Chinese, switchable at run time.

Visible strings are wrapped in ``translate("Context", "text")`` (an alias of
``QCoreApplication.translate``, which ``pyside6-lupdate`` finds) or ``self.tr``;
``assets/i18n/fabric_whatif_zh_CN.ts`` holds the translations and ``make i18n``
(``tools/i18n.sh``) regenerates the ``.ts`` sources and compiles the ``.qm`` files the
app loads. Qt's own strings (dialog buttons, context menus) come from Qt's
``qtbase_zh_CN.qm``.

Switching language keeps the main window (:func:`switch_language`): the translators change
and every view sets its texts again in place (:class:`Texts` keeps the texts a view set once;
the views that draw from the results draw again), so the scenario, the pin, the docks and the
zoom stay as they were.

Numbers and money are formatted by :mod:`gui.present.format` in the current language:
thousands separators, and in Chinese money in 万 / 亿 (10⁴ / 10⁸) instead of M / bn.
"""

from __future__ import annotations

from PySide6 import QtCore
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication  # noqa: F401 (re-exported for the views)

from model import catalog

from gui.present import format as format_
from gui.present.text import LANGUAGES  # native names: shown untranslated in the menu

translate = QCoreApplication.translate

I18N_DIR = catalog.ASSETS_DIR / "i18n"
CATALOGUE = "fabric_whatif"
SETTINGS_KEY = "view/language"

_state = {"translators": []}  # the language itself is held by gui.present.format


def qm_path(lang: str):
    return I18N_DIR / f"{CATALOGUE}_{lang}.qm"


def current_language() -> str:
    return format_.language_code()


def is_chinese() -> bool:
    return format_.language() == "zh"


def set_language(lang: str) -> bool:
    """Install the translators for ``lang`` ('en' or 'zh_CN'); ``False`` if its .qm is missing."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: one of {', '.join(LANGUAGES)}")
    app = QCoreApplication.instance()
    for t in _state["translators"]:
        app.removeTranslator(t)
    _state["translators"] = []
    ok = True
    if lang != "en":
        mine = QtCore.QTranslator(app)
        ok = mine.load(str(qm_path(lang)))
        if ok:
            app.installTranslator(mine)
            _state["translators"].append(mine)
        qt_dir = QtCore.QLibraryInfo.path(QtCore.QLibraryInfo.LibraryPath.TranslationsPath)
        qt = QtCore.QTranslator(app)
        if qt.load(f"qtbase_{lang}", qt_dir):
            app.installTranslator(qt)
            _state["translators"].append(qt)
    format_.set_language(lang if ok else "en")
    QtCore.QLocale.setDefault(locale())
    return ok


def locale() -> QtCore.QLocale:
    if is_chinese():
        return QtCore.QLocale(QtCore.QLocale.Language.Chinese, QtCore.QLocale.Country.China)
    return QtCore.QLocale(QtCore.QLocale.Language.English, QtCore.QLocale.Country.UnitedKingdom)


# Numbers and money: one format per language, shared with the CLI and the exports (gui.present.format)
fmt_number, fmt_sig, fmt_money, fmt_percent = format_.fmt_number, format_.fmt_sig, format_.fmt_money, format_.fmt_percent
CURRENCY_SYMBOLS = format_.CURRENCY_SYMBOLS


class Texts:
    """The texts a view set once, to set again in another language: :meth:`bind` sets a widget's
    text from a function (``lambda: translate("Context", "text")``, which ``pyside6-lupdate``
    finds) and keeps both; :meth:`retranslate` calls them all again (a language switch)."""

    def __init__(self):
        self._bound: list[tuple] = []

    def bind(self, setter, text):
        """``setter(text())`` now and on every :meth:`retranslate`; returns what was set."""
        value = text()
        setter(value)
        self._bound.append((setter, text))
        return value

    def retranslate(self) -> None:
        alive = []
        for setter, text in self._bound:
            try:
                setter(text())
            except RuntimeError:  # its widget was deleted: forget it
                continue
            alive.append((setter, text))
        self._bound = alive


def switch_language(window, lang: str):
    """Show ``window`` (a main window) in ``lang`` without rebuilding it: the translators change and
    the window translates its texts in place (:meth:`retranslate`), so the scenario, the pin, the
    docks, the zoom and every other state stay as they are. The choice is saved in the settings.
    Returns ``window``."""
    if lang == current_language():
        return window
    set_language(lang)
    settings = window.settings
    if settings is not None:
        settings.setValue(SETTINGS_KEY, lang)
    window.retranslate()
    return window


def apply_saved_language(settings) -> None:
    """At start-up: the language the user chose last time (English by default)."""
    lang = settings.value(SETTINGS_KEY) if settings is not None else None
    if isinstance(lang, str) and lang in LANGUAGES and lang != current_language():
        set_language(lang)


__all__ = ["LANGUAGES", "QT_TRANSLATE_NOOP", "Texts", "apply_saved_language", "current_language", "fmt_money", "fmt_number",
           "fmt_percent", "fmt_sig",
           "is_chinese", "locale", "set_language", "switch_language", "translate"]
