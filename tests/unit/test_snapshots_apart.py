"""Under the writer, snapshots are taken apart from it (issue 39): the writer hands a copy
of each aggregate as saved to the snapshot thread, which stores the snapshot it would
have taken; its lists of records are written from the JSON each record had in the
aggregate's last snapshot, to the very bytes a snapshot written whole has."""

from __future__ import annotations

import threading
import zlib
from dataclasses import replace
from typing import Any
from uuid import UUID

import orjson
import pytest

from skald_campaign.application import snapshotting
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
    VoidAction,
)
from skald_campaign.application.snapshotting import PACK_FROM, RecordsWritten
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.snapshots import JSONStateSnapshot
from skald_campaign.store import MAPPER, TRANSCODER
from skald_campaign.transcoder import PACKED

SHEET = {"st": 10, "con": 10, "stamina_max": 200, "body_max": 200}
# The served store's transcoder and mapper, in memory.
ENV = {
    "TRANSCODER_TOPIC": TRANSCODER,
    "MAPPER_TOPIC": MAPPER,
    "PERSISTENCE_MODULE": "eventsourcing.popo",
}


def fight(app: SkaldApplication) -> tuple[UUID, UUID, str]:
    campaign = app.create_campaign(CreateCampaign("c", "stamina-body"))
    _, hero = app.enrol_character(EnrolCharacter(campaign.id, "Hero", SHEET))
    encounter = app.start_encounter(StartEncounter(campaign.id, "f", (Combatant(hero, "a"),)))
    return campaign.id, encounter.id, hero


def hit(cid: UUID, eid: UUID, hero: str, damage: int) -> PerformAction:
    params = {"target": hero, "damage_type": "impact", "damage_class": 1}
    return PerformAction(cid, eid, "take_hit", params, dice={"damage": [damage]})


def stored_bytes(app: SkaldApplication, snapshot: Any, like: Any) -> bytes:
    """The stored state of ``snapshot`` with ``like``'s timestamp (each take stamps its own)."""
    same = type(snapshot)(
        originator_id=snapshot.originator_id,
        originator_version=snapshot.originator_version,
        timestamp=like.timestamp,
        topic=snapshot.topic,
        state=snapshot.state,
    )
    return bytes(app.mapper.to_stored_event(same).state)


def test_the_writer_takes_no_snapshot_and_the_snapshot_thread_stores_each_as_taken_inline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    takers: list[str] = []
    take = JSONStateSnapshot.take.__func__  # type: ignore[attr-defined]

    def watched(cls: Any, aggregate: Any, lists: Any = None) -> Any:
        takers.append(threading.current_thread().name)
        return take(cls, aggregate, lists)

    monkeypatch.setattr(JSONStateSnapshot, "take", classmethod(watched))
    app = SkaldApplication(env=ENV, snapshot_interval=4)
    app.start_group_commit()
    try:
        cid, eid, hero = fight(app)
        for n in range(20):
            app.perform_action(hit(cid, eid, hero, 1 + n % 6))
        app.snapshots_stored()
        assert app.snapshots is not None
        snapshots = list(app.snapshots.get(eid))
        # 21 events, every 4 at first, the spacing doubling: 4, 8, 16.
        assert [s.originator_version for s in snapshots] == [4, 8, 16]
        assert set(takers) == {"skald-snapshots"}  # never the writer's thread
        for snapshot in snapshots:
            expected = app.repository.get(eid, version=snapshot.originator_version)
            inline = Encounter.Snapshot.take(expected)
            state: Any = snapshot.state
            assert state == inline.state
            assert stored_bytes(app, snapshot, inline) == stored_bytes(app, inline, inline)
        read: Encounter = app.repository.get(eid)
        assert read.version == 21 and len(read.actions) == 20
    finally:
        app.close()


def test_closing_stores_every_snapshot_handed_over() -> None:
    app = SkaldApplication(env=ENV, snapshot_interval=4)
    app.start_group_commit()
    cid, eid, hero = fight(app)
    for _ in range(7):
        app.perform_action(hit(cid, eid, hero, 1))
    app.close()
    assert app.snapshots is not None
    assert [s.originator_version for s in app.snapshots.get(eid)] == [4, 8]


def test_records_written_before_are_reused_and_written_to_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A snapshot after more actions reuses the JSON of the records it wrote before; after
    a correction rewrote the list, it writes every record again: the bytes are those of
    a snapshot written whole each time."""
    app = SkaldApplication(env=ENV)
    cid, eid, hero = fight(app)
    encoded: list[str] = []
    original = snapshotting.record_json

    def counting(value: Any) -> bytes | None:
        # An action's record (a correction's has a report, an exchange a defender).
        action = "rolls" in value and "report" not in value and "defender" not in value
        encoded.append("action" if action else "other")
        return original(value)

    monkeypatch.setattr(snapshotting, "record_json", counting)
    written = RecordsWritten()

    def actions_encoded_by_a_snapshot() -> int:
        encoded.clear()
        encounter = app.repository.get(eid)
        whole = Encounter.Snapshot.take(encounter)
        kept = Encounter.Snapshot.take(encounter, written)
        assert stored_bytes(app, kept, whole) == stored_bytes(app, whole, whole)
        return encoded.count("action")

    for n in range(5):
        app.perform_action(hit(cid, eid, hero, 1 + n))
    assert actions_encoded_by_a_snapshot() == 5
    for n in range(3):
        app.perform_action(hit(cid, eid, hero, 2 + n))
    assert actions_encoded_by_a_snapshot() == 3  # the new ones only
    assert actions_encoded_by_a_snapshot() == 0
    app.void_action(VoidAction(cid, eid, 2, "a miscount"))
    assert actions_encoded_by_a_snapshot() == 8  # the correction wrote every record anew


def test_a_large_snapshot_is_stored_packed_and_read_back_like_a_plain_one() -> None:
    app = SkaldApplication(env=ENV, snapshot_interval=100)
    app.start_group_commit()
    try:
        cid, eid, hero = fight(app)
        for n in range(120):
            app.perform_action(hit(cid, eid, hero, 1 + n % 6))
        app.snapshots_stored()
        assert app.snapshots is not None
        [stored] = app.snapshots.recorder.select_events(eid)
        assert stored.originator_version == 100
        assert bytes(stored.state[:1]) == PACKED  # zlib's header
        plain = zlib.decompress(stored.state)
        assert len(plain) > PACK_FROM and plain.startswith(b"{")
        [snapshot] = app.snapshots.get(eid)
        expected = app.repository.get(eid, version=100)
        state: Any = snapshot.state
        assert state == Encounter.Snapshot.take(expected).state
        # A small one (the campaign's first, say) is stored as it is.
        assert all(len(s.state) < PACK_FROM for s in app.snapshots.recorder.select_events(cid))
    finally:
        app.close()


class Compressed:
    """zlib as application/snapshotting.py calls it, counting the bytes it compresses."""

    def __init__(self) -> None:
        self.fed = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(zlib, name)

    def compress(self, data: bytes, level: int = -1) -> bytes:
        self.fed += len(data)
        return zlib.compress(data, level)

    def compressobj(self, *args: Any) -> Any:
        packer = zlib.compressobj(*args)
        counter = self

        class Counting:
            def compress(self, data: bytes) -> bytes:
                counter.fed += len(data)
                return packer.compress(data)

            def flush(self, mode: int = zlib.Z_FINISH) -> bytes:
                return packer.flush(mode)

        return Counting()


def test_a_long_list_is_packed_once_and_each_snapshot_compresses_the_actions_added_since(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 39: a long encounter's snapshot compressed its whole history again each time
    (~20 MB at 10,000 actions). The actions' JSON is packed once, as they are added: a
    snapshot compresses its state but for the actions its last one held, and the stored
    state is one zlib stream of the very JSON a snapshot written whole has; after a
    correction rewrote the actions, the next one packs them all again."""
    counted = Compressed()
    monkeypatch.setattr(snapshotting, "zlib", counted)
    app = SkaldApplication(env=ENV, snapshot_interval=20)
    app.start_group_commit()
    try:
        cid, eid, hero = fight(app)
        fed: dict[int, int] = {}  # by snapshot: the bytes compressed to store it

        def play_to(version: int) -> None:
            while app.encounter(cid, eid).version < version:
                app.perform_action(hit(cid, eid, hero, 1 + len(fed) % 6))
                app.snapshots_stored()  # each snapshot's compressing counted on its own
                assert app.snapshots is not None
                rows = app.snapshots.recorder.select_events(eid, desc=True, limit=1)
                newest = max((s.originator_version for s in rows), default=0)
                if newest and newest not in fed:
                    fed[newest] = counted.fed
                counted.fed = 0

        play_to(200)
        app.void_action(VoidAction(cid, eid, 2, "a miscount"))  # rewrites the actions
        play_to(320)
        assert app.snapshots is not None
        stored = {s.originator_version: s for s in app.snapshots.recorder.select_events(eid)}
        assert list(stored) == list(fed) == [20, 40, 80, 160, 320]
        # The JSON a snapshot written whole has (with each one's timestamp), and the
        # actions' JSON the snapshot before it held.
        whole: dict[int, bytes] = {}
        held: dict[int, int] = {}
        for version, row in stored.items():
            snapshot = app.snapshots.mapper.to_domain_event(row)
            encounter = app.repository.get(eid, version=version)
            inline = Encounter.Snapshot.take(encounter)
            whole[version] = stored_bytes(app, inline, snapshot)
            state = bytes(row.state)
            plain = zlib.decompress(state) if state[:1] == PACKED else state  # one stream, checked
            assert plain == whole[version]
            held[version] = len(b",".join(orjson.dumps(a.as_json()) for a in encounter.actions))
        packed = [bytes(s.state[:1]) == PACKED for s in stored.values()]
        assert packed == [False, True, True, True, True]
        # 40: the first packed; 80 and 160 compress all but the actions 40 and 80 held
        # (a comma before the new ones); 320: the correction at 202 rewrote the actions.
        assert fed[40] == len(whole[40])
        assert fed[80] == len(whole[80]) - held[40]
        assert fed[160] == len(whole[160]) - held[80]
        assert fed[320] == len(whole[320])
    finally:
        app.close()


def test_a_snapshot_packed_whole_as_before_and_a_plain_one_read_as_one_packed_in_segments() -> None:
    """Snapshots stored by the code before segments (the whole state compressed at once)
    and before packing (plain JSON) read back to the same snapshot as one stored now."""
    app = SkaldApplication(env=ENV, snapshot_interval=100)
    app.start_group_commit()
    try:
        cid, eid, hero = fight(app)
        for n in range(100):
            app.perform_action(hit(cid, eid, hero, 1 + n % 6))
        app.snapshots_stored()
        assert app.snapshots is not None
        [row] = app.snapshots.recorder.select_events(eid)
        plain = zlib.decompress(row.state)
        assert zlib.compress(plain, 1) != bytes(row.state)  # packed in segments, not whole
        read = [
            app.snapshots.mapper.to_domain_event(replace(row, state=state))
            for state in (bytes(row.state), zlib.compress(plain, 1), plain)
        ]
        states: list[Any] = [r.state for r in read]
        assert states[0] == states[1] == states[2]
        assert len(states[0]["actions"]) == 99  # the snapshot at version 100
        assert [r.originator_version for r in read] == [100, 100, 100]
    finally:
        app.close()
