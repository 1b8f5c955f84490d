"""Read nccl-tests output as it is found in the wild.

``all_reduce_perf`` and its siblings print one row per message size: size,
count, type, redop, root, then time, algbw, busbw and #wrong for the
out-of-place and the in-place run (nccl-tests ``doc/PERFORMANCE.md``). Real
logs vary; every variant below was seen in a public log (assets/validation/nccl):

- line prefixes from the launcher: ``0: `` (srun ``--label``), ``[1,0]<stdout>:``
  (mpirun ``--tag-output``), indentation from documentation renderers;
- the ``#`` of header lines stripped (documentation renderers);
- the old layout without the ``root`` column (nccl-tests before 2.x), ``error``
  instead of ``#wrong``, ``N/A`` when validation is off (``-c 0``);
- newer first lines with extra fields (``side_work``, ``work_sms``, ``direction``);
- NCCL INFO/WARN, MPI/pyxis and shell lines between rows, 0-byte rows, PDF
  page headers and blank lines (a PDF conversion).

``NCCL_ALGO=…`` in a logged command line or environment dump is kept (a forced
algorithm). The collective comes from the test's name (``all_reduce_perf``, ``Collective
test concluded: …``), or else from ``redop`` and the ratio busbw/algbw (2(n−1)/n
for all-reduce, (n−1)/n for gather/scatter/all-to-all, 1 for send/recv); ranks
from the ``# Rank … on HOST device`` lines, or else from that ratio; nodes from
the distinct hosts.

Every problem is a :class:`~model.errors.ScenarioError` naming the line.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from .errors import ScenarioError

COLLECTIVES = {
    "all_reduce": "all_reduce", "allreduce": "all_reduce",
    "all_gather": "all_gather", "allgather": "all_gather",
    "reduce_scatter": "reduce_scatter", "reducescatter": "reduce_scatter",
    "alltoall": "all_to_all", "all_to_all": "all_to_all",
    "sendrecv": "sendrecv", "send_recv": "sendrecv",
}
_PREFIX = re.compile(r"^\s*(?:\[\d+(?:,\d+)?\](?:<std(?:out|err)>)?:?|\d+:(?=\s))\s?")
_RANK = re.compile(r"#?\s*Rank\s+(\d+)\b.*?\bon\s+(\S+)\s+device", re.IGNORECASE)
_COLL = re.compile(r"(all_reduce|allreduce|all_gather|allgather|reduce_scatter|reducescatter|alltoall|all_to_all"
                   r"|sendrecv)_perf", re.IGNORECASE)
_ALGO = re.compile(r"NCCL_ALGO\s*[= ]\s*([A-Za-z_]+)", re.IGNORECASE)
_ALGOS = {"ring": "ring", "tree": "tree", "nvls": "nvls", "nvlstree": "nvls", "collnet": "sharp",
          "collnetdirect": "sharp", "collnetchain": "sharp"}
_TYPES = {"int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16", "fp8_e4m3",
          "fp8_e5m2", "char", "int", "float16", "float32", "float64", "bf16"}


@dataclass(frozen=True)
class NcclLog:
    """The measured points of one nccl-tests run (out-of-place columns)."""
    collective: str
    ranks: int
    nodes: int  # 0 when neither the log nor the caller says
    size_bytes: np.ndarray
    time_us: np.ndarray
    busbw_gb_per_s: np.ndarray
    algbw_gb_per_s: np.ndarray = field(default_factory=lambda: np.zeros(0))
    notes: tuple = ()  # how collective, ranks and nodes were found
    algorithm: str = "auto"  # "ring" etc. when the log shows NCCL_ALGO forced

    @property
    def ranks_per_node(self) -> int:
        return max(self.ranks // self.nodes, 1) if self.nodes else self.ranks


def _header_columns(toks):
    """Index of size, time (first), and whether the row has a root column, from a header's tokens."""
    return {"time": toks.index("time"), "root": "root" in toks, "redop": "redop" in toks}


def _infer_ranks(kind, busbw, algbw):
    """Ranks from busbw/algbw at the sizes where both are printed with the most digits [-]; None if unclear."""
    ok = (algbw >= 1.0) & (busbw > 0)
    if not np.any(ok):
        return None
    r = float(np.median(busbw[ok] / algbw[ok]))
    if kind == "all_reduce":
        if r >= 2.0 - 1e-3:
            return None
        n = 2.0 / (2.0 - r)
    elif kind == "sendrecv":
        return None
    else:
        if r >= 1.0 - 1e-3:
            return None
        n = 1.0 / (1.0 - r)
    return max(int(round(n)), 2)


def _infer_collective(redop, busbw, algbw):
    ok = (algbw >= 1.0) & (busbw > 0)
    if not np.any(ok):
        return None
    r = float(np.median(busbw[ok] / algbw[ok]))
    if r > 1.02:
        return "all_reduce"
    if abs(r - 1.0) <= 0.02:
        return "sendrecv"
    return "reduce_scatter" if redop not in (None, "none") else "all_gather"


def parse_nccl_tests(text: str, *, source: str = "nccl-tests log", collective: str | None = None,
                     ranks: int | None = None, nodes: int | None = None) -> NcclLog:
    """Read the size/time/algbw/busbw rows of an nccl-tests run (any variant in the module docstring).

    ``collective``, ``ranks`` and ``nodes`` are taken from the log unless given.
    """
    cols = None
    rank_hosts: dict[int, str] = {}
    sizes, times, algbws, busbws = [], [], [], []
    found_coll = None
    redop = None
    algorithm = "auto"
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _PREFIX.sub("", raw).strip()
        if not line:
            continue
        am = _ALGO.search(line)
        if am and am.group(1).lower() in _ALGOS:
            algorithm = _ALGOS[am.group(1).lower()]
        m = _COLL.search(line)
        if m and found_coll is None:
            found_coll = COLLECTIVES[m.group(1).lower()]
        body = line.lstrip("#").strip()
        rm = _RANK.match(line) or _RANK.match(body)
        if rm:
            rank_hosts[int(rm.group(1))] = rm.group(2)
            continue
        toks = body.split()
        if "size" in toks and "time" in toks and ("busbw" in toks or "algbw" in toks):
            cols = _header_columns(toks)
            continue
        if line.startswith("#") or not toks or not toks[0].isdigit():
            continue  # comments, NCCL INFO/WARN, MPI and shell lines, PDF page headers
        if len(toks) < 4 or toks[2].lower() not in _TYPES:
            continue  # a number that starts some other line (e.g. "342" page footers)
        if cols is None:
            raise ScenarioError(f"{source}, line {lineno}", line[:60],
                                "a data row after the nccl-tests column header (size count type ... time algbw busbw)")
        i_time = cols["time"]
        try:
            size = int(toks[0])
            t_us = float(toks[i_time])
            algbw = float(toks[i_time + 1])
            busbw = float(toks[i_time + 2])
        except (ValueError, IndexError):
            raise ScenarioError(f"{source}, line {lineno}", line[:60],
                                "a row with size, count, type, ... time, algbw, busbw") from None
        if size == 0:
            continue  # nccl-tests prints 0-byte rows for some collectives: no time to learn from
        if not (math.isfinite(t_us) and t_us > 0 and size > 0):
            raise ScenarioError(f"{source}, line {lineno}", line[:60], "a positive size and time")
        if cols["redop"] and redop is None and len(toks) > 3:
            redop = toks[3].lower()
        sizes.append(size)
        times.append(t_us)
        algbws.append(algbw)
        busbws.append(busbw)
    S, t, alg, bus = (np.array(x, float) for x in (sizes, times, algbws, busbws))
    notes = []
    coll = collective or found_coll
    if coll is None and len(S):
        coll = _infer_collective(redop, bus, alg)
        if coll is not None:
            notes.append(f"collective {coll} inferred from redop {redop} and busbw/algbw")
    if coll is None:
        raise ScenarioError(source, "collective", "a log that names its test (e.g. all_reduce_perf), or give the "
                                                  "collective: all_reduce, all_gather, reduce_scatter, alltoall, "
                                                  "sendrecv")
    if coll not in COLLECTIVES.values():
        coll = COLLECTIVES.get(coll.lower().replace("-", "_"))
        if coll is None:
            raise ScenarioError("collective", collective,
                                "all_reduce, all_gather, reduce_scatter, alltoall or sendrecv")
    if len(set(sizes)) < 2:
        raise ScenarioError(source, f"{len(sizes)} data rows", "at least two message sizes (run with -b and -e "
                                                                "apart, e.g. -b 8 -e 8G -f 2)")
    n_ranks = ranks or len(rank_hosts)
    if not n_ranks:
        n_ranks = _infer_ranks(coll, bus, alg)
        if n_ranks:
            notes.append(f"{n_ranks} ranks inferred from busbw/algbw")
    n_nodes = nodes or len(set(rank_hosts.values()))
    if not n_ranks:
        raise ScenarioError(source, "ranks", "a log with its '# Rank N ... on HOST device' lines, or give ranks "
                                             "and nodes")
    if algorithm != "auto":
        notes.append(f"NCCL_ALGO={algorithm} set in the log")
    return NcclLog(coll, int(n_ranks), int(n_nodes or 0), S, t, bus, alg, tuple(notes), algorithm)
