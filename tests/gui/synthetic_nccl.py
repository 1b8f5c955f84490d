"""A synthetic nccl-tests all_reduce_perf log for the GUI tests, and a finite-values filter."""

from __future__ import annotations

import numpy as np

HEADER = """# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20
#
# Using devices
{ranks}#
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
"""


def nccl_log(alpha_us: float = 40.0, busbw_gbs: float = 46.0, nodes: int = 2, gpn: int = 8) -> str:
    n = nodes * gpn
    ranks = "".join(f"#  Rank {r:2d} Group  0 Pid {1000 + r} on node{r // gpn} device {r % gpn} [0x07] "
                    f"NVIDIA H100 80GB HBM3\n" for r in range(n))
    lines = [f"$ mpirun -np {n} ./build/all_reduce_perf -b 1K -e 4G -f 4 -g 1", HEADER.format(ranks=ranks)]
    factor = 2 * (n - 1) / n
    for k in range(10, 34, 2):
        size = 2 ** k
        t = alpha_us + size * factor / (busbw_gbs * 1e9) * 1e6
        algbw = size / t / 1e3
        lines.append(f"{size:12d} {size // 4:13d}     float     sum      -1 {t:8.1f} {algbw:7.2f} {algbw * factor:7.2f}"
                     f"      0 {t:8.1f} {algbw:7.2f} {algbw * factor:7.2f}      0")
    lines.append("# Avg bus bandwidth    : 40.1")
    return "\n".join(lines) + "\n"


def finite(a) -> np.ndarray:
    a = np.asarray(a, dtype=float)
    return a[np.isfinite(a)]
