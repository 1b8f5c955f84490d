"""View ▸ Language: English or Simplified Chinese, switched in place (:func:`gui.i18n.switch_language`):
the same window translates its texts and keeps its state."""

from __future__ import annotations

from PySide6 import QtCore, QtGui

from gui import i18n


class LanguageMenu(QtCore.QObject):
    """One checkable action per language in ``menu`` (native names, never translated)."""

    def __init__(self, window, menu):
        super().__init__(window)
        self.window = window
        group = QtGui.QActionGroup(self)
        self.actions: dict[str, QtGui.QAction] = {}
        for code, name in i18n.LANGUAGES.items():
            act = menu.addAction(name)
            act.setCheckable(True)
            act.setData(code)
            group.addAction(act)
            act.triggered.connect(lambda _=False, c=code: self.switch(c))
            self.actions[code] = act
        self.sync()

    def switch(self, code: str):
        """Show the window in ``code``; returns the window (the same one)."""
        return i18n.switch_language(self.window, code)

    def sync(self) -> None:
        for code, act in self.actions.items():
            act.setChecked(code == i18n.current_language())


__all__ = ["LanguageMenu"]
