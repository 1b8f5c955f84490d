"""Translated text without importing Qt.

Visible strings are written ``translate("Context", "text")`` (``pyside6-lupdate`` finds
them by that name) and marked for later with ``QT_TRANSLATE_NOOP``. Only Qt can install
a translator (:func:`gui.i18n.set_language` loads the ``.qm`` catalogue), so: when Qt is
loaded, :func:`translate` asks ``QCoreApplication.translate``; when it is not (the
headless command line, the CSV export), nothing can have been installed and the source
(English) text is the text. This module never imports Qt itself.
"""

from __future__ import annotations

import sys

import numpy as np

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}  # the app's languages, native names (shown untranslated)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 (the name lupdate looks for)
    """Mark ``text`` for translation in ``context``; translated where it is shown."""
    return text


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``text`` in the current language (``QCoreApplication.translate`` when Qt is loaded)."""
    qtcore = sys.modules.get("PySide6.QtCore")
    if qtcore is None:
        return text
    return qtcore.QCoreApplication.translate(context, text, disambiguation, n)


# the profile sets as a customer knows them (the ids stay in files, on the command line and in JSON)
PROFILE_SET_NAMES = {
    "seed": QT_TRANSLATE_NOOP("ProfileSet", "Article's inputs"),
    "published": QT_TRANSLATE_NOOP("ProfileSet", "Measured (published)"),
}


def profile_set_name(set_id: str) -> str:
    """A profile set's display name in the reader's language ("Article's inputs" for ``seed``); an unknown
    id as it is."""
    text = PROFILE_SET_NAMES.get(set_id)
    return translate("ProfileSet", text) if text else str(set_id)


__all__ = ["LANGUAGES", "PROFILE_SET_NAMES", "QT_TRANSLATE_NOOP", "profile_set_name", "translate"]


def idle_gpus_note(plan) -> str:
    """" · 128 of 192 GPUs (64 idle)" for a :class:`model.results.ParallelPlan` that leaves GPUs idle, else ""
    (appended to the plan line of the point table's tip and of the proposal)."""
    if plan is None or not plan.gpus_idle:
        return ""
    return translate("Plan", " · {used} of {total} GPUs ({idle} idle)").format(
        used=f"{plan.gpus_used:,}", total=f"{plan.gpus_used + plan.gpus_idle:,}", idle=f"{plan.gpus_idle:,}")


def idle_gpus_at(result, fabric: int, point: int) -> str:
    """"64 of 192 GPUs idle" for a sweep result's plan at (``fabric``, ``point``) where it leaves GPUs idle, else
    "" (the chart's hover read-out)."""
    if result is None:
        return ""
    idle, used = (float(np.atleast_2d(a)[fabric, point]) for a in (result.plan.gpus_idle, result.plan.gpus_used))
    if not idle > 0:  # none, or no plan (NaN)
        return ""
    return translate("Plan", "{idle} of {total} GPUs idle").format(idle=f"{idle:,.0f}", total=f"{idle + used:,.0f}")
