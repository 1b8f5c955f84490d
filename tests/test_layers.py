"""The layers hold: import contracts, and a command line that runs without Qt.

- The import-linter contracts in ``pyproject.toml`` (``[tool.importlinter]``): the engine
  imports no GUI, the presentation layer (``gui.present``) imports no Qt and no widget
  module, no two gui modules import each other (imports inside functions count), the
  command line's own modules import no Qt, views (charts, panels) import no dialog, export,
  feature or window; the engine's modules form layers (engine → plan search → step time →
  plan fit → network → inputs → leaf physics) and so do the gui's parts (app → window →
  features → dialogs, exports, command line → panels → charts → presentation), each
  importing only those below it.
- Every headless command — ``evaluate``, ``validate``, ``claims``, ``calibrate``, ``nccl``
  and ``export … .csv`` — runs in a fresh interpreter without loading PySide6, pyqtgraph or
  superqt (PNG, SVG and PDF exports draw with Qt and may load it).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRESET = ROOT / "assets" / "presets" / "case3_centre_128xH100_1T.toml"
NCCL_LOG = ROOT / "assets" / "validation" / "nccl" / "ib_h100_2node_ndr_ring_tuned_allreduce.txt"
QT = ("PySide6", "shiboken6", "pyqtgraph", "superqt")


def _lint(config: Path) -> subprocess.CompletedProcess:
    code = ("import sys; from importlinter.cli import lint_imports; "
            f"sys.exit(lint_imports(config_filename={str(config)!r}, no_cache=True, no_logo=True))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_the_import_contracts_are_kept():
    r = _lint(ROOT / "pyproject.toml")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "9 kept, 0 broken" in r.stdout, r.stdout


def test_a_broken_contract_fails_the_check(tmp_path):
    """The check can fail: a contract the code breaks (the presentation layer does read the engine)."""
    cfg = tmp_path / "contracts.toml"
    cfg.write_text(textwrap.dedent("""
        [tool.importlinter]
        root_packages = ["model", "gui"]

        [[tool.importlinter.contracts]]
        name = "present reads no engine"
        type = "forbidden"
        source_modules = ["gui.present"]
        forbidden_modules = ["model"]
    """), encoding="utf-8")
    r = _lint(cfg)
    assert r.returncode != 0 and "BROKEN" in r.stdout.upper(), r.stdout + r.stderr


@pytest.mark.parametrize("top, first_import", [("model.engine", "model.engine -> model.plan_search"),
                                                ("gui.app", "gui.app -> gui.window")])
def test_a_layer_that_imports_one_above_it_fails_the_check(tmp_path, top, first_import):
    """Each layers contract can fail: the same modules in the reverse order (the engine does import the
    plan search, the app its window, …) break it, each import named."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers" and top in c["layers"])
    cfg = tmp_path / "contracts.toml"
    reversed_layers = ", ".join(f'"{x}"' for x in reversed(layers["layers"]))
    cfg.write_text(textwrap.dedent(f"""
        [tool.importlinter]
        root_packages = ["model", "gui"]

        [[tool.importlinter.contracts]]
        name = "the layers upside down"
        type = "layers"
        layers = [{reversed_layers}]
    """), encoding="utf-8")
    r = _lint(cfg)
    assert r.returncode != 0 and "BROKEN" in r.stdout.upper(), r.stdout + r.stderr
    assert first_import in r.stdout, r.stdout


def _headless(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    code = textwrap.dedent(f"""
        import sys
        import gui.cli.main
        try:
            rc = gui.cli.main.main({args!r})
        except SystemExit as e:
            rc = e.code
        qt = sorted(m for m in sys.modules if m.split(".")[0] in {QT!r})
        print("QT-MODULES:", qt, file=sys.stderr)
        sys.exit(3 if qt else (rc or 0))
    """)
    env_code = ["-c", code]
    return subprocess.run([sys.executable, *env_code], capture_output=True, text=True, cwd=tmp_path, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["evaluate", "validate", "claims", "calibrate", "nccl", "export-csv",
                                     "export-csv-with-bands-and-pin"])
def test_headless_commands_load_no_qt(tmp_path, command):
    out = tmp_path / "chart.csv"
    args = {
        "evaluate": ["evaluate", str(PRESET)],
        "validate": ["validate"],
        "claims": ["claims"],
        "calibrate": ["calibrate", str(NCCL_LOG), "--transport", "infiniband", "--link-gbps", "400",
                      "--nics-per-node", "8", "--scenario", str(PRESET), "--out", str(tmp_path / "calibrated.toml")],
        "nccl": ["nccl", str(PRESET), "--fabric", "infiniband"],
        "export-csv": ["export", str(PRESET), "--out", str(out), "--chart", "tco"],
        "export-csv-with-bands-and-pin": ["export", str(PRESET), "--out", str(out), "--chart", "utilisation",
                                          "--bands", "--pin", str(PRESET), "--x", "fabric.latency_us"],
    }[command]
    r = _headless(args, tmp_path)
    assert "QT-MODULES: []" in r.stderr, r.stderr[-2000:]
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    if command == "calibrate":
        written = (tmp_path / "calibrated.toml").read_text(encoding="utf-8")
        assert written.count("[fabric.custom.") > PRESET.read_text(encoding="utf-8").count("[fabric.custom.")
    if command.startswith("export"):
        header = out.read_text(encoding="utf-8").splitlines()[0]
        assert "InfiniBand" in header
        if command == "export-csv-with-bands-and-pin":
            assert "[P10]" in header and "[A" in header


@pytest.mark.slow
def test_a_png_export_does_load_qt(tmp_path):
    """The check above can fail: the same probe sees Qt when an export draws."""
    r = _headless(["export", str(PRESET), "--out", str(tmp_path / "chart.png"), "--chart", "tco",
                   "--width", "400"], tmp_path)
    assert r.returncode == 3 and "PySide6" in r.stderr, r.stderr[-2000:]
