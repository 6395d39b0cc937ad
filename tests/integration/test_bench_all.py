"""`bench/all.py --quick` end to end (issue 28): a behaviour check, never a figure.

It completes, prints every row of the issue's table with its goal and a verdict, and
leaves no process behind: every process it starts inherits its run's mark
(bench/processes.py), and none carrying the mark is alive once it has exited.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from bench.all import FIGURES
from bench.processes import MARK, marked
from bench.routed import haproxy_binary
from tests.patience import HANG_SECONDS
from tests.services import require_postgres

ROOT = Path(__file__).resolve().parents[2]


def table_rows(output: str) -> list[list[str]]:
    """The cells of the table's rows (its header and rule left out)."""
    lines = [line for line in output.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines[1:]]


def test_bench_all_quick_prints_every_figure_and_leaves_no_process() -> None:
    postgres = require_postgres()
    if shutil.which("wrk") is None:
        pytest.skip("bench/all.py needs wrk (apt-get install wrk)")
    if haproxy_binary() is None:
        if os.environ.get("SKALD_TEST_PROXY"):
            pytest.fail("SKALD_TEST_PROXY is set but there is no haproxy")
        pytest.skip("bench/all.py's routed row needs haproxy: set SKALD_TEST_PROXY=1")
    run = uuid.uuid4().hex
    command = [sys.executable, "bench/all.py", "--quick", "--postgres", postgres]
    bench = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, MARK: run},
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
    assert left == [], output
    assert bench.returncode == 0, output
    rows = table_rows(output)
    assert [row[0] for row in rows] == list(FIGURES), output
    for figure, _measured, _anchor, ratio, goal, verdict in rows:
        assert goal.split()[0] in (">=", "<="), (figure, goal)
        assert ratio.endswith("x"), (figure, ratio)
        assert verdict in ("met", "missed"), (figure, verdict)
