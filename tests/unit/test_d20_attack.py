"""Attacks through SkaldApplication with supplied dice: hit rolls, AV, magic, HP and down."""

from __future__ import annotations

import pytest

from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from tests.unit.test_d20_support import Table, assert_json_native, sheet

WEAPONS = [
    {"name": "Bastard Sword", "damage": "1d10"},
    {"name": "Mace", "damage": "1d4+1"},
    {"name": "Longbow", "damage": "1d10", "delivery": "missile"},
    {"name": "Flame Blade", "damage": "1d10", "damage_kind": "magic"},
    {"name": "Spark", "damage": "1d4-3", "damage_kind": "magic"},
    {"name": "Sword +2", "damage": "1d8+2", "magic_bonus": 2},
]


def duel(armor: str, options: dict[str, object] | None = None) -> tuple[Table, str, str]:
    """Aldric (HR +3) against Grimm (AC 12: DEX 13, 20 HP) wearing ``armor``."""
    table = Table(options)
    ids = table.fight(
        Aldric=sheet(hr_skill_slots=3, weapons=WEAPONS),
        Grimm=sheet(dexterity=13, armor=armor),
    )
    return table, ids["Aldric"], ids["Grimm"]


def test_seed_example_chain_mail_av_4_takes_a_9_damage_hit_as_5() -> None:
    table, aldric, grimm = duel("chain_mail")
    record = table.act(
        "attack", aldric, {"hit": [9], "damage": [9]}, target=grimm, weapon="Bastard Sword"
    )
    assert record["breakdown"]["hit"] == {
        "d20": 9,
        "terms": [{"name": "HR bonus with Bastard Sword", "value": 3}],
        "total": 12,
        "against": "AC",
        "target": 12,
        "target_terms": [
            {"name": "base", "value": 11},
            {"name": "shield bonus (No shield)", "value": 0},
            {"name": "DEX modifier (score 13)", "value": 1},
            {"name": "active technique bonuses", "value": 0},
        ],
        "comparison": "12 >= AC 12",
        "success": True,
    }
    assert record["breakdown"]["damage"] == {
        "dice": "1d10",
        "faces": [9],
        "modifier": 0,
        "kind": "physical",
        "delivery": "melee",
        "raw": 9,
        "guaranteed": 1,
        "remaining": 8,
        "av": 4,
        "av_terms": [{"name": "Chain Mail AV", "value": 4}],
        "absorbed": 4,
        "after_av": 4,
        "dealt": 5,
        "arithmetic": "1 penetrates; remaining 9 - 1 = 8; 8 - AV 4 = 4; 1 + 4 = 5",
    }
    assert record["breakdown"]["hp"] == {"before": 20, "after": 15, "down": False}
    assert table.hp(grimm) == 15
    assert record["rolls"] == [
        {"name": "hit", "dice": "1d20", "faces": [9], "total": 9, "supplied": True},
        {"name": "damage", "dice": "1d10", "faces": [9], "total": 9, "supplied": True},
    ]
    assert record["summary"] == (
        "Aldric hits Grimm with Bastard Sword (12 >= AC 12): 9 rolled, 5 dealt; HP 20 -> 15"
    )
    assert_json_native(record["breakdown"])


def test_seed_example_plate_av_6_takes_a_5_damage_hit_as_1() -> None:
    table, aldric, grimm = duel("plate_mail")
    record = table.act("attack", aldric, {"hit": [15], "damage": [4]}, target=grimm, weapon="Mace")
    damage = record["breakdown"]["damage"]
    assert (damage["raw"], damage["remaining"], damage["av"], damage["dealt"]) == (5, 4, 6, 1)
    assert damage["arithmetic"] == (
        "1 penetrates; remaining 5 - 1 = 4; 4 - AV 6 = -2 -> 0; 1 + 0 = 1"
    )
    assert table.hp(grimm) == 19


def test_a_miss_rolls_no_damage_and_changes_nothing() -> None:
    table, aldric, grimm = duel("none")
    record = table.act("attack", aldric, {"hit": [8]}, target=grimm, weapon="Mace")
    assert record["breakdown"]["hit"]["comparison"] == "11 < AC 12"
    assert record["breakdown"]["hit"]["success"] is False
    assert "damage" not in record["breakdown"]
    assert [roll["name"] for roll in record["rolls"]] == ["hit"]
    assert record["summary"] == "Aldric misses Grimm with Mace (11 < AC 12)"
    assert table.hp(grimm) == 20


def test_damage_dice_supplied_for_a_miss_are_noted_as_not_used() -> None:
    # Issue 13: a table rolls its damage with the hit; a miss makes it unneeded, not wrong.
    table, aldric, grimm = duel("none")
    record = table.act("attack", aldric, {"hit": [1], "damage": [3]}, target=grimm, weapon="Mace")
    assert record["breakdown"]["unused_dice"] == {"damage": [3]}
    assert [roll["name"] for roll in record["rolls"]] == ["hit"]
    assert table.hp(grimm) == 20


@pytest.mark.parametrize(
    ("armor", "av", "dealt"),
    [
        ("chain_mail", 2, 7),
        ("plate_mail", 3, 6),
        ("elven_chain", 4, 5),
        ("dwarven_plate", 4, 5),
        ("none", 0, 9),
    ],
)
def test_a_missile_meets_the_armors_av_vs_missiles(armor: str, av: int, dealt: int) -> None:
    table, aldric, grimm = duel(armor)
    record = table.act(
        "attack", aldric, {"hit": [12], "damage": [9]}, target=grimm, weapon="Longbow"
    )
    damage = record["breakdown"]["damage"]
    assert (damage["delivery"], damage["av"], damage["dealt"]) == ("missile", av, dealt)
    assert damage["av_terms"][0]["name"].endswith("AV vs. missiles")
    assert table.hp(grimm) == 20 - dealt


def test_magic_damage_bypasses_av() -> None:
    table, aldric, grimm = duel("dwarven_plate")
    record = table.act(
        "attack", aldric, {"hit": [12], "damage": [9]}, target=grimm, weapon="Flame Blade"
    )
    assert record["breakdown"]["damage"]["av"] is None
    assert record["breakdown"]["damage"]["dealt"] == 9
    assert record["breakdown"]["damage"]["arithmetic"] == "magic ignores AV: 9"
    assert table.hp(grimm) == 11


def test_a_magic_hit_deals_at_least_1_by_default_and_the_option_can_lower_it() -> None:
    table, aldric, grimm = duel("none")
    record = table.act("attack", aldric, {"hit": [12], "damage": [1]}, target=grimm, weapon="Spark")
    assert (record["breakdown"]["damage"]["raw"], record["breakdown"]["damage"]["dealt"]) == (-2, 1)
    assert table.hp(grimm) == 19
    table, aldric, grimm = duel("none", {"magic_minimum_damage": 0})
    record = table.act("attack", aldric, {"hit": [12], "damage": [1]}, target=grimm, weapon="Spark")
    assert record["breakdown"]["damage"]["dealt"] == 0
    assert table.hp(grimm) == 20


def test_the_weapons_magic_bonus_and_situational_modifiers_are_terms() -> None:
    table, aldric, grimm = duel("none")
    record = table.act(
        "attack",
        aldric,
        {"hit": [5], "damage": [1]},
        target=grimm,
        weapon="sword +2",
        hit_modifier=1,
        ac_modifier=-5,
    )
    hit = record["breakdown"]["hit"]
    assert hit["terms"] == [
        {"name": "HR bonus with Sword +2", "value": 5},
        {"name": "situational modifier", "value": 1},
    ]
    assert record["breakdown"]["hr_bonus"] == {
        "value": 5,
        "terms": [
            {"name": "Class Skill slots", "value": 3},
            {"name": "STR modifier (score 10)", "value": 0},
            {"name": "magic bonuses", "value": 0},
            {"name": "magic bonus of Sword +2", "value": 2},
        ],
    }
    assert hit["target_terms"][-1] == {"name": "situational AC modifier", "value": -5}
    assert hit["comparison"] == "11 >= AC 7"
    assert record["breakdown"]["damage"]["raw"] == 3


def test_a_natural_20_is_an_ordinary_face_by_default() -> None:
    table, aldric, grimm = duel("none")
    record = table.act("attack", aldric, {"hit": [20]}, target=grimm, weapon="Mace", ac_modifier=20)
    assert record["breakdown"]["hit"]["success"] is False


def test_the_natural_20_hits_option() -> None:
    table, aldric, grimm = duel("none", {"natural_20_hits": True})
    record = table.act(
        "attack", aldric, {"hit": [20], "damage": [1]}, target=grimm, weapon="Mace", ac_modifier=20
    )
    assert record["breakdown"]["hit"]["success"] is True
    assert record["breakdown"]["hit"]["note"] == "natural 20 hit"
    assert record["breakdown"]["hit"]["comparison"] == "natural 20 hit, 23 vs AC 32"
    # The summary says the natural 20 hit, never "(23 < AC 31)" beside a hit.
    assert record["summary"] == (
        "Aldric hits Grimm with Mace (natural 20 hit, 23 vs AC 32): 2 rolled, 2 dealt; HP 20 -> 18"
    )


def test_the_natural_1_misses_option() -> None:
    table, aldric, grimm = duel("none", {"natural_1_misses": True})
    record = table.act("attack", aldric, {"hit": [1]}, target=grimm, weapon="Mace", ac_modifier=-10)
    assert record["breakdown"]["hit"]["success"] is False
    assert record["breakdown"]["hit"]["note"] == "natural 1 miss"
    assert record["summary"] == "Aldric misses Grimm with Mace (natural 1 miss, 4 vs AC 2)"


def test_hp_at_0_is_down_and_a_downed_character_cannot_act() -> None:
    table = Table()
    ids = table.fight(
        Aldric=sheet(weapons=WEAPONS),
        Grimm=sheet(hp=5, weapons=WEAPONS),
    )
    record = table.act(
        "attack",
        ids["Aldric"],
        {"hit": [19], "damage": [5]},
        target=ids["Grimm"],
        weapon="Bastard Sword",
    )
    assert record["breakdown"]["hp"] == {"before": 5, "after": 0, "down": True}
    assert record["conditions"] == {ids["Grimm"]: {"before": [], "after": ["down"]}}
    assert record["summary"].endswith("HP 5 -> 0 (down)")
    with pytest.raises(ActionRefused, match="Grimm cannot attack: down"):
        table.act("attack", ids["Grimm"], target=ids["Aldric"], weapon="Mace")


def test_hp_may_go_below_zero() -> None:
    table = Table()
    ids = table.fight(Aldric=sheet(weapons=WEAPONS), Grimm=sheet(hp=3))
    table.act(
        "attack",
        ids["Aldric"],
        {"hit": [19], "damage": [10]},
        target=ids["Grimm"],
        weapon="Bastard Sword",
    )
    assert table.hp(ids["Grimm"]) == -7


def test_an_unknown_weapon_is_refused_with_the_weapons_on_the_sheet() -> None:
    table, aldric, grimm = duel("none")
    with pytest.raises(
        InvalidInput,
        match="Aldric has no weapon 'Halberd'; weapons on the sheet: Bastard Sword, Mace",
    ):
        table.act("attack", aldric, target=grimm, weapon="Halberd")


def test_an_attack_needs_an_actor_another_target_and_a_known_one() -> None:
    table, aldric, grimm = duel("none")
    with pytest.raises(InvalidInput, match="needs an actor"):
        table.act("attack", None, target=grimm, weapon="Mace")
    with pytest.raises(InvalidInput, match="cannot attack themself"):
        table.act("attack", aldric, target=aldric, weapon="Mace")
    with pytest.raises(NotFound, match="target 'nobody'"):
        table.act("attack", aldric, target="nobody", weapon="Mace")


def test_unknown_parameters_are_refused_by_name() -> None:
    table, aldric, grimm = duel("none")
    with pytest.raises(InvalidInput, match=r"attack\.critical"):
        table.act("attack", aldric, target=grimm, weapon="Mace", critical=True)


def test_the_server_rolls_what_the_caller_did_not_supply() -> None:
    table, aldric, grimm = duel("none")
    record = table.act("attack", aldric, target=grimm, weapon="Mace", hit_modifier=20)
    assert [(r["name"], r["supplied"]) for r in record["rolls"]] == [
        ("hit", False),
        ("damage", False),
    ]
    assert table.hp(grimm) == 20 - record["breakdown"]["damage"]["dealt"]
