"""P10–P90 uncertainty bands on the three charts.

:class:`BandsOverlay` draws, behind each fabric's curve, a translucent band in the
fabric's colour between the 10th and 90th percentiles of
:func:`model.analysis.monte_carlo` (seeded, so an export is reproducible). Every
fabric is banded (a value the scenario fixes keeps the profile's relative spread);
while bands are shown each chart carries a badge saying so, with the widest band in
per cent of its value (a TCO band thinner than the line then reads as such) and any
fabric without a band and why (:func:`band_badge`).

The Monte-Carlo never runs on the drag path: a new result hides the bands that no
longer match it (one cheap ``hide`` per item), and only when the view has settled
(:class:`gui.features.Features` emits ``settled`` after a quiet interval, never while
a slider is held) is one computation started, in a worker thread so the window stays
responsive. A result that arrives for a scenario the user has since left is dropped.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gui.present.series import CHART_KINDS
from gui.charts.plot_items import DataCurve
from gui.present.bands import BAND_METRICS, SAMPLES, SEED, band_series, compute_bands  # noqa: F401

BAND_ALPHA = 48


def band_badge(bands, kind: str) -> str:
    """What a chart's badge says while its bands are on: 'P10–P90 bands on · widest ±2.5 %', then
    which fabrics have no band and why (plain text)."""
    from gui.i18n import fmt_sig, translate

    metric, _ = BAND_METRICS[kind]
    if metric not in bands.percentiles:
        return ""
    lo, hi = (np.asarray(bands.band(metric, p), dtype=float) for p in (10.0, 90.0))
    nom = np.abs(np.asarray(bands.nominal.metric(metric), dtype=float))
    with np.errstate(invalid="ignore", divide="ignore"):
        rel = (hi - lo) / 2 / nom
    rel = rel[np.isfinite(rel)]
    text = translate("Bands", "P10–P90 bands on ({n} samples) · widest ±{pct} %").format(
        n=f"{bands.samples:,}", pct=fmt_sig(float(rel.max()) * 100 if rel.size else 0.0, 2))
    why = {"swept": translate("Bands", "the x-axis sets its ranged value"),
           "no_range": translate("Bands", "no value of it has a published range")}
    labels = dict(zip(bands.nominal.fabrics, bands.nominal.labels))
    for fabric, reason in (bands.unbanded or {}).items():
        text += "\n" + translate("Bands", "no band for {fabric}: {why}").format(
            fabric=labels.get(fabric, fabric).split(" (")[0], why=why.get(reason, reason))
    return text


def _badge(chart):
    """The chart's 'bands on' badge: a text item fixed to the plot's top-left corner."""
    item = getattr(chart, "_band_badge", None)
    if item is None:
        item = pg.TextItem("", color="#444444", anchor=(0, 0), fill=pg.mkBrush(255, 255, 255, 200))
        item.setParentItem(chart.getPlotItem().vb)  # in the view box's pixels: it stays put when the range moves
        item.setPos(4, 2)
        item.setZValue(10)
        chart._band_badge = item
    return item


def draw_bands(chart, bands, kind: str, field: str, items: dict | None = None) -> dict:
    """Draw the P10–P90 band of every fabric behind the curves of ``chart`` (a ChartWidget showing ``kind``).

    ``items`` (fabric -> (lo, hi, fill) plot items) are reused and updated; new ones are
    added to the chart. Returns ``items``. The window's overlay and the exports both draw
    through here, so an export shows the bands as the window does."""
    items = {} if items is None else items
    seen = set()
    for s in band_series(bands, kind, field, chart.tco_baseline):
        lo, hi, fill = items.get(s.fabric) or _band_items(chart, items, s.fabric)
        lo.setPen(band_pen(s.colour))
        hi.setPen(band_pen(s.colour))
        fill.setBrush(band_brush(s.colour))
        lo.setData(s.x, s.lo)  # DataCurve: mapped to the chart's log axes like its curves
        hi.setData(s.x, s.hi)
        fill.updatePath()
        for it in (lo, hi, fill):
            it.show()
        seen.add(s.fabric)
    for name, its in items.items():
        if name not in seen:
            for it in its:
                it.hide()
    badge = _badge(chart)
    badge.setText(band_badge(bands, kind))
    badge.setVisible(bool(seen))
    chart.fit_y()  # the y axis holds the bands too
    return items


def band_pen(colour):
    """The band's edges: the fabric's colour, faint, one device pixel."""
    edge = QtGui.QColor(colour)
    edge.setAlpha(90)
    pen = pg.mkPen(edge, width=1)
    pen.setCosmetic(True)
    return pen


def band_brush(colour):
    """The band's fill: the fabric's colour, translucent."""
    c = QtGui.QColor(colour)
    c.setAlpha(BAND_ALPHA)
    return pg.mkBrush(c)


def _band_items(chart, items: dict, fabric: str) -> tuple:
    pi = chart.getPlotItem()
    lo, hi = DataCurve(), DataCurve()
    fill = pg.FillBetweenItem(lo, hi)
    for it in (lo, hi):
        it.setZValue(1)
        pi.addItem(it)
    fill.setZValue(0.5)
    pi.addItem(fill)
    items[fabric] = (lo, hi, fill)
    return lo, hi, fill


class _Relay(QtCore.QObject):
    done = QtCore.Signal(int, object)  # request serial, finished future


class BandsOverlay(QtCore.QObject):
    """Bands for every fabric on every chart of ``window``; off until :meth:`set_enabled`."""

    computed = QtCore.Signal(float)  # milliseconds of the Monte-Carlo just drawn
    failed = QtCore.Signal(str)
    requested = QtCore.Signal(object)  # Snapshot: a settled view asked for its bands (never while dragging)

    def __init__(self, window, *, samples: int = SAMPLES, seed: int = SEED):
        super().__init__(window)
        self.window = window
        self.samples = samples
        self.seed = seed
        self.enabled = False
        self.bands = None
        self.shown_key = None
        self.last_ms: float | None = None
        self.items: dict[str, dict[str, tuple]] = {k: {} for k in CHART_KINDS}
        self._serial = 0
        self._busy = False
        self._pending = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bands")
        self._relay = _Relay()
        self._relay.done.connect(self._finished, QtCore.Qt.ConnectionType.QueuedConnection)

    @staticmethod
    def key(snap):
        return (snap.scenario, snap.x_field, np.asarray(snap.sweep.x, dtype=float).tobytes())

    @property
    def busy(self) -> bool:
        return self._busy

    # -- lifecycle ---------------------------------------------------------------
    def set_enabled(self, on: bool) -> None:
        self.enabled = bool(on)
        if not on:
            self._hide_all()
            return
        snap = self.window.controller.snapshot
        if snap is not None:
            self.on_settled(snap)

    def on_recomputed(self, snap) -> None:
        """The drag path: only hide bands that no longer match (no computing here)."""
        if self.shown_key is not None and self.key(snap) != self.shown_key:
            self._hide_all()

    def on_settled(self, snap) -> None:
        if not self.enabled or snap is None:
            return
        k = self.key(snap)
        if k == self.shown_key:
            self._show_all()
            return
        self._request(snap)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    # -- computing -------------------------------------------------------------
    def _request(self, snap) -> None:
        self.requested.emit(snap)
        self._serial += 1
        if self._busy:
            self._pending = (self._serial, snap)
            return
        self._start(self._serial, snap)

    def _start(self, serial: int, snap) -> None:
        self._busy = True
        self._pending = None
        fut = self._pool.submit(compute_bands, snap.scenario, snap.x_field, np.asarray(snap.sweep.x, dtype=float),
                                self.samples, self.seed)
        fut.snap = snap
        relay = self._relay
        fut.add_done_callback(lambda f, s=serial: relay.done.emit(s, f))

    @QtCore.Slot(int, object)
    def _finished(self, serial: int, fut) -> None:
        self._busy = False
        if self._pending is not None:
            self._start(*self._pending)
            return
        if serial != self._serial or not self.enabled:
            return
        try:
            bands, ms = fut.result()
        except Exception as err:  # noqa: BLE001 (a ScenarioError or numpy trouble: report, keep the window)
            self.failed.emit(str(err))
            return
        snap = self.window.controller.snapshot
        if snap is None or self.key(snap) != self.key(fut.snap):
            return  # the user moved on while we computed; the next settle asks again
        self.bands = bands
        self.last_ms = ms
        self.draw(bands, snap)
        self.computed.emit(ms)

    def wait(self, timeout_s: float = 30.0) -> bool:
        """Tests: process events until no band computation is running."""
        from PySide6 import QtWidgets

        t0 = time.perf_counter()
        while (self._busy or self._pending) and time.perf_counter() - t0 < timeout_s:
            QtWidgets.QApplication.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)
            time.sleep(0.01)
        QtWidgets.QApplication.processEvents()
        return not self._busy

    # -- drawing ---------------------------------------------------------------
    def draw(self, bands, snap) -> None:
        for kind, chart in self.window.charts.items():
            draw_bands(chart, bands, kind, snap.x_field, self.items[kind])
        self.shown_key = self.key(snap)

    def bands_for(self, snap):
        """The Bands the window shows for ``snap`` (same scenario, x-axis and sweep), else None:
        what an export draws."""
        if not self.enabled or self.bands is None or snap is None or self.shown_key != self.key(snap):
            return None
        return self.bands

    def badge_text(self, kind: str) -> str:
        """The 'bands on' badge of chart ``kind`` ('' when it is not shown)."""
        badge = getattr(self.window.charts[kind], "_band_badge", None)
        return badge.textItem.toPlainText() if badge is not None and badge.isVisible() else ""

    def _hide_all(self) -> None:
        for chart in self.window.charts.values():
            badge = getattr(chart, "_band_badge", None)
            if badge is not None:
                badge.hide()
        for per in self.items.values():
            for its in per.values():
                for it in its:
                    it.hide()
        if not self.enabled:
            self.shown_key = None
        else:
            self.shown_key = None

    def _show_all(self) -> None:
        for chart in self.window.charts.values():
            badge = getattr(chart, "_band_badge", None)
            if badge is not None and badge.textItem.toPlainText():
                badge.show()
        for per in self.items.values():
            for its in per.values():
                for it in its:
                    it.show()

    def visible_bands(self, kind: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Tests: fabric -> (lo, hi) arrays currently drawn on chart ``kind`` (display units, log10 on log axes)."""
        out = {}
        for name, (lo, hi, fill) in self.items[kind].items():
            if fill.isVisible():
                out[name] = (np.asarray(lo.getData()[1]), np.asarray(hi.getData()[1]))
        return out


__all__ = ["BAND_METRICS", "BandsOverlay", "SAMPLES", "SEED", "band_badge", "band_brush", "band_pen", "band_series", "compute_bands",
           "draw_bands"]
