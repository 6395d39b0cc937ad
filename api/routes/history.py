"""The audit trail of an encounter and the difference between two versions."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Query

from api.deps import App, Reader
from api.schemas import MAX_VERSION, AuditPage, DiffOut
from application.history import action_kind, mentions
from domain import records

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["history"])

# A correction's event carries the whole rebuilt action list (the trail shows its report);
# key hashes open nothing but are nobody's business.
BULKY = ("actions", "key_hash", "gm_key_hash")


Kind = Annotated[str | None, Query(max_length=40, description="action, correction or event kind")]
Character = Annotated[str | None, Query(max_length=64, description="a character id")]
Offset = Annotated[int, Query(ge=0)]
Limit = Annotated[int, Query(ge=1, le=1000)]


def page(
    records: list[dict[str, Any]],
    kind: str | None,
    character: str | None,
    offset: int,
    limit: int,
    day: int | None = None,
) -> AuditPage:
    entries: list[dict[str, Any]] = []
    for record in records:
        entry = {k: v for k, v in record.items() if k not in BULKY}
        if day is not None:
            entry.setdefault("day", day)
        if kind is not None and kind not in (action_kind(entry), entry["event"]):
            continue
        if character is not None and not mentions(entry, character):
            continue
        entries.append(entry)
    return AuditPage(
        total=len(entries), offset=offset, limit=limit, entries=entries[offset : offset + limit]
    )


@router.get("/encounters/{encounter_id}/audit")
def encounter_audit(
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    _: Reader,
    kind: Kind = None,
    character: Character = None,
    offset: Offset = 0,
    limit: Limit = 100,
) -> AuditPage:
    """Every event of the encounter in order, read from the event store: who, when (real
    time, in-game day, round), the dice, the breakdown and, for corrections, the reason."""
    encounter = app.encounter(campaign_id, encounter_id)
    return page(app.history(encounter_id), kind, character, offset, limit, encounter.day)


@router.get("/history")
def campaign_history(
    campaign_id: UUID,
    app: App,
    _: Reader,
    kind: Kind = None,
    character: Character = None,
    offset: Offset = 0,
    limit: Limit = 100,
) -> AuditPage:
    """The campaign's own events in order, read from the event store: enrolments,
    encounters opened and closed, days advanced, every heal with its arithmetic, wounds."""
    app.campaign(campaign_id)
    return page(app.history(campaign_id), kind, character, offset, limit)


@router.get("/vitals/at")
def vitals_at(
    campaign_id: UUID,
    app: App,
    _: Reader,
    at: Annotated[datetime, Query(description="the instant (ISO 8601, with a time zone)")],
) -> dict[str, Any]:
    """Every character's tracks and conditions as they stood at an instant, read from the
    event store (the live view, `/vitals`, is the projection in Redis)."""
    campaign = app.campaign(campaign_id, app.version_at(campaign_id, at, "campaign"))
    rules = campaign.rules
    encounters: dict[str, Any] = {}
    characters = []
    for character_id, character in campaign.characters.items():
        source: records.Character | records.Combatant = character
        encounter_id = character.in_encounter
        if encounter_id is not None:
            if encounter_id not in encounters:
                eid = UUID(encounter_id)
                encounters[encounter_id] = app.encounter(
                    campaign_id, eid, app.version_at(eid, at, "encounter")
                )
            source = encounters[encounter_id].combatants[character_id]
        maxima = rules.track_maxima(character.sheet)
        characters.append(
            {
                "id": character_id,
                "name": character.name,
                "tracks": {
                    t: {"current": v, "max": maxima.get(t)} for t, v in source.tracks.items()
                },
                "conditions": list(rules.conditions(character.sheet, source.tracks, source.state)),
                "encounter": encounter_id,
            }
        )
    return {
        "campaign_id": str(campaign_id),
        "at": at.isoformat(),
        "day": campaign.day,
        "campaign_version": campaign.version,
        "characters": characters,
    }


@router.get("/encounters/{encounter_id}/diff")
def encounter_diff(
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    _: Reader,
    from_version: Annotated[int, Query(alias="from", ge=1, le=MAX_VERSION)],
    to_version: Annotated[int | None, Query(alias="to", ge=1, le=MAX_VERSION)] = None,
) -> DiffOut:
    """What changed between two versions: tracks, conditions, round and action statuses."""
    before = app.encounter(campaign_id, encounter_id, from_version)
    after = app.encounter(campaign_id, encounter_id, to_version)
    combatants: dict[str, dict[str, Any]] = {}
    for cid, now in after.combatants.items():
        then = before.combatants[cid]
        change: dict[str, Any] = {}
        if then.tracks != now.tracks:
            change["tracks"] = {"from": then.tracks, "to": now.tracks}
        was, is_ = list(before.conditions_of(cid)), list(after.conditions_of(cid))
        if was != is_:
            change["conditions"] = {"from": was, "to": is_}
        if then.state != now.state:
            change["state"] = {"from": then.state, "to": now.state}
        if change:
            combatants[cid] = {"name": now.name, **change}
    old = {a["number"]: a for a in before.actions}
    actions = []
    for action in after.actions:
        previous = old.get(action["number"])
        if previous is None:
            actions.append(
                {
                    "number": action["number"],
                    "change": "added",
                    "status": action["status"],
                    "summary": action["summary"],
                }
            )
        elif (previous["status"], previous["summary"]) != (action["status"], action["summary"]):
            actions.append(
                {
                    "number": action["number"],
                    "change": "changed",
                    "status": {"from": previous["status"], "to": action["status"]},
                    "summary": {"from": previous["summary"], "to": action["summary"]},
                }
            )
    return DiffOut(
        from_version=before.version,
        to_version=after.version,
        round={"from": before.round, "to": after.round},
        combatants=combatants,
        actions=actions,
    )
