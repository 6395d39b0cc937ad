"""The live feed over Server-Sent Events from a real `skald serve`: every audit entry
in order, and a client that reconnects with Last-Event-ID gets exactly what it missed."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.server import Server
from tests.patience import HANG_SECONDS

SHEET = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 30, "body_max": 20}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "data").start()
    try:
        yield running
    finally:
        running.stop()


def read_events(
    http: httpx.Client, path: str, count: int, headers: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """The first ``count`` SSE events (pings aside) of a stream, then hang up."""
    events: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    with http.stream("GET", path, headers=headers, timeout=HANG_SECONDS) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if not line:
                if "data" in current:
                    events.append(current)
                current = {}
                if len(events) == count:
                    break
                continue
            field, _, value = line.partition(":")
            current[field] = value.lstrip(" ")
    return events


def test_a_reconnecting_client_misses_nothing_and_gets_nothing_twice(server: Server) -> None:
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Feed", "ruleset": "stamina-body"}).json()
    cid = created["id"]
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    hero = http.post(f"/campaigns/{cid}/characters", json={"name": "Hero", "sheet": SHEET})
    combatants = [{"character_id": hero.json()["id"], "side": "party"}]
    eid = http.post(f"/campaigns/{cid}/encounters", json={"name": "F", "combatants": combatants})
    fight = eid.json()["id"]

    def hit() -> None:
        body = {
            "kind": "take_hit",
            "params": {"target": hero.json()["id"], "damage_type": "impact", "damage_class": 1},
        }
        path = f"/campaigns/{cid}/encounters/{fight}/actions"
        assert http.post(path, json=body).status_code == 201

    hit()
    first = read_events(http, f"/campaigns/{cid}/feed?after=0", 5)
    audit = http.get(f"/campaigns/{cid}/audit?limit=100").json()["entries"]
    assert [int(e["id"]) for e in first] == [a["id"] for a in audit]
    assert all(e["event"] == "entry" for e in first)
    assert json.loads(first[-1]["data"])["type"] == "Encounter.ActionResolved"

    hit()  # while nobody listens
    hit()
    resumed = read_events(
        http, f"/campaigns/{cid}/feed", 2, headers={"last-event-id": first[-1]["id"]}
    )
    audit = http.get(f"/campaigns/{cid}/audit?limit=100").json()["entries"]
    assert [int(e["id"]) for e in resumed] == [a["id"] for a in audit[-2:]]
    assert [json.loads(e["data"])["seq"] for e in resumed] == [6, 7]


def test_the_feed_needs_a_key_that_opens_the_campaign(server: Server) -> None:
    """What the route-by-caller matrix checks for every other route (a stream never
    ends, so it is checked here): no key or a foreign key is refused; every role of
    the campaign may read."""
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    other = http.post("/campaigns", json={"name": "Other", "ruleset": "stamina-body"}).json()
    created = http.post("/campaigns", json={"name": "Feed", "ruleset": "stamina-body"}).json()
    cid, gm = created["id"], {"authorization": f"Bearer {created['gm_key']}"}
    hero = http.post(
        f"/campaigns/{cid}/characters", json={"name": "Hero", "sheet": SHEET}, headers=gm
    ).json()["id"]

    def issue(role: str, characters: list[str]) -> str:
        body = {"role": role, "characters": characters}
        response = http.post(f"/campaigns/{cid}/keys", json=body, headers=gm)
        assert response.status_code == 201, response.text
        return str(response.json()["key"])

    path = f"/campaigns/{cid}/feed?after=0"

    def bearer(key: str) -> dict[str, str]:
        return {"authorization": f"Bearer {key}"}

    assert http.get(path).status_code == 401
    assert http.get(path, headers=bearer("skald_0123456789abcdef_x")).status_code == 401
    assert http.get(path, headers=bearer(other["gm_key"])).status_code == 401
    # A key in the query is never taken (browsers send URLs on in Referer; logs keep them).
    assert http.get(f"{path}&key={created['gm_key']}").status_code == 401
    for key in (issue("viewer", []), issue("player", [hero]), created["gm_key"]):
        first = read_events(http, path, 1, headers=bearer(key))
        assert json.loads(first[0]["data"])["type"] == "Campaign.Created"


def test_a_client_resuming_from_before_the_streams_reach_is_told_to_reset(
    server: Server,
) -> None:
    """The feed keeps the last 500 entries per campaign; a client asking from before
    them first gets a ``reset`` (refetch the views), then the entries that are there."""
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Long", "ruleset": "stamina-body"}).json()
    cid = created["id"]
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    hero = http.post(f"/campaigns/{cid}/characters", json={"name": "Hero", "sheet": SHEET})
    hero_id = hero.json()["id"]
    body = {
        "kind": "take_hit",
        "params": {"target": hero_id, "damage_type": "impact", "damage_class": 1},
    }
    combatants = [{"character_id": hero_id, "side": "party"}]
    while http.get(f"/campaigns/{cid}/audit?limit=1").json()["projection"]["store"] < 520:
        fight = http.post(
            f"/campaigns/{cid}/encounters", json={"name": "F", "combatants": combatants}
        )
        path = f"/campaigns/{cid}/encounters/{fight.json()['id']}"
        for _ in range(100):
            assert http.post(f"{path}/actions", json=body).status_code == 201
        assert http.post(f"{path}/end").status_code == 200
    deadline = time.monotonic() + HANG_SECONDS
    while (audit := http.get(f"/campaigns/{cid}/audit?limit=1").json())["projection"]["behind"]:
        assert time.monotonic() < deadline, "the views did not catch up"
        time.sleep(0.05)
    assert audit["total"] > 500 + 2

    events = read_events(http, f"/campaigns/{cid}/feed", 3, headers={"last-event-id": "2"})
    assert events[0]["event"] == "reset"
    oldest = json.loads(events[0]["data"])["oldest"]
    entries = [json.loads(e["data"]) for e in events[1:]]
    assert entries[0]["id"] == oldest
    assert [e["seq"] for e in entries] == [audit["total"] - 499, audit["total"] - 498]
