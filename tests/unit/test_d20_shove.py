"""Shoves through SkaldApplication: size, Forceful Defense, the shove die, terrain, walls, hazards.

Unless a test says otherwise the defender has FD 10 (STR and CON +0, Medium, no armor).
"""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import ActionRefused, InvalidInput
from tests.unit.test_d20_support import Table, assert_json_native, fr_sheet, terms


def shove_fight(
    attacker: dict[str, Any], defender: dict[str, Any], options: dict[str, Any] | None = None
) -> tuple[Table, str, str]:
    table = Table(options)
    ids = table.fight(Attacker=attacker, Defender=defender)
    return table, ids["Attacker"], ids["Defender"]


def test_seed_example_ogre_fr_8_keeps_the_double_success_against_a_fighter_fr_6() -> None:
    table, ogre, fighter = shove_fight(fr_sheet(8, size="large"), fr_sheet(6))
    record = table.act("shove", ogre, {"shove": [12]}, target=fighter)
    breakdown = record["breakdown"]
    assert breakdown["roll"]["comparison"] == "20 >= FD 10"
    assert breakdown["double_success"] == {
        "threshold": 20,
        "reached": True,
        "forceful_defense": False,
        "forceful_defense_why": "defender FR +6 does not exceed attacker FR +8",
        "result": True,
    }
    # The seed: a double success is "the 10ft displacement and Prone result", although a
    # Large shover's Max Displacement is 10 ft as well (a success moves it as far).
    assert breakdown["displacement"] == {
        "value": 10,
        "terms": [{"name": "double success: the seed's 10ft displacement", "value": 10}],
        "moved_feet": 10,
        "stopped_by": None,
    }
    assert breakdown["prone"] is True
    assert table.state(fighter) == {"prone": True}
    assert "prone" in table.conditions(fighter)
    assert record["summary"] == (
        "Attacker shoves Defender 10 ft and knocks them prone (20 >= FD 10, double success)"
    )
    assert "shove_die" not in breakdown  # nothing is rolled with it
    assert_json_native(breakdown)


def test_seed_example_a_fighter_fr_9_limits_the_ogre_to_a_standard_shove() -> None:
    table, ogre, fighter = shove_fight(fr_sheet(8, size="large"), fr_sheet(9))
    record = table.act("shove", ogre, {"shove": [20]}, target=fighter)
    breakdown = record["breakdown"]
    assert breakdown["double_success"] == {
        "threshold": 20,
        "reached": True,
        "forceful_defense": True,
        "forceful_defense_why": "defender FR +9 exceeds attacker FR +8",
        "result": False,
    }
    assert breakdown["displacement"]["terms"] == [
        {"name": "Max Displacement of a Large attacker", "value": 10}
    ]
    assert breakdown["prone"] is False
    assert table.state(fighter) == {}
    assert record["summary"] == (
        "Attacker shoves Defender 10 ft (28 >= FD 10; Forceful Defense denies the double success)"
    )


def test_seed_example_fr_6_against_a_medium_target_rolls_a_d10_shove_die() -> None:
    table, fighter, target = shove_fight(fr_sheet(6), fr_sheet(0, armor="leather"))
    record = table.act(
        "shove", fighter, {"shove": [10], "wall_damage": [10, 3, 7]}, target=target, wall_at_feet=0
    )
    assert record["breakdown"]["shove_die"] == {
        "size_die": "d6 (Medium target)",
        "fr_steps": 2,
        "fr_steps_why": "FR bonus +6: one step per full 3 points",
        "higher_ground_steps": 0,
        "ladder": ["d6", "d8", "d10"],
        "capped_at_top": False,
        "die": "d10",
    }
    # FR +6: one shove die per full 2 points -> three d10, 20 raw through Leather AV 2 -> 18.
    wall = record["breakdown"]["wall"]
    assert (wall["unused_feet"], wall["shove_dice"], wall["faces"]) == (5, 3, [10, 3, 7])
    assert (wall["damage"]["raw"], wall["damage"]["av"], wall["damage"]["dealt"]) == (20, 2, 18)
    assert wall["hp"] == {"before": 20, "after": 2, "down": False}
    assert record["rolls"][1] == {
        "name": "wall_damage",
        "dice": "3d10",
        "faces": [10, 3, 7],
        "total": 20,
        "supplied": True,
    }
    assert table.hp(target) == 2
    assert record["breakdown"]["displacement"]["moved_feet"] == 0
    assert record["breakdown"]["displacement"]["stopped_by"] == "wall"


def test_seed_example_medium_shoving_huge_takes_minus_8_before_other_modifiers() -> None:
    table, human, giant = shove_fight(fr_sheet(4), fr_sheet(0, size="huge"))
    record = table.act("shove", human, {"shove": [17]}, target=giant)
    breakdown = record["breakdown"]
    assert breakdown["size_penalty"] == {
        "attacker_size": "Medium",
        "target_size": "Huge",
        "categories_larger": 2,
        "penalty": -8,
        "mastery_reduction": 0,
        "modifier": -8,
        "why": "-4 per size category the target is larger",
    }
    assert terms(breakdown["roll"]) == [("FR bonus", 4), ("size penalty", -8)]
    # Giant's FD: 10 + 0 + Huge +4 = 14; 17 + 4 - 8 = 13 falls short.
    assert breakdown["roll"]["comparison"] == "13 < FD 14"
    assert record["summary"] == "Attacker fails to shove Defender (13 < FD 14)"
    assert "displacement" not in breakdown
    assert table.state(giant) == {}


def test_size_penalty_mastery_reduction_is_taken_off_the_penalty() -> None:
    table, human, giant = shove_fight(
        fr_sheet(4, size_penalty_mastery_reduction=3), fr_sheet(0, size="huge")
    )
    record = table.act("shove", human, {"shove": [15]}, target=giant)
    assert record["breakdown"]["size_penalty"]["mastery_reduction"] == 3
    assert terms(record["breakdown"]["roll"]) == [("FR bonus", 4), ("size penalty", -5)]
    assert record["breakdown"]["roll"]["comparison"] == "14 >= FD 14"


def test_a_shove_that_fails_changes_nothing() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0))
    record = table.act("shove", attacker, {"shove": [9]}, target=defender)
    assert record["breakdown"]["roll"]["success"] is False
    assert record["breakdown"]["double_success"]["result"] is False
    assert table.state(defender) == {}
    assert table.hp(defender) == 20


def test_a_standard_success_moves_the_attackers_max_displacement() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0, size="small"), fr_sheet(0, size="tiny"))
    record = table.act("shove", attacker, {"shove": [8]}, target=defender)
    # Tiny FD: 10 - 2 = 8.
    assert record["breakdown"]["roll"]["comparison"] == "8 >= FD 8"
    assert record["breakdown"]["displacement"]["value"] == 5


def test_twice_the_max_displacement_is_the_option_for_a_double_success() -> None:
    """D6a's reading, a campaign's choice: twice the Large shover's Max Displacement (10 ft)."""
    twice = {"double_success_distance": "twice_max_displacement"}
    table, ogre, fighter = shove_fight(fr_sheet(8, size="large"), fr_sheet(6), twice)
    record = table.act("shove", ogre, {"shove": [12]}, target=fighter)
    assert record["breakdown"]["displacement"] == {
        "value": 20,
        "terms": [{"name": "double success: twice the Large Max Displacement", "value": 20}],
        "moved_feet": 20,
        "stopped_by": None,
    }
    assert record["summary"] == (
        "Attacker shoves Defender 20 ft and knocks them prone (20 >= FD 10, double success)"
    )


def test_a_huge_shovers_double_success_moves_the_seeds_10_ft_and_prone() -> None:
    """The seed's words: a Huge giant moves M its 15 ft Max Displacement on a success, and
    N "the 10ft displacement" with Prone on a double success."""
    table = Table()
    ids = table.fight(G=fr_sheet(0, size="huge"), M=fr_sheet(0), N=fr_sheet(0))
    success = table.act("shove", ids["G"], {"shove": [11]}, target=ids["M"])
    double = table.act("shove", ids["G"], {"shove": [20]}, target=ids["N"])
    assert success["summary"] == "G shoves M 15 ft (11 >= FD 10)"
    assert double["summary"] == (
        "G shoves N 10 ft and knocks them prone (20 >= FD 10, double success)"
    )
    assert table.state(ids["N"]) == {"prone": True}


def test_a_huge_shovers_double_success_moves_30_ft_under_the_d6a_option() -> None:
    """D6a, chosen: twice the Huge Max Displacement, so a double never moves less."""
    table = Table({"double_success_distance": "twice_max_displacement"})
    ids = table.fight(G=fr_sheet(0, size="huge"), M=fr_sheet(0), N=fr_sheet(0))
    success = table.act("shove", ids["G"], {"shove": [11]}, target=ids["M"])
    double = table.act("shove", ids["G"], {"shove": [20]}, target=ids["N"])
    assert success["summary"] == "G shoves M 15 ft (11 >= FD 10)"
    assert double["summary"] == (
        "G shoves N 30 ft and knocks them prone (20 >= FD 10, double success)"
    )


def test_the_double_success_margin_is_an_option() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0), {"double_success_margin": 5})
    record = table.act("shove", attacker, {"shove": [15]}, target=defender)
    assert record["breakdown"]["double_success"]["threshold"] == 15
    assert record["breakdown"]["prone"] is True


def test_one_short_of_the_double_threshold_is_a_standard_success() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0))
    record = table.act("shove", attacker, {"shove": [19]}, target=defender)
    assert record["breakdown"]["double_success"]["reached"] is False
    assert record["breakdown"]["prone"] is False


def test_slippery_ground_adds_2_feet() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0))
    record = table.act("shove", attacker, {"shove": [20]}, target=defender, slippery=True)
    assert record["breakdown"]["displacement"]["terms"] == [
        {"name": "double success: the seed's 10ft displacement", "value": 10},
        {"name": "slippery surface", "value": 2},
    ]
    assert record["breakdown"]["displacement"]["moved_feet"] == 12


def test_higher_ground_steps_the_shove_die_once_more() -> None:
    table, attacker, defender = shove_fight(fr_sheet(6), fr_sheet(0))
    record = table.act(
        "shove",
        attacker,
        {"shove": [10], "wall_damage": [12, 1, 1]},
        target=defender,
        attacker_higher_ground=True,
        wall_at_feet=4,
    )
    die = record["breakdown"]["shove_die"]
    assert (die["higher_ground_steps"], die["ladder"], die["die"]) == (
        1,
        ["d6", "d8", "d10", "d12"],
        "d12",
    )
    assert record["rolls"][1]["dice"] == "3d12"
    assert record["breakdown"]["wall"]["unused_feet"] == 1


def test_uphill_and_difficult_terrain_raise_the_defenders_shove_resist_in_the_breakdown() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(2))
    record = table.act(
        "shove",
        attacker,
        {"shove": [2]},
        target=defender,
        defender_higher_ground=True,
        difficult_terrain=True,
    )
    # Medium 3 + 1/2 level 1 -> 0 + STR +0 + FR +2, then +2 uphill and +2 difficult terrain.
    assert terms(record["breakdown"]["shove_resist"]) == [
        ("size base (Medium)", 3),
        ("1/2 level 1, rounded down", 0),
        ("STR modifier (stated)", 0),
        ("FR bonus", 2),
        ("defender on higher ground (shoving uphill)", 2),
        ("difficult terrain", 2),
    ]
    assert record["breakdown"]["shove_resist"]["value"] == 9
    assert record["breakdown"]["terrain"]["defender_higher_ground"] is True


def test_a_wall_exactly_at_the_distance_does_no_damage() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0))
    record = table.act("shove", attacker, {"shove": [10]}, target=defender, wall_at_feet=5)
    assert "wall" not in record["breakdown"]
    assert record["breakdown"]["displacement"]["moved_feet"] == 5
    assert table.hp(defender) == 20


def test_a_weak_shover_still_deals_one_die_into_a_wall_through_av() -> None:
    table, attacker, defender = shove_fight(fr_sheet(1), fr_sheet(0, armor="plate_mail"))
    # Plate: FD 14. d20 13 + 1 = 14 succeeds; the wall is 1 ft away.
    record = table.act(
        "shove", attacker, {"shove": [13], "wall_damage": [5]}, target=defender, wall_at_feet=1
    )
    wall = record["breakdown"]["wall"]
    assert wall["shove_dice"] == 1
    assert wall["why"] == "one d6 per full 2 points of FR +1, at least 1"
    assert wall["damage"]["arithmetic"] == (
        "1 penetrates; remaining 5 - 1 = 4; 4 - AV 6 = -2 -> 0; 1 + 0 = 1"
    )
    assert table.hp(defender) == 19


def test_with_no_minimum_a_weak_shover_deals_nothing_into_a_wall() -> None:
    table, attacker, defender = shove_fight(
        fr_sheet(1), fr_sheet(0), {"wall_damage_minimum_dice": 0}
    )
    record = table.act("shove", attacker, {"shove": [15]}, target=defender, wall_at_feet=1)
    assert record["breakdown"]["wall"]["shove_dice"] == 0
    assert [roll["name"] for roll in record["rolls"]] == ["shove"]


def test_a_hazard_save_that_succeeds_stops_at_the_edge() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0, save_vs_death_ray=12))
    record = table.act(
        "shove",
        attacker,
        {"shove": [12], "hazard_save": [12]},
        target=defender,
        hazard_at_feet=3,
        hazard="the cliff",
    )
    assert record["breakdown"]["hazard"] == {
        "hazard": "the cliff",
        "save_vs_death_ray": 12,
        "d20": 12,
        "comparison": "12 >= 12",
        "saved": True,
        "result": "stops at the very edge",
    }
    assert record["breakdown"]["displacement"]["moved_feet"] == 3
    assert record["breakdown"]["displacement"]["stopped_by"] == "edge"
    assert record["summary"].endswith("; saves and stops at the edge of the cliff")


def test_a_hazard_save_that_fails_goes_in() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0, save_vs_death_ray=12))
    record = table.act(
        "shove",
        attacker,
        {"shove": [12], "hazard_save": [11]},
        target=defender,
        hazard_at_feet=0,
        hazard="the fire",
    )
    assert record["breakdown"]["hazard"]["saved"] is False
    assert record["breakdown"]["hazard"]["result"] == (
        "goes into the fire; its own effects and saves follow"
    )
    assert record["breakdown"]["displacement"]["stopped_by"] == "hazard"


def test_a_hazard_beyond_the_push_needs_no_save() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0))
    record = table.act("shove", attacker, {"shove": [12]}, target=defender, hazard_at_feet=5)
    assert "hazard" not in record["breakdown"]


def test_the_nearer_of_a_wall_and_a_hazard_stops_the_push() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0))
    first_wall = table.act(
        "shove",
        attacker,
        {"shove": [12], "wall_damage": [2]},
        target=defender,
        wall_at_feet=1,
        hazard_at_feet=3,
    )
    assert "hazard" not in first_wall["breakdown"]
    assert first_wall["breakdown"]["wall"]["unused_feet"] == 4
    first_hazard = table.act(
        "shove",
        attacker,
        {"shove": [12], "hazard_save": [20]},
        target=defender,
        wall_at_feet=3,
        hazard_at_feet=1,
    )
    assert "wall" not in first_hazard["breakdown"]


def test_terrain_that_cannot_be_is_refused() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0))
    with pytest.raises(InvalidInput, match="only one of attacker and defender"):
        table.act(
            "shove",
            attacker,
            target=defender,
            attacker_higher_ground=True,
            defender_higher_ground=True,
        )
    with pytest.raises(InvalidInput, match="same distance"):
        table.act("shove", attacker, target=defender, wall_at_feet=2, hazard_at_feet=2)


def test_defensive_stance_adds_its_mastery_bonus_to_fd_until_the_round_ends() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0, defensive_stance_mastery=3))
    stance = table.act("defensive_stance", defender)
    assert stance["breakdown"]["fd_before"] == 10
    assert stance["breakdown"]["fd_in_stance"]["value"] == 13
    assert stance["breakdown"]["fd_in_stance"]["terms"][-1] == {
        "name": "Defensive Stance mastery bonus",
        "value": 3,
    }
    assert stance["summary"] == (
        "Defender takes a Defensive Stance: FD 10 -> 13 until round 1 ends"
    )
    assert table.state(defender) == {"stance_round": 1}
    held = table.act("shove", attacker, {"shove": [12]}, target=defender)
    assert held["breakdown"]["roll"]["comparison"] == "12 < FD 13"
    table.next_round()
    moved = table.act("shove", attacker, {"shove": [12]}, target=defender)
    assert moved["breakdown"]["roll"]["comparison"] == "12 >= FD 10"


def test_a_prone_character_stands_up_and_cannot_stand_twice() -> None:
    table, attacker, defender = shove_fight(fr_sheet(0), fr_sheet(0))
    table.act("shove", attacker, {"shove": [20]}, target=defender)
    assert table.conditions(defender) == ("prone",)
    record = table.act("stand_up", defender)
    assert record["summary"] == "Defender stands up"
    assert table.state(defender) == {}
    with pytest.raises(ActionRefused, match="not prone"):
        table.act("stand_up", defender)
