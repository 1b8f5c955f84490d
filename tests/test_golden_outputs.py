"""The engine's outputs are those of a stored run, bit for bit: every preset evaluated and swept along
every x-axis the app offers, and the text of ``fabric-whatif validate`` (tools/golden_outputs.py).

A refactoring must leave them alone. A change meant to alter the physics regenerates the stored run
(``python tools/golden_outputs.py --write``) in a commit of its own that says why the outputs changed."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import golden_outputs  # noqa: E402


@pytest.fixture(scope="module")
def runs():
    return golden_outputs.load(), golden_outputs.compute()


def test_every_output_is_the_stored_one(runs):
    stored, now = runs
    assert stored["points"] == now["points"]
    diff = golden_outputs.differences(stored, now)
    assert not diff, ("the engine's outputs differ from the stored run; if the change is meant, regenerate it with "
                      f"`{golden_outputs.REGENERATE}` in a commit that says why:\n" + "\n".join(diff))


def test_the_stored_run_covers_every_preset_and_x_axis(runs):
    stored, _ = runs
    presets = {p.stem for p in golden_outputs.PRESETS.glob("*.toml")}
    assert {r.split("|")[0] for r in stored["runs"]} == presets
    for preset in presets:
        for kind in ("evaluate", *golden_outputs.X_FIELDS):
            assert len(stored["runs"][f"{preset}|{kind}"]) > 50
    assert "nar21-1.7b" in stored["validate"]


def test_a_changed_bit_is_found(runs):
    """The comparison can fail: one output's last bit, and one line of the validation text."""
    stored, _ = runs
    changed = copy.deepcopy(stored)
    run = next(iter(changed["runs"]))
    leaf = next(iter(changed["runs"][run]))
    changed["runs"][run][leaf]["sha256"] = "0" * 64
    changed["validate"] = changed["validate"].replace("nar21-1.7b", "nar21-1.8b")
    diff = golden_outputs.differences(stored, changed)
    assert diff == [f"{run} {leaf}: shape {stored['runs'][run][leaf]['shape']} → "
                    f"{stored['runs'][run][leaf]['shape']}, sample {stored['runs'][run][leaf]['sample']} → "
                    f"{stored['runs'][run][leaf]['sample']}", "fabric-whatif validate: the text differs"]
