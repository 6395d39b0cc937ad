"""Issue 16 over HTTP on the real store: missiles, magic damage, terrain, hazards, Mesh
Grip, throws, the new rulings (D6a, D8-D12), every option away from its default, and
strict types refused with a 422 that names the field and writes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import GM, act, act_response, enrol, event_count, new_campaign, ok, start

WEAPONS = [
    {"name": "Longbow", "damage": "1d10", "delivery": "missile"},
    {"name": "Flame Blade", "damage": "1d10", "damage_kind": "magic"},
    {"name": "Spark", "damage": "1d4-3", "damage_kind": "magic"},
    {"name": "Sword +2", "damage": "1d8", "magic_bonus": 2},
]


def d20_sheet(**overrides: Any) -> dict[str, Any]:
    """FR from skill slots, STR stated +0: FD 10 bare, 20 HP, save 12."""
    base: dict[str, Any] = {
        "strength": {"modifier": 0},
        "dexterity": 10,
        "constitution": 10,
        "wisdom": 10,
        "level": 1,
        "hp": 20,
        "save_vs_death_ray": 12,
        "weapons": WEAPONS,
    }
    return {**base, **overrides}


class Fight:
    """One campaign (with ``options``) and one encounter with the named sheets."""

    def __init__(self, client: TestClient, options: dict[str, Any] | None = None, **sheets: Any):
        self.client = client
        # The rulings of each move are under test, one after another; the turn limit has
        # its own tests (test_table_api.py), so it is lifted here.
        self.cid = new_campaign(client, "d20", {"actions_per_round": 10, **(options or {})})
        self.ids = {name: enrol(client, self.cid, name, sheet) for name, sheet in sheets.items()}
        combatants = [
            {"character_id": chid, "side": f"side{n}", "rank": 1}
            for n, chid in enumerate(self.ids.values())
        ]
        self.eid = start(client, self.cid, combatants)

    def act(
        self, kind: str, actor: str, dice: dict[str, list[int]] | None = None, **params: Any
    ) -> Any:
        if "target" in params:
            params["target"] = self.ids[params["target"]]
        return act(self.client, self.cid, self.eid, kind, self.ids[actor], dice, **params)

    def refused(self, kind: str, actor: str, **params: Any) -> Any:
        if "target" in params:
            params["target"] = self.ids[params["target"]]
        return act_response(self.client, self.cid, self.eid, kind, self.ids[actor], None, **params)

    def combatant(self, result: Any, name: str) -> dict[str, Any]:
        return next(c for c in result["encounter"]["combatants"] if c["id"] == self.ids[name])


# -- missiles, magic damage -------------------------------------------------------------
def test_a_missile_meets_av_vs_missiles(client: TestClient) -> None:
    fight = Fight(client, Archer=d20_sheet(), Knight=d20_sheet(armor="plate_mail"))
    result = fight.act(
        "attack", "Archer", {"hit": [11], "damage": [9]}, target="Knight", weapon="Longbow"
    )
    damage = result["action"]["breakdown"]["damage"]
    assert (damage["delivery"], damage["av"], damage["dealt"]) == ("missile", 3, 6)
    assert damage["av_terms"] == [{"name": "Plate Mail AV vs. missiles", "value": 3}]
    assert fight.combatant(result, "Knight")["tracks"] == {"hp": 14}


def test_magic_damage_ignores_av(client: TestClient) -> None:
    fight = Fight(client, Mage=d20_sheet(), Knight=d20_sheet(armor="dwarven_plate"))
    result = fight.act(
        "attack", "Mage", {"hit": [11], "damage": [9]}, target="Knight", weapon="Flame Blade"
    )
    damage = result["action"]["breakdown"]["damage"]
    assert (damage["kind"], damage["av"], damage["dealt"]) == ("magic", None, 9)
    assert damage["arithmetic"] == "magic ignores AV: 9"
    assert fight.combatant(result, "Knight")["tracks"] == {"hp": 11}


def test_the_magic_minimum_is_an_option(client: TestClient) -> None:
    fight = Fight(client, {"magic_minimum_damage": 3}, Mage=d20_sheet(), Foe=d20_sheet())
    result = fight.act("attack", "Mage", {"hit": [11], "damage": [1]}, target="Foe", weapon="Spark")
    damage = result["action"]["breakdown"]["damage"]
    assert (damage["raw"], damage["dealt"]) == (-2, 3)
    assert damage["arithmetic"] == "magic ignores AV: -2, raised to the minimum 3"


# -- the hit roll's options and D12 -------------------------------------------------------
def test_natural_20_hits_and_the_summary_says_so(client: TestClient) -> None:
    fight = Fight(client, {"natural_20_hits": True}, A=d20_sheet(), B=d20_sheet(dexterity=18))
    result = fight.act(
        "attack", "A", {"hit": [20], "damage": [3]}, target="B", weapon="Sword +2", ac_modifier=20
    )
    assert result["action"]["summary"] == (
        "A hits B with Sword +2 (natural 20 hit, 22 vs AC 34): 3 rolled, 3 dealt; HP 20 -> 17"
    )


def test_natural_1_misses(client: TestClient) -> None:
    fight = Fight(client, {"natural_1_misses": True}, A=d20_sheet(hr_skill_slots=15), B=d20_sheet())
    result = fight.act("attack", "A", {"hit": [1]}, target="B", weapon="Sword +2")
    assert result["action"]["breakdown"]["hit"]["success"] is False
    assert result["action"]["summary"] == "A misses B with Sword +2 (natural 1 miss, 18 vs AC 11)"


def test_the_view_and_the_attack_agree_on_the_hr_bonus_per_weapon(client: TestClient) -> None:
    fight = Fight(client, A=d20_sheet(hr_skill_slots=2, hr_magic_bonus=1), B=d20_sheet())
    view = ok(client.get(f"/campaigns/{fight.cid}/characters/{fight.ids['A']}"))
    by_weapon = {row["weapon"]: row["value"] for row in view["derived"]["hr_bonus"]["by_weapon"]}
    assert by_weapon == {
        "Longbow": 3,
        "Flame Blade": 3,
        "Spark": 3,
        "Sword +2": 5,
        "Unarmed Strike": 3,
    }
    result = fight.act("attack", "A", {"hit": [6]}, target="B", weapon="Sword +2")
    assert result["action"]["breakdown"]["hit"]["comparison"] == "11 >= AC 11"


# -- D10 ---------------------------------------------------------------------------------
def test_no_weapons_still_strikes_and_bashes_with_the_option_dice(client: TestClient) -> None:
    options = {"unarmed_damage": "1d3", "shield_bash_damage": "1d6"}
    fight = Fight(client, options, Brawler=d20_sheet(weapons=[], shield="small"), Foe=d20_sheet())
    fist = fight.act(
        "attack", "Brawler", {"hit": [11], "damage": [3]}, target="Foe", weapon="Unarmed Strike"
    )
    bash = fight.act(
        "attack", "Brawler", {"hit": [11], "damage": [6]}, target="Foe", weapon="shield bash"
    )
    assert fist["action"]["rolls"][1]["dice"] == "1d3"
    assert bash["action"]["rolls"][1]["dice"] == "1d6"
    assert fight.combatant(bash, "Foe")["tracks"] == {"hp": 11}


# -- shoves: D6a, D8, slippery, higher ground, hazards, walls -------------------------------
def test_a_huge_double_success_moves_the_seeds_10_ft_by_default(client: TestClient) -> None:
    # Seed 004: a double success is "the 10ft displacement and Prone result".
    fight = Fight(client, G=d20_sheet(size="huge"), M=d20_sheet(), N=d20_sheet())
    success = fight.act("shove", "G", {"shove": [11]}, target="M")
    double = fight.act("shove", "G", {"shove": [20]}, target="N")
    assert success["action"]["summary"] == "G shoves M 15 ft (11 >= FD 10)"
    assert double["action"]["summary"] == (
        "G shoves N 10 ft and knocks them prone (20 >= FD 10, double success)"
    )


def test_a_huge_double_success_moves_twice_its_max_displacement_under_d6a(
    client: TestClient,
) -> None:
    options = {"double_success_distance": "twice_max_displacement"}
    fight = Fight(client, options, G=d20_sheet(size="huge"), M=d20_sheet(), N=d20_sheet())
    success = fight.act("shove", "G", {"shove": [11]}, target="M")
    double = fight.act("shove", "G", {"shove": [20]}, target="N")
    assert success["action"]["summary"] == "G shoves M 15 ft (11 >= FD 10)"
    assert double["action"]["summary"] == (
        "G shoves N 30 ft and knocks them prone (20 >= FD 10, double success)"
    )


def test_the_literal_ten_feet_and_the_double_margin_options(client: TestClient) -> None:
    options = {"double_success_distance": "seed_ten_feet", "double_success_margin": 5}
    fight = Fight(client, options, G=d20_sheet(size="huge"), N=d20_sheet())
    result = fight.act("shove", "G", {"shove": [15]}, target="N")
    assert result["action"]["breakdown"]["double_success"]["threshold"] == 15
    assert result["action"]["summary"] == (
        "G shoves N 10 ft and knocks them prone (15 >= FD 10, double success)"
    )


def test_forceful_defense_is_named_in_the_summary(client: TestClient) -> None:
    fight = Fight(
        client, Ogre=d20_sheet(fr_skill_slots=8, size="large"), Champion=d20_sheet(fr_skill_slots=9)
    )
    result = fight.act("shove", "Ogre", {"shove": [20]}, target="Champion")
    assert result["action"]["summary"] == (
        "Ogre shoves Champion 10 ft (28 >= FD 10; Forceful Defense denies the double success)"
    )


def test_uphill_and_difficult_terrain_raise_the_target_number(client: TestClient) -> None:
    fight = Fight(client, A=d20_sheet(), B=d20_sheet())
    result = fight.act(
        "shove",
        "A",
        {"shove": [13]},
        target="B",
        defender_higher_ground=True,
        difficult_terrain=True,
    )
    assert result["action"]["breakdown"]["roll"]["comparison"] == "13 < FD 14"
    trip = fight.act("trip", "A", {"trip": [11]}, target="B", difficult_terrain=True)
    assert trip["action"]["summary"] == "A fails to trip B (11 < FD 12)"


def test_slippery_ground_adds_two_feet(client: TestClient) -> None:
    fight = Fight(client, A=d20_sheet(), B=d20_sheet())
    result = fight.act("shove", "A", {"shove": [11]}, target="B", slippery=True)
    assert result["action"]["breakdown"]["displacement"]["moved_feet"] == 7
    assert result["action"]["summary"] == "A shoves B 7 ft (11 >= FD 10)"


def test_higher_ground_steps_the_shove_die_into_the_wall(client: TestClient) -> None:
    fight = Fight(client, A=d20_sheet(fr_skill_slots=3), B=d20_sheet())
    result = fight.act(
        "shove",
        "A",
        {"shove": [10], "wall_damage": [10]},
        target="B",
        attacker_higher_ground=True,
        wall_at_feet=2,
    )
    breakdown = result["action"]["breakdown"]
    assert breakdown["shove_die"]["ladder"] == ["d6", "d8", "d10"]
    assert breakdown["wall"]["shove_dice"] == 1
    assert result["action"]["rolls"][1]["dice"] == "1d10"
    assert fight.combatant(result, "B")["tracks"] == {"hp": 10}


def test_the_wall_minimum_option_and_no_die_named_when_none_rolls(client: TestClient) -> None:
    fight = Fight(client, {"wall_damage_minimum_dice": 0}, A=d20_sheet(), B=d20_sheet())
    result = fight.act("shove", "A", {"shove": [11]}, target="B", wall_at_feet=1)
    assert "shove_die" not in result["action"]["breakdown"]
    assert [roll["name"] for roll in result["action"]["rolls"]] == ["shove"]
    assert result["action"]["summary"] == "A shoves B 1 ft (11 >= FD 10), into the wall"


@pytest.mark.parametrize(
    ("save", "summary", "stopped_by"),
    [
        (12, "A shoves B 3 ft (11 >= FD 10); saves and stops at the edge of the pit", "edge"),
        (11, "A shoves B 3 ft (11 >= FD 10); fails the save and goes into the pit", "hazard"),
    ],
)
def test_a_hazard_gives_a_save_vs_death_ray(
    client: TestClient, save: int, summary: str, stopped_by: str
) -> None:
    fight = Fight(client, A=d20_sheet(), B=d20_sheet())
    result = fight.act(
        "shove",
        "A",
        {"shove": [11], "hazard_save": [save]},
        target="B",
        hazard_at_feet=3,
        hazard="the pit",
    )
    assert result["action"]["summary"] == summary
    assert result["action"]["breakdown"]["displacement"]["stopped_by"] == stopped_by


# -- wrestling: Mesh Grip, throws, D11, armor rows as options ----------------------------
def test_mesh_grip_adds_one_to_maintain(client: TestClient) -> None:
    fight = Fight(client, Holder=d20_sheet(armor="chain_mail"), Held=d20_sheet())
    fight.act("grapple", "Holder", {"grapple": [20]}, target="Held")
    result = fight.act("maintain", "Holder", {"maintain": [10]})
    assert result["action"]["breakdown"]["roll"]["terms"] == [
        {"name": "FR bonus", "value": 0},
        {"name": "size penalty", "value": 0},
        {"name": "armor wrestling penalty (Chain Mail)", "value": -1},
        {"name": "Mesh Grip: +1 to Maintain holds (Chain Mail)", "value": 1},
    ]
    assert result["action"]["summary"] == "Holder keeps hold of Held (10 >= FD 10)"


def test_a_throw_with_two_dice_through_av(client: TestClient) -> None:
    fight = Fight(
        client,
        {"throw_damage_dice": 2},
        Thrower=d20_sheet(fr_skill_slots=3),
        Foe=d20_sheet(armor="leather"),
    )
    fight.act("grapple", "Thrower", {"grapple": [20]}, target="Foe")
    result = fight.act("throw", "Thrower", {"throw": [15], "throw_damage": [8, 8]})
    breakdown = result["action"]["breakdown"]
    assert breakdown["throw_damage"]["shove_die"]["die"] == "d8"
    # 16 raw: 1 + (15 - AV 2) = 14.
    assert breakdown["throw_damage"]["damage"]["dealt"] == 14
    foe = fight.combatant(result, "Foe")
    assert (foe["tracks"], foe["conditions"], foe["state"]) == (
        {"hp": 6},
        ["prone"],
        {"prone": True},
    )


def test_the_armor_rows_for_elven_chain_and_dwarven_plate_are_options(client: TestClient) -> None:
    options = {"elven_chain_wrestles_as": "plate_mail", "dwarven_plate_wrestles_as": "banded"}
    fight = Fight(
        client,
        options,
        A=d20_sheet(),
        Elf=d20_sheet(armor="elven_chain"),
        Dwarf=d20_sheet(armor="dwarven_plate"),
    )
    fight.act("grapple", "A", {"grapple": [20]}, target="Elf")
    immovable = fight.act("throw", "A")
    assert immovable["action"]["breakdown"]["why"] == (
        "Immovable: Cannot be Thrown by same-size foes (Elven Chain, wrestling as Plate Mail; "
        "both are Medium)"
    )
    fight.act("release", "A")
    fight.act("grapple", "A", {"grapple": [20]}, target="Dwarf")
    thrown = fight.act("throw", "A", {"throw": [20], "throw_damage": [6]})
    assert thrown["action"]["breakdown"]["hold"] == "broken"
    escape = fight.act("grapple", "Dwarf", {"grapple": [20]}, target="A")
    assert escape["action"]["breakdown"]["roll"]["terms"][2] == {
        "name": "armor wrestling penalty (Dwarven Plate, wrestling as Banded)",
        "value": -2,
    }


def test_holds_end_by_a_shove_and_when_the_holder_goes_down(client: TestClient) -> None:
    fight = Fight(client, Holder=d20_sheet(hp=5), Held=d20_sheet(), Third=d20_sheet())
    fight.act("grapple", "Holder", {"grapple": [20]}, target="Held")
    shoved = fight.act("shove", "Third", {"shove": [11]}, target="Held")
    assert shoved["action"]["summary"].endswith("; the hold with Holder ends")
    assert fight.combatant(shoved, "Held")["conditions"] == []
    fight.act("grapple", "Holder", {"grapple": [20]}, target="Held")
    downed = fight.act(
        "attack", "Third", {"hit": [15], "damage": [5]}, target="Holder", weapon="Sword +2"
    )
    assert downed["action"]["summary"].endswith("(down); Holder goes down and lets go of Held")
    assert fight.combatant(downed, "Held")["state"] == {}


def test_no_mutual_holds_and_no_third_grapple_and_nothing_is_written(client: TestClient) -> None:
    fight = Fight(client, Holder=d20_sheet(), Held=d20_sheet(), Third=d20_sheet())
    fight.act("grapple", "Holder", {"grapple": [20]}, target="Held")
    before = event_count(client)
    mutual = fight.refused("grapple", "Held", target="Holder")
    third = fight.refused("grapple", "Held", target="Third")
    assert (mutual.status_code, third.status_code) == (409, 409)
    assert "two characters never hold each other" in mutual.json()["message"]
    assert "never grapple a third (D11)" in third.json()["message"]
    assert event_count(client) == before


def test_an_escape_takes_no_armor_penalty(client: TestClient) -> None:
    fight = Fight(client, Holder=d20_sheet(), Knight=d20_sheet(armor="suit_armor", shield="tower"))
    fight.act("grapple", "Holder", {"grapple": [20]}, target="Knight")
    result = fight.act("escape", "Knight", {"escape": [10]})
    assert result["action"]["breakdown"]["roll"]["terms"] == [
        {"name": "FR bonus", "value": 0},
        {"name": "size penalty", "value": 0},
    ]
    assert result["action"]["summary"] == "Knight escapes Holder (10 >= FD 10)"


# -- strict types ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("overrides", "field", "problem"),
    [
        ({"hp": "20"}, "sheet.hp", "Input should be a valid integer"),
        ({"level": True}, "sheet.level", "Input should be a valid integer"),
        (
            {"strength": "16"},
            "sheet.strength",
            'Value error, should be an integer score (e.g. 16) or {"modifier": 2}, not a string',
        ),
    ],
)
def test_a_sheet_of_the_wrong_type_is_a_422_naming_the_field(
    client: TestClient, overrides: dict[str, Any], field: str, problem: str
) -> None:
    cid = new_campaign(client, "d20")
    before = event_count(client)
    response = client.post(
        f"/campaigns/{cid}/characters",
        headers=GM,
        json={"name": "X", "sheet": d20_sheet(**overrides)},
    )
    assert response.status_code == 422
    assert response.json()["problems"] == [{"field": field, "problem": problem}]
    assert event_count(client) == before


def test_an_option_of_the_wrong_type_is_a_422_naming_it(client: TestClient) -> None:
    before = event_count(client)
    response = client.post(
        "/campaigns", json={"name": "T", "ruleset": "d20", "options": {"natural_20_hits": 1}}
    )
    assert response.status_code == 422
    assert response.json()["problems"] == [
        {"field": "options.natural_20_hits", "problem": "Input should be a valid boolean"}
    ]
    assert event_count(client) == before


@pytest.mark.parametrize(
    ("kind", "params", "field", "problem"),
    [
        ("shove", {"slippery": "yes"}, "shove.slippery", "Input should be a valid boolean"),
        ("shove", {"wall_at_feet": "5"}, "shove.wall_at_feet", "Input should be a valid integer"),
        (
            "trip",
            {"difficult_terrain": 1},
            "trip.difficult_terrain",
            "Input should be a valid boolean",
        ),
        (
            "attack",
            {"weapon": "Longbow", "hit_modifier": "2"},
            "attack.hit_modifier",
            "Input should be a valid integer",
        ),
    ],
)
def test_a_parameter_of_the_wrong_type_is_a_422_and_writes_nothing(
    client: TestClient, kind: str, params: dict[str, Any], field: str, problem: str
) -> None:
    fight = Fight(client, A=d20_sheet(), B=d20_sheet())
    before = event_count(client)
    response = fight.refused(kind, "A", target="B", **params)
    assert response.status_code == 422
    assert response.json()["problems"] == [{"field": field, "problem": problem}]
    assert event_count(client) == before


def test_the_published_sheet_schema_is_exact(client: TestClient) -> None:
    ruleset = ok(client.get("/rulesets/d20"))
    ability = ruleset["sheet_schema"]["$defs"]["Ability"]
    assert ability["anyOf"][0] == {"type": "integer", "minimum": 3, "maximum": 30}
    assert ruleset["options"]["double_success_distance"] == "seed_ten_feet"
    assert "trip" in ruleset["actions"]
    trip = ruleset["actions"]["trip"]["params"]["properties"]
    assert trip["difficult_terrain"]["type"] == "boolean"
