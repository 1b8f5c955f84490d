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
import re
import sys
from pathlib import Path

import numpy as np

import model
from model import ScenarioError, files
from model.results import fabric_reports, fabric_summaries, json_ready

from gui.system.heap import keep_heap
from gui.present.format import fmt_money

EXIT_BAD_INPUT = 2


def result_to_json(res: model.Result) -> dict:
    """The evaluate JSON document (schema_version 1): each fabric's record is its typed
    :class:`model.results.FabricReport`, written by its ``to_json``."""
    from model import recommend

    first = res.at(res.fabrics[0])
    return json_ready({
        "schema_version": 1,
        "engine_version": model.__version__,
        "scenario": model.scenario_to_dict(res.scenario),
        "profile_set": res.scenario.fabric.profile_set,
        "architecture": {k: getattr(first.workload, k) for k in ("layers", "hidden", "heads", "kv_heads")},
        "params": first.workload.params,
        "fabrics": {name: report.to_json() for name, report in zip(res.fabrics, fabric_reports(res))},
        "recommendation": recommend.recommendation(res.scenario, res).to_json(),
    })


# C0 and C1 control characters (ESC starts a terminal escape sequence) and the bidirectional overrides
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def plain_text(text) -> str:
    """``text`` safe to print on a terminal: control characters become U+FFFD, so a name or label from a
    file cannot move the cursor, recolour or retitle the terminal."""
    return _CONTROL.sub("\ufffd", str(text))


def _fmt(x, digits=1):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:,.{digits}f}"


def result_table(res: model.Result) -> str:
    """The evaluate command's text: per fabric the step, utilisation and plan, the step's parts, and
    interruptions and money; read from the typed records (:func:`model.results.fabric_reports`). A fabric
    past the plausibility bound (:mod:`gui.present.plausibility`) reads "stalls — <cause>" instead of its
    days, step, utilisation and cost per run; ``--json`` keeps the engine's figures."""
    from gui.present.plausibility import bound_note, point_stalls, stall_text
    from gui.present.text import profile_set_name

    s = res.scenario
    rows = list(zip(res.fabrics, res.labels, fabric_summaries(res), fabric_reports(res)))
    stalls = point_stalls(res)
    lines = [f"{s.name} — {s.cluster.nodes} × {s.cluster.gpus_per_node} {s.cluster.gpu}, "
             f"{res.at(res.fabrics[0]).workload.params / 1e9:,.1f} B parameters, fabric figures: "
             f"{profile_set_name(s.fabric.profile_set)} ({s.fabric.profile_set})", ""]
    head = f"{'fabric':<28}{'step s':>11}{'MFU %':>8}{'TFLOP/s':>9}{'days':>11}  plan"
    lines += [head, "-" * (len(head) + 30)]
    for name, label, f, r in rows:
        plan = f.plan.describe() if f.plan is not None else (
            "does not fit" if r.plan.global_batch_kept else
            f"no plan keeps the global batch of {s.workload.global_batch:,} sequences")
        if name in stalls:
            lines.append(f"{label[:27]:<28}{stall_text(stalls[name]):<39}  {plan}")
            continue
        lines.append(f"{label[:27]:<28}{_fmt(f.step_time_s, 2):>11}{_fmt(f.mfu * 100):>8}"
                     f"{_fmt(r.throughput.model_tflops_per_gpu):>9}{_fmt(f.train_days):>11}  {plan}")
    gpus = s.cluster.nodes * s.cluster.gpus_per_node
    for _, label, f, _ in rows:
        if f.plan is not None and f.plan.gpus_idle > 0:
            lines.append(f"{label}: the plan uses {f.plan.gpus_used:,} of the {gpus:,} GPUs, {f.plan.gpus_idle:,} idle "
                         f"(the global batch of {s.workload.global_batch:,} sequences is kept: more replicas would "
                         f"not split it into whole micro-batches, or would be slower on this fabric)")
    lines += ["", "step-time breakdown (s):"]
    keys = model.BREAKDOWN_KEYS
    lines.append(f"{'fabric':<28}" + "".join(f"{k[:9]:>11}" for k in keys))
    for name, label, f, _ in rows:
        if name in stalls:
            lines.append(f"{label[:27]:<28}{stall_text(stalls[name])}")
            continue
        lines.append(f"{label[:27]:<28}" + "".join(f"{_fmt(f.step_breakdown_s[k], 3):>11}" for k in keys))
    cur = rows[0][2].currency
    lines += ["", f"interruptions and cost ({cur}, {s.economics.years:g}-year TCO of the same cluster):"]
    lines.append(f"{'fabric':<28}{'days+int':>11}{'interr.':>9}{'switches':>9}{'capex':>15}{'opex/yr':>13}"
                 f"{'TCO':>15}{'per run':>13}")
    for name, label, f, r in rows:
        money = {k: fmt_money(getattr(f, k), cur) for k in ("capex", "opex_per_year", "tco", "cost_per_run")}
        days, interr = _fmt(f.train_days_with_interruptions), _fmt(f.interruptions)
        if name in stalls:
            days, interr, money["cost_per_run"] = "stalls", "–", "–"
        lines.append(f"{label[:27]:<28}{days:>11}"
                     f"{interr:>9}{_fmt(r.network.switches, 0):>9}{money['capex']:>15}"
                     f"{money['opex_per_year']:>13}{money['tco']:>15}{money['cost_per_run']:>13}")
    if stalls:
        lines += ["", bound_note() + " (--json has the engine's figures)."]
    lines += ["", "recommendation:"] + [f"  {t}" for t in recommendation_lines(res)]
    return "\n".join(plain_text(line) for line in lines)  # names and labels come from the file


def recommendation_lines(res: model.Result) -> list[str]:
    """The recommendation in English sentences: the takeaway (money for the same work, then the same
    cluster's TCO), the tree, the engine's verdict, why they differ."""
    from model import recommend

    from gui.present.plausibility import point_stalls
    from gui.present.reasons import render

    rec = recommend.recommendation(res.scenario, res)
    labels = {f: lab.split(" (")[0] for f, lab in zip(res.fabrics, res.labels)}
    stalls = point_stalls(res)
    out = [render(r, labels=labels, money=fmt_money, stalls=stalls) for r in recommend.takeaway(res, rec, stalls=stalls)]
    out.append(f"article's tree: {labels.get(rec.tree_fabric, rec.tree_fabric)} (rule {rec.tree_rule}: "
               f"{render(rec.tree_reason, labels=labels)})")
    out += [render(r, labels=labels, money=fmt_money, stalls=stalls)
            for r in (rec.note, rec.criterion, rec.verdict, rec.separator, rec.reason) if r]
    out.append(agreement_text(rec, labels))
    return out


def agreement_text(rec, labels: dict) -> str:
    """What the engine and the article's tree agree (or differ) about: the fabric picked, not the article's
    figures (``fabric-whatif claims`` compares those)."""
    tree = labels.get(rec.tree_fabric, rec.tree_fabric)
    if rec.agrees:
        return (f"agrees with the article on the choice of fabric ({tree}); not on its figures: "
                "fabric-whatif claims compares those")
    return f"differs from the article's choice ({tree})"


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

    rows = []
    print(f"{'run':<22}{'metric':<24}{'published':>10}{'engine':>10}{'error':>9}  plan")
    for title, table in validation.validate_all():
        _print_run_table(validation, title, table)
        rows += [r for r in table if not r.not_judged_because]
    s = validation.summary(rows)
    print(f"\n{s['rows']} runs: median |error| {s['median_abs_error'] * 100:.1f}% (tolerance "
          f"{validation.MEDIAN_TOLERANCE * 100:.0f}%), max |error| {s['max_abs_error'] * 100:.1f}% (tolerance "
          f"{validation.ROW_TOLERANCE * 100:.0f}%): {'PASS' if s['passed'] else 'FAIL'}")
    _print_memory_table(validation)
    net_passed = _print_network_validation(validation)
    return 0 if s["passed"] and net_passed else 1


def _print_memory_table(validation) -> None:
    """The memory table: the engine's estimate for each published recipe that ran without recomputation."""
    rows = validation.memory_table()
    print("\nmemory: published recipes that ran without recomputation, the engine's peak per GPU for their plan")
    print(f"{'run':<22}{'GPU':<14}{'estimate GB':>12}{'GPU GB':>8}{'usable GB':>10}  fits  plan")
    for r in rows:
        print(f"{r.id:<22}{r.gpu:<14}{r.estimate_gb:>12.1f}{r.memory_gb:>8.0f}{r.usable_gb:>10.1f}  "
              f"{'yes ' if r.fits else 'NO  '}  {r.plan}")
        if np.isfinite(r.every_tensor_gb):
            print(f"    note: with light recompute (normalisations, SwiGLU products and any latent attention's "
                  f"up-projections recomputed in the backward); "
                  f"{r.every_tensor_gb:.1f} GB with every tensor Megatron-Core keeps")
    n_fit = sum(r.fits for r in rows)
    print(f"\n{n_fit} of {len(rows)} recipes fit without recomputation by the engine's estimate; those that do not "
          "are named in the run tables (not judged)")


def _print_run_table(validation, title, table) -> None:
    """One table of published runs: a row per run, its notes, and why it is not judged where it is not."""
    print(f"{title}:")
    for r in table:
        flag = "" if r.not_judged_because or abs(r.error) <= validation.ROW_TOLERANCE else f"  OUTSIDE ±{validation.ROW_TOLERANCE * 100:.0f}%"
        print(f"{r.id:<22}{r.metric:<24}{r.published:>10.2f}{r.engine:>10.2f}{r.error * 100:>+8.1f}%  {r.plan}{flag}")
        if r.memory_note:
            print(f"    note: {r.memory_note}")
        if r.not_judged_because:
            print(f"    not judged: {r.not_judged_because}")


def _print_network_validation(validation) -> bool:
    """The network table: engine (published set, no calibration) against real nccl-tests logs."""
    rows = validation.validate_network()
    print("\nnetwork: nccl-tests bus bandwidth, engine (published profile set, no calibration) against real logs")
    print(f"{'log':<52}{'scope':<14}{'measured':>9}{'engine':>8}{'≥64MiB med':>11}{'max':>7}{'≥1MiB med':>10}"
          f"{'max':>7}")
    for r in rows:
        pct = (lambda x: "–" if not math.isfinite(x) else f"{x * 100:.0f}%")
        flag = "" if not r.judged or r.large_median <= validation.NETWORK_ROW_TOLERANCE else "  OUTSIDE ±20%"
        print(f"{r.file[:51]:<52}{r.scope:<14}{r.measured_peak_gb_per_s:>9.1f}{_fmt(r.engine_peak_gb_per_s):>8}"
              f"{pct(r.large_median):>11}{pct(r.large_max):>7}{pct(r.medium_median):>10}{pct(r.medium_max):>7}{flag}")
        print(f"    {r.source}; {r.setup}")
        for w in r.warnings:
            print(f"    note: {w}")
    s = validation.network_summary(rows)
    print(f"\n{s['judged']} network and NVLink logs (of {s['logs']} read): median |error| at ≥ 64 MiB "
          f"{s['median_abs_error'] * 100:.1f}% (tolerance {validation.NETWORK_MEDIAN_TOLERANCE * 100:.0f}%), max "
          f"{s['max_abs_error'] * 100:.1f}% (tolerance {validation.NETWORK_ROW_TOLERANCE * 100:.0f}%): "
          f"{'PASS' if s['passed'] else 'FAIL'}; pathological and out-of-scope logs are shown, not judged")
    return s["passed"]


def _size_label(n: float) -> str:
    return str(int(n))


def cmd_moe_gap(args) -> int:
    from model import moe_gap

    scen = model.load_scenario(args.scenario)
    gap = moe_gap.fabric_gap(scen)
    if args.json:
        json.dump(moe_gap.gap_to_json(gap), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    print(f"{plain_text(scen.name)}: mixture-of-experts against its dense twin (same active compute), "
          "step time over the best fabric's")
    print(f"{'fabric':<28}{'MoE step s':>12}{'dense step s':>14}{'MoE ÷ best':>12}{'dense ÷ best':>14}"
          f"{'MoE extra':>11}")
    ratio = (lambda x: "–" if not math.isfinite(x) else f"{x:,.2f}×")
    for i, label in enumerate(gap["labels"]):
        moe, dense = 1.0 + float(gap["moe_slowdown"][i]), 1.0 + float(gap["dense_slowdown"][i])
        print(f"{plain_text(label)[:27]:<28}{_fmt(float(gap['moe_step_s'][i])):>12}"
              f"{_fmt(float(gap['dense_step_s'][i])):>14}{ratio(moe):>12}{ratio(dense):>14}{ratio(moe / dense):>11}")
    return 0


def cmd_nccl(args) -> int:
    """What nccl-tests would print for one fabric of a scenario, optionally beside a measured log (predicted with the
    log's nodes, ranks and forced algorithm unless the options say otherwise)."""
    from pathlib import Path

    from model import files, nccl_log, nccl_table

    if args.acceptance:
        from gui.cli.acceptance import cmd_acceptance

        return cmd_acceptance(args, plain_text)
    for option in ("csv", "calibrate", "node_counts"):
        if getattr(args, option):
            raise ScenarioError("--" + option.replace("_", "-"), getattr(args, option), "used with --acceptance")
    if not args.fabric:
        raise ScenarioError("--fabric", None, "one of the scenario's fabrics (required without --acceptance)")
    if args.collective not in nccl_table.CLI_COLLECTIVES:
        raise ScenarioError("--collective", args.collective, ", ".join(nccl_table.CLI_COLLECTIVES))
    from model.fields import field_meta
    from model.sections import Cluster

    nodes_hi = field_meta(Cluster, "nodes")["hi"]
    _whole_number("--nodes", args.nodes, 1, nodes_hi)
    _whole_number("--ranks", args.ranks, 2, nodes_hi * field_meta(Cluster, "gpus_per_node")["hi"])
    scen = model.load_scenario(args.scenario)
    if args.fabric not in scen.fabric.fabrics:
        raise ScenarioError("--fabric", args.fabric, "one of the scenario's fabrics: " + ", ".join(scen.fabric.fabrics))
    log = cmp = None
    notes, warnings = [], []
    nodes, gpn, algorithm = args.nodes, None, args.algorithm or "auto"
    if args.compare:
        path = Path(args.compare)
        text = files.read_text_bounded(path, limit=files.MAX_LOG_BYTES, what="--compare nccl-tests output file",
                                       errors="replace")
        log = nccl_log.parse_nccl_tests(text, source=str(path), ranks=args.ranks, nodes=args.nodes)
        # like for like: the log's nodes, ranks per node and forced algorithm unless the options say otherwise
        setup = nccl_table.compare_setup(scen, log, nodes=args.nodes, ranks=args.ranks, algorithm=args.algorithm)
        nodes, gpn, algorithm, notes = setup.nodes, setup.gpus_per_node, setup.algorithm, list(setup.notes)
        label = next(r.label for r in model.resolve_fabrics(scen) if r.name == args.fabric)
        warnings = [nccl_table.mismatch_text(m, label) for m in nccl_table.setup_mismatches(scen, args.fabric, log)]
    elif args.ranks is not None:
        n = nodes or scen.cluster.nodes
        if args.ranks % n:
            raise ScenarioError("--ranks", args.ranks, f"a multiple of the nodes ({n}): the same ranks on every node")
        gpn = args.ranks // n
    try:
        table = nccl_table.scenario_table(scen, args.fabric, args.collective, nodes, algorithm=algorithm,
                                        gpus_per_node=gpn)
    except ScenarioError as err:
        if err.field == "cluster.gpus_per_node":
            raise ScenarioError("--ranks", args.ranks or (log.ranks if log else gpn),
                                f"ranks per node the scenario allows: {err.allowed}") from None
        raise
    if log is not None:
        cmp = nccl_table.compare_table(table, log)
    if args.json:
        keys = ("bytes", "count", "time_us", "algbw_GBps", "busbw_GBps", "algorithm", "protocol")
        rows = [{k: table[k][i] for k in keys} for i in range(len(table["bytes"]))]
        if cmp is not None:
            for i, row in enumerate(rows):
                row.update({k: cmp[k][i] for k in cmp})
        doc = {k: table[k] for k in ("fabric", "label", "collective", "nodes", "ranks")}
        doc.update(algorithm=algorithm, notes=notes, warnings=warnings)
        doc["rows"] = rows
        json.dump(json_ready(doc), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    redop = "sum" if args.collective in ("all_reduce", "reduce_scatter") else "none"
    print(f"# {args.collective}_perf predicted by fabric-whatif {model.__version__}: {table['label']}, "
          f"{table['nodes']} node(s), {table['ranks']} ranks" + (f", NCCL_ALGO={algorithm}" if algorithm != "auto"
                                                                  else ""))
    for note in notes:
        print(f"# {note}")
    for warning in warnings:
        print(f"# warning: {warning}")
    n = len(table["bytes"])
    columns = [("size", "(B)", [_size_label(b) for b in table["bytes"]], 12),
               ("count", "(elements)", [str(int(c)) for c in table["count"]], 14),
               ("type", "", ["float"] * n, 8), ("redop", "", [redop] * n, 7), ("root", "", ["-1"] * n, 6),
               ("time", "(us)", [f"{t:.2f}" for t in table["time_us"]], 13),
               ("algbw", "(GB/s)", [f"{v:.2f}" for v in table["algbw_GBps"]], 8),
               ("busbw", "(GB/s)", [f"{v:.2f}" for v in table["busbw_GBps"]], 8),
               ("algo/proto", "", [f"{a}/{p}" for a, p in zip(table["algorithm"], table["protocol"])], -15)]
    if cmp is not None:
        columns += [("measured", "(us)", [_fmt(t, 1) for t in cmp["measured_time_us"]], 12),
                    ("busbw", "(GB/s)", [_fmt(v, 2) for v in cmp["measured_busbw_GBps"]], 8),
                    ("error", "", ["–" if not math.isfinite(e) else f"{e * 100:+.0f}%" for e in cmp["busbw_error"]],
                     8)]
    for line in _columns_text(columns):
        print(line)
    return 0


def _columns_text(columns) -> list[str]:
    """nccl-tests' layout: a header, a units line and the rows, each column right-aligned in its usual width
    (negative: left-aligned after two spaces) or wider where a value needs it, so columns never run together;
    the header starts with '#'."""
    widths = [max(abs(w), len(head) + 1, len(unit) + 1, *(len(c) + 1 for c in cells)) * (1 if w > 0 else -1)
              for head, unit, cells, w in columns]

    def line(cells) -> str:
        return "".join(f"{c:>{w}}" if w > 0 else f"  {c:<{-w - 2}}" for c, w in zip(cells, widths))

    head = line([c[0] for c in columns])
    units = line([c[1] for c in columns])
    rows = [line(cells) for cells in zip(*(c[2] for c in columns))]
    return [("#" + text[1:] if i < 2 else text).rstrip() for i, text in enumerate([head, units, *rows])]


def cmd_claims(args) -> int:
    from model import claims, presets

    names = [args.case] if args.case else list(presets.preset_names())
    tables = {name: claims.claims_table(name) for name in names}
    if args.json:
        doc = {"schema_version": 1, "cases": {n: [dataclasses.asdict(r) for r in rows] for n, rows in tables.items()}}
        json.dump(json_ready(doc), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print("\n\n".join(claims.format_claims(n, rows) for n, rows in tables.items()))
    return 0


def _whole_number(option: str, value, lo: int, hi: int):
    """``value`` of a command-line option, checked like a scenario field (``None``: not given)."""
    if value is not None and not lo <= value <= hi:
        raise ScenarioError(option, value, f"a whole number from {lo} to {hi}")
    return value


def check_calibrate_args(args) -> None:
    """Calibrate's options, checked like the scenario fields they become: one named line each."""
    from model.fields import field_meta, validate_value
    from model.sections import Cluster, FabricSpec

    for option, name in (("--link-gbps", "link_gbps"), ("--latency-us", "latency_us"), ("--loss-rate", "loss_rate")):
        value = getattr(args, name)
        if value is not None:
            if not math.isfinite(value):
                raise ScenarioError(option, value, "a finite number")
            validate_value(FabricSpec, name, value, option)
    nics = field_meta(FabricSpec, "nics_per_node")
    _whole_number("--nics-per-node", args.nics_per_node, nics["lo"], nics["hi"])
    nodes_hi = field_meta(Cluster, "nodes")["hi"]
    _whole_number("--nodes", args.nodes, 1, nodes_hi)
    _whole_number("--ranks", args.ranks, 1, nodes_hi * field_meta(Cluster, "gpus_per_node")["hi"])
    if args.ranks is not None and args.nodes is not None and args.ranks < args.nodes:
        raise ScenarioError("--ranks", args.ranks, f"at least one rank per node (--nodes = {args.nodes})")
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", args.name):
        raise ScenarioError("--name", args.name, "a fabric name of 1 to 40 letters, digits, '-' and '_'")
    if args.out and not args.scenario:
        raise ScenarioError("--out", args.out, "used with --scenario (the scenario to add the fabric to)")
    if args.scenario and args.link_gbps is None:
        raise ScenarioError("--scenario", args.scenario, "used with --link-gbps (a fabric needs its line rate)")


def calibrated_path(scenario_path, name: str):
    """Where calibrate writes by default: a new file beside the scenario, ``STEM-NAME.toml``."""
    p = Path(scenario_path)
    return p.with_name(f"{p.stem}-{name}.toml")


def _fabric_inputs(scen, transport: str, latency_us, loss_rate) -> tuple[float, float]:
    """The fabric's own latency and loss a calibration keeps: the options, else the scenario's fabric of that
    transport, else the published profile's."""
    from model import nccl_accuracy

    row = next((r for r in model.resolve_fabrics(scen) if r.transport == transport), None) if scen else None
    if latency_us is None:
        latency_us = float(row.values["latency_us"]) if row else nccl_accuracy.published_latency_us(transport)
    if loss_rate is None:
        loss_rate = float(row.values["loss_rate"]) if row else nccl_accuracy.published_loss_rate(transport)
    return float(latency_us), float(loss_rate)


def cmd_calibrate(args) -> int:
    """Fit a fabric to an nccl-tests log; print the fit, optionally save it into a new scenario file."""
    from model import files, nccl_accuracy, nccl_fit

    check_calibrate_args(args)
    out = None
    if args.scenario:
        out = args.out or (args.scenario if args.overwrite else calibrated_path(args.scenario, args.name))
        if not args.overwrite and files.path_exists(out):
            raise ScenarioError(str(out), "exists", "a new file: give another --out, or --overwrite to replace it")
    text = files.read_text_bounded(args.log, limit=files.MAX_LOG_BYTES, what="nccl-tests output file",
                                   errors="replace")
    log = nccl_fit.parse_nccl_tests(text, source=str(args.log), collective=args.collective, ranks=args.ranks,
                                    nodes=args.nodes)
    fit = nccl_fit.fit_alpha_beta(log)
    print(f"{log.collective}: {log.ranks} ranks on {log.nodes} nodes, {log.size_bytes.size} sizes")
    print(f"fit: latency α = {fit.alpha_us:.1f} µs per collective, bus bandwidth = {fit.busbw_gb_per_s:.1f} GB/s "
          f"(rms relative error {fit.rms_relative_error * 100:.1f}%)")
    if args.link_gbps is None:
        return 0
    scen = model.load_scenario(args.scenario) if args.scenario else None
    gpu = args.gpu or (scen.cluster.gpu if scen else "H100-SXM")
    transport = args.transport or log.transport or "infiniband"
    nics = args.nics_per_node or log.nics_per_node or 8
    for option, value, given, found in (("--transport", transport, args.transport, log.transport),
                                        ("--nics-per-node", nics, args.nics_per_node, log.nics_per_node)):
        if not given:
            print(f"{option[2:]}: {value} " + ("(from the log)" if found else "(default: the log does not say)"))
    latency, loss = _fabric_inputs(scen, transport, args.latency_us, args.loss_rate)
    setup = nccl_accuracy.NcclSetup(gpu, args.link_gbps, nics, transport, args.algorithm or log.algorithm,
                               latency_us=latency, loss_rate=loss)
    mfit = nccl_fit.fit_model(log, setup)
    e = mfit.errors
    print(f"collective model fit ({gpu}): achievable {mfit.achievable_fraction:.3f} of line per NIC "
          f"({mfit.nic_gb_per_s:.1f} GB/s) as measured, {mfit.fabric_fraction:.3f} before loss; the fabric's "
          f"latency {latency:g} µs per hop and loss {loss:g} kept as inputs; NCCL's step cost per hop "
          f"LL / LL128 / Simple {mfit.ll_hop_us:.2f} / {mfit.ll128_hop_us:.2f} / {mfit.simple_hop_us:.2f} µs, "
          f"pipeline fill {mfit.fill_bytes / 1024:.0f} KiB per channel, LL128 efficiency "
          + (f"{mfit.ll128_efficiency:.3f}, tree efficiency {mfit.tree_efficiency:.3f}"
             if np.isfinite(mfit.tree_efficiency) else f"{mfit.ll128_efficiency:.3f} (tree: NCCL's own)"))
    print(nccl_accuracy.error_summary(e))
    print("protocol crossover: " + ", ".join(f"{a}/{p} from {size} B" for size, a, p in mfit.crossovers))
    for w in mfit.warnings:
        print(f"warning: {w}")
    values = nccl_fit.fabric_from_model_fit(mfit)
    print("fabric: " + ", ".join(f"{k} = {v}" for k, v in values.items()))
    if args.scenario:
        changes = nccl_fit.fabric_changes(scen, args.name, values)
        files.edit_scenario_file(args.scenario, changes, out, overwrite=args.overwrite)
        print(f"saved [fabric.custom.{plain_text(args.name)}] to {plain_text(str(out))}")
    return 0


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line naming the command, and exit 2 like bad input."""

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, plain_text(f"{self.prog}: error: {message} (see {self.prog} --help)") + "\n")


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="fabric-whatif", description="How the network fabric changes GPU training time and cost.")
    p.add_argument("--version", action="version", version=f"fabric-whatif {model.__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    ev = sub.add_parser("evaluate", help="evaluate a scenario for every fabric")
    ev.add_argument("scenario", help="scenario file (.toml)")
    ev.add_argument("--json", action="store_true", help="JSON on stdout")
    ev.set_defaults(func=cmd_evaluate)
    nc = sub.add_parser("nccl", help="what nccl-tests would print for one fabric (8 B to 16 GiB)")
    nc.add_argument("scenario", help="scenario file (.toml)")
    nc.add_argument("--fabric", help="one of the scenario's fabrics (required, except with --acceptance)")
    nc.add_argument("--collective", default="all_reduce",
                    help="all_reduce, all_gather, reduce_scatter, alltoall or sendrecv (default: all_reduce)")
    nc.add_argument("--nodes", type=int, help="nodes (default: the --compare log's, else the scenario's cluster.nodes)")
    nc.add_argument("--ranks", type=int, help="ranks in all (default: the --compare log's, else nodes × the "
                                              "scenario's GPUs per node)")
    nc.add_argument("--json", action="store_true", help="JSON on stdout")
    nc.add_argument("--compare", metavar="LOG", help="a measured nccl-tests log to put beside the prediction")
    nc.add_argument("--algorithm", choices=("auto", "ring", "tree", "nvls", "sharp"),
                    help="force one as NCCL_ALGO does (default: the --compare log's NCCL_ALGO, else auto: the tuner)")
    from gui.cli.acceptance import add_acceptance_options

    add_acceptance_options(nc)
    nc.set_defaults(func=cmd_nccl)
    mg = sub.add_parser("moe-gap", help="the fabric gap a mixture-of-experts scenario opens against its dense twin")
    mg.add_argument("scenario", help="scenario file (.toml) of a mixture-of-experts model")
    mg.add_argument("--json", action="store_true", help="JSON on stdout")
    mg.set_defaults(func=cmd_moe_gap)
    va = sub.add_parser("validate", help="the engine against published training runs and real nccl-tests logs")
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
    ca.add_argument("--transport", choices=("tcp", "roce", "iwarp", "infiniband"),
                    help="the run's transport (default: from NCCL's INFO lines in the log, else infiniband)")
    ca.add_argument("--link-gbps", type=float, help="line rate per NIC [Gb/s]; needed to make a fabric")
    ca.add_argument("--nics-per-node", type=int,
                    help="NICs per node (default: from NCCL's INFO lines in the log, else 8)")
    ca.add_argument("--latency-us", type=float,
                    help="the fabric's one-way latency per hop [µs], kept (not fitted): it also sets loss recovery "
                         "(default: the --scenario's fabric of that transport, else the published figure)")
    ca.add_argument("--loss-rate", type=float,
                    help="the fabric's packet loss, kept (not fitted): the achievable fraction is taken before it "
                         "(default: the --scenario's fabric of that transport, else the published figure)")
    ca.add_argument("--algorithm", choices=("auto", "ring", "tree", "nvls", "sharp"),
                    help="algorithm the run forced with NCCL_ALGO (default: from the log, else auto)")
    ca.add_argument("--gpu", help="GPU of the run's nodes (default: the --scenario's, else H100-SXM)")
    ca.add_argument("--scenario", help="scenario file to add the fabric to")
    ca.add_argument("--name", default="measured", help="name of the user fabric (default: measured)")
    ca.add_argument("--out", help="where to save the scenario with the fabric, a new file (default: "
                                  "SCENARIO-NAME.toml beside --scenario); comments are kept")
    ca.add_argument("--overwrite", action="store_true",
                    help="replace an existing --out; without --out, rewrite --scenario itself (comments are kept)")
    ca.set_defaults(func=cmd_calibrate)
    from gui.cli.export import add_export_command  # Qt loads only for what needs it

    add_export_command(sub)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    keep_heap()  # a sweep's evaluations reuse each other's pages (see gui.system.heap)
    try:
        return args.func(args)
    except model.EVALUATION_FAILURES as err:  # a ScenarioError, or a corner of the engine named as one
        print(f"fabric-whatif: {plain_text(model.evaluation_error(err, getattr(args, 'scenario', None)))}",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # pragma: no cover - `| head`
        return 0
    except OSError as err:  # a path the checks did not foresee: named in one line all the same
        print(f"fabric-whatif: {plain_text(files.unusable_path(err.filename or '(a file)', err))}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
