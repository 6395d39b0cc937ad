"""Projection throughput and live lag, on the embedded default (SQLite + embedded Redis).

Prints, from one run on one store:
- the raw rate of reading and decoding every notification from the store;
- the rate of `skald projections rebuild` (read, decode, project, commit) over the
  same notifications, and its share of the raw rate (target: at least 50%);
- the live lag of a burst of commands: from the moment a command has appended its
  event to the moment the views in Redis include it, p50 and p99 (target p99 <= 100 ms).

    .venv/bin/python bench/projections.py [--events 6000] [--burst 300] [--redis-url URL]
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

# This file is called projections.py, and Python puts its folder first on the path,
# where it would shadow the projections package it measures.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import gc
import multiprocessing
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from uuid import UUID

import redis

from domain.application import SkaldApplication
from domain.commands import (
    Combatant,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)
from projections.engine import PROJECTIONS
from projections.keys import Generations, ViewKeys
from projections.rebuild import Rebuilder
from skald.embedded_redis import EmbeddedRedis
from skald.services import SQLITE_RECORDER
from skald.settings import Settings
from skald.store import persistence_env
from workers.projections import ProjectionRunner, Supervisor

SHEET = {"st": 12, "con": 12, "stamina_max": 200, "body_max": 200, "armour_resilience": 2}
PREFIX = "bench"


def hit(campaign: UUID, encounter: UUID, target: str) -> PerformAction:
    params = {"target": target, "damage_type": "impact", "damage_class": 2}
    return PerformAction(campaign, encounter, "take_hit", params)


def fill_store(app: SkaldApplication, events: int) -> None:
    """Campaigns of four, encounters of 80 hits (long enough to be real, short enough
    that the aggregate cache's deep copies don't dominate the set-up)."""
    while (app.recorder.max_notification_id() or 0) < events:
        campaign = app.create_campaign(CreateCampaign("Bench", "stamina-body"))
        party = [
            app.enrol_character(EnrolCharacter(campaign.id, f"H{i}", SHEET))[1] for i in range(4)
        ]
        for _ in range(5):
            fight = app.start_encounter(
                StartEncounter(campaign.id, "Fight", tuple(Combatant(h, "party") for h in party))
            )
            for n in range(80):
                app.perform_action(hit(campaign.id, fight.id, party[n % 4]))
            app.end_encounter(EndEncounter(campaign.id, fight.id))


def raw_read(app: SkaldApplication, batch: int = 2000) -> int:
    """Read and decode every notification, as the rebuild does, projecting nothing."""
    position = count = 0
    while True:
        notifications = app.recorder.select_notifications(
            start=position, limit=batch, inclusive_of_start=False
        )
        if not notifications:
            return count
        for notification in notifications:
            app.mapper.to_domain_event(notification)
        position, count = notifications[-1].id, count + len(notifications)


def timed(run: Callable[[], int]) -> float:
    started = time.perf_counter()
    count = run()
    return count / (time.perf_counter() - started)


def views_position(client: redis.Redis, application: str) -> int:
    """The last event every view includes."""
    generations = Generations(PREFIX)
    generation = generations.current(client)
    if generation is None:
        return 0
    keys = ViewKeys(generations.root(generation))
    reads = client.pipeline(transaction=False)
    for projection in PROJECTIONS:
        reads.hget(keys.tracking(projection.name), application)
    return min(int(p or 0) for p in reads.execute())


def watch_positions(url: str, application: str, pipe: Connection) -> None:
    """In another process, so its polling takes nothing from the server's GIL: note
    when each position first shows in Redis (CLOCK_MONOTONIC is shared by processes)."""
    client = redis.Redis.from_url(url)
    seen: dict[int, float] = {}
    last = 0
    pipe.send("ready")
    while not pipe.poll():
        position = views_position(client, application)
        if position > last:
            now = time.monotonic()
            for p in range(last + 1, position + 1):
                seen[p] = now
            last = position
    pipe.send(seen)


def live_lag(app: SkaldApplication, client: redis.Redis, url: str, burst: int) -> list[float]:
    stop = threading.Event()
    supervisor = Supervisor("bench runner", lambda: ProjectionRunner(app, client, PREFIX))
    runner = threading.Thread(target=supervisor.run, args=(stop,))
    runner.start()
    ours, theirs = multiprocessing.Pipe()
    watcher = multiprocessing.get_context("fork").Process(
        target=watch_positions, args=(url, app.name, theirs)
    )
    watcher.start()
    assert ours.recv() == "ready"
    campaign = app.create_campaign(CreateCampaign("Live", "stamina-body"))
    party = [app.enrol_character(EnrolCharacter(campaign.id, f"H{i}", SHEET))[1] for i in range(4)]
    fight = app.start_encounter(
        StartEncounter(campaign.id, "Burst", tuple(Combatant(h, "party") for h in party))
    )
    appended: dict[int, float] = {}
    for n in range(burst):
        app.perform_action(hit(campaign.id, fight.id, party[n % 4]))
        appended[app.recorder.max_notification_id() or 0] = time.monotonic()
    deadline = time.monotonic() + 30
    while views_position(client, app.name) < max(appended) and time.monotonic() < deadline:
        time.sleep(0.01)
    ours.send("stop")
    seen: dict[int, float] = ours.recv()
    watcher.join()
    stop.set()
    runner.join()
    return [seen[i] - t for i, t in appended.items()]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--events", type=int, default=6000, help="events in the store")
    parser.add_argument("--burst", type=int, default=300, help="commands in the live burst")
    parser.add_argument("--runs", type=int, default=3, help="runs of each rate (median)")
    parser.add_argument("--redis-url", help="an external Redis (default: the embedded one)")
    args = parser.parse_args()

    directory = Path(tempfile.mkdtemp(prefix="skald-bench-"))
    embedded = None if args.redis_url else EmbeddedRedis(directory / "redis")
    url = args.redis_url or embedded.url  # type: ignore[union-attr]
    client = redis.Redis.from_url(url)
    env = persistence_env(Settings(data_dir=directory / "data"))
    env["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER
    env["AGGREGATE_CACHE_MAXSIZE"] = "1000"
    app = SkaldApplication(env=env, roller=random.Random(1))
    try:
        started = time.perf_counter()
        fill_store(app, args.events)
        events = app.recorder.max_notification_id() or 0
        took = time.perf_counter() - started
        print(f"store: {events:,} events (SQLite, written in {took:.0f} s)")
        # Measure as `skald projections rebuild` runs: a fresh process state, not one
        # holding the writer's aggregate cache (whose objects every full garbage
        # collection would walk, in both measurements, at random).
        app.close()
        app = SkaldApplication(env=env, roller=random.Random(1))
        gc.collect()
        print(f"redis: {'external ' + url if args.redis_url else 'embedded (unix socket)'}")
        rebuilder = Rebuilder(client, app.recorder, app.mapper, app.name, PREFIX)
        raw_rates, rebuild_rates = [], []
        for _ in range(args.runs):  # interleaved, so both see the same machine
            raw_rates.append(timed(lambda: raw_read(app)))
            rebuild_rates.append(timed(lambda: rebuilder.rebuild_all().events))
        raw, rebuild = statistics.median(raw_rates), statistics.median(rebuild_rates)
        share = rebuild / raw
        print(f"raw read + decode: {raw:10,.0f} events/s   (median of {args.runs})")
        print(
            f"rebuild:           {rebuild:10,.0f} events/s   = {share:.0%} of raw   "
            f"[target >= 50%: {'met' if share >= 0.5 else 'MISSED'}]"
        )
        lags = [1000 * lag for lag in live_lag(app, client, url, args.burst)]
        p50, p99 = percentile(lags, 0.5), percentile(lags, 0.99)
        print(
            f"live lag, {args.burst} commands: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"max {max(lags):.1f} ms   [target p99 <= 100 ms: {'met' if p99 <= 100 else 'MISSED'}]"
        )
        return 0 if share >= 0.5 and p99 <= 100 else 1
    finally:
        app.close()
        client.close()
        if embedded is not None:
            embedded.stop()


if __name__ == "__main__":
    raise SystemExit(main())
