"""A hidden roll as the GM, a player and a viewer read it (RULINGS T3, T3a; issue 36):
one sentence of its outcome, built from parts (domain/reading/outcomes.py), in each ruleset, for
an attack and for another kind. The GM reads the record as written; the others read who
did what to whom, the outcome words, a PC's tracks as numbers and an NPC's descriptor,
and never the hidden roll's dice, totals, scores or the sheet values it was rolled
against. Before, they read a list: "Ogre attack: Bran; Bran: stamina 5, body 7".
"""

from __future__ import annotations

from typing import Any

from skald_campaign.domain.records import JSON
from tests.unit import scenes_d20 as d20
from tests.unit import scenes_margin as margin
from tests.unit import scenes_stamina_body as sb
from tests.unit.told_support import Read, Table


def others(table: Table, record: dict[str, JSON]) -> Read:
    """What a player and a viewer read (the same), and that they read one sentence."""
    reads = table.read(record)
    assert reads["player"] == reads["viewer"]
    summary, narrative = reads["player"]
    assert narrative == [summary]
    return reads["player"]


def test_stamina_body_a_hidden_attack_that_lands() -> None:
    t = sb.table("Bran", "Ogre")
    dice = {"hit": [1, 2, 3], "damage": [6, 5]}
    record = t.act("attack", "Ogre", dice, hidden=True, target="Bran", weapon="club",
                   defense="none")  # fmt: skip
    gm_summary, gm_lines = t.read(record)["gm"]
    assert gm_summary == (
        "Ogre hits: Bran takes 7 Stamina and 3 Body (7/3 raw); Bran gains: piercing wound"
    )
    assert gm_lines[0] == "Ogre's hit: 3d6 rolled 6 against club skill 17: success, hit score 11"
    assert others(t, record)[0] == (
        "Ogre attacks Bran with club and hits: Bran is at 5 Stamina and 7 Body; "
        "Bran gains: piercing wound"
    )


def test_stamina_body_a_hidden_attack_parried() -> None:
    t = sb.table("Bran", "Ogre")
    dice = {"hit": [4, 5, 6], "defense": [1, 1, 2]}
    record = t.act("attack", "Ogre", dice, hidden=True, target="Bran", weapon="club",
                   defense="parry")  # fmt: skip
    assert t.read(record)["gm"][0] == "Bran parried Ogre's blow"
    assert others(t, record)[0] == "Ogre attacks Bran with club: Bran parries the blow"


def hurt_ogre(**options: Any) -> Table:
    """The Ogre (Stamina 23, Body 21) took a hit: 13 Stamina and 20 Body."""
    t = sb.table("Bran", "Ogre", **options)
    t.act("take_hit", None, {"damage": [6, 6]}, target="Ogre", damage_type="impact",
          damage_class=2)  # fmt: skip
    return t


def test_stamina_body_a_hidden_recovery() -> None:
    t = hurt_ogre()
    record = t.act("recover", "Ogre", {"recovery": [1, 2, 3]}, hidden=True)
    assert t.read(record)["gm"] == (
        "Ogre recovers 5 Stamina",
        [
            "Ogre's recovery: 3d6 rolled 6 against CON 11: success, margin 5",
            "Success by 5: +max(1, 5)",
            "Ogre: Stamina 13 -> 18",
        ],
    )
    assert others(t, record)[0] == "Ogre rolls to recover: Ogre is hurt"


def test_stamina_body_a_hidden_recovery_where_npcs_numbers_are_shown() -> None:
    """``show_npc_numbers``: the NPC's tracks are public, the hidden roll's dice are not."""
    t = hurt_ogre(show_npc_numbers=True)
    record = t.act("recover", "Ogre", {"recovery": [1, 2, 3]}, hidden=True)
    assert others(t, record)[0] == "Ogre rolls to recover: Ogre is at 18 Stamina and 20 Body"


def test_margin_a_hidden_attack_that_hits() -> None:
    t = margin.table(*margin.FOES)
    dice = {"attack": [6, 6, 5], "defense.{Bran}.evasion": [2, 2],
            "defense.{Bran}.guard": [2, 2]}  # fmt: skip
    record = t.act("attack", "Goblin 2", dice, hidden=True, target="Bran", weapon="sword")
    assert t.read(record)["gm"][0] == (
        "Goblin 2 attacks with sword at Bran: 3 against 0, margin 3; Bran takes 5 (health 14 -> 9)"
    )
    assert others(t, record)[0] == "Goblin 2 attacks Bran with sword and hits: Bran is at 9 health"


def test_margin_a_hidden_posture() -> None:
    t = margin.table(*margin.FOES)
    record = t.act("defend", "Goblin 2", hidden=True, effort=2)
    assert t.read(record)["gm"][0] == "Goblin 2 takes up Defend for round 1 with 2 effort dice"
    assert others(t, record)[0] == "Goblin 2 takes up Defend for round 1"


def test_d20_a_hidden_attack_that_hits() -> None:
    t = d20.table("Bran", "Ogre")
    record = t.act("attack", "Ogre", {"hit": [17], "damage": [7]}, hidden=True, target="Bran",
                   weapon="Longsword")  # fmt: skip
    assert t.read(record)["gm"][0] == (
        "Ogre hits Bran with Longsword (17 >= AC 11): 7 rolled, 7 dealt; HP 20 -> 13"
    )
    assert others(t, record)[0] == "Ogre attacks Bran with Longsword and hits: Bran is at 13 HP"


def test_d20_a_hidden_attack_that_misses() -> None:
    t = d20.table("Bran", "Ogre")
    record = t.act("attack", "Ogre", {"hit": [3]}, hidden=True, target="Bran",
                   weapon="Longsword")  # fmt: skip
    assert t.read(record)["gm"][0] == "Ogre misses Bran with Longsword (3 < AC 11)"
    assert others(t, record)[0] == "Ogre attacks Bran with Longsword and misses"


def test_d20_a_hidden_shove_into_a_wall() -> None:
    t = d20.table("Bran", "Ogre")
    dice = {"shove": [19], "wall_damage": [3, 4]}
    record = t.act("shove", "Ogre", dice, hidden=True, target="Bran", wall_at_feet=2)
    assert t.read(record)["gm"][0] == (
        "Ogre shoves Bran 2 ft and knocks them prone (24 >= FD 10, double success), into the wall"
    )
    assert others(t, record)[0] == (
        "Ogre shoves Bran 2 ft and knocks them prone (double success), into the wall: "
        "Bran is at 13 HP"
    )
