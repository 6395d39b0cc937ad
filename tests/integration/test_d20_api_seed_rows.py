"""Seed 004's table rows over HTTP, each with the seed's own number (issue 27 item 1): every
armor's AV, FD bonus, cost and encumbrance; the wrestling rows Supple, Scale and Suit; the
Tiny, Small and Gargantuan sizes; the double success's "10ft displacement and Prone result"
for every size; every shield; the size penalty's Mastery reduction; the
shield's -4 wrestling penalty; Insight Defense and Shove Resist; AC with a shield and
active techniques; a successful trip (D9).

Every expected number is read off the seed's tables here, never computed by the project.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import event_count, ok
from tests.integration.test_d20_api_rulings import Fight, d20_sheet

# Armor Type and Armor Value Table, and the Armor FD Bonus table, row for row:
# (id, AV, AV vs. Missiles, Cost (sp), Encumbrance (cn), FD bonus).
ARMOR_ROWS = [
    ("leather", "Leather", 2, 1, 20, 200, 1),
    ("thyatian_leather", "Thyatian Leather (Cuir Bouilli)", 3, 1, 200, 250, 1),
    ("scale", "Scale", 3, 1, 30, 300, 1),
    ("chain_mail", "Chain Mail", 4, 2, 40, 400, 2),
    ("banded", "Banded", 5, 2, 50, 450, 2),
    ("plate_mail", "Plate Mail", 6, 3, 60, 500, 4),
    ("suit_armor", "Suit Armor", 7, 3, 250, 750, 4),
    ("elven_chain", "Elven Chain", 4, 4, 400, 200, 2),
    ("dwarven_plate", "Dwarven Plate", 7, 4, 600, 600, 5),
]
# Shields: (id, name, AC bonus, Cost (sp), Encumbrance (cn)); every one is FD +2 (the
# "Shield (any)" row) and -4 in wrestling.
SHIELD_ROWS = [
    ("small", "Small Shield", 1, 5, 50),
    ("medium", "Medium Shield", 2, 10, 100),
    ("large", "Large Shield", 3, 15, 200),
    ("tower", "Tower Shield", 4, 25, 300),
]
D12_WEAPONS = [
    {"name": "Maul", "damage": "1d12"},
    {"name": "Heavy Bow", "damage": "1d12", "delivery": "missile"},
]


def view(fight: Fight, name: str) -> Any:
    return ok(fight.client.get(f"/campaigns/{fight.cid}/characters/{fight.ids[name]}"))


# -- armor: AV, AV vs missiles, FD bonus, cost and encumbrance ----------------------------


@pytest.mark.parametrize(
    ("armor", "name", "av", "av_missiles", "cost", "weight", "fd_bonus"),
    ARMOR_ROWS,
    ids=[row[0] for row in ARMOR_ROWS],
)
def test_every_armor_row_through_the_character_view_and_a_hit(
    client: TestClient,
    armor: str,
    name: str,
    av: int,
    av_missiles: int,
    cost: int,
    weight: int,
    fd_bonus: int,
) -> None:
    fight = Fight(client, Archer=d20_sheet(weapons=D12_WEAPONS), Knight=d20_sheet(armor=armor))
    knight = view(fight, "Knight")
    derived = knight["derived"]
    assert derived["av"]["melee"]["value"] == av
    assert derived["av"]["vs_missiles"]["value"] == av_missiles
    # FD: 10 + STR/CON +0 + Medium +0 + the armor's FD bonus, no shield.
    assert derived["fd"]["value"] == 10 + fd_bonus
    assert {"name": f"armor FD bonus ({name})", "value": fd_bonus} in derived["fd"]["terms"]
    assert derived["ac"]["value"] == 11  # "Armor type does not affect AC"
    assert knight["equipment"]["armor"] == {
        "id": armor,
        "name": name,
        "cost_sp": cost,
        "encumbrance_cn": weight,
    }
    # 12 damage: 1 penetrates, the remaining 11 less the AV; a missile meets AV vs missiles.
    blow = fight.act(
        "attack", "Archer", {"hit": [11], "damage": [12]}, target="Knight", weapon="Maul"
    )
    shot = fight.act(
        "attack", "Archer", {"hit": [11], "damage": [12]}, target="Knight", weapon="Heavy Bow"
    )
    assert blow["action"]["breakdown"]["damage"]["dealt"] == 1 + (11 - av)
    assert shot["action"]["breakdown"]["damage"]["dealt"] == 1 + (11 - av_missiles)
    hp = 20 - (1 + 11 - av) - (1 + 11 - av_missiles)
    assert fight.combatant(shot, "Knight")["tracks"] == {"hp": hp}


def test_no_armor_and_no_shield_have_no_cost_and_no_weight(client: TestClient) -> None:
    fight = Fight(client, Bare=d20_sheet())
    bare = view(fight, "Bare")
    assert bare["equipment"] == {
        "armor": {"id": "none", "name": "No armor", "cost_sp": None, "encumbrance_cn": None},
        "shield": {"id": "none", "name": "No shield", "cost_sp": None, "encumbrance_cn": None},
    }
    assert (bare["derived"]["fd"]["value"], bare["derived"]["av"]["melee"]["value"]) == (10, 0)


def test_a_stamina_body_character_has_no_equipment_columns(client: TestClient) -> None:
    from tests.helpers import enrol, new_campaign

    cid = new_campaign(client, "stamina-body")
    sheet = {"st": 10, "con": 10, "stamina_max": 10, "body_max": 10}
    chid = enrol(client, cid, "Hero", sheet)
    assert ok(client.get(f"/campaigns/{cid}/characters/{chid}"))["equipment"] == {}


# -- shields: AC bonus, FD +2, cost and encumbrance, no grapple, -4 wrestling ----------------


@pytest.mark.parametrize(
    ("shield", "name", "ac_bonus", "cost", "weight"),
    SHIELD_ROWS,
    ids=[row[0] for row in SHIELD_ROWS],
)
def test_every_shield_row(
    client: TestClient, shield: str, name: str, ac_bonus: int, cost: int, weight: int
) -> None:
    fight = Fight(client, A=d20_sheet(), Shielded=d20_sheet(shield=shield))
    shielded = view(fight, "Shielded")
    assert shielded["derived"]["ac"]["value"] == 11 + ac_bonus
    assert shielded["derived"]["fd"]["value"] == 10 + 2
    assert shielded["equipment"]["shield"] == {
        "id": shield,
        "name": name,
        "cost_sp": cost,
        "encumbrance_cn": weight,
    }
    # d20 + HR 0 against AC 11 + the bonus: one short misses, the AC itself hits.
    short = fight.act("attack", "A", {"hit": [10 + ac_bonus]}, target="Shielded", weapon="Longbow")
    assert (
        short["action"]["breakdown"]["hit"]["comparison"] == f"{10 + ac_bonus} < AC {11 + ac_bonus}"
    )
    hit = fight.act(
        "attack", "A", {"hit": [11 + ac_bonus], "damage": [1]}, target="Shielded", weapon="Longbow"
    )
    assert hit["action"]["breakdown"]["hit"]["comparison"] == (
        f"{11 + ac_bonus} >= AC {11 + ac_bonus}"
    )
    # "Cannot initiate Grapple while shield is equipped": recorded as a refused attempt.
    refused = fight.act("grapple", "Shielded", target="A")
    assert refused["action"]["breakdown"]["refused"] is True
    assert refused["action"]["breakdown"]["why"] == (
        f"{name}: Cannot initiate Grapple while shield is equipped"
    )


def test_the_shields_minus_4_wrestling_penalty_on_a_hold_kept_and_a_throw(
    client: TestClient,
) -> None:
    fight = Fight(client, Holder=d20_sheet(), Held=d20_sheet())
    fight.act("grapple", "Holder", {"grapple": [10]}, target="Held")
    # Mid-fight the holder takes up a shield (a sheet amendment in the encounter).
    ok(
        client.post(
            f"/campaigns/{fight.cid}/characters/{fight.ids['Holder']}/sheet",
            json={"changes": {"shield": "medium"}, "reason": "picks up a shield"},
        )
    )
    # Maintain: d20 13 + FR 0 + size 0 + armor 0 + shield -4 = 9 < FD 10; it breaks.
    lost = fight.act("maintain", "Holder", {"maintain": [13]})
    assert lost["action"]["breakdown"]["roll"]["terms"] == [
        {"name": "FR bonus", "value": 0},
        {"name": "size penalty", "value": 0},
        {"name": "armor wrestling penalty (No armor)", "value": 0},
        {"name": "shield wrestling penalty (Medium Shield)", "value": -4},
    ]
    assert lost["action"]["breakdown"]["roll"]["comparison"] == "9 < FD 10"
    assert lost["action"]["breakdown"]["hold"] == "broken"


# -- the wrestling rows Supple, Scale and Suit ----------------------------------------------


@pytest.mark.parametrize(
    ("armor", "name", "penalty", "comparison"),
    [
        ("leather", "Leather", 0, "10 >= FD 10"),  # +0, Supple: No penalties
        ("thyatian_leather", "Thyatian Leather (Cuir Bouilli)", 0, "10 >= FD 10"),  # Supple
        ("scale", "Scale", 0, "10 >= FD 10"),  # -0
        ("suit_armor", "Suit Armor", -4, "6 < FD 10"),  # -4
    ],
)
def test_the_armor_wrestling_penalty_rows(
    client: TestClient, armor: str, name: str, penalty: int, comparison: str
) -> None:
    fight = Fight(client, Wrestler=d20_sheet(armor=armor), Foe=d20_sheet())
    result = fight.act("grapple", "Wrestler", {"grapple": [10]}, target="Foe")
    roll = result["action"]["breakdown"]["roll"]
    assert roll["terms"] == [
        {"name": "FR bonus", "value": 0},
        {"name": "size penalty", "value": 0},
        {"name": f"armor wrestling penalty ({name})", "value": penalty},
    ]
    assert roll["comparison"] == comparison


# -- sizes: FD modifier, shove die, Shove Resist base, Max Displacement ------------------------


@pytest.mark.parametrize(
    ("size", "fd_modifier", "die", "resist_base", "feet"),
    [
        ("tiny", -2, "1d2", 1, 2),
        ("small", -1, "1d4", 2, 5),
        ("gargantuan", 8, "1d12", 6, 20),
    ],
)
def test_the_size_rows(
    client: TestClient, size: str, fd_modifier: int, die: str, resist_base: int, feet: int
) -> None:
    fight = Fight(client, Shover=d20_sheet(size=size), Target=d20_sheet(size=size))
    derived = view(fight, "Target")["derived"]
    assert derived["fd"]["value"] == 10 + fd_modifier
    # Shove Resist: size base + 1/2 level 1 (0) + STR +0 + FR bonus +0.
    assert derived["shove_resist"]["value"] == resist_base
    fd = 10 + fd_modifier
    # Same size: no size penalty. A bare success moves the shover's Max Displacement.
    moved = fight.act("shove", "Shover", {"shove": [fd]}, target="Target")
    assert moved["action"]["breakdown"]["displacement"]["moved_feet"] == feet
    assert moved["action"]["summary"] == f"Shover shoves Target {feet} ft ({fd} >= FD {fd})"
    # Into a wall 1 ft away: the target size's shove die (FR +0: no steps), one die.
    walled = fight.act(
        "shove", "Shover", {"shove": [fd], "wall_damage": [1]}, target="Target", wall_at_feet=1
    )
    assert walled["action"]["rolls"][1]["dice"] == die


def test_a_medium_shover_against_a_gargantuan_takes_minus_12(client: TestClient) -> None:
    fight = Fight(client, Hero=d20_sheet(), Dragon=d20_sheet(size="gargantuan"))
    result = fight.act("shove", "Hero", {"shove": [20]}, target="Dragon", fr_modifier=10)
    roll = result["action"]["breakdown"]["roll"]
    assert {"name": "size penalty", "value": -12} in roll["terms"]  # Large, Huge, Gargantuan
    assert roll["comparison"] == "18 >= FD 18"


# -- Forceful Defense: "the 10ft displacement and Prone result" ---------------------------------


@pytest.mark.parametrize(
    ("size", "fd", "max_displacement"),
    [
        ("tiny", 8, 2),
        ("small", 9, 5),
        ("medium", 10, 5),
        ("large", 12, 10),
        ("huge", 14, 15),
        ("gargantuan", 18, 20),
    ],
)
def test_a_double_success_is_the_seeds_10ft_displacement_and_prone_whatever_the_size(
    client: TestClient, size: str, fd: int, max_displacement: int
) -> None:
    # Same size: no size penalty; FR +0 on both sides, so Forceful Defense does not deny it.
    fight = Fight(client, Shover=d20_sheet(size=size), Target=d20_sheet(size=size))
    stored = ok(fight.client.get(f"/campaigns/{fight.cid}"))["options"]
    assert stored["double_success_distance"] == "seed_ten_feet"
    # A success moves the shover's Max Displacement (the size table's column) ...
    moved = fight.act("shove", "Shover", {"shove": [fd]}, target="Target")
    assert moved["action"]["summary"] == (
        f"Shover shoves Target {max_displacement} ft ({fd} >= FD {fd})"
    )
    assert fight.combatant(moved, "Target")["conditions"] == []
    # ... and a total of FD + 10 is the double success: 10 ft and Prone, for every size.
    double = fight.act("shove", "Shover", {"shove": [20]}, target="Target", fr_modifier=8)
    total = 28
    assert double["action"]["breakdown"]["displacement"] == {
        "value": 10,
        "terms": [{"name": "double success: the seed's 10ft displacement", "value": 10}],
        "moved_feet": 10,
        "stopped_by": None,
    }
    assert double["action"]["summary"] == (
        f"Shover shoves Target 10 ft and knocks them prone ({total} >= FD {fd}, double success)"
    )
    assert fight.combatant(double, "Target")["conditions"] == ["prone"]


def test_the_seeds_ogre_fr_8_shoves_a_fighter_fr_6_10ft_and_prone(client: TestClient) -> None:
    fight = Fight(
        client,
        Ogre=d20_sheet(fr_skill_slots=8, size="large"),
        Fighter=d20_sheet(fr_skill_slots=6),
        Champion=d20_sheet(fr_skill_slots=9),
    )
    double = fight.act("shove", "Ogre", {"shove": [12]}, target="Fighter")
    assert double["action"]["summary"] == (
        "Ogre shoves Fighter 10 ft and knocks them prone (20 >= FD 10, double success)"
    )
    assert fight.combatant(double, "Fighter")["conditions"] == ["prone"]
    # "If the Fighter had FR +9 the Ogre could only achieve standard Shove results": the
    # Large Ogre's Max Displacement (10 ft), no Prone.
    standard = fight.act("shove", "Ogre", {"shove": [20]}, target="Champion")
    assert standard["action"]["summary"] == (
        "Ogre shoves Champion 10 ft (28 >= FD 10; Forceful Defense denies the double success)"
    )
    assert fight.combatant(standard, "Champion")["conditions"] == []


# -- the size penalty's Mastery reduction ------------------------------------------------------


def test_mastery_reduces_the_size_penalty_of_a_shove_and_a_grapple(client: TestClient) -> None:
    fight = Fight(
        client,
        Master=d20_sheet(size_penalty_mastery_reduction=4),
        Giant=d20_sheet(size="huge", hit_dice=8, level=None),
        Ogre=d20_sheet(size="large"),
    )
    # Huge is two categories larger than Medium: -8, reduced by 4 to -4. FD 10 + 4 = 14.
    shove = fight.act("shove", "Master", {"shove": [18]}, target="Giant")
    size = shove["action"]["breakdown"]["size_penalty"]
    assert (size["penalty"], size["mastery_reduction"], size["modifier"]) == (-8, 4, -4)
    assert shove["action"]["breakdown"]["roll"]["comparison"] == "14 >= FD 14"
    # Large is one category larger: -4, reduced by 4 to 0. FD 10 + 2 = 12.
    grapple = fight.act("grapple", "Master", {"grapple": [12]}, target="Ogre")
    assert {"name": "size penalty", "value": 0} in grapple["action"]["breakdown"]["roll"]["terms"]
    assert grapple["action"]["breakdown"]["roll"]["comparison"] == "12 >= FD 12"


# -- Insight Defense and Shove Resist ------------------------------------------------------------


def test_insight_defense_and_shove_resist_of_a_character_and_a_monster(client: TestClient) -> None:
    fight = Fight(
        client,
        # WIS 16 (+2), level 5. STR 18 (+3), FR 2 slots + 3 + 1 magic = 6, Medium.
        Sage=d20_sheet(wisdom=16, level=5, strength=18, fr_skill_slots=2, fr_magic_bonus=1),
        # WIS 3 (-3), 8 HD. STR stated +0, no FR, Large.
        Brute=d20_sheet(wisdom=3, level=None, hit_dice=8, size="large"),
    )
    sage, brute = view(fight, "Sage")["derived"], view(fight, "Brute")["derived"]
    # Insight Defense: 10 + WIS modifier + Level or HD.
    assert sage["insight_defense"]["value"] == 10 + 2 + 5
    assert brute["insight_defense"]["value"] == 10 - 3 + 8
    # Shove Resist: Size base + 1/2 HD or Level + STR modifier + FR bonus.
    assert sage["shove_resist"]["value"] == 3 + 2 + 3 + 6
    assert brute["shove_resist"]["value"] == 4 + 4 + 0 + 0
    # Uphill and difficult terrain are shown beside it, +2 each, not added.
    assert sage["shove_resist"]["situational"] == [
        {"name": "defender on higher ground (shoving uphill)", "value": 2},
        {"name": "difficult terrain", "value": 2},
    ]


# -- AC: shield and active defensive techniques ---------------------------------------------------


def test_ac_is_11_plus_shield_dex_and_active_techniques(client: TestClient) -> None:
    fight = Fight(
        client,
        A=d20_sheet(),
        # Tower Shield +4, DEX 13 (+1), techniques +2, in Suit Armor (no AC).
        Guard=d20_sheet(shield="tower", dexterity=13, ac_technique_bonus=2, armor="suit_armor"),
    )
    ac = view(fight, "Guard")["derived"]["ac"]
    assert ac["value"] == 11 + 4 + 1 + 2
    assert ac["terms"] == [
        {"name": "base", "value": 11},
        {"name": "shield bonus (Tower Shield)", "value": 4},
        {"name": "DEX modifier (score 13)", "value": 1},
        {"name": "active technique bonuses", "value": 2},
    ]
    miss = fight.act("attack", "A", {"hit": [17]}, target="Guard", weapon="Longbow")
    assert miss["action"]["breakdown"]["hit"]["comparison"] == "17 < AC 18"
    hit = fight.act("attack", "A", {"hit": [18], "damage": [5]}, target="Guard", weapon="Longbow")
    assert hit["action"]["breakdown"]["hit"]["comparison"] == "18 >= AC 18"


# -- D9: a successful trip ------------------------------------------------------------------------


def test_a_trip_that_meets_fd_knocks_a_larger_target_prone_where_it_stands(
    client: TestClient,
) -> None:
    fight = Fight(client, Tripper=d20_sheet(fr_skill_slots=2), Ogre=d20_sheet(size="large"))
    # d20 14 + FR 2 - 4 (Large is one category larger) = 12 >= FD 10 + 2 = 12.
    result = fight.act("trip", "Tripper", {"trip": [14]}, target="Ogre")
    action = result["action"]
    assert action["summary"] == "Tripper trips Ogre, who falls prone (12 >= FD 12)"
    assert action["breakdown"]["roll"]["terms"] == [
        {"name": "FR bonus", "value": 2},
        {"name": "size penalty", "value": -4},
    ]
    assert action["breakdown"]["prone"] is True
    assert "displacement" not in action["breakdown"]  # "not moved"
    assert "double_success" not in action["breakdown"]  # "No double success"
    ogre = fight.combatant(result, "Ogre")
    assert (ogre["conditions"], ogre["state"]) == (["prone"], {"prone": True})


def test_a_trip_far_past_fd_is_still_only_prone(client: TestClient) -> None:
    fight = Fight(client, Tripper=d20_sheet(fr_skill_slots=10), Foe=d20_sheet())
    result = fight.act("trip", "Tripper", {"trip": [20]}, target="Foe")
    assert result["action"]["summary"] == "Tripper trips Foe, who falls prone (30 >= FD 10)"
    assert fight.combatant(result, "Foe")["state"] == {"prone": True}


# -- D11a: a held character acts only against the holder ------------------------------------


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        ("attack", {"weapon": "Sword +2"}),
        ("shove", {}),
        ("trip", {}),
        ("grapple", {}),
    ],
)
def test_a_held_character_is_refused_anything_against_a_third(
    client: TestClient, kind: str, params: dict[str, Any]
) -> None:
    fight = Fight(client, Holder=d20_sheet(), Held=d20_sheet(), Third=d20_sheet())
    fight.act("grapple", "Holder", {"grapple": [20]}, target="Held")
    before = event_count(client)
    refused = fight.refused(kind, "Held", target="Third", **params)
    assert refused.status_code == 409
    assert refused.json()["message"] == (
        f"Held is held by Holder and may escape or act against them, never {kind} a third (D11)"
    )
    assert event_count(client) == before
    odds = client.post(
        f"/campaigns/{fight.cid}/encounters/{fight.eid}/odds",
        json={
            "kind": kind,
            "actor": fight.ids["Held"],
            "params": {"target": fight.ids["Third"], **params},
        },
    )
    assert odds.status_code == 409
    assert "held by Holder" in odds.json()["message"]


def test_a_held_character_may_still_strike_and_escape_the_holder(client: TestClient) -> None:
    fight = Fight(client, Holder=d20_sheet(), Held=d20_sheet(), Third=d20_sheet())
    fight.act("grapple", "Holder", {"grapple": [20]}, target="Held")
    struck = fight.act(
        "attack", "Held", {"hit": [11], "damage": [4]}, target="Holder", weapon="Sword +2"
    )
    assert fight.combatant(struck, "Holder")["tracks"] == {"hp": 16}
    escaped = fight.act("escape", "Held", {"escape": [8]})  # 8 + Slippery 2 = 10 >= FD 10
    assert escaped["action"]["summary"] == "Held escapes Holder (10 >= FD 10)"
    free = fight.act(
        "attack", "Held", {"hit": [11], "damage": [4]}, target="Third", weapon="Sword +2"
    )
    assert fight.combatant(free, "Third")["tracks"] == {"hp": 16}
