"""The in-game calendar and the wound bookkeeping between fights."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends

from api.auth import GM
from api.backend import application
from api.schemas import AdvanceDaysBody, AdvanceDaysOut, CharacterOut, WoundBody
from api.views import campaign_out, character_out
from domain.application import SkaldApplication
from domain.commands import AdvanceDays, MarkWound

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["calendar"])
App = Annotated[SkaldApplication, Depends(application)]


@router.post("/days", status_code=201)
def advance_days(campaign_id: UUID, body: AdvanceDaysBody, app: App, access: GM) -> AdvanceDaysOut:
    """Advance the calendar; the healing worker then applies each day's rules."""
    before = app.campaign(campaign_id).day
    campaign = app.advance_days(
        AdvanceDays(campaign_id, body.days, body.default, body.characters, access.who)
    )
    return AdvanceDaysOut(
        day=campaign.day,
        days_advanced=campaign.day - before,
        plans=campaign.calendar.get(str(campaign.day), {}),
        campaign=campaign_out(campaign),
    )


@router.post("/characters/{character_id}/wounds", status_code=201)
def mark_wound(
    campaign_id: UUID, character_id: str, body: WoundBody, app: App, access: GM
) -> CharacterOut:
    """Record a wound, its treatment or its end, with the reason."""
    campaign = app.mark_wound(
        MarkWound(campaign_id, character_id, body.wound, body.present, body.reason, access.who)
    )
    return character_out(campaign, character_id)
