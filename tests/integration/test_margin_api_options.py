"""Margin options over HTTP, each away from its default at least once (M1-M18), and what a
sheet, options or parameters must be: bounded (M18) and strictly typed, refused with 422
naming the field and writing nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import GM, act_response, enrol, event_count, new_campaign, next_round, ok
from tests.integration.test_calendar import wait_for_heals
from tests.integration.test_margin_api import HALBERD, SWORD, Fight, blanks, sheet
from tests.integration.test_margin_api_rules import LIA, breakdown, conditions, strike

ORC = sheet(might=3, melee=2, weapons=[SWORD])


def test_every_option_is_listed_with_its_default(client: TestClient) -> None:
    options = ok(client.get("/rulesets/margin"))["options"]
    assert {
        k: options[k]
        for k in (
            "wounded_at",
            "base_health",
            "health_per_vigor",
            "light_day_fatigue_divisor",
            "real_threat",
        )
    } == {
        "wounded_at": "1/2",
        "base_health": 10,
        "health_per_vigor": 2,
        "light_day_fatigue_divisor": 2,
        "real_threat": 3,
    }


def test_success_on_counts_fours(client: TestClient) -> None:
    fight = Fight(
        client,
        ("brute", ORC, "a", 1),
        ("dummy", sheet(health=30), "b", 1),
        options={"success_on": 4},
    )
    result = fight.act(
        "attack",
        "brute",
        fight.dice(
            attack=[4, 4, 3, 2, 1], defense__dummy__evasion=[4, 1], defense__dummy__guard=[3, 3]
        ),
        target="dummy",
        weapon="sword",
    )
    assert breakdown(result)["margin"] == {"attack": 2, "defenses": [1, 0], "value": 1}


def test_effort_fatigue_and_exhaustion_follow_their_options(client: TestClient) -> None:
    options = {"max_effort": 5, "fatigue_per_effort_die": 2, "fatigue_per_exhaustion_die": 3}
    fight = Fight(
        client, ("brute", ORC, "a", 1), ("dummy", sheet(health=30), "b", 1), options=options
    )
    quiet = fight.dice(defense__dummy__evasion=blanks(2), defense__dummy__guard=blanks(2))
    hard = fight.act(
        "attack", "brute", {"attack": blanks(9), **quiet}, target="dummy", weapon="sword", effort=4
    )  # above the default max of 3
    assert breakdown(hard)["effort"]["fatigue"] == {"before": 0, "after": 8}
    next_round(client, fight.cid, fight.eid)
    too_much = act_response(
        client,
        fight.cid,
        fight.eid,
        "attack",
        fight.ids["brute"],
        target=fight.ids["dummy"],
        weapon="sword",
        effort=6,
    )
    assert too_much.status_code == 422
    tired = fight.act(
        "attack", "brute", {"attack": blanks(3), **quiet}, target="dummy", weapon="sword"
    )
    assert {"term": "exhaustion", "dice": -2} in breakdown(tired)["attack"]["pool"]["terms"]


def test_wounded_threshold_and_penalty_and_the_health_default_are_options(
    client: TestClient,
) -> None:
    options = {"wounded_at": "3/4", "wounded_penalty": 2, "base_health": 16, "health_per_vigor": 1}
    fight = Fight(
        client,
        ("orc", ORC, "b", 1),
        ("brenna", sheet(melee=2, weapons=[SWORD]), "a", 1),
        options=options,
    )
    start = ok(client.get(f"/campaigns/{fight.cid}/characters/{fight.ids['brenna']}"))
    assert start["sheet"]["health"] == start["maxima"]["health"] == 18  # 16 + 1 x Vigor 2
    hit = strike(fight, "orc", "brenna", "sword", 2, 5)
    assert fight.health(hit, "brenna") == 14  # 18 - (2 + 2); 14 > 3/4 x 18 = 13.5
    assert conditions(hit, fight, "brenna") == []
    next_round(client, fight.cid, fight.eid)
    again = strike(fight, "orc", "brenna", "fists", 1, 5)  # fists: 1
    assert fight.health(again, "brenna") == 13
    assert conditions(again, fight, "brenna") == ["wounded"]
    next_round(client, fight.cid, fight.eid)
    swing = fight.act(
        "attack",
        "brenna",
        fight.dice(attack=[2, 2], defense__orc__evasion=blanks(2), defense__orc__guard=blanks(2)),
        target="orc",
        weapon="sword",
    )
    assert {"term": "wounded", "dice": -2} in breakdown(swing)["attack"]["pool"]["terms"]


def test_nature_and_armor_numbers_are_options(client: TestClient) -> None:
    options = {"weakness_multiplier": 3, "resistance_multiplier": "1/4", "armor_blunting": "1/5"}
    weak = sheet(health=40, nature={"slash": "weak"})
    tough = sheet(health=40, nature={"slash": "resistant"})
    mailed = sheet(health=40, armor=[{"name": "mail", "rating": 2}])
    fight = Fight(
        client,
        ("brute", ORC, "a", 1),
        ("weak", weak, "b", 1),
        ("tough", tough, "b", 1),
        ("mailed", mailed, "b", 1),
        options=options,
    )
    tripled = strike(fight, "brute", "weak", "sword", 2, 5)
    assert fight.health(tripled, "weak") == 28  # (2 + 2) x 3
    next_round(client, fight.cid, fight.eid)
    quartered = strike(fight, "brute", "tough", "sword", 2, 5)
    assert breakdown(quartered)["damage"]["exact"] == "1"  # 4 x 1/4
    next_round(client, fight.cid, fight.eid)
    blunted = strike(fight, "brute", "mailed", "sword", 3, 5)  # 5 x (4/5)^2 = 3.2
    assert breakdown(blunted)["damage"]["armor"]["multiplier"] == "16/25"
    assert fight.health(blunted, "mailed") == 37


def test_real_threat_is_an_option(client: TestClient) -> None:
    walled = sheet(
        health=20, armor=[{"name": "plate", "rating": 20}, {"name": "tower", "rating": 9}]
    )
    fight = Fight(
        client, ("brute", ORC, "a", 1), ("walled", walled, "b", 1), options={"real_threat": 10}
    )
    result = strike(fight, "brute", "walled", "sword", 5, 5)  # 7 slash into Armor 29: 0.33
    damage = breakdown(result)["damage"]
    assert damage["real_threat"] == {"threshold": 10, "is_real_threat": False, "raised_to_1": False}
    assert fight.health(result, "walled") == 20  # by default (3) it would have been 1


def test_riposte_sharpening_and_reach_are_options(client: TestClient) -> None:
    options = {"riposte_sharpening": 2, "melee_reaches": 2, "reach_reaches": 3}
    pikeman = sheet(might=3, melee=2, weapons=[HALBERD])
    fight = Fight(
        client,
        ("lia", LIA, "a", 1),
        ("wall", sheet(), "b", 1),
        ("orc", ORC, "b", 2),
        ("pikeman", pikeman, "b", 3),
        options=options,
    )
    posture = fight.act("riposte", "lia")
    assert breakdown(posture)["defense_pools"]["evasion"]["dice"] == 7  # 3 + 2 + 0 + 2
    sword = fight.act(
        "attack",
        "orc",
        fight.dice(
            attack=[6, 2, 2, 2, 2],
            defense__lia__evasion=[6, 6, 6, 2, 2, 2, 2],
            defense__lia__guard=[2],
        ),
        target="lia",
        weapon="sword",
    )
    assert breakdown(sword)["distance"]["value"] == 2  # a melee weapon reaching 2
    assert breakdown(sword)["riposte"]["weapon"] == "sword"  # and so does hers
    halberd = fight.act(
        "attack",
        "pikeman",
        fight.dice(
            attack=[6, 2, 2, 2, 2], defense__lia__evasion=blanks(7), defense__lia__guard=[2]
        ),
        target="lia",
        weapon="halberd",
    )
    assert breakdown(halberd)["distance"]["value"] == 3


def test_a_light_day_divides_fatigue_by_its_option(live_client: TestClient) -> None:
    client = live_client
    cid = new_campaign(client, "margin", {"light_day_fatigue_divisor": 3})
    hero = enrol(client, cid, "Hero", sheet())
    eid = ok(
        client.post(
            f"/campaigns/{cid}/encounters",
            headers=GM,
            json={"name": "F", "combatants": [{"character_id": hero, "side": "a"}]},
        ),
        201,
    )["id"]
    ok(
        client.post(
            f"/campaigns/{cid}/encounters/{eid}/actions",
            headers=GM,
            json={"kind": "defend", "actor": hero, "params": {"effort": 3}},
        ),
        201,
    )
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end", headers=GM))
    days = {"days": 1, "default": {"rest": "light"}}
    ok(client.post(f"/campaigns/{cid}/days", json=days, headers=GM), 201)
    wait_for_heals(client, cid, 1)
    assert ok(client.get(f"/campaigns/{cid}/characters/{hero}"))["state"]["fatigue"] == 1


# -- M18 bounds and strict types: 422, the field named, nothing written --------------


def refused(client: TestClient, response: Any, before: int, field: str) -> str:
    assert response.status_code == 422, response.text
    body = response.json()
    assert field in [p["field"] for p in body["problems"]]
    assert event_count(client) == before
    return str(body["message"])


@pytest.mark.parametrize("per_margin", ["1e30", "1e5000", "1e-5000", 1e30, "0.0001"])
def test_an_unbounded_damage_per_margin_is_refused_at_enrolment(
    client: TestClient, per_margin: Any
) -> None:
    cid = new_campaign(client, "margin")
    before = event_count(client)
    bad = sheet(weapons=[{**SWORD, "per_margin": per_margin}])
    response = client.post(f"/campaigns/{cid}/characters", json={"name": "x", "sheet": bad})
    refused(client, response, before, "sheet.weapons.0.per_margin")


def test_a_too_fine_armor_blunting_is_refused_at_creation(client: TestClient) -> None:
    before = event_count(client)
    body = {"name": "x", "ruleset": "margin", "options": {"armor_blunting": "0.00001"}}
    refused(client, client.post("/campaigns", json=body), before, "options.armor_blunting")


def test_the_extremes_that_are_accepted_compute(client: TestClient) -> None:
    plate = [{"name": f"plate {n}", "rating": 50} for n in range(20)]
    heavy = {**SWORD, "name": "heavy", "base_damage": 1000, "per_margin": "997/999"}
    fight = Fight(
        client,
        ("titan", sheet(might=20, melee=20, weapons=[heavy]), "a", 1),
        (
            "fortress",
            sheet(grace=0, vigor=0, armor=plate, health=1000, nature={"slash": "weak"}),
            "b",
            1,
        ),
        options={"armor_blunting": "1/997", "weakness_multiplier": 100, "max_effort": 10},
    )
    result = fight.act(
        "attack", "titan", {"attack": [6] * 50}, target="fortress", weapon="heavy", effort=10
    )
    damage = breakdown(result)["damage"]
    assert damage["margin"] == 50
    assert damage["final"] == 38488  # (1000 + 50 x 997/999) x 100 x (996/997)^1000
    assert fight.health(result, "fortress") == 1000 - 38488


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"might": "16"}, "sheet.might"),
        ({"luck": True}, "sheet.luck"),
        ({"armor": [{"name": "shield", "rating": 2, "shield": 1}]}, "sheet.armor.0.shield"),
        ({"armor": [{"name": "shield", "rating": 2, "shield": "yes"}]}, "sheet.armor.0.shield"),
        ({"weapons": [{**SWORD, "base_damage": "2"}]}, "sheet.weapons.0.base_damage"),
    ],
)
def test_sheet_types_are_strict_over_http(
    client: TestClient, change: dict[str, Any], field: str
) -> None:
    cid = new_campaign(client, "margin")
    before = event_count(client)
    response = client.post(
        f"/campaigns/{cid}/characters", json={"name": "x", "sheet": sheet(**change)}
    )
    message = refused(client, response, before, field)
    assert "Input should be a valid" in message


def test_option_and_parameter_types_are_strict_over_http(client: TestClient) -> None:
    before = event_count(client)
    body = {"name": "x", "ruleset": "margin", "options": {"max_effort": "3"}}
    message = refused(client, client.post("/campaigns", json=body), before, "options.max_effort")
    assert "Input should be a valid integer" in message
    fight = Fight(client, ("brute", ORC, "a", 1), ("dummy", sheet(), "b", 1))
    before = event_count(client)
    for params in ({"effort": "2"}, {"effort": True}, {"effort": 1.0}):
        response = act_response(
            client,
            fight.cid,
            fight.eid,
            "attack",
            fight.ids["brute"],
            target=fight.ids["dummy"],
            weapon="sword",
            **params,
        )
        message = refused(client, response, before, "attack.effort")
        assert message == "invalid attack: attack.effort: Input should be a valid integer"
    response = act_response(client, fight.cid, fight.eid, "defend", fight.ids["brute"], effort="1")
    refused(client, response, before, "defend.effort")


def test_the_published_sheet_schema_is_strict(client: TestClient) -> None:
    schema = ok(client.get("/rulesets/margin"))["sheet_schema"]
    assert schema["properties"]["might"]["type"] == "integer"
    assert schema["$defs"]["ArmorItem"]["properties"]["shield"]["type"] == "boolean"
    per_margin = schema["$defs"]["Weapon"]["properties"]["per_margin"]["anyOf"]
    assert per_margin[0] == {"type": "number", "minimum": 0.0, "maximum": 1000.0}
