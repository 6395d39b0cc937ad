"""More of seed 000 through HTTP: effort on every defense, Might, margin 0, nature, armor."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.integration.test_margin_api import FIREBOLT, SWORD, Fight, blanks, sheet

MAUL = {**SWORD, "name": "maul", "base_damage": 10, "per_margin": 5, "damage_type": "blunt"}


def test_effort_dice_join_each_defense_roll_not_split(client: TestClient) -> None:
    fight = Fight(
        client,
        ("mage", sheet(aether=4, abjuration=3, spells=[FIREBOLT]), "a", 1),
        ("guardian", sheet(evasion=2, guard=2, abjuration=1, health=30), "b", 1),
    )
    fight.act("defend", "guardian", effort=2)
    result = fight.act(
        "cast",
        "mage",
        fight.dice(
            attack=blanks(7),
            defense__guardian__evasion=blanks(6),
            defense__guardian__guard=blanks(6),
            defense__guardian__abjuration=blanks(5),
        ),
        target="guardian",
        spell="firebolt",
    )
    rolls = result["action"]["breakdown"]["defense"]["rolls"]
    assert [(r["defense"], r["mode"], r["pool"]["dice"]) for r in rolls] == [
        ("evasion", "active", 6),
        ("guard", "active", 6),
        ("abjuration", "active", 5),
    ]


def test_might_adds_dice_and_no_damage(client: TestClient) -> None:
    fight = Fight(
        client,
        ("weakling", sheet(might=1, melee=3, weapons=[SWORD]), "a", 1),
        ("strongman", sheet(might=6, melee=0, weapons=[SWORD]), "a", 1),
        ("dummy", sheet(grace=1, vigor=1, health=40), "b", 1),
    )
    blank = {"defense__dummy__evasion": [3], "defense__dummy__guard": [3]}
    weak = fight.act(
        "attack",
        "weakling",
        fight.dice(attack=[6, 6, 1, 1], **blank),
        target="dummy",
        weapon="sword",
    )
    strong = fight.act(
        "attack",
        "strongman",
        fight.dice(attack=[6, 6, 1, 1, 2, 3], **blank),
        target="dummy",
        weapon="sword",
    )
    assert weak["action"]["breakdown"]["attack"]["pool"]["dice"] == 4
    assert strong["action"]["breakdown"]["attack"]["pool"]["dice"] == 6
    assert weak["action"]["breakdown"]["damage"]["final"] == 4
    assert strong["action"]["breakdown"]["damage"]["final"] == 4
    assert fight.health(strong, "dummy") == 32


def test_a_margin_of_zero_deals_nothing_of_any_kind(client: TestClient) -> None:
    fight = Fight(
        client,
        ("brute", sheet(might=3, melee=2, weapons=[MAUL]), "a", 1),
        ("target", sheet(grace=2, vigor=2, nature={"blunt": "weak"}), "b", 1),
    )
    result = fight.act(
        "attack",
        "brute",
        fight.dice(
            attack=[6, 6, 2, 2, 2], defense__target__evasion=[5, 2], defense__target__guard=[2, 6]
        ),
        target="target",
        weapon="maul",
    )
    breakdown = result["action"]["breakdown"]
    assert breakdown["margin"]["value"] == 0
    assert breakdown["damage"] is None
    assert fight.health(result, "target") == 14


def test_immunity_deals_exactly_zero(client: TestClient) -> None:
    fight = Fight(
        client,
        ("brenna", sheet(might=4, melee=4, weapons=[SWORD]), "a", 1),
        ("skeleton", sheet(grace=1, vigor=1, nature={"slash": "immune"}), "b", 1),
    )
    result = fight.act(
        "attack",
        "brenna",
        fight.dice(attack=[6] * 8, defense__skeleton__evasion=[1], defense__skeleton__guard=[2]),
        target="skeleton",
        weapon="sword",
    )
    damage = result["action"]["breakdown"]["damage"]
    assert (damage["exact"], damage["final"]) == ("0", 0)
    assert fight.health(result, "skeleton") == 12


def test_plate_does_nothing_against_fire_and_a_shield_counts_as_armor(
    client: TestClient,
) -> None:
    plate = [{"name": "full plate", "rating": 9}, {"name": "great helm", "rating": 2}]
    shield = [
        {"name": "round shield", "rating": 2, "shield": True},
        {"name": "leather", "rating": 1},
    ]
    fight = Fight(
        client,
        ("mage", sheet(aether=4, abjuration=3, spells=[FIREBOLT]), "a", 1),
        ("brenna", sheet(might=4, melee=4, weapons=[SWORD]), "a", 1),
        ("knight", sheet(grace=1, vigor=1, aether=1, armor=plate), "b", 1),
        ("bearer", sheet(grace=1, vigor=1, armor=shield), "b", 1),
    )
    fire = fight.act(
        "cast",
        "mage",
        fight.dice(
            attack=[6, 6, 6, 1, 1, 1, 2],
            defense__knight__evasion=[2],
            defense__knight__guard=[2],
            defense__knight__abjuration=[2],
        ),
        target="knight",
        spell="firebolt",
    )
    assert fire["action"]["breakdown"]["damage"]["armor"] == {
        "rating": 11,
        "physical": False,
        "multiplier": "1",
        "damage": "5",
    }
    assert fire["action"]["breakdown"]["damage"]["final"] == 5
    blade = fight.act(
        "attack",
        "brenna",
        fight.dice(
            attack=[6, 6, 6, 6, 1, 1, 1, 1],
            defense__bearer__evasion=[2],
            defense__bearer__guard=[2],
        ),
        target="bearer",
        weapon="sword",
    )
    damage = blade["action"]["breakdown"]["damage"]
    assert (damage["armor"]["rating"], damage["armor"]["multiplier"]) == (3, "729/1000")
    assert (damage["exact"], damage["final"]) == ("2187/500", 4)
