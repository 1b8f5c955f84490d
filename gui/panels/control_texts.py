"""The texts around the controls: each control's tooltip (what it is, where its value comes from,
what is allowed, the source), the fabric in focus's origin line, the window title and the
toolbar's scenario line. Plain functions of the scenario and the session, translated where they
are called (so a language switch only calls them again)."""

from __future__ import annotations

import functools
import html
from pathlib import Path

from model import catalog
from model.fields import field_meta
from model.sections import SECTIONS, FabricSpec

from gui.i18n import current_language, fmt_sig, translate
from gui.i18n_data import tr_description, tr_field, tr_help, tr_name, tr_unit
from gui.panels.overrides import overrides_html
from gui.present.text import profile_set_name, tr_source

APP_NAME = "Fabric What-If"


def fmt_value(v, scale: float = 1.0) -> str:
    """A field's value as a tooltip shows it (in the control's display units)."""
    if v is None:
        return "–"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        x = v * scale
        return f"{x:,.0f}" if float(x).is_integer() and abs(x) >= 1 else fmt_sig(x, 4)  # never an exponent
    return str(v)


@functools.lru_cache(maxsize=64)
def origin_text(path: str | None, name: str, _lang: str = "") -> str:
    """Where the loaded scenario came from, for tooltips: its name and file (``_lang`` keys the cache)."""
    if path:
        try:
            rel = Path(path).resolve().relative_to(catalog.ASSETS_DIR.parent)
        except ValueError:
            rel = Path(path).name
        return translate("MainWindow", "'{name}' ({path})").format(name=name, path=rel)
    return translate("MainWindow", "scenario '{name}'").format(name=name)


def _head(meta: dict, key: str, prefix: str = "") -> list[str]:
    return [f"<b>{prefix}{html.escape(tr_field(meta.get('label') or key))}</b>",
            html.escape(tr_help(meta.get("help", "")))]


def _source_line(src) -> str:
    return "<i>" + translate("MainWindow", "Source: {source}").format(source=html.escape(str(src))) + "</i>"


def field_tooltip(path: str, *, now, loaded, origin: str, unit: str, scale: float = 1.0, from_profile: bool = False,
                  profile_set: str = "", profile_source: str = "") -> str:
    """A scenario field's slider: what it is, whether it is edited, what is allowed and its source."""
    section, key = path.split(".", 1)
    meta = field_meta(SECTIONS[section], key)
    src = meta.get("source")
    lines = _head(meta, key)
    if from_profile:
        lines.append(translate("MainWindow", "Not set by the scenario: the {profile} profile set's value").format(
            profile=html.escape(profile_set_name(profile_set))))
        src = src or profile_source
    elif now != loaded:
        lines.append(translate("MainWindow", "Edited; {origin} sets {value}").format(
            origin=html.escape(origin), value=fmt_value(loaded, scale)))
    else:
        lines.append(translate("MainWindow", "Value from {origin}").format(origin=html.escape(origin)))
    lines.append(translate("MainWindow", "Allowed: {lo} – {hi} {unit}").format(
        lo=fmt_value(meta.get("lo"), scale), hi=fmt_value(meta.get("hi"), scale), unit=html.escape(unit)))
    if src:
        lines.append(_source_line(src))
    return "<br>".join(lines)


def choice_tooltip(path: str, origin: str) -> str:
    """A scenario field chosen from a list (the currency)."""
    section, key = path.split(".", 1)
    meta = field_meta(SECTIONS[section], key)
    lines = _head(meta, key)
    if meta.get("source"):
        lines.append(_source_line(meta["source"]))
    lines.append(translate("MainWindow", "Value from {origin}").format(origin=html.escape(origin)))
    return "<br>".join(lines)


def fabric_tooltip(key: str, *, label: str, source: str, profile_name: str, profile_value, guess: bool,
                   article_range, entry_source: str | None, scale: float = 1.0) -> str:
    """A value of the fabric in focus: set by the scenario or the profile, the article's range, the source."""
    meta = field_meta(FabricSpec, key)
    if source == "scenario":
        origin = translate("MainWindow", "Set by the scenario, not the profile; profile value ({profile}): "
                                         "{value}").format(profile=profile_name, value=fmt_value(profile_value, scale))
    else:
        origin = translate("MainWindow", "From the {profile} profile set").format(profile=profile_name) + (
            translate("MainWindow", " — a guess, no published source") if guess else "")
    return (f"<b>{html.escape(label)}: {html.escape(tr_field(meta.get('label') or key))}</b><br>"
            f"{html.escape(tr_help(meta.get('help', '')))}<br>{html.escape(origin)}"
            + ("<br>" + translate("MainWindow", "Article range: {lo} – {hi}").format(lo=f"{article_range[0]:g}",
                                                                                   hi=f"{article_range[1]:g}")
               if article_range else "")
            + "<br>" + _source_line(entry_source if entry_source is not None
                                    else translate("MainWindow", "engine default")))


def fabric_choice_tooltip(key: str, source: str) -> str:
    """Adaptive routing, loss recovery: the field's help and the profile's source."""
    return html.escape(field_meta(FabricSpec, key).get("help", "")) + "<br><i>" + html.escape(source) + "</i>"


def gpu_tooltip(gpu: str) -> str:
    entry = catalog.gpu(gpu)
    return f"<b>{html.escape(entry.get('name', gpu))}</b><br>{html.escape(tr_source(entry.get('source', '')))}"


def fabric_origin(label: str, profile_name: str, *, changed: bool, set_by_scenario: bool, scenario,
                  source_path: str | None) -> str:
    """The line under the fabric controls: the fabric, its profile, edited or set by the scenario, overrides
    (the overrides depend on the fabric section and the source only: kept per language, see
    :func:`_overrides`)."""
    text = translate("MainWindow", "{fabric} · {profile} profile").format(fabric=html.escape(label),
                                                                        profile=profile_name)
    if changed:
        text += translate("MainWindow", " · edited")
    elif set_by_scenario:
        text += translate("MainWindow", " · values set by the scenario")
    extra = _overrides(scenario.fabric, source_path, current_language())
    return text + ("<br>" + extra if extra else "")


@functools.lru_cache(maxsize=32)
def _overrides(fabric, source_path: str | None, _lang: str) -> str:
    """:func:`gui.panels.overrides.overrides_html` of a scenario with this fabric section: it reads the
    preset's article values from its file, too slow for every step of a slider drag."""
    return overrides_html(_FabricOnly(fabric), source_path)


class _FabricOnly:
    """A scenario as far as :func:`overrides_html` reads one (its fabric section)."""

    def __init__(self, fabric):
        self.fabric = fabric


def scenario_name(s, edited: bool) -> str:
    return tr_name(s.name) + (translate("MainWindow", " (edited)") if edited else "")


def window_title(s, edited: bool) -> str:
    return translate("MainWindow", "{name} — profile: {profile} — {app}").format(
        name=scenario_name(s, edited), profile=profile_set_name(s.fabric.profile_set), app=APP_NAME)


def scenario_line(s, edited: bool) -> tuple[str, str]:
    """The toolbar's scenario line and its tooltip (the line and the description)."""
    c = s.cluster
    gname = catalog.gpu(c.gpu).get("name", c.gpu).replace("NVIDIA ", "")
    text = translate(
        "MainWindow", "<b>{name}</b> &nbsp;·&nbsp; {nodes} × {gpn} {gpu} &nbsp;·&nbsp; {params} B params "
                      "&nbsp;·&nbsp; profile: <b>{profile}</b>").format(
        name=html.escape(scenario_name(s, edited)), nodes=f"{c.nodes:,}", gpn=c.gpus_per_node,
        gpu=html.escape(gname), params=fmt_sig(s.workload.params_b, 4),
        profile=html.escape(profile_set_name(s.fabric.profile_set)))
    desc = tr_description(s.description) if s.description else ""
    return text, text + (f"<br>{html.escape(desc)}" if desc else "")


def _field_meta_of(path: str) -> tuple[dict, str] | None:
    """A dotted scenario path's metadata and its control's key ("fabric.custom.roce.latency_us" ->
    "fabric.latency_us"), or None for a path that names no field."""
    parts = path.split(".")
    try:
        if parts[0] == "fabric" and len(parts) >= 4 and parts[1] == "custom":
            return field_meta(FabricSpec, parts[-1]), "fabric." + parts[-1]
        return field_meta(SECTIONS[parts[0]], parts[1]), ".".join(parts[:2])
    except (KeyError, IndexError, StopIteration, TypeError):
        return None


def range_message(path: str, value, display: dict) -> tuple[str, str] | None:
    """``value`` and what the field at ``path`` allows, as the window shows them: in the control's units and
    scale (``display``: each control's ``scale`` and ``unit`` by its key, where they are not the engine's:
    packet loss in %, not the engine's fraction), with thousands separators, translated ("90 %",
    "a number from 0 to 50 %"); None when ``value`` is not a number outside the field's limits (the
    engine's own words stay)."""
    import math

    found = _field_meta_of(path)
    if found is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    meta, key = found
    lo, hi = meta.get("lo"), meta.get("hi")
    if lo is None or meta.get("choices"):
        return None
    inside = math.isfinite(value) and value >= lo and (hi is None or value <= hi or meta.get("inf_ok"))
    if inside and not (meta.get("lo_open") and value == lo):
        return None
    display = display.get(key, {})
    scale = float(display.get("scale", 1.0))
    unit = display.get("unit") or tr_unit(meta.get("unit") or "")

    def shown(v) -> str:
        return fmt_value(v, scale) + (f" {unit}" if unit else "")

    whole = isinstance(meta.get("lo"), int) and isinstance(hi, int)
    if hi is None:
        allowed = (translate("FieldRange", "a number above {lo}") if meta.get("lo_open")
                   else translate("FieldRange", "a number of at least {lo}")).format(lo=shown(lo))
    elif whole:
        allowed = translate("FieldRange", "a whole number from {lo} to {hi}").format(lo=fmt_value(lo, scale),
                                                                                      hi=shown(hi))
    else:
        allowed = (translate("FieldRange", "a number above {lo} and at most {hi}") if meta.get("lo_open") else
                   translate("FieldRange", "a number from {lo} to {hi}")).format(lo=fmt_value(lo, scale), hi=shown(hi))
    value_text = shown(value) if math.isfinite(value) else str(value)
    return value_text, allowed


def point_title(s) -> str:
    c = s.cluster
    return translate(
        "MainWindow", "<b>At this point</b>: {nodes} nodes × {gpus} GPUs, {params} B parameters, {tokens} B "
                      "tokens").format(nodes=f"{c.nodes:,}", gpus=c.gpus_per_node,
                                       params=fmt_sig(s.workload.params_b, 4),
                                       tokens=fmt_sig(s.workload.train_tokens_b, 4))


__all__ = ["APP_NAME", "choice_tooltip", "fabric_choice_tooltip", "fabric_origin", "fabric_tooltip", "field_tooltip",
           "fmt_value", "gpu_tooltip", "origin_text", "point_title", "range_message", "scenario_line", "scenario_name",
           "window_title"]
