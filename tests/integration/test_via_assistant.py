"""Writes through the assistant (issue 40): the MCP bridge's `Skald-Client: assistant`
is recorded on the events the write records (`via`), and the audit names their author
"<the key's label> via assistant"; a write without it is not; it grants nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers import GM, enrol, new_campaign, ok, start
from tests.integration.test_projections import caught_up
from tests.integration.test_table_api import SB

ASSISTANT = {"skald-client": "assistant"}


def hit(client: TestClient, path: str, target: str, key: dict[str, str]) -> Any:
    body = {
        "kind": "take_hit",
        "params": {"target": target, "damage_type": "impact", "damage_class": 1},
        "dice": {"damage": [1]},
    }
    return client.post(f"{path}/actions", json=body, headers=key)


def test_a_write_through_the_assistant_is_attributed_in_the_audit(
    live_client: TestClient,
) -> None:
    client = live_client
    cid = new_campaign(client, "stamina-body")
    ash = enrol(client, cid, "Ash", SB)
    bran = enrol(client, cid, "Bran", SB)
    eid = start(client, cid, [{"character_id": c, "side": "party"} for c in (ash, bran)])
    path = f"/campaigns/{cid}/encounters/{eid}"
    issued = client.post(
        f"/campaigns/{cid}/keys", json={"role": "player", "characters": [ash], "label": "Ana"}
    )
    ana = {"authorization": f"Bearer {ok(issued, 201)['key']}"}
    viewer = ok(client.post(f"/campaigns/{cid}/keys", json={"role": "viewer"}), 201)

    ok(hit(client, path, bran, {**GM, **ASSISTANT}), 201)  # the GM's assistant
    ok(hit(client, path, bran, GM), 201)  # the GM, not through it
    body = {"kind": "recover", "actor": ash, "params": {}, "dice": {"recovery": [3, 3, 3]}}
    ok(client.post(f"{path}/actions", json=body, headers={**ana, **ASSISTANT}), 201)
    # Attribution, not permission: a viewer's assistant may not act.
    refused = hit(client, path, bran, {"authorization": f"Bearer {viewer['key']}", **ASSISTANT})
    assert refused.status_code == 403
    # Another client's name is no client of note: not recorded.
    ok(hit(client, path, bran, {**GM, "skald-client": "my-script"}), 201)
    caught_up(client, cid)

    audit = ok(client.get(f"/campaigns/{cid}/audit?limit=500"))["entries"]
    actions = [e for e in audit if e["type"] == "Encounter.ActionResolved"]
    assert [(e["by"], e.get("via"), e.get("attributed")) for e in actions] == [
        ("gm:GM", "assistant", "GM via assistant"),
        ("gm:GM", None, None),
        ("player:Ana", "assistant", "Ana via assistant"),
        ("gm:GM", None, None),
    ]
    # The events before (the campaign, its characters, keys, the fight) carry no `via`.
    assert [e for e in audit if "via" in e or "via" in e["data"]] == actions[0:1] + actions[2:3]

    trail = ok(client.get(f"{path}/audit?limit=100"))["entries"]
    resolved = [e for e in trail if e["event"] == "ActionResolved"]
    assert [(e["by"], e.get("via"), e.get("attributed")) for e in resolved] == [
        ("gm:GM", "assistant", "GM via assistant"),
        ("gm:GM", None, None),
        ("player:Ana", "assistant", "Ana via assistant"),
        ("gm:GM", None, None),
    ]
    # The event log shows the field as recorded: on every event of the class (its version 2
    # on; version 3 records what the reads need of the rules, version 4 its record's texts,
    # issue 38).
    log = ok(client.get(f"/campaigns/{cid}/events"))["events"]
    logged = [e for e in log if e["type"] == "Encounter.ActionResolved"]
    assert [(e["type_version"], e["payload"]["via"]) for e in logged] == [
        (4, "assistant"),
        (4, None),
        (4, "assistant"),
        (4, None),
    ]


def test_a_correction_and_a_track_change_through_the_assistant_say_so(
    live_client: TestClient,
) -> None:
    client = live_client
    cid = new_campaign(client, "stamina-body")
    bran = enrol(client, cid, "Bran", SB)
    eid = start(client, cid, [{"character_id": bran, "side": "party"}])
    path = f"/campaigns/{cid}/encounters/{eid}"
    ok(hit(client, path, bran, GM), 201)
    void = {"reason": "wrong target"}
    ok(client.post(f"{path}/actions/1/void", json=void, headers={**GM, **ASSISTANT}))
    # A track change in the fight: a GM's change among its actions (Encounter.GMChanged),
    # its author inside its record.
    wound = {"set": {"stamina": 7}, "reason": "a fall"}
    ok(client.post(f"/campaigns/{cid}/characters/{bran}/tracks", json=wound,
                   headers={**GM, **ASSISTANT}))  # fmt: skip
    ok(client.post(f"{path}/end", headers=GM))
    tracks = {"set": {"stamina": 5}, "reason": "a fall"}
    changed = client.post(f"/campaigns/{cid}/characters/{bran}/tracks", json=tracks,
                          headers={**GM, **ASSISTANT})  # fmt: skip
    ok(changed)
    caught_up(client, cid)
    audit = ok(client.get(f"/campaigns/{cid}/audit?limit=500"))["entries"]
    attributed = [(e["type"], e["attributed"]) for e in audit if "attributed" in e]
    assert attributed == [
        ("Encounter.Corrected", "GM via assistant"),
        ("Encounter.GMChanged", "GM via assistant"),
        ("Campaign.TracksAdjusted", "GM via assistant"),
    ]
