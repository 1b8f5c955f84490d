"""The engine's one error type.

Every problem with user input (a scenario file, a command-line value, a GUI
field) becomes a :class:`ScenarioError` that names the field, the value and
what is allowed, so that the CLI can print one line and the GUI one message.
"""

from __future__ import annotations

import difflib
import reprlib

# repr of the offending value, bounded in depth and length: a value nested 500 deep (a hostile
# file) must not raise RecursionError while its own error message is built
_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = 76
_REPR.maxother = 60


def shown_value(value: object) -> str:
    """The value as an error message shows it: a bounded, one-line ``repr``."""
    try:
        shown = _REPR.repr(value)
    except (RecursionError, ValueError):  # ValueError: an int too long to print
        shown = f"<{type(value).__name__}>"
    shown = shown.replace("\n", " ")
    return shown if len(shown) <= 80 else shown[:77] + "..."


class ScenarioError(ValueError):
    """Bad input, with the field, the value and what is allowed.

    Parameters
    ----------
    field : str
        Dotted name of the field, e.g. ``"cluster.nodes"``; a file path for
        problems with a whole file.
    value : object
        The offending value (shown with ``repr``).
    allowed : str
        What would have been accepted.
    """

    def __init__(self, field: str, value: object, allowed: str, *, source: str | None = None):
        self.field = field
        self.value = value
        self.allowed = allowed
        self.source = source
        shown = shown_value(value)
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{field} = {shown}: {allowed}")

    def with_source(self, source: str) -> "ScenarioError":
        return ScenarioError(self.field, self.value, self.allowed, source=source)


def suggest(name: str, choices) -> str:
    """A 'did you mean' clause for a near miss, or an empty string."""
    close = difflib.get_close_matches(str(name), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


# What an evaluation can raise besides ScenarioError when a scenario reaches a corner the validation did not
# foresee (an empty plan search, an overflow, a huge array): turned into one named line by
# :func:`evaluation_error`, so the command line exits 2 and the window shows a message instead of a traceback.
EVALUATION_FAILURES = (ScenarioError, ArithmeticError, IndexError, KeyError, TypeError, ValueError, RecursionError,
                       MemoryError)


def evaluation_error(err: BaseException, source: str | None = None) -> ScenarioError:
    """``err`` (one of :data:`EVALUATION_FAILURES`) as a :class:`ScenarioError` (one already is: unchanged)."""
    if isinstance(err, ScenarioError):
        return err
    detail = shown_value(str(err)).strip("'\"") if str(err) else ""
    return ScenarioError("scenario", type(err).__name__,
                         "a scenario the engine can evaluate" + (f" ({detail})" if detail else "")
                         + "; please report this file", source=source)
