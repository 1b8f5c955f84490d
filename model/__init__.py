"""Fabric What-If engine: pure, vectorised numpy. Never imports Qt, pyqtgraph or gui.

Public API (used by the CLI, the GUI, the exporters and the tests):

- :func:`load_scenario` — read and validate a TOML scenario file.
- :func:`evaluate` — one scenario, all its fabrics.
- :func:`sweep` — one input over an array, all fabrics, arrays back.
"""

from .engine import BREAKDOWN_KEYS, BREAKDOWN_LABELS, FABRIC_SWEEPABLE, SWEEPABLE, Result, describe_plan, evaluate, \
    resolve_fabrics, sweep
from .results import FabricReport, SweepResult
from .errors import EVALUATION_FAILURES, ScenarioError, evaluation_error
from .files import load_scenario, parse_scenario_text, scenario_to_toml
from .scenario import SCHEMA_VERSION, Scenario, scenario_from_dict, scenario_to_dict

__version__ = "0.1.0"

__all__ = [
    "BREAKDOWN_KEYS", "BREAKDOWN_LABELS", "EVALUATION_FAILURES", "FABRIC_SWEEPABLE", "SWEEPABLE", "FabricReport", "Result", "SweepResult",
    "SCHEMA_VERSION", "Scenario", "ScenarioError", "describe_plan", "evaluate", "evaluation_error", "load_scenario",
    "parse_scenario_text", "resolve_fabrics",
    "scenario_from_dict", "scenario_to_dict", "scenario_to_toml", "sweep", "__version__",
]
