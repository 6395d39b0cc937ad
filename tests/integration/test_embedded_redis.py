"""The embedded Redis: it snapshots into the data directory, and a server killed outright
leaves nothing running once the next one has started (real processes throughout)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import redis

from skald_campaign.embedded_redis import PIDFILE, EmbeddedRedis, is_our_redis, running
from tests.e2e.server import free_port
from tests.patience import HANG_SECONDS

SKALD = str(Path(sys.executable).parent / "skald")


def redis_servers_on(data_dir: Path) -> list[int]:
    """Every live redis-server process working in this data directory."""
    pids = [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]
    return sorted(p for p in pids if running(p) and is_our_redis(p, data_dir.resolve()))


def stop_everything(server: subprocess.Popen[bytes] | None, data_dir: Path) -> None:
    """Every path of a test ends what it started: the server, then any Redis it left."""
    if server is not None and server.poll() is None:
        server.kill()
        server.wait()
    for pid in redis_servers_on(data_dir):
        os.kill(pid, signal.SIGKILL)


def test_it_has_a_save_point_and_writes_its_snapshot(tmp_path: Path) -> None:
    embedded = EmbeddedRedis(tmp_path)
    try:
        client = redis.Redis(unix_socket_path=embedded.socket_path)
        assert client.config_get("save") == {"save": "60 1"}
        client.set("kept", "yes")
        client.close()
    finally:
        embedded.stop()
    assert (tmp_path / "redis.rdb").stat().st_size > 0
    again = EmbeddedRedis(tmp_path)
    try:
        assert redis.Redis(unix_socket_path=again.socket_path).get("kept") == b"yes"
    finally:
        again.stop()
    assert not (tmp_path / PIDFILE).exists()


# 200 values of 10 KB, stored uncompressed (~2 MB): with Redis's own delay per key,
# saving them takes 200 x 15 ms = 3 s, longer than the patience the test gives (a
# stand-in for a rebuilt store's hundreds of MB of views).
KEYS, SLOW_SAVE = 200, ["--rdb-key-save-delay", "15000"]


def filled(data_dir: Path) -> None:
    """A snapshot of KEYS values in ``data_dir``, written by a Redis stopped cleanly."""
    embedded = EmbeddedRedis(data_dir, options=["--rdbcompression", "no"])
    try:
        client = redis.Redis(unix_socket_path=embedded.socket_path)
        client.execute_command("DEBUG", "POPULATE", KEYS, "key", 10_000)
        client.close()
    finally:
        embedded.stop()


def test_a_final_save_slower_than_the_stop_patience_is_waited_for_while_it_goes_on(
    tmp_path: Path,
) -> None:
    """Stopping waits for Redis's final save while the snapshot it writes grows: killed
    after a fixed 10 s, a rebuilt store's views were lost and a half-written temp-<pid>.rdb
    of hundreds of MB left in the data directory."""
    filled(tmp_path)
    embedded = EmbeddedRedis(
        tmp_path, stop_patience=1.0, options=[*SLOW_SAVE, "--rdbcompression", "no"]
    )
    try:
        client = redis.Redis(unix_socket_path=embedded.socket_path)
        client.set("written-last", "yes")
        client.close()
    finally:
        embedded.stop()  # 3 s of saving against a patience of 1 s without progress
    assert sorted(p.name for p in tmp_path.glob("temp-*.rdb")) == []
    again = EmbeddedRedis(tmp_path)
    try:
        client = redis.Redis(unix_socket_path=again.socket_path)
        assert client.get("written-last") == b"yes"
        assert client.dbsize() == KEYS + 1
        client.close()
    finally:
        again.stop()


def test_a_final_save_that_makes_no_progress_is_killed_and_its_file_removed(
    tmp_path: Path,
) -> None:
    """A Redis that stops writing its snapshot is killed after the patience, and the
    half-written file it leaves is removed (it is never read again)."""
    filled(tmp_path)
    slower = ["--rdb-key-save-delay", "2000000", "--rdbcompression", "no"]  # 2 s a key
    embedded = EmbeddedRedis(tmp_path, stop_patience=0.5, options=slower)
    pid = embedded.pid
    embedded.stop()
    assert not running(pid)
    assert sorted(p.name for p in tmp_path.glob("temp-*.rdb")) == []


def ignore_ctrl_c() -> None:
    """What a non-interactive shell does to a background job: SIGINT ignored, inherited."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def serve(data_dir: Path, port: int, *, background_job: bool = False) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [SKALD, "serve", "--data-dir", str(data_dir), "--port", str(port)],
        env={k: v for k, v in os.environ.items() if not k.startswith("SKALD_")},
        stdout=(data_dir.parent / f"serve-{port}.log").open("ab"),
        stderr=subprocess.STDOUT,
        preexec_fn=ignore_ctrl_c if background_job else None,
    )
    try:
        deadline = time.monotonic() + 300  # while alive and starting: a cap, not a budget
        while time.monotonic() < deadline:
            assert process.poll() is None, (data_dir.parent / f"serve-{port}.log").read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200:
                    return process
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("skald serve did not come up")
    except BaseException:
        process.kill()
        process.wait()
        for pid in redis_servers_on(data_dir):  # the Redis a killed server leaves
            os.kill(pid, signal.SIGKILL)
        raise


def test_a_killed_server_leaves_no_redis_behind_once_the_next_one_starts(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    port = free_port()
    seen: list[int] = []
    server: subprocess.Popen[bytes] | None = None
    try:
        for _ in range(3):
            server = serve(data_dir, port)
            pid = json.loads((data_dir / PIDFILE).read_text())["pid"]
            assert redis_servers_on(data_dir) == [pid]  # one: any orphan was stopped
            seen.append(pid)
            server.send_signal(signal.SIGKILL)
            server.wait(HANG_SECONDS)
            assert running(pid)  # the orphan a killed server leaves...
        server = serve(data_dir, port)  # ...is stopped by the next start
        assert not any(running(p) for p in seen)
        [pid] = redis_servers_on(data_dir)
        assert pid not in seen
        server.send_signal(signal.SIGINT)
        assert server.wait(HANG_SECONDS) == 130  # uvicorn re-raises the Ctrl-C once it has stopped
        assert redis_servers_on(data_dir) == []
        assert not (data_dir / PIDFILE).exists()
        assert (data_dir / "redis.rdb").exists()
    finally:
        stop_everything(server, data_dir)


def test_ctrl_c_ends_a_server_started_as_a_background_job_with_130(tmp_path: Path) -> None:
    """A background job inherits SIGINT ignored; uvicorn still stops on it, but it used to
    restore "ignored", re-raise into it and end 0 (the loaded CI run's one failure)."""
    data_dir = tmp_path / "data"
    server = serve(data_dir, free_port(), background_job=True)
    try:
        [pid] = redis_servers_on(data_dir)
        server.send_signal(signal.SIGINT)
        assert server.wait(HANG_SECONDS) == 130
        assert not running(pid)
        assert not (data_dir / PIDFILE).exists()
    finally:
        stop_everything(server, data_dir)


def test_a_terminated_server_stops_its_redis_with_it(tmp_path: Path) -> None:
    """SIGTERM (a service manager's stop, `docker stop`): the server tears everything
    down, its embedded Redis too, then ends by that signal."""
    data_dir = tmp_path / "data"
    server = serve(data_dir, free_port())
    try:
        pid = json.loads((data_dir / PIDFILE).read_text())["pid"]
        assert redis_servers_on(data_dir) == [pid]
        server.send_signal(signal.SIGTERM)
        assert server.wait(HANG_SECONDS) == -signal.SIGTERM
        assert not running(pid)
        assert redis_servers_on(data_dir) == []
        assert not (data_dir / PIDFILE).exists()
        assert (data_dir / "redis.rdb").exists()  # it stopped cleanly: its snapshot written
    finally:
        stop_everything(server, data_dir)


def test_a_worker_failing_as_it_stops_still_stops_the_embedded_redis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """skald_campaign/services.py: every step of the tear-down runs on every path; a
    failure before it (the workers' stop, here) once left the embedded Redis running,
    and the data directory claimed, with nothing to stop them."""
    from skald_campaign.services import build_services
    from skald_campaign.settings import Settings
    from skald_campaign.workers.background import Background

    def failing(self: Background, timeout: float = 10.0) -> None:
        raise RuntimeError("a worker would not stop")

    monkeypatch.setattr(Background, "stop", failing)
    settings = Settings(data_dir=tmp_path / "data", redis_url=None)
    with (
        pytest.raises(RuntimeError, match="a worker would not stop"),
        build_services(settings) as services,
    ):
        pid = int(json.loads((settings.data_dir / PIDFILE).read_text())["pid"])
        assert services.redis.ping()
    assert not running(pid)
    assert not (settings.data_dir / PIDFILE).exists()
    monkeypatch.undo()
    with build_services(settings) as again:  # the data directory is free again
        assert again.redis.ping()


def test_a_start_up_failing_after_the_embedded_redis_started_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step of the start-up after the embedded Redis is running (the writer's start,
    here) fails: the Redis is stopped and the data directory freed, as at the end."""
    from skald_campaign.application.application import SkaldApplication
    from skald_campaign.services import build_services
    from skald_campaign.settings import Settings

    started: list[int] = []

    def failing(self: SkaldApplication) -> None:
        started.append(int(json.loads((settings.data_dir / PIDFILE).read_text())["pid"]))
        raise RuntimeError("the writer would not start")

    monkeypatch.setattr(SkaldApplication, "start_group_commit", failing)
    settings = Settings(data_dir=tmp_path / "data", redis_url=None)
    with pytest.raises(RuntimeError, match="the writer would not start"), build_services(settings):
        pass
    assert len(started) == 1 and not running(started[0])
    assert not (settings.data_dir / PIDFILE).exists()
    monkeypatch.undo()
    with build_services(settings) as again:  # the data directory is free again
        assert again.redis.ping()
