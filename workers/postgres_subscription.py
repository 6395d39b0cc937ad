"""The batching subscription of a PostgreSQL store (LISTEN/NOTIFY), apart from
workers/subscriptions.py so that psycopg is imported only where PostgreSQL is used
(application/postgres.py)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from eventsourcing.persistence import ApplicationRecorder
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresSubscription
from psycopg.sql import SQL, Identifier

from skald_campaign.workers.subscriptions import (
    BATCH_LIMIT,
    PULL_GATHER_SECONDS,
    BatchingSubscription,
)


class BatchingPostgresSubscription(
    BatchingSubscription[PostgresApplicationRecorder], PostgresSubscription
):
    """LISTEN/NOTIFY as the library does it, with batches, one read of the store per
    ``gather`` while busy (see `_loop_on_pull`), and no write missed while the LISTEN
    starts (see `_listen`). A killed LISTEN connection stops the subscription with the
    error, which ``next_batch`` raises."""

    gather = PULL_GATHER_SECONDS

    def __init__(
        self,
        recorder: PostgresApplicationRecorder,
        gt: int | None = None,
        topics: Sequence[str] = (),
        batch_limit: int = BATCH_LIMIT,
    ) -> None:
        self.batch_limit = batch_limit
        super().__init__(recorder=recorder, gt=gt, topics=topics)

    def _loop_on_pull(self) -> None:
        """The library's loop (eventsourcing 9.5), with a pause of ``gather`` after each
        read: the NOTIFYs of the commits made meanwhile wake one read, not one each."""
        self._select_limit = self.batch_limit
        try:
            self._pull()
            while not self._has_been_stopped:
                self._has_been_notified.wait()
                self._pull()
                if self.gather > 0 and not self._has_been_stopped:
                    time.sleep(self.gather)
        except BaseException as error:
            if self._thread_error is None:
                self._thread_error = error
            self.stop()

    def _listen(self) -> None:
        """The library's listener (eventsourcing 9.5's PostgresSubscription._listen),
        which also wakes the puller once its LISTEN is in effect.

        The library starts the puller, whose first read takes what is stored, and the
        listener together, on two threads: a write committed after that read but before
        the LISTEN sends a NOTIFY that no one hears, and the views stay short of it until
        another write comes. Each runner (re)start opens that window, and a restart after
        a lost connection, with writes going on, is when it was hit: views frozen while
        /health said ok. A read made after the LISTEN sees every write committed before
        it, and a NOTIFY announces every one committed after it."""
        try:
            with self._recorder.datastore.get_connection() as conn:
                conn.execute(SQL("LISTEN {0}").format(Identifier(self._recorder.channel_name)))
                self._has_been_notified.set()
                while not self._has_been_stopped and not self._thread_error:
                    # At most 0.1 s per wait, so the loop sees a stop; one NOTIFY is
                    # enough to wake the puller, which reads whatever has come.
                    for _ in conn.notifies(timeout=0.1, stop_after=1):
                        self._has_been_notified.set()
        except BaseException as error:
            if self._thread_error is None:
                self._thread_error = error
            self.stop()


def postgres_subscription(
    recorder: ApplicationRecorder, gt: int | None, limit: int
) -> BatchingSubscription[ApplicationRecorder]:
    """workers/subscriptions.py ``subscribe_in_batches`` for a recorder known to be
    PostgreSQL's (application/postgres.py)."""
    if not isinstance(recorder, PostgresApplicationRecorder):
        raise TypeError(f"not a PostgreSQL application recorder: {type(recorder).__name__}")
    subscription: BatchingSubscription[ApplicationRecorder] = BatchingPostgresSubscription(
        recorder, gt, batch_limit=limit
    )
    return subscription
