"""House rules previewed (issue 38): the campaign's ended fights replayed under changed
options with their recorded dice; nothing is written, nothing rolled."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from fastapi import APIRouter
from pydantic import BaseModel, Field

from skald_campaign.api.deps import GM, App
from skald_campaign.api.schemas import Body

router = APIRouter(prefix="/campaigns/{campaign_id}", tags=["corrections"])


class HouseRulesBody(Body):
    options: dict[str, Any] = Field(
        description="the campaign options to change (the others stay as the campaign has "
        "them); validated against the ruleset's options schema (GET /rulesets), a bad one "
        "answers 422 naming the field (options.<name>)"
    )


class TracksChange(BaseModel):
    id: str = Field(description="the combatant's id")
    name: str
    before: dict[str, Any] | None = Field(description="the tracks the action set, as recorded")
    after: dict[str, Any] | None = Field(description="the tracks it sets under the options")


class ActionDifference(BaseModel):
    """One action that would have come out otherwise. ``changed``: resolved again on its
    recorded dice, to another outcome; ``voided``: it could no longer happen (``why``);
    ``needs_dice``: the changed options would roll dice never rolled in the fight
    (``needs_rolls``), so it is not resolved again and keeps its recorded outcome."""

    number: int
    kind: str
    status: Literal["changed", "voided", "needs_dice"]
    before: str | None = Field(description="the outcome's summary as recorded")
    after: str | None = Field(
        description="the summary under the changed options (none: voided or not resolved)"
    )
    why: str | None = None
    needs_rolls: list[str] = Field(default_factory=list)
    hidden: bool = Field(default=False, description="a hidden roll's action (GM only)")
    tracks: list[TracksChange] = Field(description="the combatants whose tracks it sets otherwise")


class EndTracks(BaseModel):
    name: str
    before: dict[str, Any] = Field(description="the tracks the fight ended with")
    after: dict[str, Any] = Field(description="the tracks it ends with under the options")


class FightDifferences(BaseModel):
    encounter_id: str
    encounter: str = Field(description="the encounter's name")
    actions_replayed: int = Field(description="actions resolved again (or found needing dice)")
    actions: list[ActionDifference] = Field(
        description="the actions whose outcome differs, in order; an action that comes out "
        "the same is not listed"
    )
    tracks: dict[str, EndTracks] = Field(
        description="per combatant id whose tracks at the fight's end differ"
    )


class HouseRulesOut(BaseModel):
    options: dict[str, Any] = Field(description="the options the fights were replayed under")
    changed_options: dict[str, Any] = Field(description="those that differ from the campaign's")
    fights_replayed: int
    actions_replayed: int
    fights: list[FightDifferences] = Field(description="every ended fight, in the order played")


@router.post("/rules/preview")
def preview_house_rules(campaign_id: UUID, body: HouseRulesBody, app: App, _: GM) -> HouseRulesOut:
    """What the campaign's ended fights would have come to under changed options: each
    replayed from its recorded starting line-up, every action resolved again on its
    recorded dice by the path corrections take (docs/corrections.md, "House rules").
    Dice the changed options would need that were never rolled are named per action,
    not rolled. Nothing is written; the campaign's options do not change."""
    return HouseRulesOut.model_validate(app.preview_house_rules(campaign_id, body.options))
