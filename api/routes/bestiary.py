"""A campaign's bestiary (the GM's): sheets saved to enrol again, listed, changed,
removed, and enrolled as a numbered pack of NPCs ("3 x Goblin": Goblin 1-3)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Path

from skald_campaign.api.bestiary_schemas import BestiaryBody, BestiaryEnrolBody, BestiaryEntryOut
from skald_campaign.api.deps import GM, App, Idempotency, IfMatch
from skald_campaign.api.schemas import CharacterOut
from skald_campaign.api.views import character_out
from skald_campaign.application.bestiary import EnrolFromBestiary, SaveToBestiary
from skald_campaign.domain.bestiary import BestiaryEntry, CampaignBestiary
from skald_campaign.domain.idempotency import Replayed

router = APIRouter(prefix="/campaigns/{campaign_id}/bestiary", tags=["bestiary"])
EntryId = Annotated[str, Path(min_length=1, max_length=64)]


def entry_out(entry: BestiaryEntry) -> BestiaryEntryOut:
    return BestiaryEntryOut(id=entry.id, name=entry.name, sheet=dict(entry.sheet))


def replayed_entry(app: App, outcome: Replayed, entry_id: str | None = None) -> BestiaryEntry:
    """The entry as the first answer of a retried request left it."""
    bestiary: object = app.repository.get(outcome.subject_id, version=outcome.subject_version)
    assert isinstance(bestiary, CampaignBestiary)
    if entry_id is None:  # an addition: the one that version added, the last
        return list(bestiary.entries.values())[-1]
    return bestiary.entry(entry_id)


@router.get("")
def list_bestiary(campaign_id: UUID, app: App, access: GM) -> list[BestiaryEntryOut]:
    """The campaign's saved sheets, by name."""
    return [entry_out(entry) for entry in app.bestiary_entries(campaign_id)]


@router.post("", status_code=201)
def add_to_bestiary(
    idempotency: Idempotency, campaign_id: UUID, body: BestiaryBody, app: App, access: GM
) -> BestiaryEntryOut:
    """Save a sheet under a name (one entry per name); the ruleset validates it first."""
    command = SaveToBestiary(campaign_id, body.name, body.sheet, access.who)
    outcome = app.idempotent(idempotency.claim(body, access), lambda: app.save_to_bestiary(command))
    return entry_out(replayed_entry(app, outcome) if isinstance(outcome, Replayed) else outcome)


@router.put("/{entry_id}")
def update_bestiary_entry(
    idempotency: Idempotency, campaign_id: UUID, entry_id: EntryId, body: BestiaryBody,
    app: App, access: GM,
) -> BestiaryEntryOut:  # fmt: skip
    """Replace an entry's name and sheet (characters enrolled from it keep theirs)."""
    command = SaveToBestiary(campaign_id, body.name, body.sheet, access.who, entry_id)
    outcome = app.idempotent(idempotency.claim(body, access), lambda: app.save_to_bestiary(command))
    saved = replayed_entry(app, outcome, entry_id) if isinstance(outcome, Replayed) else outcome
    return entry_out(saved)


@router.delete("/{entry_id}")
def remove_from_bestiary(
    idempotency: Idempotency, campaign_id: UUID, entry_id: EntryId, app: App, access: GM
) -> dict[str, str]:
    """Remove an entry (characters enrolled from it stay as they are)."""
    app.idempotent(
        idempotency.claim(None, access),
        lambda: app.remove_from_bestiary(campaign_id, entry_id, access.who),
    )
    return {"deleted": entry_id}


@router.post("/{entry_id}/enrol", status_code=201)
def enrol_from_bestiary(
    idempotency: Idempotency, expected: IfMatch, campaign_id: UUID, entry_id: EntryId,
    body: BestiaryEnrolBody, app: App, access: GM,
) -> list[CharacterOut]:  # fmt: skip
    """Enrol `count` NPCs with the entry's sheet, named Goblin 1, Goblin 2... (numbered on
    from the campaign's highest); one alone, the first of its name, is plain Goblin."""
    command = EnrolFromBestiary(campaign_id, entry_id, body.count, access.who, body.name)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.enrol_from_bestiary(command), expected
    )
    if isinstance(outcome, Replayed):
        then = app.campaign(campaign_id, outcome.subject_version)
        return [character_out(then, c) for c in list(then.characters)[-body.count :]]
    campaign, ids = outcome
    return [character_out(campaign, c) for c in ids]
