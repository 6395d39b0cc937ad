"""Subscriptions to the event store that hand out notifications in batches.

The library subscribes to PostgreSQL with LISTEN/NOTIFY but has no subscription
for SQLite. Ours polls SQLite, and wakes at once when the write came through this
process's own recorder (``NotifyingSQLiteRecorder``, installed by the composition
root), so the embedded server's views follow its writes within milliseconds and
another process's writes within a poll interval.

Both kinds build on the library's ``ListenNotifySubscription``: a thread pulls
lists of notifications into a queue. ``next_batch`` takes everything queued at
once, so a projection commits one batch per pull rather than one per event.

What this process has just written is handed to its SQLite subscriptions as it
was written (``PollingSubscription.offer``), when it follows the last notification
they queued: the puller then reads the store only for other processes' writes.
"""

from __future__ import annotations

import queue
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Generic, TypeVar
from uuid import UUID

from eventsourcing.persistence import (
    ApplicationRecorder,
    ListenNotifySubscription,
    Notification,
    ShutDown,
    StoredEvent,
    Subscription,
)
from eventsourcing.sqlite import (
    SQLITE3_DEFAULT_LOCK_TIMEOUT,
    SQLiteApplicationRecorder,
    SQLiteCursor,
    SQLiteDatastore,
)

from skald_campaign.application.postgres import is_postgres
from skald_campaign.workers.sqlite_position import PositionReader
from skald_campaign.workers.sqlite_writing import WritingConnection

POLL_INTERVAL = 0.2
BATCH_LIMIT = 1000
# After a read of the store, a PostgreSQL subscription lets the next NOTIFYs gather this
# long before it reads again. The library's puller read the notifications back once per
# NOTIFY: once per commit, however the runner batched them (its own gather,
# workers/projections.py, paced only what it applied). A write after a quiet spell is
# still read at once: only a busy store's reads are paced.
PULL_GATHER_SECONDS = 0.005


R = TypeVar("R", bound=ApplicationRecorder, covariant=True)


class BatchingSubscription(ListenNotifySubscription[R], Generic[R]):
    """Adds ``next_batch`` to the library's queue-fed subscription (it relies on the
    internals of eventsourcing 9.5's ListenNotifySubscription; pyproject pins 9.5)."""

    batch_limit = BATCH_LIMIT

    def next_batch(self, timeout: float | None = None) -> Sequence[Notification]:
        """Wait up to ``timeout`` for notifications and take what is queued, up to
        ``batch_limit``; [] when none came or the subscription has stopped.

        Raises the puller's or listener's error (a lost connection, say), so that a
        supervisor can restart the runner."""
        batch = list(self._notifications[self._notifications_index :])
        self._notifications, self._notifications_index = [], 0
        while not self._has_been_stopped and len(batch) < self.batch_limit:
            try:
                more = self._notifications_queue.get(block=not batch, timeout=timeout)
            except (queue.Empty, ShutDown):
                break
            self._notifications_queue.task_done()
            batch.extend(more)
        if len(batch) > self.batch_limit:  # keep the rest for the next call
            self._notifications = batch[self.batch_limit :]
            batch = batch[: self.batch_limit]
        if self._has_been_stopped:
            if self._thread_error is not None:
                raise self._thread_error
            return []
        return batch

    def _loop_on_pull(self) -> None:
        # The library's constructor sets its own select limit just before it starts
        # this thread; ours is set first thing in the thread, so no pull misses it.
        self._select_limit = self.batch_limit
        super()._loop_on_pull()


class PollingSubscription(BatchingSubscription[SQLiteApplicationRecorder]):
    def __init__(
        self,
        recorder: SQLiteApplicationRecorder,
        gt: int | None = None,
        topics: Sequence[str] = (),
        poll_interval: float = POLL_INTERVAL,
        batch_limit: int = BATCH_LIMIT,
    ) -> None:
        # Set before the library's constructor starts the pulling thread, which reads them.
        self._poll_interval = poll_interval
        self.batch_limit = batch_limit
        # Held while the last queued notification's id and the queue change together: by
        # a pull, or by an offer, which never waits for it (see `offer`).
        self._queueing = threading.Lock()
        super().__init__(recorder=recorder, gt=gt, topics=topics)

    def offer(self, notifications: Sequence[Notification]) -> None:
        """Notifications this process has just committed. Queued as they are when they
        follow the last one queued (saving a read of the store per write), else the
        puller is woken to read them. Called on the writer's thread, so it never waits:
        if a pull holds the lock or the queue is full, the puller reads them instead."""
        first, last = notifications[0].id, notifications[-1].id
        if (
            not self._topics
            and last - first == len(notifications) - 1
            and self._queueing.acquire(blocking=False)
        ):
            try:
                if (self._last_notification_id or 0) == first - 1:
                    self._notifications_queue.put(notifications, block=False)
                    self._last_notification_id = last
                    return
            except (queue.Full, ShutDown):
                pass
            finally:
                self._queueing.release()
        self.notify()

    def _loop_on_pull(self) -> None:
        # The library's loop waits for a NOTIFY; SQLite has none, so wait for our
        # in-process signal or the poll interval, whichever comes first.
        self._select_limit = self.batch_limit
        try:
            self._pull()
            while not self._has_been_stopped:
                self._has_been_notified.wait(timeout=self._poll_interval)
                self._pull()
        except BaseException as error:
            if self._thread_error is None:
                self._thread_error = error
            self.stop()

    def _pull(self) -> None:
        """The library's pull (eventsourcing 9.5), each read and queueing under the lock
        an offer takes, so that the two never queue the same notification twice."""
        while not self._has_been_stopped:
            self._has_been_notified.clear()
            with self._queueing:
                notifications = self._recorder.select_notifications(
                    start=self._last_notification_id or 0,
                    limit=self._select_limit,
                    topics=self._topics,
                    inclusive_of_start=False,
                )
                if notifications:
                    try:
                        self._notifications_queue.put(notifications)
                    except ShutDown:
                        break
                    self._last_notification_id = notifications[-1].id
            if len(notifications) < self._select_limit:
                break

    def notify(self) -> None:
        self._has_been_notified.set()


class NotifyingSQLiteRecorder(SQLiteApplicationRecorder):
    """The SQLite application recorder with a subscription: polling, plus an
    immediate wake-up of this recorder's subscriptions after each committed write."""

    poll_interval = POLL_INTERVAL

    def __init__(
        self, datastore: SQLiteDatastore, events_table_name: str = "stored_events"
    ) -> None:
        super().__init__(datastore, events_table_name)
        self._subscriptions: weakref.WeakSet[PollingSubscription] = weakref.WeakSet()
        self._subscriptions_lock = threading.Lock()
        pool = datastore.pool
        lock_timeout = pool.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT
        self._position = (
            None
            if pool.is_sqlite_memory_mode
            else PositionReader(
                pool.db_name, self.select_max_notification_id_statement, lock_timeout
            )
        )
        # This process's writes, on one connection kept for them (workers/sqlite_writing.py);
        # an in-memory database is one connection's own, so there the library's pool writes.
        self._writing = (
            None if pool.is_sqlite_memory_mode else WritingConnection(pool.db_name, lock_timeout)
        )

    def max_notification_id(self) -> int:
        """The library's answer, read on a connection kept for it (workers/sqlite_position.py)."""
        if self._position is None:
            return super().max_notification_id()
        # The library's own annotation, kept: it answers None for an empty store too.
        return self._position.newest()  # type: ignore[return-value]

    def max_notification_id_writing(self) -> int | None:
        """The store's newest id, read on the connection this process writes with: the
        group commit's look before each batch (application/writes.py `_begin_batch`),
        which reads no page when nothing was written since its last commit."""
        if self._writing is None:
            return self.max_notification_id()
        return self._writing.newest(self.select_max_notification_id_statement)

    @contextmanager
    def writing(self) -> Iterator[SQLiteCursor]:
        """A write transaction on the connection this process writes with: the
        snapshotter's (application/snapshotting.py `snapshot_put`), one writer at a time
        with the commands' commits."""
        if self._writing is None:
            with self.datastore.transaction(commit=True) as cursor:
                yield cursor
        else:
            with self._writing.transaction() as cursor:
                yield cursor

    def close(self) -> None:
        """Close the connections kept for `max_notification_id` and for writing (the
        application's close)."""
        if self._position is not None:
            self._position.close()
        if self._writing is not None:
            self._writing.close()

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: object
    ) -> Sequence[int] | None:
        # The library's insert (eventsourcing 9.5's SQLiteAggregateRecorder.insert_events),
        # in a transaction of the kept connection.
        with self.writing() as cursor:
            ids = self._insert_events(cursor, stored_events, **kwargs)
        with self._subscriptions_lock:
            subscriptions = list(self._subscriptions)
        if not subscriptions:
            return ids
        if ids is None or len(ids) != len(stored_events) or not ids:
            for subscription in subscriptions:
                subscription.notify()
            return ids
        notifications = [
            Notification(
                id=notification_id,
                originator_id=self._as_selected(stored.originator_id),
                originator_version=stored.originator_version,
                topic=stored.topic,
                state=stored.state,
            )
            for notification_id, stored in zip(ids, stored_events, strict=True)
        ]
        for subscription in subscriptions:
            subscription.offer(notifications)
        return ids

    def _as_selected(self, originator_id: UUID | str) -> UUID | str:
        """The id as `select_notifications` answers it (stored as hex, read back)."""
        if isinstance(originator_id, UUID):
            if self.datastore.originator_id_type == "uuid":
                return originator_id
            return originator_id.hex
        return self.convert_originator_id(originator_id)

    def subscribe(
        self, gt: int | None = None, topics: Sequence[str] = ()
    ) -> Subscription[ApplicationRecorder]:
        return self.subscribe_in_batches(gt, BATCH_LIMIT, topics)

    def subscribe_in_batches(
        self, gt: int | None, limit: int, topics: Sequence[str] = ()
    ) -> PollingSubscription:
        subscription = PollingSubscription(self, gt, topics, self.poll_interval, limit)
        with self._subscriptions_lock:
            self._subscriptions.add(subscription)
        return subscription


def subscribe_in_batches(
    recorder: ApplicationRecorder, gt: int | None, limit: int = BATCH_LIMIT
) -> BatchingSubscription[ApplicationRecorder]:
    """The batching subscription that suits the store behind ``recorder``."""
    subscription: BatchingSubscription[ApplicationRecorder]
    if is_postgres(recorder):
        from skald_campaign.workers.postgres_subscription import postgres_subscription

        subscription = postgres_subscription(recorder, gt, limit)
    elif isinstance(recorder, NotifyingSQLiteRecorder):
        subscription = recorder.subscribe_in_batches(gt, limit)
    elif isinstance(recorder, SQLiteApplicationRecorder):
        # Not our recorder (so not told of writes): polling alone.
        subscription = PollingSubscription(recorder, gt, batch_limit=limit)
    else:
        raise TypeError(f"no subscription for a {type(recorder).__name__}")
    return subscription
