"""A full rebuild shared by campaign over processes (projections/partitioned.py) builds
exactly the views the live projection built, key by key, on SQLite and on PostgreSQL;
a part that fails leaves the views as they were."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from pathlib import Path

import pytest
import redis
from eventsourcing.persistence import ApplicationRecorder, Mapper

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import AdvanceDays
from skald_campaign.projections.keys import Generations
from skald_campaign.projections.partitioned import Opened, own_client, rebuild_partitioned
from skald_campaign.projections.rebuild import Rebuilder, RebuildError
from skald_campaign.services import SQLITE_RECORDER
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from skald_campaign.workers.projections import ProjectionRunner
from tests.integration.projection_support import (
    assert_same_views,
    current_root,
    play,
    snapshot,
    views_position,
    wait_until,
)
from tests.integration.test_projections_postgres import client, postgres_app

__all__ = ["client", "postgres_app"]  # the fixtures, shared with the PostgreSQL tests


@contextmanager
def opened(env: dict[str, str], client: redis.Redis) -> Iterator[Opened]:
    """A part's own store and Redis connections, as `skald projections rebuild` opens
    them (skald_campaign/database.py `open_for_rebuild`): the tables exist, and creating them from
    two processes at once is a race PostgreSQL refuses ("tuple concurrently updated")."""
    app = SkaldApplication(env={**env, "CREATE_TABLE": "false"})
    own = own_client(client)
    try:
        yield app.recorder, app.mapper, own
    finally:
        own.close()
        app.close()


def live_views(app: SkaldApplication, client: redis.Redis, prefix: str) -> dict[str, object]:
    """The views as the live projection builds them, event by event, once caught up."""
    stop = threading.Event()
    runner = ProjectionRunner(app, client, prefix, batch_limit=5)
    thread = threading.Thread(target=runner.run, args=(stop,))
    thread.start()
    try:
        newest = app.recorder.max_notification_id()
        wait_until(lambda: views_position(client, prefix, app.name) == newest, 60, "views")
    finally:
        stop.set()
        thread.join(10)
    return snapshot(client, current_root(client, prefix))


def played(app: SkaldApplication) -> None:
    """Five campaigns (more than the parts, so each part has several), days advanced."""
    for campaign in play(app, campaigns=5, encounters=2, actions=8):
        app.advance_days(AdvanceDays(campaign, 2))


def rebuilt_in_parts(
    app: SkaldApplication, client: redis.Redis, prefix: str, env: dict[str, str], parts: int
) -> dict[str, object]:
    rebuilder = Rebuilder(client, app.recorder, app.mapper, app.name, prefix, batch=7)
    report = rebuild_partitioned(rebuilder, partial(opened, env, client), parts)
    assert report.events == app.recorder.max_notification_id()
    assert views_position(client, prefix, app.name) == app.recorder.max_notification_id()
    return snapshot(client, current_root(client, prefix))


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[tuple[SkaldApplication, dict[str, str]]]:
    env = persistence_env(Settings(data_dir=tmp_path / "data"))
    env["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER  # wakes the live runner
    app = SkaldApplication(env=env, roller=random.Random(5))
    try:
        yield app, env
    finally:
        app.close()


@pytest.mark.parametrize("parts", [2, 3])
def test_a_rebuild_in_parts_on_sqlite_equals_the_live_views_key_by_key(
    sqlite_app: tuple[SkaldApplication, dict[str, str]], client: redis.Redis, parts: int
) -> None:
    app, env = sqlite_app
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    played(app)
    live = live_views(app, client, prefix)
    assert len(live) > 40
    assert_same_views(live, rebuilt_in_parts(app, client, prefix, env, parts))


def test_a_rebuild_in_parts_on_postgres_equals_the_live_views_key_by_key(
    postgres_app: tuple[SkaldApplication, str], client: redis.Redis
) -> None:
    app, _ = postgres_app
    env = dict(app.env)  # its schema: the parts read the same store
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    played(app)
    live = live_views(app, client, prefix)
    assert len(live) > 40
    assert_same_views(live, rebuilt_in_parts(app, client, prefix, env, 2))


@contextmanager
def failing() -> Iterator[tuple[ApplicationRecorder, Mapper[uuid.UUID], redis.Redis]]:
    raise RuntimeError("this part cannot open the store")
    yield  # pragma: no cover


def test_a_part_that_fails_leaves_the_views_as_they_were(
    sqlite_app: tuple[SkaldApplication, dict[str, str]], client: redis.Redis
) -> None:
    app, _ = sqlite_app
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    played(app)
    live = live_views(app, client, prefix)
    root = current_root(client, prefix)
    rebuilder = Rebuilder(client, app.recorder, app.mapper, app.name, prefix)
    opener: partial[AbstractContextManager[Opened]] = partial(failing)
    with pytest.raises(RebuildError, match="a part failed: RuntimeError: this part cannot open"):
        rebuild_partitioned(rebuilder, opener, 2)
    assert current_root(client, prefix) == root
    assert_same_views(live, snapshot(client, root))
    # The new generation's keys are gone: under the prefix, the live root's and the
    # generations' pointer and counter only.
    generations = Generations(prefix)
    left = {k.decode() for k in client.scan_iter(match=f"{prefix}:views:*")}
    assert {k for k in left if not k.startswith(f"{root}:")} == {
        generations.pointer,
        generations.counter,
    }
