"""File ▸ Export proposal pack…: the menu action, the dialog that remembers the cover's fields, the same files as
``fabric-whatif export --pack`` in the window's language, and an error in a message that loses nothing."""

from __future__ import annotations

import re
import unicodedata

from guihelpers import settle

import pdfread


def _flat(path) -> str:
    return " ".join(unicodedata.normalize("NFKC", pdfread.text(path)).split())


def test_menu_action_writes_the_pack_the_cli_writes(window, tmp_path):
    from gui.export.pack_folder import pack_files
    from gui.present.pack import Cover, fingerprint

    actions = [a for a in window.file_menu.actions() if a is window.file_actions.pack_action]
    assert actions and "pack" in actions[0].text().replace("&", "").lower()
    folder = tmp_path / "out" / "pack"
    assert window.file_actions.export_pack_to(folder, Cover("Acme AI", "Li Wei", valid_days=14), "letter")
    assert sorted(p.name for p in folder.iterdir()) == sorted(pack_files())
    flat = _flat(folder / "proposal.pdf")
    assert "Acme AI" in flat and "Li Wei" in flat and "(14 days)" in flat
    assert fingerprint(window.controller.scenario) in flat
    assert pdfread.page_size_pt(folder / "proposal.pdf") == (612, 792)


def test_a_file_in_the_folders_place_is_a_message_and_nothing_changes(window, tmp_path):
    from gui.present.pack import Cover

    blocker = tmp_path / "pack"
    blocker.write_text("not a folder", encoding="utf-8")
    before = window.controller.scenario
    assert not window.file_actions.export_pack_to(blocker, Cover())
    box = window.file_actions.error_box
    assert box is not None and box.isVisible() and "proposal pack" in box.windowTitle()
    assert "Folder" in box.informativeText() and "a folder (this is a file)" in box.informativeText()
    assert blocker.read_text(encoding="utf-8") == "not a folder" and window.controller.scenario == before
    box.close()


def test_dialog_remembers_the_cover_fields(window, qtbot, tmp_path, isolated_settings):
    from PySide6 import QtCore

    from gui.dialogs.pack_cover import PackDialog

    settings = QtCore.QSettings(str(isolated_settings), QtCore.QSettings.Format.IniFormat)
    d = PackDialog(window, settings, folder=str(tmp_path / "first"))
    qtbot.addWidget(d)
    assert d.folder() == str(tmp_path / "first") and d.cover().customer == "" and d.cover().valid_days == 30
    d.customer_edit.setText("  Example Robotics Co. ")
    d.prepared_edit.setText("J. Presales")
    d.valid_spin.setValue(60)
    d.paper_box.setCurrentIndex(1)
    d.folder_edit.setText(str(tmp_path / "chosen"))
    d.remember()
    again = PackDialog(window, settings, folder=str(tmp_path / "other"))
    qtbot.addWidget(again)
    cover = again.cover()
    assert (cover.customer, cover.prepared_by, cover.valid_days) == ("Example Robotics Co.", "J. Presales", 60)
    assert again.paper() == "letter" and again.folder() == str(tmp_path / "chosen")


def test_accepting_the_dialog_writes_the_pack(window, qtbot, tmp_path, monkeypatch):
    files = window.file_actions
    files.export_pack_dialog()
    d = files.pack_dialog
    qtbot.addWidget(d)
    d.folder_edit.setText(str(tmp_path / "from-dialog"))
    d.customer_edit.setText("Dialog Customer")
    d.accept()
    settle(window)
    assert "Dialog Customer" in _flat(tmp_path / "from-dialog" / "proposal.pdf")


def test_chinese_window_writes_a_chinese_pack(zh, tmp_path):
    from gui.present.pack import Cover

    assert re.search(r"[\u4e00-\u9fff]", zh.file_actions.pack_action.text())
    folder = tmp_path / "zh"
    assert zh.file_actions.export_pack_to(folder, Cover("示例客户"))
    flat = _flat(folder / "proposal.pdf")
    assert "网络方案建议书" in flat and "示例客户" in flat and "Bill of materials" not in flat
