"""The session without Qt: one place for the window's state, each value declared once; subscribers hear
exactly what changed, once per change or batch."""

from __future__ import annotations

import dataclasses

import pytest

import model
from gui.present.session import FIELDS, Field, Overlays, Session


@pytest.fixture
def session():
    return Session(model.Scenario(), source_path="a.toml")


def test_subscribers_hear_each_change_once_with_the_names_that_changed(session):
    heard = []
    session.subscribe(heard.append)
    session.update(x_field="workload.params_b", bands_on=True, tco_baseline=None)  # the baseline is unchanged
    assert heard == [frozenset({"x_field", "bands_on"})]
    session.bands_on = True  # the same again: nothing to hear
    assert len(heard) == 1


def test_a_batch_of_changes_is_heard_once(session):
    heard = []
    session.subscribe(heard.append)
    with session.batch():
        session.tco_baseline = "roce"
        session.bands_on = True
        with session.batch():  # a batch inside another joins it
            session.x_field = "workload.params_b"
        assert heard == []  # nothing heard before the outermost batch ends
    assert heard == [frozenset({"tco_baseline", "bands_on", "x_field"})]
    with session.batch():
        session.bands_on = True  # unchanged: an empty batch is not heard
    assert len(heard) == 1


def test_each_value_is_declared_once_as_a_field(session):
    declared = {name for name, v in vars(Session).items() if isinstance(v, Field)}
    assert set(FIELDS) == declared == set(Session.fields())
    assert len(FIELDS) == len(declared)
    # no value is declared a second way (a property with a setter beside the fields)
    assert not [n for n, v in vars(Session).items() if isinstance(v, property) and v.fset is not None]
    # the overlays are session values, read from the session
    assert {f.name for f in dataclasses.fields(Overlays)} <= declared
    session.update(bands_on=1, tco_baseline="iwarp", pinned_at="10:30")
    assert session.overlays == Overlays(bands_on=True, pin=None, pinned_at="10:30", tco_baseline="iwarp")
    session.tco_baseline = ""  # an empty choice is the default baseline
    assert session.overlays.tco_baseline is None


def test_edited_compares_with_the_loaded_scenario(session):
    assert not session.edited and not session.is_edited("cluster.nodes")
    session.scenario = session.scenario.replace("cluster.nodes", 48)
    assert session.edited and session.is_edited("cluster.nodes")
    assert not session.is_edited("workload.params_b") and not session.is_edited("no.such.field")
    session.loaded = session.scenario  # saved: nothing edited any more
    assert not session.edited


def test_focus_and_profile_set_are_the_scenarios(session):
    session.scenario = session.scenario.replace("fabric.focus", "roce")
    assert session.focus == "roce" and session.profile_set == session.scenario.fabric.profile_set


def test_a_new_pin_is_a_change_even_when_equal(session):
    heard = []
    session.subscribe(heard.append)
    pin = object()
    session.pin = pin
    session.pin = pin
    session.pin = object()
    assert heard == [frozenset({"pin"})] * 2


def test_unsubscribe_and_unknown_fields(session):
    heard = []
    stop = session.subscribe(heard.append)
    stop()
    session.dragging = True
    assert heard == [] and "dragging" in FIELDS
    with pytest.raises(ValueError, match="session field 'zoom'"):
        session.update(zoom=2)
