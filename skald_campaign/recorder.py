"""The PostgreSQL events recorder, its commit in one round trip.

The library's recorder (eventsourcing 9.5, `PostgresApplicationRecorder.insert_events`)
pipelines BEGIN, its lock and NOTIFY and the INSERT, then waits for them (a Sync, so a
unique violation is raised there), then commits (another Sync), then leaves the pipeline
(a third Sync, with nothing left to send): three round trips to the database for every
commit, which the group commit's writer pays once per batch whatever the batch carries
(bench/README.md, issue 39's batchcost lane). Here the same statements, COMMIT included,
go in one pipeline that is synced once: the server runs them in order and stops at the
first error (a unique violation skips the COMMIT, and the transaction is rolled back
before the connection goes back to the pool), so the result is the library's:

- the same rows, the same table lock and NOTIFY, in the same transaction;
- a caller learns its events are stored only from the COMMIT's reply (the Sync returns
  after it), and a conflict with another writer is the library's `IntegrityError`;
- a dropped connection is tried again, as the library's method is.

The statements are rendered to bytes once (the library's are composed SQL, rendered
again by psycopg on every execute, and NOTIFY's is formatted anew each time).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import retry
from psycopg.abc import Query
from psycopg.pq import TransactionStatus
from psycopg.sql import SQL, Composable, Identifier


def _bytes(statement: Query, conn: psycopg.Connection[Any]) -> bytes:
    if isinstance(statement, Composable):
        return statement.as_bytes(conn)
    if isinstance(statement, str):
        return statement.encode(conn.info.encoding)
    if isinstance(statement, bytes):
        return statement
    raise TypeError(f"a statement the recorder cannot render: {statement!r}")


class OneTripRecorder(PostgresApplicationRecorder):
    _rendered: tuple[list[bytes], bytes] | None = None

    def _statements(self, conn: psycopg.Connection[Any]) -> tuple[list[bytes], bytes]:
        """What precedes the INSERT (the lock's statements, NOTIFY) and the INSERT itself,
        as the library builds them, rendered for this database once."""
        if self._rendered is None:
            before = [_bytes(statement, conn) for statement in self.lock_table_statements]
            before.append(SQL("NOTIFY {0}").format(Identifier(self.channel_name)).as_bytes(conn))
            self._rendered = (before, _bytes(self.insert_events_statement, conn))
        return self._rendered

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        if self.datastore.enable_db_functions or not stored_events:
            return cast("Sequence[int] | None", super().insert_events(stored_events, **kwargs))
        rows = [
            self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
            for e in stored_events
        ]
        with self.datastore.get_connection() as conn:
            before, insert = self._statements(conn)
            try:
                with conn.cursor() as inserted:
                    # One Sync, at the pipeline's end: the COMMIT's reply, or the first error.
                    with conn.pipeline():
                        conn.execute(b"BEGIN")
                        for statement in before:
                            conn.execute(statement, prepare=True)
                        inserted.execute(insert, (rows,))
                        conn.execute(b"COMMIT")
                    return [row["notification_id"] for row in inserted.fetchall()]
            except BaseException:
                # A failed statement left the transaction aborted (the COMMIT was skipped):
                # roll it back here rather than hand the pool a connection in error.
                if conn.info.transaction_status != TransactionStatus.IDLE and not conn.broken:
                    conn.rollback()
                raise
