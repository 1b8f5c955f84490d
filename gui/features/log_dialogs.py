"""The dialogs that read nccl-tests logs: File/Tools ▸ Calibrate fabric from nccl-tests… (Ctrl+K)
and Tools ▸ nccl-tests prediction…, styled like the charts."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from gui.dialogs.calibrate import CalibrateDialog
from gui.i18n import translate
from gui.dialogs.nccl import NcclTestsDialog


class LogDialogs(QtCore.QObject):
    """The two actions and the dialogs they open (``calibrate_dialog``, ``nccl_dialog``: the last opened)."""

    def __init__(self, window, theme, texts):
        super().__init__(window)
        self.window = window
        self.theme = theme
        self.calibrate_dialog = None
        self.nccl_dialog = None
        self.calibrate_action = QtGui.QAction(window)
        texts.bind(self.calibrate_action.setText, lambda: translate("Features", "&Calibrate fabric from nccl-tests…"))
        self.calibrate_action.setObjectName("calibrateAction")
        self.calibrate_action.setShortcut(QtGui.QKeySequence("Ctrl+K"))
        self.calibrate_action.triggered.connect(lambda: self.open_calibrate())
        self.nccl_action = QtGui.QAction(window)
        texts.bind(self.nccl_action.setText, lambda: translate("Features", "&nccl-tests prediction…"))
        self.nccl_action.setObjectName("ncclTestsAction")
        self.nccl_action.triggered.connect(lambda: self.open_nccl_tests())

    def open_calibrate(self, path: str | None = None):
        self.calibrate_dialog = self._open(CalibrateDialog, path, modal=True)
        return self.calibrate_dialog

    def open_nccl_tests(self, path: str | None = None):
        """The collective model's nccl-tests curve for a fabric, with a measured log over it."""
        self.nccl_dialog = self._open(NcclTestsDialog, path, modal=False)
        return self.nccl_dialog

    def _open(self, cls, path: str | None, modal: bool):
        """A dialog that reads an nccl-tests log: styled like the charts, ``path`` loaded if given, shown."""
        dlg = cls(self.window.controller, self.window, choose_file=self._choose_log)
        self.theme.style_new_plot(dlg.plot)
        if path:
            dlg.load_file(path)
        dlg.setModal(modal)
        dlg.show()
        return dlg

    def _choose_log(self) -> str:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self.window, translate("Features", "Open nccl-tests output"), "",
            translate("Features", "nccl-tests logs (*.txt *.log *.out);;All files (*)"))
        return path


__all__ = ["LogDialogs"]
