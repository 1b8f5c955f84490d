"""The recommendation's reasons in words: one English and one Chinese template per reason code.

``model.recommend`` states every reason as a code with parameters
(:class:`model.recommend.Reason`); this module turns one into a sentence. It imports
no Qt, so the CLI, the proposal sheet and the window share it. Parameters are
formatted by their name:

- fabric ids (``pick``, ``runner_up``, ``engine``, ``tree``, ``faster``, ``cheaper``)
  become the fabric's label; ``fabrics`` a list ("RoCE, iWARP and InfiniBand");
- ``*_days`` and ``deadline_days`` are days, ``nodes`` and ``params_b`` plain numbers;
- ``margin``, ``threshold`` and ``*_saving`` are fractions shown as percentages;
  ``*_change`` is a signed fraction shown as "12.3 % lower" / "低 12.3 %", ``*_delta`` as "−59 %";
- ``budget`` and ``servers`` are money in the reason's ``currency``.

A test fails when a code of :data:`model.recommend.REASON_CODES` lacks a template in
either language, or a template names a parameter the code does not have.
"""

from __future__ import annotations

import math
import string

from model.recommend import Reason

from gui.present.format import currency_symbol, fmt_sig
from gui.present.plausibility import stall_text

LANGS = ("en", "zh")

_WHY_EN = "the tree looks at node count and model size, not at link speed, latency or price"
_WHY_ZH = "决策树只看节点数和模型规模，不看链路速率、延迟和价格"

TEMPLATES = {
    "tree.large_cluster": {
        "en": "more than {nodes} nodes: InfiniBand is the only choice",
        "zh": "超过 {nodes} 个节点：只能选 InfiniBand"},
    "tree.large_model": {
        "en": "more than {params_b}B parameters: InfiniBand",
        "zh": "参数超过 {params_b}B：InfiniBand"},
    "tree.small_cluster": {
        "en": "{nodes} nodes or fewer: RoCE",
        "zh": "{nodes} 个节点及以下：RoCE"},
    "tree.limited_budget": {
        "en": "limited budget and a good existing Ethernet: RoCE",
        "zh": "预算有限且已有良好的以太网：RoCE"},
    "tree.weak_operations": {
        "en": "weak operations team: RoCE is easier to run",
        "zh": "运维团队较弱：RoCE 更易运维"},
    "tree.small_model": {
        "en": "{params_b}B parameters or fewer: RoCE",
        "zh": "参数不超过 {params_b}B：RoCE"},
    "tree.mid_cluster": {
        "en": "{nodes_low}–{nodes_high} nodes with a {params_low_b}B–{params_high_b}B model: InfiniBand preferred",
        "zh": "{nodes_low}–{nodes_high} 个节点、{params_low_b}B–{params_high_b}B 模型：首选 InfiniBand"},
    "criterion.deadline": {
        "en": "lowest TCO finishing within {deadline_days} days",
        "zh": "{deadline_days} 天内完成训练且 TCO 最低"},
    "criterion.budget": {
        "en": "fastest with a TCO within the {budget} budget",
        "zh": "TCO 不超过 {budget} 预算时最快"},
    "criterion.cost_per_run": {
        "en": "lowest cost per training run",
        "zh": "每次训练成本最低"},
    "criterion.deadline_missed": {
        "en": "no fabric finishes within {deadline_days} days: the fastest instead",
        "zh": "没有网络能在 {deadline_days} 天内完成：改选最快的"},
    "criterion.budget_missed": {
        "en": "no fabric's TCO fits the {budget} budget: the fastest instead",
        "zh": "没有网络的 TCO 在 {budget} 预算内：改选最快的"},
    "note.budget_below_servers": {
        "en": "The {budget} budget cannot hold the {nodes} GPU servers alone ({servers}), so it is not used "
              "as a goal; fabrics are ranked by cost per training run.",
        "zh": "{budget} 的预算连 {nodes} 台 GPU 服务器（{servers}）都不够，因此不作为目标；"
              "按每次训练成本比较网络。"},
    "verdict.winner": {
        "en": "{pick} is {margin} ahead of {runner_up}: more than the model's uncertainty (P10–P90) and "
              "the {threshold} threshold",
        "zh": "{pick} 领先 {runner_up} {margin}：超过模型的不确定范围（P10–P90）和 {threshold} 阈值"},
    "verdict.tie": {
        "en": "{fabrics} are equivalent: they differ by less than the model's uncertainty (P10–P90) or "
              "the {threshold} threshold",
        "zh": "{fabrics} 相当：差距小于模型的不确定范围（P10–P90）或 {threshold} 阈值"},
    "separate.trade_off": {
        "en": "{faster} finishes sooner ({faster_days} vs {slower_days} days) and {cheaper} costs {tco_saving} "
              "less to own: a deadline or a budget would separate them.",
        "zh": "{faster} 更快（{faster_days} 天对 {slower_days} 天），{cheaper} 的 TCO 低 {tco_saving}："
              "设定工期或预算即可区分。"},
    "separate.measure": {
        "en": "A measured latency and bandwidth (nccl-tests) and the vendors' price quotes would separate "
              "{fabrics}.",
        "zh": "实测的延迟和带宽（nccl-tests）以及厂商报价可以区分 {fabrics}。"},
    "verdict.infeasible": {
        "en": "no parallel plan fits this model on this cluster for any fabric: add nodes or memory, "
              "or shrink the model",
        "zh": "任何网络下该模型都无法在此集群上找到可行的并行方案：请增加节点或显存，或缩小模型"},
    "diff.not_compared": {
        "en": "The tree names {tree}, which this scenario does not compare.",
        "zh": "决策树选择的 {tree} 不在本场景的比较范围内。"},
    "diff.none_meets": {
        "en": "No fabric meets the goal, and {engine} is the fastest ({engine_days} vs {tree_days} days for "
              "{tree}); " + _WHY_EN + ".",
        "zh": "没有网络能达到目标，{engine} 最快（{engine_days} 天，{tree} 为 {tree_days} 天）；" + _WHY_ZH + "。"},
    "diff.tree_misses_deadline": {
        "en": "{tree} misses the {deadline_days}-day deadline ({tree_days} days) and {engine} meets it "
              "({engine_days} days); " + _WHY_EN + ".",
        "zh": "{tree} 赶不上 {deadline_days} 天的工期（{tree_days} 天），{engine} 能赶上（{engine_days} 天）；"
              + _WHY_ZH + "。"},
    "diff.cheaper_within_deadline": {
        "en": "{engine} meets the deadline at {tco_change} TCO than {tree} ({engine_days} vs {tree_days} days); "
              + _WHY_EN + ".",
        "zh": "{engine} 能赶上工期，TCO 比 {tree} {tco_change}（{engine_days} 天对 {tree_days} 天）；"
              + _WHY_ZH + "。"},
    "diff.tree_over_budget": {
        "en": "{tree}'s TCO is over the budget and {engine} is the fastest fabric within it "
              "({engine_days} vs {tree_days} days); " + _WHY_EN + ".",
        "zh": "{tree} 的 TCO 超出预算，{engine} 是预算内最快的网络（{engine_days} 天对 {tree_days} 天）；"
              + _WHY_ZH + "。"},
    "diff.faster_within_budget": {
        "en": "{engine} is faster than {tree} within the budget ({engine_days} vs {tree_days} days); "
              + _WHY_EN + ".",
        "zh": "在预算内 {engine} 比 {tree} 更快（{engine_days} 天对 {tree_days} 天）；" + _WHY_ZH + "。"},
    "diff.cheaper_per_run": {
        "en": "{engine} costs {per_run_change} per training run than {tree} ({engine_days} vs {tree_days} "
              "days); " + _WHY_EN + ".",
        "zh": "{engine} 每次训练的成本比 {tree} {per_run_change}（{engine_days} 天对 {tree_days} 天）；"
              + _WHY_ZH + "。"},
    "takeaway": {
        "en": "{fabric}: {baseline_days} → {days} days, {per_run} per training run instead of {baseline_per_run} "
              "({per_mtok} per million tokens); same work a year: {saved_per_year}, {gpu_hours_per_year} "
              "(vs {baseline})",
        "zh": "{fabric}：{baseline_days} → {days} 天，每次训练 {per_run}（原为 {baseline_per_run}；每百万 token "
              "{per_mtok}）；每年同样的工作量：{saved_per_year}，{gpu_hours_per_year}（对比 {baseline}）"},
    "takeaway.alone": {
        "en": "{fabric}: {days} days, {per_run} per training run ({per_mtok} per million tokens)",
        "zh": "{fabric}：{days} 天，每次训练 {per_run}（每百万 token {per_mtok}）"},
    "takeaway.tco": {
        "en": "same cluster's {years}-year TCO {tco_change} than {baseline}'s, for {work_ratio} the work",
        "zh": "同一集群 {years} 年 TCO 比 {baseline} {tco_change}，完成的工作量为其 {work_ratio}"},
    "note.stalls": {
        "en": "{fabric} {cause}: no figure against it is a forecast",
        "zh": "{fabric} {cause}：与它相比的数字都不构成预测"},
}

# the day parameters and the fabric each belongs to (a fabric that stalls shows "stalls — cause" instead)
DAYS_OF = {"days": "fabric", "baseline_days": "baseline", "engine_days": "engine", "tree_days": "tree",
           "faster_days": "faster", "slower_days": "cheaper"}
PERCENT_WORDS = {"en": ("lower", "higher"), "zh": ("低", "高")}

FABRIC_PARAMS = frozenset({"pick", "runner_up", "engine", "tree", "faster", "cheaper", "fabric", "baseline"})
_SYMBOLS = {"CNY": "¥", "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}


def template_fields(template: str) -> set[str]:
    """The parameter names a template uses."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _plain_money(v: float, currency: str, lang: str) -> str:
    sym = _SYMBOLS.get(currency, currency + " " if currency else "")
    steps = ((1e8, " 亿"), (1e4, " 万")) if lang == "zh" else ((1e9, " bn"), (1e6, " M"), (1e3, " k"))
    for scale, suffix in steps:
        if abs(v) >= scale:
            x = v / scale
            return f"{sym}{x:,.{max(0, 2 - int(math.floor(math.log10(abs(x)))))}f}{suffix}"
    return f"{sym}{v:,.0f}"


def _list(names, lang: str) -> str:
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    if lang == "zh":
        return "、".join(names[:-1]) + " 和 " + names[-1]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _pct(x: float) -> str:
    a = abs(x) * 100
    return f"{a:.1f} %" if a < 10 else f"{a:.0f} %"


MONEY_PARAMS = frozenset({"budget", "servers", "per_run", "baseline_per_run", "per_mtok"})


def _signed_words(key: str, v: float, text: str, lang: str) -> str:
    """A yearly saving or GPU-hours for the same work, in words: '¥1.2 M saved' / '¥1.2 M more'."""
    if key == "saved_per_year":
        words = {"en": ("{x} saved", "{x} more"), "zh": ("节省 {x}", "多花 {x}")}
    else:
        words = {"en": ("{x} GPU-hours freed", "{x} GPU-hours more"), "zh": ("腾出 {x} GPU 小时", "多用 {x} GPU 小时")}
    return words[lang][0 if v >= 0 else 1].format(x=text)


def _value(key: str, v, reason: Reason, lang: str, labels: dict, money, stalls: dict) -> str:
    if key in FABRIC_PARAMS:
        return labels.get(v, v) if v is not None else "–"
    if key == "fabrics":
        return _list((labels.get(f, f) for f in v), lang)
    if key == "cause":
        return stall_text(v)
    if key in DAYS_OF and reason.params.get(DAYS_OF[key]) in stalls:
        return stall_text(stalls[reason.params[DAYS_OF[key]]])
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    # a percentage against a fabric that stalls compares a forecast with no forecast: its direction only
    beside_stall = any(reason.params.get(k) in stalls for k in FABRIC_PARAMS)
    if key.endswith("_change"):
        lower, higher = PERCENT_WORDS[lang]
        word = lower if v < 0 else higher
        if beside_stall:
            return word
        return f"{word} {_pct(v)}" if lang == "zh" else f"{_pct(v)} {word}"
    if key.endswith("_delta"):  # signed: '+3 %', '−59 %'
        return ("−" if v < 0 else "+") + _pct(v)
    if key in ("margin", "threshold") or key.endswith("_saving"):
        if beside_stall and key != "threshold":
            return "far" if lang == "en" else "很多"
        return _pct(v)
    if key == "per_mtok" and abs(v) < 1000:  # cents count here: ¥0.158, not ¥0
        return currency_symbol(reason.params.get("currency", "")) + fmt_sig(v, 3)
    if key in MONEY_PARAMS:
        return money(float(v), reason.params.get("currency", ""))
    if key == "saved_per_year":
        return _signed_words(key, v, money(abs(float(v)), reason.params.get("currency", "")), lang)
    if key == "gpu_hours_per_year":  # counted as money is, without a symbol: 106.7 k / 10.67 万
        return _signed_words(key, v, _plain_money(abs(v), "", lang) if abs(v) >= 1e4 else f"{abs(v):,.0f}", lang)
    if key == "work_ratio":
        return f"{v:,.1f}×"
    if key == "days" or (key.endswith("_days") and key != "deadline_days"):
        return f"{v:,.1f}"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def render(reason: Reason | None, lang: str = "en", *, labels: dict | None = None, money=None,
           stalls: dict | None = None) -> str:
    """``reason`` as a sentence in ``lang`` ('en' or 'zh'; 'zh_CN' is read as 'zh'); '' for ``None``.

    ``labels`` maps fabric ids to the names shown (default: the ids); ``money(value, currency)``
    formats money (default: '¥8 M' / '¥800 万'); ``stalls`` (``{fabric: cause code}``, the credibility
    guard's :func:`gui.present.plausibility.point_stalls`) shows a stalling fabric's days as
    "stalls — cause" and a percentage against it by its direction only.
    """
    if reason is None:
        return ""
    lang = "zh" if lang.startswith("zh") else "en"
    labels = labels or {}
    money = money or (lambda v, cur: _plain_money(v, cur, lang))
    template = TEMPLATES[reason.code][lang]
    values = {k: _value(k, v, reason, lang, labels, money, stalls or {}) for k, v in reason.params.items()}
    return template.format(**values)


__all__ = ["LANGS", "TEMPLATES", "render", "template_fields"]
