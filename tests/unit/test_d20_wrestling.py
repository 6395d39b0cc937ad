"""Wrestling through SkaldApplication: grapple, maintain, escape, throw, and the armor notes.

FR bonuses come from skill slots with STR stated +0, so FD is 10 + armor FD + shield FD
+ size unless a test says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import ActionRefused
from tests.unit.test_d20_support import Table, assert_json_native, fr_sheet, terms


def wrestle(
    holder: dict[str, Any],
    held: dict[str, Any],
    options: dict[str, Any] | None = None,
) -> tuple[Table, str, str]:
    table = Table(options)
    ids = table.fight(Holder=holder, Held=held)
    return table, ids["Holder"], ids["Held"]


def grappled(
    holder: dict[str, Any],
    held: dict[str, Any],
    options: dict[str, Any] | None = None,
) -> tuple[Table, str, str]:
    """The two already locked together: Holder's grapple roll was a 20."""
    table, a, b = wrestle(holder, held, options)
    table.act("grapple", a, {"grapple": [20]}, target=b)
    return table, a, b


def test_a_shield_bearer_cannot_initiate_a_grapple_and_the_refusal_is_recorded() -> None:
    table, knight, foe = wrestle(fr_sheet(5, shield="medium"), fr_sheet(0))
    record = table.act("grapple", knight, target=foe)
    assert record["breakdown"] == {
        "move": "grapple",
        "refused": True,
        "why": "Medium Shield: Cannot initiate Grapple while shield is equipped",
        "rule": "Armor Wrestling Penalties",
    }
    assert record["summary"] == (
        "Holder cannot grapple Held: Medium Shield: Cannot initiate Grapple while shield is "
        "equipped"
    )
    assert record["rolls"] == []
    assert table.state(knight) == {} and table.state(foe) == {}


def test_dice_offered_for_a_refused_grapple_are_noted_as_not_used() -> None:
    table, knight, foe = wrestle(fr_sheet(5, shield="small"), fr_sheet(0))
    record = table.act("grapple", knight, {"grapple": [15]}, target=foe)
    assert record["rolls"] == []
    assert record["breakdown"]["unused_dice"] == {"grapple": [15]}


def test_a_grapple_is_fr_against_fd_with_the_armor_penalty_in_the_terms() -> None:
    table, knight, foe = wrestle(fr_sheet(5, armor="plate_mail"), fr_sheet(0, armor="scale"))
    record = table.act("grapple", knight, {"grapple": [9]}, target=foe)
    roll = record["breakdown"]["roll"]
    assert terms(roll) == [
        ("FR bonus", 5),
        ("size penalty", 0),
        ("armor wrestling penalty (Plate Mail)", -3),
    ]
    assert roll["comparison"] == "11 >= FD 11"
    assert record["breakdown"]["hold"] == "taken"
    assert table.state(knight) == {"grappling": foe}
    assert table.state(foe) == {"grappled_by": knight}
    assert table.conditions(knight) == ("grappling",)
    assert table.conditions(foe) == ("grappled",)
    assert record["summary"] == (
        "Holder grapples Held (11 >= FD 11); Holder gains: grappling; Held gains: grappled"
    )
    assert_json_native(record["breakdown"])


def test_a_failed_grapple_takes_no_hold() -> None:
    table, a, b = wrestle(fr_sheet(0), fr_sheet(0))
    record = table.act("grapple", a, {"grapple": [9]}, target=b)
    assert record["summary"] == "Holder fails to grapple Held (9 < FD 10)"
    assert table.state(a) == {} and table.state(b) == {}


def test_wrestling_rolls_take_the_size_penalty() -> None:
    table, human, ogre = wrestle(fr_sheet(3), fr_sheet(0, size="large"))
    record = table.act("grapple", human, {"grapple": [12]}, target=ogre)
    assert terms(record["breakdown"]["roll"])[:2] == [("FR bonus", 3), ("size penalty", -4)]
    assert record["breakdown"]["roll"]["comparison"] == "11 < FD 12"


def test_chain_mail_gives_plus_1_to_maintain_a_hold() -> None:
    table, holder, held = grappled(fr_sheet(2, armor="chain_mail"), fr_sheet(0))
    record = table.act("maintain", holder, {"maintain": [9]})
    assert terms(record["breakdown"]["roll"]) == [
        ("FR bonus", 2),
        ("size penalty", 0),
        ("armor wrestling penalty (Chain Mail)", -1),
        ("Mesh Grip: +1 to Maintain holds (Chain Mail)", 1),
    ]
    assert record["breakdown"]["roll"]["comparison"] == "11 >= FD 10"
    assert record["breakdown"]["hold"] == "kept"
    assert table.state(holder) == {"grappling": held}


def test_mesh_grip_does_not_help_a_grapple() -> None:
    table, holder, held = wrestle(fr_sheet(2, armor="chain_mail"), fr_sheet(0))
    record = table.act("grapple", holder, {"grapple": [9]}, target=held)
    assert [name for name, _ in terms(record["breakdown"]["roll"])] == [
        "FR bonus",
        "size penalty",
        "armor wrestling penalty (Chain Mail)",
    ]


def test_a_failed_maintain_breaks_the_hold() -> None:
    table, holder, held = grappled(fr_sheet(0), fr_sheet(0))
    record = table.act("maintain", holder, {"maintain": [3]})
    assert record["breakdown"]["hold"] == "broken"
    assert record["summary"] == "Holder loses hold of Held (3 < FD 10)"
    assert table.state(holder) == {} and table.state(held) == {}


def test_an_unarmored_character_gets_plus_2_to_escape() -> None:
    table, holder, held = grappled(fr_sheet(0, constitution={"modifier": 2}), fr_sheet(1))
    record = table.act("escape", held, {"escape": [9]})
    roll = record["breakdown"]["roll"]
    assert terms(roll) == [
        ("FR bonus", 1),
        ("size penalty", 0),
        ("Slippery: +2 to Escape rolls (No armor)", 2),
    ]
    # The holder's FD: 10 + CON +2 (higher than STR +0).
    assert roll["comparison"] == "12 >= FD 12"
    assert record["breakdown"]["hold"] == "broken"
    assert record["summary"] == "Held escapes Holder (12 >= FD 12)"
    assert table.state(holder) == {} and table.state(held) == {}


def test_armor_takes_the_slippery_bonus_away() -> None:
    table, _, held = grappled(fr_sheet(0), fr_sheet(1, armor="leather"))
    record = table.act("escape", held, {"escape": [8]})
    assert terms(record["breakdown"]["roll"]) == [("FR bonus", 1), ("size penalty", 0)]
    # Unarmored, the same 8 would have escaped: 8 + 1 + 2 = 11 >= 10.
    assert record["breakdown"]["hold"] == "kept"
    assert record["summary"] == "Held fails to escape Holder (9 < FD 10)"


def test_a_shield_costs_nothing_when_escaping() -> None:
    """D11: the wrestling penalties hinder offensive FR only; Slippery still counts."""
    table, holder, held = grappled(fr_sheet(0), fr_sheet(1, shield="tower"))
    record = table.act("escape", held, {"escape": [6]})
    assert terms(record["breakdown"]["roll"]) == [
        ("FR bonus", 1),
        ("size penalty", 0),
        ("Slippery: +2 to Escape rolls (No armor)", 2),
    ]
    assert record["breakdown"]["roll"]["comparison"] == "9 < FD 10"
    assert table.state(held) == {"grappled_by": holder}


def test_heavy_armor_costs_nothing_when_escaping() -> None:
    table, holder, held = grappled(fr_sheet(0), fr_sheet(0, armor="suit_armor"))
    record = table.act("escape", held, {"escape": [10]})
    assert terms(record["breakdown"]["roll"]) == [("FR bonus", 0), ("size penalty", 0)]
    assert record["breakdown"]["roll"]["comparison"] == "10 >= FD 10"
    assert table.state(held) == {} and table.state(holder) == {}


def test_plate_cannot_be_thrown_by_a_same_size_foe_and_the_refusal_is_recorded() -> None:
    table, holder, held = grappled(fr_sheet(6), fr_sheet(0, armor="plate_mail"))
    record = table.act("throw", holder)
    assert record["breakdown"] == {
        "move": "throw",
        "refused": True,
        "why": "Immovable: Cannot be Thrown by same-size foes (Plate Mail; both are Medium)",
        "rule": "Armor Wrestling Penalties",
    }
    assert record["rolls"] == []
    assert table.state(held) == {"grappled_by": holder}


def test_a_larger_foe_can_throw_plate() -> None:
    table, ogre, _ = grappled(fr_sheet(6, size="large"), fr_sheet(0, armor="plate_mail"))
    record = table.act("throw", ogre, {"throw": [8], "throw_damage": [5]})
    assert record["breakdown"]["refused"] is False
    # Plate FD 14; 8 + 6 = 14.
    assert record["breakdown"]["roll"]["comparison"] == "14 >= FD 14"
    assert record["breakdown"]["throw_damage"]["shove_die"]["die"] == "d10"
    assert record["breakdown"]["throw_damage"]["damage"]["dealt"] == 1


def test_a_throw_breaks_the_hold_lays_the_target_prone_and_deals_a_shove_die_through_av() -> None:
    table, holder, held = grappled(fr_sheet(3), fr_sheet(0, armor="chain_mail"))
    record = table.act("throw", holder, {"throw": [9], "throw_damage": [8]})
    breakdown = record["breakdown"]
    # Chain mail FD 12; 9 + 3 - 0 = 12.
    assert breakdown["roll"]["comparison"] == "12 >= FD 12"
    assert (breakdown["hold"], breakdown["prone"]) == ("broken", True)
    assert breakdown["throw_damage"]["shove_die"]["ladder"] == ["d6", "d8"]
    assert breakdown["throw_damage"]["shove_dice"] == 1
    assert breakdown["throw_damage"]["damage"]["arithmetic"] == (
        "1 penetrates; remaining 8 - 1 = 7; 7 - AV 4 = 3; 1 + 3 = 4"
    )
    assert record["rolls"][1]["dice"] == "1d8"
    assert table.state(holder) == {}
    assert table.state(held) == {"prone": True}
    assert table.hp(held) == 16
    assert record["summary"] == (
        "Holder throws Held to the ground (12 >= FD 12), 4 damage; HP 20 -> 16; Held gains: prone"
    )


def test_throw_damage_is_an_option() -> None:
    table, holder, held = grappled(fr_sheet(3), fr_sheet(0), {"throw_damage_dice": 0})
    record = table.act("throw", holder, {"throw": [19]})
    assert [roll["name"] for roll in record["rolls"]] == ["throw"]
    assert table.hp(held) == 20
    assert table.state(held) == {"prone": True}


def test_a_failed_throw_keeps_the_hold() -> None:
    table, holder, held = grappled(fr_sheet(0), fr_sheet(0))
    record = table.act("throw", holder, {"throw": [2]})
    assert record["breakdown"]["hold"] == "kept"
    assert table.state(held) == {"grappled_by": holder}


def test_dwarven_plate_is_immovable_by_default_and_elven_chain_has_mesh_grip() -> None:
    table, holder, _ = grappled(fr_sheet(0), fr_sheet(0, armor="dwarven_plate"))
    assert table.act("throw", holder)["breakdown"]["refused"] is True
    table, holder, _ = grappled(fr_sheet(0, armor="elven_chain"), fr_sheet(0))
    record = table.act("maintain", holder, {"maintain": [10]})
    assert terms(record["breakdown"]["roll"])[2:] == [
        ("armor wrestling penalty (Elven Chain, wrestling as Chain Mail)", -1),
        ("Mesh Grip: +1 to Maintain holds (Elven Chain, wrestling as Chain Mail)", 1),
    ]


def test_the_options_choose_the_row_for_dwarven_plate() -> None:
    as_suit = {"dwarven_plate_wrestles_as": "suit_armor"}
    table, holder, _ = grappled(fr_sheet(0), fr_sheet(0, armor="dwarven_plate"), as_suit)
    record = table.act("throw", holder, {"throw": [20], "throw_damage": [1]})
    assert record["breakdown"]["refused"] is False


def test_defensive_stance_raises_fd_against_wrestling_too() -> None:
    table, holder, held = wrestle(fr_sheet(0), fr_sheet(0, defensive_stance_mastery=2))
    table.act("defensive_stance", held)
    record = table.act("grapple", holder, {"grapple": [11]}, target=held)
    assert record["breakdown"]["roll"]["comparison"] == "11 < FD 12"


def test_moves_that_make_no_sense_now_are_refused_and_record_nothing() -> None:
    table, a, b = wrestle(fr_sheet(0), fr_sheet(0))
    with pytest.raises(ActionRefused, match="Holder holds nobody, so there is nothing to maintain"):
        table.act("maintain", a)
    with pytest.raises(ActionRefused, match="holds nobody, so there is nothing to throw"):
        table.act("throw", a)
    with pytest.raises(ActionRefused, match="Held is not held by anyone"):
        table.act("escape", b)
    table.act("grapple", a, {"grapple": [20]}, target=b)
    with pytest.raises(ActionRefused, match="Holder already holds Held"):
        table.act("grapple", a, target=b)
    encounter = table.app.encounter(table.campaign_id, table.encounter_id)  # type: ignore[arg-type]
    assert len(encounter.actions) == 1


def test_a_held_character_cannot_be_seized_by_a_second_grappler() -> None:
    table = Table()
    ids = table.fight(A=fr_sheet(0), B=fr_sheet(0), C=fr_sheet(0))
    table.act("grapple", ids["A"], {"grapple": [20]}, target=ids["B"])
    with pytest.raises(ActionRefused, match="B is already held by A"):
        table.act("grapple", ids["C"], target=ids["B"])


def test_release_lets_go() -> None:
    table, holder, held = grappled(fr_sheet(0), fr_sheet(0))
    record = table.act("release", holder)
    assert record["summary"] == "Holder lets go of Held"
    assert table.state(holder) == {} and table.state(held) == {}
    assert table.conditions(held) == ()
