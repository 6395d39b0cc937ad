"""On PostgreSQL the runner follows the store with LISTEN/NOTIFY; when the LISTEN
connection dies the supervisor starts a new runner, and no event is lost."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import CreateCampaign
from skald_campaign.embedded_redis import EmbeddedRedis
from skald_campaign.projections.rebuild import Rebuilder
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from skald_campaign.workers.postgres_subscription import BatchingPostgresSubscription
from skald_campaign.workers.projections import ProjectionRunner, Supervisor
from skald_campaign.workers.subscriptions import subscribe_in_batches
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
from tests.services import REDIS_URL, require_postgres, require_redis


@pytest.fixture
def postgres_app() -> Iterator[tuple[SkaldApplication, str]]:
    url = require_postgres()
    schema = f"skald_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    env = persistence_env(Settings(database=url))
    env["POSTGRES_SCHEMA"] = schema
    app = SkaldApplication(env=env, roller=random.Random(3))
    try:
        yield app, url
    finally:
        app.close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[redis.Redis]:
    require_redis()
    server = None if REDIS_URL is not None else EmbeddedRedis(tmp_path / "redis")
    connection = redis.Redis.from_url(REDIS_URL or server.url)  # type: ignore[union-attr]
    try:
        yield connection
    finally:
        connection.close()
        if server is not None:
            server.stop()


def listening_backends(url: str, channel: str) -> list[int]:
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE query = %s", (f'LISTEN "{channel}"',)
        ).fetchall()
    return [row[0] for row in rows]


def test_the_supervisor_restarts_a_runner_whose_listen_connection_died(
    postgres_app: tuple[SkaldApplication, str], client: redis.Redis
) -> None:
    app, url = postgres_app
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    assert isinstance(subscribe_in_batches(app.recorder, 0), BatchingPostgresSubscription)
    supervisor = Supervisor(
        "projection runner", lambda: ProjectionRunner(app, client, prefix), first_pause=0.05
    )
    stop = threading.Event()
    thread = threading.Thread(target=supervisor.run, args=(stop,))
    thread.start()
    try:
        play(app, campaigns=1, encounters=1, actions=5)
        newest = app.recorder.max_notification_id()
        wait_until(lambda: views_position(client, prefix, app.name) == newest, 10, "views")
        channel = app.recorder.channel_name  # type: ignore[attr-defined]
        wait_until(lambda: bool(listening_backends(url, channel)), 10, "a LISTEN connection")

        with psycopg.connect(url, autocommit=True) as conn:
            for pid in listening_backends(url, channel):
                conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
        wait_until(lambda: supervisor.restarts >= 1, 10, "the supervisor to restart the runner")

        play(app, campaigns=1, encounters=1, actions=5)
        newest = app.recorder.max_notification_id()
        wait_until(lambda: views_position(client, prefix, app.name) == newest, 60, "views")
    finally:
        stop.set()
        thread.join(10)
    assert_counters_match_the_store(client, prefix, app)


def test_rebuild_on_postgres_equals_the_incremental_views(
    postgres_app: tuple[SkaldApplication, str], client: redis.Redis
) -> None:
    app, _ = postgres_app
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    play(app, campaigns=2, encounters=2, actions=10)
    stop = threading.Event()
    runner = ProjectionRunner(app, client, prefix, batch_limit=5)
    thread = threading.Thread(target=runner.run, args=(stop,))
    thread.start()
    try:
        newest = app.recorder.max_notification_id()
        wait_until(lambda: views_position(client, prefix, app.name) == newest, 10, "views")
    finally:
        stop.set()
        thread.join(10)
    incremental = snapshot(client, current_root(client, prefix))
    Rebuilder(client, app.recorder, app.mapper, app.name, prefix).rebuild_all()
    assert_same_views(incremental, snapshot(client, current_root(client, prefix)))


class GatheringSlowly(BatchingPostgresSubscription):
    """The subscription with a gather long enough that the test's commits all fall in it."""

    gather = 2.0


def test_the_commits_made_while_a_read_gathers_are_read_back_together(
    postgres_app: tuple[SkaldApplication, str],
) -> None:
    """A busy store's notifications are read back once per gather, not once per NOTIFY
    (each commit's): the projections worker's read of them was a per-commit cost
    (bench/README.md, the route40 lane). A write after a quiet spell is read at once."""
    app, url = postgres_app
    app.create_campaign(CreateCampaign("Before", "stamina-body"))
    start = app.recorder.max_notification_id() or 0
    select = app.recorder.select_notifications
    found: list[list[int]] = []  # the ids each read of the store found, when it found any

    def counting(*args: Any, **kwargs: Any) -> Any:
        notifications = select(*args, **kwargs)
        if notifications:
            found.append([n.id for n in notifications])
        return notifications

    app.recorder.select_notifications = counting  # type: ignore[method-assign]
    with GatheringSlowly(app.recorder, gt=start) as subscription:  # type: ignore[arg-type]
        channel = app.recorder.channel_name  # type: ignore[attr-defined]
        wait_until(lambda: bool(listening_backends(url, channel)), HANG_SECONDS, "a LISTEN")
        app.create_campaign(CreateCampaign("First", "stamina-body"))
        first = app.recorder.max_notification_id() or 0
        ids = [n.id for n in subscription.next_batch(timeout=HANG_SECONDS)]
        assert ids == list(range(start + 1, first + 1))
        # Three commits, three NOTIFYs, while the read that found the first one gathers.
        for name in ("Second", "Third", "Fourth"):
            app.create_campaign(CreateCampaign(name, "stamina-body"))
        newest = app.recorder.max_notification_id() or 0
        taken: list[int] = []
        while not taken or taken[-1] < newest:
            batch = subscription.next_batch(timeout=HANG_SECONDS)
            assert batch, "the subscription stopped or took too long"
            taken += [n.id for n in batch]
    assert found == [ids, list(range(first + 1, newest + 1))]
    assert taken == list(range(first + 1, newest + 1))
