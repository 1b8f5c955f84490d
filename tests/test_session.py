"""The session without Qt: one place for the window's state; subscribers hear exactly what changed."""

from __future__ import annotations

import pytest

import model
from gui.present.session import FIELDS, Session


@pytest.fixture
def session():
    return Session(model.Scenario(), source_path="a.toml")


def test_subscribers_hear_each_changed_value_once(session):
    heard = []
    session.subscribe(heard.append)
    session.update(x_field="workload.params_b", bands_on=True, tco_baseline=None)  # the baseline is unchanged
    assert heard == ["x_field", "bands_on"]
    session.bands_on = True  # the same again: nothing to hear
    assert heard == ["x_field", "bands_on"]


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
    assert heard == ["pin", "pin"]


def test_unsubscribe_and_unknown_fields(session):
    heard = []
    stop = session.subscribe(heard.append)
    stop()
    session.dragging = True
    assert heard == [] and "dragging" in FIELDS
    with pytest.raises(ValueError, match="session field 'zoom'"):
        session.update(zoom=2)
