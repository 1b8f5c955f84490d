"""Helpers shared by the GUI tests."""

from __future__ import annotations

import numpy as np
from PySide6 import QtGui, QtWidgets


def settle(win) -> None:
    """Run the coalesced recompute now (what the event loop does after a burst of edits), and draw what a
    chart in a hidden tab held back (what the settle clock does next)."""
    if win.controller.pending:
        win.controller.recompute_now()
    for chart in win.charts.values():
        chart.catch_up()


def curve_y(win, kind: str, fabric: str) -> np.ndarray:
    return np.asarray(win.charts[kind].curves[fabric].getData()[1], dtype=float)


def marker_xy(win, kind: str):
    x, y = win.charts[kind].marker.getOriginalDataset()
    return (np.array([] if x is None else x, dtype=float), np.array([] if y is None else y, dtype=float))


def axis_text_specs(axis) -> list:
    """``(rect, text)`` of each tick label the axis draws (its draw specs, as its paint uses them), once
    laid out."""
    QtWidgets.QApplication.processEvents()
    image = QtGui.QImage(max(int(axis.width()), 1), max(int(axis.height()), 1), QtGui.QImage.Format.Format_ARGB32)
    painter = QtGui.QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(rect, text) for rect, _, text in specs[2]] if specs else []
