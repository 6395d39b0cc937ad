"""A diff across a mid-fight join answers, naming who joined (it answered 500: a
KeyError on the combatant the earlier version did not have)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, enrol, new_campaign, ok, start

SHEET = {"st": 10, "con": 12, "stamina_max": 12, "body_max": 10}


def diff(client: TestClient, cid: str, eid: str, **versions: int) -> Any:
    params = {"from": versions["from_"], **({"to": versions["to"]} if "to" in versions else {})}
    return ok(client.get(f"/campaigns/{cid}/encounters/{eid}/diff", params=params, headers=GM))


def test_a_diff_across_a_join_names_the_newcomer_with_its_presence(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    bran = enrol(client, cid, "Bran", SHEET)
    goblin = enrol(client, cid, "Goblin", SHEET)
    ogre = enrol(client, cid, "Ogre", SHEET)
    fighters = [{"character_id": bran, "side": "a"}, {"character_id": goblin, "side": "b"}]
    eid = start(client, cid, fighters)
    body = {"character_id": ogre, "side": "b", "reason": "reinforcements"}
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/combatants", json=body, headers=GM), 201)

    forward = diff(client, cid, eid, from_=1)
    assert forward["from_version"] == 1
    assert forward["to_version"] == 2
    assert forward["combatants"] == {
        ogre: {
            "name": "Ogre",
            "presence": {"from": False, "to": True},
            "tracks": {"from": None, "to": {"stamina": 12, "body": 10}},
        }
    }
    back = diff(client, cid, eid, from_=2, to=1)
    assert back["combatants"] == {
        ogre: {
            "name": "Ogre",
            "presence": {"from": True, "to": False},
            "tracks": {"from": {"stamina": 12, "body": 10}, "to": None},
        }
    }
    past = ok(client.get(f"/campaigns/{cid}/encounters/{eid}", params={"version": 1}, headers=GM))
    assert sorted(c["name"] for c in past["combatants"]) == ["Bran", "Goblin"]
