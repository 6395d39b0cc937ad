"""`skald projections rebuild` keeps the memory it frees for its next batch (issue 39,
projections/heap.py, bench/README.md "rebuild18 lane"): glibc's defaults gave each
batch's freed memory back to the kernel and served each blob of 128 KB or more with a
fresh mmap, so every batch was faulted in again (~1.1 s of system time in a
100,000-event rebuild's ~8 s of CPU).

The command runs as a user runs it (its own process and its embedded Redis), from a
script that then asks glibc (``mallinfo2``) what became of a block larger than all the
heap's free memory, allocated and freed in that same process: served from the heap (no
new mmapped block: the heap grew by it) and kept in it once freed (the heap as large
after as during). With glibc's defaults, one new mmapped block, the heap unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.patience import HANG_SECONDS

SCRIPT = """
import ctypes, sys
from skald_campaign.cli import app

NAMES = "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost"

class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in NAMES.split()]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = MallInfo2
try:
    app(["projections", "rebuild", "--data-dir", sys.argv[1]])
except SystemExit as done:
    assert not done.code, done.code
before = libc.mallinfo2()
# Larger than all the heap's free memory (so not one of its holes), below 32 MB
# (the largest mmap threshold glibc takes).
SIZE = before.fordblks + 8 * 1024 * 1024
assert SIZE < 32 * 1024 * 1024, SIZE
block = b"x" * SIZE
during = libc.mallinfo2()
del block
after = libc.mallinfo2()
print("mmapped", during.hblks - before.hblks)
print("heap grew", during.arena > before.arena)
print("kept", after.arena == during.arena)
"""


OUR_LINES = ("mmapped", "heap grew", "kept")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_rebuild_command_keeps_what_it_frees(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKALD_")}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
        env={**env, "TMPDIR": str(tmp_path)},
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "rebuilt all views from 0 events" in done.stdout
    found = [line for line in done.stdout.splitlines() if line.startswith(OUR_LINES)]
    # On the old code: "mmapped 1", "heap grew False", "kept True" (nothing to keep).
    assert found == ["mmapped 0", "heap grew True", "kept True"]
