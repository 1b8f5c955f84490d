"""A scenario field's metadata and the check of one value against it.

:func:`F` declares a dataclass field with its unit, limits, choices, label and help
text; :func:`field_meta` reads them back (the GUI builds its controls from them) and
:func:`validate_value` checks one value against its field's type and limits, with a
message naming the field, the value and what is allowed. :func:`check_plain_text`
bounds names and labels to one line of plain text. The sections themselves are
:mod:`model.sections`; the scenario built from them, :mod:`model.scenario`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import types
import typing
from dataclasses import field

from .errors import ScenarioError, suggest


def F(default, *, unit="", lo=None, hi=None, lo_open=False, choices=None, help="", label=None, inf_ok=False):
    """A dataclass field with its unit, limits and help text (``inf_ok``: infinity is allowed above ``hi``)."""
    return field(default=default, metadata=dict(unit=unit, lo=lo, hi=hi, lo_open=lo_open, choices=choices,
                                                help=help, label=label, inf_ok=inf_ok))


def field_meta(cls: type, name: str) -> dict:
    return dict(_field_info(cls, name)[0])


@functools.lru_cache(maxsize=None)
def _field_info(cls: type, name: str) -> tuple:
    """(metadata, accepted types) of one field; cached, as every edit validates through it."""
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    return f.metadata, _base_types(f.type)


@functools.lru_cache(maxsize=None)
def field_names(cls: type) -> tuple:
    return tuple(f.name for f in dataclasses.fields(cls))


def _base_types(tp) -> tuple:
    if isinstance(tp, str):
        tp = eval(tp, vars(typing) | {"tuple": tuple})  # noqa: S307 - our own annotations only
    if isinstance(tp, types.UnionType) or typing.get_origin(tp) is typing.Union:
        return tuple(t for t in typing.get_args(tp))
    return (tp,)


def _describe(meta: dict, kinds: tuple) -> str:
    names = [k.__name__ if isinstance(k, type) else str(k) for k in kinds if k is not type(None)]
    if meta.get("choices"):
        return "one of " + ", ".join(str(c) for c in meta["choices"])
    lo, hi, unit = meta.get("lo"), meta.get("hi"), meta.get("unit")
    rng = ""
    if lo is not None and hi is not None:
        rng = f" from {lo} to {hi}" + (" (above the lower bound)" if meta.get("lo_open") else "")
    elif lo is not None:
        rng = (" above " if meta.get("lo_open") else " at least ") + str(lo)
    kind = " or ".join("a number" if n == "float" else "a whole number" if n == "int" else
                       "true/false" if n == "bool" else "text" for n in names)
    return kind + rng + (" or inf" if meta.get("inf_ok") else "") + (f" [{unit}]" if unit else "")


def validate_value(cls: type, name: str, value, path: str):
    """Check one value against its field's type and limits; return it normalised."""
    meta, kinds = _field_info(cls, name)
    if value is None:
        if type(None) in kinds:
            return None
        raise ScenarioError(path, value, "a value is required: " + _describe(meta, kinds))
    if name == "nics_per_node" and value == "per_gpu":
        return value
    if bool in kinds:
        if isinstance(value, bool):
            return value
        raise ScenarioError(path, value, "true or false")
    if str in kinds and isinstance(value, str):
        if meta.get("choices") and value not in meta["choices"]:
            raise ScenarioError(path, value, _describe(meta, kinds) + suggest(value, meta["choices"]))
        return check_plain_text(path, value, MAX_LABEL_CHARS)
    if int in kinds and float not in kinds:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                isinstance(value, float) and (not math.isfinite(value) or value != int(value))):
            raise ScenarioError(path, value, _describe(meta, kinds))
        value = int(value)
    elif float in kinds:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            raise ScenarioError(path, value, _describe(meta, kinds))
        value = float(value)
    else:
        raise ScenarioError(path, value, _describe(meta, kinds))
    lo, hi = meta.get("lo"), meta.get("hi")
    if lo is not None and (value < lo or (meta.get("lo_open") and value <= lo)):
        raise ScenarioError(path, value, _describe(meta, kinds))
    if hi is not None and value > hi and not (meta.get("inf_ok") and value == math.inf):
        raise ScenarioError(path, value, _describe(meta, kinds))
    return value


# Names and labels are shown in legends, tables, exports and terminals: one line of plain text, short enough
# for a legend (design limits of this tool)
MAX_NAME_CHARS = 200
MAX_LABEL_CHARS = 80
MAX_FABRIC_NAME_CHARS = MAX_LABEL_CHARS  # a fabric without a label is shown by its name
_CONTROL_CHARS = frozenset(chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))) | frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")  # C0, C1, bidirectional overrides


def check_plain_text(path: str, value: str, max_chars: int, allow: str = "") -> str:
    """``value`` when it is plain text of at most ``max_chars`` characters without control characters
    (escape sequences, bidirectional overrides; ``allow`` lists exceptions), else a :class:`ScenarioError`."""
    if len(value) > max_chars:
        raise ScenarioError(path, value, f"text of at most {max_chars} characters")
    bad = next((c for c in value if c in _CONTROL_CHARS and c not in allow), None)
    if bad is not None:
        raise ScenarioError(path, value, f"plain text without control characters (found U+{ord(bad):04X})")
    return value
