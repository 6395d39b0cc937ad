"""A rebuild's process keeps the memory it frees for its next batch (issue 39).

Each batch of a full rebuild makes ~12 MB of view bytes (the audit entries and the event
log's JSON, ~3 KB an event each), joins them into the commit's blobs and frees them once
Redis has them. glibc's malloc gives freed memory back to the kernel when the top of its
heap has more than 128 KB free, and serves any allocation of 128 KB or more (a blob)
with a fresh mmap: so every batch's memory was faulted in again page by page, zeroed by
the kernel, and unmapped after: ~1 million page faults and ~1.1 s of system time in a
100,000-event rebuild's ~8 s of CPU, measured (bench/README.md "rebuild18 lane"). With
the heap kept and blobs taken from it, ~0.2 million and ~0.35 s.

For processes that rebuild and exit (the rebuild command and its parts): the memory
stays the process's until it exits, at the rebuild's high-water mark. Only glibc has
``mallopt``; elsewhere nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util

# <malloc.h>
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
# Never give the heap's top back (glibc takes the threshold as an unsigned long).
KEEP_ALL = 2**31 - 1
# glibc's largest mmap threshold on 64 bits (4 MiB * sizeof(long)): every blob of a
# rebuild's batch comes from the heap below it.
LARGEST_MMAP_THRESHOLD = 32 * 1024 * 1024


def keep_freed_memory() -> bool:
    """Keep freed memory in this process rather than return it to the kernel; whether
    the C library took it (glibc's ``mallopt``)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # no C library to ask, or not glibc's
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    trimmed: int = mallopt(M_TRIM_THRESHOLD, KEEP_ALL)
    mapped: int = mallopt(M_MMAP_THRESHOLD, LARGEST_MMAP_THRESHOLD)
    return trimmed == 1 and mapped == 1
