"""Recommendation reasons in words: every code has an English and a Chinese template."""

import pytest

import model
from gui.present import reasons as reason_text
from model import presets, recommend


@pytest.mark.parametrize("lang", reason_text.LANGS)
def test_every_reason_code_has_a_template_in_every_language(lang):
    missing = [code for code in recommend.REASON_CODES if lang not in reason_text.TEMPLATES.get(code, {})]
    assert not missing, f"no {lang} template for {missing}"


@pytest.mark.parametrize("code", sorted(recommend.REASON_CODES))
def test_templates_use_exactly_the_codes_parameters(code):
    for lang in reason_text.LANGS:
        used = reason_text.template_fields(reason_text.TEMPLATES[code][lang])
        assert used <= set(recommend.REASON_CODES[code]) | {"currency"}, (code, lang, used)


def test_no_template_for_a_code_the_engine_does_not_know():
    assert set(reason_text.TEMPLATES) <= set(recommend.REASON_CODES)


@pytest.mark.parametrize("name", ["case1", "case2", "small"])
def test_every_reason_of_a_preset_reads_in_both_languages(name):
    s = presets.load_preset(name)
    res = model.evaluate(s)
    rec = recommend.recommendation(s, res)
    labels = dict(zip(res.fabrics, res.labels))
    for r in rec.reasons + recommend.takeaway(res, rec):
        en = reason_text.render(r, "en", labels=labels)
        zh = reason_text.render(r, "zh_CN", labels=labels)
        assert en and zh and en != zh and "{" not in en + zh
        assert any("\u4e00" <= ch <= "\u9fff" for ch in zh)


def test_parameters_are_formatted_by_name():
    r = recommend.Reason("takeaway", dict(fabric="infiniband", baseline="ethernet", baseline_days=32.61,
                                          days=12.998, per_run=5.75e3, baseline_per_run=49.5e3, per_mtok=0.158,
                                          saved_per_year=307e3, gpu_hours_per_year=-12.4, currency="CNY"))
    text = reason_text.render(r, labels={"infiniband": "InfiniBand", "ethernet": "Ethernet"})
    assert text == ("InfiniBand: 32.6 → 13.0 days, ¥5.75 k per training run instead of ¥49.5 k (¥0.158 per million "
                    "tokens); same work a year: ¥307 k saved, 12 GPU-hours more (vs Ethernet)")
    note = recommend.Reason("note.budget_below_servers", dict(budget=8e6, servers=33.9e6, nodes=24, currency="CNY"))
    assert "¥800 万" in reason_text.render(note, "zh") and "¥8.00 M" in reason_text.render(note, "en")
