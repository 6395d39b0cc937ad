"""The suite checks itself at the end: no `skald` or `redis-server` it started may
outlive it. A pytest hook (installed by tests/conftest.py): once the session
finishes, every such process still running that this pytest started (a descendant
of this process, or one working in or naming its temporary directory, as an orphaned
embedded Redis does) fails the run, named, and is then stopped. Processes the suite
did not start (the shared CI Redis on 6379, another session's) are not counted."""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Leftover:
    pid: int
    command: str


def _read(pid: int) -> tuple[int, str, str, str] | None:
    """ppid, state, command line and working directory of a process, or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return int(fields[1]), fields[0], command.strip(), cwd


def ours(command: str) -> bool:
    words = command.split()
    if not words:
        return False
    program = os.path.basename(words[0])
    runs_skald = any(os.path.basename(word) == "skald" for word in words[:2])
    return program.startswith("redis-server") or runs_skald


def leftovers(root: int, temporary: Path | None) -> list[Leftover]:
    processes = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (read := _read(int(entry.name))) is not None:
            processes[int(entry.name)] = read
    descendants: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {p for p, (ppid, *_) in processes.items() if ppid in frontier} - descendants
        descendants |= frontier
    found = []
    for pid, (_, state, command, cwd) in sorted(processes.items()):
        if state == "Z" or not ours(command) or ":6379" in command:
            continue
        # With the separator: pytest-2 must not claim pytest-27's processes.
        inside = f"{temporary}{os.sep}" if temporary is not None else None
        started_here = pid in descendants or (
            inside is not None and (inside in command or f"{cwd}{os.sep}".startswith(inside))
        )
        if started_here:
            found.append(Leftover(pid, command))
    return found


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    factory = getattr(session.config, "_tmp_path_factory", None)
    temporary = None
    if factory is not None and getattr(factory, "_basetemp", None) is not None:
        temporary = factory.getbasetemp().resolve()
    found = leftovers(os.getpid(), temporary)
    if not found:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [f"{len(found)} process(es) the suite started are still running:"]
    lines += [f"  pid {left.pid}: {left.command}" for left in found]
    lines.append("(a test must stop every process it starts; they are stopped now)")
    if reporter is not None:
        reporter.write_line("\n".join(lines), red=True)
    for left in found:
        with contextlib.suppress(OSError):  # it may have ended meanwhile
            os.kill(left.pid, signal.SIGKILL)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
