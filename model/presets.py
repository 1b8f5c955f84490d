"""The article's case studies and scale tiers as scenario presets.

Each preset is an ordinary scenario file in ``assets/presets/`` (it loads
through :func:`model.load_scenario` like any user file). The article's figures
for each preset (the fabric it chose, its "after" duration, the claims) are in
``assets/claims.toml``.

Training tokens: the article never states them, so each preset's
``train_tokens_b`` is chosen so that the chosen fabric's training time *with
interruptions* under the seed profile equals the article's "after" duration.
Wall-clock time is proportional to tokens — step time does not depend on
them, and Daly's expected wall time is ``T_s`` times a factor of ``τ``, ``δ``,
``R`` and ``M`` only — so one evaluation solves it exactly
(:func:`solve_train_tokens_b`). ``python -m model.presets`` prints the solved
tokens of every preset (``--write`` puts them in the files).

References
----------
1. The source article, §1, §3 and §4 (shared/seed; seed-figures.md §1, §5, §7).
2. J. T. Daly, FGCS 22(3):303, 2006 (wall time linear in the failure-free time).
"""

from __future__ import annotations

import functools
import re
import sys
import tomllib

from . import catalog
from .errors import ScenarioError, suggest
from .scenario import Scenario, load_scenario

PRESETS_DIR = catalog.ASSETS_DIR / "presets"
DEFAULT_PRESET = "case2"


@functools.cache
def article_figures() -> dict:
    """``assets/claims.toml``: per preset name, the file, chosen fabric, target days and claims."""
    with open(catalog.ASSETS_DIR / "claims.toml", "rb") as fh:
        data = tomllib.load(fh)
    data.pop("schema_version", None)
    return data


def preset_names() -> tuple[str, ...]:
    """Preset names in menu order: the three cases, then the three tiers."""
    return tuple(article_figures())


def preset_path(name: str):
    """Path of a preset's scenario file; a :class:`ScenarioError` for an unknown name."""
    figs = article_figures()
    if name not in figs:
        raise ScenarioError("preset", name, "one of " + ", ".join(figs) + suggest(name, figs))
    return PRESETS_DIR / figs[name]["preset"]


def load_preset(name: str = DEFAULT_PRESET) -> Scenario:
    """A preset as a validated scenario (the default is Case 2)."""
    return load_scenario(preset_path(name))


def solve_train_tokens_b(scenario: Scenario, fabric: str, target_days: float) -> float:
    """Training tokens [billions] that make ``fabric`` take ``target_days`` with interruptions.

    Exact in one evaluation because wall-clock days are proportional to tokens
    (module docstring).
    """
    from .engine import evaluate

    res = evaluate(scenario)
    days = float(res["train_days_with_interruptions"][res.fabric_index(fabric)])
    return scenario.workload.train_tokens_b * target_days / days


def solved_tokens(name: str) -> float:
    """The solved tokens of a preset under the seed profile, rounded to 4 significant figures."""
    fig = article_figures()[name]
    s = load_preset(name).replace("fabric.profile_set", "seed")
    return float(f"{solve_train_tokens_b(s, fig['chosen'], fig['after_days']):.4g}")


def _write_tokens(name: str, tokens_b: float) -> None:
    path = preset_path(name)
    text = path.read_text(encoding="utf-8")
    new = re.sub(r"(?m)^train_tokens_b = .*$", f"train_tokens_b = {tokens_b!r}", text, count=1)
    path.write_text(new, encoding="utf-8")


def main(argv=None) -> int:
    """``python -m model.presets [--write]``: solve every preset's training tokens."""
    argv = sys.argv[1:] if argv is None else argv
    for name in preset_names():
        fig = article_figures()[name]
        tokens = solved_tokens(name)
        print(f"{name:8} {fig['chosen']:11} {fig['after_days']:6.1f} days -> train_tokens_b = {tokens}")
        if "--write" in argv:
            _write_tokens(name, tokens)
    return 0


if __name__ == "__main__":
    sys.exit(main())
