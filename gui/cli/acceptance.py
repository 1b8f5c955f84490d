"""``fabric-whatif nccl SCENARIO --acceptance``: the bus bandwidth the chosen fabric must reach, with tolerances.

The table is :func:`model.acceptance.acceptance_table`'s; this module reads the options (collectives, sizes, node
counts, a log to calibrate from), prints one block per collective (sizes down, node counts across: expected,
minimum, tolerance) and writes the CSV (:func:`model.acceptance.csv_text`). Bad options are one named line, exit 2.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import model
from model import ScenarioError, acceptance, files
from model.nccl_accuracy import size_label

_UNITS = {"": 1, "B": 1, "K": 2**10, "KB": 2**10, "KIB": 2**10, "M": 2**20, "MB": 2**20, "MIB": 2**20,
          "G": 2**30, "GB": 2**30, "GIB": 2**30}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*")


def add_acceptance_options(parser) -> None:
    """The ``nccl`` command's acceptance options."""
    parser.add_argument("--acceptance", action="store_true",
                        help="the acceptance table instead: the busbw nccl-tests must reach per collective, size "
                             "and node count, with a tolerance (default fabric: the scenario's fabric in focus)")
    parser.add_argument("--collectives", metavar="LIST", default=",".join(acceptance.DEFAULT_COLLECTIVES),
                        help="acceptance: comma-separated collectives (default all_reduce,all_gather)")
    parser.add_argument("--sizes", metavar="FROM:TO|LIST", default="1M:8G",
                        help="acceptance: message sizes, a doubling range FROM:TO or a comma list, with K/M/G "
                             "(binary) suffixes, 1M to 16G (default 1M:8G)")
    parser.add_argument("--node-counts", metavar="LIST",
                        help="acceptance: comma-separated node counts, at least 2 (default: 2, 8 and the "
                             "cluster's nodes)")
    parser.add_argument("--csv", metavar="FILE", help="acceptance: also write the table as CSV with a header block")
    parser.add_argument("--calibrate", metavar="LOG",
                        help="acceptance: calibrate the fabric from your own nccl-tests log first (as "
                             "fabric-whatif calibrate does; the fabric keeps its line rate, NICs, latency and loss; "
                             "--nodes and --ranks give the log's layout when its '# Rank' lines do not)")


def parse_size(text: str) -> float:
    """``"64M"`` → 67,108,864 (binary units, as nccl-tests' -b/-e read them); a ScenarioError names the text."""
    m = _SIZE.fullmatch(text)
    if not m or m.group(2).upper() not in _UNITS:
        raise ScenarioError("--sizes", text, "sizes such as 1M, 64M, 8G (binary K/M/G), a range FROM:TO or a list")
    return float(m.group(1)) * _UNITS[m.group(2).upper()]


def parse_sizes(text: str):
    """A doubling range ``FROM:TO`` or a comma list of sizes [B]."""
    import numpy as np

    if ":" in text:
        lo, _, hi = text.partition(":")
        a, b = parse_size(lo), parse_size(hi)
        if b < a:
            raise ScenarioError("--sizes", text, "a range FROM:TO with FROM at most TO")
        n = int(np.floor(np.log2(b / a) + 1e-9)) + 1 if a > 0 else 0
        if a <= 0 or n > 64:
            raise ScenarioError("--sizes", text, "message sizes from 1 MiB to 16 GiB")
        return a * 2.0 ** np.arange(n)
    return [parse_size(t) for t in text.split(",")]


def parse_node_counts(text: str | None):
    if text is None:
        return None
    out = []
    for t in text.split(","):
        if not t.strip().isdigit():
            raise ScenarioError("--node-counts", t.strip() or text, "comma-separated whole numbers, such as 2,8,24")
        out.append(int(t))
    return out


def _collectives(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def table_from_args(args):
    """The acceptance table the options ask for (raises a ScenarioError naming the option)."""
    scen = model.load_scenario(args.scenario)
    fabric = args.fabric or scen.fabric.focus_fabric
    if fabric not in scen.fabric.fabrics:
        raise ScenarioError("--fabric", fabric, "one of the scenario's fabrics: " + ", ".join(scen.fabric.fabrics))
    sizes, nodes = parse_sizes(args.sizes), parse_node_counts(args.node_counts)
    fit = None
    if args.calibrate:
        text = files.read_text_bounded(Path(args.calibrate), limit=files.MAX_LOG_BYTES,
                                       what="--calibrate nccl-tests output file", errors="replace")
        scen, fit = acceptance.calibrated(scen, fabric, text, source=Path(args.calibrate).name, nodes=args.nodes,
                                          ranks=args.ranks)
    try:
        return acceptance.acceptance_table(scen, fabric, _collectives(args.collectives), sizes, nodes, fit)
    except ScenarioError as err:  # the request's fields as the options name them
        option = {"collectives": "--collectives", "sizes": "--sizes", "nodes": "--node-counts"}.get(err.field)
        if option:
            raise ScenarioError(option, err.value, err.allowed) from None
        raise


def table_text(t: acceptance.AcceptanceTable) -> list[str]:
    """The table as text: per collective, sizes down and per node count expected / minimum / tolerance."""
    low = t.min_busbw_GBps
    lines = [f"# acceptance: {t.label} ({t.fabric}), {t.ranks_per_node} GPUs per node, fabric figures: "
             f"{t.profile_set}" + (f", calibrated from {t.calibration}" if t.calibration else ""),
             "# busbw in GB/s as nccl-tests prints it; a run passes where busbw >= minimum = expected x (1 - tol)",
             "# tolerance: the largest shortfall of real inter-node nccl-tests logs below the engine, "
             + ", ".join(f"{acceptance.band_label(i)} {x * 100:.0f} %" for i, x in enumerate(t.band_tolerances))
             + ("; where the calibration log ran, the fit's own error" if t.calibration else "")]
    lines += [f"# warning: {w}" for w in t.warnings]
    for c, kind in enumerate(t.collectives):
        lines += ["", f"{kind}:"]
        head = f"{'size':>9}" + "".join(f"{f'{int(n)} nodes: expected':>22}{'minimum':>9}{'tol':>6}" for n in t.nodes)
        lines.append(head)
        for m, size in enumerate(t.size_bytes):
            lines.append(f"{size_label(size):>9}" + "".join(
                f"{t.expected_busbw_GBps[c, j, m]:>22.1f}{low[c, j, m]:>9.1f}{t.tolerance[c, j, m] * 100:>5.0f}%"
                for j in range(t.nodes.size)))
    return lines


def cmd_acceptance(args, plain_text=str) -> int:
    """Print (or ``--json``) the table and write ``--csv``; ``plain_text`` makes a line safe for a terminal."""
    if args.csv:
        files.check_writable(args.csv)
    t = table_from_args(args)
    if args.json:
        import json

        from model.results import json_ready

        doc = {"engine_version": model.__version__, "scenario": t.scenario_name, "fabric": t.fabric,
               "label": t.label, "profile_set": t.profile_set, "units": acceptance.UNITS,
               "calibrated_from": t.calibration, "band_tolerances": list(t.band_tolerances), "rows": t.rows()}
        json.dump(json_ready(doc), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print("\n".join(plain_text(line) for line in table_text(t)))
    if args.csv:
        files.atomic_write(args.csv, acceptance.csv_text(t, model.__version__))
        if not args.json:
            print(f"\nwrote {plain_text(args.csv)}")
    return 0


__all__ = ["add_acceptance_options", "cmd_acceptance", "parse_sizes", "table_from_args", "table_text"]
