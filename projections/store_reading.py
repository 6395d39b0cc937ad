"""Reading the store's notifications in order, for a rebuild.

On SQLite the library's ``select_notifications`` makes each row's aggregate id a UUID
anew (``UUID(text)``, Python code) and reads each column by name: about a third of
its time, and reading is a sixth of a rebuild's (py-spy, bench/README.md "Rebuild
from the stored JSON"). A rebuild reads every event of a few thousand aggregates, so
here the same query's rows are read by position and each aggregate's id is made once.
Any other store, or an SQLite store whose ids are not UUIDs, is read by the library.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Notification
from eventsourcing.sqlite import SQLiteApplicationRecorder

_ID_LIMIT = 100_000  # aggregate ids kept (a bound: cleared, not evicted)


class NotificationReader:
    def __init__(self, recorder: ApplicationRecorder) -> None:
        self.recorder = recorder
        self.sqlite = (
            recorder
            if isinstance(recorder, SQLiteApplicationRecorder)
            and recorder.datastore.originator_id_type == "uuid"
            else None
        )
        self._ids: dict[str, UUID] = {}

    def after(self, position: int, limit: int, stop: int) -> Sequence[Notification]:
        """Up to ``limit`` notifications after ``position``, none past ``stop``."""
        if self.sqlite is None:
            return self.recorder.select_notifications(
                start=position, limit=limit, stop=stop, inclusive_of_start=False
            )
        statement = (
            "SELECT rowid, originator_id, originator_version, topic, state "
            f"FROM {self.sqlite.events_table_name} "
            "WHERE rowid>? AND rowid<=? ORDER BY rowid LIMIT ?"
        )
        with self.sqlite.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, (position, stop, limit))
            rows = cursor.fetchall()
        ids = self._ids
        if len(ids) > _ID_LIMIT:
            ids.clear()
        notifications = []
        for rowid, text, version, topic, state in rows:
            originator_id = ids.get(text)
            if originator_id is None:
                originator_id = ids[text] = UUID(text)
            notifications.append(
                Notification(
                    id=rowid,
                    originator_id=originator_id,
                    originator_version=version,
                    topic=topic,
                    state=state,
                )
            )
        return notifications
