"""The live feed's clients share one Redis reader per campaign in a process
(api/feed_hub.py), from a real `skald serve`: three clients of one campaign keep one
blocking read in Redis, not three; each gets every entry once, in order, and a
rebuild's switch to a new generation is noticed (the entries after it arrive)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import redis

from skald_campaign.application.application import SkaldApplication
from skald_campaign.projections.rebuild import Rebuilder
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from tests.e2e.server import Server
from tests.e2e.test_feed import SHEET, server
from tests.patience import HANG_SECONDS

__all__ = ["server"]  # the fixture, shared with test_feed


def entries_until(
    url: str, key: str, count: int, into: list[dict[str, Any]], ready: threading.Event
) -> None:
    """Read a feed until ``count`` entries came (pings aside), or give up at the deadline."""
    deadline = time.monotonic() + HANG_SECONDS
    current: dict[str, str] = {}
    auth = {"authorization": f"Bearer {key}"}
    with httpx.stream("GET", url, headers=auth, timeout=HANG_SECONDS) as response:
        ready.set()
        for line in response.iter_lines():
            if time.monotonic() > deadline:
                return
            if line:
                field, _, value = line.partition(":")
                current[field] = value.lstrip(" ")
                continue
            if current.get("event") == "entry":
                into.append(current)
            current = {}
            if len(into) == count:
                return


def embedded_redis(data_dir: Path) -> redis.Redis:
    """The server's own embedded Redis, by the socket its pidfile names."""
    record = json.loads((data_dir / "embedded-redis.pid").read_text())
    return redis.Redis(unix_socket_path=f"{record['socket_dir']}/redis.sock")


def blocked_readers(client: redis.Redis) -> int:
    """Connections blocked in a command (the feed's XREAD) right now."""
    listed: Any = client.client_list()
    return sum(1 for c in listed if "b" in c["flags"])


def test_clients_of_one_campaign_share_one_reader_and_get_every_entry_once_across_a_rebuild(
    server: Server,
) -> None:
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Hub", "ruleset": "stamina-body"}).json()
    cid = created["id"]
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    hero = http.post(f"/campaigns/{cid}/characters", json={"name": "Hero", "sheet": SHEET})
    hero_id = hero.json()["id"]
    combatants = [{"character_id": hero_id, "side": "party"}]
    fight = http.post(f"/campaigns/{cid}/encounters", json={"name": "F", "combatants": combatants})
    actions = f"/campaigns/{cid}/encounters/{fight.json()['id']}/actions"
    hit_once = {"target": hero_id, "damage_type": "impact", "damage_class": 1}
    body = {"kind": "take_hit", "params": hit_once}

    def hit() -> None:
        assert http.post(actions, json=body).status_code == 201

    hit()
    deadline = time.monotonic() + HANG_SECONDS
    while (audit := http.get(f"/campaigns/{cid}/audit?limit=100").json())["projection"]["behind"]:
        assert time.monotonic() < deadline, "the views did not catch up"
        time.sleep(0.05)
    before = len(audit["entries"])  # 5: created, enrolled, opened, started, the hit
    feed = f"{server.url}/campaigns/{cid}/feed?after=0"
    seen: list[list[dict[str, Any]]] = [[], [], []]
    ready = [threading.Event() for _ in seen]
    readers = [
        threading.Thread(
            target=entries_until,
            args=(feed, created["gm_key"], before + 2, into, up),
            daemon=True,
        )
        for into, up in zip(seen, ready, strict=True)
    ]
    for reader in readers:
        reader.start()
    for up in ready:
        assert up.wait(HANG_SECONDS)
    while any(len(into) < before for into in seen):  # every client has caught up
        assert time.monotonic() < deadline, "the clients did not catch up"
        time.sleep(0.05)

    views = embedded_redis(server.data_dir)
    try:
        blocked = [blocked_readers(views) for _ in range(30) if not time.sleep(0.1)]
        assert max(blocked) == 1, blocked  # one reader for the three clients

        # A rebuild switches the views to a new generation while the clients listen.
        app = SkaldApplication(env=persistence_env(Settings(data_dir=server.data_dir)))
        try:
            Rebuilder(views, app.recorder, app.mapper, app.name, "skald").rebuild_all()
        finally:
            app.close()
    finally:
        views.close()
    hit()
    hit()
    for reader in readers:
        reader.join(HANG_SECONDS)
    audit = http.get(f"/campaigns/{cid}/audit?limit=100").json()["entries"]
    assert len(audit) == before + 2
    for into in seen:  # every entry, once, in order: the log's own ids
        assert [int(e["id"]) for e in into] == [a["id"] for a in audit]
        assert [json.loads(e["data"])["seq"] for e in into] == list(range(1, before + 3))
