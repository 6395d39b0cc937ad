"""Issue 38: each aggregate keeps the latest readings of every character an event touched
(domain/reading/recorded.py ``noted``), the same whether it is replayed from its events or
read from a snapshot, and shared, not copied, by the copies the writer and the cache make."""

from __future__ import annotations

import copy
from typing import Any
from uuid import UUID

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import EnrolCharacter, PerformAction
from skald_campaign.domain.reading.recorded import KEPT, KeptReadings, kept_for
from tests.unit.test_snapshots_in_memory import SHEET, fight


def replayed(app: SkaldApplication, aggregate_id: UUID) -> Any:
    """The aggregate from its events alone, no snapshot."""
    aggregate: Any = None
    for event in app.events.get(aggregate_id):
        aggregate = event.mutate(aggregate)
    return aggregate


def test_the_readings_kept_are_the_same_from_a_snapshot_and_copies_share_them() -> None:
    app = SkaldApplication(snapshot_interval=4)
    cid, eid, hit = fight(app)
    hero = hit["target"]
    others = [app.enrol_character(EnrolCharacter(cid, f"Other {n}", SHEET))[1] for n in range(4)]
    for damage in (1, 2, 3, 4, 5, 6):
        app.perform_action(PerformAction(cid, eid, "take_hit", hit, dice={"damage": [damage]}))
    assert app.snapshots is not None
    for aggregate_id in (cid, eid):
        assert list(app.snapshots.get(aggregate_id))  # read through a snapshot below
        from_snapshot = app.repository.get(aggregate_id)
        from_events = replayed(app, aggregate_id)
        kept = getattr(from_snapshot, KEPT)
        assert type(kept) is KeptReadings
        assert kept == getattr(from_events, KEPT)
        assert copy.deepcopy(from_snapshot).__dict__[KEPT] is kept
    encounter = app.repository.get(eid)
    found = kept_for(encounter, hero)
    assert found is not None
    assert (found.conditions, found.maxima, found.descriptor) == (
        [],
        {"stamina": 200, "body": 200},
        "hurt",
    )
    assert (found.derived, found.equipment) == (None, None)  # an encounter's: not recorded
    campaign = app.repository.get(cid)
    assert sorted(getattr(campaign, KEPT)) == sorted([hero, *others])
    enrolled = kept_for(campaign, others[0])
    assert enrolled is not None
    assert (enrolled.maxima, enrolled.descriptor) == ({"stamina": 200, "body": 200}, "unhurt")
    assert (enrolled.derived, enrolled.equipment) == ({}, {})  # stamina-body shows none
