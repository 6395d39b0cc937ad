"""Every process a bench run starts, stopped on every path (bench/all.py).

A run marks its environment with ``BENCH_RUN_ID``: every process it starts inherits the
mark, including the ones that leave their parent's session or outlive it (the embedded
Redis of a `skald serve` runs in a session of its own; a server killed outright leaves
its Redis behind). The run also makes itself the "child subreaper" of what it starts, so
an orphan is re-parented to it rather than to init and can be reaped. At the end, on
every path (an exception, Ctrl-C, SIGTERM), `stop_everything` finds every process that
still carries the mark, asks it to stop, and kills what has not stopped a few seconds
later. The mark is not a SKALD_ setting: the rebuild bench hands the CLI an environment
without those.

The run also leaves no file behind (issue 39: wrk's temporary .lua scripts and
bench/profile.py's data directory stayed): every temporary file and folder of the run
(``tempfile``'s, in this process and, through TMPDIR, in every process it starts: wrk's
scripts, the stores, the servers' data directories, an embedded Redis's socket folder)
goes into one folder of the run's own, removed at its end on every path, once the
processes are stopped (``scratch_space``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

MARK = "BENCH_RUN_ID"
_PR_SET_CHILD_SUBREAPER = 36


def mark_this_run() -> str:
    """This run's mark (one already in the environment is kept: a caller that started
    the run can then look for what it left)."""
    run = os.environ.setdefault(MARK, uuid.uuid4().hex)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    return run


def marked(run: str) -> list[int]:
    """The pids of the live processes other than this one whose environment carries the
    run's mark (zombies excluded: they hold no resources and are reaped below)."""
    needle = f"{MARK}={run}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def _reap() -> None:
    """Collect the exit status of any child (or adopted orphan) that has ended."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def stop_everything(run: str, grace: float = 10.0) -> list[int]:
    """SIGTERM to every marked process, SIGKILL to those left after ``grace`` seconds;
    returns the pids that had to be stopped (an empty list: nothing was left)."""
    left = marked(run)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while marked(run) and time.monotonic() < deadline:
        _reap()
        time.sleep(0.1)
    for pid in marked(run):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    while marked(run) and time.monotonic() < deadline + grace:
        _reap()
        time.sleep(0.05)
    _reap()
    return left


@contextlib.contextmanager
def scratch_space() -> Iterator[Path]:
    """One folder for every temporary file and folder of the run, in this process and
    the processes it starts (TMPDIR), removed at the end however the run ends."""
    folder = Path(tempfile.mkdtemp(prefix="skald-run-"))
    saved_variable, saved_dir = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"] = tempfile.tempdir = str(folder)
    try:
        yield folder
    finally:
        tempfile.tempdir = saved_dir
        if saved_variable is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved_variable
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def everything_stopped() -> Iterator[str]:
    """Mark the run; at its end, however it ends, stop what it left, then remove its
    temporary files. SIGTERM and SIGHUP end the run as Ctrl-C does, through this
    clean-up."""

    def interrupted(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt(signal.Signals(signum).name)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, interrupted)
    run = mark_this_run()
    with scratch_space():
        try:
            yield run
        finally:
            left = stop_everything(run)
            if left:
                print(f"stopped {len(left)} process(es) the run left: {left}", flush=True)
