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
from skald_campaign.projections.keys import Generations, ViewKeys
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


def log_reads(client: redis.Redis) -> int:
    """LRANGEs the embedded Redis has served so far (a feed reader's read of a log)."""
    stats: Any = client.info("commandstats")
    return int(stats.get("cmdstat_lrange", {}).get("calls", 0))


def test_a_client_gets_the_entries_the_servers_runner_committed_without_a_read_of_the_log(
    server: Server,
) -> None:
    """The feed reader takes the JSON of the entries the server's own runner committed
    from memory (projections/feed_entries.py): the live entries cost Redis no LRANGE
    (one per batch of the reader before), and they are exactly what the log holds."""
    http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
    created = http.post("/campaigns", json={"name": "Kept", "ruleset": "stamina-body"}).json()
    cid = created["id"]
    http.headers["authorization"] = f"Bearer {created['gm_key']}"
    hero = http.post(f"/campaigns/{cid}/characters", json={"name": "Hero", "sheet": SHEET})
    combatants = [{"character_id": hero.json()["id"], "side": "party"}]
    fight = http.post(f"/campaigns/{cid}/encounters", json={"name": "F", "combatants": combatants})
    actions = f"/campaigns/{cid}/encounters/{fight.json()['id']}/actions"
    hit_once = {"target": hero.json()["id"], "damage_type": "impact", "damage_class": 1}
    deadline = time.monotonic() + HANG_SECONDS
    while http.get(f"/campaigns/{cid}/audit?limit=100").json()["projection"]["behind"]:
        assert time.monotonic() < deadline, "the views did not catch up"
        time.sleep(0.05)
    before = 4  # created, enrolled, the encounter started and opened
    seen: list[dict[str, Any]] = []
    ready = threading.Event()
    feed = f"{server.url}/campaigns/{cid}/feed?after=0"
    reader = threading.Thread(
        target=entries_until, args=(feed, created["gm_key"], before + 5, seen, ready), daemon=True
    )
    reader.start()
    assert ready.wait(HANG_SECONDS)
    while len(seen) < before:  # caught up (from the log: the catch-up reads it)
        assert time.monotonic() < deadline, "the client did not catch up"
        time.sleep(0.05)
    views = embedded_redis(server.data_dir)
    try:
        reads = log_reads(views)
        for hits in range(1, 6):  # one at a time: each its own batch of the reader
            answer = http.post(actions, json={"kind": "take_hit", "params": hit_once})
            assert answer.status_code == 201
            while len(seen) < before + hits:
                assert time.monotonic() < deadline, "the entry did not come"
                time.sleep(0.01)
        reader.join(HANG_SECONDS)
        assert log_reads(views) - reads == 0
        generations = Generations("skald")
        generation = generations.current(views)
        assert generation is not None
        log: Any = views.lrange(ViewKeys(generations.root(generation)).audit(cid), 0, -1)
    finally:
        views.close()
    assert [e["data"] for e in seen] == [raw.decode() for raw in log]
    assert [int(e["id"]) for e in seen] == [json.loads(raw)["id"] for raw in log]
