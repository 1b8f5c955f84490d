"""Every source note of the asset files reads in Chinese in the Chinese product, and stays as written in English.

The notes (``source``, ``economics_source``… of assets/gpus.toml and the profile sets) reach the reader in the
proposal sheet, the pack's assumptions page and slide, and the controls' tooltips. They are listed for the
catalogue by ``tools/source_strings.py`` (``gui/i18n_sources.py``, context ``Sources``); these tests fail when
the list is stale, when a note has no finished Chinese, and when the Chinese assumptions still carry English
prose.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import model
from gui.present.assumptions import assumptions, titles_note
from model import catalog, presets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import source_strings  # noqa: E402

TS = source_strings.ROOT / "assets" / "i18n" / "fabric_whatif_zh_CN.ts"
CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBER = re.compile(r"\d(?:[\d.,]*\d)?")
# Titles in quotes ('The network is the key: …', “…”) stay as published.
QUOTED = re.compile(r"(?<![A-Za-z0-9])'[^']+'|“[^”]*”")
# English prose, which names never are: four or more lowercase words in a row ("the value that minimises",
# "per GPU with sparsity"), or one of the words no product, unit or publication name contains.
LOWERCASE_RUN = re.compile(r"(?<![\w/.-])[a-z][a-z-]*(?:[ ,;:]+[a-z][a-z-]*){3,}")
PROSE_WORDS = re.compile(r"\b(?:the|and|of|with|per|from|for|as|guess|guesses|derived|table|article|minus|"
                         r"launch|price|server|each|only|over|in|on|at|to|by|via|cores|datasheet|whitepaper|"
                         r"guide|dense|sparsity|bidirectional|direction|reported|host|round|trip|cloud)\b")


def english_prose(text: str) -> list[str]:
    """The English prose of ``text`` outside quoted publication titles ("et al." and identifiers aside)."""
    bare = QUOTED.sub(" ", text).replace("et al.", " ")
    return LOWERCASE_RUN.findall(bare) + PROSE_WORDS.findall(bare)


def _catalogue() -> dict[str, str | None]:
    """The ``Sources`` context of the Chinese catalogue: source note -> finished translation (None if unfinished)."""
    for ctx in ET.parse(TS).getroot().iter("context"):
        if ctx.findtext("name") == source_strings.CONTEXT:
            return {m.findtext("source"): (None if m.find("translation").get("type") else
                                           m.findtext("translation")) for m in ctx.iter("message")}
    return {}


def test_the_generated_module_lists_every_note_of_the_assets():
    """``gui/i18n_sources.py`` is what the tool writes from assets/ now (run ``--write`` after editing a note)."""
    notes = source_strings.source_notes()
    assert source_strings.MODULE.read_text(encoding="utf-8") == source_strings.module_text(notes), \
        "gui/i18n_sources.py is stale: run tools/source_strings.py --write, then make i18n"
    wanted = set()
    for gpu in catalog.gpus().values():  # every GPU, not only the presets'
        wanted |= {v for k, v in gpu.items() if k.endswith("source")}
    for name in catalog.PROFILE_SETS:  # every profile set, every fabric of it
        ps = catalog.profile_set(name)
        wanted |= {ps["source"], ps["reliability"]["source"], ps["economics"]["source"]}
        wanted |= {f["source"] for f in ps["fabrics"].values()}
    assert wanted <= set(notes), sorted(wanted - set(notes))


def test_the_collector_finds_notes_under_any_source_key(tmp_path):
    (tmp_path / "a.toml").write_text('source = "top"\n[x.y]\nfp8_source = "deep"\nnotes = "why"\nname = "no"\n'
                                     '[[z]]\neconomics_source = "listed"\n', encoding="utf-8")
    assert source_strings.source_notes(tmp_path) == ["top", "deep", "why", "listed"]


def test_every_note_has_finished_chinese_that_keeps_its_numbers():
    """A new or changed note in assets/ without Chinese fails here; a translation must be Chinese and keep every
    number of the note (figures, years, issue numbers)."""
    cat = _catalogue()
    notes = source_strings.source_notes()
    missing = [n for n in notes if not cat.get(n)]
    assert not missing, f"{len(missing)} notes without finished Chinese in {TS.name}, first: {missing[0]!r}"
    for note in notes:
        zh = cat[note]
        assert CJK.search(zh), (note, zh)
        lost = [x for x in NUMBER.findall(note) if x not in zh]
        assert not lost, (note, zh, lost)


def test_the_prose_check_catches_english_and_spares_names():
    assert english_prose("server price as DGX A100 40 GB launch (USD 199,000; guess for 80 GB)")
    assert english_prose("原文 §2.3 table：时延 50-150 us")
    assert english_prose("achievable fraction from nccl-tests issue 290")
    assert not english_prose("NVIDIA A100 Tensor Core GPU Architecture 白皮书（108 个 SM）；Cai et al.，SIGCOMM 2021")
    assert not english_prose("2026 年厂商博客文章 'The network is the key: the importance of RDMA and InfiniBand in "
                             "distributed training'，§2.1-§2.3；nccl-tests issue 290；ib_send_lat")


CASES = [(case, profile) for case in ("case1", "case2", "case3") for profile in ("seed", "published")]


@pytest.fixture
def chinese(qapp):
    from gui import i18n

    assert i18n.set_language("zh_CN")
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(("case", "profile"), CASES)
def test_chinese_assumptions_carry_no_english_prose(chinese, case, profile):
    """What the pack's assumptions page and slide and the one-page sheet list, in Chinese, for the article's
    three cases on both profile sets: every line Chinese, no English prose outside quoted titles."""
    s = presets.load_preset(case)
    if s.fabric.profile_set != profile:
        s = presets.switch_profile_set(s, profile, {})
    items = assumptions(s, model.evaluate(s))
    for what, src in items:
        assert CJK.search(src), (what, src)
        assert not english_prose(f"{what} {src}"), (what, src, english_prose(f"{what} {src}"))
    assert titles_note() == "出版物标题保留原文语言。"


def test_english_assumptions_keep_the_notes_as_written():
    s = presets.load_preset("case2")
    text = " ".join(src for _, src in assumptions(s, model.evaluate(s)))
    ps, gpu = catalog.profile_set(s.fabric.profile_set), catalog.gpu(s.cluster.gpu)
    for note in (ps["source"], ps["fabrics"]["ethernet"]["source"], gpu["source"], gpu["economics_source"],
                 ps["economics"]["source"]):
        assert note in text, note
    assert not CJK.search(text)
    assert titles_note() == "Publication titles stay in their original language."


def test_tornado_range_sources_in_chinese(chinese):
    from gui.charts.tornado import swing_source

    note = catalog.profile_set("seed")["fabrics"]["roce"]["source"]
    text = swing_source(f"seed profile: {note}")
    assert text.startswith("文章的输入 配置集：原文 §2.3 表格") and not english_prose(text), text
    assert swing_source("this scenario's value 3") == "this scenario's value 3"


def test_tornado_scaled_range_in_chinese(chinese):
    """A range the scenario's own value scales (model.analysis.ranged_values) reads in Chinese too."""
    from gui.charts.tornado import swing_source
    from model import analysis

    s = presets.load_preset("case2").replace("fabric.custom.roce.latency_us", 20.0)
    texts = [rv.source for rv in analysis.ranged_values(s)]
    assert any(t.startswith("this scenario's value") for t in texts), texts
    assert all(CJK.search(swing_source(t)) and not english_prose(swing_source(t)) for t in texts), \
        [swing_source(t) for t in texts]
