"""What the window keeps between sessions in its settings: size, docks, splitter, x-axis, and the
scenario with the one it was loaded as and its source (the autosave, :mod:`gui.system.autosave`, keeps
newer edits)."""

from __future__ import annotations

from PySide6 import QtCore

import model

from gui.window.controller import X_FIELDS
from gui.system.settings import set_aside_scenario


def _bytes(settings, key: str) -> QtCore.QByteArray | None:
    v = settings.value(key)
    return QtCore.QByteArray(v) if isinstance(v, (QtCore.QByteArray, bytes)) and len(v) else None


def restore_window(window) -> None:
    """``window``'s size, docks, splitter and x-axis from its settings (nothing without settings)."""
    st = window.settings
    if st is None:
        return
    for key, restore in (("window/geometry", window.restoreGeometry), ("window/state", window.restoreState),
                         ("window/splitter", window.splitter.restoreState)):
        data = _bytes(st, key)
        if data is not None:
            restore(data)
    xf = st.value("view/x_field")
    if isinstance(xf, str) and xf in X_FIELDS:
        window.controller.set_x_field(xf)


def save_window(window) -> None:
    st = window.settings
    if st is None:
        return
    st.setValue("window/geometry", window.saveGeometry())
    st.setValue("window/state", window.saveState())
    st.setValue("window/splitter", window.splitter.saveState())
    st.setValue("view/x_field", window.controller.x_field)
    st.setValue("scenario/toml", model.scenario_to_toml(window.controller.scenario))
    st.setValue("scenario/loaded_toml", model.scenario_to_toml(window.loaded_scenario))
    st.setValue("scenario/source", window.controller.source_path or "")
    st.sync()


def restore_scenario(settings: QtCore.QSettings) -> tuple[model.Scenario | None, model.Scenario | None, str | None]:
    """The last session's scenario (and the one it was loaded as) from ``settings``, if valid."""
    text = settings.value("scenario/toml")
    if not isinstance(text, str) or not text.strip():
        return None, None, None
    try:
        s = model.parse_scenario_text(text, source="last session")
    except model.ScenarioError:
        set_aside_scenario(settings)
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


__all__ = ["restore_scenario", "restore_window", "save_window"]
