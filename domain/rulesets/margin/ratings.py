"""What a character view shows beside a margin sheet: pools and armor, each with its terms.

Only what needs no campaign option is shown (the ruleset seam passes none here):
base pools before effort and penalties, Armor, and the state's fatigue, luck and
ammunition.
"""

from __future__ import annotations

from skald_campaign.domain.rulesets.margin.rules import defense_pool
from skald_campaign.domain.rulesets.margin.sheet import DEFENSE_ORDER, FISTS, MarginSheet, Weapon
from skald_campaign.domain.rulesets.margin.state import CharacterState
from skald_campaign.ruleset_api import JsonObject


def _attack(sheet: MarginSheet, weapon: Weapon) -> JsonObject:
    attribute = sheet.attribute(weapon.attribute)
    skill = sheet.attribute(weapon.skill)
    return {
        "terms": {weapon.attribute: attribute, weapon.skill: skill},
        "dice": attribute + skill,
        "category": weapon.category,
        "damage": f"{weapon.base_damage} + {weapon.per_margin} x margin {weapon.damage_type}",
    }


def derived_ratings(sheet: MarginSheet, state: CharacterState) -> JsonObject:
    attacks: JsonObject = {
        w.name: _attack(sheet, w) for w in (*sheet.weapons, *sheet.spells, FISTS)
    }
    defenses: JsonObject = {
        d: {
            "passive": defense_pool(sheet, d, "passive").size,
            "active_before_effort": defense_pool(sheet, d, "active").size,
        }
        for d in DEFENSE_ORDER
    }
    return {
        "health_max": sheet.max_health,
        "armor": {
            "rating": sheet.armor_rating,
            "items": [
                {"name": i.name, "rating": i.rating, "shield": i.shield} for i in sheet.armor
            ],
        },
        "attack_pools": attacks,
        "defense_pools": defenses,
        "fatigue": state.fatigue,
        "luck": {"now": state.luck, "sheet": sheet.luck},
        "ammunition": {
            w.name: state.shots_left(w) for w in sheet.weapons if w.ammunition is not None
        },
    }
