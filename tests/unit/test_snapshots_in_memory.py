"""A snapshot is taken from the aggregate just saved, equal to one read back from the
store, and never read back first, even when a save carried it past the snapshot's
version; the spacing widens as the aggregate grows."""

from __future__ import annotations

from typing import Any

import pytest
from eventsourcing.application import Application

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)
from skald_campaign.application.snapshotting import snapshot_due
from skald_campaign.domain.encounter.aggregate import Encounter

SHEET = {"st": 10, "con": 10, "stamina_max": 200, "body_max": 200}


def fight(app: SkaldApplication) -> tuple[Any, Any, dict[str, Any]]:
    campaign = app.create_campaign(CreateCampaign("c", "stamina-body"))
    _, hero = app.enrol_character(EnrolCharacter(campaign.id, "Hero", SHEET))
    encounter = app.start_encounter(StartEncounter(campaign.id, "f", (Combatant(hero, "a"),)))
    return campaign.id, encounter.id, {"target": hero, "damage_type": "impact", "damage_class": 1}


def test_the_snapshot_of_the_saved_encounter_equals_the_one_read_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = SkaldApplication(snapshot_interval=4)
    cid, eid, hit = fight(app)
    read_back: list[int | None] = []
    original = Application.take_snapshot

    def counting(self: Application[Any], aggregate_id: Any, version: int | None = None,
                 **kwargs: Any) -> None:  # fmt: skip
        read_back.append(version)
        original(self, aggregate_id, version, **kwargs)

    monkeypatch.setattr(Application, "take_snapshot", counting)
    # 1+2+3+4+5+6+1+2 on this sheet is 18 stamina and 1 body, as without snapshots:
    # test_stamina_body_rules covers the arithmetic; here it only has to survive the snapshot.
    for damage in (1, 2, 3, 4, 5, 6, 1, 2):
        app.perform_action(PerformAction(cid, eid, "take_hit", hit, dice={"damage": [damage]}))
    assert read_back == []  # every snapshot came from the aggregate in memory
    assert app.snapshots is not None
    snapshot = next(iter(app.snapshots.get(eid, desc=True, limit=1)))
    assert snapshot.originator_version == 8
    expected = app.repository.get(eid, version=8)
    taken_then: Any = snapshot
    assert taken_then.state == type(taken_then).take(expected).state
    assert len(expected.actions) == 7
    from_snapshot: Encounter = app.repository.get(eid)
    assert len(from_snapshot.actions) == 8
    assert from_snapshot.combatants[hit["target"]].tracks == {"stamina": 182, "body": 199}
    assert from_snapshot.version == 9


def test_an_aggregate_saved_past_a_snapshot_version_is_snapshotted_as_saved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch that carries an encounter past a snapshot version (4 here) is snapshotted
    at the version saved, from memory: nothing is read back from the store."""
    app = SkaldApplication(snapshot_interval=4)
    cid, eid, hit = fight(app)
    read_back: list[Any] = []
    monkeypatch.setattr(Application, "take_snapshot", lambda *a, **k: read_back.append(a))
    encounter = app.encounter(cid, eid)
    for damage in range(1, 7):  # versions 2..7 in one save: 4 is crossed, not stood at
        encounter.act("take_hit", None, hit, {"damage": [damage]}, None, "gm")  # type: ignore[arg-type]
    app.save(encounter)
    assert read_back == []
    assert app.snapshots is not None
    assert [s.originator_version for s in app.snapshots.get(eid)] == [7]
    from_snapshot: Encounter = app.repository.get(eid)
    assert from_snapshot.version == 7
    assert len(from_snapshot.actions) == 6
    # As the first test's first six hits: 16 stamina and 1 body on this sheet.
    assert from_snapshot.combatants[hit["target"]].tracks == {"stamina": 184, "body": 199}
    assert len(app.encounter(cid, eid, version=4).actions) == 3  # time travel is unchanged


def test_snapshots_are_spaced_wider_as_an_aggregate_grows() -> None:
    assert [v for v in range(1, 5000) if snapshot_due(v, 100)] == [
        100, 200, 400, 800, 1600, 3200, 4800,
    ]  # fmt: skip
    assert [v for v in range(1, 30) if snapshot_due(v, 4)] == [4, 8, 16]
