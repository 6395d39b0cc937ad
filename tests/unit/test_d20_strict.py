"""Strict types for the d20 sheet, options and action parameters, and bounds that compute.

RULINGS (all rulesets): "16" is not a number and 1 is not ``true``. Each wrong type is
refused naming the field and the type expected; every accepted value computes.
"""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.domain.validation import InvalidFields
from tests.unit.test_d20_support import Table, sheet

RULES = get_ruleset("d20")


def problems(call: Any, *args: Any) -> list[dict[str, str]]:
    with pytest.raises(InvalidFields) as refused:
        call(*args)
    return [problem.as_json() for problem in refused.value.problems]


@pytest.mark.parametrize(
    ("overrides", "field", "problem"),
    [
        ({"hp": "20"}, "sheet.hp", "Input should be a valid integer"),
        ({"hp": 20.0}, "sheet.hp", "Input should be a valid integer"),
        ({"level": True}, "sheet.level", "Input should be a valid integer"),
        ({"fr_skill_slots": "3"}, "sheet.fr_skill_slots", "Input should be a valid integer"),
        (
            {"size": 3},
            "sheet.size",
            "Input should be 'tiny', 'small', 'medium', 'large', 'huge' or 'gargantuan'",
        ),
        (
            {"strength": "16"},
            "sheet.strength",
            'Value error, should be an integer score (e.g. 16) or {"modifier": 2}, not a string',
        ),
        (
            {"strength": True},
            "sheet.strength",
            'Value error, should be an integer score (e.g. 16) or {"modifier": 2}, not a boolean',
        ),
        (
            {"wisdom": 12.5},
            "sheet.wisdom",
            'Value error, should be an integer score (e.g. 16) or {"modifier": 2}, '
            "not a fractional number",
        ),
        (
            {"dexterity": {"modifier": "1"}},
            "sheet.dexterity.modifier",
            "Input should be a valid integer",
        ),
        (
            {"weapons": [{"name": "Axe", "damage": "1d8", "magic_bonus": "1"}]},
            "sheet.weapons.0.magic_bonus",
            "Input should be a valid integer",
        ),
        (
            {"weapons": [{"name": "Axe", "damage": 8}]},
            "sheet.weapons.0.damage",
            "Input should be a valid string",
        ),
        (
            {"weapons": [{"name": 7, "damage": "1d8"}]},
            "sheet.weapons.0.name",
            "Input should be a valid string",
        ),
    ],
)
def test_a_sheet_value_of_the_wrong_type_is_refused_by_name(
    overrides: dict[str, Any], field: str, problem: str
) -> None:
    assert problems(RULES.validate_sheet, sheet(**overrides)) == [
        {"field": field, "problem": problem}
    ]


@pytest.mark.parametrize(
    ("option", "value", "problem"),
    [
        ("natural_20_hits", 1, "Input should be a valid boolean"),
        ("natural_1_misses", "true", "Input should be a valid boolean"),
        ("magic_minimum_damage", "2", "Input should be a valid integer"),
        ("double_success_margin", True, "Input should be a valid integer"),
        ("throw_damage_dice", 1.0, "Input should be a valid integer"),
        ("unarmed_damage", 2, "Input should be a valid string"),
    ],
)
def test_an_option_of_the_wrong_type_is_refused_by_name(
    option: str, value: Any, problem: str
) -> None:
    assert problems(RULES.validate_options, {option: value}) == [
        {"field": f"options.{option}", "problem": problem}
    ]


@pytest.mark.parametrize(
    ("kind", "params", "field", "problem"),
    [
        (
            "shove",
            {"target": "b", "slippery": "yes"},
            "shove.slippery",
            "Input should be a valid boolean",
        ),
        (
            "shove",
            {"target": "b", "difficult_terrain": 1},
            "shove.difficult_terrain",
            "Input should be a valid boolean",
        ),
        (
            "shove",
            {"target": "b", "wall_at_feet": "5"},
            "shove.wall_at_feet",
            "Input should be a valid integer",
        ),
        (
            "trip",
            {"target": "b", "fr_modifier": True},
            "trip.fr_modifier",
            "Input should be a valid integer",
        ),
        ("grapple", {"target": 2}, "grapple.target", "Input should be a valid string"),
        (
            "escape",
            {"defender_higher_ground": "no"},
            "escape.defender_higher_ground",
            "Input should be a valid boolean",
        ),
        (
            "attack",
            {"target": "b", "weapon": "Axe", "hit_modifier": "2"},
            "attack.hit_modifier",
            "Input should be a valid integer",
        ),
        ("release", {"now": True}, "release.now", "Extra inputs are not permitted"),
    ],
)
def test_a_parameter_of_the_wrong_type_is_refused_by_name(
    kind: str, params: dict[str, Any], field: str, problem: str
) -> None:
    assert problems(RULES.validate_params, kind, params) == [{"field": field, "problem": problem}]


def test_a_refused_sheet_writes_nothing() -> None:
    table = Table()
    with pytest.raises(InvalidFields):
        table.enrol("A", sheet(hp="20"))
    campaign = table.app.campaign(table.campaign_id)
    assert (campaign.characters, campaign.version) == ({}, 1)


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        ("1d8+1001", "'1d8+1001': the flat modifier is between -1000 and +1000"),
        ("1d8-1001", "'1d8-1001': the flat modifier is between -1000 and +1000"),
        ("1" * 31 + "d8", "String should have at most 30 characters"),
        ("101d6", "101d6: between 0 and 100 dice may be rolled"),
        ("1d1001", "1d1001: a die has between 2 and 1000 sides"),
    ],
)
def test_weapon_damage_is_bounded(damage: str, problem: str) -> None:
    found = problems(RULES.validate_sheet, sheet(weapons=[{"name": "Axe", "damage": damage}]))
    assert found[0]["field"] == "sheet.weapons.0.damage"
    assert found[0]["problem"].endswith(problem)


def test_the_largest_accepted_damage_is_accepted() -> None:
    valid = RULES.validate_sheet(sheet(weapons=[{"name": "Axe", "damage": "100d1000+1000"}]))
    assert valid["weapons"][0]["damage"] == "100d1000+1000"
    assert RULES.validate_options({"unarmed_damage": "100d1000-1000"})["unarmed_damage"] == (
        "100d1000-1000"
    )


def test_a_stored_sheet_reads_back_under_strict_types() -> None:
    stored = RULES.validate_sheet(
        sheet(strength={"modifier": 2}, weapons=[{"name": "Axe", "damage": "1d8"}])
    )
    assert RULES.validate_sheet(stored) == stored


def test_the_published_sheet_schema_says_what_an_ability_and_level_accept() -> None:
    schema = RULES.sheet_model.model_json_schema()
    assert schema["$defs"]["Ability"]["anyOf"][0] == {
        "type": "integer",
        "minimum": 3,
        "maximum": 30,
    }
    assert schema["$defs"]["Ability"]["anyOf"][2]["properties"]["modifier"] == {
        "type": "integer",
        "minimum": -5,
        "maximum": 10,
    }
    assert schema["oneOf"] == [
        {"properties": {"level": {"type": "integer"}}, "required": ["level"]},
        {"properties": {"hit_dice": {"type": "integer"}}, "required": ["hit_dice"]},
    ]
    damage = schema["$defs"]["Weapon"]["properties"]["damage"]
    assert (damage["maxLength"], damage["type"]) == (30, "string")
    assert "pattern" in damage
