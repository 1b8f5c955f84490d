"""Translations for text the assets produce: claim labels and the article's figures.

The recommendation is not here: the engine states it as reason codes with parameters
(``model.recommend``) and ``gui/present/reasons.py`` has their English and Chinese templates.
The claims table's labels and the article's figures are shown through :func:`tr_data`:

- a whole string the catalogue knows is translated as it stands (context ``Data``);
- otherwise the phrase rules (context ``DataPhrase``) replace what they know
  ("22 days" → "22 天") and leave numbers, units and names alone.

In English every function returns its input unchanged. The templates are in the
``.ts`` like every other string (marked with ``QT_TRANSLATE_NOOP``), so a translator
sees them in Qt Linguist.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP

from gui import i18n
from gui.i18n import translate

# Whole strings: claim labels, breakdown parts, preset groups.
DATA = (
    # the fabrics' full names in the profile sets (assets/profiles), shown in titles and tooltips
    QT_TRANSLATE_NOOP("Data", "Traditional Ethernet (TCP)"),
    QT_TRANSLATE_NOOP("Data", "RoCE (RDMA over Converged Ethernet)"),
    QT_TRANSLATE_NOOP("Data", "RoCE v2 (lossless, PFC)"),
    QT_TRANSLATE_NOOP("Data", "Latency"),
    QT_TRANSLATE_NOOP("Data", "Bandwidth per node"),
    QT_TRANSLATE_NOOP("Data", "Host CPU use"),
    QT_TRANSLATE_NOOP("Data", "Network interruptions per day"),
    QT_TRANSLATE_NOOP("Data", "Interruptions over the observed months"),
    QT_TRANSLATE_NOOP("Data", "Training days (with interruptions)"),
    QT_TRANSLATE_NOOP("Data", "Training time saved vs the baseline"),
    QT_TRANSLATE_NOOP("Data", "Network cost per node"),
    QT_TRANSLATE_NOOP("Data", "Network capex below InfiniBand"),
    QT_TRANSLATE_NOOP("Data", "TCO"),
    QT_TRANSLATE_NOOP("Data", "TCO saving vs the baseline (same cluster)"),
    QT_TRANSLATE_NOOP("Data", "TCO saving vs the baseline (same work)"),
    QT_TRANSLATE_NOOP("Data", "Cost per token below the baseline (same work)"),
    QT_TRANSLATE_NOOP("Data", "Electricity saving per year (same work)"),
    QT_TRANSLATE_NOOP("Data", "PUE"),
    QT_TRANSLATE_NOOP("Data", "Interruptions in one run"),
    QT_TRANSLATE_NOOP("Data", "Hours lost to interruptions in one run"),
    QT_TRANSLATE_NOOP("Data", "Cost of the hours lost (share of TCO)"),
    QT_TRANSLATE_NOOP("Data", "Compute"),
    QT_TRANSLATE_NOOP("Data", "Tensor-parallel comm"),
    QT_TRANSLATE_NOOP("Data", "Context-parallel ring (exposed)"),
    QT_TRANSLATE_NOOP("Data", "Expert all-to-all"),
    QT_TRANSLATE_NOOP("Data", "Pipeline comm"),
    QT_TRANSLATE_NOOP("Data", "Data-parallel comm (exposed)"),
    QT_TRANSLATE_NOOP("Data", "Pipeline bubble"),
    QT_TRANSLATE_NOOP("Data", "Loss recovery"),
    QT_TRANSLATE_NOOP("Data", "Host CPU limit"),
    QT_TRANSLATE_NOOP("Data", "Optimizer step"),
    QT_TRANSLATE_NOOP("Data", "Case studies"),
    QT_TRANSLATE_NOOP("Data", "Scale tiers"),
    QT_TRANSLATE_NOOP("Data", "Other"),
    # the presets' names (assets/presets/*.toml), shown in the menu, the toolbar, the chart captions and the sheet
    QT_TRANSLATE_NOOP("Data", "Case 1 · 8 × A10 · 5B (university lab, RoCE)"),
    QT_TRANSLATE_NOOP("Data", "Case 2 · 24 × A100 · 30B (autonomous driving, InfiniBand)"),
    QT_TRANSLATE_NOOP("Data", "Case 3 · 128 × H100 · 1T (AI computing centre, InfiniBand)"),
    QT_TRANSLATE_NOOP("Data", "Default: 24 × A100, 30B"),
    QT_TRANSLATE_NOOP("Data", "Large tier · 128 × H100 · 1T"),
    QT_TRANSLATE_NOOP("Data", "Medium tier · 32 × A100 · 50B"),
    QT_TRANSLATE_NOOP("Data", "Small tier · 4 × A10 · 10B"),
    QT_TRANSLATE_NOOP("Data", "Llama 3 405B · 16,384 × H100"),
    QT_TRANSLATE_NOOP("Data", "MoE · DeepSeek-V3 shape · 2,048 H100 (H800 stand-in)"),
    QT_TRANSLATE_NOOP("Data", "Dense counterpart of Mixtral 8x22B · 64 × 8 H100"),
    QT_TRANSLATE_NOOP("Data", "MoE · Mixtral 8x22B shape · 64 × 8 H100"),
    # the presets' descriptions (assets/presets/*.toml), shown in the preset menu, the toolbar's tooltip and the sheet
    QT_TRANSLATE_NOOP("Data", "Article case 1: 8 × A10 nodes, 5B model, RoCE chosen; 10 → 6.2 days"),
    QT_TRANSLATE_NOOP("Data", "Article case 2: 24 × A100 nodes, 30B model, InfiniBand chosen; 22 → 13 days"),
    QT_TRANSLATE_NOOP("Data",
                      "Article case 3: 128 × H100 nodes, 1T model, InfiniBand with liquid cooling; 60 → 32 days"),
    QT_TRANSLATE_NOOP("Data", "Llama 3 405B on 16,384 H100: sequence 8,192, GQA 8 KV heads, SwiGLU, FSDP as ZeRO-1 traffic with FP32 gradients, no activation checkpointing (fused kernels recompute the norms and SwiGLU products); plan searched"),
    QT_TRANSLATE_NOOP("Data",
                      "256 experts, top-8 + shared, EP 64 over 8 nodes, PP 16, FP8: expert all-to-all on the fabric"),
    QT_TRANSLATE_NOOP("Data", "Dense 39B with Mixtral 8x22B's active compute: the baseline for the MoE fabric gap"),
    QT_TRANSLATE_NOOP("Data",
                      "8 experts, top-2, 141B total / 39B active: expert all-to-all over NVLink and the fabric"),
    QT_TRANSLATE_NOOP("Data",
                      "Article large tier: > 32 nodes, 50B-1T parameters; InfiniBand 60 → 32 days for a 1T model"),
    QT_TRANSLATE_NOOP("Data",
                      "Article medium tier: 8-32 nodes, 10B-50B parameters; InfiniBand 28 → 16 days for a 50B model"),
    QT_TRANSLATE_NOOP("Data", "Article small tier: 2-8 nodes, 1B-10B parameters; RoCE 12 → 7.5 days for a 10B model"),
    # the article's money claims (assets/claims.toml), whole: the phrase rules would leave "CNY … M" half-translated
    QT_TRANSLATE_NOOP("Data", "CNY 4,200 per node"),
    QT_TRANSLATE_NOOP("Data", "≤ CNY 8 M over 5 years (cap)"),
    QT_TRANSLATE_NOOP("Data", "CNY 1.76 M below Ethernet over 5 years"),
    QT_TRANSLATE_NOOP("Data", "> CNY 1.8 M per year"),
    QT_TRANSLATE_NOOP("Data", "40 % below InfiniBand up front"),
)

# Field labels and units from model.fields' metadata (sliders, A/B changes).
FIELDS = (
    QT_TRANSLATE_NOOP("Field", "Bandwidth per NIC"), QT_TRANSLATE_NOOP("Field", "CNY per USD"),
    QT_TRANSLATE_NOOP("Field", "CPU share for network"), QT_TRANSLATE_NOOP("Field", "Checkpoint interval"),
    QT_TRANSLATE_NOOP("Field", "Checkpoint storage bandwidth"), QT_TRANSLATE_NOOP("Field", "Currency"),
    QT_TRANSLATE_NOOP("Field", "Checkpoint storage bandwidth per node"),
    QT_TRANSLATE_NOOP("Field", "Deadline"), QT_TRANSLATE_NOOP("Field", "Duty cycle"),
    QT_TRANSLATE_NOOP("Field", "Electricity (CNY)"), QT_TRANSLATE_NOOP("Field", "Electricity (USD)"),
    QT_TRANSLATE_NOOP("Field", "GPU"), QT_TRANSLATE_NOOP("Field", "GPU/host interruptions"),
    QT_TRANSLATE_NOOP("Field", "GPUs per node"), QT_TRANSLATE_NOOP("Field", "Global batch"),
    QT_TRANSLATE_NOOP("Field", "Host cores"), QT_TRANSLATE_NOOP("Field", "Latency"),
    QT_TRANSLATE_NOOP("Field", "Model parameters"), QT_TRANSLATE_NOOP("Field", "Network cost per node"),
    QT_TRANSLATE_NOOP("Field", "Network interruptions"), QT_TRANSLATE_NOOP("Field", "Nodes"),
    QT_TRANSLATE_NOOP("Field", "Oversubscription"), QT_TRANSLATE_NOOP("Field", "PUE"),
    QT_TRANSLATE_NOOP("Field", "Packet loss"), QT_TRANSLATE_NOOP("Field", "Restart time"),
    QT_TRANSLATE_NOOP("Field", "Sequence length"), QT_TRANSLATE_NOOP("Field", "Server price"),
    QT_TRANSLATE_NOOP("Field", "Switch radix"), QT_TRANSLATE_NOOP("Field", "Training tokens"),
    QT_TRANSLATE_NOOP("Field", "Years"),
    QT_TRANSLATE_NOOP("Field", "Adaptive routing"), QT_TRANSLATE_NOOP("Field", "Loss recovery"),
    QT_TRANSLATE_NOOP("Field", "Minimum RTO"),
    QT_TRANSLATE_NOOP("Field", "TCP segment size"),
    QT_TRANSLATE_NOOP("Field", "RDMA packet size"),
    QT_TRANSLATE_NOOP("Field", "TCP sockets per connection"),
    QT_TRANSLATE_NOOP("Field", "GPUDirect TCP"),
    QT_TRANSLATE_NOOP("Field", "Job placement"),
    QT_TRANSLATE_NOOP("Field", "Switch price"),
    QT_TRANSLATE_NOOP("Field", "Switch power"),
    QT_TRANSLATE_NOOP("Field", "NIC price"),
    QT_TRANSLATE_NOOP("Field", "NIC power"),
    QT_TRANSLATE_NOOP("Field", "Link price"),
    QT_TRANSLATE_NOOP("Field", "Spine switch price"), QT_TRANSLATE_NOOP("Field", "Core switch price"),
    QT_TRANSLATE_NOOP("Field", "Optic price"), QT_TRANSLATE_NOOP("Field", "Cable price"),
    QT_TRANSLATE_NOOP("Field", "Discount"), QT_TRANSLATE_NOOP("Field", "Support per year"),
    QT_TRANSLATE_NOOP("Field", "Optic power"),
    QT_TRANSLATE_NOOP("Field", "Queue pairs per connection"),
    QT_TRANSLATE_NOOP("Field", "SHARP"),
    QT_TRANSLATE_NOOP("Field", "Achievable bandwidth share"),
    QT_TRANSLATE_NOOP("Field", "Traffic per host core"),
    QT_TRANSLATE_NOOP("Field", "NICs per node"),
    QT_TRANSLATE_NOOP("Field", "GPU idle power share"),
    QT_TRANSLATE_NOOP("Field", "Operations per node-year"),
    QT_TRANSLATE_NOOP("Field", "GPU-hour price"),
    QT_TRANSLATE_NOOP("Field", "Checkpoint bytes per parameter"),
    QT_TRANSLATE_NOOP("Unit", "B tokens"), QT_TRANSLATE_NOOP("Unit", "years"), QT_TRANSLATE_NOOP("Unit", "days"),
    QT_TRANSLATE_NOOP("Unit", "min"), QT_TRANSLATE_NOOP("Unit", "per 10⁶ node·h"),
)


HELP = (  # the help texts the window's tooltips show
    QT_TRANSLATE_NOOP("FieldHelp", "Nodes (servers)"),
    QT_TRANSLATE_NOOP("FieldHelp", "GPUs in one node"),
    QT_TRANSLATE_NOOP("FieldHelp", "Model parameters, billions"),
    QT_TRANSLATE_NOOP("FieldHelp", "Tokens to train, billions"),
    QT_TRANSLATE_NOOP("FieldHelp", "Electricity price in CNY (give this or the USD one); default from the profile set"),
    QT_TRANSLATE_NOOP("FieldHelp", "Electricity price in USD (give this or the CNY one)"),
    QT_TRANSLATE_NOOP("FieldHelp", "Power usage effectiveness; default from the profile set"),
    QT_TRANSLATE_NOOP("FieldHelp", "Years of service for the TCO"),
    QT_TRANSLATE_NOOP("FieldHelp",
                      "Currency of every money output; default: the profile set's (seed CNY, published USD)"),
    QT_TRANSLATE_NOOP("FieldHelp", "One-way latency per network step"),
    QT_TRANSLATE_NOOP("FieldHelp", "Fraction of packets lost"),
    QT_TRANSLATE_NOOP("FieldHelp", "Line rate per NIC"),
)


def tr_help(text: str) -> str:
    """A field's help text from the model's metadata in the UI language."""
    return translate("FieldHelp", text) if text else text


def tr_field(label: str) -> str:
    """A field label from the model's metadata in the UI language."""
    return translate("Field", label) if label else label


def tr_unit(unit: str) -> str:
    return translate("Unit", unit) if unit else unit


def field_label(path: str) -> str:
    """A dotted scenario path as people say it: 'cluster.nodes' -> 'Nodes' (translated)."""
    from model.fields import field_meta
    from model.sections import SECTIONS, FabricSpec

    parts = path.split(".")
    try:
        if parts[0] == "fabric" and len(parts) >= 4 and parts[1] == "custom":
            meta = field_meta(FabricSpec, parts[-1])
            label = meta.get("label") or parts[-1]
            from model import catalog

            fabric = catalog.fabric_style(parts[2]).get("short", parts[2]) if parts[2] in catalog.BUILTIN_FABRICS \
                else parts[2]
            return f"{fabric}: {tr_field(label)}"
        meta = field_meta(SECTIONS[parts[0]], parts[1])
        return tr_field(meta.get("label") or parts[1].replace("_", " ").capitalize())
    except (KeyError, IndexError, AttributeError, TypeError, StopIteration):  # StopIteration: no such field
        return path


# Phrase rules, applied one after another to what no sentence pattern matched (the article's figures).
PHRASES = (
    (r"none in (\d+) months", QT_TRANSLATE_NOOP("DataPhrase", "none in {0} months")),
    (r"(\d[\d.,]*(?:[–-]\d[\d.,]*)?) days", QT_TRANSLATE_NOOP("DataPhrase", "{0} days")),
    (r"CNY ([\d.,]+(?: M)?) per node", QT_TRANSLATE_NOOP("DataPhrase", "CNY {0} per node")),
    (r"([\d.,]+) % below InfiniBand up front", QT_TRANSLATE_NOOP("DataPhrase", "{0} % below InfiniBand up front")),
    (r"\(cap ≤ ([^)]+)\)", QT_TRANSLATE_NOOP("DataPhrase", "(cap ≤ {0})")),
    (r"\(cap\)", QT_TRANSLATE_NOOP("DataPhrase", "(cap)")),
    (r"([\d.,]+ M) below Ethernet over (\d+) years",
     QT_TRANSLATE_NOOP("DataPhrase", "{0} below Ethernet over {1} years")),
    (r"over (\d+) years", QT_TRANSLATE_NOOP("DataPhrase", "over {0} years")),
    (r"per year", QT_TRANSLATE_NOOP("DataPhrase", "per year")),
    (r"\(before\)", QT_TRANSLATE_NOOP("DataPhrase", "(before)")),
)

_PHRASES = tuple((re.compile(rx), tpl) for rx, tpl in PHRASES)


def tr_name(name: str) -> str:
    """A scenario's name in the UI language: a preset's name translated, a user's name as it is."""
    return translate("Data", name) if name and i18n.is_chinese() else name


def tr_description(text: str) -> str:
    """A scenario's description in the UI language: a preset's translated whole, a user's as it is
    (never half-translated by the phrase rules)."""
    return translate("Data", text) if text and i18n.is_chinese() else text


def tr_data(text: str) -> str:
    """``text`` from the engine or the assets in the UI language (unchanged in English)."""
    if not text or not i18n.is_chinese():
        return text
    out = translate("Data", text)
    if out != text:
        return out
    for rx, tpl in _PHRASES:
        text = rx.sub(lambda m, t=tpl: translate("DataPhrase", t).format(*m.groups()), text)
    return text


__all__ = ["field_label", "tr_data", "tr_description", "tr_field", "tr_help", "tr_name", "tr_unit"]
