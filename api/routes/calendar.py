"""The in-game calendar and the wound bookkeeping between fights."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter

from skald_campaign.api.deps import GM, App, Idempotency, IfMatch
from skald_campaign.api.schemas import AdvanceDaysBody, AdvanceDaysOut, CharacterOut, WoundBody
from skald_campaign.api.views import campaign_out, character_out
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import AdvanceDays, MarkWound
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.idempotency import Replayed

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["calendar"])


def settled(app: SkaldApplication, outcome: Campaign | Replayed) -> Campaign:
    if isinstance(outcome, Replayed):
        return app.campaign(outcome.subject_id, outcome.subject_version)
    return outcome


@router.post("/days", status_code=201)
def advance_days(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    body: AdvanceDaysBody,
    app: App,
    access: GM,
) -> AdvanceDaysOut:
    """Advance the calendar; the healing worker then applies each day's rules."""
    command = AdvanceDays(campaign_id, body.days, body.default, body.characters, access.who)
    campaign = settled(
        app,
        app.idempotent(
            idempotency.claim(body, access), lambda: app.advance_days(command), expected
        ),
    )
    return AdvanceDaysOut(
        day=campaign.day,
        days_advanced=body.days,
        plans={cid: dict(plan) for cid, plan in campaign.plans_on(campaign.day).items()},
        campaign=campaign_out(campaign),
    )


@router.post("/characters/{character_id}/wounds", status_code=201)
def mark_wound(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    character_id: str,
    body: WoundBody,
    app: App,
    access: GM,
) -> CharacterOut:
    """Record a wound, its treatment or its end, with the reason."""
    command = MarkWound(
        campaign_id, character_id, body.wound, body.present, body.reason, access.who
    )
    campaign = settled(
        app,
        app.idempotent(idempotency.claim(body, access), lambda: app.mark_wound(command), expected),
    )
    return character_out(campaign, character_id)
