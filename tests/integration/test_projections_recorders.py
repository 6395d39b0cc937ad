"""Our infrastructure passes the eventsourcing library's own abstract test cases:
the Redis tracking recorder (TrackingRecorderTestCase) and the SQLite recorder we
gave a subscription (ApplicationRecorderTestCase, with its optional subscribe test)."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
import uuid
from pathlib import Path

import redis
from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteDatastore
from eventsourcing.tests import persistence as library

from skald_campaign.embedded_redis import EmbeddedRedis
from skald_campaign.projections.tracking import RedisTrackingRecorder
from skald_campaign.workers.subscriptions import NotifyingSQLiteRecorder, PollingSubscription
from tests.patience import HANG_SECONDS
from tests.services import REDIS_URL


class TestRedisTrackingRecorder(library.TrackingRecorderTestCase):
    server: EmbeddedRedis | None = None

    @classmethod
    def setUpClass(cls) -> None:
        if REDIS_URL is None:
            cls.server = EmbeddedRedis(Path(tempfile.mkdtemp(prefix="skald-tracking-")))
        cls.client = redis.Redis.from_url(REDIS_URL or cls.server.url)  # type: ignore[union-attr]

    @classmethod
    def tearDownClass(cls) -> None:
        cls.client.close()
        if cls.server is not None:
            cls.server.stop()
            # Its data directory was made for it (its log and snapshot): not left in /tmp.
            shutil.rmtree(cls.server.data_dir, ignore_errors=True)

    def create_recorder(self) -> RedisTrackingRecorder:
        # A fresh key per test: parallel runs sharing one Redis never meet.
        return RedisTrackingRecorder(self.client, f"test-tracking-{uuid.uuid4().hex}")


class TestNotifyingSQLiteRecorder(library.ApplicationRecorderTestCase[NotifyingSQLiteRecorder]):
    def setUp(self) -> None:
        self.directory = tempfile.TemporaryDirectory()
        self.datastore = SQLiteDatastore(str(Path(self.directory.name) / "events.sqlite3"))
        self.threads_before = set(threading.enumerate())

    def tearDown(self) -> None:
        # The library's concurrency test stops its reader threads without joining them;
        # closing the database under a reader that is still in SQLite would crash.
        for thread in set(threading.enumerate()) - self.threads_before:
            thread.join(timeout=HANG_SECONDS)
        self.datastore.close()
        self.directory.cleanup()

    def create_recorder(self) -> NotifyingSQLiteRecorder:
        recorder = NotifyingSQLiteRecorder(self.datastore)
        recorder.create_table()
        return recorder

    def test_insert_subscribe(self) -> None:
        self.optional_test_insert_subscribe()

    def test_a_write_wakes_the_subscription_long_before_the_next_poll(self) -> None:
        recorder = self.create_recorder()
        recorder.poll_interval = 4 * HANG_SECONDS  # only the in-process wake-up delivers first
        with recorder.subscribe_in_batches(gt=0, limit=100) as subscription:
            assert isinstance(subscription, PollingSubscription)
            time.sleep(0.05)  # the first pull has found nothing and is waiting
            event = StoredEvent(uuid.uuid4(), 1, "topic1", b"state1")
            recorder.insert_events([event])
            # A quarter of the poll interval: only the wake-up delivers it (a hang guard).
            batch = subscription.next_batch(timeout=HANG_SECONDS)
            assert [n.originator_id for n in batch] == [event.originator_id]

    def test_next_batch_takes_everything_queued_at_once(self) -> None:
        recorder = self.create_recorder()
        events = [StoredEvent(uuid.uuid4(), 1, "topic1", b"s") for _ in range(25)]
        for event in events:
            recorder.insert_events([event])
        with recorder.subscribe_in_batches(gt=0, limit=10) as subscription:
            batches = []
            while sum(len(b) for b in batches) < 25:
                batches.append(subscription.next_batch(timeout=HANG_SECONDS))
        assert [n.id for b in batches for n in b] == list(range(1, 26))
        assert all(len(b) <= 10 for b in batches)

    def test_this_process_writes_reach_the_subscription_without_a_read(self) -> None:
        """What this recorder wrote is queued as written: here the store's reads find
        nothing after the first pull, and the subscription still gets every write, in
        order, with what a read would have answered."""
        recorder = self.create_recorder()
        recorder.poll_interval = 4 * HANG_SECONDS
        with recorder.subscribe_in_batches(gt=0, limit=100) as subscription:
            time.sleep(0.05)  # the first pull has found nothing
            recorder.select_notifications = lambda *a, **k: []  # type: ignore[method-assign]
            events = [StoredEvent(uuid.uuid4(), 1, "topic1", f"s{n}".encode()) for n in range(5)]
            recorder.insert_events(events[:2])
            recorder.insert_events(events[2:])
            got = []
            deadline = time.monotonic() + HANG_SECONDS
            while len(got) < 5 and time.monotonic() < deadline:
                got.extend(subscription.next_batch(timeout=0.1))
        del recorder.select_notifications
        assert got == recorder.select_notifications(start=1, limit=10)
        assert [(n.id, n.originator_id, n.state) for n in got] == [
            (n + 1, e.originator_id, e.state) for n, e in enumerate(events)
        ]

    def test_a_write_after_another_process_write_is_read_in_order(self) -> None:
        """A write that does not follow the last queued notification (another process
        wrote between) wakes the puller, which reads both in order, once each."""
        recorder, elsewhere = self.create_recorder(), NotifyingSQLiteRecorder(self.datastore)
        with recorder.subscribe_in_batches(gt=0, limit=100) as subscription:
            time.sleep(0.05)
            recorder.insert_events([StoredEvent(uuid.uuid4(), 1, "topic1", b"here")])
            elsewhere.insert_events([StoredEvent(uuid.uuid4(), 1, "topic1", b"there")])
            recorder.insert_events([StoredEvent(uuid.uuid4(), 1, "topic1", b"here again")])
            got = []
            deadline = time.monotonic() + HANG_SECONDS
            while len(got) < 3 and time.monotonic() < deadline:
                got.extend(subscription.next_batch(timeout=0.1))
            time.sleep(0.1)  # nothing else arrives
            got.extend(subscription.next_batch(timeout=0.05))
        assert [(n.id, n.state) for n in got] == [(1, b"here"), (2, b"there"), (3, b"here again")]

    def test_the_newest_id_is_read_on_a_connection_of_its_own(self) -> None:
        """`max_notification_id` (workers/sqlite_position.py): the store's newest id as the
        library's statement answers it (None while empty), other connections' writes
        included, and again after the kept connection was closed."""
        recorder = self.create_recorder()
        elsewhere = NotifyingSQLiteRecorder(SQLiteDatastore(self.datastore.pool.db_name))
        assert recorder.max_notification_id() is None
        recorder.insert_events([StoredEvent(uuid.uuid4(), 1, "topic1", b"here")])
        assert recorder.max_notification_id() == 1
        elsewhere.insert_events([StoredEvent(uuid.uuid4(), 1, "topic1", b"there")])
        assert recorder.max_notification_id() == 2  # another connection's, committed
        recorder.close()
        assert recorder.max_notification_id() == 2  # opened again when next asked
        recorder.close()
        elsewhere.close()
        elsewhere.datastore.close()


def test_an_in_memory_store_s_newest_id_comes_from_the_library() -> None:
    """A connection of its own would open another, empty, in-memory database."""
    datastore = SQLiteDatastore(":memory:")
    recorder = NotifyingSQLiteRecorder(datastore)
    recorder.create_table()
    recorder.insert_events([StoredEvent(uuid.uuid4(), 1, "topic1", b"s")])
    assert recorder.max_notification_id() == 1
    datastore.close()
