"""Training days against loss, latency and nodes, per fabric, under both profile sets (the README's table).

``python -m benchmarks.network_shapes`` prints Markdown tables for the article's case 2 and a 64 × 8 H100,
70B run (loss, latency, nodes and leaf oversubscription). One engine sweep per row group: every fabric at once. Days are failure-free (``train_days``),
so only the network and compute set them; "–" where no plan fits.
"""

from __future__ import annotations

import numpy as np

import model
from model import claims, presets

LOSS = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2)
LATENCY_US = (1.0, 10.0, 100.0, 1000.0)
NODES = (1, 8, 64, 256, 1024)
OVERSUBSCRIPTION = (1.0, 4.0, 16.0)
OVERSUBSCRIBED_NODES = 512  # leaf oversubscription shows where traffic leaves the leaves: at this scale
SWEEPS = (("fabric.loss_rate", "loss", LOSS, "{:g}", {}), ("fabric.latency_us", "latency", LATENCY_US, "{:g} µs", {}),
          ("cluster.nodes", "nodes", NODES, "{:,}", {}),
          ("topology.oversubscription", f"oversubscription at {OVERSUBSCRIBED_NODES} nodes", OVERSUBSCRIPTION,
           "{:g}:1", {"cluster.nodes": OVERSUBSCRIBED_NODES}))


def h100_70b(profile: str) -> model.Scenario:
    """64 nodes × 8 H100, a 70B model, 4k sequence, 1,024 sequences per step, 1T tokens."""
    return model.scenario_from_dict({
        "name": "64 × 8 H100 · 70B",
        "cluster": {"gpu": "H100-SXM", "nodes": 64, "gpus_per_node": 8},
        "workload": {"params_b": 70.0, "seq_len": 4096, "global_batch": 1024, "train_tokens_b": 1000.0},
        "fabric": {"profile_set": profile},
    })


def case2(profile: str) -> model.Scenario:
    s = presets.load_preset("case2")
    return s if profile == "seed" else claims.published_variant(s)  # the article's fabric figures dropped


def table(s: model.Scenario) -> str:
    """One Markdown table: a row per swept value, a column per fabric."""
    base = model.evaluate(s, require_feasible=False)
    head = "| sweep | value | " + " | ".join(base.labels) + " |"
    lines = [head, "|" + "---|" * (2 + len(base.labels))]
    for field, name, values, fmt, changes in SWEEPS:
        res = model.sweep(s.replace_many(changes) if changes else s, field, np.asarray(values, dtype=float))
        for j, v in enumerate(values):
            days = res.throughput.train_days[:, j]
            cells = ["–" if not np.isfinite(d) else f"{d:,.1f}" for d in days]
            lines.append(f"| {name} | {fmt.format(v)} | " + " | ".join(cells) + " |")
    now = " · ".join(f"{lab} {d:,.1f}" for lab, d in zip(base.labels, base.throughput.train_days))
    return "\n".join(lines) + f"\n\nAt the scenario's own values: {now} days."


def main() -> None:
    for build in (case2, h100_70b):
        for profile in ("seed", "published"):
            s = build(profile)
            print(f"#### {s.name} — `{profile}` profile set\n")
            print(table(s))
            print()


if __name__ == "__main__":
    main()
