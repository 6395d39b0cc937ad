"""S3/S11: the defender answers an attack with a parry, a dodge or nothing.

An attack whose request does not name the defense waits for the defender's
declaration: the hit is rolled first (a miss needs no answer), then the defender
(their player, or the GM) chooses. A defender who cannot choose answers with
nothing at once: unconscious or unable to act, or stunned (S9) unless the
campaign's ``stunned_may_defend`` option says otherwise.
"""

from __future__ import annotations

from skald_campaign.domain.rulesets.stamina_body import rules
from skald_campaign.domain.rulesets.stamina_body.combat import Attack, armed_with, unable_to_answer
from skald_campaign.domain.rulesets.stamina_body.sheet import options_of, sheet_of
from skald_campaign.ruleset_api import (
    Awaiting,
    DiceTray,
    EncounterView,
    JsonMapping,
    JsonObject,
    validate,
)

CHOICES = ("parry", "dodge", "none")


def awaiting_defense(
    view: EncounterView, kind: str, actor: str | None, params: JsonMapping, tray: DiceTray
) -> Awaiting | None:
    if kind != "attack" or "defense" in params or actor is None or actor not in view.combatants:
        return None
    attack = validate(Attack, params, kind)
    attacker = view.combatants[actor]
    defender = view.combatants.get(attack.target)
    if defender is None or defender.id == attacker.id:
        return None  # the resolver refuses it with its own message
    if unable_to_answer(defender, options_of(view).stunned_may_defend):
        return None  # the attack resolves at once and its breakdown says why
    weapon = armed_with(attacker, attack.weapon)
    hit = rules.check(tray.roll("hit", 3, 6).total, weapon.skill)
    if not hit.success:
        return None
    shown: JsonObject = {
        "attacker": attacker.name,
        "weapon": weapon.name,
        "hit": hit.breakdown(),
        "hit_score": hit.margin,
        "scores": {"parry": sheet_of(defender).parry, "dodge": sheet_of(defender).dodge},
    }
    return Awaiting(defender.id, "defense", CHOICES, shown)
