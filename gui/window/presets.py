"""The presets: the case studies and scale tiers in ``assets/presets``, as a menu grouped by kind."""

from __future__ import annotations

import functools
from pathlib import Path

from PySide6 import QtGui, QtWidgets

import model
from model import catalog
from model import presets as presets_mod

from gui.i18n_data import tr_data, tr_description, tr_name
from gui.panels.recommendation import preset_name_for

PRESETS_DIR = catalog.ASSETS_DIR / "presets"
DEFAULT_PRESET = presets_mod.preset_path(presets_mod.DEFAULT_PRESET)  # Case 2, the article's default
GROUPS = ("Case studies", "Scale tiers", "Other")  # translated where shown (tr_data)


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
    return "Case studies" if name.startswith("case") else "Scale tiers"


def fill_presets_menu(menu: QtWidgets.QMenu, load, texts) -> dict[str, QtGui.QAction]:
    """One action per preset in ``menu`` under its group's heading; ``load(path)`` when chosen.
    Names and descriptions are bound in ``texts`` (a :class:`gui.i18n.Texts`). Returns path -> action."""
    actions: dict[str, QtGui.QAction] = {}
    groups: dict[str, list] = {}
    for name, path in list_presets():
        groups.setdefault(preset_group(path), []).append((name, path))
    for gi, group in enumerate(GROUPS):
        items = groups.get(group)
        if not items:
            continue
        if gi and menu.actions():
            menu.addSeparator()
        head = menu.addAction("")
        texts.bind(head.setText, lambda g=group: tr_data(g))
        head.setEnabled(False)
        for name, path in items:
            act = menu.addAction("")
            act.setData(str(path))
            desc = preset_description(path)
            texts.bind(act.setText, lambda n=name: tr_name(n))
            texts.bind(act.setToolTip, lambda d=desc, p=path: tr_description(d)
                       or str(p.relative_to(catalog.ASSETS_DIR.parent)))
            texts.bind(act.setStatusTip, lambda d=desc: tr_description(d))
            act.triggered.connect(lambda _=False, p=path: load(p))
            actions[str(path)] = act
    return actions


__all__ = ["DEFAULT_PRESET", "PRESETS_DIR", "fill_presets_menu", "list_presets", "preset_description",
           "preset_group"]
