"""Issue 12, part 4: a rerolled action's record says what the new dice did, conditions too."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.helpers import act, enrol, new_campaign, ok, start

SHEET = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 2}
SPEAR = {"name": "spear", "damage_class": 2, "damage_type": "piercing", "skill": 14}


def test_a_knockout_rerolled_into_a_miss_no_longer_downs_anyone(client: TestClient) -> None:
    cid = new_campaign(client, "stamina-body")
    ogre = enrol(client, cid, "Ogre", {**SHEET, "body_max": 10, "weapons": [SPEAR]})
    bran = enrol(client, cid, "Bran", SHEET)
    eid = start(
        client,
        cid,
        [{"character_id": ogre, "side": "foes"}, {"character_id": bran, "side": "party"}],
    )
    blow = act(
        client,
        cid,
        eid,
        "attack",
        ogre,
        {"hit": [1, 2, 2], "damage": [6, 6]},
        target=bran,
        weapon="spear",
        defense="none",  # the GM resolves in one request, naming the defense
    )["action"]
    assert blow["conditions"] == {
        bran: {"before": [], "after": ["unconscious", "cannot_act", "piercing_wound"]}
    }

    base = f"/campaigns/{cid}/encounters/{eid}"
    body = {"reason": "the die rolled off the table", "dice": {"hit": [6, 6, 6]}}
    rerolled = ok(client.post(f"{base}/actions/1/reroll", json=body))
    record = rerolled["encounter"]["actions"][0]
    assert record["summary"] == rerolled["report"][0]["after"]
    assert record["rerolled"] is True
    bran_now = next(c for c in rerolled["encounter"]["combatants"] if c["id"] == bran)
    assert bran_now["conditions"] == []
    assert record["conditions"] == {}  # a miss touches no one
    assert record["effects"] == {"tracks": {}, "state": {}}

    # The encounter as served later, and the trail, say the same.
    served = ok(client.get(base))["actions"][0]
    assert served["conditions"] == {}
    assert served["summary"] == "Ogre misses Bran"
    audit = ok(client.get(f"{base}/audit", params={"kind": "reroll"}))
    assert [e["correction"]["report"][0]["after"] for e in audit["entries"]] == ["Ogre misses Bran"]
