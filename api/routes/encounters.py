"""Encounters: start, read at any version, act, advance the round, end."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends, Query

from api.auth import GM, Reader
from api.backend import application
from api.schemas import ActionBody, ActionOut, EncounterOut, StartEncounterBody
from api.views import action_out, encounter_out
from domain.application import SkaldApplication
from domain.commands import Combatant, EndEncounter, NextRound, PerformAction, StartEncounter
from domain.errors import InvalidInput

router = APIRouter(prefix="/campaigns/{campaign_id}/encounters", tags=["encounters"])
App = Annotated[SkaldApplication, Depends(application)]


@router.post("", status_code=201)
def start_encounter(
    campaign_id: UUID, body: StartEncounterBody, app: App, access: GM
) -> EncounterOut:
    combatants = tuple(Combatant(c.character_id, c.side, c.rank) for c in body.combatants)
    encounter = app.start_encounter(StartEncounter(campaign_id, body.name, combatants, access.who))
    return encounter_out(encounter)


@router.get("/{encounter_id}")
def read_encounter(
    campaign_id: UUID,
    encounter_id: UUID,
    app: App,
    _: Reader,
    version: Annotated[int | None, Query(ge=1, description="the encounter as it was then")] = None,
    at: Annotated[
        datetime | None, Query(description="the encounter as it stood at this instant (ISO 8601)")
    ] = None,
) -> EncounterOut:
    if at is not None:
        if version is not None:
            raise InvalidInput("give either version or at, not both")
        version = app.version_at(encounter_id, at, "encounter")
    return encounter_out(app.encounter(campaign_id, encounter_id, version))


@router.post("/{encounter_id}/actions", status_code=201)
def perform_action(
    campaign_id: UUID, encounter_id: UUID, body: ActionBody, app: App, access: Reader
) -> ActionOut:
    """Perform an action. The GM acts for anyone; a player only for their own characters."""
    access.require_writer_for(body.actor, f"perform '{body.kind}'")
    encounter, record = app.perform_action(
        PerformAction(
            campaign_id, encounter_id, body.kind, body.params, body.actor, body.dice, access.who
        )
    )
    return action_out(encounter, record)


@router.post("/{encounter_id}/round")
def next_round(campaign_id: UUID, encounter_id: UUID, app: App, access: GM) -> EncounterOut:
    return encounter_out(app.next_round(NextRound(campaign_id, encounter_id, access.who)))


@router.post("/{encounter_id}/end")
def end_encounter(campaign_id: UUID, encounter_id: UUID, app: App, access: GM) -> EncounterOut:
    return encounter_out(app.end_encounter(EndEncounter(campaign_id, encounter_id, access.who)))
