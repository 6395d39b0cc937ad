"""Disputed rolls: void, reroll and rewind, each with a reason that stays on record."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Path

from skald_campaign.api.deps import GM, App, Idempotency, IfMatch
from skald_campaign.api.routes.encounters import settled
from skald_campaign.api.schemas import (
    CorrectionOut,
    RerollBody,
    RerollRollsOut,
    RewindBody,
    VoidBody,
)
from skald_campaign.api.views import encounter_out
from skald_campaign.application.commands import RerollAction, RewindEncounter, VoidAction
from skald_campaign.domain.encounter.aggregate import Encounter

router = APIRouter(
    prefix="/campaigns/{campaign_id}/encounters/{encounter_id}", tags=["corrections"]
)
Number = Annotated[int, Path(ge=1, le=100_000, description="the action's number")]


def correction_out(encounter: Encounter) -> CorrectionOut:
    correction = encounter.corrections[-1]
    return CorrectionOut(
        correction=correction.as_json(),
        report=[dict(entry) for entry in correction.report],
        encounter=encounter_out(encounter),
    )


@router.post("/actions/{number}/void")
def void_action(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    number: Number,
    body: VoidBody,
    app: App,
    access: GM,
) -> CorrectionOut:
    """Strike an action out; every later action is re-resolved with its recorded dice."""
    command = VoidAction(campaign_id, encounter_id, number, body.reason, access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.void_action(command)[0], expected
    )
    return correction_out(settled(app, campaign_id, outcome))


@router.post("/actions/{number}/reroll")
def reroll_action(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    number: Number,
    body: RerollBody,
    app: App,
    access: GM,
) -> CorrectionOut:
    """Roll an action again (the table's dice or the server's); later actions follow."""
    command = RerollAction(campaign_id, encounter_id, number, body.reason, body.dice, access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.reroll_action(command)[0], expected
    )
    return correction_out(settled(app, campaign_id, outcome))


@router.get("/actions/{number}/reroll/rolls")
def reroll_rolls(
    campaign_id: UUID, encounter_id: UUID, number: Number, app: App, _: GM
) -> RerollRollsOut:
    """The rolls a reroll of the action takes, for a table that rolls its own: each roll's
    name (the record's, as "Ogre's hit"; its short ``roll`` name is accepted too), count
    and sides, and ``when`` for a roll that follows only on some dice. Worked out from the
    action as it was resolved (its round, the state it met), as the reroll resolves it
    again, in an open or an ended fight; not from the fight as it stands now. Writes
    nothing."""
    return RerollRollsOut.model_validate(app.reroll_rolls(campaign_id, encounter_id, number))


@router.post("/rewind")
def rewind_encounter(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    body: RewindBody,
    app: App,
    access: GM,
) -> CorrectionOut:
    """Go back to a version; everything after it is superseded and kept on record."""
    command = RewindEncounter(campaign_id, encounter_id, body.to_version, body.reason, access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.rewind_encounter(command)[0], expected
    )
    return correction_out(settled(app, campaign_id, outcome))
