"""What the two nccl-tests dialogs (calibrate, predict) show alike: transports and message sizes.

A transport as the window names it (:func:`transport_name`, translated, never its internal
id), a message size as nccl-tests users say it (:func:`size_text`) and a log axis of
message sizes with ticks at powers of two (:class:`SizeAxis`).
"""

from __future__ import annotations

import math

import pyqtgraph as pg

from gui.i18n import QT_TRANSLATE_NOOP, translate

TRANSPORTS = ("tcp", "roce", "iwarp", "infiniband")
TRANSPORT_NAMES = {"tcp": QT_TRANSLATE_NOOP("CalibrateDialog", "Ethernet (TCP)"), "roce": "RoCE", "iwarp": "iWARP",
                   "infiniband": "InfiniBand"}  # names, translated where shown


def transport_name(transport: str) -> str:
    """A transport as the window names it (never its internal id)."""
    return translate("CalibrateDialog", TRANSPORT_NAMES.get(transport, transport))


def size_text(b: float) -> str:
    for scale, unit in ((2 ** 30, "GiB"), (2 ** 20, "MiB"), (2 ** 10, "KiB")):
        if b >= scale:
            return f"{b / scale:g} {unit}"
    return f"{b:g} B"


class SizeAxis(pg.AxisItem):
    """Message sizes in B/KiB/MiB/GiB on a log axis, ticks at powers of two."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.enableAutoSIPrefix(False)

    def tickValues(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph name)
        lo, hi = math.floor(minVal / math.log10(2)), math.ceil(maxVal / math.log10(2))
        span = max(hi - lo, 1)
        step = next(s for s in (1, 2, 4, 5, 10, 20) if span / s <= max(size / 90, 2))
        major = [k * math.log10(2) for k in range(lo - lo % step, hi + 1, step)
                 if minVal <= k * math.log10(2) <= maxVal]
        return [(step * math.log10(2), major)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph name)
        return [size_text(round(10 ** v)) for v in values]
