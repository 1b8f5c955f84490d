"""Which fabric values the scenario sets over its profile set, and which of them are the article's.

Shown under the fabric controls so that a comparison is never quietly unfair: after
switching to the published set, any value still overridden is named here (an article
value only when the user kept it on purpose, see :func:`model.presets.switch_profile_set`).
"""

from __future__ import annotations

import html

from model import catalog, presets
from model.fields import field_meta
from model.sections import FabricSpec

from gui.i18n import translate
from gui.i18n_data import tr_field, tr_unit
from gui.present.text import profile_set_name


def _value_text(key: str, value) -> str:
    meta = field_meta(FabricSpec, key)
    unit = meta.get("unit") or ""
    if key == "loss_rate":
        return f"{value * 100:g} %"
    text = f"{value:,g}" if isinstance(value, (int, float)) else str(value)
    return f"{text} {tr_unit(unit)}".strip()


def overrides_html(scenario, source_path) -> str:
    """'Set by the scenario: InfiniBand latency 10 µs (article), ...' ('' when nothing is overridden)."""
    article = presets.article_values(presets.preset_name_for_path(source_path))
    rows = presets.overridden_values(scenario, article)
    if not rows:
        return ""
    parts = []
    for fabric, key, value, is_article in rows:
        meta = field_meta(FabricSpec, key)
        name = catalog.fabric_style(fabric).get("short", fabric) if fabric in catalog.BUILTIN_FABRICS else fabric
        text = f"{name}: {tr_field(meta.get('label') or key)} {_value_text(key, value)}"
        if is_article:
            text += translate("Overrides", " (article)")
        elif key in presets.CLUSTER_KEYS:  # kept from the cluster as built when the profile set was switched
            text += translate("Overrides", " (cluster)")
        parts.append(html.escape(text))
    return translate("Overrides", "Set by the scenario over the {profile} profile: {list}").format(
        profile=html.escape(profile_set_name(scenario.fabric.profile_set)), list="; ".join(parts))


__all__ = ["overrides_html"]
