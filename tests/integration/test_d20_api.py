"""Seed 004's worked examples through HTTP, on the real store, with dice the table rolled."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, act, act_response, enrol, new_campaign, next_round, ok, start


def d20_sheet(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "strength": {"modifier": 0},
        "dexterity": 10,
        "constitution": 10,
        "wisdom": 10,
        "level": 1,
        "hp": 20,
        "save_vs_death_ray": 12,
        "weapons": [{"name": "Bastard Sword", "damage": "1d10"}],
    }
    return {**base, **overrides}


def fight(client: TestClient, **sheets: dict[str, Any]) -> tuple[str, str, dict[str, str]]:
    cid = new_campaign(client, "d20")
    ids = {name: enrol(client, cid, name, sheet) for name, sheet in sheets.items()}
    combatants = [
        {"character_id": chid, "side": f"side{n}", "rank": 1} for n, chid in enumerate(ids.values())
    ]
    return cid, start(client, cid, combatants), ids


def combatant(result: dict[str, Any], character_id: str) -> dict[str, Any]:
    return next(c for c in result["encounter"]["combatants"] if c["id"] == character_id)


def test_chain_mail_av_4_takes_9_as_5(client: TestClient) -> None:
    cid, eid, ids = fight(client, Aldric=d20_sheet(), Grimm=d20_sheet(armor="chain_mail"))
    result = act(
        client,
        cid,
        eid,
        "attack",
        ids["Aldric"],
        {"hit": [11], "damage": [9]},
        target=ids["Grimm"],
        weapon="Bastard Sword",
    )
    damage = result["action"]["breakdown"]["damage"]
    assert (damage["raw"], damage["guaranteed"], damage["remaining"], damage["av"]) == (9, 1, 8, 4)
    assert damage["dealt"] == 5
    assert combatant(result, ids["Grimm"])["tracks"] == {"hp": 15}


def test_plate_av_6_takes_5_as_1(client: TestClient) -> None:
    cid, eid, ids = fight(client, Aldric=d20_sheet(), Grimm=d20_sheet(armor="plate_mail"))
    result = act(
        client,
        cid,
        eid,
        "attack",
        ids["Aldric"],
        {"hit": [11], "damage": [5]},
        target=ids["Grimm"],
        weapon="Bastard Sword",
    )
    assert result["action"]["breakdown"]["damage"]["dealt"] == 1
    assert combatant(result, ids["Grimm"])["tracks"] == {"hp": 19}


def test_fr_6_against_a_medium_target_rolls_a_d10(client: TestClient) -> None:
    cid, eid, ids = fight(client, Fighter=d20_sheet(fr_skill_slots=6), Orc=d20_sheet())
    dice = {"shove": [5], "wall_damage": [10, 1, 1]}
    result = act(client, cid, eid, "shove", ids["Fighter"], dice, target=ids["Orc"], wall_at_feet=0)
    assert result["action"]["breakdown"]["shove_die"]["ladder"] == ["d6", "d8", "d10"]
    assert result["action"]["rolls"][1]["dice"] == "3d10"
    assert combatant(result, ids["Orc"])["tracks"] == {"hp": 8}


def test_the_ogre_fr_8_against_a_fighter_fr_6_then_fr_9(client: TestClient) -> None:
    ogre = d20_sheet(fr_skill_slots=8, size="large")
    cid, eid, ids = fight(
        client, Ogre=ogre, Fighter=d20_sheet(fr_skill_slots=6), Champion=d20_sheet(fr_skill_slots=9)
    )
    double = act(client, cid, eid, "shove", ids["Ogre"], {"shove": [12]}, target=ids["Fighter"])
    assert double["action"]["breakdown"]["double_success"]["result"] is True
    assert combatant(double, ids["Fighter"])["conditions"] == ["prone"]
    next_round(client, cid, eid)  # one action a round
    limited = act(client, cid, eid, "shove", ids["Ogre"], {"shove": [20]}, target=ids["Champion"])
    assert limited["action"]["breakdown"]["double_success"] == {
        "threshold": 20,
        "reached": True,
        "forceful_defense": True,
        "forceful_defense_why": "defender FR +9 exceeds attacker FR +8",
        "result": False,
    }
    assert combatant(limited, ids["Champion"])["conditions"] == []


def test_medium_shoving_huge_at_minus_8(client: TestClient) -> None:
    cid, eid, ids = fight(
        client,
        Hero=d20_sheet(fr_skill_slots=4),
        Giant=d20_sheet(size="huge", hit_dice=8, level=None),
    )
    result = act(client, cid, eid, "shove", ids["Hero"], {"shove": [18]}, target=ids["Giant"])
    roll = result["action"]["breakdown"]["roll"]
    assert roll["terms"] == [
        {"name": "FR bonus", "value": 4},
        {"name": "size penalty", "value": -8},
    ]
    assert roll["comparison"] == "14 >= FD 14"


def test_wrestling_notes_are_visible(client: TestClient) -> None:
    cid, eid, ids = fight(
        client,
        Knight=d20_sheet(shield="large"),
        Brawler=d20_sheet(),
        Tin=d20_sheet(armor="plate_mail"),
    )
    refused = act(client, cid, eid, "grapple", ids["Knight"], target=ids["Brawler"])
    assert refused["action"]["breakdown"]["refused"] is True
    act(client, cid, eid, "grapple", ids["Brawler"], {"grapple": [20]}, target=ids["Tin"])
    next_round(client, cid, eid)  # one action a round
    immovable = act(client, cid, eid, "throw", ids["Brawler"])
    assert immovable["action"]["breakdown"]["why"].startswith("Immovable")
    next_round(client, cid, eid)
    act(client, cid, eid, "release", ids["Brawler"])
    act(client, cid, eid, "grapple", ids["Tin"], {"grapple": [20]}, target=ids["Brawler"])
    next_round(client, cid, eid)
    escape = act(client, cid, eid, "escape", ids["Brawler"], {"escape": [8]})
    assert {"name": "Slippery: +2 to Escape rolls (No armor)", "value": 2} in (
        escape["action"]["breakdown"]["roll"]["terms"]
    )


def test_the_character_view_shows_the_seven_ratings(client: TestClient) -> None:
    cid = new_campaign(client, "d20")
    chid = enrol(client, cid, "Brannoc", d20_sheet(strength=17, armor="plate_mail", shield="large"))
    character = ok(client.get(f"/campaigns/{cid}/characters/{chid}"))
    derived = character["derived"]
    assert set(derived) == {
        "hr_bonus",
        "fr_bonus",
        "ac",
        "fd",
        "av",
        "insight_defense",
        "shove_resist",
    }
    assert derived["fd"]["value"] == 18
    assert derived["av"] == {
        "melee": {"value": 6, "terms": [{"name": "Plate Mail AV", "value": 6}]},
        "vs_missiles": {"value": 3, "terms": [{"name": "Plate Mail AV vs. missiles", "value": 3}]},
    }
    assert character["tracks"] == {"hp": 20}


def test_defensive_stance_ends_with_the_round(client: TestClient) -> None:
    cid, eid, ids = fight(client, A=d20_sheet(), B=d20_sheet(defensive_stance_mastery=2))
    act(client, cid, eid, "defensive_stance", ids["B"])
    held = act(client, cid, eid, "shove", ids["A"], {"shove": [11]}, target=ids["B"])
    assert held["action"]["breakdown"]["roll"]["comparison"] == "11 < FD 12"
    next_round(client, cid, eid)
    moved = act(client, cid, eid, "shove", ids["A"], {"shove": [11]}, target=ids["B"])
    assert moved["action"]["breakdown"]["roll"]["comparison"] == "11 >= FD 10"


def test_bad_d20_input_is_refused_clearly(client: TestClient) -> None:
    cid = new_campaign(client, "d20")
    bad = client.post(
        f"/campaigns/{cid}/characters",
        headers=GM,
        json={"name": "X", "sheet": d20_sheet(armor="mithril")},
    )
    assert bad.status_code == 422
    assert "sheet.armor" in bad.json()["message"]
    cid2, eid, ids = fight(client, A=d20_sheet(), B=d20_sheet())
    unknown = act_response(client, cid2, eid, "attack", ids["A"], target=ids["B"], weapon="Spoon")
    assert unknown.status_code == 422
    assert "no weapon 'Spoon'" in unknown.json()["message"]
    nobody = act_response(client, cid2, eid, "escape", ids["A"])
    assert nobody.status_code == 409
    assert "not held by anyone" in nobody.json()["message"]


def test_a_stance_does_not_outlast_its_encounter(client: TestClient) -> None:
    cid, eid, ids = fight(client, Aldric=d20_sheet(defensive_stance_mastery=2), Orc=d20_sheet())
    act(client, cid, eid, "defensive_stance", ids["Aldric"])
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end", headers=GM))
    roster = ok(client.get(f"/campaigns/{cid}/characters/{ids['Aldric']}"))
    assert "stance_round" not in roster["state"]
    again = start(client, cid, [{"character_id": ids["Aldric"], "side": "a", "rank": 1}])
    fresh = ok(client.get(f"/campaigns/{cid}/encounters/{again}"))
    assert "stance_round" not in fresh["combatants"][0]["state"]
