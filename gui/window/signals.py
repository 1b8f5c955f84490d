"""The session as one Qt signal: :class:`SessionSignals` wraps a :class:`gui.present.session.Session`
and emits ``changed(names)`` once per change (a batch of changes is one), with the names of the values
that changed. A view binds to the values it shows with :meth:`SessionSignals.on` and reads them from
the session (``state``).
"""

from __future__ import annotations

from typing import Callable, Iterable

from PySide6 import QtCore

from gui.present.session import Session


class SessionSignals(QtCore.QObject):
    """The Qt signal of a :class:`Session`; ``state`` is the session itself (read values there)."""

    changed = QtCore.Signal(object)  # frozenset: the names of the values that changed

    def __init__(self, state: Session, parent: QtCore.QObject | None = None):
        super().__init__(parent)
        self.state = state
        unsubscribe = state.subscribe(self.changed.emit)
        self.destroyed.connect(lambda *_: unsubscribe())

    def on(self, names: Iterable[str], slot: Callable[[], None], *, receiver: QtCore.QObject | None = None) -> None:
        """Call ``slot()`` whenever one of ``names`` changes (once per change however many of them did);
        with ``receiver``, only while that object lives."""
        wanted = frozenset(names)
        unknown = wanted - frozenset(self.state.fields())
        if unknown:
            raise ValueError(f"session field {sorted(unknown)[0]!r}: one of {', '.join(self.state.fields())}")

        def heard(changed: frozenset) -> None:
            if not wanted.isdisjoint(changed):
                slot()

        if receiver is None:
            self.changed.connect(heard)
        else:
            self.changed.connect(heard, QtCore.Qt.ConnectionType.DirectConnection)
            receiver.destroyed.connect(lambda *_: _disconnect(self.changed, heard))


def _disconnect(signal, slot) -> None:
    try:
        signal.disconnect(slot)
    except (RuntimeError, TypeError):  # already gone with its sender
        pass


__all__ = ["Session", "SessionSignals"]
