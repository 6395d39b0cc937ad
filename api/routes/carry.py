"""Corrections carried through the campaign: previews (nothing written) and day-plan fixes.

The commits of void, reroll and rewind are the routes in api/routes/corrections.py:
on an ended encounter they carry the change through every later step.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field, StrictInt

from skald_campaign.api.deps import GM, App, Idempotency, IfMatch
from skald_campaign.api.schemas import MAX_VERSION, Body, CampaignOut, Dice
from skald_campaign.api.views import campaign_out
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import CorrectDayPlan, CorrectEncounter

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["corrections"])
Number = Annotated[int, Path(ge=1, le=100_000, description="the action's number")]
Day = Annotated[int, Path(ge=1, le=1_000_000, description="the day whose plan is corrected")]
MaybeReason = Annotated[str, Field(default="", max_length=500)]


class PreviewBody(Body):
    reason: MaybeReason


class RerollPreviewBody(PreviewBody):
    dice: Dice | None = None


class RewindPreviewBody(PreviewBody):
    to_version: StrictInt = Field(ge=1, le=MAX_VERSION)


class PlanPreviewBody(Body):
    plan: dict[str, Any] = Field(description="the fields of the day's plan to change")


class PlanBody(PlanPreviewBody):
    reason: str = Field(min_length=1, max_length=500)


class PreviewOut(BaseModel):
    correction: dict[str, Any]
    changes_nothing: bool
    message: str
    steps: list[dict[str, Any]] = Field(description="per character and step: before and after")
    actions: list[dict[str, Any]] = Field(description="actions whose outcome changes")
    characters: dict[str, dict[str, Any]] = Field(description="tracks now: before and after")
    encounters: list[str] = Field(description="the encounters worked out again")


class PlanCorrectedOut(BaseModel):
    preview: PreviewOut
    campaign: CampaignOut


def _preview(app: SkaldApplication, command: CorrectEncounter) -> PreviewOut:
    return PreviewOut(**app.preview_correction(command))


@router.post("/encounters/{encounter_id}/actions/{number}/void/preview")
def preview_void(
    campaign_id: UUID, encounter_id: UUID, number: Number, body: PreviewBody, app: App, access: GM
) -> PreviewOut:
    """What voiding the action would change, through the whole campaign; nothing is written."""
    command = CorrectEncounter(
        campaign_id, encounter_id, "void", body.reason, number, by=access.who
    )
    return _preview(app, command)


@router.post("/encounters/{encounter_id}/actions/{number}/reroll/preview")
def preview_reroll(
    campaign_id: UUID,
    encounter_id: UUID,
    number: Number,
    body: RerollPreviewBody,
    app: App,
    access: GM,
) -> PreviewOut:
    command = CorrectEncounter(
        campaign_id, encounter_id, "reroll", body.reason, number, body.dice, by=access.who
    )
    return _preview(app, command)


@router.post("/encounters/{encounter_id}/rewind/preview")
def preview_rewind(
    campaign_id: UUID, encounter_id: UUID, body: RewindPreviewBody, app: App, access: GM
) -> PreviewOut:
    command = CorrectEncounter(
        campaign_id, encounter_id, "rewind", body.reason, to_version=body.to_version, by=access.who
    )
    return _preview(app, command)


@router.post("/days/{day}/plans/{character_id}/preview")
def preview_day_plan(
    campaign_id: UUID, day: Day, character_id: str, body: PlanPreviewBody, app: App, access: GM
) -> PreviewOut:
    """What correcting a day's plan would change (that day healed again, and what follows)."""
    command = CorrectDayPlan(campaign_id, day, character_id, body.plan, by=access.who)
    return PreviewOut(**app.preview_day_plan(command))


@router.post("/days/{day}/plans/{character_id}")
def correct_day_plan(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    day: Day,
    character_id: str,
    body: PlanBody,
    app: App,
    access: GM,
) -> PlanCorrectedOut:
    """Correct a day's plan; a day already healed is healed again and the change carried."""
    command = CorrectDayPlan(campaign_id, day, character_id, body.plan, body.reason, access.who)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.commit_day_plan(command), expected
    )
    if isinstance(outcome, tuple):
        return PlanCorrectedOut(preview=PreviewOut(**outcome[1]), campaign=campaign_out(outcome[0]))
    # A retry: the first answer again, from the version it produced and the record of
    # the correction saved with it (whether it changed anything included: a day not yet
    # healed, the healing worker may have applied it since).
    campaign = app.campaign(campaign_id, outcome.subject_version)
    recorded = app.last_correction_carried(campaign_id, outcome.subject_version)
    return PlanCorrectedOut(
        preview=PreviewOut(**recorded.as_preview()), campaign=campaign_out(campaign)
    )
