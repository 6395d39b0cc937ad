"""The character view's equipment: each armor and shield row's cost and encumbrance."""

from __future__ import annotations

from typing import Any

from skald_campaign.domain.rulesets.base import Ruleset
from skald_campaign.domain.rulesets.d20 import D20
from skald_campaign.domain.rulesets.stamina_body import StaminaBody

SHEET: dict[str, Any] = {
    "strength": 10,
    "dexterity": 10,
    "constitution": 10,
    "wisdom": 10,
    "level": 1,
    "hp": 10,
    "save_vs_death_ray": 12,
}


def test_plate_and_a_tower_shield() -> None:
    shown = D20().equipment({**SHEET, "armor": "plate_mail", "shield": "tower"})
    assert shown == {
        "armor": {"id": "plate_mail", "name": "Plate Mail", "cost_sp": 60, "encumbrance_cn": 500},
        "shield": {"id": "tower", "name": "Tower Shield", "cost_sp": 25, "encumbrance_cn": 300},
    }


def test_nothing_worn_costs_and_weighs_nothing_stated() -> None:
    assert D20().equipment(SHEET) == {
        "armor": {"id": "none", "name": "No armor", "cost_sp": None, "encumbrance_cn": None},
        "shield": {"id": "none", "name": "No shield", "cost_sp": None, "encumbrance_cn": None},
    }


def test_a_ruleset_without_gear_tables_shows_none() -> None:
    sheet = {"st": 10, "con": 10, "stamina_max": 10, "body_max": 10}
    assert StaminaBody().equipment(sheet) == {}
    assert Ruleset.equipment(StaminaBody(), sheet) == {}
