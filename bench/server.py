"""Run the real ``skald serve`` as a subprocess on a free port.

The bench's and the tests' (tests/e2e/server.py re-exports it): bench/ imports nothing
from tests/, so it runs in the README's `.venv`, which has no test extras.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

# How long a stop waits before it kills: the same patience as tests/patience.py's.
HANG_SECONDS = 240.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(
        self,
        data_dir: Path,
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
        checkout: tuple[Path, Path] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.args = args  # more `skald serve` options, e.g. ("--lan",)
        # Another checkout's (its `skald` command, its folder); None: this venv's.
        self.checkout_skald = checkout
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **(env or {})}
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / f"server-{self.port}.log"

    def start(self, timeout: float = 300.0) -> Server:
        """Start ``skald serve`` and wait until ``/health`` answers.

        The wait lasts as long as the process is alive and still starting, up to a
        generous cap: a loaded machine starts it slowly, and that is not a failure.
        On any failure the process is stopped before the error is raised.
        """
        skald = shutil.which("skald", path=str(Path(sys.executable).parent)) or "skald"
        folder = None
        if self.checkout_skald is not None:
            skald, folder = str(self.checkout_skald[0]), self.checkout_skald[1]
        where = ["--data-dir", str(self.data_dir), "--port", str(self.port)]
        self.process = subprocess.Popen(
            [skald, "serve", *where, *self.args],
            env=self.env,
            cwd=folder,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )
        try:
            self._wait_until_healthy(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_until_healthy(self, timeout: float) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"skald serve exited: {self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/health", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(
            f"skald serve was still starting after {timeout:.0f} s: {self.log.read_text()}"
        )

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=HANG_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
