"""The analysis docks under the charts: sensitivity (tornado), break-even and A/B compare, tabbed.

Their panels are built the first time a dock is shown (start-up stays fast) and built again after
a language switch (a panel is a view of the settled results, it keeps no state of its own)."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ..i18n import translate

DOCK_TITLES = {"tornadoDock": lambda: translate("Features", "Sensitivity (tornado)"),
               "breakEvenDock": lambda: translate("Features", "Break-even"),
               "compareDock": lambda: translate("Features", "A/B compare")}
DOCK_MAX_HEIGHT = 300  # a dock opened the first time takes at most this [px]; the charts keep the rest


class AnalysisDocks(QtCore.QObject):
    """The three docks of ``window``; ``panelMade(panel)`` when a panel is built (to style it),
    ``shown(name)`` when a dock is shown."""

    panelMade = QtCore.Signal(object)
    shown = QtCore.Signal(str)

    def __init__(self, window, makers: dict):
        super().__init__(window)
        self.window = window
        self._makers = makers  # dock name -> function making its panel
        self._panels: dict[str, QtWidgets.QWidget] = {}
        self._sized: set[str] = set()
        self.docks = {name: self._dock(name) for name in DOCK_TITLES}
        self.tornado_dock, self.breakeven_dock, self.compare_dock = self.docks.values()
        window.tabifyDockWidget(self.tornado_dock, self.breakeven_dock)
        window.tabifyDockWidget(self.breakeven_dock, self.compare_dock)

    def _dock(self, name: str) -> QtWidgets.QDockWidget:
        d = QtWidgets.QDockWidget(DOCK_TITLES[name](), self.window)
        d.setObjectName(name)
        d.setAllowedAreas(QtCore.Qt.DockWidgetArea.BottomDockWidgetArea | QtCore.Qt.DockWidgetArea.TopDockWidgetArea
                          | QtCore.Qt.DockWidgetArea.RightDockWidgetArea)
        self.window.addDockWidget(QtCore.Qt.DockWidgetArea.BottomDockWidgetArea, d)
        d.hide()
        d.visibilityChanged.connect(lambda vis, n=name: vis and self._shown(n))
        return d

    def _shown(self, name: str) -> None:
        self.panel(name)
        if name not in self._sized:  # first time: at most DOCK_MAX_HEIGHT, the charts keep the rest
            self._sized.add(name)
            self.window.resizeDocks([self.docks[name]], [min(DOCK_MAX_HEIGHT, max(200, self.window.height() // 3))],
                                    QtCore.Qt.Orientation.Vertical)
        self.shown.emit(name)

    def panel(self, name: str):
        """The dock's panel, built on first use."""
        panel = self._panels.get(name)
        if panel is None:
            panel = self._makers[name]()
            self._panels[name] = panel
            self.docks[name].setWidget(panel)
            self.panelMade.emit(panel)
        return panel

    def built(self, name: str):
        """The dock's panel if it was built, else None."""
        return self._panels.get(name)

    def panels(self):
        return list(self._panels.values())

    def retranslate(self) -> None:
        """Dock titles in the current language; the panels built so far are built again."""
        for name, dock in self.docks.items():
            dock.setWindowTitle(DOCK_TITLES[name]())
        for name in list(self._panels):
            old = self._panels.pop(name)
            self.panel(name)
            old.deleteLater()


__all__ = ["AnalysisDocks", "DOCK_TITLES"]
