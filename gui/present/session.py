"""The explorer's session, without Qt: everything one window shows that is not a widget's own.

Each value is declared once, as a :class:`Field` of :class:`Session` (its default and how a new value
is read); the field names (:func:`Session.fields`), the attribute, the change check and the
notification all follow from that one line:

- ``scenario``: what the engine evaluates now; ``loaded``: the scenario as loaded or last
  saved (what "edited" compares with); ``source_path``: the file it came from;
- ``x_field``: the sweep's x-axis; the fabric in focus and the profile set are the scenario's
  own (:attr:`Session.focus`, :attr:`Session.profile_set`);
- ``pin``: the snapshot pinned as A (``pinned_at`` the time it was pinned), ``bands_on``: the
  uncertainty bands shown, ``tco_baseline``: the fabric the TCO is measured from (``None``: the
  default, :data:`model.recommend.BASELINE_FABRIC`), ``dragging``: a slider is held (the live path).

A change calls every subscriber once with the names that changed (a ``frozenset``; nothing when
the value is the same); ``with session.batch():`` gathers the changes made inside it into one call.
The window and its views follow the session instead of each other: :mod:`gui.window.signals` turns
the calls into one Qt signal. What the views draw over a snapshot (bands, pin, baseline) they read as
one :class:`Overlays` value (:attr:`Session.overlays`).
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any, Callable

DEFAULT_X_FIELD = "cluster.nodes"


class Field:
    """One value of a :class:`Session`: ``Field(default, read=…, identity=…)``. Reading gives the value;
    setting it (``session.x = v``) goes through :meth:`Session.update`. ``read`` turns what is set into
    the value kept (``bool``, ``None`` for an empty choice); ``identity``: a new object is a change even
    when it compares equal (a snapshot holds arrays)."""

    def __init__(self, default: Any = None, *, read: Callable[[Any], Any] | None = None, identity: bool = False):
        self.default, self.read, self.identity = default, read, identity
        self.name = ""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name
        owner._fields = {**getattr(owner, "_fields", {}), name: self}

    def __get__(self, obj, owner=None):
        return self if obj is None else obj._values[self.name]

    def __set__(self, obj, value) -> None:
        obj.update(**{self.name: value})

    def differs(self, old, new) -> bool:
        return old is not new if self.identity else not _same(old, new)


@dataclasses.dataclass(frozen=True, eq=False)
class Overlays:
    """What the views draw over a snapshot, as one value: the uncertainty bands shown, the snapshot pinned
    as A (and when), the fabric the TCO is measured from (``None``: the default). Two are equal when they pin
    the same snapshot (by identity: a snapshot holds arrays) and agree on the rest."""

    bands_on: bool = False
    pin: Any = None
    pinned_at: str = ""
    tco_baseline: str | None = None

    def __eq__(self, other) -> bool:
        if not isinstance(other, Overlays):
            return NotImplemented
        return (self.pin is other.pin and self.bands_on == other.bands_on and self.pinned_at == other.pinned_at
                and self.tco_baseline == other.tco_baseline)

    def __hash__(self) -> int:
        return hash((self.bands_on, id(self.pin), self.pinned_at, self.tco_baseline))


class Session:
    """The state of one explorer window; :meth:`subscribe` to hear what changed."""

    _fields: dict[str, Field]
    scenario = Field()
    loaded = Field()
    source_path = Field()
    x_field = Field(DEFAULT_X_FIELD)
    pin = Field(identity=True)
    pinned_at = Field("")
    bands_on = Field(False, read=bool)
    tco_baseline = Field(read=lambda v: v or None)
    dragging = Field(False, read=bool)

    def __init__(self, scenario, *, loaded=None, source_path: str | None = None, x_field: str = DEFAULT_X_FIELD):
        self._values: dict[str, Any] = {name: f.default for name, f in self._fields.items()}
        self._values.update(scenario=scenario, loaded=scenario if loaded is None else loaded,
                            source_path=source_path, x_field=x_field)
        self._listeners: list[Callable[[frozenset], None]] = []
        self._held: list[str] | None = None  # the names changed inside a batch, in order

    @classmethod
    def fields(cls) -> tuple[str, ...]:
        """The session's values, in the order declared."""
        return tuple(cls._fields)

    # -- listening -------------------------------------------------------------------
    def subscribe(self, listener: Callable[[frozenset], None]) -> Callable[[], None]:
        """Call ``listener(names)`` after every change; returns the function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    @contextlib.contextmanager
    def batch(self):
        """Changes made inside are heard once, together, when the outermost batch ends."""
        if self._held is not None:
            yield self
            return
        self._held = []
        try:
            yield self
        finally:
            names, self._held = frozenset(self._held), None
            for listener in list(self._listeners) if names else ():
                listener(names)

    def update(self, **changes) -> frozenset:
        """Set several values at once (one notification); returns the names that changed."""
        fields = self._fields
        unknown = [k for k in changes if k not in fields]
        if unknown:
            raise ValueError(f"session field {unknown[0]!r}: one of {', '.join(fields)}")
        changed = []
        for k, v in changes.items():
            f = fields[k]
            v = f.read(v) if f.read is not None else v
            if f.differs(self._values[k], v):
                self._values[k] = v
                changed.append(k)
        if not changed:
            return frozenset()
        names = frozenset(changed)
        if self._held is not None:
            self._held.extend(changed)
        else:
            for listener in list(self._listeners):
                listener(names)
        return names

    def get(self, name: str):
        return self._values[name]

    # -- what follows from them ----------------------------------------------------------
    @property
    def overlays(self) -> Overlays:
        """The bands, the pin and the TCO baseline, as the views draw them."""
        v = self._values
        return Overlays(v["bands_on"], v["pin"], v["pinned_at"], v["tco_baseline"])

    @property
    def focus(self) -> str:
        """The fabric in focus (the scenario's ``fabric.focus``)."""
        return self._values["scenario"].fabric.focus_fabric

    @property
    def profile_set(self) -> str:
        return self._values["scenario"].fabric.profile_set

    @property
    def edited(self) -> bool:
        """The scenario differs from the one loaded."""
        return self._values["scenario"] != self._values["loaded"]

    def is_edited(self, path: str) -> bool:
        """The field at dotted ``path`` differs from its value in the loaded scenario (False where
        either has no such field)."""
        v = self._values
        try:
            return v["scenario"].get(path) != v["loaded"].get(path)
        except (AttributeError, KeyError, ValueError):
            return False


OVERLAY_FIELDS = frozenset(f.name for f in dataclasses.fields(Overlays))
FIELDS = Session.fields()


def _same(a, b) -> bool:
    if a is b:
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # values that do not compare (arrays inside a snapshot): changed
        return False


__all__ = ["DEFAULT_X_FIELD", "FIELDS", "OVERLAY_FIELDS", "Field", "Overlays", "Session"]
