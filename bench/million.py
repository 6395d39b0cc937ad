"""Command latency over a store of 10^6 events against an empty store, in one run:
the bench builds the big store itself, through the library's recorder in large
transactions, and says how long that took."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from uuid import uuid4

import httpx

from bench.live import JSON, percentile
from bench.server import Server

Setup = Callable[[str, int], tuple[str, list[str], list[str]]]


def build_store(data_dir: Path, events: int, per_stream: int = 1000) -> float:
    """A store of ``events`` events, written through the library's recorder in large
    transactions; returns the seconds it took.

    The events are copies of one encounter's rounds under fresh originator ids, with
    no Started event: the views find no campaign for them and skip them, so the
    server's views catch up in seconds rather than projecting 10^6 audit entries."""
    from eventsourcing.persistence import StoredEvent

    from skald_campaign.application.application import SkaldApplication
    from skald_campaign.application.commands import (
        Combatant,
        CreateCampaign,
        EnrolCharacter,
        NextRound,
        StartEncounter,
    )
    from skald_campaign.settings import Settings
    from skald_campaign.store import persistence_env

    started = time.perf_counter()
    app = SkaldApplication(env=persistence_env(Settings(data_dir=data_dir)))
    campaign = app.create_campaign(CreateCampaign("template", "stamina-body"))
    _, hero = app.enrol_character(
        EnrolCharacter(campaign.id, "Hero", {"st": 10, "con": 10, "stamina_max": 9, "body_max": 9})
    )
    fight = app.start_encounter(StartEncounter(campaign.id, "t", (Combatant(hero, "a"),)))
    for _ in range(9):
        app.next_round(NextRound(campaign.id, fight.id))
    rounds = [e for e in app.recorder.select_events(fight.id) if e.originator_version > 1]
    stored = app.recorder.max_notification_id() or 0
    batch: list[StoredEvent] = []
    while stored + len(batch) < events:
        originator = uuid4()
        for version in range(2, per_stream + 2):
            template = rounds[version % len(rounds)]
            batch.append(StoredEvent(originator, version, template.topic, template.state))
        if len(batch) >= 50_000 or stored + len(batch) >= events:
            app.recorder.insert_events(batch[: events - stored])
            stored += min(len(batch), events - stored)
            batch = []
    app.close()
    return time.perf_counter() - started


def command_latencies(url: str, key: str, path: str, body: str, count: int) -> list[float]:
    """One client, one command after another: each one's round trip."""
    headers = {"authorization": f"Bearer {key}", **JSON}
    times = []
    with httpx.Client(base_url=url, headers=headers, timeout=30) as client:
        for _ in range(count):
            started = time.perf_counter()
            client.post(path, content=body).raise_for_status()
            times.append(time.perf_counter() - started)
    return times


def caught_up(url: str, key: str, path: str, timeout: float = 600) -> float:
    """Wait until the server's views have taken in the whole store; seconds waited."""
    started = time.perf_counter()
    vitals = f"/campaigns/{path.split('/')[2]}/vitals"
    headers = {"authorization": f"Bearer {key}"}
    while time.perf_counter() - started < timeout:
        if httpx.get(url + vitals, headers=headers, timeout=30).json()["projection"]["behind"] == 0:
            return time.perf_counter() - started
        time.sleep(0.2)
    raise RuntimeError(f"the views of {url} did not catch up in {timeout} s")


def store_size(data: Path, setup: Setup, events: int, env: dict[str, str]) -> dict[str, float]:
    """p50 of one client's commands on a server over ``events`` stored events and on
    one over an empty store, taken in alternating rounds so the machine's load moves
    under both alike."""
    built = build_store(data / "big", events)
    big, empty = Server(data / "big", env=env).start(), Server(data / "empty", env=env)
    try:
        empty.start()  # in the try: if it fails, the first server is stopped too
        targets = [setup(server.url, 1) for server in (big, empty)]
        waited = caught_up(big.url, targets[0][0], targets[0][1][0])
        times: list[list[float]] = [[], []]
        for _ in range(4):
            for n, (server, (key, paths, bodies)) in enumerate(
                zip((big, empty), targets, strict=True)
            ):
                times[n] += command_latencies(server.url, key, paths[0], bodies[0], 50)
    finally:
        big.stop()
        empty.stop()
    return {
        "built_s": built,
        "caught_up_s": waited,
        "big_p50_ms": 1000 * percentile(times[0], 50),
        "empty_p50_ms": 1000 * percentile(times[1], 50),
    }
