"""PostgreSQL connections lost under the projection runner (issue 37, finding 8): the
views catch up after every loss, while writes go on.

A runner follows the store with a LISTEN connection and reads with the pool's. When
its LISTEN connection dies (a restarted server, a proxy's idle cut, an operator's
pg_terminate_backend) the runner fails and its supervisor starts a fresh one, which
must take every write: those made before its LISTEN is in effect (the cause of CI's
failure: workers/postgres_subscription.py BatchingPostgresSubscription._listen) as well as
after. Every connection of the application under test carries an application_name of
its own (PGAPPNAME, read by libpq), so the test terminates those and no others.
"""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg
import pytest
import redis

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import CreateCampaign
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from skald_campaign.workers.postgres_subscription import BatchingPostgresSubscription
from skald_campaign.workers.projections import ProjectionRunner, Supervisor
from tests.integration.projection_support import (
    assert_counters_match_the_store,
    play,
    views_position,
    wait_until,
)
from tests.patience import HANG_SECONDS
from tests.services import require_postgres

LOSSES = 5


@dataclass(frozen=True)
class Store:
    app: SkaldApplication
    url: str
    name: str  # the application_name of every connection the app opens

    def backends(self, listening: bool) -> list[int]:
        """The app's server processes: its LISTEN connection, or the pool's others."""
        test = "LIKE" if listening else "NOT LIKE"
        with psycopg.connect(self.url, autocommit=True, application_name="killer") as conn:
            rows = conn.execute(
                f"SELECT pid FROM pg_stat_activity WHERE application_name = %s "
                f"AND query {test} 'LISTEN %%'",
                (self.name,),
            ).fetchall()
        return [row[0] for row in rows]

    def terminate(self, pids: list[int]) -> None:
        with psycopg.connect(self.url, autocommit=True, application_name="killer") as conn:
            for pid in pids:
                conn.execute("SELECT pg_terminate_backend(%s)", (pid,))


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    url = require_postgres()
    name = f"skald-test-{uuid.uuid4().hex[:12]}"
    monkeypatch.setenv("PGAPPNAME", name)  # every connection libpq opens from here on
    schema = f"skald_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    env = {**persistence_env(Settings(database=url)), "POSTGRES_SCHEMA": schema}
    app = SkaldApplication(env=env, roller=random.Random(3))
    try:
        yield Store(app, url, name)
    finally:
        app.close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def stored(app: SkaldApplication) -> int:
    return app.recorder.max_notification_id() or 0


class Writer:
    """Writes go on in a thread of their own until stopped; whatever it raised is kept.
    `paused()` holds them between two writes (a write whose own connection is killed
    under it fails, rightly: its client cannot know whether it was stored)."""

    def __init__(self, app: SkaldApplication) -> None:
        self.app = app
        self.stopping = threading.Event()
        self.errors: list[BaseException] = []
        self.writing = threading.Lock()
        self.thread = threading.Thread(target=self.run)

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                with self.writing:
                    play(self.app, campaigns=1, encounters=1, actions=3, party=2)
        except BaseException as error:
            self.errors.append(error)

    @contextmanager
    def paused(self) -> Iterator[None]:
        with self.writing:
            yield

    def more(self) -> None:
        """Wait for writes made after this call; fail at once if the writer failed."""
        since = stored(self.app)

        def written() -> bool:
            assert self.errors == [], f"a write failed: {self.errors[0]!r}"
            return stored(self.app) > since

        wait_until(written, HANG_SECONDS, "more writes")

    def __enter__(self) -> Writer:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stopping.set()
        self.thread.join(HANG_SECONDS)


class Running:
    """A supervised projection runner on its own thread, as `skald serve` runs it."""

    def __init__(self, store: Store, client: redis.Redis) -> None:
        self.store = store
        self.client = client
        self.prefix = f"test-{uuid.uuid4().hex[:12]}"
        self.supervisor = Supervisor(
            "projection runner",
            lambda: ProjectionRunner(store.app, client, self.prefix),
            first_pause=0.05,
        )
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.supervisor.run, args=(self.stop,))

    def position(self) -> int:
        return views_position(self.client, self.prefix, self.store.app.name)

    def catch_up(self, what: str) -> None:
        """Wait for the views to reach what was stored when this was called."""
        target = stored(self.store.app)
        wait_until(lambda: self.position() >= target, HANG_SECONDS, what)

    def __enter__(self) -> Running:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join(HANG_SECONDS)


def restarted(running: Running, times: int) -> None:
    what = f"the runner's restart number {times}"
    wait_until(lambda: running.supervisor.restarts >= times, HANG_SECONDS, what)


def test_the_views_catch_up_after_every_loss_of_the_listen_connection(
    store: Store, redis_client: redis.Redis
) -> None:
    with Running(store, redis_client) as running, Writer(store.app) as writer:
        for loss in range(1, LOSSES + 1):
            wait_until(lambda: bool(store.backends(listening=True)), HANG_SECONDS, "a LISTEN")
            store.terminate(store.backends(listening=True))
            restarted(running, loss)
            writer.more()  # writes go on while the new runner starts, as in CI's failure
            with writer.paused():  # then a quiet spell: no later NOTIFY to come to the rescue
                running.catch_up(f"the views after loss {loss}")
        writer.stopping.set()
        writer.thread.join(HANG_SECONDS)
        assert writer.errors == []
        running.catch_up("the views after the last write")
    assert running.supervisor.restarts == LOSSES
    assert_counters_match_the_store(redis_client, running.prefix, store.app)


def test_the_views_catch_up_after_every_loss_of_the_pools_connections(
    store: Store, redis_client: redis.Redis
) -> None:
    """The pool's idle connections killed between two writes: the library's recorder
    retries a read or write whose connection has died (eventsourcing 9.5's @retry on
    OperationalError), so the writes and the runner go on. A write whose own connection
    is killed mid-flight is not what this covers: its client cannot know the outcome."""
    with Running(store, redis_client) as running, Writer(store.app) as writer:
        for loss in range(1, LOSSES + 1):
            writer.more()
            with writer.paused():
                pool = store.backends(listening=False)
                assert pool != []
                store.terminate(pool)
            writer.more()  # on the pool's dead connections: each is retried on a new one
            with writer.paused():
                running.catch_up(f"the views after loss {loss}")
        writer.stopping.set()
        writer.thread.join(HANG_SECONDS)
        assert writer.errors == []
        running.catch_up("the views after the last write")
    assert_counters_match_the_store(redis_client, running.prefix, store.app)


class HeldListener(BatchingPostgresSubscription):
    """The subscription with its LISTEN held back until released: the window in which
    a runner's first read has been made and its LISTEN is not yet in effect, which a
    loaded machine opens at every runner start, made as wide as the test needs."""

    def __init__(self, app: SkaldApplication, gt: int, release: threading.Event) -> None:
        self.release = release  # before the library's constructor starts the threads
        super().__init__(app.recorder, gt=gt)  # type: ignore[arg-type]

    def _listen(self) -> None:
        self.release.wait(HANG_SECONDS)
        super()._listen()


def test_a_write_made_before_the_listen_is_in_effect_is_taken(store: Store) -> None:
    app = store.app
    app.create_campaign(CreateCampaign("Before", "stamina-body"))
    first = app.recorder.max_notification_id() or 0
    release = threading.Event()
    try:
        with HeldListener(app, first - 1, release) as subscription:
            # The first read took what was stored; then a write whose NOTIFY no one hears.
            assert [n.id for n in subscription.next_batch(timeout=HANG_SECONDS)] == [first]
            app.create_campaign(CreateCampaign("Between", "stamina-body"))
            second = app.recorder.max_notification_id()
            release.set()
            # Once listening, the subscription reads again: the write is taken, unannounced.
            taken = subscription.next_batch(timeout=HANG_SECONDS)
            assert [n.id for n in taken] == [second]
    finally:
        release.set()  # on every path, or the listener's thread would wait its full time
