"""Attack: d20 + HR bonus against AC; a hit rolls the weapon's damage through AV."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from domain.dice import DiceTray
from domain.errors import InvalidInput
from domain.rulesets.base import EncounterView, Frozen, Outcome
from domain.rulesets.d20 import rules
from domain.rulesets.d20.actions.common import (
    opponent,
    options_of,
    require_actor,
    sheet_of,
    take_damage,
)
from domain.rulesets.d20.ratings import Rating, Term, armor_class, armor_value, hr_bonus
from domain.rulesets.d20.sheet import D20Sheet, Weapon


class Attack(Frozen):
    target: str = Field(description="combatant id of the character attacked")
    weapon: str = Field(min_length=1, description="name of a weapon on the attacker's sheet")
    hit_modifier: int = Field(
        default=0, ge=-20, le=20, description="situational modifiers to the hit roll"
    )
    ac_modifier: int = Field(
        default=0,
        ge=-20,
        le=20,
        description="situational change to the target's AC (e.g. -5 for AC penetration)",
    )


def _weapon(sheet: D20Sheet, name: str, owner: str) -> Weapon:
    weapon = sheet.weapon(name)
    if weapon is None:
        known = ", ".join(w.name for w in sheet.weapons) or "none"
        raise InvalidInput(f"{owner} has no weapon '{name}'; weapons on the sheet: {known}")
    return weapon


def resolve_attack(
    view: EncounterView, actor_id: str | None, params: Attack, tray: DiceTray
) -> Outcome:
    actor = require_actor(view, actor_id, "an attack")
    target = opponent(view, params.target, actor, "attack")
    options = options_of(view)
    attacker, defender = sheet_of(actor), sheet_of(target)
    weapon = _weapon(attacker, params.weapon, actor.name)

    hr = hr_bonus(attacker)
    bonus_terms = [
        Term("HR bonus", hr.value),
        Term(f"magic bonus ({weapon.name})", weapon.magic_bonus),
    ]
    if params.hit_modifier:
        bonus_terms.append(Term("situational modifier", params.hit_modifier))
    ac = armor_class(defender)
    if params.ac_modifier:
        ac = Rating((*ac.terms, Term("situational AC modifier", params.ac_modifier)))
    face = tray.roll("hit", 1, 20).faces[0]
    check = rules.d20_check(
        face,
        Rating(tuple(bonus_terms)),
        "AC",
        ac,
        natural_20_succeeds=options.natural_20_hits,
        natural_1_fails=options.natural_1_misses,
    )
    breakdown: dict[str, Any] = {
        "weapon": weapon.model_dump(mode="json"),
        "hr_bonus": hr.as_dict(),
        "hit": check.breakdown(),
    }
    if not check.success:
        summary = f"{actor.name} misses {target.name} with {weapon.name} ({check.comparison()})"
        return Outcome(summary, breakdown)

    roll = tray.roll_expression("damage", weapon.dice)
    if weapon.damage_kind == "magic":
        damage = rules.magic_damage(roll.total, options.magic_minimum_damage)
    else:
        av = armor_value(defender, against_missiles=weapon.delivery == "missile")
        damage = rules.physical_damage(roll.total, av)
    tracks, hp = take_damage(target, damage.dealt)
    breakdown["damage"] = {
        "dice": weapon.damage,
        "faces": list(roll.faces),
        "modifier": roll.expression.modifier,
        "kind": weapon.damage_kind,
        "delivery": weapon.delivery,
        **damage.breakdown,
    }
    breakdown["hp"] = hp
    summary = (
        f"{actor.name} hits {target.name} with {weapon.name} ({check.comparison()}): "
        f"{roll.total} rolled, {damage.dealt} dealt; HP {hp['before']} -> {hp['after']}"
        + (" (down)" if hp["down"] else "")
    )
    return Outcome(summary, breakdown, tracks={target.id: tracks})
