"""Markers on combatants (RULINGS T2; docs/table.md): put on, taken off; one with a
duration expires by itself at a turn boundary, as a recorded event."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Path

from skald_campaign.api.deps import GM, App, Idempotency, IfMatch
from skald_campaign.api.routes.encounters import settled
from skald_campaign.api.schemas import EncounterOut
from skald_campaign.api.table_schemas import MarkerBody
from skald_campaign.api.views import encounter_out
from skald_campaign.application.table_commands import PlaceMarker, RemoveMarker

router = APIRouter(
    prefix="/campaigns/{campaign_id}/encounters/{encounter_id}/markers", tags=["table"]
)
Number = Annotated[int, Path(ge=1, le=100_000, description="the marker's number")]


@router.post("", status_code=201)
def place_marker(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    body: MarkerBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """Put a named marker on a combatant, until removed or for N rounds counted at the
    start or end of a named combatant's turn (default: the end of the target's own)."""
    command = PlaceMarker(
        campaign_id,
        encounter_id,
        body.target,
        body.name,
        body.note,
        body.rounds,
        body.watch,
        body.at,
        access.who,
    )
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.place_marker(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))


@router.delete("/{number}")
def remove_marker(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    encounter_id: UUID,
    number: Number,
    app: App,
    access: GM,
) -> EncounterOut:
    """Take a standing marker off (its number is the record that placed it)."""
    command = RemoveMarker(campaign_id, encounter_id, number, access.who)
    outcome = app.idempotent(
        idempotency.claim(None, access), lambda: app.remove_marker(command), expected
    )
    return encounter_out(settled(app, campaign_id, outcome))
