"""What the group commit's writer pays once per batch, counted on real SQLite and
PostgreSQL (issue 39, the batchcost lane in bench/README.md): a batch's commit on
PostgreSQL is one round trip (the library's recorder synced five times). The commit
keeps its guarantees: ids in commit order, NOTIFY sent, a conflict with another writer
raised as the library's IntegrityError and the connection handed back clean."""

from __future__ import annotations

import random
import uuid

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from psycopg._pipeline_base import BasePipeline
from psycopg.pq import TransactionStatus

from skald_campaign.application.application import SkaldApplication
from skald_campaign.recorder import OneTripRecorder
from tests.integration.test_store import hit, setup_fight, store_env
from tests.patience import HANG_SECONDS

__all__ = ["store_env"]  # the fixture, shared with test_store.py


def grouped(env: dict[str, str]) -> SkaldApplication:
    app = SkaldApplication(env=env, roller=random.Random(1), write_attempts=3)
    app.start_group_commit()
    return app


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
