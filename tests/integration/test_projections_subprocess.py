"""The projection worker and the rebuild command as real processes.

Acceptance 3: SIGKILL the worker while it is working through the store, again and
again, restart it each time, and the views' counters still show every event
applied exactly once. Acceptance 2, the second half: FLUSHALL the (embedded)
Redis, run `skald projections rebuild`, and the views are back, key by key."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from skald_campaign.application.application import SkaldApplication
from skald_campaign.embedded_redis import EmbeddedRedis
from skald_campaign.services import SQLITE_RECORDER
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from tests.integration.projection_support import (
    assert_counters_match_the_store,
    assert_same_views,
    current_root,
    play,
    snapshot,
    views_position,
    wait_until,
)
from tests.patience import HANG_SECONDS
from tests.services import REDIS_URL, require_redis

SKALD = str(Path(sys.executable).parent / "skald")


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    require_redis()
    if REDIS_URL is not None:
        yield REDIS_URL
        return
    server = EmbeddedRedis(tmp_path / "redis")
    try:
        yield server.url
    finally:
        server.stop()


def open_store(data_dir: Path) -> SkaldApplication:
    env = persistence_env(Settings(data_dir=data_dir))
    env["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER
    return SkaldApplication(env=env, roller=random.Random(7))


def start_worker(
    data_dir: Path, redis_url: str, prefix: str, log: Path, batch: int
) -> subprocess.Popen[bytes]:
    command = [SKALD, "worker", "projections", "--data-dir", str(data_dir)]
    command += ["--redis-url", redis_url, "--batch-size", str(batch)]
    return subprocess.Popen(
        command,
        env={**os.environ, "SKALD_REDIS_PREFIX": prefix},
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )


def stop_worker(worker: subprocess.Popen[bytes], log: Path) -> None:
    """SIGTERM, as an operator would; it must exit cleanly (and is killed if it hangs)."""
    worker.send_signal(signal.SIGTERM)
    try:
        code = worker.wait(HANG_SECONDS)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait(HANG_SECONDS)
        raise AssertionError(f"the worker ignored SIGTERM: {log.read_text()}") from None
    assert code == 0, log.read_text()


def test_sigkill_mid_run_then_restart_applies_every_event_exactly_once(
    tmp_path: Path, redis_url: str
) -> None:
    data_dir, log = tmp_path / "data", tmp_path / "worker.log"
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    app = open_store(data_dir)
    # Enough events, in batches small enough, that a run lasts long enough to be killed
    # part-way: the projections got faster (issue 15), and 700 events in batches of 7
    # were sometimes done within the 50 ms the test waits before killing.
    play(app, campaigns=3, encounters=4, actions=150)
    newest = app.recorder.max_notification_id() or 0
    assert newest > 1800
    client = redis.Redis.from_url(redis_url)
    kills, position = 0, 0
    worker: subprocess.Popen[bytes] | None = None
    try:
        # Small batches make the run long enough to kill it several times part-way.
        for _ in range(4):
            worker = start_worker(data_dir, redis_url, prefix, log, batch=3)
            wait_until(
                lambda last=position: views_position(client, prefix, app.name) > last,
                30,
                "the worker to commit a batch",
            )
            time.sleep(random.uniform(0.0, 0.05))
            worker.send_signal(signal.SIGKILL)
            worker.wait(HANG_SECONDS)
            position = views_position(client, prefix, app.name)
            kills += position < newest  # it died part-way through the store
            play(app, campaigns=1, encounters=1, actions=5)  # the store moves on meanwhile
            newest = app.recorder.max_notification_id() or 0
        assert kills >= 2, f"the worker finished before it could be killed ({log.read_text()})"
        worker = start_worker(data_dir, redis_url, prefix, log, batch=7)
        try:
            wait_until(
                lambda: views_position(client, prefix, app.name) == newest, 60, "the last event"
            )
        finally:
            stop_worker(worker, log)
        assert_counters_match_the_store(client, prefix, app)
    finally:
        if worker is not None and worker.poll() is None:  # a failed wait left it running
            worker.kill()
            worker.wait(HANG_SECONDS)
        app.close()
        client.close()


@pytest.mark.parametrize("processes", [[], ["--processes", "2"]], ids=["one", "two"])
def test_after_flushall_the_rebuild_command_restores_the_views(
    tmp_path: Path, processes: list[str]
) -> None:
    """On the embedded Redis (never FLUSHALL a shared server): build the views as the
    worker does, flush everything, rebuild with the CLI (in one process, and shared by
    campaign over two), compare key by key."""
    data_dir, log = tmp_path / "data", tmp_path / "worker.log"
    app = open_store(data_dir)
    play(app, campaigns=2, encounters=2, actions=20)
    newest = app.recorder.max_notification_id() or 0
    server = EmbeddedRedis(tmp_path / "redis")
    client = redis.Redis.from_url(server.url)
    try:
        worker = start_worker(data_dir, server.url, "skald", log, batch=50)
        try:
            wait_until(lambda: views_position(client, "skald", app.name) == newest, 30, "views")
        finally:
            stop_worker(worker, log)
        incremental = snapshot(client, current_root(client, "skald"))

        client.flushall()
        assert client.dbsize() == 0
        command = [SKALD, "projections", "rebuild", "--data-dir", str(data_dir)]
        rebuilt = subprocess.run(
            [*command, "--redis-url", server.url, *processes],
            capture_output=True,
            text=True,
            timeout=HANG_SECONDS,
        )
        assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr
        assert f"from {newest} events" in rebuilt.stdout
        assert_same_views(incremental, snapshot(client, current_root(client, "skald")))
        assert_counters_match_the_store(client, "skald", app)
    finally:
        app.close()
        client.close()
        server.stop()
