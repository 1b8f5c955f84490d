"""One labelled slider per numeric scenario field, built from the field's metadata.

:class:`FieldSlider` is a superqt ``QDoubleSlider`` (linear, or over log10 of the value
when the range spans decades) with a name label carrying the unit and an editable value
box. The limits come from ``model.sections`` field metadata, so they live once.

Programmatic updates (:meth:`FieldSlider.set_value`) block signals: the model pushes
values into the widgets without the widgets writing them back.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtWidgets
from superqt import QDoubleSlider

from model.fields import field_meta

from gui.i18n import fmt_sig, translate
from gui.i18n_data import tr_field, tr_unit
from gui.theme import muted



class KeyboardSlider(QDoubleSlider):
    """superqt's float slider with the keyboard actions of a QSlider (arrows, Page Up/Down,
    Home/End); superqt's generic slider ignores them."""

    _KEYS = {
        QtCore.Qt.Key.Key_Right: 1, QtCore.Qt.Key.Key_Up: 1, QtCore.Qt.Key.Key_Left: -1, QtCore.Qt.Key.Key_Down: -1,
        QtCore.Qt.Key.Key_PageUp: 10, QtCore.Qt.Key.Key_PageDown: -10,
    }

    def keyPressEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        key = ev.key()
        if key in self._KEYS:
            n = self._KEYS[key]
            step = self.pageStep() if abs(n) == 10 else self.singleStep()
            self.setValue(self.value() + (step if n > 0 else -step))
        elif key == QtCore.Qt.Key.Key_Home:
            self.setValue(self.minimum())
        elif key == QtCore.Qt.Key.Key_End:
            self.setValue(self.maximum())
        else:
            super().keyPressEvent(ev)
            return
        ev.accept()


def format_number(v: float, integer: bool = False) -> str:
    """A value box's text: thousands grouped, four significant figures (three below 0.01), never an exponent
    (``0.0000033``, not ``3.3e-06``)."""
    if v is None or not math.isfinite(v):
        return "–"
    if integer:
        return f"{v:,.0f}"
    av = abs(v)
    if av == 0:
        return "0"
    if av >= 1000:
        return f"{v:,.0f}"
    return fmt_sig(v, 4 if av >= 0.01 else 3)


def parse_number(text: str) -> float:
    t = text.strip().replace(",", "").replace("_", "")
    for suffix in ("µs", "us", "Gb/s", "%", "B tokens", "B", "years", "kWh"):
        if t.endswith(suffix):
            t = t[: -len(suffix)].strip()
    return float(t)


class FieldSlider(QtWidgets.QWidget):
    """A labelled slider for one number: name (unit) | slider | value box.

    ``valueEdited(float)`` carries the new value in engine units whenever the user
    moves the slider or types a value; :meth:`set_value` never emits it.
    """

    valueEdited = QtCore.Signal(float)
    dragStateChanged = QtCore.Signal(bool)

    def __init__(self, label: str, *, lo: float, hi: float, unit: str = "", log: bool = False,
                 integer: bool = False, scale: float = 1.0, floor: float | None = None, help: str = "",
                 parent: QtWidgets.QWidget | None = None):
        super().__init__(parent)
        self.log = log
        self.integer = integer
        self.scale = scale  # engine value * scale = displayed value
        self.unit = unit
        self.lo = float(lo)
        self.hi = float(hi)
        self.floor = float(floor if floor is not None else (self.lo if self.lo > 0 else self.hi * 1e-9))
        self._value = None
        self.label_text = label  # the name without its mark (see set_label)
        self.help = help

        self.subject = ""  # what the slider moves, after its name ("InfiniBand", "every fabric")
        self.name = QtWidgets.QLabel()
        self.name.setMinimumWidth(10)
        # a value typed beyond the slider's (realistic) range: the slider stays at its end, this says so
        self.badge = QtWidgets.QLabel()
        self.badge.setObjectName("rangeBadge")
        self.badge.setStyleSheet("color:#ffffff; background:#a05a00; border-radius:3px; padding:0 4px")
        self.badge.hide()
        self._outside = False
        self.slider = KeyboardSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        self.slider.setAccessibleName(label)
        if log:
            a, b = math.log10(max(self.lo, self.floor)), math.log10(self.hi)
            self.slider.setRange(a, b)
            self.slider.setSingleStep((b - a) / 200)
            self.slider.setPageStep((b - a) / 20)
        else:
            self.slider.setRange(self.lo, self.hi)
            step = 1.0 if integer else (self.hi - self.lo) / 100
            self.slider.setSingleStep(step)
            self.slider.setPageStep(max(step, (self.hi - self.lo) / 10))
        self.edit = QtWidgets.QLineEdit()
        self.edit.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight)
        self.edit.setAccessibleName(label + " value")
        fm = self.edit.fontMetrics()
        self.edit.setFixedWidth(fm.horizontalAdvance("0,000,000.0") + 12)
        self.unit_label = QtWidgets.QLabel(unit)
        self.unit_label.setMinimumWidth(fm.horizontalAdvance("Gb/s "))

        row = QtWidgets.QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.slider, 1)
        row.addWidget(self.edit)
        row.addWidget(self.unit_label)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 2, 0, 2)
        lay.setSpacing(1)
        lay.addWidget(self.name)
        lay.addLayout(row)
        # on a line of its own under the slider: beside the name it squeezed "Latency · InfiniBand" to "Latency · Infi"
        lay.addWidget(self.badge, 0, QtCore.Qt.AlignmentFlag.AlignLeft)
        self.set_label(label)

        self.slider.valueChanged.connect(self._on_slider)
        self.slider.sliderPressed.connect(lambda: self.dragStateChanged.emit(True))
        self.slider.sliderReleased.connect(lambda: self.dragStateChanged.emit(False))
        self.edit.editingFinished.connect(self._on_edit)

    # -- display ---------------------------------------------------------------
    def set_label(self, text: str, *, guess: bool = False, overridden: bool = False, edited: bool | None = None) -> None:
        """Name, plus a mark: "(guess)" for a profile value without a published source,
        "(edited)" for a value changed since the scenario was loaded, "(scenario)" for a
        value the scenario sets instead of the profile."""
        self.label_text = text
        if edited is None:
            edited = overridden
        extra = ""
        if guess:
            extra = " <span style='color:#a05a00'><i>" + translate("FieldSlider", "(guess)") + "</i></span>"
        elif edited:
            extra = " <span style='color:#0060a0'><i>" + translate("FieldSlider", "(edited)") + "</i></span>"
        elif overridden:
            extra = f" <span style='color:{muted()}'><i>" + translate("FieldSlider", "(scenario)") + "</i></span>"
        subject = f" · {self.subject}" if self.subject else ""
        if self.name.text() != text + subject + extra:  # rich-text layout is not free: only on change
            self.name.setText(f"{text}{subject}{extra}")

    def set_subject(self, subject: str) -> None:
        """Name what the slider moves after its name (the fabric in focus, or every fabric)."""
        if subject != self.subject:
            self.subject = subject
            self.set_label(self.label_text)

    def outside_range(self) -> bool:
        """The value is beyond the slider's range (typed): the badge shows."""
        return self._outside

    def _update_badge(self, shown: float) -> None:
        outside = math.isfinite(shown) and not (self.lo * (1 - 1e-9) <= shown <= self.hi * (1 + 1e-9))
        if outside == self._outside:
            return
        self._outside = outside
        if outside:
            self.badge.setText(translate("FieldSlider", "outside the realistic range"))
            self.badge.setToolTip(translate("FieldSlider", "The slider spans {lo} – {hi} {unit}, the range real "
                                                           "clusters have; typed values beyond it are computed "
                                                           "as given").format(lo=format_number(self.lo),
                                                                              hi=format_number(self.hi),
                                                                              unit=self.unit))
        self.badge.setVisible(outside)

    def retranslate(self, label: str, unit: str) -> None:
        """The name and unit in another language (the mark follows on the next :meth:`set_label`)."""
        self.label_text = label
        self.unit = unit
        self.unit_label.setText(unit)
        self.slider.setAccessibleName(label)
        self.edit.setAccessibleName(label + " value")
        if self._outside and self._value is not None:  # the badge's words in the new language
            self._outside = False
            self._update_badge(self._value * self.scale)

    def set_tooltip(self, text: str) -> None:
        if text == self.toolTip():
            return
        for w in (self, self.name, self.slider, self.edit):
            w.setToolTip(text)

    def value(self) -> float | None:
        return self._value

    def set_value(self, v: float) -> None:
        """Show ``v`` (engine units) without emitting ``valueEdited``."""
        self._value = v
        shown = v * self.scale
        pos = self._to_slider(shown)
        if self.slider.value() != pos:  # unchanged controls are not repainted
            with QtCore.QSignalBlocker(self.slider):
                self.slider.setValue(pos)
        text = format_number(shown, self.integer)
        if not self.edit.hasFocus() and self.edit.text() != text:
            self.edit.setText(text)
        self._update_badge(shown)

    # -- conversions -----------------------------------------------------------
    def _to_slider(self, shown: float) -> float:
        if self.log:
            return math.log10(min(max(shown, self.lo, self.floor), self.hi))
        return min(max(shown, self.lo), self.hi)

    def _from_slider(self, pos: float) -> float:
        shown = 10 ** pos if self.log else pos
        if self.integer:
            shown = float(round(shown))
        elif self.log:
            shown = float(f"{shown:.3g}")  # round to 3 significant digits: readable values
        return shown

    def _on_slider(self, pos: float) -> None:
        shown = self._from_slider(pos)
        v = shown / self.scale
        if self._value is not None and v == self._value:
            return
        self._value = v
        self.edit.setText(format_number(shown, self.integer))
        self._update_badge(shown)
        self.valueEdited.emit(int(v) if self.integer else v)

    def _on_edit(self) -> None:
        try:
            shown = parse_number(self.edit.text())
        except ValueError:
            self.set_value(self._value if self._value is not None else self.lo / self.scale)
            return
        if not math.isfinite(shown):
            # "nan", "inf": the engine names the field, the value and what is allowed (valueEdited →
            # the controller's errorOccurred); the box goes back to the value the scenario keeps
            self.valueEdited.emit(shown / self.scale)
            if self._value is not None:
                self.edit.setText(format_number(self._value * self.scale, self.integer))
            return
        if self.integer:
            shown = float(round(shown))
        v = shown / self.scale
        if self._value is not None and v == self._value:
            return
        self._value = v
        with QtCore.QSignalBlocker(self.slider):
            self.slider.setValue(self._to_slider(shown))
        self._update_badge(shown)
        self.valueEdited.emit(int(v) if self.integer else v)

    def step_by(self, steps: int) -> None:
        """Move like the keyboard does (used by tests and benchmarks)."""
        self.slider.setValue(self.slider.value() + steps * self.slider.singleStep())


def slider_for(cls: type, name: str, *, log: bool | None = None, display_hi: float | None = None,
               display_lo: float | None = None, scale: float = 1.0, unit: str | None = None,
               integer: bool | None = None, parent=None) -> FieldSlider:
    """A :class:`FieldSlider` for field ``name`` of dataclass ``cls`` (limits from its metadata)."""
    meta = field_meta(cls, name)
    lo = meta.get("lo")
    hi = meta.get("hi")
    lo = float(display_lo if display_lo is not None else (lo if lo is not None else 0.0))
    hi = float(display_hi if display_hi is not None else (hi if hi is not None else lo * 1000 + 1))
    if log is None:
        log = lo > 0 and hi / lo >= 100
    if integer is None:
        import dataclasses
        f = next(f for f in dataclasses.fields(cls) if f.name == name)
        integer = "int" in str(f.type) and "float" not in str(f.type)
    label = tr_field(meta.get("label") or name.replace("_", " ").capitalize())
    return FieldSlider(label, lo=lo * scale, hi=hi * scale,
                       unit=tr_unit(meta.get("unit", "") if unit is None else unit),
                       log=log, integer=integer, scale=scale, help=meta.get("help", ""), parent=parent)


class GroupBox(QtWidgets.QGroupBox):
    """A titled group of controls with a tight vertical layout."""

    def __init__(self, title: str, parent=None):
        super().__init__(title, parent)
        self.lay = QtWidgets.QVBoxLayout(self)
        self.lay.setContentsMargins(8, 6, 8, 6)
        self.lay.setSpacing(4)

    def add(self, w: QtWidgets.QWidget) -> QtWidgets.QWidget:
        self.lay.addWidget(w)
        return w


def labelled(label: str, widget: QtWidgets.QWidget, parent=None) -> QtWidgets.QWidget:
    box = QtWidgets.QWidget(parent)
    lay = QtWidgets.QHBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lab = QtWidgets.QLabel(label)
    lab.setBuddy(widget)
    lay.addWidget(lab)
    lay.addWidget(widget, 1)
    return box


__all__ = ["FieldSlider", "KeyboardSlider", "GroupBox", "format_number", "labelled", "parse_number", "slider_for"]
