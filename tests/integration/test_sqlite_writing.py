"""The served SQLite store's writes go through one kept connection (issue 39, the gmpace
lane in bench/README.md): a GM's commands, one at a time, commit on it and the writer's
look before each batch reads on it, so a command alone reads no page of the store (the
library's pool handed each commit another connection, whose page cache SQLite had
dropped: 11 reads per command served). The transaction keeps the library's guarantees:
a conflict raises the library's IntegrityError, writes nothing and leaves the connection
usable; snapshots are stored through it, one writer at a time; another process's write
is seen by the writer's look."""

from __future__ import annotations

import random
import threading
import uuid
from pathlib import Path

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from skald_campaign.application.application import SkaldApplication
from skald_campaign.services import SQLITE_RECORDER
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from skald_campaign.workers.subscriptions import NotifyingSQLiteRecorder
from tests.integration.test_store import hit, setup_fight


def served(tmp_path: Path, snapshot_interval: int = 100) -> SkaldApplication:
    """The application as `skald serve` builds it on SQLite: its recorder, the group commit."""
    env = persistence_env(Settings(data_dir=tmp_path))
    env["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER
    app = SkaldApplication(env=env, roller=random.Random(1), snapshot_interval=snapshot_interval)
    app.start_group_commit()
    return app


def reads_of(thread: threading.Thread) -> int:
    """The read system calls a thread has made (pread64 included): /proc's count."""
    io = Path(f"/proc/self/task/{thread.native_id}/io").read_text()
    return int(next(line for line in io.splitlines() if line.startswith("syscr:")).split()[1])


def test_a_command_alone_reads_no_page_of_the_store(tmp_path: Path) -> None:
    app = served(tmp_path)
    try:
        assert isinstance(app.recorder, NotifyingSQLiteRecorder)
        assert app.writer is not None
        cid, hero, eid = setup_fight(app)
        app.perform_action(hit(cid, eid, hero, 1))  # the encounter kept by the writer
        writer = app.writer._thread
        before = reads_of(writer)
        for face in range(2, 7):  # one at a time: every command a batch of its own
            app.perform_action(hit(cid, eid, hero, face))
        # Before (main d2f5bd2): 15 here, 3 a command for the look on a connection of its
        # own, whose page cache each commit made stale; served, with the workers' reads
        # taking pooled connections between commits, 11 a command (the commit's 7 too).
        assert reads_of(writer) - before == 0
        assert app.encounter(cid, eid).version == 7
    finally:
        app.close()


def test_the_commits_and_the_writers_look_use_one_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    made: list[sqlite3.Connection] = []
    statements: list[tuple[int, str]] = []
    original = sqlite3.connect

    def connect(*args: object, **kwargs: object) -> sqlite3.Connection:
        connection = original(*args, **kwargs)  # type: ignore[arg-type]
        number = len(made)
        made.append(connection)
        connection.set_trace_callback(lambda sql: statements.append((number, sql)))
        return connection

    monkeypatch.setattr(sqlite3, "connect", connect)
    app = served(tmp_path)
    try:
        cid, hero, eid = setup_fight(app)
        statements.clear()
        for face in range(1, 6):
            app.perform_action(hit(cid, eid, hero, face))
        inserts = {n for n, sql in statements if sql.startswith("INSERT INTO stored_events")}
        looks = {n for n, sql in statements if sql.startswith("SELECT MAX(rowid)")}
        commits = [n for n, sql in statements if sql == "COMMIT"]
        assert len(commits) == 5
        assert inserts == looks == set(commits) and len(inserts) == 1
    finally:
        app.close()


def test_a_conflict_writes_nothing_and_the_connection_goes_on(tmp_path: Path) -> None:
    app = served(tmp_path)
    try:
        recorder = app.recorder
        assert isinstance(recorder, NotifyingSQLiteRecorder)
        first = StoredEvent(uuid.uuid4(), 1, "topic", b"one")
        assert recorder.insert_events([first]) == [1]
        clash = [StoredEvent(uuid.uuid4(), 1, "topic", b"two"), first]
        with pytest.raises(IntegrityError):
            recorder.insert_events(clash)
        assert [n.state for n in recorder.select_notifications(start=1, limit=10)] == [b"one"]
        assert recorder.insert_events([clash[0]]) == [2]
        assert recorder.max_notification_id_writing() == recorder.max_notification_id() == 2
    finally:
        app.close()


def test_snapshots_are_stored_through_the_writing_connection(tmp_path: Path) -> None:
    app = served(tmp_path, snapshot_interval=10)
    try:
        cid, hero, eid = setup_fight(app)
        for n in range(25):
            app.perform_action(hit(cid, eid, hero, 1 + n % 6))
        app.snapshots_stored()
        assert app.snapshots is not None
        assert [s.originator_version for s in app.snapshots.get(eid)] == [10, 20]
        written = app.encounter(cid, eid)
    finally:
        app.close()
    again = served(tmp_path)
    try:
        read = again.encounter(cid, eid)  # from the snapshot at 20
        assert read.version == written.version == 26
        assert read.actions == written.actions
    finally:
        again.close()


def test_another_process_write_is_seen_by_the_look_on_the_writing_connection(
    tmp_path: Path,
) -> None:
    first, second = served(tmp_path), served(tmp_path)  # two processes on one file
    try:
        cid, hero, eid = setup_fight(first)
        first.perform_action(hit(cid, eid, hero, 1))  # kept by the first's writer
        second.perform_action(hit(cid, eid, hero, 2))  # written past it
        assert first.writer_cache is not None and first.writer_cache.get(eid) is not None
        encounter, record = first.perform_action(hit(cid, eid, hero, 3))
        assert record["number"] == 3  # the second's action read again, not overwritten
        assert encounter.version == second.encounter(cid, eid).version == 4
        assert first.store_position() == first.recorder.max_notification_id()
    finally:
        first.close()
        second.close()
