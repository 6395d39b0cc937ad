"""The audit trail of an encounter and the difference between two versions."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends, Query

from api.backend import application
from api.schemas import AuditPage, DiffOut
from domain.application import SkaldApplication
from domain.history import action_kind, mentions

router = APIRouter(prefix="/campaigns/{campaign_id}/encounters/{encounter_id}", tags=["history"])
App = Annotated[SkaldApplication, Depends(application)]

# A correction's event carries the whole rebuilt action list; the trail shows its report.
BULKY = ("actions",)


@router.get("/audit")
def encounter_audit(
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    kind: Annotated[str | None, Query(max_length=40, description="action or event kind")] = None,
    character: Annotated[str | None, Query(max_length=64, description="a character id")] = None,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> AuditPage:
    """Every event in order: who, when (real time, day, round), dice, breakdown, reasons."""
    encounter = app.encounter(campaign_id, encounter_id)
    entries: list[dict[str, Any]] = []
    for record in app.history(encounter_id):
        entry = {k: v for k, v in record.items() if k not in BULKY}
        entry.setdefault("day", encounter.day)
        if kind is not None and kind not in (action_kind(entry), entry["event"]):
            continue
        if character is not None and not mentions(entry, character):
            continue
        entries.append(entry)
    return AuditPage(
        total=len(entries), offset=offset, limit=limit, entries=entries[offset : offset + limit]
    )


@router.get("/diff")
def encounter_diff(
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    from_version: Annotated[int, Query(alias="from", ge=1)],
    to_version: Annotated[int | None, Query(alias="to", ge=1)] = None,
) -> DiffOut:
    """What changed between two versions: tracks, conditions, round and action statuses."""
    before = app.encounter(campaign_id, encounter_id, from_version)
    after = app.encounter(campaign_id, encounter_id, to_version)
    combatants: dict[str, dict[str, Any]] = {}
    for cid, now in after.combatants.items():
        then = before.combatants[cid]
        change: dict[str, Any] = {}
        if then["tracks"] != now["tracks"]:
            change["tracks"] = {"from": then["tracks"], "to": now["tracks"]}
        was, is_ = list(before.conditions_of(cid)), list(after.conditions_of(cid))
        if was != is_:
            change["conditions"] = {"from": was, "to": is_}
        if then["state"] != now["state"]:
            change["state"] = {"from": then["state"], "to": now["state"]}
        if change:
            combatants[cid] = {"name": now["name"], **change}
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
