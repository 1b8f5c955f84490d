"""The acceptance table as a reader sees it, without Qt: translated headings, one row per message size, one
column per collective × node count ("≥ minimum" over the expected figure), and the tolerance's basis.

The numbers are :func:`model.acceptance.acceptance_table`'s; the pack's PDF page, slide and sheet
(:mod:`gui.export.acceptance_pack`) all show this.
"""

from __future__ import annotations

import numpy as np

from model import acceptance
from model.nccl_accuracy import size_label

from gui.present.format import language
from gui.present.text import QT_TRANSLATE_NOOP, profile_set_name, translate

TEXT = {
    "title": QT_TRANSLATE_NOOP("Acceptance", "Acceptance: the bus bandwidth {fabric} must reach"),
    "rule": QT_TRANSLATE_NOOP("Acceptance", "Run nccl-tests (all_reduce_perf, all_gather_perf) on the delivered "
                                            "cluster: it passes where every busbw reaches the minimum. Minimum = "
                                            "expected × (1 − tolerance); GB/s as nccl-tests prints busbw; "
                                            "{gpus} GPUs per node."),
    "basis": QT_TRANSLATE_NOOP("Acceptance", "Tolerance: the largest shortfall below the engine of the real "
                                             "inter-node nccl-tests logs it is validated on, per message size: "
                                             "{bands}. Calibrate the fabric from your own log (fabric-whatif nccl "
                                             "--acceptance --calibrate LOG) for the fit's own tolerance "
                                             "(5 % from 64 MiB, 15 % below) where that log ran."),
    "figures": QT_TRANSLATE_NOOP("Acceptance", "Fabric figures: {name}; expected figures from the engine's "
                                               "collective model at each node count."),
    "size": QT_TRANSLATE_NOOP("Acceptance", "Message size"),
    "tolerance": QT_TRANSLATE_NOOP("Acceptance", "Tolerance"),
    "nodes": QT_TRANSLATE_NOOP("Acceptance", "{n} nodes"),
    "cell": QT_TRANSLATE_NOOP("Acceptance", "minimum (expected)"),
    "band_from": QT_TRANSLATE_NOOP("Acceptance", "from {lo}: {tol} %"),
    "band": QT_TRANSLATE_NOOP("Acceptance", "{lo} to under {hi}: {tol} %"),
}


def _t(key: str) -> str:
    return translate("Acceptance", TEXT[key])


def band_text(table: acceptance.AcceptanceTable) -> str:
    parts = []
    for (lo, hi), tol in zip(acceptance.SIZE_BANDS, table.band_tolerances):
        pct = f"{tol * 100:.0f}"
        parts.append(_t("band_from").format(lo=size_label(lo), tol=pct) if not np.isfinite(hi)
                     else _t("band").format(lo=size_label(lo), hi=size_label(hi), tol=pct))
    return ("；" if language().startswith("zh") else "; ").join(parts)


def acceptance_view(scenario, table: acceptance.AcceptanceTable | None = None) -> dict:
    """What the pack shows: ``title``, ``notes`` (lines), ``header`` (two rows: collective, node count),
    ``rows`` (size, tolerance, then "≥ minimum (expected)" per collective × node count) and the ``table``."""
    t = table if table is not None else acceptance.acceptance_table(scenario)
    low = t.min_busbw_GBps
    columns = [(c, j) for c in range(len(t.collectives)) for j in range(t.nodes.size)]
    top = ["", ""] + [t.collectives[c] if j == 0 else "" for c, j in columns]
    second = [_t("size"), _t("tolerance")] + [_t("nodes").format(n=int(t.nodes[j])) for _, j in columns]
    rows = []
    for m, size in enumerate(t.size_bytes):
        tols = {round(float(x) * 100) for x in t.tolerance[:, :, m].ravel()}
        tol = f"{tols.pop()} %" if len(tols) == 1 else "–"
        rows.append([size_label(size), tol] + [f"≥ {low[c, j, m]:,.1f} ({t.expected_busbw_GBps[c, j, m]:,.1f})"
                                              for c, j in columns])
    notes = [_t("rule").format(gpus=t.ranks_per_node), _t("basis").format(bands=band_text(t)),
             _t("figures").format(name=profile_set_name(t.profile_set))]
    return {"title": _t("title").format(fabric=t.label), "notes": notes, "header": [top, second], "rows": rows,
            "cell": _t("cell"), "table": t}


__all__ = ["TEXT", "acceptance_view", "band_text"]
