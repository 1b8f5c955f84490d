"""The recommendation's rich text: reads like a label, grows and shrinks with its text."""

from __future__ import annotations

from gui.panels.richtext import RichText


def test_rich_text_fits_its_height_and_keeps_its_text(qtbot):
    w = RichText()
    qtbot.addWidget(w)
    w.resize(300, 40)
    w.show()
    w.setText("<b>one</b> line")
    assert w.text() == "<b>one</b> line" and "one line" in w.toPlainText()
    one = w.height()
    w.setText("<br>".join(f"line {i}" for i in range(6)))
    six = w.height()
    assert six > 4 * one, (one, six)
    w.setText("short again")
    assert w.height() == one
    w.resize(60, w.height())  # narrower: the same words wrap onto more lines
    w.setText("several words that wrap on a narrow panel")
    assert w.height() > one
    assert not w.verticalScrollBar().isVisible()
