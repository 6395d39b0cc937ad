"""Issue 12: correcting the plan of a day already healed, over HTTP (preview, commit,
refusals that write nothing)."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from tests.helpers import act, enrol, event_count, new_campaign, ok, start
from tests.patience import HANG_SECONDS

SHEET = {"st": 10, "con": 10, "stamina_max": 20, "body_max": 10}


def test_a_healed_days_plan_is_corrected_with_a_preview_first(live_client: TestClient) -> None:
    client = live_client
    cid = new_campaign(client, "stamina-body")
    bran = enrol(client, cid, "Bran", SHEET)
    eid = start(client, cid, [{"character_id": bran, "side": "party"}])
    act(
        client, cid, eid, "take_hit", None, {"damage": [6, 6]},
        target=bran, damage_type="impact", damage_class=2,
    )  # fmt: skip  # 10/8
    ok(client.post(f"/campaigns/{cid}/encounters/{eid}/end"))
    ok(client.post(f"/campaigns/{cid}/days", json={"days": 1}), 201)  # full rest: 20/10
    character = f"/campaigns/{cid}/characters/{bran}"
    deadline = time.monotonic() + HANG_SECONDS
    while ok(client.get(character))["tracks"] != {"stamina": 20, "body": 10}:
        assert time.monotonic() < deadline, "the worker did not heal day 1"
        time.sleep(0.02)

    path = f"/campaigns/{cid}/days/1/plans/{bran}"
    before = event_count(client)
    preview = ok(client.post(f"{path}/preview", json={"plan": {"rest": "light"}}))
    assert event_count(client) == before
    assert [
        (s["kind"], s["day"], s["before"]["tracks"], s["after"]["tracks"]) for s in preview["steps"]
    ] == [
        ("heal", 1, {"stamina": 20, "body": 10}, {"stamina": 15, "body": 10}),
    ]  # light activity: 10 lost // 2 = 5 back; Body +2

    refusals = [
        ({"plan": {"rest": "sideways"}, "reason": "x"}, 422, "plan.rest"),
        ({"plan": {"rest": "full"}, "reason": "x"}, 409, "changes nothing"),
    ]
    for body, status, says in refusals:
        response = client.post(path, json=body)
        assert (response.status_code, says in response.text) == (status, True), response.text
    missing = client.post(f"/campaigns/{cid}/days/2/plans/{bran}", json={"plan": {}, "reason": "x"})
    assert missing.status_code == 404
    assert event_count(client) == before

    committed = ok(client.post(path, json={"plan": {"rest": "light"}, "reason": "they marched"}))
    assert committed["preview"]["steps"] == preview["steps"]
    assert ok(client.get(character))["tracks"] == {"stamina": 15, "body": 10}
    history = ok(client.get(f"/campaigns/{cid}/history", params={"kind": "CorrectionCarried"}))
    [entry] = history["entries"]
    assert (entry["correction"]["kind"], entry["correction"]["reason"], entry["by"]) == (
        "day_plan",
        "they marched",
        "gm:GM",
    )
