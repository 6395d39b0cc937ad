"""The SQLite store's writes, through one connection kept for them.

The library writes through its pool (eventsourcing 9.5's SQLiteConnectionPool), which
hands out the connection returned longest ago: with five pooled connections and the
workers' reads between two commits, each commit ran on another connection than the one
before. SQLite keeps a page cache per connection and drops it whenever another
connection wrote since its last transaction, so every commit began by reading again
the pages it was about to change (the schema page, the table's and the index's
b-tree pages: 7 `pread`s per commit), and the writer's look at the store's newest id
before each batch, on a connection of its own, read 4 more (the writer's commit had
just changed them). A command alone (a GM's pace) paid all of it for itself; a busy
server's batch shares it.

Here every write of this process to the file goes through one connection, under a lock
that plays the pool's writer lock (one writer at a time, waiting on the lock rather
than on SQLite's busy handler, which sleeps in steps of milliseconds): the commands'
events, and the snapshotter's snapshots (application/snapshotting.py `snapshot_put`).
Its page cache stays current between commits, and the writer's look before a batch is
read on it too (`newest`), so a look that finds nothing new reads no page. The
transaction is the library's (`SQLiteConnection.transaction`: BEGIN, the statements,
COMMIT, its errors translated), with a failed COMMIT rolled back before the connection
is used again. Reads from other threads keep the pool (and `PositionReader`), and go on
while a commit is made (WAL).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from eventsourcing.persistence import InterfaceError
from eventsourcing.sqlite import SQLiteConnection, SQLiteCursor

from skald_campaign.workers.sqlite_position import translated


class WritingConnection:
    """One connection to the store's file for this process's writes, used under a lock."""

    def __init__(self, db_name: str, lock_timeout: float) -> None:
        self.db_name = db_name
        self.lock_timeout = lock_timeout
        self._lock = threading.Lock()
        self._raw: sqlite3.Connection | None = None
        self._connection: SQLiteConnection | None = None

    def _connected(self) -> tuple[sqlite3.Connection, SQLiteConnection]:
        if self._raw is None or self._connection is None:
            try:
                connection = sqlite3.connect(
                    self.db_name,
                    uri=True,
                    check_same_thread=False,
                    isolation_level=None,  # autocommit: BEGIN said, as the library's
                    timeout=self.lock_timeout,
                )
            except sqlite3.Error as error:  # as the library's pool says it
                raise InterfaceError(error) from error
            connection.row_factory = sqlite3.Row
            self._raw = connection
            self._connection = SQLiteConnection(connection, max_age=None)
        return self._raw, self._connection

    @contextmanager
    def transaction(self) -> Iterator[SQLiteCursor]:
        """A write transaction on the kept connection, committed when the block ends
        (rolled back, and the error raised, if it fails)."""
        with self._lock:
            raw, connection = self._connected()
            try:
                with connection.transaction(commit=True) as cursor:
                    yield cursor
            except BaseException:
                # A COMMIT refused (the file locked past the timeout, say) leaves the
                # transaction open: the next BEGIN on this connection would fail.
                if raw.in_transaction:
                    raw.rollback()
                raise

    def newest(self, statement: str) -> int | None:
        """What the statement (the store's newest id) answers, read on the kept connection."""
        with self._lock:
            try:
                row = self._connected()[0].execute(statement).fetchone()
            except sqlite3.Error as error:
                raise translated(error) from error
        found: int | None = row[0]
        return found

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()  # the library's close: the sqlite3 connection's
            self._raw = self._connection = None
