"""The foundation through HTTP: campaign, roster, encounter, the first hit, and bad input."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import (
    GM,
    act,
    act_response,
    encounter,
    enrol,
    event_count,
    new_campaign,
    ok,
    start,
)

KNIGHT = {
    "st": 12,
    "con": 11,
    "parry": 11,
    "dodge": 9,
    "stamina_max": 12,
    "body_max": 8,
    "armour_resilience": 4,
    "shield_resilience": 2,
    "weapons": [{"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13}],
}


@pytest.fixture
def table(client: TestClient) -> dict[str, str]:
    cid = new_campaign(client, "stamina-body")
    knight = enrol(client, cid, "Sir Aldous", KNIGHT)
    eid = start(client, cid, [{"character_id": knight, "side": "party", "rank": 1}])
    return {"cid": cid, "knight": knight, "eid": eid}


def test_the_seeds_longsword_example_comes_out_7_3_raw_and_5_1_net(
    client: TestClient, table: dict[str, str]
) -> None:
    result = act(
        client,
        table["cid"],
        table["eid"],
        "take_hit",
        dice={"damage": [2, 4, 6]},
        target=table["knight"],
        damage_type="piercing",
        damage_class=3,
    )
    breakdown = result["action"]["breakdown"]
    assert breakdown["reading"]["raw"] == {"stamina": 7, "body": 3}
    assert breakdown["absorption"]["steps"] == [
        {"step": 1, "pool": "body", "after": 2, "resilience_left": 3},
        {"step": 2, "pool": "stamina", "after": 6, "resilience_left": 2},
        {"step": 3, "pool": "body", "after": 1, "resilience_left": 1},
        {"step": 4, "pool": "stamina", "after": 5, "resilience_left": 0},
    ]
    assert breakdown["absorption"]["net"] == {"stamina": 5, "body": 1}
    assert result["action"]["rolls"] == [
        {"name": "damage", "dice": "3d6", "faces": [2, 4, 6], "total": 12, "supplied": True}
    ]
    knight = result["encounter"]["combatants"][0]
    assert knight["tracks"] == {"stamina": 7, "body": 7}
    assert knight["conditions"] == ["piercing_wound"]


def test_campaign_character_and_encounter_read_back(
    client: TestClient, table: dict[str, str]
) -> None:
    campaign = ok(client.get(f"/campaigns/{table['cid']}"))
    assert campaign["ruleset"] == "stamina-body"
    assert campaign["options"] == {
        "actions_per_round": 1,
        "initiative": {"mode": "manual"},  # T1
        "skip_unable": True,
        "show_npc_numbers": False,
        "extra_dice_per_option": 1,
        "stunned_may_defend": False,
        "bleed_per_round": 1,
    }
    assert [c["name"] for c in campaign["characters"]] == ["Sir Aldous"]
    character = ok(client.get(f"/campaigns/{table['cid']}/characters/{table['knight']}"))
    assert character["tracks"] == {"stamina": 12, "body": 8}
    assert character["maxima"] == {"stamina": 12, "body": 8}
    assert character["in_encounter"] == table["eid"]
    fight = encounter(client, table["cid"], table["eid"])
    assert (fight["round"], fight["ended"], fight["version"]) == (1, False, 1)


def test_any_past_version_of_an_encounter_can_be_read(
    client: TestClient, table: dict[str, str]
) -> None:
    act(
        client,
        table["cid"],
        table["eid"],
        "take_hit",
        dice={"damage": [6]},
        target=table["knight"],
        damage_type="impact",
        damage_class=1,
        ignore_armour=True,
    )
    before = encounter(client, table["cid"], table["eid"], version=1)
    after = encounter(client, table["cid"], table["eid"], version=2)
    assert before["combatants"][0]["tracks"] == {"stamina": 12, "body": 8}
    assert after["combatants"][0]["tracks"] == {"stamina": 7, "body": 7}
    missing = client.get(f"/campaigns/{table['cid']}/encounters/{table['eid']}?version=9")
    assert missing.status_code == 404
    assert "no version 9" in missing.json()["message"]


def test_ending_an_encounter_carries_the_tracks_back_to_the_roster(
    client: TestClient, table: dict[str, str]
) -> None:
    act(
        client,
        table["cid"],
        table["eid"],
        "take_hit",
        dice={"damage": [6, 6]},
        target=table["knight"],
        damage_type="impact",
        damage_class=2,
        ignore_armour=True,
    )
    ok(client.post(f"/campaigns/{table['cid']}/encounters/{table['eid']}/end", headers=GM))
    character = ok(client.get(f"/campaigns/{table['cid']}/characters/{table['knight']}"))
    assert character["tracks"] == {"stamina": 2, "body": 6}
    assert character["in_encounter"] is None
    late = act_response(
        client,
        table["cid"],
        table["eid"],
        "take_hit",
        dice={"damage": [1]},
        target=table["knight"],
        damage_type="impact",
        damage_class=1,
    )
    assert late.status_code == 409
    assert "has ended" in late.json()["message"]


BAD_REQUESTS: list[tuple[str, str, str, Any, int, str]] = [
    ("malformed JSON", "POST", "/campaigns", b'{"name": "x",', 422, "not valid JSON"),
    (
        "unknown ruleset",
        "POST",
        "/campaigns",
        {"name": "x", "ruleset": "gurps"},
        422,
        "unknown ruleset 'gurps'",
    ),
    (
        "bad option",
        "POST",
        "/campaigns",
        {"name": "x", "ruleset": "stamina-body", "options": {"extra_dice_per_option": 9}},
        422,
        "options.extra_dice_per_option",
    ),
    (
        "unknown campaign",
        "GET",
        "/campaigns/00000000-0000-0000-0000-000000000000",
        None,
        404,
        "no campaign with id",
    ),
    ("not a uuid", "GET", "/campaigns/abc", None, 422, "campaign_id"),
    (
        "invalid sheet",
        "POST",
        "/campaigns/{cid}/characters",
        {"name": "Bad", "sheet": {"st": 12, "con": 0, "stamina_max": 10}},
        422,
        "sheet.con",
    ),
    (
        "missing sheet field",
        "POST",
        "/campaigns/{cid}/characters",
        {"name": "Bad", "sheet": {"st": 12, "con": 10, "stamina_max": 10}},
        422,
        "sheet.body_max",
    ),
    (
        "unknown character",
        "GET",
        "/campaigns/{cid}/characters/nobody",
        None,
        404,
        "character 'nobody' is not enrolled",
    ),
    (
        "unknown encounter",
        "GET",
        "/campaigns/{cid}/encounters/00000000-0000-0000-0000-00000000000e",
        None,
        404,
        "no encounter with id",
    ),
    (
        "unknown combatant",
        "POST",
        "/campaigns/{cid}/encounters",
        {"name": "x", "combatants": [{"character_id": "ghost", "side": "a"}]},
        404,
        "character 'ghost'",
    ),
    (
        "unknown action",
        "POST",
        "/campaigns/{cid}/encounters/{eid}/actions",
        {"kind": "fireball", "params": {}},
        422,
        "no action 'fireball'",
    ),
    (
        "wrong dice count",
        "POST",
        "/campaigns/{cid}/encounters/{eid}/actions",
        {
            "kind": "take_hit",
            "dice": {"damage": [2, 4]},
            "params": {"target": "{knight}", "damage_type": "piercing", "damage_class": 3},
        },
        422,
        "roll 'damage' is 3d6: it needs 3 dice, 2 were supplied",
    ),
    (
        "a face of 7 on a d6",
        "POST",
        "/campaigns/{cid}/encounters/{eid}/actions",
        {
            "kind": "take_hit",
            "dice": {"damage": [2, 7, 6]},
            "params": {"target": "{knight}", "damage_type": "piercing", "damage_class": 3},
        },
        422,
        "roll 'damage': a face of 7 is not on a d6",
    ),
    (
        "bad action params",
        "POST",
        "/campaigns/{cid}/encounters/{eid}/actions",
        {
            "kind": "take_hit",
            "params": {"target": "{knight}", "damage_type": "fire", "damage_class": 3},
        },
        422,
        "take_hit.damage_type",
    ),
    (
        "unknown target",
        "POST",
        "/campaigns/{cid}/encounters/{eid}/actions",
        {
            "kind": "take_hit",
            "params": {"target": "ghost", "damage_type": "impact", "damage_class": 1},
        },
        404,
        "target 'ghost'",
    ),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "message"),
    [case[1:] for case in BAD_REQUESTS],
    ids=[case[0] for case in BAD_REQUESTS],
)
def test_bad_input_is_refused_clearly_and_writes_nothing(
    client: TestClient,
    table: dict[str, str],
    method: str,
    path: str,
    body: Any,
    status: int,
    message: str,
) -> None:
    def fill(value: Any) -> Any:
        if isinstance(value, str):
            return value.format(**table) if "{" in value and "}" in value else value
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        return value

    before = event_count(client)
    kwargs: dict[str, Any] = {"headers": {**GM, "content-type": "application/json"}}
    if isinstance(body, bytes):
        kwargs["content"] = body
    elif body is not None:
        kwargs["json"] = fill(body)
    response = client.request(method, path.format(**table), **kwargs)
    assert response.status_code == status, response.text
    assert message in response.json()["message"]
    assert event_count(client) == before
