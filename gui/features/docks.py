"""The analysis docks under the charts: sensitivity (tornado), break-even and A/B compare, tabbed.

Their panels are built the first time a dock is shown (start-up stays fast) and built again after
a language switch (a panel is a view of the settled results, it keeps no state of its own)."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gui.i18n import translate

DOCK_TITLES = {"tornadoDock": lambda: translate("Features", "Sensitivity (tornado)"),
               "breakEvenDock": lambda: translate("Features", "Break-even"),
               "compareDock": lambda: translate("Features", "A/B compare")}
DOCK_SHORTCUTS = {"tornadoDock": "Ctrl+Shift+T", "breakEvenDock": "Ctrl+Shift+E", "compareDock": "Ctrl+Shift+C"}
DOCK_MIN_HEIGHT = 160  # a dock is never squeezed below this [px]: its chart keeps a readable plot


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

    def show_dock(self, name: str) -> QtWidgets.QDockWidget:
        """Show the dock ``name`` and bring it to the front of its tab group; never hides it (its shortcut
        pressed again, or in the middle of a demo, leaves it where it is). Closing is the dock's own button."""
        dock = self.docks[name]
        dock.show()
        dock.raise_()
        return dock

    def fit_height(self, name: str) -> None:
        """The dock's height from its panel's wish, the charts above it keeping their minimum: the panel's
        size hint, at least :data:`DOCK_MIN_HEIGHT`, at most what the charts leave."""
        dock = self.docks[name]
        panel = self._panels.get(name)
        w = self.window
        central = w.centralWidget()
        if panel is None or central is None or w.dockWidgetArea(dock) not in (
                QtCore.Qt.DockWidgetArea.BottomDockWidgetArea, QtCore.Qt.DockWidgetArea.TopDockWidgetArea):
            return
        room = central.height() + (dock.height() if dock.isVisible() else 0) - w.charts_min_height()
        want = panel.sizeHint().height() + (dock.height() - panel.height() if panel.height() > 0 else 24)
        height = max(DOCK_MIN_HEIGHT, min(want, room))
        w.resizeDocks([dock], [height], QtCore.Qt.Orientation.Vertical)

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
        self.shown.emit(name)  # the panel draws the current results: its size hint is its content's
        if name not in self._sized:  # first time: the panel's height, the charts keep their minimum
            self._sized.add(name)
            self.fit_height(name)
            QtCore.QTimer.singleShot(0, self, lambda: self.fit_height(name))  # again once the dock is laid out

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


__all__ = ["AnalysisDocks", "DOCK_MIN_HEIGHT", "DOCK_SHORTCUTS", "DOCK_TITLES"]
