"""Snapshots written before the aggregates held records still load, and mean the same.

tests/fixtures/records/store_fe485e1.json is a store written by main at fe485e1 (see
make_store.py beside it): every event and snapshot row as it was stored. Each old
snapshot (topic ``eventsourcing.domain:Snapshot``, the aggregate's dicts) is read
through ``upcast_v1_v2`` into records, and must give the aggregate that replaying
its events gives; a snapshot taken now stores exactly the state fe485e1 stored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from skald_campaign.application.application import SkaldApplication
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.records import Character, Combatant
from skald_campaign.transcoder import OrjsonTranscoder

STORE = json.loads((Path(__file__).parents[1] / "fixtures/records/store_fe485e1.json").read_text())
EVENTS = STORE["tables"]["stored_events"]
SNAPSHOTS = STORE["tables"]["stored_snapshots"]
ENV = {"TRANSCODER_TOPIC": "skald_campaign.transcoder:OrjsonTranscoder"}


def stored(row: dict[str, Any]) -> StoredEvent:
    return StoredEvent(
        originator_id=UUID(row["originator_id"]),
        originator_version=row["originator_version"],
        topic=row["topic"],
        state=row["state"].encode(),
    )


def loaded(with_snapshots: bool) -> SkaldApplication:
    app = SkaldApplication(env=ENV)
    app.recorder.insert_events([stored(row) for row in EVENTS])
    if with_snapshots:
        assert app.snapshots is not None
        app.snapshots.recorder.insert_events([stored(row) for row in SNAPSHOTS])
    return app


def aggregate_state(aggregate: Campaign | Encounter) -> dict[str, Any]:
    return {k: v for k, v in vars(aggregate).items() if k != "_pending_events"}


def test_the_fixture_holds_old_snapshots_of_both_aggregates() -> None:
    topics = {row["topic"] for row in SNAPSHOTS}
    assert topics == {"eventsourcing.domain:Snapshot"}
    states = [json.loads(row["state"])["state"] for row in SNAPSHOTS]
    assert {"class_version" in s for s in states} == {False}
    assert sum("initial_combatants" in s for s in states) == 3  # the encounter at 2, 4, 8
    assert sum("keys" in s for s in states) == 4  # the campaign at 2, 4, 8, 16


@pytest.mark.parametrize(
    "row", SNAPSHOTS, ids=[f"{r['originator_id'][:8]}@{r['originator_version']}" for r in SNAPSHOTS]
)
def test_an_old_snapshot_gives_the_aggregate_its_events_give(row: dict[str, Any]) -> None:
    from_snapshot, from_events = loaded(True), loaded(False)
    oid, version = UUID(row["originator_id"]), row["originator_version"]
    via_snapshot = from_snapshot.repository.get(oid, version=version)
    via_events = from_events.repository.get(oid, version=version)
    assert aggregate_state(via_snapshot) == aggregate_state(via_events)
    records = (
        via_snapshot.combatants.values()
        if isinstance(via_snapshot, Encounter)
        else via_snapshot.characters.values()
    )
    assert records and {type(r) for r in records} <= {Combatant, Character}


@pytest.mark.parametrize(
    "row", SNAPSHOTS, ids=[f"{r['originator_id'][:8]}@{r['originator_version']}" for r in SNAPSHOTS]
)
def test_a_snapshot_taken_now_stores_what_fe485e1_stored(row: dict[str, Any]) -> None:
    app = loaded(False)
    aggregate = app.repository.get(UUID(row["originator_id"]), version=row["originator_version"])
    taken = type(aggregate).Snapshot.take(aggregate)
    transcoder = OrjsonTranscoder()
    then = transcoder.decode(row["state"].encode())["state"]
    assert transcoder.decode(transcoder.encode(taken.state)) == then
    assert taken.topic in {"domain.campaign:Campaign", "domain.encounter:Encounter"}


def test_the_latest_versions_read_the_same_with_and_without_snapshots() -> None:
    with_snapshots, without = loaded(True), loaded(False)
    for oid in {STORE["campaign_id"], STORE["encounter_id"]}:
        newest = with_snapshots.repository.get(UUID(oid))
        assert aggregate_state(newest) == aggregate_state(without.repository.get(UUID(oid)))
