"""Keep the process's heap between evaluations (glibc on Linux; elsewhere nothing to do).

An evaluation allocates some megabytes of row-sized arrays and frees them when it returns; the plan-search cache
frees an entry of a few megabytes when it evicts one (it holds six: a slider drag past six values evicts one per new value). glibc's
``malloc`` gives the top of its heap back to the kernel whenever more than ``M_TRIM_THRESHOLD`` lies free there,
and that threshold follows the largest block freed so far (a few megabytes here): in many processes the heap is
given back between two evaluations, and the next one takes every page back as a fresh, zeroed page. Measured on
the default preset's model-size sweep (256 points, 4 fabrics, the plan cache cleared between calls): about 1,800
fresh pages and 12.1 ms a call, against none and 9.1 ms with the heap kept.

:func:`keep_heap` fixes both thresholds (which also turns their adjustment off, mallopt(3)): blocks under
:data:`MMAP_THRESHOLD_BYTES` come from the heap, and up to :data:`TRIM_THRESHOLD_BYTES` of free heap is kept for the
next evaluation rather than given back. The app, the command line and the benchmarks call it at start; the
engine itself (``model``) never changes the process. Sources: the Linux man-pages project, mallopt(3)
(``M_TRIM_THRESHOLD``, ``M_MMAP_THRESHOLD``, and that setting either disables the dynamic adjustment); the GNU C
Library manual, "Malloc Tunable Parameters". macOS's and Windows' allocators have other policies and no such
call: there it does nothing.
"""

from __future__ import annotations

import ctypes
import platform

M_TRIM_THRESHOLD = -1  # <malloc.h>
M_MMAP_THRESHOLD = -3  # <malloc.h>
MMAP_THRESHOLD_BYTES = 32 * 1024 * 1024  # the largest glibc accepts on 64-bit (HEAP_MAX_SIZE / 2)
TRIM_THRESHOLD_BYTES = 64 * 1024 * 1024  # free heap kept: a few evaluations' worth of arrays

_STATE = {"kept": None}


def keep_heap() -> bool:
    """Fix glibc's trim and mmap thresholds for this process, once; True where they are set (glibc), else False.

    Idempotent: later calls return the first call's answer without touching the allocator again.
    """
    if _STATE["kept"] is None:
        _STATE["kept"] = _set_thresholds()
    return _STATE["kept"]


def heap_kept() -> bool | None:
    """Whether :func:`keep_heap` has set the thresholds (True), could not (False), or has not been called (None)."""
    return _STATE["kept"]


def _set_thresholds() -> bool:
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # a static or unusual build: leave the allocator as it is
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    # the mmap threshold first: setting either turns the adjustment off, and a trim threshold alone would leave
    # blocks over glibc's initial 128 KiB to fresh mappings every time
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and bool(mallopt(M_TRIM_THRESHOLD,
                                                                                 TRIM_THRESHOLD_BYTES))


def freeze_startup_objects() -> None:
    """Leave the objects made up to the first window out of Python's cyclic collector from now on.

    What exists once the window is built (modules, classes, the asset catalogue, the window's Qt wrappers, tens of
    thousands of objects) lives as long as the app, yet every full collection scans it again: measured on a
    model-size drag, about one full collection every seven moves, 10 ms each, 1.6 ms a move on average, against
    0.05 ms with them frozen. ``gc.freeze`` moves them to a permanent generation (Python 3.7+, the standard library's
    ``gc`` documentation); objects made later are collected as before, and reference counting still frees any of
    them that is dropped without a cycle.
    """
    import gc

    gc.collect()  # what is already garbage goes first, not into the permanent generation
    gc.freeze()
