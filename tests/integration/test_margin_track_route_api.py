"""The GM sets margin's fatigue and luck through the track route, as health (issue 36):
between fights on the roster, and in a fight as a GM record the corrections replay."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, enrol, event_count, new_campaign, ok, start
from tests.integration.test_table_api import MARGIN


def tracks(client: TestClient, cid: str, who: str, body: dict[str, Any], status: int = 200) -> Any:
    path = f"/campaigns/{cid}/characters/{who}/tracks"
    return ok(client.post(path, json={**body, "reason": "a ruling"}, headers=GM), status)


def test_fatigue_and_luck_are_set_and_adjusted_between_fights_as_health(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "margin")
    ash = enrol(client, cid, "Ash", {**MARGIN, "luck": 2})
    changed = tracks(client, cid, ash, {"set": {"fatigue": 5, "luck": 1, "health": 9}})
    character = changed["character"]
    assert (character["tracks"], character["state"]["fatigue"], character["state"]["luck"]) == (
        {"health": 9},
        5,
        1,
    )
    changed = tracks(client, cid, ash, {"adjust": {"luck": -3, "fatigue": 2}})
    assert (changed["character"]["state"]["luck"], changed["character"]["state"]["fatigue"]) == (
        0,
        7,
    )
    # An adjustment never takes luck past the sheet's value, as health stops at its max.
    changed = tracks(client, cid, ash, {"adjust": {"luck": 5}})
    assert changed["character"]["state"]["luck"] == 2
    before = event_count(client)
    refused = tracks(client, cid, ash, {"set": {"luck": 3}}, 422)
    assert refused["message"] == (
        "set.luck: 3 is above its maximum 2; amend the sheet to raise the maximum"
    )
    refused = tracks(client, cid, ash, {"set": {"fatigue": -1}}, 422)
    assert refused["message"] == "set.fatigue: -1 is below 0, where fatigue stops"
    refused = tracks(client, cid, ash, {"set": {"grit": 1}}, 422)
    assert refused["message"] == "set.grit: no such track; the tracks are fatigue, health, luck"
    assert event_count(client) == before


def test_fatigue_set_in_a_fight_is_a_gm_record_that_weighs_on_the_next_attack(
    client: TestClient,
) -> None:
    cid = new_campaign(client, "margin")
    ash = enrol(client, cid, "Ash", {**MARGIN, "luck": 1})
    bran = enrol(client, cid, "Bran", MARGIN)
    eid = start(
        client,
        cid,
        [{"character_id": ash, "side": "party"}, {"character_id": bran, "side": "foes"}],
    )
    changed = tracks(client, cid, ash, {"set": {"fatigue": 4, "luck": 0}})
    record = changed["record"]
    assert (record["kind"], record["summary"]) == ("adjust_tracks", "Ash: fatigue 0→4, luck 1→0")
    ashes = next(c for c in changed["encounter"]["combatants"] if c["id"] == ash)
    assert (ashes["state"]["fatigue"], ashes["state"]["luck"]) == (4, 0)
    # M6: fatigue 4 is 2 exhaustion dice off the attack pool (Might 2 + Melee 0 = 2).
    body = {"kind": "attack", "actor": ash, "params": {"target": bran, "weapon": "sword"}}
    path = f"/campaigns/{cid}/encounters/{eid}/actions"
    attack = ok(client.post(path, json=body, headers=GM), 201)["action"]
    pool = attack["breakdown"]["attack"]["pool"]
    assert (pool["terms"][3], pool["dice"], attack["breakdown"]["attack"]["rolled"]) == (
        {"term": "exhaustion", "dice": -2},
        0,
        False,
    )
