"""Issue 12 in the views: a carried correction, an amendment and a join reach the vitals
and the board (the views are built from the events, in the order one save wrote them)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.helpers import act, enrol, new_campaign, ok, start
from tests.integration.test_projections import caught_up

SHEET = {"st": 10, "con": 10, "stamina_max": 20, "body_max": 10}


def test_views_follow_a_correction_past_the_end_an_amendment_and_a_join(
    live_client: TestClient,
) -> None:
    client = live_client
    cid = new_campaign(client, "stamina-body")
    bran = enrol(client, cid, "Bran", SHEET)
    mira = enrol(client, cid, "Mira", SHEET)
    first = start(client, cid, [{"character_id": bran, "side": "party"}])
    act(
        client, cid, first, "take_hit", None, {"damage": [6, 6]},
        target=bran, damage_type="impact", damage_class=2,
    )  # fmt: skip
    ok(client.post(f"/campaigns/{cid}/encounters/{first}/end"))
    second = start(client, cid, [{"character_id": bran, "side": "party"}])
    act(
        client, cid, second, "take_hit", None, {"damage": [4]},
        target=bran, damage_type="impact", damage_class=1,
    )  # fmt: skip
    ok(client.post(f"/campaigns/{cid}/encounters/{second}/end"))
    vitals = caught_up(client, cid)
    assert vitals["characters"][0]["tracks"]["stamina"]["current"] == 7  # 20 - 10 - 3

    void = f"/campaigns/{cid}/encounters/{first}/actions/1/void"
    ok(client.post(void, json={"reason": "never landed"}))
    vitals = caught_up(client, cid)
    assert vitals["characters"][0]["tracks"]["stamina"]["current"] == 17
    assert vitals["characters"][0]["tracks"]["body"]["current"] == 10
    board = ok(client.get(f"/campaigns/{cid}/encounters/{second}/board"))
    assert [c["tracks"] for c in board["combatants"]] == [
        {"stamina": {"current": 17, "max": 20}, "body": {"current": 10, "max": 10}}
    ]

    amend = {"changes": {"stamina_max": 15}, "reason": "an old wound"}
    ok(client.post(f"/campaigns/{cid}/characters/{bran}/sheet", json=amend))
    vitals = caught_up(client, cid)
    assert vitals["characters"][0]["tracks"]["stamina"] == {"current": 15, "max": 15}

    third = start(client, cid, [{"character_id": bran, "side": "party"}])
    join = {"character_id": mira, "side": "party", "rank": 2, "reason": "arrives"}
    ok(client.post(f"/campaigns/{cid}/encounters/{third}/combatants", json=join), 201)
    caught_up(client, cid)
    board = ok(client.get(f"/campaigns/{cid}/encounters/{third}/board"))
    assert [c["id"] for c in board["combatants"]] == [bran, mira]
    assert board["last_actions"][-1]["kind"] == "join"
