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

What the log says about its run is kept, each with where it was found (``notes``):

- the collective from the test's name (``all_reduce_perf``, ``Collective test concluded: …``), or else from
  ``redop`` and the ratio busbw/algbw (2(n−1)/n for all-reduce, (n−1)/n for gather/scatter/all-to-all, 1 for
  send/recv);
- ranks from the ``# Rank … on HOST device`` lines, else NCCL's ``nranks N`` (``NCCL_DEBUG=INFO``), else the
  launcher's command line (``mpirun -np``, ``srun --ntasks``), else that ratio; nodes from the distinct hosts
  of the rank lines, else of NCCL's INFO lines, else the launcher (``srun -N``, ``mpirun -np … -N``);
- a forced algorithm (``NCCL_ALGO=…`` in a logged command line or environment dump);
- the transport and the NICs per node from NCCL's INFO lines (``NET/IB : Using [0]mlx5_0:1/IB …``,
  ``/RoCE``, ``NET/Socket``, ``NCCL_IB_DISABLE=1``).

The rows are sorted by size; a size printed more than once (a run pasted twice) keeps its median time, so the
order of the rows never matters. A log is refused, by line or by name, when a row holds a value no run prints
(non-finite or non-positive time, negative or non-finite bandwidth, an algbw that is not size/time, a size above
:data:`MAX_SIZE_BYTES`), when it has more than :data:`MAX_ROWS` rows, when it mixes runs of different
collectives or rank counts (two logs pasted together), or when its rank count contradicts its own
busbw/algbw (a log that lists only some of its ranks).

Every problem is a :class:`~model.errors.ScenarioError` naming the line or the field.
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
# at most this many data rows: nccl-tests -b 1M -e 16G -i 1M prints 16,384; a longer text is not one run
MAX_ROWS = 20_000
# no GPU holds a message of 1 TiB per rank (HBM: 80-288 GB per GPU in the catalogue): a larger size is corrupt
MAX_SIZE_BYTES = 2**40
# busbw/algbw of rows of one run agree within this (both printed with two decimals; compared at algbw >= 1 GB/s)
RATIO_TOLERANCE = 0.03
_PREFIX = re.compile(r"^\s*(?:\[\d+(?:,\d+)?\](?:<std(?:out|err)>)?:?|\d+:(?=\s))\s?")
_RANK = re.compile(r"#?\s*Rank\s+(\d+)\b.*?\bon\s+(\S+)\s+device", re.IGNORECASE)
_COLL = re.compile(r"(all_reduce|allreduce|all_gather|allgather|reduce_scatter|reducescatter|alltoall|all_to_all"
                   r"|sendrecv)_perf", re.IGNORECASE)
_ALGO = re.compile(r"NCCL_ALGO\s*[= ]\s*([A-Za-z_]+)", re.IGNORECASE)
_ALGOS = {"ring": "ring", "tree": "tree", "nvls": "nvls", "nvlstree": "nvls", "collnet": "sharp",
          "collnetdirect": "sharp", "collnetchain": "sharp"}
_TYPES = {"int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16", "fp8_e4m3",
          "fp8_e5m2", "char", "int", "float16", "float32", "float64", "bf16"}
# NCCL_DEBUG=INFO lines: "HOST:PID:TID [DEV] NCCL INFO ..."
_INFO_HOST = re.compile(r"^(\S+?):\d+:\d+\s+\[\d+\]\s+NCCL\s+(?:INFO|WARN)")
_NRANKS = re.compile(r"\bnranks\s+(\d+)\b")
_NET_USING = re.compile(r"NET/(IB|Socket|OFI|AWS\w*|GPUDirectTCPX\w*|FasTrak\w*)\s*:\s*Using\s+(.*)", re.IGNORECASE)
_NETWORK = re.compile(r"Using network\s+(\S+)", re.IGNORECASE)
_IB_DISABLE = re.compile(r"NCCL_IB_DISABLE\s*[= ]\s*1\b|NCCL_IB_DISABLE set by environment to 1", re.IGNORECASE)
_NP = re.compile(r"(?:^|\s)(?:-np|-n|--np|--ntasks)[= ](\d+)\b")
_PER_NODE_LONG = re.compile(r"--ntasks-per-node[= ](\d+)\b|-?-npernode[= ](\d+)\b")
_NODES_LONG = re.compile(r"--nodes[= ](\d+)\b")
_DASH_N = re.compile(r"(?:^|\s)-N[= ]?(\d+)\b")


@dataclass(frozen=True)
class NcclLog:
    """The measured points of one nccl-tests run (out-of-place columns), sorted by size, one row per size."""
    collective: str
    ranks: int
    nodes: int  # 0 when neither the log nor the caller says
    size_bytes: np.ndarray
    time_us: np.ndarray
    busbw_gb_per_s: np.ndarray
    algbw_gb_per_s: np.ndarray = field(default_factory=lambda: np.zeros(0))
    notes: tuple = ()  # how collective, ranks and nodes were found
    algorithm: str = "auto"  # "ring" etc. when the log shows NCCL_ALGO forced
    transport: str | None = None  # "infiniband", "roce", "tcp" when NCCL's INFO lines say; None otherwise
    nics_per_node: int = 0  # NICs NCCL used per node (its INFO lines); 0 when the log does not say
    ranks_from: str = ""  # where the rank count came from ("" when the caller gave it)
    nodes_from: str = ""

    @property
    def ranks_per_node(self) -> int:
        return max(self.ranks // self.nodes, 1) if self.nodes else self.ranks


def _header_columns(toks):
    """Index of size, time (first), and whether the row has a root column, from a header's tokens."""
    return {"time": toks.index("time"), "root": "root" in toks, "redop": "redop" in toks}


def _ratio_rows(busbw, algbw):
    """Rows whose busbw/algbw is printed with enough digits to read a rank count from (algbw ≥ 1 GB/s)."""
    return (algbw >= 1.0) & (busbw > 0)


def _infer_ranks(kind, busbw, algbw):
    """Ranks from busbw/algbw at the sizes where both are printed with the most digits [-]; None if unclear."""
    ok = _ratio_rows(busbw, algbw)
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
    ok = _ratio_rows(busbw, algbw)
    if not np.any(ok):
        return None
    r = float(np.median(busbw[ok] / algbw[ok]))
    if r > 1.02:
        return "all_reduce"
    if abs(r - 1.0) <= 0.02:
        return "sendrecv"
    return "reduce_scatter" if redop not in (None, "none") else "all_gather"


def _bus_factor(kind, n):
    """nccl-tests' busbw/algbw for ``n`` ranks (model.collectives.bus_factor without importing the model)."""
    if kind == "sendrecv":
        return 1.0
    return (2.0 if kind == "all_reduce" else 1.0) * (n - 1.0) / n


def _median_rows(S, t, *cols):
    """Rows sorted by size, one per size: of rows of the same size, the one of median time (the lower median of
    an even count). The result does not depend on the rows' order."""
    if S.size == 0:
        return (S, t, *cols), 0
    order = np.lexsort((t, S))
    S, t = S[order], t[order]
    cols = [c[order] for c in cols]
    first = np.flatnonzero(np.r_[True, S[1:] != S[:-1]])
    counts = np.diff(np.r_[first, S.size])
    pick = first + (counts - 1) // 2
    return (S[pick], t[pick], *(c[pick] for c in cols)), int(S.size - pick.size)


class _RunFacts:
    """What the lines around the rows say about the run: hosts, ranks, launcher options, network."""

    def __init__(self):
        self.rank_hosts: dict[int, str] = {}
        self.info_hosts: set[str] = set()
        self.nranks: int | None = None
        self.np: int | None = None
        self.per_node: int | None = None
        self.launcher_nodes: int | None = None
        self.transport: str | None = None
        self.transport_note: str | None = None
        self.nics = 0
        self.collectives: set[str] = set()
        self.algorithm = "auto"

    def read(self, line: str) -> None:
        am = _ALGO.search(line)
        if am and am.group(1).lower() in _ALGOS:
            self.algorithm = _ALGOS[am.group(1).lower()]
        for m in _COLL.finditer(line):
            self.collectives.add(COLLECTIVES[m.group(1).lower()])
        im = _INFO_HOST.match(line)
        if im:
            self.info_hosts.add(im.group(1))
            nm = _NRANKS.search(line)
            if nm:
                self.nranks = int(nm.group(1))
        net = _NET_USING.search(line)
        if net:
            kind, rest = net.group(1).lower(), net.group(2)
            self.nics = max(self.nics, len(re.findall(r"\[\d+\]", rest)))
            if kind == "ib":
                self._set_transport("roce" if "/roce" in rest.lower() else "infiniband", "NCCL's NET/IB line")
            elif kind == "socket":
                self._set_transport("tcp", "NCCL's NET/Socket line")
            elif kind.startswith(("gpudirecttcpx", "fastrak")):
                self._set_transport("tcp", "GPUDirect-TCPX (NCCL's net plugin)")
            else:
                self.transport_note = "AWS EFA (libfabric): not one of the four fabrics"
        nw = _NETWORK.search(line)
        if nw and self.transport is None:
            name = nw.group(1).lower()
            if name == "socket":
                self._set_transport("tcp", "NCCL's 'Using network Socket'")
            elif name == "ib":
                self._set_transport("infiniband", "NCCL's 'Using network IB'")
        if _IB_DISABLE.search(line) and self.transport is None:
            self._set_transport("tcp", "NCCL_IB_DISABLE=1")
        if "mpirun" in line or "mpiexec" in line or "srun" in line or "--ntasks" in line:
            m = _NP.search(line)
            if m:
                self.np = int(m.group(1))
            m = _PER_NODE_LONG.search(line)
            if m:
                self.per_node = int(m.group(1) or m.group(2))
            m = _NODES_LONG.search(line)
            if m:
                self.launcher_nodes = int(m.group(1))
            m = _DASH_N.search(line)
            if m:  # srun -N: nodes; mpirun -N: ranks per node (Open MPI)
                if "srun" in line:
                    self.launcher_nodes = int(m.group(1))
                else:
                    self.per_node = int(m.group(1))
        else:
            m = _PER_NODE_LONG.search(line)  # a continued command line
            if m:
                self.per_node = int(m.group(1) or m.group(2))

    def _set_transport(self, transport: str, where: str) -> None:
        if self.transport is None or (self.transport == "infiniband" and transport == "roce"):
            self.transport, self.transport_note = transport, f"transport {transport} from {where}"

    def launcher_ranks(self) -> int | None:
        if self.np:
            return self.np
        if self.per_node and self.launcher_nodes:
            return self.per_node * self.launcher_nodes
        return None

    def launcher_node_count(self) -> int | None:
        if self.launcher_nodes:
            return self.launcher_nodes
        if self.np and self.per_node:
            return max(self.np // self.per_node, 1)
        return None


def parse_nccl_tests(text: str, *, source: str = "nccl-tests log", collective: str | None = None,
                     ranks: int | None = None, nodes: int | None = None) -> NcclLog:
    """Read the size/time/algbw/busbw rows of an nccl-tests run (any variant in the module docstring).

    ``collective``, ``ranks`` and ``nodes`` are taken from the log unless given.
    """
    cols = None
    facts = _RunFacts()
    sizes, times, algbws, busbws, linenos = [], [], [], [], []
    redop = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _PREFIX.sub("", raw).strip()
        if not line:
            continue
        facts.read(line)
        body = line.lstrip("#").strip()
        rm = _RANK.match(line) or _RANK.match(body)
        if rm:
            facts.rank_hosts[int(rm.group(1))] = rm.group(2)
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
        where = f"{source}, line {lineno}"
        if len(toks[0]) > 15 or int(toks[0]) > MAX_SIZE_BYTES:
            raise ScenarioError(where, toks[0][:20] + ("…" if len(toks[0]) > 20 else ""),
                                f"a message size of at most {MAX_SIZE_BYTES:,} B (1 TiB): no GPU holds more")
        i_time = cols["time"]
        try:
            size = int(toks[0])
            t_us = float(toks[i_time])
            algbw = float(toks[i_time + 1])
            busbw = float(toks[i_time + 2])
        except (ValueError, IndexError):
            raise ScenarioError(where, line[:60], "a row with size, count, type, ... time, algbw, busbw") from None
        if size == 0:
            continue  # nccl-tests prints 0-byte rows for some collectives: no time to learn from
        if not (math.isfinite(t_us) and t_us > 0):
            raise ScenarioError(where, toks[i_time][:20], "a time (us) above 0")
        for name, value, tok in (("algbw", algbw, toks[i_time + 1]), ("busbw", busbw, toks[i_time + 2])):
            if not (math.isfinite(value) and value >= 0):
                raise ScenarioError(where, tok[:20], f"a {name} (GB/s) of 0 or more")
        expected = size / t_us / 1e3  # nccl-tests: algbw = size / time
        if abs(algbw - expected) > RATIO_TOLERANCE * expected + 0.011:
            raise ScenarioError(where, line[:60], f"algbw = size / time ({expected:.2f} GB/s here, the row says "
                                                  f"{algbw:.2f}): a row as nccl-tests prints it")
        if len(sizes) >= MAX_ROWS:
            raise ScenarioError(source, f"more than {MAX_ROWS:,} data rows",
                                f"at most {MAX_ROWS:,} rows (one nccl-tests run; -b 1M -e 16G -i 1M prints 16,384)")
        if cols["redop"] and redop is None and len(toks) > 3:
            redop = toks[3].lower()
        sizes.append(size)
        times.append(t_us)
        algbws.append(algbw)
        busbws.append(busbw)
        linenos.append(lineno)
    (S, t, alg, bus), repeated = _median_rows(*(np.array(x, float) for x in (sizes, times, algbws, busbws)))
    notes = []
    if repeated:
        notes.append(f"{repeated} repeated row(s) of the same size: the median time kept")
    if len(facts.collectives) > 1 and collective is None:
        raise ScenarioError(source, " and ".join(f"{c}_perf" for c in sorted(facts.collectives)),
                            "one collective per log: fit or compare each run on its own")
    ok = _ratio_rows(bus, alg)
    if np.count_nonzero(ok) >= 2:
        ratio = bus[ok] / alg[ok]
        if ratio.max() > (1.0 + RATIO_TOLERANCE) * ratio.min() + 0.02:
            raise ScenarioError(source, f"busbw/algbw from {ratio.min():.2f} to {ratio.max():.2f}",
                                "the rows of one run (one collective, one rank count): two logs pasted together? "
                                "fit or compare each run on its own")
    found_coll = next(iter(facts.collectives)) if len(facts.collectives) == 1 else None
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
    if S.size < 2:
        raise ScenarioError(source, f"{S.size} message size(s)", "at least two message sizes (run with -b and -e "
                                                                  "apart, e.g. -b 8 -e 8G -f 2)")
    n_ranks, ranks_from = _rank_count(ranks, facts, coll, bus, alg, notes)
    n_nodes, nodes_from = nodes, ""
    if not n_nodes:
        for count, where in ((len(set(facts.rank_hosts.values())), "the hosts of its '# Rank' lines"),
                             (len(facts.info_hosts), "the hosts of NCCL's INFO lines"),
                             (facts.launcher_node_count(), "the launcher's command line")):
            if count:
                n_nodes, nodes_from = count, where
                break
    if not n_ranks:
        raise ScenarioError(source, "ranks", "a log with its '# Rank N ... on HOST device' lines, or give ranks "
                                             "and nodes")
    _check_rank_count(source, coll, n_ranks, ranks_from, bus, alg)
    if n_nodes and n_nodes > n_ranks:
        raise ScenarioError(source, f"{n_nodes} nodes" + (f" (from {nodes_from})" if nodes_from else ""),
                            f"at most one node per rank ({n_ranks} ranks)")
    if n_nodes and n_ranks % n_nodes:
        raise ScenarioError(source, f"{n_ranks} ranks on {n_nodes} nodes",
                            "the same number of ranks on every node (give ranks and nodes)")
    if facts.algorithm != "auto":
        notes.append(f"NCCL_ALGO={facts.algorithm} set in the log")
    if facts.transport_note:
        notes.append(facts.transport_note + (f", {facts.nics} NIC(s) per node" if facts.nics else ""))
    return NcclLog(coll, int(n_ranks), int(n_nodes or 0), S, t, bus, alg, tuple(notes), facts.algorithm,
                   facts.transport, facts.nics, ranks_from, nodes_from)


def _rank_count(ranks, facts: _RunFacts, coll, bus, alg, notes):
    """The run's ranks and where they came from: the caller, the log's rank lines, NCCL's nranks, the launcher,
    else busbw/algbw."""
    if ranks:
        return ranks, ""
    for count, where in ((len(facts.rank_hosts), "its '# Rank' lines"), (facts.nranks, "NCCL's 'nranks'"),
                         (facts.launcher_ranks(), "the launcher's command line")):
        if count:
            return count, where
    n = _infer_ranks(coll, bus, alg)
    if n:
        notes.append(f"{n} ranks inferred from busbw/algbw")
    return n, "busbw/algbw"


def _check_rank_count(source, coll, n_ranks, ranks_from, bus, alg) -> None:
    """Refuse a rank count its own rows contradict (busbw/algbw is nccl-tests' factor of the rank count)."""
    if n_ranks < 2:
        raise ScenarioError(source, f"{n_ranks} rank" + (f" (from {ranks_from})" if ranks_from else ""),
                            "a run of at least two ranks (a log that lists only some of its ranks: give the run's "
                            "ranks)")
    ok = _ratio_rows(bus, alg)
    if coll == "sendrecv" or not np.any(ok):
        return
    r = float(np.median(bus[ok] / alg[ok]))
    f = _bus_factor(coll, n_ranks)
    if abs(r - f) > RATIO_TOLERANCE * f + 0.02:
        hint = _infer_ranks(coll, bus, alg)
        raise ScenarioError(source, f"{n_ranks} ranks" + (f" (from {ranks_from})" if ranks_from else " (given)"),
                            f"the rank count its rows show: busbw/algbw {r:.2f} is {coll}'s factor for "
                            + (f"about {hint} ranks" if hint else "many ranks")
                            + f", not {f:.2f}; give the run's ranks")
