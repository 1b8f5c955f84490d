"""The calibrate dialog's work off the UI thread: reading a log file, parsing and fitting it.

:class:`LogReader` reads a log file, bounded like every file the app reads
(:func:`model.files.read_text_bounded`, at most :data:`model.files.MAX_LOG_BYTES`, regular
files only); :class:`FitWorker` runs :func:`fit_request` — the parse and the fit of the
NCCL-like collective model (:func:`model.nccl_fit.fit_model`) for a :class:`FitRequest`,
with the choices the log made or contradicts — and turns whatever it raises into a
message. A worker whose dialog closes ends on its own (:func:`detach_worker`).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtCore

import model
from model import ScenarioError, files, nccl_accuracy, nccl_fit, nccl_log

from gui.dialogs.nccl_shared import TRANSPORTS


class LogReader(QtCore.QThread):
    """Reads one nccl-tests log off the UI thread; ``done`` carries (serial, path, text or ScenarioError)."""

    done = QtCore.Signal(int, str, object)

    def __init__(self, serial: int, path, parent=None):
        super().__init__(parent)
        self.serial = serial
        self.path = str(path)

    def run(self) -> None:
        try:
            result = files.read_text_bounded(self.path, limit=files.MAX_LOG_BYTES, what="nccl-tests output file",
                                             errors="replace")
        except ScenarioError as err:
            result = err
        self.done.emit(self.serial, self.path, result)


@dataclass(frozen=True)
class FitRequest:
    """What one fit needs: the log text and the setup the user states (0 / None: from the log).

    ``transport`` and ``nics_per_node`` are the user's choice when set; otherwise the log's (NCCL's INFO lines), else
    ``default_transport`` / ``default_nics``. ``fabric_inputs`` maps a transport to the latency [µs] and loss the
    calibrated fabric keeps (the scenario's fabric of that transport, else the published figures)."""
    text: str
    source: str
    collective: str | None
    ranks: int | None
    nodes: int | None
    gpu: str
    link_gbps: float
    nics_per_node: int | None
    transport: str | None
    algorithm: str | None  # None: the log's NCCL_ALGO, else auto
    default_transport: str = "infiniband"
    default_nics: int = 8
    fabric_inputs: tuple = ()  # ((transport, latency_us, loss_rate), ...)


@dataclass(frozen=True)
class FitOutcome:
    """A fitted log, the fabric it makes (``None`` with ``fabric_error`` when it makes none), and the choices the
    log made (``from_log``: field → value) or contradicts (``mismatches``: (field, log's, chosen))."""
    fit: nccl_fit.ModelFit
    values: dict | None
    fabric_error: str | None
    from_log: tuple = ()
    mismatches: tuple = ()


def fabric_inputs(scenario) -> tuple:
    """Per transport, the latency and loss a calibrated fabric keeps: the scenario's fabric of that transport, else
    the published profile's."""
    rows = {}
    for r in model.resolve_fabrics(scenario):
        rows.setdefault(r.transport, (float(r.values["latency_us"]), float(r.values["loss_rate"])))
    return tuple((t,) + rows.get(t, (nccl_accuracy.published_latency_us(t), nccl_accuracy.published_loss_rate(t)))
                 for t in TRANSPORTS)


def fit_request(req: FitRequest) -> FitOutcome:
    """Parse and fit (what :class:`FitWorker` runs); raises :class:`~model.ScenarioError` on a bad log."""
    log = nccl_fit.parse_nccl_tests(req.text, source=req.source, collective=req.collective, ranks=req.ranks,
                                    nodes=req.nodes)
    from_log, mismatches = [], []
    for name, chosen, found, default in (("transport", req.transport, log.transport, req.default_transport),
                                         ("nics_per_node", req.nics_per_node, log.nics_per_node or None,
                                          req.default_nics),
                                         ("algorithm", req.algorithm, None if log.algorithm == "auto"
                                          else log.algorithm, None)):
        if chosen is None and found is not None:
            from_log.append((name, found))
        elif chosen is not None and found is not None and chosen != found:
            mismatches.append((name, found, chosen))
    transport = req.transport or log.transport or req.default_transport
    nics = req.nics_per_node or log.nics_per_node or req.default_nics
    latency, loss = next(((lat, loss) for t, lat, loss in req.fabric_inputs if t == transport),
                         (float("nan"), nccl_accuracy.published_loss_rate(transport)))
    setup = nccl_accuracy.NcclSetup(req.gpu, req.link_gbps, nics, transport, req.algorithm or log.algorithm or "auto",
                               latency_us=latency, loss_rate=loss)
    fit = nccl_fit.fit_model(log, setup)
    try:
        return FitOutcome(fit, nccl_fit.fabric_from_model_fit(fit), None, tuple(from_log), tuple(mismatches))
    except ScenarioError as err:
        return FitOutcome(fit, None, str(err), tuple(from_log), tuple(mismatches))


# workers still running when their dialog closed: kept referenced until they end (a QThread destroyed while it runs
# aborts the app)
_ORPHANS: set = set()


def detach_worker(worker: QtCore.QThread) -> None:
    """Let a worker whose dialog closes end on its own: no result delivered, no parent to destroy it while it runs,
    deleted when it ends."""
    for signal in (worker.done, worker.finished):
        try:
            signal.disconnect()
        except (RuntimeError, TypeError):  # nothing connected
            pass
    if worker.isFinished():
        worker.deleteLater()
        return
    worker.setParent(None)
    _ORPHANS.add(worker)
    worker.finished.connect(lambda: (_ORPHANS.discard(worker), worker.deleteLater()))


class FitWorker(QtCore.QThread):
    """Parses and fits one log off the UI thread; ``done`` carries (serial, FitOutcome or ScenarioError).

    Whatever the fit raises becomes a message in ``done``: the dialog never waits for a result that does not come."""

    done = QtCore.Signal(int, object)

    def __init__(self, serial: int, request: FitRequest, parent=None):
        super().__init__(parent)
        self.serial = serial
        self.request = request

    def run(self) -> None:
        try:
            result = fit_request(self.request)
        except ScenarioError as err:
            result = err
        except ValueError:  # the model refuses an algorithm that does not run the collective
            result = ScenarioError("Algorithm", self.request.algorithm,
                                   "one that runs the log's collective: ring runs every one, tree/NVLS/SHARP "
                                   "only all-reduce")
        except MemoryError:
            result = ScenarioError(self.request.source, "too large to fit in memory",
                                   f"a log of at most {nccl_log.MAX_ROWS:,} rows")
        except Exception as err:  # noqa: BLE001 - any failure is shown in the dialog, never a silent dead thread
            result = ScenarioError(self.request.source, f"{type(err).__name__}: {err}"[:200],
                                   "a log the fit can read; please report this log")
        self.done.emit(self.serial, result)
