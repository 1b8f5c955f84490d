"""The article's case studies and scale tiers as scenario presets.

Each preset is an ordinary scenario file in ``assets/presets/`` (it loads
through :func:`model.load_scenario` like any user file). The article's figures
for each preset (the fabric it chose, its "after" duration, the claims) are in
``assets/claims.toml``.

Article values: a case preset's fabric overrides are the article's figures
(``article_values`` in ``assets/claims.toml`` names them). They are the seed
reading of the article, so :func:`switch_profile_set` drops the ones still
unchanged when the published set is chosen (every fabric then gets published
values) and puts them back for the seed set; a value the user changed stays.

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
1. The source article, §1, §3 and §4.
2. J. T. Daly, FGCS 22(3):303, 2006 (wall time linear in the failure-free time).
"""

from __future__ import annotations

import functools
import re
import sys
import tomllib

from . import catalog
from .errors import ScenarioError, suggest
from .files import load_scenario
from .scenario import Scenario

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


def preset_name_for_path(path) -> str | None:
    """The preset name (``case2`` ...) whose file is ``path``, if any."""
    if not path:
        return None
    return _preset_name_for(str(path))


@functools.lru_cache(maxsize=64)
def _preset_name_for(path: str) -> str | None:
    from pathlib import Path

    p = Path(path).resolve()
    for name in preset_names():
        if preset_path(name).resolve() == p:
            return name
    return None


def article_values(name: str | None) -> dict:
    """A preset's fabric values that are the article's figures: ``{"fabric.custom.F.key": value}``."""
    if name not in article_figures():
        return {}
    return dict(_article_values(name))


@functools.lru_cache(maxsize=16)
def _article_values(name: str) -> tuple:
    """:func:`article_values` as pairs, read once per preset (the shipped preset files do not change while the app
    runs; the window asks on every fabric change)."""
    s = load_preset(name)
    return tuple((f"fabric.custom.{p}", s.get(f"fabric.custom.{p}"))
                 for p in article_figures()[name].get("article_values", ()))


def switch_profile_set(scenario: Scenario, profile_set: str, article: dict) -> Scenario:
    """``scenario`` under ``profile_set``, fairly: no fabric keeps the article's values under another set.

    ``article`` is :func:`article_values` of the preset the scenario came from. Under any set
    but ``seed``, each article value the scenario still holds unchanged is dropped (the fabric
    takes that set's value); under ``seed`` each one the scenario does not set comes back. A
    value the user changed is the user's choice and stays either way. The cluster's wiring
    (:data:`CLUSTER_KEYS`: NICs per node, link speed) stays as it is under either set.
    """
    changes = {"fabric.profile_set": profile_set}
    for path, value in article.items():
        if path.rsplit(".", 1)[-1] in CLUSTER_KEYS:
            continue  # the cluster's wiring, not a fabric figure: kept below
        now = scenario.get(path)
        if profile_set != "seed" and now == value:
            changes[path] = None
        elif profile_set == "seed" and now is None:
            changes[path] = value
    changes.update(_kept_wiring(scenario, profile_set))
    return scenario.replace_many(changes)


CLUSTER_KEYS = ("link_gbps", "nics_per_node")
"""A fabric's values that describe the cluster as built (its NICs and their line rate), not the fabric's
figures: a profile switch keeps them as they are, so it never rewires (or re-prices) the cluster."""


def _profile_row(set_name: str, name: str, spec) -> dict:
    """A fabric's row in a profile set: its own, or (a user fabric) its transport's."""
    prof = catalog.profile_set(set_name)["fabrics"]
    if name in prof:
        return prof[name]
    transport = getattr(spec, "transport", None)
    return catalog.transport_profile(set_name, transport) if transport else {}


def _kept_wiring(scenario: Scenario, profile_set: str) -> dict:
    """The overrides that keep each compared fabric's :data:`CLUSTER_KEYS` under ``profile_set`` as they are
    now; an override the new set already gives is dropped (a round trip leaves the scenario as it was)."""
    custom = scenario.fabric.custom_dict()
    out = {}
    for name in scenario.fabric.fabrics:
        spec = custom.get(name)
        old = _profile_row(scenario.fabric.profile_set, name, spec)
        new = _profile_row(profile_set, name, spec)
        for key in CLUSTER_KEYS:
            path = f"fabric.custom.{name}.{key}"
            mine = getattr(spec, key, None) if spec is not None else None
            now = mine if mine is not None else old.get(key)
            if now is None:
                continue
            if new.get(key) == now:
                if mine is not None:
                    out[path] = None
            elif mine is None:
                out[path] = now
    return out


def overridden_values(scenario: Scenario, article: dict) -> list[tuple[str, str, object, bool]]:
    """Every fabric value the scenario sets over its profile set: ``(fabric, key, value, is_article)``."""
    out = []
    for name, spec in scenario.fabric.custom:
        for key, value in vars(spec).items():
            if value is None or key in ("transport", "label"):
                continue
            path = f"fabric.custom.{name}.{key}"
            out.append((name, key, value, path in article and article[path] == value))
    return out


def solve_train_tokens_b(scenario: Scenario, fabric: str, target_days: float) -> float:
    """Training tokens [billions] that make ``fabric`` take ``target_days`` with interruptions.

    Exact in one evaluation because wall-clock days are proportional to tokens
    (module docstring).
    """
    from .engine import evaluate

    res = evaluate(scenario)
    days = float(res.reliability.train_days_with_interruptions[res.fabric_index(fabric)])
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
