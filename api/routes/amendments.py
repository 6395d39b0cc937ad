"""The GM's changes: amend a sheet, set or adjust tracks, and change an encounter's cast.

A character between fights is changed on the roster; one an open encounter holds
is changed in that encounter, as a GM record among its actions (docs/calendar.md).
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter
from pydantic import BaseModel, Field, StrictInt

from skald_campaign.api.deps import GM, App, Idempotency, IfMatch
from skald_campaign.api.routes.encounters import settled
from skald_campaign.api.schemas import Body, CharacterOut, EncounterOut
from skald_campaign.api.views import character_out, encounter_out
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AddCombatant,
    AdjustTracks,
    AmendSheet,
    MoveCombatant,
    RemoveCombatant,
)
from skald_campaign.domain.idempotency import Replayed

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["amendments"])
Reason = Annotated[str, Field(min_length=1, max_length=500, description="why; it stays on record")]
TrackValues = Annotated[dict[str, StrictInt], Field(max_length=20)]


class AmendSheetBody(Body):
    changes: dict[str, Any] = Field(
        description="sheet fields to change, laid over the current sheet and validated as at "
        "enrolment (a list such as weapons is replaced whole)"
    )
    reason: Reason


class AdjustTracksBody(Body):
    set: TrackValues | None = Field(default=None, description="tracks to set to a value")
    adjust: TrackValues | None = Field(
        default=None, description="tracks to move by an amount (never past the maximum)"
    )
    reason: Reason


class ChangedOut(BaseModel):
    character: CharacterOut = Field(description="the roster entry (between fights: changed)")
    encounter: EncounterOut | None = Field(
        description="the open encounter that holds the character, where the change went"
    )
    record: dict[str, Any] | None = Field(description="the encounter's GM record, if there")


class AddCombatantBody(Body):
    character_id: str = Field(max_length=64)
    side: str = Field(min_length=1, max_length=40)
    rank: StrictInt = Field(default=1, ge=1, le=20)
    reason: Reason


class LeaveBody(Body):
    reason: Reason


class MoveBody(Body):
    rank: StrictInt = Field(ge=1, le=20, description="1 is the front rank")
    reason: Reason


def changed_out(
    app: SkaldApplication, campaign_id: UUID, character_id: str, outcome: Any = None
) -> ChangedOut:
    """The character after the change, with their encounter if they are in one; for a
    retry, as the first answer showed them (the version the change produced)."""
    if isinstance(outcome, Replayed) and outcome.subject_id != campaign_id:
        # Changed in a fight: the encounter's version, the campaign as it then stood.
        encounter: Any = app.encounter(campaign_id, outcome.subject_id, outcome.subject_version)
        then = app.version_at(campaign_id, encounter.modified_on, "campaign")
        campaign = app.campaign(campaign_id, then)
    else:
        version = outcome.subject_version if isinstance(outcome, Replayed) else None
        campaign = app.campaign(campaign_id, version)
        held = campaign.character(character_id).in_encounter
        encounter = None if held is None else app.encounter(campaign_id, UUID(held))
    record = None
    if encounter is not None:
        mine = [r for r in encounter.actions if r.params.get("target") == character_id]
        record = mine[-1].as_json() if mine else None
    return ChangedOut(
        character=character_out(campaign, character_id),
        encounter=None if encounter is None else encounter_out(encounter),
        record=record,
    )


@router.post("/characters/{character_id}/sheet")
def amend_sheet(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    character_id: str,
    body: AmendSheetBody,
    app: App,
    access: GM,
) -> ChangedOut:
    """Amend a sheet (armour off, a new weapon, a raised skill, arrows restocked)."""
    command = AmendSheet(campaign_id, character_id, body.changes, body.reason, access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.amend_sheet(command), expected
    )
    return changed_out(app, campaign_id, character_id, outcome)


@router.post("/characters/{character_id}/tracks")
def adjust_tracks(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    character_id: str,
    body: AdjustTracksBody,
    app: App,
    access: GM,
) -> ChangedOut:
    """Set or adjust tracks with a reason (a potion, a trap, a ruling at the table)."""
    command = AdjustTracks(
        campaign_id, character_id, body.reason, body.set, body.adjust, access.who
    )
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.adjust_tracks(command), expected
    )
    return changed_out(app, campaign_id, character_id, outcome)


@router.post("/encounters/{encounter_id}/combatants", status_code=201)
def add_combatant(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    body: AddCombatantBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """Reinforcements: a character joins the fight (owed heals are applied first)."""
    command = AddCombatant(
        campaign_id, encounter_id, body.character_id, body.side, body.reason, body.rank, access.who
    )
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.add_combatant(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/encounters/{encounter_id}/combatants/{character_id}/leave")
def remove_combatant(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    character_id: str,
    body: LeaveBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """A combatant leaves the fight (fled); their tracks go back when the encounter ends."""
    command = RemoveCombatant(campaign_id, encounter_id, character_id, body.reason, access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.remove_combatant(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.post("/encounters/{encounter_id}/combatants/{character_id}/move")
def move_combatant(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    character_id: str,
    body: MoveBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """Move a combatant to another rank: distances and reach turn on where they stand now."""
    command = MoveCombatant(
        campaign_id, encounter_id, character_id, body.rank, body.reason, access.who
    )
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.move_combatant(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))
