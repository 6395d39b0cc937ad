"""Stamina-body damage: the Take-hit panel and the damage step every landed hit shares."""

from __future__ import annotations

from typing import Literal

import msgspec
from pydantic import Field, StrictBool, StrictInt, ValidationInfo, field_validator

from skald_campaign.domain.rulesets.stamina_body import rules
from skald_campaign.domain.rulesets.stamina_body.sheet import options_of, sheet_of
from skald_campaign.domain.rulesets.stamina_body.tracks import Pools, pools_of
from skald_campaign.ruleset_api import (
    GM_CALL,
    CombatantView,
    DiceTray,
    EncounterView,
    Frozen,
    InvalidInput,
    JsonObject,
    Outcome,
    StateObject,
)


class DamageOptions(Frozen):
    set_weapon: StrictBool = Field(default=False, description="Set weapon: more damage dice")
    charge: StrictBool = Field(default=False, description="Charge: more damage dice")
    extra_strength: StrictBool = Field(default=False, description="Use extra strength: more dice")
    ignore_armour: StrictBool = Field(
        default=False, description="GM call: armour does not soak", json_schema_extra=GM_CALL
    )
    ignore_shield: StrictBool = Field(
        default=False, description="GM call: the shield does not soak", json_schema_extra=GM_CALL
    )


class TakeHit(DamageOptions):
    """The seed's Take-hit panel: a hit has landed on ``target``; work out what it does."""

    target: str = Field(description="the one who was hit: their combatant id")
    damage_type: Literal["impact", "piercing"]
    damage_class: StrictInt = Field(ge=1, le=20, description="d6 read on the damage table")
    parried: StrictBool = Field(default=False, description="the target parried successfully")
    hit_score: StrictInt | None = Field(default=None, ge=-30, le=30)
    parry_score: StrictInt | None = Field(
        default=None,
        ge=-30,
        le=30,
        description="with parried: must be below hit_score (a parry scoring at least the "
        "hit score stopped the blow, S3)",
    )

    @field_validator("parry_score")
    @classmethod
    def _the_blow_was_not_stopped(
        cls, parry_score: int | None, info: ValidationInfo[object]
    ) -> int | None:
        # A successful parry scoring at least the hit score stops the blow (S3): such a
        # hit never lands, so there is nothing to take. Refused, not silently applied.
        hit_score = info.data.get("hit_score")
        stopped = (
            info.data.get("parried") is True
            and hit_score is not None
            and parry_score is not None
            and parry_score >= hit_score
        )
        if stopped:
            raise ValueError(
                f"parry_score {parry_score} >= hit_score {hit_score}: a successful parry "
                "scoring at least the hit score stops the blow (S3), so it did not land"
            )
        return parry_score


def land_damage(
    target: CombatantView,
    tray: DiceTray,
    *,
    damage_type: str,
    dice: rules.DamageDice,
    shield: rules.ShieldDecision,
    options: DamageOptions,
) -> Landed:
    """Roll and read the damage dice, soak them: the breakdown, new tracks and state."""
    roll = tray.roll("damage", dice.count, 6)
    reading = rules.read_damage(roll.faces, damage_type)
    sheet = sheet_of(target)
    resilience = rules.effective_resilience(
        armour=sheet.armour_resilience,
        shield=sheet.shield_resilience,
        shield_counts=shield.counts,
        ignore_armour=options.ignore_armour,
        ignore_shield=options.ignore_shield,
    )
    raw_stamina, raw_body = reading.stamina, reading.body  # each a sum: worked out once
    absorption = rules.absorb(raw_stamina, raw_body, resilience.total)
    before = pools_of(target)
    after = Pools(before.stamina - absorption.stamina, before.body - absorption.body)
    state = dict(target.state)
    wounded = damage_type == "piercing" and absorption.body > 0
    if wounded:
        state["piercing_wound"] = True
    if absorption.body > 0:
        state.pop("stabilised", None)  # S10: stabilised until they take Body damage again
    breakdown: JsonObject = {
        "damage_dice": {**dice.breakdown(), "faces": list(roll.faces)},
        "reading": reading.breakdown(),
        "shield": {"counts": shield.counts, "why": shield.reason},
        "resilience": {
            "armour": resilience.armour,
            "shield": resilience.shield,
            "total": resilience.total,
            "notes": list(resilience.notes),
        },
        "absorption": absorption.breakdown(),
        "tracks": {
            "stamina": {"before": before.stamina, "after": after.stamina},
            "body": {"before": before.body, "after": after.body},
        },
        "piercing_wound": wounded,
    }
    summary = (
        f"{target.name} takes {absorption.stamina} Stamina and {absorption.body} Body "
        f"({raw_stamina}/{raw_body} raw)"
    )
    return Landed(breakdown, after.as_json(), state, summary)


class Landed(msgspec.Struct, frozen=True):
    breakdown: JsonObject
    tracks: dict[str, int]
    state: StateObject
    summary: str  # "<name> takes 3 Stamina and 1 Body (4/1 raw)"


def take_hit_shield(params: TakeHit) -> rules.ShieldDecision:
    """S3 on the panel: a parry is checked against the hit, so both scores are needed."""
    if not params.parried:
        return rules.shield_decision(parried=False, hit_score=None, parry_score=None)
    hit, parry = params.hit_score, params.parry_score
    if hit is None or parry is None:
        missing = [n for n, v in (("hit_score", hit), ("parry_score", parry)) if v is None]
        raise InvalidInput(
            "parried: true needs the hit score and the parry score to check the shield rule "
            f"(hit score - parry score <= 2); missing: {', '.join(missing)}"
        )
    # A parry at least the hit score stopped the blow: ``TakeHit`` refuses it on arrival.
    return rules.shield_decision(parried=True, hit_score=hit, parry_score=parry)


def resolve_take_hit(
    view: EncounterView, actor: str | None, params: TakeHit, tray: DiceTray
) -> Outcome:
    target = view.combatant(params.target, "target")
    dice = rules.damage_dice(
        params.damage_class,
        per_option=options_of(view).extra_dice_per_option,
        set_weapon=params.set_weapon,
        charge=params.charge,
        extra_strength=params.extra_strength,
    )
    shield = take_hit_shield(params)
    landed = land_damage(
        target, tray, damage_type=params.damage_type, dice=dice, shield=shield, options=params
    )
    return Outcome(
        landed.summary, landed.breakdown, {target.id: landed.tracks}, {target.id: landed.state}
    )
