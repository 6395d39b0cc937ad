"""Safe writes on the real server: idempotent retries, hostile input, keys kept secret."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

SHEET = {"st": 10, "con": 12, "stamina_max": 12, "body_max": 10}


def setup(http: httpx.Client) -> dict[str, str]:
    created = http.post("/campaigns", json={"name": "Storm", "ruleset": "stamina-body"}).json()
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    cid = created["id"]
    hero = http.post(f"/campaigns/{cid}/characters", json={"name": "Hero", "sheet": SHEET}).json()
    fight = http.post(
        f"/campaigns/{cid}/encounters",
        json={"name": "Fight", "combatants": [{"character_id": hero["id"], "side": "a"}]},
    ).json()
    return {"cid": cid, "hero": hero["id"], "eid": fight["id"], "gm_key": created["gm_key"]}


def test_a_retry_storm_records_exactly_one_action_even_across_a_restart(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
            ids = setup(http)
            path = f"/campaigns/{ids['cid']}/encounters/{ids['eid']}/actions"
            body = {
                "kind": "take_hit",
                "params": {"target": ids["hero"], "damage_type": "impact", "damage_class": 2},
            }
            headers = {"idempotency-key": "hit-42"}

            def send(_: int) -> tuple[int, Any]:
                response = http.post(path, json=body, headers=headers)
                return response.status_code, response.json()

            with ThreadPoolExecutor(max_workers=8) as pool:
                results = list(pool.map(send, range(50)))
            assert {status for status, _ in results} == {201}
            first = results[0][1]
            assert all(answer == first for _, answer in results)
            fight = http.get(f"/campaigns/{ids['cid']}/encounters/{ids['eid']}").json()
            assert len(fight["actions"]) == 1

            other = http.post(
                path,
                json={**body, "params": {**body["params"], "damage_class": 3}},
                headers=headers,
            )
            assert other.status_code == 422
            assert "different request body" in other.json()["message"]
        server.stop()
        server.start()
        with httpx.Client(
            base_url=server.url,
            timeout=HANG_SECONDS,
            headers={"authorization": f"Bearer {ids['gm_key']}"},
        ) as http:
            again = http.post(path, json=body, headers=headers)
            assert (again.status_code, again.json()) == (201, first)
            fight = http.get(f"/campaigns/{ids['cid']}/encounters/{ids['eid']}").json()
            assert len(fight["actions"]) == 1
    finally:
        server.stop()


def test_hostile_input_is_refused_with_clear_statuses(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
            ids = setup(http)
            events = http.get("/health").json()["event_store"]["events"]
            big = http.post(
                f"/campaigns/{ids['cid']}/characters",
                json={"name": "Big", "sheet": {**SHEET, "x": "y" * 300_000}},
            )
            assert big.status_code == 413
            assert "over the limit" in big.json()["message"]
            path = f"/campaigns/{ids['cid']}/encounters/{ids['eid']}/actions"
            many = http.post(
                path,
                json={"kind": "recover", "actor": ids["hero"], "dice": {"recovery": [1] * 101}},
            )
            assert many.status_code == 422
            assert "dice.recovery" in many.json()["message"]
            long_name = http.post(
                f"/campaigns/{ids['cid']}/characters", json={"name": "n" * 121, "sheet": SHEET}
            )
            assert long_name.status_code == 422
            assert "name" in long_name.json()["message"]
            crowd = http.post(
                f"/campaigns/{ids['cid']}/encounters",
                json={
                    "name": "Crowd",
                    "combatants": [{"character_id": ids["hero"], "side": "a"}] * 51,
                },
            )
            assert crowd.status_code == 422
            assert "combatants" in crowd.json()["message"]
            reason = http.post(f"{path}/1/void", json={"reason": "r" * 501})
            assert reason.status_code == 422
            assert http.get("/health").json()["event_store"]["events"] == events
    finally:
        server.stop()


def test_keys_never_appear_in_logs_events_or_later_responses(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=HANG_SECONDS) as http:
            ids = setup(http)
            cid = ids["cid"]
            player = http.post(
                f"/campaigns/{cid}/keys",
                json={"role": "player", "characters": [ids["hero"]], "label": "Ana"},
            ).json()["key"]
            viewer = http.post(f"/campaigns/{cid}/keys", json={"role": "viewer"}).json()["key"]
            secrets = [ids["gm_key"], player, viewer]
            later = [
                http.get(f"/campaigns/{cid}"),
                http.get(f"/campaigns/{cid}/keys"),
                http.get(f"/campaigns/{cid}/history"),
                http.get(f"/campaigns/{cid}/encounters/{ids['eid']}/audit"),
                # A key in a query is refused (and still redacted from the log).
                http.get(f"/campaigns/{cid}?key={viewer}", headers={"authorization": ""}),
                http.post(
                    f"/campaigns/{cid}/encounters/{ids['eid']}/actions",
                    headers={"authorization": f"Bearer {player}"},
                    json={"kind": "recover", "actor": ids["hero"]},
                ),
            ]
            assert [r.status_code for r in later] == [200, 200, 200, 200, 401, 201]
            for response in later:
                for secret in secrets:
                    assert secret not in response.text
    finally:
        server.stop()
    log = server.log.read_text()
    assert "?key=[redacted]" in log
    store = sqlite3.connect(tmp_path / "data" / "events.sqlite3")
    rows = store.execute("SELECT state FROM stored_events").fetchall()
    assert rows
    dump = b"".join(bytes(row[0]) for row in rows)
    for secret in secrets:
        assert secret not in log
        assert secret.encode() not in dump
