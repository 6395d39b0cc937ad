"""The d20 sheet and options: what is accepted, and the messages for what is not."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.domain.rulesets.d20 import D20
from skald_campaign.domain.validation import InvalidFields
from tests.unit.test_d20_support import Table, sheet

RULES = get_ruleset("d20")


def refusal(bad: dict[str, Any]) -> InvalidFields:
    with pytest.raises(InvalidFields) as caught:
        RULES.validate_sheet(bad)
    return caught.value


def test_the_registry_serves_the_d20_class() -> None:
    assert isinstance(RULES, D20)
    assert RULES.id == "d20"


def test_a_bare_number_is_a_score_and_a_modifier_may_be_stated() -> None:
    valid = RULES.validate_sheet(sheet(strength=16, dexterity={"modifier": -1}))
    assert valid["strength"] == {"score": 16, "modifier": None}
    assert valid["dexterity"] == {"score": None, "modifier": -1}


def test_a_valid_sheet_keeps_its_defaults_and_normalises_weapon_notation() -> None:
    valid = RULES.validate_sheet(
        sheet(weapons=[{"name": "Mace", "damage": "d6 + 1"}], hit_dice=None)
    )
    assert valid["size"] == "medium"
    assert valid["armor"] == "none"
    assert valid["shield"] == "none"
    assert valid["weapons"] == [
        {
            "name": "Mace",
            "damage": "1d6+1",
            "delivery": "melee",
            "damage_kind": "physical",
            "magic_bonus": 0,
        }
    ]


def test_an_ability_with_both_score_and_modifier_is_refused_by_name() -> None:
    error = refusal(sheet(wisdom={"score": 12, "modifier": 0}))
    assert error.problems[0].field == "sheet.wisdom"
    assert "either a score" in error.problems[0].problem


def test_an_ability_score_below_3_is_refused() -> None:
    error = refusal(sheet(constitution=2))
    assert error.problems[0].field == "sheet.constitution.score"


def test_level_and_hit_dice_are_exclusive_and_one_is_needed() -> None:
    both = refusal(sheet(hit_dice=3))
    assert "either level" in both.message
    neither = refusal(sheet(level=None))
    assert "either level" in neither.message
    assert RULES.validate_sheet(sheet(level=None, hit_dice=4))["hit_dice"] == 4


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("size", "colossal", "sheet.size"),
        ("armor", "mithril", "sheet.armor"),
        ("shield", "buckler", "sheet.shield"),
        ("hp", 0, "sheet.hp"),
        ("save_vs_death_ray", 21, "sheet.save_vs_death_ray"),
        ("hr_skill_slots", -1, "sheet.hr_skill_slots"),
        ("defensive_stance_mastery", -2, "sheet.defensive_stance_mastery"),
        ("size_penalty_mastery_reduction", -4, "sheet.size_penalty_mastery_reduction"),
        ("luck", 3, "sheet.luck"),
    ],
)
def test_a_bad_field_is_named_in_the_refusal(field: str, value: Any, where: str) -> None:
    error = refusal(sheet(**{field: value}))
    assert [problem.field for problem in error.problems] == [where]


def test_a_missing_hp_is_named() -> None:
    bad = sheet()
    del bad["hp"]
    assert [p.field for p in refusal(bad).problems] == ["sheet.hp"]


def test_weapon_damage_must_be_dice_notation() -> None:
    error = refusal(sheet(weapons=[{"name": "Club", "damage": "a lot"}]))
    assert error.problems[0].field == "sheet.weapons.0.damage"
    assert "not dice notation" in error.problems[0].problem


def test_weapon_damage_must_roll_a_die() -> None:
    error = refusal(sheet(weapons=[{"name": "Club", "damage": "0d6+3"}]))
    assert "rolls no dice" in error.message


def test_weapon_delivery_and_kind_are_named_choices() -> None:
    error = refusal(sheet(weapons=[{"name": "Bow", "damage": "1d6", "delivery": "thrown"}]))
    assert error.problems[0].field == "sheet.weapons.0.delivery"


def test_weapon_names_are_unique_whatever_their_case() -> None:
    error = refusal(
        sheet(
            weapons=[
                {"name": "Dagger", "damage": "1d4"},
                {"name": "dagger", "damage": "1d4"},
            ]
        )
    )
    assert "repeated" in error.message


def test_the_options_default_to_the_seed_and_the_rulings() -> None:
    # A double success moves the seed's literal 10 ft by default (seed 004: "the 10ft
    # displacement and Prone result"); D6a's twice-Max-Displacement is the other choice.
    assert RULES.validate_options(None) == {
        "actions_per_round": 1,
        "initiative": {"mode": "manual"},  # T1
        "skip_unable": True,
        "show_npc_numbers": False,
        "natural_20_hits": False,
        "natural_1_misses": False,
        "magic_minimum_damage": 1,
        "double_success_margin": 10,
        "double_success_distance": "seed_ten_feet",
        "wall_damage_minimum_dice": 1,
        "throw_damage_dice": 1,
        "elven_chain_wrestles_as": "chain_mail",
        "dwarven_plate_wrestles_as": "plate_mail",
        "unarmed_damage": "1d2",
        "shield_bash_damage": "1d4",
    }


def test_an_unknown_or_bad_option_is_refused_by_name() -> None:
    with pytest.raises(InvalidFields) as unknown:
        RULES.validate_options({"critical_hits": True})
    assert unknown.value.problems[0].field == "options.critical_hits"
    with pytest.raises(InvalidFields) as bad:
        RULES.validate_options({"elven_chain_wrestles_as": "elven_chain"})
    assert bad.value.problems[0].field == "options.elven_chain_wrestles_as"


def test_a_campaign_records_its_options_and_a_character_starts_at_full_hp() -> None:
    table = Table({"natural_20_hits": True})
    assert table.app.campaign(table.campaign_id).options["natural_20_hits"] is True
    hero = table.enrol("Hero", sheet(hp=27))
    character = table.app.campaign(table.campaign_id).character(hero)
    assert character.tracks == {"hp": 27}
    assert character.state == {}


def test_enrolling_a_bad_sheet_changes_nothing() -> None:
    table = Table()
    with pytest.raises(InvalidInput):
        table.enrol("Nobody", sheet(armor="mithril"))
    assert table.app.campaign(table.campaign_id).characters == {}


def test_the_fight_state_is_dropped_when_an_encounter_ends() -> None:
    rules = D20()
    state = {"stance_round": 2, "prone": True, "grappling": "x", "grappled_by": "y", "note": 1}
    assert rules.state_after_encounter(state) == {"note": 1}
