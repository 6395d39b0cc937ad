"""Attack: d20 + HR bonus against AC; a hit rolls the weapon's damage through AV.

Every character also has the two HR attacks of D10: an Unarmed Strike and,
with a shield, a Shield Bash, whose damage dice are campaign options.
"""

from __future__ import annotations

from pydantic import Field

from skald_campaign.domain.rulesets.d20 import rules
from skald_campaign.domain.rulesets.d20.actions.common import (
    opponent,
    options_of,
    release_if_down,
    require_actor,
    sheet_of,
    take_damage,
)
from skald_campaign.domain.rulesets.d20.ratings import (
    Rating,
    Term,
    armor_class,
    armor_value,
    hr_bonus_with,
)
from skald_campaign.domain.rulesets.d20.sheet import (
    SHIELD_BASH,
    UNARMED_STRIKE,
    D20Options,
    D20Sheet,
    Strict,
    Weapon,
)
from skald_campaign.ruleset_api import (
    GM_CALL,
    DiceTray,
    EncounterView,
    InvalidInput,
    JsonObject,
    Outcome,
    StateObject,
)


class Attack(Strict):
    target: str = Field(description="the one attacked: their combatant id")
    weapon: str = Field(
        min_length=1,
        max_length=80,
        description="a weapon on the attacker's sheet, or Unarmed Strike, or Shield Bash "
        "(with a shield)",
    )
    hit_modifier: int = Field(
        default=0,
        ge=-20,
        le=20,
        description="GM call: situational modifiers to the hit roll",
        json_schema_extra=GM_CALL,
    )
    ac_modifier: int = Field(
        default=0,
        ge=-20,
        le=20,
        description="GM call: situational change to the target's AC (e.g. -5 for AC penetration)",
        json_schema_extra=GM_CALL,
    )


def _built_in(name: str, damage: str) -> Weapon:
    # Sheet weapons may not take these names, so the built-ins skip that check; the
    # damage notation was validated with the campaign's options.
    return Weapon.model_construct(name=name, damage=damage)


def _weapon(sheet: D20Sheet, name: str, owner: str, options: D20Options) -> Weapon:
    weapon = sheet.weapon(name)
    if weapon is not None:
        return weapon
    wanted = name.strip().casefold()
    if wanted == UNARMED_STRIKE.casefold():
        return _built_in(UNARMED_STRIKE, options.unarmed_damage)
    if wanted == SHIELD_BASH.casefold():
        if sheet.shield == "none":
            raise InvalidInput(f"{owner} carries no shield, so there is nothing to bash with")
        return _built_in(SHIELD_BASH, options.shield_bash_damage)
    known = ", ".join(w.name for w in sheet.weapons) or "none"
    raise InvalidInput(
        f"{owner} has no weapon '{name}'; weapons on the sheet: {known}; every character "
        f"also has {UNARMED_STRIKE}, and {SHIELD_BASH} with a shield"
    )


def resolve_attack(
    view: EncounterView, actor_id: str | None, params: Attack, tray: DiceTray
) -> Outcome:
    actor = require_actor(view, actor_id, "an attack")
    target = opponent(view, params.target, actor, "attack")
    options = options_of(view)
    attacker, defender = sheet_of(actor), sheet_of(target)
    weapon = _weapon(attacker, params.weapon, actor.name, options)

    # D12: one HR bonus per weapon, its magic bonus a term of it, as the character view shows.
    hr = hr_bonus_with(attacker, weapon.name, weapon.magic_bonus)
    bonus_terms = [Term(f"HR bonus with {weapon.name}", hr.value)]
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
    breakdown: JsonObject = {
        "weapon": weapon.model_dump(),  # every field is already a JSON value
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
    hp = take_damage(target, damage.dealt)
    breakdown["damage"] = {
        "dice": weapon.damage,
        "faces": list(roll.faces),
        "modifier": roll.expression.modifier,
        "kind": weapon.damage_kind,
        "delivery": weapon.delivery,
        **damage.breakdown,
    }
    breakdown["hp"] = hp.breakdown()
    states: dict[str, StateObject] = {}
    let_go = release_if_down(view, target, hp.after, states)
    if let_go:
        breakdown["hold"] = "broken: the holder is down (D11)"
    summary = (
        f"{actor.name} hits {target.name} with {weapon.name} ({check.comparison()}): "
        f"{roll.total} rolled, {damage.dealt} dealt; HP {hp.before} -> {hp.after}"
        + (" (down)" if hp.down else "")
        + let_go
    )
    return Outcome(summary, breakdown, tracks={target.id: hp.tracks}, state=states)
