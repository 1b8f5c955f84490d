"""The app's non-interactive flags (the bundled app's smoke test and a presales demo file use them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import pdfread  # tests/pdfread.py

ROOT = Path(__file__).resolve().parents[2]


def _app(tmp_path, *args):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", FABRIC_WHATIF_SETTINGS=str(tmp_path / "s.ini"))
    return subprocess.run([sys.executable, "-W", "error", "-m", "gui.app", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_proposal_flag_exports_the_windows_sheet(tmp_path):
    """`--proposal PDF` writes the sheet of the scenario the window shows (here a preset given on the line)."""
    out = tmp_path / "p.pdf"
    preset = ROOT / "assets" / "presets" / "case3_centre_128xH100_1T.toml"
    r = _app(tmp_path, preset, "--proposal", out)
    assert r.returncode == 0, r.stderr
    assert pdfread.page_count(out) == 1
    flat = " ".join(pdfread.text(out).split())
    assert "NETWORK FABRIC PROPOSAL" in flat and "128 nodes" in flat, flat[:300]


@pytest.mark.slow
def test_proposal_flag_with_a_bad_path_says_so_in_one_line(tmp_path):
    r = _app(tmp_path, "--default", "--proposal", tmp_path / "sheet.docx")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and ".docx" in lines[0] and ".pdf" in lines[0]
    assert not (tmp_path / "sheet.docx").exists()
