"""The odds before the dice: exact probabilities of an action's outcomes, nothing written.

See docs/odds.md. Both operations follow the rules for acting: the GM for anyone, a
player for their own characters, a viewer not at all.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from skald_campaign.api.deps import App, Reader
from skald_campaign.api.schemas import OddsBody
from skald_campaign.domain.odds.encounter import answer_odds, attack_odds, encounter_odds
from skald_campaign.domain.odds.reading import odds_for

router = APIRouter(prefix="/campaigns/{campaign_id}/encounters/{encounter_id}", tags=["odds"])


class Chance(BaseModel):
    probability: str = Field(description="exact, as a fraction: '181/216'")
    decimal: float = Field(description="the same, rounded to 6 places")


class ResultChance(Chance):
    result: str = Field(description="hit, miss, parried, dodged, stopped_by_ward, countered, ...")


class ValueChance(Chance):
    value: int | str


class Mean(BaseModel):
    value: str
    decimal: float


class TrackOdds(BaseModel):
    combatant: str
    name: str
    track: str
    distribution: list[ValueChance] = Field(description="before - after; below 0 is a gain")
    mean: Mean
    at_least_one: Chance


class ConditionOdds(BaseModel):
    combatant: str
    name: str
    condition: str
    gained: Chance
    lost: Chance


class PointsChance(Chance):
    points: int


class LuckOdds(BaseModel):
    combatant: str
    name: str
    spent: list[PointsChance]
    any: Chance


class Awaits(BaseModel):
    defender: str = Field(description="the defender's combatant id")
    name: str
    param: str = Field(description="the parameter the answer sets (stamina-body: defense)")
    choices: list[str]


class OddsOut(BaseModel):
    ruleset: str
    kind: str
    actor: str | None
    params: dict[str, Any]
    round: int
    exact: bool
    outcomes: int = Field(description="distinct outcomes of the dice (estimated before exploring)")
    resolutions: int = Field(description="times the resolver ran to explore them")
    cost: int = Field(
        0, description="the cost units they were charged (about 1 us of CPU each; docs/odds.md)"
    )
    results: list[ResultChance] = Field(
        description="each result with its probability; for an attack that waits for its "
        "defender's answer (awaits), the rolls before it: hit (the defender is asked) or miss"
    )
    awaits: Awaits | None = Field(
        default=None,
        description="stamina-body: an attack that does not name the defense waits for the "
        "defender's answer when it hits (S3); what it then does is in answers, not here",
    )
    answers: dict[str, OddsOut] = Field(
        default_factory=dict,
        description="with awaits: each answer (parry, dodge, none) with the odds of the "
        "attack naming it; left out for a reader who may not see the defender's numbers",
    )
    withheld: str | None = Field(
        default=None,
        description="why results this key may not read are left out (RULINGS T3a: a "
        "chance that would tell an NPC's hidden numbers is the GM's)",
    )
    damage: list[TrackOdds]
    conditions: list[ConditionOdds]
    luck: list[LuckOdds]
    extras: dict[str, list[ValueChance]]
    elapsed_ms: float


class AttackOdds(BaseModel):
    label: str = Field(
        description="the attack and what its odds are of: stamina-body 'sword (parry)', the "
        "blow against a parry (its hit: the chance it lands); against an NPC whose numbers "
        "this key may not read, 'sword (to hit, before any defense)' (RULINGS T3a)"
    )
    kind: str
    params: dict[str, Any]
    odds: OddsOut | None = None
    refused: str | None = Field(default=None, description="why this attack cannot be made now")


class AttacksOut(BaseModel):
    combatant: str
    name: str
    against: str
    against_name: str
    attacks: list[AttackOdds]


@router.post("/odds")
def action_odds(
    campaign_id: UUID, encounter_id: UUID, body: OddsBody, app: App, access: Reader
) -> OddsOut:
    """Every outcome of an action about to happen, with its exact probability."""
    access.require_writer_for(body.actor, f"see the odds of '{body.kind}'")
    encounter = app.encounter(campaign_id, encounter_id)
    app.rules_installed(campaign_id)
    odds = encounter_odds(encounter, body.kind, body.actor, body.params, role=access.role)
    target = body.params.get("target")
    hidden = hidden_npcs(app, campaign_id, access)
    return OddsOut.model_validate(
        odds_for(odds, encounter.ruleset_id, target if isinstance(target, str) else None, hidden)
    )


def hidden_npcs(app: App, campaign_id: UUID, access: Reader) -> frozenset[str]:
    """The NPCs whose numbers this key may not read (RULINGS T3): none for the GM."""
    policy = app.redaction(campaign_id, access.role)
    return frozenset(policy.npcs) if policy is not None else frozenset()


@router.get("/combatants/{character_id}/odds")
def combatant_attack_odds(
    campaign_id: UUID,
    encounter_id: UUID,
    character_id: str,
    app: App,
    access: Reader,
    against: Annotated[str, Query(max_length=64, description="the chosen opponent's id")],
    effort: Annotated[int, Query(ge=0, le=10, description="margin: effort dice")] = 0,
) -> AttacksOut:
    """For a chosen opponent, the odds of each of this combatant's attacks."""
    access.require_writer_for(character_id, "see the odds of this combatant's attacks")
    encounter = app.encounter(campaign_id, encounter_id)
    app.rules_installed(campaign_id)
    hidden = hidden_npcs(app, campaign_id, access)
    found = attack_odds(encounter, character_id, against, effort=effort, unseen=against in hidden)
    for attack in found["attacks"] if isinstance(found["attacks"], list) else []:
        odds = attack.get("odds") if isinstance(attack, dict) else None
        if isinstance(attack, dict) and isinstance(odds, dict):
            attack["odds"] = odds_for(odds, encounter.ruleset_id, against, hidden)
    return AttacksOut.model_validate(found)


class AnswersOut(BaseModel):
    exchange: int
    param: str = Field(description="the parameter the answer sets (stamina-body: defense)")
    shown: dict[str, Any] = Field(description="what the attack showed before the answer")
    answers: dict[str, OddsOut] = Field(
        description="each answer (parry, dodge, none) with the exact odds of its results, "
        "the rolls already made standing as they fell"
    )


@router.get("/exchanges/{number}/odds")
def exchange_answer_odds(
    campaign_id: UUID,
    encounter_id: UUID,
    number: Annotated[int, Path(ge=1, le=2**31 - 1)],
    app: App,
    access: Reader,
) -> AnswersOut:
    """A pending attack's answers and their exact odds, for the defender's player or the
    GM: what the player's page shows beside its Parry, Dodge and No defence buttons."""
    encounter = app.encounter(campaign_id, encounter_id)
    app.rules_installed(campaign_id)
    found = answer_odds(encounter, number, access)
    # The player's own answer's odds stand (T3a); an NPC's entries in them do not.
    hidden = hidden_npcs(app, campaign_id, access)
    answers = found["answers"]
    if isinstance(answers, dict):
        for choice, odds in answers.items():
            if isinstance(odds, dict):
                answers[choice] = odds_for(odds, encounter.ruleset_id, None, hidden)
    return AnswersOut.model_validate(found)
