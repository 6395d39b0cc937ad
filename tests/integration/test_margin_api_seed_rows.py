"""Seed 000 sentences pinned over HTTP with the seed's own numbers (issue 27 item 3): a
defense below nothing adds to the attacker; the Ward never covers someone further forward;
the Ward intercepts every blow of the round that gets through.

Every expected number is worked from the seed and M1/M9/M10/M12/M13 here, never by the
project's code.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.integration.test_margin_api import BOW, SWORD, Fight, blanks, sheet

ORC = sheet(might=3, melee=2, weapons=[SWORD])  # attacks with 5 dice
ARCHER = sheet(grace=3, marksmanship=2, weapons=[BOW])  # shoots with 5 dice
# A dwarf: Ward rolls evasion 1 + 1 + effort 1 = 3 dice and guard 3 + 3 + 1 = 7 dice.
THRAIN = sheet(
    race="dwarf", grace=1, vigor=3, evasion=1, guard=3, armor=[{"name": "mail", "rating": 4}]
)  # health 10 + 2 x 3 = 16


def breakdown(result: dict[str, Any]) -> dict[str, Any]:
    return dict(result["action"]["breakdown"])


# -- M1/M9: "it adds to the attacker instead of subtracting" --------------------------------


def test_a_defense_below_nothing_lands_a_swing_that_was_going_nowhere(client: TestClient) -> None:
    fight = Fight(client, ("orc", ORC, "b", 1), ("ally", sheet(health=20), "a", 1))
    # The orc's five dice show no 5 or 6 but not all 1s: 0 successes, nothing on its own.
    # The ally defends passively with bare Grace (2 dice) and Vigor (2 dice): Grace shows
    # 1, 1 (every die a 1: -1, "below nothing"), Vigor 2, 2 (0).
    result = fight.act(
        "attack",
        "orc",
        fight.dice(attack=blanks(5), defense__ally__evasion=[1, 1], defense__ally__guard=blanks(2)),
        target="ally",
        weapon="sword",
    )
    b = breakdown(result)
    # Margin = 0 - (-1 + 0) = 1; damage = base 2 + 1 per margin x 1 = 3, no armor.
    assert b["margin"]["value"] == 1
    assert b["damage"]["final"] == 3
    assert fight.health(result, "ally") == 20 - 3


def test_two_defenses_below_nothing_add_two(client: TestClient) -> None:
    fight = Fight(client, ("orc", ORC, "b", 1), ("ally", sheet(health=20), "a", 1))
    result = fight.act(
        "attack",
        "orc",
        fight.dice(attack=blanks(5), defense__ally__evasion=[1, 1], defense__ally__guard=[1, 1]),
        target="ally",
        weapon="sword",
    )
    # Margin = 0 - (-1 + -1) = 2; damage = 2 + 1 x 2 = 4.
    assert breakdown(result)["margin"]["value"] == 2
    assert fight.health(result, "ally") == 20 - 4


# -- M13: "never someone standing further forward" ------------------------------------------


def shoot(fight: Fight, archer: str, target: str, **ward: list[int]) -> dict[str, Any]:
    """Three successes against a passive 0 + 0: margin 3 reaches the target's Ward, if any."""
    dice = fight.dice(
        attack=[6, 6, 6, 1, 2],
        **{f"defense__{target}__evasion": blanks(2), f"defense__{target}__guard": blanks(2)},
        **{f"ward__thrain__{pool}": faces for pool, faces in ward.items()},
    )
    return fight.act("attack", archer, dice, target=target, weapon="bow")


def test_the_ward_covers_its_rank_and_behind_never_further_forward(client: TestClient) -> None:
    fight = Fight(
        client,
        *[(f"archer{n}", ARCHER, "b", 1) for n in range(3)],
        ("front", sheet(health=20), "a", 1),
        ("thrain", THRAIN, "a", 2),
        ("beside", sheet(health=20), "a", 2),
        ("back", sheet(health=20), "a", 3),
    )
    fight.act("ward", "thrain", effort=1)
    # In front of the dwarf: no interception; the bow's 1 + 1 x 3 = 4 lands on the ally.
    front = shoot(fight, "archer0", "front")
    b = breakdown(front)
    assert b["ward"]["dwarf"] is None
    assert b["damage"]["to"] == fight.ids["front"]
    assert fight.health(front, "front") == 20 - 4
    # At his rank and behind him: he throws himself in the way. Evasion 5, 5, 2 (2) and
    # guard 6, 2, ... (1) take 3 off the margin of 3: the blow is stopped dead.
    for name, archer in (("beside", "archer1"), ("back", "archer2")):
        result = shoot(fight, archer, name, evasion=[5, 5, 2], guard=[6, 2, 2, 2, 2, 2, 2])
        b = breakdown(result)
        assert b["ward"]["dwarf"] == fight.ids["thrain"]
        assert (b["ward"]["remaining"], b["ward"]["stopped"]) == (0, True)
        assert b["damage"] is None
        assert fight.health(result, name) == 20
        assert fight.health(result, "thrain") == 16


# -- M13: "he does it for every blow that gets through, as many times as it takes" -------------


def test_the_ward_intercepts_every_blow_of_the_round(client: TestClient) -> None:
    fight = Fight(
        client,
        *[(f"archer{n}", ARCHER, "b", 1) for n in range(3)],
        ("thrain", THRAIN, "a", 1),
        ("ally", sheet(health=20), "a", 1),
    )
    fight.act("ward", "thrain", effort=1)
    health = []
    for n in range(3):
        # Each blow beats the ally (margin 3); the dwarf's evasion 2, 2, 2 (0) and guard
        # 6, 2, ... (1) leave 2: damage 1 + 1 x 2 = 3 pierce, through his mail 4:
        # 3 x 0.9 ** 4 = 1.9683 -> 2.
        result = shoot(fight, f"archer{n}", "ally", evasion=[2, 2, 2], guard=[6, 2, 2, 2, 2, 2, 2])
        b = breakdown(result)
        assert (b["ward"]["dwarf"], b["ward"]["remaining"]) == (fight.ids["thrain"], 2)
        assert b["damage"]["to"] == fight.ids["thrain"]
        assert b["damage"]["final"] == 2
        assert fight.health(result, "ally") == 20
        health.append(fight.health(result, "thrain"))
    assert health == [14, 12, 10]
