"""What the writer does on a PostgreSQL store alone (application/writes.py,
application/snapshotting.py), apart so that psycopg is imported only where PostgreSQL
is used (application/postgres.py)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from uuid import UUID

from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder
from eventsourcing.utils import retry
from psycopg import Connection, InterfaceError, OperationalError
from psycopg.rows import DictRow
from psycopg.sql import SQL, Composed, Identifier


def on_table(recorder: PostgresAggregateRecorder, statement: str) -> Composed:
    """``statement`` with its ``{schema}`` and ``{table}`` the recorder's own."""
    return SQL(statement).format(
        schema=Identifier(recorder.datastore.schema),
        table=Identifier(recorder.events_table_name),
    )


# As the library's reads of the store (eventsourcing 9.5's select_notifications): a
# dropped connection is tried again.
@retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
def ids_after(
    recorder: PostgresApplicationRecorder, after: int, limit: int
) -> list[tuple[int, UUID]]:
    """The first ``limit`` notifications after ``after``: their ids and aggregate ids.
    Ids are committed in order (the library's recorder locks the table to insert), so
    nothing below the last one read is still to come, as with `max_notification_id`."""
    statement = on_table(
        recorder,
        "SELECT notification_id, originator_id FROM {schema}.{table}"
        " WHERE notification_id > %s ORDER BY notification_id LIMIT %s",
    )
    with recorder.datastore.get_connection() as conn, conn.cursor() as cursor:
        cursor.execute(statement, (after, limit), prepare=True)
        return [
            (
                row["notification_id"],
                origin if isinstance(origin := row["originator_id"], UUID) else UUID(origin),
            )
            for row in cursor.fetchall()
        ]


def unseen_ids(recorder: object, after: int, limit: int) -> list[tuple[int, UUID]]:
    """``ids_after`` of a recorder known to be PostgreSQL's (application/postgres.py)."""
    if not isinstance(recorder, PostgresApplicationRecorder):
        raise TypeError(f"not a PostgreSQL application recorder: {type(recorder).__name__}")
    found: list[tuple[int, UUID]] = ids_after(recorder, after, limit)
    return found


def snapshot_insert(
    recorder: object,
) -> tuple[Composed, Callable[[], AbstractContextManager[Connection[DictRow]]]]:
    """One plain INSERT a snapshot into the recorder's table, its state sent as binary,
    and where its connections come from (application/snapshotting.py ``snapshot_put``)."""
    if not isinstance(recorder, PostgresAggregateRecorder):
        raise TypeError(f"not a PostgreSQL recorder: {type(recorder).__name__}")
    insert = on_table(
        recorder,
        "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
        "VALUES (%s, %s, %s, %b)",
    )
    return insert, recorder.datastore.get_connection
