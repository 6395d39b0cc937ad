"""Attacking in margin, through the application with supplied dice: the pool, effort,
exhaustion, conditions, reach, damage through nature and armor, and the refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.unit.test_margin_table import (
    AXE,
    BOW,
    FIREBOLT,
    SWORD,
    Table,
    sheet,
    weapon,
)

BRENNA = sheet(
    might=4, grace=1, vigor=3, aether=0, melee=4, evasion=1, guard=2, weapons=[SWORD, BOW]
)
ORC = sheet(
    might=3,
    grace=2,
    vigor=2,
    aether=1,
    melee=2,
    evasion=3,
    guard=3,
    abjuration=2,
    health=20,
    weapons=[AXE],
)
MAGE = sheet(might=1, grace=2, vigor=1, aether=4, abjuration=3, spells=[FIREBOLT])


def blanks(n: int) -> list[int]:
    return [2] * n


def terms(pool: dict[str, Any]) -> dict[str, int]:
    return {t["term"]: t["dice"] for t in pool["terms"]}


@pytest.fixture
def table() -> Table:
    table = Table()
    table.enrol("brenna", BRENNA)
    table.enrol("orc", ORC)
    table.enrol("mage", MAGE)
    table.start(("brenna", "pcs", 1), ("mage", "pcs", 2), ("orc", "foes", 1))
    return table


def test_a_blade_rolls_might_and_melee(table: Table) -> None:
    record = table.act(
        "attack",
        "brenna",
        target="orc",
        weapon="sword",
        dice={
            "attack": [6, 6, 5, 1, 2, 3, 4, 4],
            "defense.orc.evasion": [5, 2],
            "defense.orc.guard": [2, 3],
        },
    )
    attack = record["breakdown"]["attack"]
    assert terms(attack["pool"]) == {
        "might": 4,
        "melee": 4,
        "effort": 0,
        "exhaustion": 0,
        "wounded": 0,
    }
    assert attack["pool"]["dice"] == 8 and attack["total"] == 3
    assert record["breakdown"]["margin"] == {"attack": 3, "defenses": [1, 0], "value": 2}
    assert record["breakdown"]["damage"]["final"] == 4  # sword: 2 + 1 x 2
    assert table.health("orc") == 16
    assert record["summary"] == (
        "brenna attacks with sword at orc: 3 against 1, margin 2; orc takes 4 (health 20 -> 16)"
    )


def test_a_strong_melee_character_with_a_bow_rolls_grace_and_marksmanship(table: Table) -> None:
    # Brenna has Might 4 and Melee 4, and none of it is about bows.
    record = table.act(
        "attack",
        "brenna",
        target="orc",
        weapon="bow",
        dice={
            "attack": [6],
            "defense.orc.evasion": [1, 2],
            "defense.orc.guard": [3, 4],
        },
    )
    attack = record["breakdown"]["attack"]
    assert terms(attack["pool"]) == {
        "grace": 1,
        "marksmanship": 0,
        "effort": 0,
        "exhaustion": 0,
        "wounded": 0,
    }
    assert table.rolls(record)["attack"] == [6]
    assert record["breakdown"]["damage"]["final"] == 2  # bow: 1 + 1 x 1
    assert record["breakdown"]["ammunition"] == {"weapon": "bow", "before": 5, "after": 4}
    assert table.state("brenna")["ammunition"] == {"bow": 4}


def test_might_adds_dice_and_no_damage() -> None:
    table = Table()
    table.enrol("weakling", sheet(might=1, melee=3, weapons=[SWORD]))
    table.enrol("strongman", sheet(might=6, melee=0, weapons=[SWORD]))
    table.enrol("dummy", sheet(grace=1, vigor=1, health=40))
    table.start(("weakling", "a", 1), ("strongman", "a", 1), ("dummy", "b", 1))
    blank_defense = {"defense.dummy.evasion": [3], "defense.dummy.guard": [3]}
    weak = table.act(
        "attack",
        "weakling",
        target="dummy",
        weapon="sword",
        dice={"attack": [6, 6, 1, 1], **blank_defense},
    )
    strong = table.act(
        "attack",
        "strongman",
        target="dummy",
        weapon="sword",
        dice={"attack": [6, 6, 1, 1, 2, 3], **blank_defense},
    )
    assert weak["breakdown"]["attack"]["pool"]["dice"] == 4
    assert strong["breakdown"]["attack"]["pool"]["dice"] == 6  # more dice...
    same_blow = {k: v for k, v in weak["breakdown"]["damage"].items() if k != "health"}
    assert same_blow == {k: v for k, v in strong["breakdown"]["damage"].items() if k != "health"}
    assert weak["breakdown"]["damage"]["final"] == strong["breakdown"]["damage"]["final"] == 4
    assert "might" not in json.dumps(strong["breakdown"]["damage"])


def test_effort_adds_dice_to_the_attack_and_each_die_costs_a_fatigue(table: Table) -> None:
    record = table.act(
        "attack",
        "brenna",
        target="orc",
        weapon="sword",
        effort=2,
        dice={
            "attack": blanks(10),
            "defense.orc.evasion": blanks(2),
            "defense.orc.guard": blanks(2),
        },
    )
    assert terms(record["breakdown"]["attack"]["pool"])["effort"] == 2
    assert record["breakdown"]["attack"]["pool"]["dice"] == 10
    assert record["breakdown"]["effort"] == {"dice": 2, "fatigue": {"before": 0, "after": 2}}
    assert table.state("brenna")["fatigue"] == 2


def test_exhaustion_takes_a_die_for_every_two_fatigue(table: Table) -> None:
    sizes = []
    for effort in (3, 0, 3, 0):
        pool = 8 + effort - table.state("brenna")["fatigue"] // 2
        record = table.act(
            "attack",
            "brenna",
            target="orc",
            weapon="sword",
            effort=effort,
            dice={
                "attack": blanks(pool),
                "defense.orc.evasion": blanks(2),
                "defense.orc.guard": blanks(2),
            },
        )
        attack_terms = terms(record["breakdown"]["attack"]["pool"])
        sizes.append((attack_terms["exhaustion"], record["breakdown"]["attack"]["pool"]["dice"]))
        table.next_round()
    # Fatigue 0, 3, 3, 6 before each attack: exhaustion 0, 1, 1, 3.
    assert sizes == [(0, 11), (-1, 7), (-1, 10), (-3, 5)]
    assert table.state("brenna")["fatigue"] == 6


def test_exhaustion_counts_with_the_option_value() -> None:
    table = Table({"fatigue_per_exhaustion_die": 3, "fatigue_per_effort_die": 2})
    table.enrol("brenna", BRENNA)
    table.enrol("orc", ORC)
    table.start(("brenna", "pcs", 1), ("orc", "foes", 1))
    quiet = {"defense.orc.evasion": blanks(2), "defense.orc.guard": blanks(2)}
    table.act(
        "attack",
        "brenna",
        target="orc",
        weapon="sword",
        effort=2,
        dice={"attack": blanks(10), **quiet},
    )
    assert table.state("brenna")["fatigue"] == 4
    table.next_round()
    record = table.act(
        "attack", "brenna", target="orc", weapon="sword", dice={"attack": blanks(7), **quiet}
    )
    assert terms(record["breakdown"]["attack"]["pool"])["exhaustion"] == -1  # 4 // 3


def test_a_wounded_character_loses_a_die_on_attacks(table: Table) -> None:
    hurt = table.act(
        "attack",
        "orc",
        target="brenna",
        weapon="axe",
        dice={
            "attack": [6, 6, 6, 6, 1],
            "defense.brenna.evasion": [2],
            "defense.brenna.guard": [2, 3, 4],
        },
    )
    assert hurt["breakdown"]["damage"]["final"] == 9  # axe: 1 + 2 x 4
    assert table.health("brenna") == 7  # 7 <= 16 / 2
    assert table.conditions("brenna") == ("wounded",)
    assert hurt["conditions"][table.ids["brenna"]] == {"before": [], "after": ["wounded"]}
    record = table.act(
        "attack",
        "brenna",
        target="orc",
        weapon="sword",
        dice={
            "attack": blanks(7),
            "defense.orc.evasion": blanks(2),
            "defense.orc.guard": blanks(2),
        },
    )
    assert terms(record["breakdown"]["attack"]["pool"])["wounded"] == -1
    assert record["breakdown"]["attack"]["pool"]["dice"] == 7


def test_a_spell_is_cast_with_the_attribute_and_skill_it_names(table: Table) -> None:
    record = table.act(
        "cast",
        "mage",
        target="orc",
        spell="firebolt",
        effort=1,
        dice={
            "attack": [6, 5, 5, 1, 2, 2, 3, 4],
            "defense.orc.evasion": [2, 2],
            "defense.orc.guard": [2, 2],
            "defense.orc.abjuration": [6],
        },
    )
    assert terms(record["breakdown"]["attack"]["pool"]) == {
        "aether": 4,
        "abjuration": 3,
        "effort": 1,
        "exhaustion": 0,
        "wounded": 0,
    }
    assert record["breakdown"]["margin"]["value"] == 2
    assert record["breakdown"]["damage"]["final"] == 4  # firebolt: 2 + 1 x 2, fire ignores armor
    assert record["summary"].startswith("mage casts firebolt at orc")


# -- nature and armor through the table ---------------------------------------------


def test_immunity_deals_exactly_zero() -> None:
    table = Table()
    table.enrol("brenna", BRENNA)
    table.enrol("skeleton", sheet(grace=1, vigor=1, nature={"slash": "immune"}))
    table.start(("brenna", "pcs", 1), ("skeleton", "foes", 1))
    record = table.act(
        "attack",
        "brenna",
        target="skeleton",
        weapon="sword",
        dice={
            "attack": [6, 6, 6, 6, 6, 6, 6, 6],
            "defense.skeleton.evasion": [1],
            "defense.skeleton.guard": [2],
        },
    )
    damage = record["breakdown"]["damage"]
    assert record["breakdown"]["margin"]["value"] == 9
    assert damage["nature"] == {
        "damage_type": "slash",
        "nature": "immune",
        "multiplier": "0",
        "damage": "0",
    }
    assert damage["exact"] == "0" and damage["final"] == 0
    assert table.health("skeleton") == 12


def test_plate_does_nothing_against_fire() -> None:
    table = Table()
    table.enrol("mage", MAGE)
    plate = [{"name": "full plate", "rating": 9}, {"name": "great helm", "rating": 2}]
    table.enrol("knight", sheet(grace=1, vigor=1, aether=1, armor=plate))
    table.enrol("peasant", sheet(grace=1, vigor=1, aether=1))
    table.start(("mage", "pcs", 1), ("knight", "foes", 1), ("peasant", "foes", 1))
    results = []
    for victim in ("knight", "peasant"):
        record = table.act(
            "cast",
            "mage",
            target=victim,
            spell="firebolt",
            dice={
                "attack": [6, 6, 6, 1, 1, 1, 2],
                f"defense.{victim}.evasion": [2],
                f"defense.{victim}.guard": [2],
                f"defense.{victim}.abjuration": [2],
            },
        )
        results.append(record["breakdown"]["damage"])
        table.next_round()
    knight, peasant = results
    assert knight["armor"] == {"rating": 11, "physical": False, "multiplier": "1", "damage": "5"}
    assert knight["final"] == peasant["final"] == 5


def test_a_shield_on_the_arm_counts_as_armor() -> None:
    table = Table()
    table.enrol("brenna", BRENNA)
    table.enrol(
        "shieldbearer",
        sheet(
            grace=1,
            vigor=1,
            armor=[
                {"name": "round shield", "rating": 2, "shield": True},
                {"name": "leather", "rating": 1},
            ],
        ),
    )
    table.start(("brenna", "pcs", 1), ("shieldbearer", "foes", 1))
    record = table.act(
        "attack",
        "brenna",
        target="shieldbearer",
        weapon="sword",
        dice={
            "attack": [6, 6, 6, 6, 1, 1, 1, 1],
            "defense.shieldbearer.evasion": [2],
            "defense.shieldbearer.guard": [2],
        },
    )
    damage = record["breakdown"]["damage"]
    assert damage["armor"]["rating"] == 3
    assert damage["armor"]["multiplier"] == "729/1000"
    assert damage["exact"] == "2187/500"  # 6 x 0.729 = 4.374
    assert damage["final"] == 4


def test_fists_are_always_at_hand() -> None:
    table = Table()
    table.enrol("monk", sheet(might=3, melee=1))
    table.enrol("orc", ORC)
    table.start(("monk", "pcs", 1), ("orc", "foes", 1))
    record = table.act(
        "attack",
        "monk",
        target="orc",
        dice={
            "attack": [6, 6, 6, 1],
            "defense.orc.evasion": blanks(2),
            "defense.orc.guard": blanks(2),
        },
    )
    assert record["breakdown"]["weapon"]["name"] == "fists"
    assert record["breakdown"]["weapon"]["damage_type"] == "blunt"
    assert record["breakdown"]["damage"]["final"] == 3  # 0 + 1 x 3


def test_a_weapon_s_damage_per_margin_is_the_steel_s_business() -> None:
    table = Table()
    table.enrol(
        "duelist",
        sheet(
            might=3,
            melee=3,
            weapons=[SWORD, weapon("estoc", "might", "melee", "melee", 2, 3, "pierce")],
        ),
    )
    table.enrol("orc", ORC)
    table.start(("duelist", "pcs", 1), ("orc", "foes", 1))
    strong_roll = {
        "attack": [6, 6, 6, 6, 1, 1],
        "defense.orc.evasion": blanks(2),
        "defense.orc.guard": blanks(2),
    }
    sword = table.act("attack", "duelist", target="orc", weapon="sword", dice=strong_roll)
    table.next_round()
    estoc = table.act("attack", "duelist", target="orc", weapon="estoc", dice=strong_roll)
    assert sword["breakdown"]["damage"]["final"] == 6  # 2 + 1 x 4
    assert estoc["breakdown"]["damage"]["final"] == 14  # 2 + 3 x 4


def test_the_record_is_json_native_all_the_way_down(table: Table) -> None:
    record = table.act(
        "attack",
        "brenna",
        target="orc",
        weapon="sword",
        dice={
            "attack": [6, 6, 6, 1, 1, 1, 1, 1],
            "defense.orc.evasion": [5, 1],
            "defense.orc.guard": [2, 2],
        },
    )

    def check(value: Any) -> None:
        if isinstance(value, dict):
            assert all(isinstance(k, str) for k in value)
            for item in value.values():
                check(item)
        elif isinstance(value, list):
            for item in value:
                check(item)
        else:
            assert value is None or type(value) in (str, int, bool), value

    check(record["breakdown"])
    check(table.state("brenna"))
    assert json.loads(json.dumps(record["breakdown"])) == record["breakdown"]
