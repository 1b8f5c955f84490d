"""The engine never imports Qt, pyqtgraph or gui: checked in a fresh interpreter and statically."""

import ast
import subprocess
import sys
from pathlib import Path

MODEL = Path(__file__).resolve().parent.parent / "model"
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "pyqtgraph", "superqt", "gui", "shiboken6")


def test_importing_every_model_module_loads_no_gui():
    mods = sorted(p.stem for p in MODEL.glob("*.py") if p.stem != "__init__")
    code = (
        "import sys, importlib\n"
        "import model\n"
        f"for m in {mods!r}: importlib.import_module('model.' + m)\n"
        "s = model.load_scenario('assets/presets/default.toml')\n"
        "model.evaluate(s); model.sweep(s, 'cluster.nodes', [8, 16])\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=MODEL.parent, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def test_no_model_source_names_a_gui_module():
    for path in MODEL.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
                names = [a.value for a in node.args if isinstance(a, ast.Constant)]
            for n in names:
                assert n.split(".")[0] not in FORBIDDEN, f"{path.name} imports {n}"
