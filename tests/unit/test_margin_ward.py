"""The Dwarf's Ward (M13): a backstop behind the ally's own defense, never a reason to land."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import ActionRefused
from tests.unit.test_margin_table import BOW, FIREBOLT, SPEAR, SWORD, Table, sheet

RAIDER = sheet(might=3, grace=2, melee=2, weapons=[SWORD, SPEAR, BOW])  # 5 dice, bow 2
THRAIN = sheet(
    race="dwarf",
    grace=1,
    vigor=3,
    aether=1,
    evasion=1,
    guard=3,
    luck=0,
    armor=[{"name": "mail", "rating": 4}],
)  # health 16
ALLY = sheet(grace=2, vigor=2, health=20)


def blanks(n: int) -> list[int]:
    return [2] * n


def ward_rolls(table: Table, record: dict[str, Any]) -> dict[str, list[int]]:
    return {k: v for k, v in table.rolls(record).items() if k.startswith("ward.")}


@pytest.fixture
def table() -> Table:
    table = Table()
    for name in ("o1", "o2", "o3"):
        table.enrol(name, RAIDER)
    table.enrol("mage", sheet(aether=4, abjuration=3, spells=[FIREBOLT]))
    table.enrol("thrain", THRAIN)
    table.enrol("ally", ALLY)
    table.enrol("rear", ALLY)
    table.start(
        ("o1", "horde", 1),
        ("o2", "horde", 1),
        ("o3", "horde", 1),
        ("mage", "horde", 2),
        ("thrain", "keep", 1),
        ("ally", "keep", 1),
        ("rear", "keep", 2),
    )
    return table


def hit_ally(
    table: Table, attacker: str, attack: list[int], ally: list[int] | None = None, **ward: list[int]
) -> dict[str, Any]:
    dice = {
        "attack": attack,
        "defense.ally.evasion": ally or blanks(2),
        "defense.ally.guard": blanks(2),
    }
    dice.update({f"ward.thrain.{defense}": faces for defense, faces in ward.items()})
    return table.act("attack", attacker, target="ally", weapon="sword", dice=dice)


def test_only_a_dwarf_can_ward(table: Table) -> None:
    message = table.refused(ActionRefused, "ward", "ally")
    assert message == "only a dwarf can ward; ally is a human"


def test_the_ward_covers_allies_at_his_rank_or_behind(table: Table) -> None:
    record = table.act("ward", "thrain", effort=1)
    assert record["breakdown"]["covers"] == [table.ids["ally"], table.ids["rear"]]
    assert record["breakdown"]["posture"]["kind"] == "ward"
    assert table.state("thrain")["fatigue"] == 1


def test_the_ally_defends_first_and_a_turned_blow_never_reaches_the_dwarf(table: Table) -> None:
    table.act("ward", "thrain", effort=1)
    record = hit_ally(table, "o1", [6, 1, 1, 1, 2], ally=[5, 2])
    assert record["breakdown"]["margin"]["value"] == 0
    assert ward_rolls(table, record) == {}
    assert record["breakdown"]["ward"] is None


def test_the_dwarf_may_stop_it_dead(table: Table) -> None:
    table.act("ward", "thrain", effort=1)
    record = hit_ally(table, "o1", [6, 6, 6, 1, 1], evasion=[6, 2, 2], guard=[6, 6, 2, 2, 2, 2, 2])
    ward = record["breakdown"]["ward"]
    assert ward["margin_before"] == 3
    # Grace 1 + Evasion 1 + effort 1, and Vigor 3 + Guard 3 + effort 1: both active.
    assert [(r["defense"], r["mode"], r["pool"]["dice"]) for r in ward["rolls"]] == [
        ("evasion", "active", 3),
        ("guard", "active", 7),
    ]
    assert ward["totals"] == [1, 2] and ward["remaining"] == 0 and ward["stopped"] is True
    assert record["breakdown"]["damage"] is None
    assert (table.health("ally"), table.health("thrain")) == (20, 16)
    assert record["summary"].endswith("thrain intercepts and stops the blow dead")


def test_what_is_still_coming_he_takes_through_his_own_armor(table: Table) -> None:
    table.act("ward", "thrain", effort=1)
    record = hit_ally(table, "o1", [6, 6, 6, 1, 1], evasion=[2, 2, 2], guard=[6, 2, 2, 2, 2, 2, 2])
    assert record["breakdown"]["ward"]["remaining"] == 2
    damage = record["breakdown"]["damage"]
    assert damage["to"] == table.ids["thrain"]
    assert damage["margin"] == 2
    assert damage["armor"] == {
        "rating": 4,
        "physical": True,
        "multiplier": "6561/10000",
        "damage": "6561/2500",
    }  # 4 x 0.6561 = 2.6244
    assert damage["final"] == 3
    assert (table.health("ally"), table.health("thrain")) == (20, 13)


def test_and_through_his_own_nature() -> None:
    table = Table()
    table.enrol("mage", sheet(aether=4, abjuration=3, spells=[FIREBOLT]))
    table.enrol("thrain", {**THRAIN, "nature": {"fire": "weak"}})
    table.enrol("ally", {**ALLY, "nature": {"fire": "immune"}})
    table.start(("mage", "horde", 1), ("thrain", "keep", 1), ("ally", "keep", 1))
    table.act("ward", "thrain")
    record = table.act(
        "cast",
        "mage",
        target="ally",
        spell="firebolt",
        dice={
            "attack": [6, 6, 1, 1, 1, 1, 2],
            "defense.ally.evasion": blanks(2),
            "defense.ally.guard": blanks(2),
            "defense.ally.abjuration": blanks(2),
            "ward.thrain.evasion": blanks(2),
            "ward.thrain.guard": blanks(6),
            "ward.thrain.abjuration": blanks(1),
        },
    )
    damage = record["breakdown"]["damage"]
    assert damage["to"] == table.ids["thrain"]
    # Firebolt 2 + 1 x 2 = 4, doubled by his weakness; his mail does nothing against fire.
    assert damage["nature"]["multiplier"] == "2" and damage["armor"]["multiplier"] == "1"
    assert damage["final"] == 8
    assert table.health("thrain") == 8


def test_a_fumbled_interception_never_makes_the_blow_worse(table: Table) -> None:
    table.act("ward", "thrain", effort=1)
    record = hit_ally(table, "o1", [6, 1, 1, 1, 2], evasion=[1, 1, 1], guard=[1, 1, 1, 1, 1, 1, 1])
    ward = record["breakdown"]["ward"]
    assert [r["total"] for r in ward["rolls"]] == [-1, -1]
    assert ward["totals"] == [0, 0]  # a Dwarf who failed to get there, not one who helped
    assert ward["margin_before"] == ward["remaining"] == 1
    assert record["breakdown"]["damage"]["margin"] == 1


def test_he_intercepts_every_blow_that_gets_through(table: Table) -> None:
    table.act("ward", "thrain")
    for attacker in ("o1", "o2", "o3"):
        record = hit_ally(
            table, attacker, [6, 6, 6, 1, 1], evasion=[6, 2], guard=[6, 6, 2, 2, 2, 2]
        )
        assert record["breakdown"]["ward"]["stopped"] is True
    assert table.health("ally") == 20


def test_the_front_most_warding_dwarf_intercepts() -> None:
    table = Table()
    table.enrol("o1", RAIDER)
    table.enrol("durin", THRAIN)
    table.enrol("thrain", THRAIN)
    table.enrol("ally", ALLY)
    table.start(
        ("o1", "horde", 1), ("durin", "keep", 2), ("thrain", "keep", 1), ("ally", "keep", 2)
    )
    table.act("ward", "durin")
    table.act("ward", "thrain")
    record = table.act(
        "attack",
        "o1",
        target="ally",
        weapon="spear",
        dice={
            "attack": [6, 6, 1, 1, 1],
            "defense.ally.evasion": blanks(2),
            "defense.ally.guard": blanks(2),
            "ward.thrain.evasion": blanks(2),
            "ward.thrain.guard": blanks(6),
        },
    )
    ward = record["breakdown"]["ward"]
    assert ward["dwarf"] == table.ids["thrain"]
    assert [c["covers"] for c in ward["considered"]] == [True, True]


def test_never_someone_standing_further_forward() -> None:
    table = Table()
    table.enrol("o1", RAIDER)
    table.enrol("thrain", THRAIN)
    table.enrol("vanguard", ALLY)
    table.enrol("rear", ALLY)
    table.start(
        ("o1", "horde", 1), ("thrain", "keep", 2), ("vanguard", "keep", 1), ("rear", "keep", 3)
    )
    table.act("ward", "thrain")
    front = table.act(
        "attack",
        "o1",
        target="vanguard",
        weapon="sword",
        dice={
            "attack": [6, 6, 1, 1, 1],
            "defense.vanguard.evasion": blanks(2),
            "defense.vanguard.guard": blanks(2),
        },
    )
    assert front["breakdown"]["ward"] == {
        "dwarf": None,
        "considered": [
            {
                "dwarf": table.ids["thrain"],
                "covers": False,
                "why": "thrain stands at rank 2, behind vanguard at rank 1",
            }
        ],
    }
    assert table.health("vanguard") == 16
    table.next_round()
    table.act("ward", "thrain")
    behind = table.act(
        "attack",
        "o1",
        target="rear",
        weapon="bow",
        dice={
            "attack": [6, 6],
            "defense.rear.evasion": blanks(2),
            "defense.rear.guard": blanks(2),
            "ward.thrain.evasion": [6, 6],
            "ward.thrain.guard": blanks(6),
        },
    )
    assert behind["breakdown"]["ward"]["stopped"] is True


def test_the_warding_dwarf_defends_himself_actively(table: Table) -> None:
    table.act("ward", "thrain", effort=2)
    record = table.act(
        "attack",
        "o1",
        target="thrain",
        weapon="sword",
        dice={
            "attack": blanks(5),
            "defense.thrain.evasion": blanks(4),
            "defense.thrain.guard": blanks(8),
        },
    )
    modes = [(r["mode"], r["pool"]["dice"]) for r in record["breakdown"]["defense"]["rolls"]]
    assert modes == [("active", 4), ("active", 8)]
    assert "ward." not in str(table.rolls(record))


def test_the_ward_ends_with_the_round(table: Table) -> None:
    table.act("ward", "thrain")
    table.next_round()
    record = hit_ally(table, "o1", [6, 6, 6, 1, 1])
    assert record["breakdown"]["ward"] is None
    assert table.health("ally") == 15


def test_a_dwarf_who_is_down_intercepts_nothing(table: Table) -> None:
    table.act("ward", "thrain")
    for attacker in ("o1", "o3"):  # 5 each: 2 + 1 x 5 through his mail, 4.59 -> 5
        table.act(
            "attack",
            attacker,
            target="thrain",
            weapon="sword",
            dice={
                "attack": [6, 6, 6, 6, 6],
                "defense.thrain.evasion": blanks(2),
                "defense.thrain.guard": blanks(6),
            },
        )
    assert table.conditions("thrain") == ("wounded",)  # 6 of 16: a die off each active roll
    table.act(
        "cast",
        "mage",
        target="thrain",
        spell="firebolt",
        dice={
            "attack": [6, 6, 6, 6, 6, 6, 6],
            "defense.thrain.evasion": blanks(1),
            "defense.thrain.guard": blanks(5),
            "defense.thrain.abjuration": blanks(1),
        },
    )
    assert table.health("thrain") == -3 and "down" in table.conditions("thrain")
    record = hit_ally(table, "o2", [6, 6, 6, 1, 1])
    assert record["breakdown"]["ward"] is None
    assert table.health("ally") == 15


def test_the_dwarf_s_luck_backs_his_interception() -> None:
    table = Table()
    table.enrol("o1", RAIDER)
    table.enrol("thrain", {**THRAIN, "luck": 1})
    table.enrol("ally", ALLY)
    table.start(("o1", "horde", 1), ("thrain", "keep", 1), ("ally", "keep", 1))
    table.act("ward", "thrain")
    record = table.act(
        "attack",
        "o1",
        target="ally",
        weapon="sword",
        dice={
            "attack": [6, 6, 1, 1, 1],
            "defense.ally.evasion": blanks(2),
            "defense.ally.guard": blanks(2),
            "ward.thrain.evasion": blanks(2),
            "ward.thrain.evasion.luck": [6, 6],
            "ward.thrain.guard": [6, 2, 2, 2, 2, 2],
        },
    )
    assert record["breakdown"]["ward"]["totals"] == [2, 1]
    assert record["breakdown"]["ward"]["stopped"] is True
    assert table.state("thrain")["luck"] == 0
