"""Defending in margin: every allowed defense at once, passive and active, Defend's
posture for the whole round, luck's second look, below nothing, and margin 0."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.test_margin_table import FIREBOLT, SWORD, Table, sheet, weapon

RAIDER = sheet(might=3, melee=2, weapons=[SWORD])  # 5 attack dice with the sword
GUARDIAN = sheet(grace=2, vigor=2, aether=1, evasion=2, guard=2, abjuration=1, health=30)
MAGE = sheet(aether=4, abjuration=3, spells=[FIREBOLT])


def blanks(n: int) -> list[int]:
    return [2] * n


def pools(record: dict[str, Any]) -> dict[str, tuple[str, dict[str, int], int]]:
    """Each defense the target rolled: (mode, terms, dice)."""
    return {
        r["defense"]: (
            r["mode"],
            {t["term"]: t["dice"] for t in r["pool"]["terms"]},
            r["pool"]["dice"],
        )
        for r in record["breakdown"]["defense"]["rolls"]
    }


@pytest.fixture
def table() -> Table:
    table = Table()
    for name in ("a1", "a2", "a3", "a4"):
        table.enrol(name, RAIDER)
    table.enrol("mage", MAGE)
    table.enrol("guardian", GUARDIAN)
    table.start(
        ("a1", "raiders", 1),
        ("a2", "raiders", 1),
        ("a3", "raiders", 1),
        ("a4", "raiders", 1),
        ("mage", "raiders", 2),
        ("guardian", "keep", 1),
    )
    return table


def sword_at_guardian(
    table: Table, attacker: str, attack: list[int], evasion: list[int], guard: list[int]
) -> dict[str, Any]:
    return table.act(
        "attack",
        attacker,
        target="guardian",
        weapon="sword",
        dice={
            "attack": attack,
            "defense.guardian.evasion": evasion,
            "defense.guardian.guard": guard,
        },
    )


def test_passive_defense_rolls_the_bare_attribute_for_every_allowed_defense(table: Table) -> None:
    blade = sword_at_guardian(table, "a1", blanks(5), blanks(2), blanks(2))
    assert pools(blade) == {
        "evasion": ("passive", {"grace": 2}, 2),
        "guard": ("passive", {"vigor": 2}, 2),
    }
    spell = table.act(
        "cast",
        "mage",
        target="guardian",
        spell="firebolt",
        dice={
            "attack": blanks(7),
            "defense.guardian.evasion": blanks(2),
            "defense.guardian.guard": blanks(2),
            "defense.guardian.abjuration": blanks(1),
        },
    )
    assert pools(spell) == {
        "evasion": ("passive", {"grace": 2}, 2),
        "guard": ("passive", {"vigor": 2}, 2),
        "abjuration": ("passive", {"aether": 1}, 1),
    }
    assert "defends passively" in spell["breakdown"]["defense"]["why"]


def test_every_defense_the_attack_allows_subtracts_from_it(table: Table) -> None:
    record = sword_at_guardian(table, "a1", [6, 6, 6, 5, 1], [6, 1], [5, 2])
    assert record["breakdown"]["margin"] == {"attack": 4, "defenses": [1, 1], "value": 2}
    assert table.health("guardian") == 26  # sword: 2 + 1 x 2


def test_defend_rolls_every_allowed_defense_actively_with_effort_on_each(table: Table) -> None:
    declared = table.act("defend", "guardian", effort=2)
    assert declared["breakdown"]["posture"] == {
        "kind": "defend",
        "effort": 2,
        "round": 1,
        "weapon": None,
        "exhaustion": 0,
    }
    assert table.state("guardian")["fatigue"] == 2
    record = table.act(
        "cast",
        "mage",
        target="guardian",
        spell="firebolt",
        dice={
            "attack": blanks(7),
            "defense.guardian.evasion": blanks(6),
            "defense.guardian.guard": blanks(6),
            "defense.guardian.abjuration": blanks(4),
        },
    )
    # Two effort dice join each of the three rolls; they are not split between them.
    # Exhaustion is counted when the posture is taken, before its own effort is paid.
    assert pools(record) == {
        "evasion": (
            "active",
            {"grace": 2, "evasion": 2, "effort": 2, "exhaustion": 0, "wounded": 0},
            6,
        ),
        "guard": (
            "active",
            {"vigor": 2, "guard": 2, "effort": 2, "exhaustion": 0, "wounded": 0},
            6,
        ),
        "abjuration": (
            "active",
            {"aether": 1, "abjuration": 1, "effort": 2, "exhaustion": 0, "wounded": 0},
            4,
        ),
    }


def test_defend_blunts_four_attackers_in_one_round(table: Table) -> None:
    table.act("defend", "guardian", effort=1)
    first = sword_at_guardian(table, "a1", [6, 6, 6, 6, 6], [6, 5, 1, 2, 3], [6, 2, 2, 2, 2])
    second = sword_at_guardian(table, "a2", [6, 6, 6, 6, 6], [6, 5, 1, 2, 3], [6, 2, 2, 2, 2])
    # Hit twice already; the posture still covers the third and the fourth.
    third = sword_at_guardian(table, "a3", [6, 6, 6, 1, 1], [6, 5, 1, 2, 3], [6, 2, 2, 2, 2])
    fourth = sword_at_guardian(table, "a4", [6, 6, 6, 1, 1], [6, 5, 1, 2, 3], [6, 2, 2, 2, 2])
    for record in (first, second, third, fourth):
        assert pools(record) == {
            "evasion": (
                "active",
                {"grace": 2, "evasion": 2, "effort": 1, "exhaustion": 0, "wounded": 0},
                5,
            ),
            "guard": (
                "active",
                {"vigor": 2, "guard": 2, "effort": 1, "exhaustion": 0, "wounded": 0},
                5,
            ),
        }
        assert record["breakdown"]["defense"]["sum"] == 3
    assert [r["breakdown"]["margin"]["value"] for r in (first, second, third, fourth)] == [
        2,
        2,
        0,
        0,
    ]
    assert third["breakdown"]["damage"] is None and fourth["breakdown"]["damage"] is None
    assert table.health("guardian") == 22  # two blows of 4; one turn spent on Defend
    assert table.state("guardian")["fatigue"] == 1  # paid once, not per attacker


def test_an_attack_before_the_defend_meets_passive_defenses(table: Table) -> None:
    early = sword_at_guardian(table, "a1", blanks(5), blanks(2), blanks(2))
    table.act("defend", "guardian")
    late = sword_at_guardian(table, "a2", blanks(5), blanks(4), blanks(4))
    assert {mode for mode, _, _ in pools(early).values()} == {"passive"}
    assert {mode for mode, _, _ in pools(late).values()} == {"active"}


def test_the_posture_ends_with_the_round(table: Table) -> None:
    table.act("defend", "guardian", effort=1)
    table.next_round()
    record = sword_at_guardian(table, "a1", blanks(5), blanks(2), blanks(2))
    assert {mode for mode, _, _ in pools(record).values()} == {"passive"}
    assert record["breakdown"]["defense"]["posture"] is None


def test_a_below_nothing_defense_adds_to_the_attacker() -> None:
    table = Table()
    table.enrol("weakling", sheet(might=1, melee=0, weapons=[SWORD]))
    table.enrol("target", sheet(grace=2, vigor=2))
    table.start(("weakling", "a", 1), ("target", "b", 1))
    # A swing that was going nowhere (0 successes) lands because of a flinch (-1).
    record = table.act(
        "attack",
        "weakling",
        target="target",
        weapon="sword",
        dice={
            "attack": [3],
            "defense.target.evasion": [1, 1],
            "defense.target.guard": [2, 4],
        },
    )
    evasion = record["breakdown"]["defense"]["rolls"][0]
    assert evasion["first"]["below_nothing"] is True and evasion["total"] == -1
    assert record["breakdown"]["margin"] == {"attack": 0, "defenses": [-1, 0], "value": 1}
    assert record["breakdown"]["damage"]["final"] == 3
    assert table.health("target") == 11


def test_a_margin_of_zero_deals_nothing_of_any_kind() -> None:
    table = Table()
    maul = weapon("maul", "might", "melee", "melee", 10, 5, "blunt")
    table.enrol("brute", sheet(might=3, melee=2, weapons=[maul]))
    table.enrol("target", sheet(grace=2, vigor=2, nature={"blunt": "weak"}))
    table.start(("brute", "a", 1), ("target", "b", 1))
    record = table.act(
        "attack",
        "brute",
        target="target",
        weapon="maul",
        dice={
            "attack": [6, 6, 2, 2, 2],
            "defense.target.evasion": [5, 2],
            "defense.target.guard": [2, 6],
        },
    )
    assert record["breakdown"]["margin"]["value"] == 0
    assert record["breakdown"]["damage"] is None
    assert record["breakdown"]["ward"] is None and record["breakdown"]["riposte"] is None
    assert table.health("target") == 14
    assert record["summary"].endswith("the blow is turned: nothing happens, no damage of any kind")


def test_luck_gives_a_thin_passive_defense_its_second_look(table: Table) -> None:
    lucky = Table()
    lucky.enrol("a1", RAIDER)
    lucky.enrol("lucky", sheet(grace=2, vigor=2, luck=1))
    lucky.start(("a1", "a", 1), ("lucky", "b", 1))
    record = lucky.act(
        "attack",
        "a1",
        target="lucky",
        weapon="sword",
        dice={
            "attack": [6, 6, 6, 1, 1],
            "defense.lucky.evasion": [2, 3],
            "defense.lucky.evasion.luck": [5, 6],
            "defense.lucky.guard": [2, 2],
        },
    )
    evasion, guard = record["breakdown"]["defense"]["rolls"]
    assert evasion["first"]["total"] == 0
    assert evasion["luck"] == {
        "roll": f"defense.{lucky.ids['lucky']}.evasion.luck",
        "spent": 1,
        "faces": [5, 6],
        "successes": 2,
        "below_nothing": False,
        "total": 2,
    }
    assert guard["luck"] is None  # the one point is gone
    assert record["breakdown"]["luck_spent"] == {lucky.ids["lucky"]: 1}
    assert record["breakdown"]["margin"]["value"] == 1
    assert lucky.state("lucky")["luck"] == 0


def test_luck_gives_the_attacker_a_second_look_too() -> None:
    table = Table()
    table.enrol("a1", {**RAIDER, "luck": 2})
    table.enrol("target", sheet(grace=2, vigor=2))
    table.start(("a1", "a", 1), ("target", "b", 1))
    record = table.act(
        "attack",
        "a1",
        target="target",
        weapon="sword",
        dice={
            "attack": [2, 2, 2, 2, 2],
            "attack.luck": [6, 6, 1, 1, 1],
            "defense.target.evasion": blanks(2),
            "defense.target.guard": blanks(2),
        },
    )
    assert record["breakdown"]["attack"]["total"] == 2
    assert table.state("a1")["luck"] == 1


def test_an_active_defense_never_sinks_below_the_passive_floor() -> None:
    table = Table()
    table.enrol("a1", RAIDER)
    table.enrol("tired", sheet(grace=2, vigor=2))
    table.start(("a1", "a", 1), ("tired", "b", 1))
    for _ in range(2):
        table.act("defend", "tired", effort=3)
        table.next_round()
    assert table.state("tired")["fatigue"] == 6  # three exhaustion dice
    table.act("defend", "tired")
    record = table.act(
        "attack",
        "a1",
        target="tired",
        weapon="sword",
        dice={
            "attack": blanks(5),
            "defense.tired.evasion": blanks(2),
            "defense.tired.guard": blanks(2),
        },
    )
    evasion = record["breakdown"]["defense"]["rolls"][0]["pool"]
    assert evasion["sum"] == -1 and evasion["floor"] == 2
    assert evasion["floor_applied"] is True and evasion["dice"] == 2


def test_wounded_costs_a_die_on_active_defense_but_not_on_passive() -> None:
    table = Table()
    table.enrol("a1", RAIDER)
    table.enrol("a2", RAIDER)
    table.enrol("frail", sheet(grace=2, vigor=2, evasion=2, guard=2, health=4))
    table.start(("a1", "a", 1), ("a2", "a", 1), ("frail", "b", 1))
    quiet = {"defense.frail.evasion": blanks(2), "defense.frail.guard": blanks(2)}
    table.act(
        "attack", "a1", target="frail", weapon="sword", dice={"attack": [6, 1, 1, 1, 2], **quiet}
    )
    assert table.health("frail") == 1 and table.conditions("frail") == ("wounded",)
    passive = table.act(
        "attack", "a2", target="frail", weapon="sword", dice={"attack": blanks(5), **quiet}
    )
    assert pools(passive)["evasion"] == ("passive", {"grace": 2}, 2)
    table.next_round()
    table.act("defend", "frail")
    active = table.act(
        "attack",
        "a1",
        target="frail",
        weapon="sword",
        dice={
            "attack": blanks(5),
            "defense.frail.evasion": blanks(3),
            "defense.frail.guard": blanks(3),
        },
    )
    assert pools(active)["evasion"] == (
        "active",
        {"grace": 2, "evasion": 2, "effort": 0, "exhaustion": 0, "wounded": -1},
        3,
    )


def test_a_character_who_is_down_defends_passively_even_in_defend() -> None:
    table = Table()
    table.enrol("a1", RAIDER)
    table.enrol("a2", RAIDER)
    table.enrol("doomed", sheet(grace=2, vigor=2, evasion=2, guard=2, health=3))
    table.start(("a1", "a", 1), ("a2", "a", 1), ("doomed", "b", 1))
    table.act("defend", "doomed", effort=1)
    table.act(
        "attack",
        "a1",
        target="doomed",
        weapon="sword",
        dice={
            "attack": [6, 6, 6, 6, 6],
            "defense.doomed.evasion": blanks(5),
            "defense.doomed.guard": blanks(5),
        },
    )
    assert table.health("doomed") == -4 and "down" in table.conditions("doomed")
    record = table.act(
        "attack",
        "a2",
        target="doomed",
        weapon="sword",
        dice={
            "attack": blanks(5),
            "defense.doomed.evasion": blanks(2),
            "defense.doomed.guard": blanks(2),
        },
    )
    assert {mode for mode, _, _ in pools(record).values()} == {"passive"}
    assert record["breakdown"]["defense"]["why"] == (
        "doomed is down and defends passively: the bare attribute for every defense"
    )
