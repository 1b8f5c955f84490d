"""No Python file of the engine (``model/``) or the GUI (``gui/``) is longer than 600 lines.

A file past the limit holds more than one concept: it is split by concept (the scenario's sections, field
metadata and the scenario itself; NCCL's model apart from the α–β helpers; the sweep chart's drawing parts,
read-out and texts; …), not by line count.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("model", "gui")
MAX_LINES = 600

def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def long_files(root: Path) -> dict[str, int]:
    """Each ``.py`` file under ``root``'s packages longer than :data:`MAX_LINES`, by its path from ``root``."""
    out = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            n = line_count(path)
            if n > MAX_LINES:
                out[path.relative_to(root).as_posix()] = n
    return out


def test_no_file_is_longer_than_the_limit():
    over = long_files(ROOT)
    assert not over, (f"longer than {MAX_LINES} lines (split each by concept): "
                      + ", ".join(f"{p} ({n})" for p, n in over.items()))


def test_a_file_over_the_limit_is_found(tmp_path):
    """The check can fail: a file of 601 lines in a package is named, one of 600 and a file outside are not."""
    for rel, lines in (("model/long.py", MAX_LINES + 1), ("gui/charts/at_limit.py", MAX_LINES),
                       ("tools/outside.py", MAX_LINES + 50), ("gui/deep/er/long_too.py", 2 * MAX_LINES)):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n" * lines, encoding="utf-8")
    assert long_files(tmp_path) == {"gui/deep/er/long_too.py": 2 * MAX_LINES, "model/long.py": MAX_LINES + 1}
