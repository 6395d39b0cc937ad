"""A rebuild's reader (projections/store_reading.py) answers as the store's own
``select_notifications`` answers: the same notifications, in order, ids as UUIDs,
between the same bounds; on SQLite by its own query, on PostgreSQL by the library."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import orjson
import psycopg
import pytest
from eventsourcing.persistence import StoredEvent

from skald_campaign.application.application import SkaldApplication
from skald_campaign.database import open_application
from skald_campaign.projections.store_reading import NotificationReader
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from tests.services import require_postgres

STORE = Path(__file__).resolve().parents[1] / "fixtures" / "compat" / "store-fe485e1.jsonl"


def compat_events() -> list[StoredEvent]:
    lines = STORE.read_bytes().splitlines()[1:-1]
    events = []
    for raw in lines:
        line = orjson.loads(raw)
        events.append(
            StoredEvent(
                UUID(line["originator_id"]),
                line["originator_version"],
                line["topic"],
                line["state"].encode(),
            )
        )
    return events


@pytest.fixture(params=["sqlite", "postgresql"])
def application(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SkaldApplication]:
    schema = None
    if request.param == "sqlite":
        app = open_application(Settings(data_dir=tmp_path))
    else:
        url = require_postgres()
        schema = f"skald_test_{uuid.uuid4().hex[:12]}"  # a store of its own
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        env = persistence_env(Settings(database=url))
        env["POSTGRES_SCHEMA"] = schema
        app = SkaldApplication(env=env, roller=random.Random(3))
    try:
        app.recorder.insert_events(compat_events())
        yield app
    finally:
        app.close()
        if schema is not None:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")


def test_the_reader_answers_as_the_store_does(
    application: SkaldApplication, request: pytest.FixtureRequest
) -> None:
    recorder = application.recorder
    reader = NotificationReader(recorder)
    on_sqlite = "sqlite" in request.node.callspec.id
    assert (reader.sqlite is not None) == on_sqlite
    last = recorder.max_notification_id() or 0
    first = recorder.select_notifications(start=None, limit=1)[0].id
    assert last - first + 1 == 156
    for position, limit, stop in [(0, 1000, last), (first + 9, 7, last), (first, 50, first + 20)]:
        theirs = recorder.select_notifications(
            start=position, limit=limit, stop=stop, inclusive_of_start=False
        )
        ours = reader.after(position, limit, stop)
        assert ours == theirs
        assert all(type(n.originator_id) is UUID for n in ours)
    assert [n.id for n in reader.after(first + 9, 7, last)] == list(range(first + 10, first + 17))
    assert [n.id for n in reader.after(first, 50, first + 20)][-1] == first + 20
    assert reader.after(last, 10, last) == []
