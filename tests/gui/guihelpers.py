"""Helpers shared by the GUI tests."""

from __future__ import annotations

import numpy as np


def settle(win) -> None:
    """Run the coalesced recompute now (what the event loop does after a burst of edits)."""
    if win.controller.pending:
        win.controller.recompute_now()


def curve_y(win, kind: str, fabric: str) -> np.ndarray:
    return np.asarray(win.charts[kind].curves[fabric].getData()[1], dtype=float)


def marker_xy(win, kind: str):
    x, y = win.charts[kind].marker.getOriginalDataset()
    return (np.array([] if x is None else x, dtype=float), np.array([] if y is None else y, dtype=float))
