"""The explorer's session, without Qt: everything one window shows that is not a widget's own.

- ``scenario``: what the engine evaluates now; ``loaded``: the scenario as loaded or last
  saved (what "edited" compares with); ``source_path``: the file it came from;
- ``x_field``: the sweep's x-axis; the fabric in focus and the profile set are the scenario's
  own (:attr:`Session.focus`, :attr:`Session.profile_set`);
- ``pin``: the snapshot pinned as A (``pinned_at`` the time it was pinned), ``bands_on``: the
  uncertainty bands shown, ``tco_baseline``: the fabric the TCO is measured from (``None``: the
  default, :data:`model.recommend.BASELINE_FABRIC`), ``dragging``: a slider is held (the live path).

Changing a value calls every subscriber with the value's name (and nothing when the value is the
same), so a window and its views follow the session instead of each other; :mod:`gui.window.signals`
turns these calls into Qt signals.
"""

from __future__ import annotations

from typing import Any, Callable

FIELDS = ("scenario", "loaded", "source_path", "x_field", "pin", "pinned_at", "bands_on", "tco_baseline",
          "dragging")
IDENTITY_FIELDS = ("pin",)  # a snapshot holds arrays: a new pin is a new object
DEFAULT_X_FIELD = "cluster.nodes"


class Session:
    """The state of one explorer window; :meth:`subscribe` to hear what changed."""

    def __init__(self, scenario, *, loaded=None, source_path: str | None = None, x_field: str = DEFAULT_X_FIELD):
        self._values: dict[str, Any] = dict(scenario=scenario, loaded=scenario if loaded is None else loaded,
                                            source_path=source_path, x_field=x_field, pin=None, pinned_at="",
                                            bands_on=False, tco_baseline=None, dragging=False)
        self._listeners: list[Callable[[str], None]] = []

    # -- listening -------------------------------------------------------------------
    def subscribe(self, listener: Callable[[str], None]) -> Callable[[], None]:
        """Call ``listener(name)`` after every change; returns the function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def update(self, **changes) -> tuple[str, ...]:
        """Set several values at once; the subscribers hear each changed one (in the order given)
        after all are set. Returns the names that changed."""
        unknown = [k for k in changes if k not in FIELDS]
        if unknown:
            raise ValueError(f"session field {unknown[0]!r}: one of {', '.join(FIELDS)}")
        changed = tuple(k for k, v in changes.items()
                        if not (self._values[k] is v if k in IDENTITY_FIELDS else _same(self._values[k], v)))
        for k in changed:
            self._values[k] = changes[k]
        for k in changed:
            for listener in list(self._listeners):
                listener(k)
        return changed

    def get(self, name: str):
        return self._values[name]

    # -- the values --------------------------------------------------------------------
    scenario = property(lambda self: self._values["scenario"], lambda self, v: self.update(scenario=v))
    loaded = property(lambda self: self._values["loaded"], lambda self, v: self.update(loaded=v))
    source_path = property(lambda self: self._values["source_path"], lambda self, v: self.update(source_path=v))
    x_field = property(lambda self: self._values["x_field"], lambda self, v: self.update(x_field=v))
    pin = property(lambda self: self._values["pin"], lambda self, v: self.update(pin=v))
    pinned_at = property(lambda self: self._values["pinned_at"], lambda self, v: self.update(pinned_at=v))
    bands_on = property(lambda self: self._values["bands_on"], lambda self, v: self.update(bands_on=bool(v)))
    tco_baseline = property(lambda self: self._values["tco_baseline"],
                            lambda self, v: self.update(tco_baseline=v or None))
    dragging = property(lambda self: self._values["dragging"], lambda self, v: self.update(dragging=bool(v)))

    # -- what follows from them ----------------------------------------------------------
    @property
    def focus(self) -> str:
        """The fabric in focus (the scenario's ``fabric.focus``)."""
        return self.scenario.fabric.focus_fabric

    @property
    def profile_set(self) -> str:
        return self.scenario.fabric.profile_set

    @property
    def edited(self) -> bool:
        """The scenario differs from the one loaded."""
        return self.scenario != self.loaded

    def is_edited(self, path: str) -> bool:
        """The field at dotted ``path`` differs from its value in the loaded scenario (False where
        either has no such field)."""
        try:
            return self.scenario.get(path) != self.loaded.get(path)
        except (AttributeError, KeyError, ValueError):
            return False


def _same(a, b) -> bool:
    if a is b:
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # values that do not compare (arrays inside a snapshot): changed
        return False


__all__ = ["DEFAULT_X_FIELD", "FIELDS", "Session"]
