"""`bench/all.py --quick` end to end (issue 28): a behaviour check, never a figure.

It completes, prints every row of the issue's table with its goal and a verdict, and
leaves nothing behind: no file in its TMPDIR, nothing new in the work tree, and no
process (every process it starts inherits its run's mark, bench/processes.py, and none
carrying the mark is alive once it has exited).

Both tests run the bench as bench/README.md says, in the README's `.venv`: Skald and its
dependencies, no test extras, and nothing from tests/ (issue 39: the odds row failed
there, importing a test module that imports pytest). This venv has the test extras, so
each bench process (and every process it starts) gets a `sitecustomize` that makes the
test extras' modules and tests/ not found, as they are in that `.venv`.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from bench.all import FIGURES
from bench.processes import MARK, marked
from bench.routed import haproxy_binary
from tests.patience import HANG_SECONDS
from tests.services import require_postgres

ROOT = Path(__file__).resolve().parents[2]


def runtime_distributions() -> set[str]:
    """Skald's distribution and everything it requires, extras it names included, the
    test extra not: what `pip install .` puts in the README's `.venv`."""

    def normal(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    found: set[str] = set()
    seen: set[tuple[str, tuple[str, ...]]] = set()
    todo: list[tuple[str, tuple[str, ...]]] = [("skald-campaign", ())]
    while todo:
        name, extras = todo.pop()
        if (normal(name), extras) in seen:
            continue
        seen.add((normal(name), extras))
        found.add(normal(name))
        try:
            required = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for line in required:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": e}) for e in (*extras, "")):
                todo.append((requirement.name, tuple(sorted(requirement.extras))))
    return found | {"pip"}  # a venv's own


def readme_venv(folder: Path) -> dict[str, str]:
    """An environment in which the test extras' modules and tests/ cannot be imported:
    a `sitecustomize` on PYTHONPATH (inherited by every process the bench starts)."""
    runtime = runtime_distributions()
    absent = {"tests"} | {
        module
        for module, distributions in importlib.metadata.packages_distributions().items()
        if not any(re.sub(r"[-_.]+", "-", d).lower() in runtime for d in distributions)
    }
    assert {"pytest", "hypothesis", "tests"} <= absent and "fastapi" not in absent
    (folder / "sitecustomize.py").write_text(
        f"""import sys

ABSENT = frozenset({sorted(absent)!r})


class NotInTheReadmesVenv:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.partition(".")[0] in ABSENT:
            raise ModuleNotFoundError(
                f"No module named {{name!r}} (not in the README's .venv)", name=name
            )
        return None


sys.meta_path.insert(0, NotInTheReadmesVenv)
"""
    )
    return {"PYTHONPATH": str(folder)}


def test_the_odds_bench_runs_in_the_readmes_venv(tmp_path: Path) -> None:
    """bench/odds.py, the odds row's script, with only what `pip install .` installs."""
    done = subprocess.run(
        [sys.executable, "bench/odds.py", "1"],
        cwd=ROOT,
        env={**os.environ, **readme_venv(tmp_path)},
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the dearest request answered: " in done.stdout, done.stdout


def table_rows(output: str) -> list[list[str]]:
    """The cells of the table's rows (its header and rule left out)."""
    lines = [line for line in output.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines[1:]]


def work_tree_status() -> str:
    """What git sees in the work tree, untracked files included (the ignored ones, such
    as the interpreter's caches, aside)."""
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_bench_all_quick_prints_every_figure_and_leaves_no_process(tmp_path: Path) -> None:
    postgres = require_postgres()
    if shutil.which("wrk") is None:
        pytest.skip("bench/all.py needs wrk (apt-get install wrk)")
    if haproxy_binary() is None:
        if os.environ.get("SKALD_TEST_PROXY"):
            pytest.fail("SKALD_TEST_PROXY is set but there is no haproxy")
        pytest.skip("bench/all.py's routed row needs haproxy: set SKALD_TEST_PROXY=1")
    run = uuid.uuid4().hex
    command = [sys.executable, "bench/all.py", "--quick", "--postgres", postgres]
    # Its temporary files' folder (TMPDIR), empty; short, for an embedded Redis's unix
    # socket lives under it, and a socket's path must stay under ~107 bytes.
    scratch = Path(tempfile.mkdtemp(prefix="tba-"))
    tree = work_tree_status()
    bench = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, **readme_venv(tmp_path), MARK: run, "TMPDIR": str(scratch)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = bench.communicate(timeout=4 * HANG_SECONDS)
        left = marked(run)
    finally:
        if bench.poll() is None:
            os.killpg(bench.pid, signal.SIGKILL)
            bench.wait()
        for pid in marked(run):  # whatever it left, stopped whether or not we pass
            os.kill(pid, signal.SIGKILL)
        scratch_left = sorted(p.name for p in scratch.iterdir())
        shutil.rmtree(scratch, ignore_errors=True)
    assert left == [], output
    assert bench.returncode == 0, output
    # Nothing left behind (issue 39): no temporary file or folder (wrk's scripts, the
    # stores, data directories), nothing new in the work tree.
    assert scratch_left == [], output
    assert work_tree_status() == tree
    rows = table_rows(output)
    assert [row[0] for row in rows] == list(FIGURES), output
    for figure, _measured, _anchor, ratio, goal, verdict in rows:
        assert goal.split()[0] in (">=", "<="), (figure, goal)
        assert ratio.endswith("x"), (figure, ratio)
        assert verdict in ("met", "missed"), (figure, verdict)
