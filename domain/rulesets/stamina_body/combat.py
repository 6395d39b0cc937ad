"""The attack: hit roll, the defender's one reaction, and damage if the blow lands."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from skald_campaign.domain.rulesets.stamina_body import rules
from skald_campaign.domain.rulesets.stamina_body.actions import DamageOptions, land_damage
from skald_campaign.domain.rulesets.stamina_body.sheet import UNARMED, Weapon, options_of, sheet_of
from skald_campaign.ruleset_api import (
    GM_CALL,
    CombatantView,
    DiceTray,
    EncounterView,
    InvalidInput,
    JsonObject,
    Outcome,
)


class Attack(DamageOptions):
    target: str = Field(description="the one attacked: their combatant id")
    weapon: str = Field(
        default=UNARMED,
        max_length=80,
        description="a weapon name from the attacker's sheet, or 'unarmed'",
    )
    defense: Literal["parry", "dodge", "none"] = Field(
        default="none",
        description="the defender's one reaction; left out, the attack waits for the "
        "defender to declare it. Naming it here (table speed) is the GM's call",
        # What a form leaving it unset does: not "none" (the model's default, which only a
        # miss or a defender unable to answer reaches), but the wait (S3).
        json_schema_extra={**GM_CALL, "x-left-out": "wait for the defender's answer"},
    )


def weapon_of(attacker: CombatantView, name: str) -> JsonObject:
    """The weapon as the attack's breakdown records it."""
    return armed_with(attacker, name).breakdown()


def armed_with(attacker: CombatantView, name: str) -> Weapon:
    """The attacker's weapon of that name (fists for 'unarmed'); refused if not carried."""
    sheet = sheet_of(attacker)
    weapon = sheet.weapon(name)
    if weapon is not None:
        return weapon
    carried = ", ".join(w.name for w in sheet.weapons) or "none"
    raise InvalidInput(
        f"{attacker.name} has no weapon '{name}'; weapons on the sheet: {carried} (or '{UNARMED}')"
    )


STUNNED = "stunned"


def unable_to_answer(defender: CombatantView, stunned_may_defend: bool) -> tuple[str, ...]:
    """S6/S9: the conditions that keep a defender from parrying or dodging, in a player's
    words ("cannot_act" is a chip's key, not English); empty when it may answer."""
    unable = [c for c in defender.conditions if c in ("unconscious", "cannot_act")]
    if not stunned_may_defend and STUNNED in defender.conditions:
        unable.append(STUNNED)
    return tuple(c.replace("cannot_act", "unable to act") for c in unable)


def defend(
    defender: CombatantView,
    kind: Literal["parry", "dodge", "none"],
    hit: rules.Check,
    tray: DiceTray,
    *,
    stunned_may_defend: bool = False,
) -> tuple[str, JsonObject, rules.Check | None]:
    """Roll the defender's reaction; say whether it stopped the blow and why."""
    unable = unable_to_answer(defender, stunned_may_defend)
    if kind == "none" and unable:
        # S9: nothing was declared because nothing could be, not because a player forgot.
        why = f"{defender.name} is {' and '.join(unable)} and cannot answer"
        return "landed", {"kind": "none", "why": why + (" (S9)" if STUNNED in unable else "")}, None
    if kind == "none":
        return "landed", {"kind": "none", "why": "no defense declared"}, None
    if unable:
        why = f"{defender.name} is {' and '.join(unable)} and cannot {kind}"
        return "landed", {"kind": kind, "rolled": False, "why": why}, None
    roll = tray.roll("defense", 3, 6)
    result = rules.check(roll.total, sheet_of(defender).defense(kind))
    if not result.success:
        outcome, why = "landed", f"the {kind} failed ({result.note})"
    elif result.margin >= hit.margin:
        outcome = "parried" if kind == "parry" else "dodged"
        why = f"{kind} score {result.margin} >= hit score {hit.margin}: stopped"
    else:
        outcome, why = "landed", f"{kind} score {result.margin} < hit score {hit.margin}: it lands"
    return outcome, {"kind": kind, "rolled": True, "check": result.breakdown(), "why": why}, result


def resolve_attack(
    view: EncounterView, actor: str | None, params: Attack, tray: DiceTray
) -> Outcome:
    if actor is None:
        raise InvalidInput("an attack needs an actor: the attacking combatant's id")
    attacker = view.combatant(actor, "actor")
    defender = view.combatant(params.target, "target")
    if defender.id == attacker.id:
        raise InvalidInput(f"{attacker.name} cannot attack themself")
    weapon = armed_with(attacker, params.weapon)
    hit = rules.check(tray.roll("hit", 3, 6).total, weapon.skill)
    rolled: JsonObject = {"weapon": weapon.breakdown(), "hit": hit.breakdown()}
    if not hit.success:
        return Outcome(f"{attacker.name} misses {defender.name}", {**rolled, "result": "missed"})
    result, defense, defense_check = defend(
        defender,
        params.defense,
        hit,
        tray,
        stunned_may_defend=options_of(view).stunned_may_defend,
    )
    breakdown: JsonObject = {
        **rolled,
        "hit_score": hit.margin,
        "defense": defense,
        "result": result,
    }
    if result != "landed":
        return Outcome(f"{defender.name} {result} {attacker.name}'s blow", breakdown)
    parried = params.defense == "parry" and defense_check is not None and defense_check.success
    shield = rules.shield_decision(
        parried=parried,
        hit_score=hit.margin,
        parry_score=defense_check.margin if parried and defense_check else None,
    )
    dice = rules.damage_dice(
        weapon.damage_class,
        per_option=options_of(view).extra_dice_per_option,
        set_weapon=params.set_weapon,
        charge=params.charge,
        extra_strength=params.extra_strength,
    )
    landed = land_damage(
        defender,
        tray,
        damage_type=weapon.damage_type,
        dice=dice,
        shield=shield,
        options=params,
    )
    summary = f"{attacker.name} hits: " + landed.summary
    breakdown = {**breakdown, "damage": landed.breakdown}
    return Outcome(summary, breakdown, {defender.id: landed.tracks}, {defender.id: landed.state})
