"""`make i18n` (tools/i18n.sh) leaves a clean tree unchanged.

The committed .ts must be exactly what pyside6-lupdate writes for the committed sources, and
the .qm what pyside6-lrelease compiles from it: otherwise the next `make i18n` rewrites them
(a whitespace-only diff of thousands of lines, or a stale catalogue). The script runs on a
copy of the sources, so the work tree is never touched.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # the venv's bin: pyside6-lupdate and pyside6-lrelease come with PySide6


def test_make_i18n_changes_nothing(tmp_path):
    if not (BIN / "pyside6-lupdate").exists() or not (BIN / "pyside6-lrelease").exists() or not shutil.which("bash"):
        pytest.skip("pyside6-lupdate/lrelease or bash not found next to this Python")
    for rel in ("tools", "gui", "assets/i18n"):
        shutil.copytree(ROOT / rel, tmp_path / rel, ignore=shutil.ignore_patterns("__pycache__"))
    r = subprocess.run(["bash", str(tmp_path / "tools" / "i18n.sh")], capture_output=True, text=True,
                       env={"PATH": "/usr/bin:/bin", "VENV": str(BIN.parent)}, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 unfinished" in r.stdout, r.stdout  # every string has its translation
    committed = sorted(p.name for p in (ROOT / "assets" / "i18n").iterdir())
    assert sorted(p.name for p in (tmp_path / "assets" / "i18n").iterdir()) == committed
    for name in committed:
        new, old = (tmp_path / "assets" / "i18n" / name).read_bytes(), (ROOT / "assets" / "i18n" / name).read_bytes()
        assert new == old, f"`make i18n` rewrites assets/i18n/{name}: run it and commit the result"
