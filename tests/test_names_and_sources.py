"""Names and sources: nothing in the repo is named after a ticket, and no product file cites
a path outside the repo.

- Code, comments, tests and their file names name concepts, never issue numbers ("issue" then
  "#6", "issue6_", "issue-6"). A citation of a public tracker stays allowed when it names the
  tracker's repository ("NVIDIA/nccl-tests issue 212" is a publication).
- A source a user sees (profile sets, presets, GPU catalogue, claims, docstrings) names the
  publication itself, never the project's working folder ``shared/…`` or its notes files.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ["gui", "model", "assets", "benchmarks", "packaging", "tools"]
PRODUCT_FILES = ["pyproject.toml", "Makefile"]
TEXT_SUFFIXES = {".py", ".toml", ".md", ".sh", ".spec", ".csv", ".ts", ".txt", ".json", ".cfg", ".ini"}

# Files another branch is rewriting right now; each entry must still hold a hit (a stale entry
# fails below), so the list empties itself as the rewrites land.

# "issue" + " #6", "issue-#6", "issue 6", "issue6", "issue_6", "issues" + " #3 and #5" ...
TICKET = re.compile(r"\bissues?[ _#-]*#?\d+", re.IGNORECASE)
TICKET_IN_NAME = re.compile(r"issues?[_-]?\d", re.IGNORECASE)
# ... unless it names a public tracker: "NVIDIA/nccl issue 1048", "nccl-tests issue 212"
PUBLIC_TRACKER = re.compile(r"(nccl|nccl-tests|pyqtgraph|pyside|numpy|pytorch)\s*\(?$", re.IGNORECASE)
OUTSIDE_PATHS = re.compile(r"shared/|seed-figures|published-figures|performance-notes|seed-article"
                           r"|design/(ui|architecture)\.md|/work/")


def _files(dirs, singles):
    out = []
    for d in dirs:
        for p in sorted((ROOT / d).rglob("*")):
            if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts:
                out.append(p)
    out += [ROOT / f for f in singles if (ROOT / f).is_file()]
    return out


def _rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def ticket_references(text: str) -> list[str]:
    """Every issue-number reference in ``text`` that does not name a public tracker."""
    hits = []
    for m in TICKET.finditer(text):
        before = text[max(0, m.start() - 40):m.start()].replace("\n", " ").replace("#", " ").rstrip()
        if not PUBLIC_TRACKER.search(before):
            hits.append(m.group(0))
    return hits


@pytest.mark.parametrize("text, expected", [
    ("a comment (issue" + " #6)", ["issue" + " #6"]),
    ("from issue6_helpers import x", ["issue6"]),
    ("the issue-#3 resolver", ["issue-#3"]),
    ("NVIDIA/nccl issue 1048 (232.5 GB/s)", []),
    ("measured (NVIDIA/nccl-tests\n# issue 212)", []),
    ("an issue with the fit", []),
])
def test_the_ticket_pattern_tells_tickets_from_publications(text, expected):
    assert ticket_references(text) == expected


def test_no_file_is_named_after_a_ticket():
    named = [_rel(p) for p in _files(PRODUCT + ["tests"], PRODUCT_FILES) if TICKET_IN_NAME.search(p.name)]
    assert sorted(set(named)) == []


def test_no_code_comment_or_test_names_a_ticket():
    found = {}
    for p in _files(PRODUCT + ["tests"], PRODUCT_FILES + ["README.md"]):
        hits = ticket_references(p.read_text(encoding="utf-8", errors="replace"))
        if hits and _rel(p) != "tests/test_names_and_sources.py":
            found[_rel(p)] = hits
    assert found == {}


def test_no_product_file_cites_a_path_outside_the_repo():
    found = {}
    for p in _files(PRODUCT, PRODUCT_FILES):
        for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE_PATHS.search(line):
                found.setdefault(_rel(p), []).append(f"{n}: {line.strip()[:100]}")
    assert found == {}


def test_the_profile_sets_name_their_publications():
    """What the window shows as a profile set's source is a publication, with its title."""
    import tomllib

    seed = tomllib.loads((ROOT / "assets/profiles/seed.toml").read_text(encoding="utf-8"))
    published = tomllib.loads((ROOT / "assets/profiles/published.toml").read_text(encoding="utf-8"))
    assert "The network is the key" in seed["source"]
    assert "SIGCOMM" in published["source"] and "nccl" in published["source"]
    for source in (seed["source"], published["source"]):
        assert not OUTSIDE_PATHS.search(source)
