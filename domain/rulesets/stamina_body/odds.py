"""Stamina-body's odds helpers (docs/odds.md): damage dice read on the weapon's table,
an attack that depends on hit and defense only through whether it landed and whether
the shield counts, and the attacks a combatant can make."""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

from skald_campaign.domain.rulesets.stamina_body import rules as sb_rules
from skald_campaign.domain.rulesets.stamina_body.combat import armed_with
from skald_campaign.domain.rulesets.stamina_body.rules import DAMAGE_TABLES, read_damage
from skald_campaign.domain.rulesets.stamina_body.sheet import sheet_of
from skald_campaign.ruleset_api import CombatantView, EncounterView, JsonMapping
from skald_campaign.ruleset_api.odds import Choice, FaceModel, Faces, Memo, Script
from skald_campaign.ruleset_api.records import target_of


def _damage_reading(faces: Faces) -> Hashable:
    """S4: the dice are read one by one on the weapon's table; the sums are what land."""
    readings = (read_damage(faces, table) for table in sorted(DAMAGE_TABLES))
    return tuple((reading.stamina, reading.body) for reading in readings)


STAMINA_DAMAGE = FaceModel("damage table readings", key=_damage_reading)


@lru_cache(maxsize=8)
def _one_table(table: str) -> FaceModel:
    def key(faces: Faces) -> Hashable:
        reading = read_damage(faces, table)
        return (reading.stamina, reading.body)

    return FaceModel(f"damage read on the {table} table", key=key)


def stamina_damage_model(damage_type: str | None) -> FaceModel:
    """S4: read on the weapon's own table when the action names it, on both otherwise."""
    return _one_table(damage_type) if damage_type in DAMAGE_TABLES else STAMINA_DAMAGE


def stamina_body_attack_key(
    view: EncounterView, actor: str | None, params: JsonMapping
) -> Memo | None:
    """S3: once hit and defense are rolled, only two things matter: did it land, and
    does the shield count (with no defense declared, only whether it hit). The
    damage that follows is then explored once for each."""
    try:
        attacker = view.combatants[str(actor)]
        defender = view.combatants[str(target_of(params))]
        skill = armed_with(attacker, str(params.get("weapon", "unarmed"))).skill
        kind = str(params.get("defense", "none"))
        sheet = sheet_of(defender)
        score = sheet.parry if kind == "parry" else sheet.dodge if kind == "dodge" else 0
    except Exception:  # the resolver refuses such a request itself, with its own words
        return None

    def key(script: Script) -> Hashable | None:
        names = tuple(name for name, _ in script)
        if names == ("hit",) and kind == "none":
            return (names, sb_rules.check(sum(script[0][1]), skill).success)
        if names != ("hit", "defense"):
            return None
        hit = sb_rules.check(sum(script[0][1]), skill)
        defense = sb_rules.check(sum(script[1][1]), score)
        if defense.success and defense.margin >= hit.margin:
            return (names, "stopped")
        parried = kind == "parry" and defense.success
        shield = sb_rules.shield_decision(
            parried=parried,
            hit_score=hit.margin,
            parry_score=defense.margin if parried else None,
        )
        return (names, "landed", shield.counts)

    return Memo(key)


def stamina_body_damage_type(
    view: EncounterView, kind: str, actor: str | None, params: JsonMapping
) -> str | None:
    """The table an action's damage dice are read on, when it can be told before rolling."""
    try:
        if kind == "take_hit":
            return str(params["damage_type"])
        if kind == "attack":
            attacker = view.combatants[str(actor)]
            return armed_with(attacker, str(params.get("weapon", "unarmed"))).damage_type
    except Exception:  # the resolver refuses such a request itself, with its own words
        return None
    return None


def result(kind: str, b: JsonMapping) -> str | None:
    if kind == "attack":
        return {"missed": "miss", "landed": "hit"}.get(str(b.get("result")), str(b.get("result")))
    if kind == "take_hit":
        return "hit"
    return None


def attack_choices(attacker: CombatantView, target: str) -> list[Choice]:
    """Each weapon (and unarmed) against each defense the target may declare (S3: a
    successful parry or dodge scoring at least the hit score stops the blow, so each
    row's hit is the chance the blow lands against that defense).

    A reader who may not see the target's Parry and Dodge (RULINGS T3a) reads one row a
    weapon instead: the chance to hit, 3d6 against the attacker's own skill, before the
    defender answers; a chance to land against a parry or a dodge would tell them."""
    weapons = [*(w.name for w in sheet_of(attacker).weapons), "unarmed"]
    return [
        Choice(
            f"{weapon} ({'no defense' if defense == 'none' else defense})",
            "attack",
            {"target": target, "weapon": weapon, "defense": defense},
            unseen=Choice(
                f"{weapon} (to hit, before any defense)",
                "attack",
                {"target": target, "weapon": weapon},
            ),
        )
        for weapon in weapons
        for defense in ("none", "parry", "dodge")
    ]
