"""The session as Qt signals: :class:`SessionSignals` wraps a :class:`gui.present.session.Session`
and emits one signal per value that changed, so the window and its views connect to what they
show (``pinChanged``, ``tcoBaselineChanged`` …) and read the values from the session.
"""

from __future__ import annotations

from PySide6 import QtCore

from gui.present.session import FIELDS, Session

SIGNAL_OF = {"scenario": "scenarioChanged", "loaded": "loadedChanged", "source_path": "sourceChanged",
             "x_field": "xFieldChanged", "pin": "pinChanged", "pinned_at": "pinChanged",
             "bands_on": "bandsChanged", "tco_baseline": "tcoBaselineChanged", "dragging": "draggingChanged"}
assert set(SIGNAL_OF) == set(FIELDS)


class SessionSignals(QtCore.QObject):
    """Qt signals for a :class:`Session`; ``state`` is the session itself (read values there)."""

    scenarioChanged = QtCore.Signal()
    loadedChanged = QtCore.Signal()
    sourceChanged = QtCore.Signal()
    xFieldChanged = QtCore.Signal()
    pinChanged = QtCore.Signal()
    bandsChanged = QtCore.Signal()
    tcoBaselineChanged = QtCore.Signal()
    draggingChanged = QtCore.Signal()
    changed = QtCore.Signal(str)  # the name of any value that changed

    def __init__(self, state: Session, parent: QtCore.QObject | None = None):
        super().__init__(parent)
        self.state = state
        unsubscribe = state.subscribe(self._emit)
        self.destroyed.connect(lambda *_: unsubscribe())

    def _emit(self, name: str) -> None:
        getattr(self, SIGNAL_OF[name]).emit()
        self.changed.emit(name)


__all__ = ["Session", "SessionSignals"]
