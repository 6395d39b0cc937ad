"""The event log and the SSE feed share their positions (a real `skald serve`): the log
read from 0 in pages of 7 is the feed, id for id; a client may read the log and go on
with the feed from the log's `next` (Last-Event-ID), missing nothing and nothing twice."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.e2e.server import Server
from tests.e2e.test_feed import SHEET, read_events
from tests.e2e.test_feed import server as server  # the same real `skald serve`
from tests.patience import HANG_SECONDS


def log_pages(http: httpx.Client, cid: str, after: int, size: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        page = http.get(f"/campaigns/{cid}/events", params={"after": after, "limit": size})
        assert page.status_code == 200, page.text
        if not page.json()["events"]:
            return events
        events += page.json()["events"]
        after = page.json()["next"]


def test_the_log_in_pages_of_7_is_the_feed_and_the_feed_resumes_from_the_log(
    server: Server,
) -> None:
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Both", "ruleset": "stamina-body"}).json()
    cid = created["id"]
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    hero = http.post(f"/campaigns/{cid}/characters", json={"name": "Hero", "sheet": SHEET})
    hero_id = hero.json()["id"]
    combatants = [{"character_id": hero_id, "side": "party"}]
    fight = http.post(f"/campaigns/{cid}/encounters", json={"name": "F", "combatants": combatants})
    path = f"/campaigns/{cid}/encounters/{fight.json()['id']}/actions"
    body = {"kind": "take_hit", "params": {"target": hero_id, "damage_type": "impact"}}

    def hit() -> None:
        answer = http.post(path, json={**body, "params": {**body["params"], "damage_class": 1}})
        assert answer.status_code == 201, answer.text

    for _ in range(12):
        hit()
    feed = read_events(http, f"/campaigns/{cid}/feed?after=0", 16)  # 4 + 12 events
    log = log_pages(http, cid, 0, 7)
    assert len(log) == 16
    assert [int(e["id"]) for e in feed] == [e["position"] for e in log]
    for sent, logged in zip(feed, log, strict=True):
        entry = json.loads(sent["data"])
        assert entry["id"] == logged["position"]
        assert (entry["type"], entry["aggregate_id"], entry["version"], entry["time"]) == (
            logged["type"], logged["aggregate_id"], logged["aggregate_version"], logged["time"],
        )  # fmt: skip
        assert {k: v for k, v in entry["data"].items() if k != "originator_topic"}.items() <= (
            logged["payload"].items()
        )

    # Read the log up to its end, then switch to the feed from the log's position.
    last = log[-1]["position"]
    hit()
    hit()
    resumed = read_events(http, f"/campaigns/{cid}/feed", 2, headers={"last-event-id": str(last)})
    after = log_pages(http, cid, last, 7)
    assert [int(e["id"]) for e in resumed] == [e["position"] for e in after]
    assert len(after) == 2 and after[0]["position"] > last
