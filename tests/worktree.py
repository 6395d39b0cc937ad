"""The suite checks itself at the end: a run leaves the work tree as it found it.
Tests write only under temporary directories; a file a test wrote into the checkout
(a screenshot over a tracked picture, a data directory in the current directory, a
build folder) would be committed by the next `git add -A`, or would hide a change.

A pytest plugin (installed by tests/conftest.py): at the session's start it lists every
file and directory of the git work tree holding the rootdir, then at the end it fails
the run naming each path that appeared, disappeared or was written meanwhile (its
ctime, which no copy can set back, is after the start), ignored by git or not.

Left out, as the tools' own business rather than the tests' output: .git, virtual
environments (a directory holding pyvenv.cfg), the session's own basetemp if it lies
inside, and the caches the tools write beside the code, all gitignored: Python's
__pycache__, pytest's .pytest_cache, Hypothesis' example database (.hypothesis, which
replays a failure's example next run), and .mypy_cache and .ruff_cache (the static
check tests run mypy and ruff, as a developer does). With SKALD_WRITE_SCREENSHOTS=docs
the README's pictures are asked for (tests/e2e/pictures.py), and only they may change.
Outside a git checkout (an unpacked sdist) there is no work tree to keep; no check."""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

CACHES = frozenset(
    {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache"}
)
SHOWN = 20  # paths named in the failure; the count says how many more


@dataclass(frozen=True)
class Snapshot:
    root: Path
    started_ns: int
    paths: frozenset[str]


def work_tree(start: Path) -> Path | None:
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=start,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return Path(found.stdout.strip()).resolve()


def listing(root: Path, skipped: frozenset[Path]) -> dict[str, int]:
    """Every path under root (relative, '/' for directories) with its ctime in ns,
    skipping CACHES, virtual environments and the given directories."""
    found: dict[str, int] = {}
    for folder, directories, files in os.walk(root):
        here = Path(folder)
        kept = []
        for name in sorted(directories):
            path = here / name
            if name in CACHES or path in skipped or (path / "pyvenv.cfg").exists():
                continue
            kept.append(name)
            found[f"{path.relative_to(root)}/"] = 0  # a directory: present or not
        directories[:] = kept
        for name in files:
            path = here / name
            try:
                found[str(path.relative_to(root))] = path.lstat().st_ctime_ns
            except FileNotFoundError:  # removed while we looked: absent
                continue
    return found


def session_temp(config: pytest.Config) -> Path | None:
    """The --basetemp given, which may lie inside the work tree; pytest's own default
    is under the system's temporary directory."""
    given = config.getoption("basetemp", None)
    return Path(given).resolve() if given else None


def deliberate() -> frozenset[str]:
    if os.environ.get("SKALD_WRITE_SCREENSHOTS") != "docs":
        return frozenset()
    from tests.e2e.pictures import README_PICTURES

    return README_PICTURES | {"docs/screenshots/"}


class WorkTreeGuard:
    def __init__(self) -> None:
        self.snapshot: Snapshot | None = None

    def skipped(self, config: pytest.Config) -> frozenset[Path]:
        temp = session_temp(config)
        return frozenset({temp}) if temp is not None else frozenset()

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        root = work_tree(session.config.rootpath)
        if root is None:
            return
        started = time.time_ns()
        paths = listing(root, self.skipped(session.config))
        self.snapshot = Snapshot(root, started, frozenset(paths))

    def changes(self, config: pytest.Config) -> list[str]:
        assert self.snapshot is not None
        before = self.snapshot
        now = listing(before.root, self.skipped(config))
        allowed = deliberate()
        lines = []
        for path in sorted(set(now) | before.paths):
            if path in allowed:
                continue
            if path not in before.paths:
                lines.append(f"  appeared: {path}")
            elif path not in now:
                lines.append(f"  disappeared: {path}")
            elif now[path] >= before.started_ns:
                lines.append(f"  written: {path}")
        return lines

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.snapshot is None:
            return
        lines = self.changes(session.config)
        if not lines:
            return
        shown = lines[:SHOWN]
        if len(lines) > SHOWN:
            shown.append(f"  ... and {len(lines) - SHOWN} more")
        message = "\n".join(
            [f"the run changed the work tree {self.snapshot.root} (tests write only under "
             "temporary directories):", *shown,
             "(a test wrote there, or someone edited the work tree during the run)"]
        )  # fmt: skip
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line("")  # ends the line of progress dots
            reporter.write_line(message, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin("skald-work-tree"):
        config.pluginmanager.register(WorkTreeGuard(), "skald-work-tree")
