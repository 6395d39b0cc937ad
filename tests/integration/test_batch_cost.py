"""What the group commit's writer pays once per batch, counted on real SQLite and
PostgreSQL (issue 39, the batchcost lane in bench/README.md): a batch's commit on
PostgreSQL is one round trip (the library's recorder synced five times), and a command
saved on its own is collected as a batch's save is, without the library's
runtime-Protocol checks. The commit keeps its guarantees: ids in commit order, NOTIFY
sent, a conflict with another writer raised as the library's IntegrityError and the
connection handed back clean."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import IntegrityError, StoredEvent
from psycopg._pipeline_base import BasePipeline
from psycopg.pq import TransactionStatus

from skald_campaign.recorder import OneTripRecorder
from tests.integration.test_store import hit, setup_fight, store_env
from tests.integration.test_writer_cache import grouped
from tests.patience import HANG_SECONDS

__all__ = ["store_env"]  # the fixture, shared with test_store.py


def postgres(env: dict[str, str]) -> bool:
    return env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"


def test_a_commit_on_postgresql_is_one_round_trip(
    store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if not postgres(store_env):
        pytest.skip("SQLite's commit is in process")
    app = grouped(store_env)
    try:
        assert isinstance(app.recorder, OneTripRecorder)
        cid, hero, eid = setup_fight(app)
        app.perform_action(hit(cid, eid, hero, 1))
        syncs: list[object] = []  # each Sync a pipeline sends is a round trip
        original = BasePipeline._enqueue_sync

        def counted(pipeline: BasePipeline) -> None:
            syncs.append(pipeline)
            original(pipeline)

        monkeypatch.setattr(BasePipeline, "_enqueue_sync", counted)
        for face in range(1, 6):  # one at a time: every command a batch of its own
            app.perform_action(hit(cid, eid, hero, face))
        assert len(syncs) == 5  # the library's recorder: 25 (five per commit)
        assert app.encounter(cid, eid).version == 7
    finally:
        app.close()


def test_a_command_saved_alone_asks_no_runtime_protocol(
    store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = grouped(store_env)
    try:
        cid, hero, eid = setup_fight(app)
        app.perform_action(hit(cid, eid, hero, 1))
        asked: list[Any] = []
        meta = type(DomainEventProtocol)  # typing's Protocol metaclass
        original = meta.__instancecheck__

        def counted(cls: Any, instance: Any) -> bool:
            asked.append(cls)
            return bool(original(cls, instance))

        monkeypatch.setattr(meta, "__instancecheck__", counted)
        app.perform_action(hit(cid, eid, hero, 2))  # alone: the writer's `_alone`
        monkeypatch.undo()
        # The library's `Application.save` asked DomainEventProtocol and
        # CollectEventsProtocol of each saved aggregate (walking their members).
        assert asked == []
        assert app.encounter(cid, eid).version == 3
    finally:
        app.close()


def events(originator: uuid.UUID, versions: range) -> list[StoredEvent]:
    return [
        StoredEvent(originator_id=originator, originator_version=v, topic="t:T", state=b"{}")
        for v in versions
    ]


def test_the_one_trip_commit_keeps_the_librarys_guarantees(store_env: dict[str, str]) -> None:
    if not postgres(store_env):
        pytest.skip("the PostgreSQL recorder")
    # One connection in the pool: the one the failed commit used is the one looked at.
    app = grouped({**store_env, "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "0"})
    recorder = app.recorder
    assert isinstance(recorder, OneTripRecorder)
    url = store_env["POSTGRES_DBNAME"]
    try:
        with psycopg.connect(
            dbname=url,
            host=store_env["POSTGRES_HOST"],
            port=int(store_env["POSTGRES_PORT"]),
            user=store_env["POSTGRES_USER"],
            password=store_env["POSTGRES_PASSWORD"],
            autocommit=True,
        ) as listener:
            listener.execute(f'LISTEN "{recorder.channel_name}"')
            start = recorder.max_notification_id() or 0
            one, other = uuid.uuid4(), uuid.uuid4()
            ids = recorder.insert_events(events(one, range(1, 4)))
            assert list(ids or []) == [start + 1, start + 2, start + 3]  # in order
            notified = next(iter(listener.notifies(timeout=HANG_SECONDS, stop_after=1)))
            assert notified.channel == recorder.channel_name

            # Another writer's version already stored: nothing of the commit is written,
            # the library's error is raised, and the connection goes back clean.
            with pytest.raises(IntegrityError):
                recorder.insert_events([*events(other, range(1, 3)), *events(one, range(3, 5))])
            assert [e.originator_version for e in recorder.select_events(one)] == [1, 2, 3]
            assert recorder.select_events(other) == []
            with recorder.datastore.get_connection() as conn:
                assert conn.info.transaction_status == TransactionStatus.IDLE
            again = recorder.insert_events(events(other, range(1, 3)))
            assert len(list(again or [])) == 2
            assert [e.originator_version for e in recorder.select_events(other)] == [1, 2]
    finally:
        app.close()
