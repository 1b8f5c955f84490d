"""File ▸ Export proposal pack…: the folder to write into and the cover's fields (customer, prepared by, validity,
paper), all optional, remembered in the app's settings for the next pack.

:class:`PackDialog` only gathers them (:meth:`PackDialog.cover`, :meth:`folder`, :meth:`paper`); the window's
file actions write the pack (:func:`gui.export.pack_folder.write_pack`) and show any error in a message.
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets

from gui.i18n import translate
from gui.present.pack import DEFAULT_VALID_DAYS, MAX_NAME_CHARS, MAX_VALID_DAYS, Cover

SETTINGS = {"customer": "pack/customer", "prepared_by": "pack/prepared_by", "valid_days": "pack/valid_days",
            "paper": "pack/paper", "folder": "pack/folder"}
PAPERS = ("a4", "letter")


def _text(settings, key: str, default: str = "") -> str:
    v = settings.value(SETTINGS[key]) if settings is not None else None
    return v if isinstance(v, str) else default


class PackDialog(QtWidgets.QDialog):
    """The pack's folder and cover fields, filled from ``settings`` (a ``QSettings``; ``None``: defaults)."""

    def __init__(self, parent=None, settings=None, folder: str = "", paper: str = "a4"):
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle(translate("PackDialog", "Export proposal pack"))
        form = QtWidgets.QFormLayout()
        self.folder_edit = QtWidgets.QLineEdit(_text(settings, "folder", folder))
        self.folder_edit.setMinimumWidth(320)
        browse = QtWidgets.QPushButton(translate("PackDialog", "&Choose…"))
        browse.clicked.connect(self.choose_folder)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.folder_edit, 1)
        row.addWidget(browse)
        form.addRow(translate("PackDialog", "Folder"), row)
        self.customer_edit = QtWidgets.QLineEdit(_text(settings, "customer"))
        self.prepared_edit = QtWidgets.QLineEdit(_text(settings, "prepared_by"))
        for edit in (self.customer_edit, self.prepared_edit):
            edit.setMaxLength(MAX_NAME_CHARS)
            edit.setPlaceholderText(translate("PackDialog", "optional: left blank on the cover"))
        form.addRow(translate("PackDialog", "Customer"), self.customer_edit)
        form.addRow(translate("PackDialog", "Prepared by"), self.prepared_edit)
        self.valid_spin = QtWidgets.QSpinBox()
        self.valid_spin.setRange(1, MAX_VALID_DAYS)
        try:
            days = int(settings.value(SETTINGS["valid_days"], DEFAULT_VALID_DAYS)) if settings is not None \
                else DEFAULT_VALID_DAYS
        except (TypeError, ValueError):
            days = DEFAULT_VALID_DAYS
        self.valid_spin.setValue(min(max(days, 1), MAX_VALID_DAYS))
        self.valid_spin.setSuffix(translate("PackDialog", " days"))
        form.addRow(translate("PackDialog", "Valid for"), self.valid_spin)
        self.paper_box = QtWidgets.QComboBox()
        self.paper_box.addItems(["A4", "Letter"])
        chosen = _text(settings, "paper", paper)
        self.paper_box.setCurrentIndex(PAPERS.index(chosen) if chosen in PAPERS else 0)
        form.addRow(translate("PackDialog", "Paper"), self.paper_box)
        note = QtWidgets.QLabel(translate("PackDialog", "Writes proposal.pdf, proposal.pptx, proposal.xlsx and each "
                                                        "chart as CSV and SVG into the folder, in the window's "
                                                        "language."))
        note.setWordWrap(True)
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Ok
                                             | QtWidgets.QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok).setText(translate("PackDialog", "&Export"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def choose_folder(self) -> None:
        path = QtWidgets.QFileDialog.getExistingDirectory(self, translate("PackDialog", "Folder for the proposal pack"),
                                                          self.folder_edit.text() or str(Path.home()))
        if path:
            self.folder_edit.setText(path)

    def folder(self) -> str:
        return self.folder_edit.text().strip()

    def paper(self) -> str:
        return PAPERS[self.paper_box.currentIndex()]

    def cover(self) -> Cover:
        """The cover of the fields as typed (a ScenarioError names a field that is not allowed)."""
        return Cover(customer=self.customer_edit.text().strip(), prepared_by=self.prepared_edit.text().strip(),
                     valid_days=self.valid_spin.value())

    def remember(self) -> None:
        """Keep the fields for the next pack."""
        if self.settings is None:
            return
        values = {"customer": self.customer_edit.text().strip(), "prepared_by": self.prepared_edit.text().strip(),
                  "valid_days": self.valid_spin.value(), "paper": self.paper(), "folder": self.folder()}
        for key, value in values.items():
            self.settings.setValue(SETTINGS[key], value)


__all__ = ["PackDialog", "SETTINGS"]

