"""Issue 16's new d20 rulings through SkaldApplication: D8 terrain, D9 trip, D10 unarmed
strike and shield bash, D11 holds, D12 ratings per weapon, and truthful summaries.

FR bonuses come from skill slots with STR stated +0, so a bare defender has FD 10.
"""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import ActionRefused, InvalidInput
from skald_campaign.domain.validation import InvalidFields
from tests.unit.test_d20_support import Table, assert_json_native, fr_sheet, sheet, terms

UPHILL = {"name": "defender on higher ground (shoving uphill)", "value": 2}
DIFFICULT = {"name": "difficult terrain", "value": 2}


# -- D8: uphill and difficult terrain raise the target number of every FR contest ---------
def test_shoving_uphill_raises_the_target_number_by_2() -> None:
    table = Table()
    ids = table.fight(A=fr_sheet(0), B=fr_sheet(0))
    record = table.act(
        "shove", ids["A"], {"shove": [11]}, target=ids["B"], defender_higher_ground=True
    )
    roll = record["breakdown"]["roll"]
    assert roll["target_terms"][-1] == UPHILL
    assert roll["comparison"] == "11 < FD 12"
    assert record["summary"] == "A fails to shove B (11 < FD 12)"
    assert table.state(ids["B"]) == {}


def test_both_terrain_rows_raise_the_double_success_threshold_too() -> None:
    table = Table()
    ids = table.fight(A=fr_sheet(0), B=fr_sheet(0))
    record = table.act(
        "shove",
        ids["A"],
        {"shove": [20]},
        target=ids["B"],
        defender_higher_ground=True,
        difficult_terrain=True,
    )
    assert record["breakdown"]["roll"]["target_terms"][-2:] == [UPHILL, DIFFICULT]
    assert record["breakdown"]["roll"]["comparison"] == "20 >= FD 14"
    assert record["breakdown"]["double_success"]["threshold"] == 24
    assert record["breakdown"]["prone"] is False
    assert record["summary"] == "A shoves B 5 ft (20 >= FD 14)"


@pytest.mark.parametrize("kind", ["grapple", "trip"])
def test_difficult_terrain_raises_a_grapple_and_a_trip(kind: str) -> None:
    table = Table()
    ids = table.fight(A=fr_sheet(0), B=fr_sheet(0))
    record = table.act(kind, ids["A"], {kind: [11]}, target=ids["B"], difficult_terrain=True)
    assert record["breakdown"]["roll"]["target_terms"][-1] == DIFFICULT
    assert record["breakdown"]["roll"]["comparison"] == "11 < FD 12"
    assert table.state(ids["B"]) == {}


@pytest.mark.parametrize(("kind", "actor"), [("maintain", "A"), ("throw", "A"), ("escape", "B")])
def test_terrain_raises_maintain_throw_and_escape(kind: str, actor: str) -> None:
    table = Table()
    ids = table.fight(A=fr_sheet(0, armor="leather"), B=fr_sheet(0, armor="leather"))
    table.act("grapple", ids["A"], {"grapple": [20]}, target=ids["B"])
    record = table.act(kind, ids[actor], {kind: [12]}, defender_higher_ground=True)
    # Leather: FD 11, +2 uphill.
    assert record["breakdown"]["roll"]["target_terms"][-1] == UPHILL
    assert record["breakdown"]["roll"]["comparison"] == "12 < FD 13"


# -- D9: trip ----------------------------------------------------------------------------
def test_a_trip_lays_the_target_prone_where_it_stands() -> None:
    table = Table()
    ids = table.fight(A=fr_sheet(2), B=fr_sheet(0))
    record = table.act("trip", ids["A"], {"trip": [8]}, target=ids["B"])
    assert record["breakdown"] == {
        "roll": {
            "d20": 8,
            "terms": [{"name": "FR bonus", "value": 2}, {"name": "size penalty", "value": 0}],
            "total": 10,
            "against": "FD",
            "target": 10,
            "target_terms": [
                {"name": "base", "value": 10},
                {"name": "STR modifier (stated), not CON +0", "value": 0},
                {"name": "size modifier (Medium)", "value": 0},
                {"name": "armor FD bonus (No armor)", "value": 0},
                {"name": "shield FD bonus (No shield)", "value": 0},
            ],
            "comparison": "10 >= FD 10",
            "success": True,
        },
        "fr_bonus": record["breakdown"]["fr_bonus"],
        "size_penalty": {
            "attacker_size": "Medium",
            "target_size": "Medium",
            "categories_larger": 0,
            "penalty": 0,
            "mastery_reduction": 0,
            "modifier": 0,
            "why": "-4 per size category the target is larger",
        },
        "prone": True,
    }
    assert record["breakdown"]["fr_bonus"]["value"] == 2
    assert record["summary"] == "A trips B, who falls prone (10 >= FD 10)"
    assert table.state(ids["B"]) == {"prone": True}
    assert table.conditions(ids["B"]) == ("prone",)
    assert_json_native(record["breakdown"])


def test_a_natural_20_trip_is_no_double_success_and_moves_nobody() -> None:
    table = Table()
    ids = table.fight(A=fr_sheet(0), B=fr_sheet(0))
    record = table.act("trip", ids["A"], {"trip": [20]}, target=ids["B"])
    assert "double_success" not in record["breakdown"]
    assert "displacement" not in record["breakdown"]
    assert record["summary"] == "A trips B, who falls prone (20 >= FD 10)"


def test_a_failed_trip_changes_nothing() -> None:
    table = Table()
    ids = table.fight(A=fr_sheet(0), B=fr_sheet(0))
    record = table.act("trip", ids["A"], {"trip": [9]}, target=ids["B"])
    assert record["breakdown"]["prone"] is False
    assert record["summary"] == "A fails to trip B (9 < FD 10)"
    assert table.state(ids["B"]) == {}


def test_a_trip_takes_the_size_penalty_without_the_mastery_reduction() -> None:
    table = Table()
    ids = table.fight(
        A=fr_sheet(4, size_penalty_mastery_reduction=8), Giant=fr_sheet(0, size="huge")
    )
    record = table.act("trip", ids["A"], {"trip": [18]}, target=ids["Giant"])
    assert terms(record["breakdown"]["roll"]) == [("FR bonus", 4), ("size penalty", -8)]
    assert record["breakdown"]["size_penalty"]["mastery_reduction"] == 0
    assert record["breakdown"]["roll"]["comparison"] == "14 >= FD 14"


def test_a_prone_target_cannot_be_tripped_and_nothing_is_recorded() -> None:
    table = Table()
    ids = table.fight(A=fr_sheet(0), B=fr_sheet(0))
    table.act("trip", ids["A"], {"trip": [15]}, target=ids["B"])
    with pytest.raises(ActionRefused, match="B is already prone"):
        table.act("trip", ids["A"], {"trip": [15]}, target=ids["B"])


def test_defensive_stance_raises_fd_against_a_trip() -> None:
    table = Table()
    ids = table.fight(A=fr_sheet(0), B=fr_sheet(0, defensive_stance_mastery=3))
    table.act("defensive_stance", ids["B"])
    record = table.act("trip", ids["A"], {"trip": [12]}, target=ids["B"])
    assert record["breakdown"]["roll"]["comparison"] == "12 < FD 13"


# -- D10: unarmed strike and shield bash -------------------------------------------------
def test_a_sheet_with_no_weapons_attacks_with_an_unarmed_strike_through_av() -> None:
    table = Table()
    ids = table.fight(Monk=sheet(weapons=[], hr_skill_slots=1), Guard=sheet(armor="leather"))
    record = table.act(
        "attack",
        ids["Monk"],
        {"hit": [10], "damage": [2]},
        target=ids["Guard"],
        weapon="unarmed strike",
    )
    assert record["breakdown"]["weapon"] == {
        "name": "Unarmed Strike",
        "damage": "1d2",
        "delivery": "melee",
        "damage_kind": "physical",
        "magic_bonus": 0,
    }
    assert record["breakdown"]["hit"]["terms"] == [
        {"name": "HR bonus with Unarmed Strike", "value": 1}
    ]
    # 2 raw: 1 penetrates, 1 - AV 2 -> 0.
    assert record["breakdown"]["damage"]["dealt"] == 1
    assert record["rolls"][1]["dice"] == "1d2"
    assert record["summary"] == (
        "Monk hits Guard with Unarmed Strike (11 >= AC 11): 2 rolled, 1 dealt; HP 20 -> 19"
    )


def test_a_shield_bash_rolls_1d4_through_av() -> None:
    table = Table()
    ids = table.fight(Knight=sheet(weapons=[], shield="small"), Orc=sheet())
    record = table.act(
        "attack",
        ids["Knight"],
        {"hit": [11], "damage": [4]},
        target=ids["Orc"],
        weapon="Shield Bash",
    )
    assert record["rolls"][1]["dice"] == "1d4"
    assert record["breakdown"]["damage"]["dealt"] == 4
    assert table.hp(ids["Orc"]) == 16


def test_no_shield_no_shield_bash() -> None:
    table = Table()
    ids = table.fight(A=sheet(weapons=[]), B=sheet())
    with pytest.raises(InvalidInput, match="A carries no shield"):
        table.act("attack", ids["A"], {"hit": [11]}, target=ids["B"], weapon="shield bash")


def test_the_unarmed_and_shield_bash_dice_are_options() -> None:
    table = Table({"unarmed_damage": "1d3", "shield_bash_damage": "1d6+1"})
    ids = table.fight(A=sheet(weapons=[], shield="large"), B=sheet())
    fist = table.act(
        "attack", ids["A"], {"hit": [11], "damage": [3]}, target=ids["B"], weapon="Unarmed Strike"
    )
    bash = table.act(
        "attack", ids["A"], {"hit": [11], "damage": [6]}, target=ids["B"], weapon="Shield Bash"
    )
    assert (fist["rolls"][1]["dice"], fist["breakdown"]["damage"]["dealt"]) == ("1d3", 3)
    assert (bash["rolls"][1]["dice"], bash["breakdown"]["damage"]["dealt"]) == ("1d6+1", 7)
    assert table.hp(ids["B"]) == 10


def test_an_unknown_weapon_names_the_built_in_attacks() -> None:
    table = Table()
    ids = table.fight(A=sheet(weapons=[]), B=sheet())
    with pytest.raises(InvalidInput) as refused:
        table.act("attack", ids["A"], target=ids["B"], weapon="Spoon")
    assert refused.value.message == (
        "A has no weapon 'Spoon'; weapons on the sheet: none; every character also has "
        "Unarmed Strike, and Shield Bash with a shield"
    )


@pytest.mark.parametrize("name", ["Unarmed Strike", " shield bash "])
def test_a_sheet_weapon_may_not_take_a_built_in_name(name: str) -> None:
    table = Table()
    with pytest.raises(InvalidFields) as refused:
        table.enrol("A", sheet(weapons=[{"name": name, "damage": "1d10"}]))
    assert refused.value.problems[0].field == "sheet.weapons.0.name"
    assert "every character has (D10)" in refused.value.problems[0].problem


# -- D11: holds ---------------------------------------------------------------------------
def held_fight(**extra: dict[str, Any]) -> tuple[Table, dict[str, str]]:
    """Holder holds Held; Third stands by. Everyone has FD 10 and 20 HP."""
    table = Table()
    ids = table.fight(Holder=fr_sheet(0), Held=fr_sheet(0), Third=fr_sheet(0), **extra)
    table.act("grapple", ids["Holder"], {"grapple": [20]}, target=ids["Held"])
    return table, ids


def test_a_hold_ends_when_the_held_character_is_shoved_away() -> None:
    table, ids = held_fight()
    record = table.act("shove", ids["Third"], {"shove": [11]}, target=ids["Held"])
    assert record["breakdown"]["hold"] == "broken: moved by a shove (D11)"
    assert record["summary"] == "Third shoves Held 5 ft (11 >= FD 10); the hold with Holder ends"
    assert table.state(ids["Holder"]) == {} and table.state(ids["Held"]) == {}
    assert table.conditions(ids["Held"]) == ()


def test_a_hold_ends_when_the_holder_is_shoved_and_prone_stays() -> None:
    table, ids = held_fight()
    record = table.act("shove", ids["Third"], {"shove": [20]}, target=ids["Holder"])
    assert record["summary"].endswith("; the hold with Held ends")
    assert table.state(ids["Holder"]) == {"prone": True}
    assert table.state(ids["Held"]) == {}


def test_a_push_stopped_at_once_by_a_wall_moves_nobody_and_the_hold_stands() -> None:
    table, ids = held_fight()
    record = table.act(
        "shove",
        ids["Third"],
        {"shove": [11], "wall_damage": [1]},
        target=ids["Held"],
        wall_at_feet=0,
    )
    assert record["breakdown"]["displacement"]["moved_feet"] == 0
    assert "hold" not in record["breakdown"]
    assert table.state(ids["Held"]) == {"grappled_by": ids["Holder"]}


def test_a_hold_ends_when_the_holder_goes_down() -> None:
    table, ids = held_fight()
    table.act(
        "attack",
        ids["Third"],
        {"hit": [19], "damage": [8]},
        target=ids["Holder"],
        weapon="Longsword",
    )
    record = table.act(
        "attack",
        ids["Third"],
        {"hit": [19], "damage": [8]},
        target=ids["Holder"],
        weapon="Longsword",
    )
    table.act(
        "attack",
        ids["Third"],
        {"hit": [19], "damage": [8]},
        target=ids["Holder"],
        weapon="Longsword",
    )
    assert table.hp(ids["Holder"]) == -4
    assert "hold" not in record["breakdown"]
    final = table.app.encounter(table.campaign_id, table.encounter_id).actions[-1].as_json()  # type: ignore[arg-type]
    assert final["breakdown"]["hold"] == "broken: the holder is down (D11)"
    assert final["summary"].endswith("HP 4 -> -4 (down); Holder goes down and lets go of Held")
    assert table.state(ids["Held"]) == {}
    assert table.conditions(ids["Holder"]) == ("down",)


def test_the_held_character_going_down_does_not_end_the_hold() -> None:
    table, ids = held_fight()
    record = table.act(
        "attack",
        ids["Third"],
        {"hit": [19], "damage": [8]},
        target=ids["Held"],
        weapon="Longsword",
        hit_modifier=0,
    )
    for _ in range(2):
        record = table.act(
            "attack",
            ids["Third"],
            {"hit": [19], "damage": [8]},
            target=ids["Held"],
            weapon="Longsword",
        )
    assert table.hp(ids["Held"]) == -4
    assert "hold" not in record["breakdown"]
    assert table.state(ids["Held"]) == {"grappled_by": ids["Holder"]}


def test_a_wall_that_downs_the_holder_ends_the_hold() -> None:
    table = Table()
    ids = table.fight(Holder=fr_sheet(0, hp=2), Held=fr_sheet(0), Third=fr_sheet(0))
    table.act("grapple", ids["Holder"], {"grapple": [20]}, target=ids["Held"])
    record = table.act(
        "shove",
        ids["Third"],
        {"shove": [11], "wall_damage": [6]},
        target=ids["Holder"],
        wall_at_feet=0,
    )
    assert record["breakdown"]["wall"]["hp"] == {"before": 2, "after": -4, "down": True}
    assert record["summary"].endswith(", into the wall; Holder goes down and lets go of Held")
    assert table.state(ids["Held"]) == {} and table.state(ids["Holder"]) == {}


def test_two_characters_never_hold_each_other() -> None:
    table, ids = held_fight()
    with pytest.raises(ActionRefused, match="two characters never hold each other"):
        table.act("grapple", ids["Held"], {"grapple": [20]}, target=ids["Holder"])
    assert table.state(ids["Holder"]) == {"grappling": ids["Held"]}


def test_a_held_character_never_grapples_a_third() -> None:
    table, ids = held_fight()
    with pytest.raises(ActionRefused) as refused:
        table.act("grapple", ids["Held"], {"grapple": [20]}, target=ids["Third"])
    assert refused.value.message == (
        "Held is held by Holder and may escape or act against them, never grapple a third (D11)"
    )
    assert table.state(ids["Third"]) == {}


@pytest.mark.parametrize(
    ("kind", "dice", "params", "doing"),
    [
        ("attack", {"hit": [15], "damage": [3]}, {"weapon": "Longsword"}, "attack"),
        ("shove", {"shove": [20]}, {}, "shove"),
        ("trip", {"trip": [20]}, {}, "trip"),
    ],
)
def test_a_held_character_never_acts_against_a_third(
    kind: str, dice: dict[str, list[int]], params: dict[str, Any], doing: str
) -> None:
    """D11a (it may still strike a third before the ruling; now only the holder)."""
    table, ids = held_fight()
    with pytest.raises(ActionRefused) as refused:
        table.act(kind, ids["Held"], dice, target=ids["Third"], **params)
    assert refused.value.message == (
        f"Held is held by Holder and may escape or act against them, never {doing} a third (D11)"
    )
    assert table.state(ids["Third"]) == {}
    assert table.state(ids["Held"]) == {"grappled_by": ids["Holder"]}


def test_a_held_character_may_strike_shove_and_trip_the_holder() -> None:
    table, ids = held_fight()
    struck = table.act(
        "attack",
        ids["Held"],
        {"hit": [15], "damage": [3]},
        target=ids["Holder"],
        weapon="Longsword",
    )
    assert struck["breakdown"]["damage"]["dealt"] == 3
    tripped = table.act("trip", ids["Held"], {"trip": [20]}, target=ids["Holder"])
    assert tripped["breakdown"]["prone"] is True
    shoved = table.act("shove", ids["Held"], {"shove": [11]}, target=ids["Holder"])
    assert shoved["breakdown"]["hold"] == "broken: moved by a shove (D11)"


def test_a_held_holder_neither_maintains_nor_throws_the_one_it_holds_but_may_let_go() -> None:
    """D11a: Holder holds Held, then Third holds Holder; Held is a third to Holder now."""
    table, ids = held_fight()
    table.act("grapple", ids["Third"], {"grapple": [20]}, target=ids["Holder"])
    for move in ("maintain", "throw"):
        with pytest.raises(ActionRefused) as refused:
            table.act(move, ids["Holder"], {move: [20]})
        assert refused.value.message == (
            f"Holder is held by Third and may escape or act against them, never {move} a third "
            "(D11)"
        )
    let_go = table.act("release", ids["Holder"], None)
    assert let_go["summary"] == "Holder lets go of Held"
    assert table.state(ids["Holder"]) == {"grappled_by": ids["Third"]}


def test_a_thrown_holder_lets_go_of_whoever_it_held() -> None:
    table, ids = held_fight()
    table.act("grapple", ids["Third"], {"grapple": [20]}, target=ids["Holder"])
    record = table.act("throw", ids["Third"], {"throw": [20], "throw_damage": [1]})
    assert record["breakdown"]["hold"] == "broken"
    assert table.state(ids["Holder"]) == {"prone": True}
    assert table.state(ids["Held"]) == {}
    assert table.state(ids["Third"]) == {}


# -- D12: the HR bonus per weapon ----------------------------------------------------------
def test_the_character_view_shows_the_hr_bonus_per_weapon_magic_included() -> None:
    table = Table()
    weapons = [
        {"name": "Sword +1", "damage": "1d8+1", "magic_bonus": 1},
        {"name": "Club", "damage": "1d4"},
    ]
    chid = table.enrol(
        "A", sheet(hr_skill_slots=2, strength=16, hr_magic_bonus=1, shield="small", weapons=weapons)
    )
    hr = table.ratings(chid)["hr_bonus"]
    assert hr["value"] == 5
    assert [(w["weapon"], w["value"]) for w in hr["by_weapon"]] == [
        ("Sword +1", 6),
        ("Club", 5),
        ("Unarmed Strike", 5),
        ("Shield Bash", 5),
    ]
    assert hr["by_weapon"][0]["terms"] == [
        {"name": "Class Skill slots", "value": 2},
        {"name": "STR modifier (score 16)", "value": 2},
        {"name": "magic bonuses", "value": 1},
        {"name": "magic bonus of Sword +1", "value": 1},
    ]


def test_the_attack_adds_exactly_the_hr_bonus_the_view_shows() -> None:
    table = Table()
    weapons = [{"name": "Sword +1", "damage": "1d8+1", "magic_bonus": 1}]
    ids = table.fight(A=sheet(hr_skill_slots=2, weapons=weapons), B=sheet())
    shown = table.ratings(ids["A"])["hr_bonus"]["by_weapon"][0]["value"]
    record = table.act("attack", ids["A"], {"hit": [8]}, target=ids["B"], weapon="Sword +1")
    assert shown == 3
    assert record["breakdown"]["hit"]["total"] == 8 + shown
    assert record["breakdown"]["hit"]["comparison"] == "11 >= AC 11"


def test_no_shield_no_shield_bash_row() -> None:
    table = Table()
    chid = table.enrol("A", sheet(weapons=[]))
    assert [w["weapon"] for w in table.ratings(chid)["hr_bonus"]["by_weapon"]] == ["Unarmed Strike"]


# -- summaries that only say what happened -------------------------------------------------
def test_no_shove_die_is_shown_when_none_is_rolled() -> None:
    table = Table({"wall_damage_minimum_dice": 0})
    ids = table.fight(A=fr_sheet(1), B=fr_sheet(0))
    record = table.act("shove", ids["A"], {"shove": [12]}, target=ids["B"], wall_at_feet=2)
    assert "shove_die" not in record["breakdown"]
    assert record["breakdown"]["wall"] == {
        "unused_feet": 3,
        "shove_dice": 0,
        "why": "no shove die: FR +1 has no full 2 points and the minimum is 0",
    }
    assert record["rolls"] == [
        {"name": "shove", "dice": "1d20", "faces": [12], "total": 12, "supplied": True}
    ]
    failed = table.act("shove", ids["A"], {"shove": [2]}, target=ids["B"])
    assert "shove_die" not in failed["breakdown"]


def test_no_shove_die_is_shown_for_a_throw_that_deals_no_damage() -> None:
    table = Table({"throw_damage_dice": 0})
    ids = table.fight(A=fr_sheet(0), B=fr_sheet(0))
    table.act("grapple", ids["A"], {"grapple": [20]}, target=ids["B"])
    record = table.act("throw", ids["A"], {"throw": [15]})
    assert record["breakdown"]["throw_damage"] == {"shove_dice": 0}
    assert record["summary"] == "A throws B to the ground (15 >= FD 10); B gains: prone"
