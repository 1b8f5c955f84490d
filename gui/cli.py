"""Command line: ``fabric-whatif evaluate | validate | ...``.

Every command calls the same engine (``model``) as the GUI. Bad input prints
one line naming the field, the value and what is allowed, and exits 2.
This module imports no Qt; commands that need Qt import it lazily.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys

import numpy as np

import model
from model.compute import RECOMPUTE_KINDS
from model import ScenarioError

EXIT_BAD_INPUT = 2


def _jsonable(x):
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return x if math.isfinite(x) else None
    return x


def result_to_json(res: model.Result) -> dict:
    """The evaluate JSON document (schema_version 1)."""
    fabrics = {}
    for i, name in enumerate(res.fabrics):
        d = res.at(name)
        plan = d["plan"]
        fabrics[name] = {
            "label": res.labels[i],
            "transport": res.fabric_rows[i].transport,
            "feasible": bool(d["feasible"]),
            "plan": _plan_json(plan, d, res.scenario),
            "global_batch_used": _int_or_none(d["global_batch_used"]),
            "global_batch_kept": bool(d["global_batch_kept"]),
            "step_time_s": d["step_time_s"],
            "model_tflops_per_gpu": d["model_tflops_per_gpu"],
            "hardware_tflops_per_gpu": d["hardware_tflops_per_gpu"],
            "mfu": d["mfu"],
            "hfu": d["hfu"],
            "tokens_per_s": d["tokens_per_s"],
            "train_days": d["train_days"],
            "breakdown_s": d["breakdown_s"],
            "memory_per_gpu_gb": d["memory_per_gpu_gb"],
            "node_bandwidth_gbps": d["node_bandwidth_gbps"],
            "loss_efficiency": d["loss_efficiency"],
            "cpu_cores_busy": d["cpu_cores_busy"],
            "inputs": {k: v for k, v in res.fabric_rows[i].values.items()},
            "input_sources": res.fabric_rows[i].sources,
            "guesses": list(res.fabric_rows[i].guesses),
        }
        for key in EXTRA_FABRIC_KEYS:
            if key in d:
                fabrics[name][key] = d[key]
    first = res.at(res.fabrics[0])
    return _jsonable({
        "schema_version": 1,
        "engine_version": model.__version__,
        "scenario": model.scenario_to_dict(res.scenario),
        "profile_set": res.scenario.fabric.profile_set,
        "architecture": first["architecture"],
        "params": first["params"],
        "fabrics": fabrics,
    })


def _int_or_none(v):
    return None if isinstance(v, float) and math.isnan(v) else int(v)


def _plan_json(plan: dict, d: dict, s) -> dict:
    """The chosen plan: degrees (tp, pp, dp, cp, ep), micro-batching, the ZeRO stage and recompute kind the search
    picked, and the architecture and precision it ran (grouped-query key/value heads, SwiGLU width, experts and
    top-k, bf16 or fp8)."""
    out = {k: (None if isinstance(v, float) and math.isnan(v) else
               (bool(v) if k == "distributed_optimizer" else int(v))) for k, v in plan.items()}
    if out.get("recompute") is not None:
        out["recompute"] = RECOMPUTE_KINDS[out["recompute"]]
    out["kv_heads"] = _int_or_none(float(d["architecture"]["kv_heads"]))
    out["ffn_hidden"] = s.workload.ffn_hidden
    out["precision"] = s.workload.precision
    out["experts"] = s.workload.experts or 1
    out["top_k"] = s.workload.top_k or (2 if out["experts"] > 1 else 1)
    return out


# Keys later engine stages add per fabric (economics, reliability); copied when present.
EXTRA_FABRIC_KEYS = ("train_days_with_interruptions", "interruptions", "hours_lost", "capex", "opex_per_year",
                     "tco", "cost_per_run", "cost_per_token", "currency", "switches", "links", "optics",
                     "goodput", "interruptions_per_day", "network_interruptions_per_day", "mtbf_h",
                     "checkpoint_write_min", "checkpoint_interval_min", "nics", "fat_tree", "capex_parts",
                     "network_components", "opex_parts", "power_kw", "energy_kwh_per_year", "energy_cost_per_run",
                     "runs_per_year")


def _fmt(x, digits=1):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:,.{digits}f}"


def result_table(res: model.Result) -> str:
    s = res.scenario
    lines = [f"{s.name} — {s.cluster.nodes} × {s.cluster.gpus_per_node} {s.cluster.gpu}, "
             f"{res.at(res.fabrics[0])['params'] / 1e9:,.1f} B parameters, profile set: {s.fabric.profile_set}", ""]
    head = f"{'fabric':<28}{'step s':>9}{'MFU %':>8}{'TFLOP/s':>9}{'days':>9}  plan"
    lines += [head, "-" * (len(head) + 30)]
    for i, name in enumerate(res.fabrics):
        d = res.at(name)
        plan = model.describe_plan(d["plan"]) if d["feasible"] else (
            "does not fit" if d["global_batch_kept"] else
            f"no plan keeps the global batch of {s.workload.global_batch:,} sequences")
        lines.append(f"{res.labels[i][:27]:<28}{_fmt(d['step_time_s'], 2):>9}{_fmt(d['mfu'] * 100):>8}"
                     f"{_fmt(d['model_tflops_per_gpu']):>9}{_fmt(d['train_days']):>9}  {plan}")
    gpus = s.cluster.nodes * s.cluster.gpus_per_node
    for i, name in enumerate(res.fabrics):
        used = res.at(name)["plan"]["gpus_used"]
        if res.at(name)["feasible"] and used < gpus:
            lines.append(f"{res.labels[i]}: the global batch of {s.workload.global_batch:,} sequences is kept; "
                         f"the plan uses {int(used):,} of the {gpus:,} GPUs (the rest idle)")
    lines += ["", "step-time breakdown (s):"]
    keys = model.BREAKDOWN_KEYS
    lines.append(f"{'fabric':<28}" + "".join(f"{k[:9]:>10}" for k in keys))
    for i, name in enumerate(res.fabrics):
        br = res.at(name)["breakdown_s"]
        lines.append(f"{res.labels[i][:27]:<28}" + "".join(f"{_fmt(br[k], 3):>10}" for k in keys))
    if "tco" in res.data:
        cur = str(res.at(res.fabrics[0])["currency"])
        lines += ["", f"interruptions and cost ({cur}, {s.economics.years:g}-year TCO):"]
        lines.append(f"{'fabric':<28}{'days+int':>9}{'interr.':>9}{'switches':>9}{'capex':>15}{'opex/yr':>13}"
                     f"{'TCO':>15}{'per run':>13}")
        for i, name in enumerate(res.fabrics):
            d = res.at(name)
            lines.append(f"{res.labels[i][:27]:<28}{_fmt(d['train_days_with_interruptions']):>9}"
                         f"{_fmt(d['interruptions']):>9}{_fmt(d['switches'], 0):>9}{_fmt(d['capex'], 0):>15}"
                         f"{_fmt(d['opex_per_year'], 0):>13}{_fmt(d['tco'], 0):>15}{_fmt(d['cost_per_run'], 0):>13}")
    return "\n".join(lines)


def cmd_evaluate(args) -> int:
    scen = model.load_scenario(args.scenario)
    res = model.evaluate(scen)
    if args.json:
        json.dump(result_to_json(res), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(result_table(res))
    return 0


def cmd_validate(args) -> int:
    from model import validation

    rows = validation.validate()
    print(f"{'run':<18}{'metric':<26}{'published':>10}{'engine':>10}{'error':>9}  plan")
    for r in rows:
        flag = "" if abs(r.error) <= validation.ROW_TOLERANCE else "  OUTSIDE ±15%"
        print(f"{r.id:<18}{r.metric:<26}{r.published:>10.2f}{r.engine:>10.2f}{r.error * 100:>+8.1f}%  {r.plan}{flag}")
    s = validation.summary(rows)
    print(f"\n{s['rows']} runs: median |error| {s['median_abs_error'] * 100:.1f}% (tolerance "
          f"{validation.MEDIAN_TOLERANCE * 100:.0f}%), max |error| {s['max_abs_error'] * 100:.1f}% (tolerance "
          f"{validation.ROW_TOLERANCE * 100:.0f}%): {'PASS' if s['passed'] else 'FAIL'}")
    return 0 if s["passed"] else 1


def cmd_claims(args) -> int:
    from model import claims, presets

    names = [args.case] if args.case else list(presets.preset_names())
    tables = {name: claims.claims_table(name) for name in names}
    if args.json:
        doc = {"schema_version": 1, "cases": {n: [dataclasses.asdict(r) for r in rows] for n, rows in tables.items()}}
        json.dump(_jsonable(doc), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print("\n\n".join(claims.format_claims(n, rows) for n, rows in tables.items()))
    return 0


def cmd_calibrate(args) -> int:
    """Fit a fabric to an nccl-tests log; print the fit, optionally save it into a scenario."""
    from pathlib import Path

    from model import files, nccl_fit

    path = Path(args.log)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise ScenarioError(str(path), "missing", "an nccl-tests output file") from None
    except OSError as err:
        raise ScenarioError(str(path), "unreadable", f"a readable file ({err.strerror})") from None
    log = nccl_fit.parse_nccl_tests(text, source=str(path), collective=args.collective, ranks=args.ranks,
                                    nodes=args.nodes)
    fit = nccl_fit.fit_alpha_beta(log)
    print(f"{log.collective}: {log.ranks} ranks on {log.nodes} nodes, {log.size_bytes.size} sizes")
    print(f"fit: latency α = {fit.alpha_us:.1f} µs per collective, bus bandwidth = {fit.busbw_gb_per_s:.1f} GB/s "
          f"(rms relative error {fit.rms_relative_error * 100:.1f}%)")
    if args.link_gbps is None:
        return 0
    values = nccl_fit.fabric_from_fit(fit, link_gbps=args.link_gbps, nics_per_node=args.nics_per_node,
                                      transport=args.transport)
    print("fabric: " + ", ".join(f"{k} = {v}" for k, v in values.items()))
    if args.scenario:
        scen = nccl_fit.apply_to_scenario(model.load_scenario(args.scenario), args.name, values)
        out = args.out or args.scenario
        files.save_scenario(scen, out)
        print(f"saved [fabric.custom.{args.name}] to {out}")
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2 with one line, like bad input
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"fabric-whatif: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="fabric-whatif", description="How the network fabric changes GPU training time and cost.")
    p.add_argument("--version", action="version", version=f"fabric-whatif {model.__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ev = sub.add_parser("evaluate", help="evaluate a scenario for every fabric")
    ev.add_argument("scenario", help="scenario file (.toml)")
    ev.add_argument("--json", action="store_true", help="JSON on stdout")
    ev.set_defaults(func=cmd_evaluate)
    va = sub.add_parser("validate", help="the engine against published training runs")
    va.set_defaults(func=cmd_validate)
    cl = sub.add_parser("claims", help="the article's figures beside the engine's (seed and published), per preset")
    cl.add_argument("case", nargs="?", help="case1, case2, case3, small, medium or large (default: all)")
    cl.add_argument("--json", action="store_true", help="JSON on stdout")
    cl.set_defaults(func=cmd_claims)
    ca = sub.add_parser("calibrate", help="fit latency and bus bandwidth to nccl-tests output; save as a fabric")
    ca.add_argument("log", help="text output of all_reduce_perf, all_gather_perf, ...")
    ca.add_argument("--collective", help="all_reduce, all_gather, reduce_scatter or alltoall (default: from log)")
    ca.add_argument("--ranks", type=int, help="ranks (default: from the log's '# Rank' lines)")
    ca.add_argument("--nodes", type=int, help="nodes (default: hosts in the log's '# Rank' lines)")
    ca.add_argument("--transport", choices=("tcp", "roce", "iwarp", "infiniband"), default="infiniband")
    ca.add_argument("--link-gbps", type=float, help="line rate per NIC [Gb/s]; needed to make a fabric")
    ca.add_argument("--nics-per-node", type=int, default=8)
    ca.add_argument("--scenario", help="scenario file to add the fabric to")
    ca.add_argument("--name", default="measured", help="name of the user fabric (default: measured)")
    ca.add_argument("--out", help="where to save the scenario (default: overwrite --scenario)")
    ca.set_defaults(func=cmd_calibrate)
    from .export import add_export_command  # Qt-free module: Qt loads only when `export` runs

    add_export_command(sub)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ScenarioError as err:
        print(f"fabric-whatif: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # pragma: no cover - `| head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
