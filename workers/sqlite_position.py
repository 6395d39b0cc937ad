"""The SQLite store's newest notification id, read on a connection of its own.

The library answers `max_notification_id` by taking a connection from its pool, opening
a transaction, selecting and rolling back: 20 us of CPU on a quiet thread, ~60 under
load (the pool's locks and each statement's hand-over of the GIL). The writer asks it
before every batch (application/writes.py `_begin_batch`), and the workers and the
health check ask it too. The same statement on a connection kept for it, in autocommit
(one read transaction the statement makes itself), costs 3.5 us. An in-memory database
is one connection's own, so there the library's pool answers as before.
"""

from __future__ import annotations

import sqlite3
import threading

from eventsourcing.persistence import (
    DatabaseError,
    DataError,
    IntegrityError,
    InterfaceError,
    InternalError,
    NotSupportedError,
    OperationalError,
    PersistenceError,
    ProgrammingError,
)

# The library's mapping of sqlite3's errors to its own (eventsourcing/sqlite.py), in
# its order: a subclass before its base.
_TRANSLATED: tuple[tuple[type[sqlite3.Error], type[PersistenceError]], ...] = (
    (sqlite3.InterfaceError, InterfaceError),
    (sqlite3.DataError, DataError),
    (sqlite3.OperationalError, OperationalError),
    (sqlite3.IntegrityError, IntegrityError),
    (sqlite3.InternalError, InternalError),
    (sqlite3.ProgrammingError, ProgrammingError),
    (sqlite3.NotSupportedError, NotSupportedError),
    (sqlite3.DatabaseError, DatabaseError),
)


def translated(error: sqlite3.Error) -> PersistenceError:
    for raised, ours in _TRANSLATED:
        if isinstance(error, raised):
            return ours(error)
    return PersistenceError(error)


class PositionReader:
    """One autocommit connection to the store's file, used under a lock."""

    def __init__(self, db_name: str, statement: str, lock_timeout: float) -> None:
        self.db_name = db_name
        self.statement = statement
        self.lock_timeout = lock_timeout
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None

    def newest(self) -> int | None:
        """What the statement answers: the newest id, None for an empty store."""
        with self._lock:
            try:
                if self._connection is None:
                    self._connection = sqlite3.connect(
                        self.db_name,
                        uri=True,
                        check_same_thread=False,
                        isolation_level=None,  # autocommit, as the library's connections
                        timeout=self.lock_timeout,
                    )
                row = self._connection.execute(self.statement).fetchone()
            except sqlite3.Error as error:
                raise translated(error) from error
        found: int | None = row[0]
        return found

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
