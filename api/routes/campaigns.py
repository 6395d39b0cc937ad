"""Campaigns, their rulesets and their characters."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query, Response

from skald_campaign.api.deps import GM, App, Idempotency, IfMatch, Keys, Operator, Reader
from skald_campaign.api.preconditions import version_etag
from skald_campaign.api.schemas import (
    MAX_VERSION,
    CampaignCreatedOut,
    CampaignOut,
    CharacterOut,
    CreateCampaignBody,
    EnrolCharacterBody,
    RulesetOut,
    RulesetPresentation,
)
from skald_campaign.api.views import campaign_out, character_out
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import CreateCampaign, EnrolCharacter
from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.idempotency import Replayed
from skald_campaign.domain.rulesets import RULESETS, get_ruleset
from skald_campaign.domain.rulesets.base import Ruleset

router = APIRouter()
Version = Annotated[
    int | None, Query(ge=1, le=MAX_VERSION, description="read the campaign as it was then")
]
At = Annotated[
    datetime | None, Query(description="read the campaign as it stood at this instant (ISO 8601)")
]


def campaign_version(
    app: SkaldApplication, campaign_id: UUID, version: int | None, at: datetime | None
) -> int | None:
    if at is None:
        return version
    if version is not None:
        raise InvalidInput("give either version or at, not both")
    return app.version_at(campaign_id, at, "campaign")


@router.get("/rulesets", tags=["rulesets"])
def list_rulesets() -> list[RulesetOut]:
    return [ruleset_out(r) for r in RULESETS.values()]


@router.get("/rulesets/{ruleset_id}", tags=["rulesets"])
def read_ruleset(ruleset_id: str) -> RulesetOut:
    return ruleset_out(get_ruleset(ruleset_id))


@router.post("/campaigns", status_code=201, tags=["campaigns"])
def create_campaign(
    idempotency: Idempotency,
    body: CreateCampaignBody,
    app: App,
    keys: Keys,
    _: Operator,
) -> CampaignCreatedOut:
    """Create a campaign. The response carries the GM key, once: keep it safe."""
    key_id, key = keys.new()
    command = CreateCampaign(
        body.name, body.ruleset, body.options, "gm:GM", key_id, keys.digest(key)
    )
    outcome = app.idempotent(idempotency.claim(body, None), lambda: app.create_campaign(command))
    campaign = (
        app.campaign(outcome.subject_id, outcome.subject_version)
        if isinstance(outcome, Replayed)
        else outcome
    )
    gm_key = keys.key_for(campaign.gm_key_id)
    return CampaignCreatedOut(**campaign_out(campaign).model_dump(), gm_key=gm_key)


@router.get("/campaigns/{campaign_id}", tags=["campaigns"])
def read_campaign(
    campaign_id: UUID,
    app: App,
    access: Reader,
    response: Response,
    version: Version = None,
    at: At = None,
) -> CampaignOut:
    """The campaign. Its ETag names the version read: send it as If-Match on a write
    decided on it (api/preconditions.py)."""
    campaign = app.campaign(campaign_id, campaign_version(app, campaign_id, version, at))
    response.headers["ETag"] = version_etag(campaign.version, access.role)
    return campaign_out(campaign)


@router.post("/campaigns/{campaign_id}/characters", status_code=201, tags=["characters"])
def enrol_character(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    body: EnrolCharacterBody,
    app: App,
    access: GM,
) -> CharacterOut:
    command = EnrolCharacter(campaign_id, body.name, body.sheet, access.who, body.npc, body.player)
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.enrol_character(command), expected
    )
    if isinstance(outcome, Replayed):
        then = app.campaign(campaign_id, outcome.subject_version)
        return character_out(then, list(then.characters)[-1])
    campaign, character_id = outcome
    return character_out(campaign, character_id)


@router.get("/campaigns/{campaign_id}/characters/{character_id}", tags=["characters"])
def read_character(
    campaign_id: UUID,
    character_id: str,
    app: App,
    _: Reader,
    version: Version = None,
    at: At = None,
) -> CharacterOut:
    campaign = app.campaign(campaign_id, campaign_version(app, campaign_id, version, at))
    return character_out(campaign, character_id)


def ruleset_out(ruleset: Ruleset) -> RulesetOut:
    return RulesetOut(
        id=ruleset.id,
        title=ruleset.title,
        options=ruleset.validate_options({}),
        sheet_schema=ruleset.sheet_model.model_json_schema(),
        actions={
            kind: {
                "description": a.description,
                "params": a.params.model_json_schema(),
                "gm_only": a.gm_only,
            }
            for kind, a in ruleset.actions.items()
        },
        day_plan_schema=(
            ruleset.day_plan_model.model_json_schema() if ruleset.day_plan_model else None
        ),
        counters=dict(ruleset.counters),
        # The initiative fields the page offers: the ruleset's initiative_adds unless its
        # presentation orders them its own way.
        presentation=RulesetPresentation.model_validate(
            {"initiative_add": list(ruleset.initiative_adds), **ruleset.presentation()}
        ),
    )
