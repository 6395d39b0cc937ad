"""The README walkthrough against the real server, then a restart: nothing is lost."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

LONGSWORD = {"name": "longsword", "damage_class": 3, "damage_type": "piercing", "skill": 13}


def walkthrough(http: httpx.Client) -> dict[str, str]:
    """The same requests, in the same order, as the README's curl walkthrough."""
    campaign = http.post("/campaigns", json={"name": "The Sunken Crown", "ruleset": "stamina-body"})
    assert campaign.status_code == 201, campaign.text
    cid = campaign.json()["id"]
    http.headers["authorization"] = f"Bearer {campaign.json()['gm_key']}"
    bran = http.post(
        f"/campaigns/{cid}/characters",
        json={
            "name": "Bran",
            "sheet": {
                "st": 13,
                "con": 12,
                "parry": 11,
                "dodge": 10,
                "stamina_max": 12,
                "body_max": 10,
                "armour_resilience": 4,
                "weapons": [LONGSWORD],
            },
        },
    )
    assert bran.status_code == 201, bran.text
    bran_id = bran.json()["id"]
    fight = http.post(
        f"/campaigns/{cid}/encounters",
        json={
            "name": "Ambush at the ford",
            "combatants": [{"character_id": bran_id, "side": "party", "rank": 1}],
        },
    )
    assert fight.status_code == 201, fight.text
    eid = fight.json()["id"]
    hit = http.post(
        f"/campaigns/{cid}/encounters/{eid}/actions",
        json={
            "kind": "take_hit",
            "params": {"target": bran_id, "damage_type": "piercing", "damage_class": 3},
            "dice": {"damage": [2, 4, 6]},
        },
    )
    assert hit.status_code == 201, hit.text
    assert hit.json()["action"]["summary"] == (
        "Bran takes 5 Stamina and 1 Body (7/3 raw); Bran gains: piercing wound"
    )
    return {"cid": cid, "bran": bran_id, "eid": eid, "key": campaign.json()["gm_key"]}


def snapshot(http: httpx.Client, ids: dict[str, str]) -> dict[str, object]:
    return {
        "campaign": http.get(f"/campaigns/{ids['cid']}").json(),
        "character": http.get(f"/campaigns/{ids['cid']}/characters/{ids['bran']}").json(),
        "encounter": http.get(f"/campaigns/{ids['cid']}/encounters/{ids['eid']}").json(),
        "encounter_v1": http.get(
            f"/campaigns/{ids['cid']}/encounters/{ids['eid']}?version=1"
        ).json(),
    }


def test_walkthrough_survives_a_restart(tmp_path: Path) -> None:
    server = Server(tmp_path / "skald-data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
            health = http.get("/health").json()
            assert health["status"] == "ok"
            assert health["redis"] == {"mode": "embedded", "ok": True}
            ids = walkthrough(http)
            before = snapshot(http, ids)
            events = http.get("/health").json()["event_store"]["events"]
        server.stop()
        assert (tmp_path / "skald-data" / "events.sqlite3").exists()
        server.start()
        # The GM key still opens the campaign: the server secret lives in the data dir.
        auth = {"authorization": f"Bearer {ids['key']}"}
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS, headers=auth) as http:
            assert snapshot(http, ids) == before
            assert http.get("/health").json()["event_store"]["events"] == events == 5
    finally:
        server.stop()
