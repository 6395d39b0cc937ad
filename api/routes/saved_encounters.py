"""A campaign's saved encounters (issue 36): a named group of the bestiary's foes ("3 x
Goblin at the front, the Ogre behind"), saved, listed, removed, and set up again in one
action: its foes enrolled as numbered NPCs and a new encounter opened with them and the
party, in one write. The GM's preparation, the GM's alone."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Path

from skald_campaign.api.bestiary_schemas import (
    SavedEncounterBody,
    SavedEncounterOut,
    SavedFoesOut,
    SetUpBody,
)
from skald_campaign.api.deps import GM, App, Idempotency
from skald_campaign.api.routes.encounters import settled
from skald_campaign.api.schemas import EncounterOut
from skald_campaign.api.views import encounter_out
from skald_campaign.application.bestiary import SaveEncounter, SetUpSavedEncounter
from skald_campaign.application.commands import Combatant
from skald_campaign.domain.bestiary import CampaignBestiary, SavedEncounter, SavedFoes
from skald_campaign.domain.idempotency import Replayed

router = APIRouter(prefix="/campaigns/{campaign_id}/saved-encounters", tags=["bestiary"])
SavedId = Annotated[str, Path(min_length=1, max_length=64)]


def saved_out(bestiary: CampaignBestiary, saved: SavedEncounter) -> SavedEncounterOut:
    return SavedEncounterOut(
        id=saved.id,
        name=saved.name,
        foes=[
            SavedFoesOut(
                entry_id=line.entry_id,
                name=bestiary.entry(line.entry_id).name,
                count=line.count,
                rank=line.rank,
                side=line.side,
            )
            for line in saved.foes
        ],
    )


def bestiary_at(app: App, campaign_id: UUID, version: int | None = None) -> CampaignBestiary:
    found: object = app.repository.get(CampaignBestiary.create_id(campaign_id), version=version)
    assert isinstance(found, CampaignBestiary)
    return found


@router.get("")
def list_saved_encounters(campaign_id: UUID, app: App, access: GM) -> list[SavedEncounterOut]:
    """The campaign's saved encounters, by name."""
    found = app.saved_encounters(campaign_id)
    if not found:
        return []
    bestiary = bestiary_at(app, campaign_id)
    return [saved_out(bestiary, saved) for saved in found]


@router.post("", status_code=201)
def save_encounter(
    idempotency: Idempotency, campaign_id: UUID, body: SavedEncounterBody, app: App, access: GM
) -> SavedEncounterOut:
    """Save a group of the bestiary's foes under a name (one per name): each line is
    `count` of an entry, at a rank (1, the front, by default), on a side (foes)."""
    foes = tuple(SavedFoes(f.entry_id, f.count, f.rank, f.side) for f in body.foes)
    command = SaveEncounter(campaign_id, body.name, foes, access.who)
    outcome = app.idempotent(idempotency.claim(body, access), lambda: app.save_encounter(command))
    if isinstance(outcome, Replayed):  # the one that version saved: the last
        then = bestiary_at(app, campaign_id, outcome.subject_version)
        return saved_out(then, list(then.encounters.values())[-1])
    return saved_out(bestiary_at(app, campaign_id), outcome)


@router.delete("/{saved_id}")
def remove_saved_encounter(
    idempotency: Idempotency, campaign_id: UUID, saved_id: SavedId, app: App, access: GM
) -> dict[str, str]:
    """Remove a saved encounter (encounters set up from it, and their foes, stay)."""
    app.idempotent(
        idempotency.claim(None, access),
        lambda: app.unsave_encounter(campaign_id, saved_id, access.who),
    )
    return {"deleted": saved_id}


@router.post("/{saved_id}/setup", status_code=201)
def set_up_saved_encounter(
    idempotency: Idempotency,
    campaign_id: UUID,
    saved_id: SavedId,
    body: SetUpBody,
    app: App,
    access: GM,
) -> EncounterOut:
    """Set the saved encounter up in one action: its foes enrolled as NPCs numbered on
    from the campaign's (Goblin 4-6 after Goblin 1-3), and a new encounter opened with
    them and `combatants` (the party; a combatant's side defaults to foes for an NPC,
    party for a PC). All of it or nothing; a retry with the same Idempotency-Key gets
    the first answer and enrols no one again."""
    party = tuple(Combatant(c.character_id, c.side, c.rank) for c in body.combatants)
    command = SetUpSavedEncounter(campaign_id, saved_id, access.who, body.name, party)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.set_up_saved_encounter(command)
    )
    return encounter_out(settled(app, campaign_id, outcome))
