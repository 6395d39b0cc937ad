"""Projection throughput and live lag, on a SQLite store (issue 15, goal (e)).

Prints, from one run on one store:
- the raw rate of reading and decoding every notification from the store (the store's
  own reader and our transcoder, in-process): the anchor;
- the rate of an in-process rebuild (``Rebuilder.rebuild_all``: read, decode, project,
  commit, switch over) and its share of the raw rate;
- the rate of ``skald projections rebuild`` run as the user runs it, a subprocess timed
  from spawn to exit (start-up, imports, connecting, reading, decoding, projecting,
  switching over, stopping), and its share of the raw rate, by wall time and by CPU (the
  command's and what it waited for, its embedded Redis included, against the raw read's
  own): goal (e), >= 0.75 by CPU, as issue 39 measured it;
- the live lag of a burst of commands: from the moment a command has appended its
  event to the moment the views in Redis include it, p50 and p99 (target p99 <= 100 ms).

Redis: by default the embedded one, as ``skald`` runs with no configuration (the
subprocess then starts and stops its own, in the store's data directory, and that
counts); or an external one with --redis-url (e.g. redis://127.0.0.1:6379/14), whose
keys the bench writes under prefixes of its own and deletes at the end.

    .venv/bin/python bench/projections.py [--events 100000] [--runs 3] [--burst 300]
        [--redis-url URL] [--store DIR] [--against CHECKOUT]

--against CHECKOUT runs another checkout's CLI (say a worktree of main before a change)
beside this one's in every run, on the same store, against the same anchor: an A/B of
two versions that one machine's load swings cannot tell apart run by run.

--store keeps the store in DIR and reuses it on the next run (building 100,000 events
takes a minute or two); without it the store is built in a temporary directory.
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
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from uuid import UUID

import redis

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)
from skald_campaign.embedded_redis import EmbeddedRedis
from skald_campaign.projections.engine import PROJECTIONS
from skald_campaign.projections.keys import Generations, ViewKeys
from skald_campaign.projections.rebuild import Rebuilder
from skald_campaign.services import SQLITE_RECORDER
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env
from skald_campaign.workers.projections import ProjectionRunner, Supervisor

SHEET = {"st": 12, "con": 12, "stamina_max": 200, "body_max": 200, "armour_resilience": 2}
PREFIX = "bench"
GOAL = 0.75  # issue 15 (e): the CLI's rebuild, start-up included, against raw read+decode
SKALD = Path(sys.executable).parent / "skald"


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


def store_env(data_dir: Path) -> dict[str, str]:
    env = persistence_env(Settings(data_dir=data_dir))
    env["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER
    env["AGGREGATE_CACHE_MAXSIZE"] = "1000"
    return env


def open_store(data_dir: Path, events: int) -> str:
    """The store in ``data_dir``, built unless one of at least ``events`` is there; says
    how long building it took (then or when it was built)."""
    record = data_dir / "bench-store.json"
    if record.exists():
        built = json.loads(record.read_text())
        if built["events"] >= events:
            return (
                f"store: {built['events']:,} events (SQLite, reused from {data_dir}; "
                f"writing it took {built['seconds']:.0f} s)"
            )
        shutil.rmtree(data_dir)
    app = SkaldApplication(env=store_env(data_dir), roller=random.Random(1))
    try:
        started = time.perf_counter()
        fill_store(app, events)
        took = time.perf_counter() - started
        count = app.recorder.max_notification_id() or 0
    finally:
        app.close()
    record.write_text(json.dumps({"events": count, "seconds": took}))
    return f"store: {count:,} events (SQLite, written in {took:.0f} s)"


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


def cpu_timed(run: Callable[[], int]) -> tuple[float, float]:
    """Events per second of wall time and per second of this process's CPU."""
    started, used = time.perf_counter(), time.process_time()
    count = run()
    return count / (time.perf_counter() - started), count / (time.process_time() - used)


def children_cpu() -> float:
    """CPU seconds of the children this process has waited for (and of theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli_rebuild(
    data_dir: Path,
    redis_url: str | None,
    prefix: str,
    processes: int | None = None,
    code: Path | None = None,
) -> tuple[float, float, float]:
    """``skald projections rebuild`` as a user runs it: (wall seconds from spawn to exit,
    the seconds the command itself reports for reading, projecting and switching, the
    CPU seconds of the command and of what it waited for: its embedded Redis, its parts).
    With ``code``, another checkout's packages run it (first on PYTHONPATH)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKALD_")}
    env["SKALD_REDIS_PREFIX"] = prefix
    if code is not None:
        env["PYTHONPATH"] = str(code.resolve())
    command = [str(SKALD), "projections", "rebuild", "--data-dir", str(data_dir)]
    if redis_url:
        command += ["--redis-url", redis_url]
    if processes:
        command += ["--processes", str(processes)]
    started, used = time.perf_counter(), children_cpu()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - started, children_cpu() - used
    if done.returncode != 0:
        raise SystemExit(f"skald projections rebuild failed:\n{done.stderr}")
    reported = re.search(r"events in ([0-9.]+) s", done.stdout)
    return wall, float(reported.group(1)) if reported else float("nan"), cpu


def delete_prefix(client: redis.Redis, prefix: str) -> None:
    for key in client.scan_iter(match=f"{prefix}:*", count=1000):
        client.delete(key)


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


@dataclass(frozen=True)
class Bench:
    """The store, the Redis the bench writes its own views to, and the application."""

    app: SkaldApplication
    client: redis.Redis
    url: str
    redis_url: str | None  # an external Redis, or None: the embedded one
    data_dir: Path


@contextmanager
def bench_store(events: int, store: Path | None, redis_url: str | None) -> Iterator[Bench]:
    """The store (built unless ``store`` holds one) and a Redis; cleaned up on every path."""
    directory = Path(tempfile.mkdtemp(prefix="skald-bench-"))
    data_dir = (store or directory / "data").resolve()
    embedded = None
    client = None
    app = None
    try:
        print(open_store(data_dir, events), flush=True)
        embedded = None if redis_url else EmbeddedRedis(directory / "redis")
        url = redis_url or embedded.url  # type: ignore[union-attr]
        client = redis.Redis.from_url(url)
        # A fresh process state, as `skald projections rebuild` has: not one holding the
        # writer's aggregate cache (whose objects every full collection would walk).
        app = SkaldApplication(env=store_env(data_dir), roller=random.Random(1))
        yield Bench(app, client, url, redis_url, data_dir)
    finally:
        if app is not None:
            app.close()
        if client is not None:
            if redis_url:
                delete_prefix(client, PREFIX)
                delete_prefix(client, CLI_PREFIX)
            client.close()
        if embedded is not None:
            embedded.stop()
        shutil.rmtree(directory, ignore_errors=True)


# One prefix from run to run: the CLI then replaces the views of the last run, as a
# user's rebuild replaces the last generation (and the embedded Redis in the data
# directory loads and saves one generation, not every run's).
CLI_PREFIX = "bench-cli"


def rebuild_rates(
    bench: Bench,
    runs: int,
    processes: int | None = None,
    parts: int | None = None,
    against: Path | None = None,
) -> dict[str, float]:
    """Raw read + decode, the in-process rebuild and the CLI's, interleaved ``runs``
    times; printed, and returned (rates in events/s, times in s, shares of raw)."""
    events = bench.app.recorder.max_notification_id() or 0
    gc.collect()
    where = f"external {bench.url}" if bench.redis_url else "embedded (unix socket)"
    print(f"redis: {where}; the CLI's: {where if bench.redis_url else 'its own, embedded'}")
    app = bench.app
    rebuilder = Rebuilder(bench.client, app.recorder, app.mapper, app.name, PREFIX)
    raw_rates, rebuild_rates, cli_walls, cli_reported, serial_walls = [], [], [], [], []
    against_walls, raw_cpu_rates, rebuild_cpu_rates, cli_cpus, against_cpus = [], [], [], [], []
    for _ in range(runs):  # interleaved, so all of them see the same machine
        rate, cpu_rate = cpu_timed(lambda: raw_read(app))
        raw_rates.append(rate)
        raw_cpu_rates.append(cpu_rate)
        rate, cpu_rate = cpu_timed(lambda: rebuilder.rebuild_all().events)
        rebuild_rates.append(rate)
        rebuild_cpu_rates.append(cpu_rate)
        wall, reported, cpu = cli_rebuild(bench.data_dir, bench.redis_url, CLI_PREFIX, processes)
        cli_walls.append(wall)
        cli_reported.append(reported)
        cli_cpus.append(cpu)
        if parts:  # the A/B of the partitioned rebuild: the CLI with --processes PARTS
            serial_walls.append(cli_rebuild(bench.data_dir, bench.redis_url, CLI_PREFIX, parts)[0])
        if against:  # the A/B of two versions: the CLI of another checkout, same runs
            other = cli_rebuild(bench.data_dir, bench.redis_url, CLI_PREFIX, processes, against)
            against_walls.append(other[0])
            against_cpus.append(other[2])
    raw, rebuild = statistics.median(raw_rates), statistics.median(rebuild_rates)
    wall, reported = statistics.median(cli_walls), statistics.median(cli_reported)
    cli, share, cli_share = events / wall, rebuild / raw, events / wall / raw
    # By CPU (the issue's measure): on a shared machine a wall time counts the others'
    # work too, while the CPU a process used hardly moves with the load.
    raw_cpu, cli_cpu = statistics.median(raw_cpu_rates), statistics.median(cli_cpus)
    cpu_share = events / cli_cpu / raw_cpu
    print(
        f"raw read + decode:   {raw:10,.0f} events/s   (median of {runs}; the anchor); "
        f"by CPU {raw_cpu:,.0f} events/s"
    )
    print(
        f"rebuild, in-process: {rebuild:10,.0f} events/s   = {share:.2f}x raw; by CPU "
        f"{statistics.median(rebuild_cpu_rates) / raw_cpu:.2f}x"
    )
    print(
        f"skald projections rebuild, spawn to exit: {wall:.2f} s = {cli:,.0f} events/s "
        f"= {cli_share:.2f}x raw; by CPU {cli_cpu:.2f} s = {cpu_share:.2f}x raw's CPU   "
        f"[goal (e) >= {GOAL} by CPU: {'met' if cpu_share >= GOAL else 'MISSED'}]"
    )
    print(
        f"    of which the command's own report (read, project, switch): {reported:.2f} s; "
        f"start-up and shut-down: {wall - reported:.2f} s"
    )
    print(
        f"    per run: raw {', '.join(f'{r:,.0f}' for r in raw_rates)} events/s; "
        f"CLI {', '.join(f'{events / w:,.0f}' for w in cli_walls)} events/s"
    )
    found = {"events": events, "raw": raw, "cli": cli, "wall": wall, "cli_share": cli_share}
    found |= {"raw_cpu": raw_cpu, "cli_cpu": cli_cpu, "cpu_share": cpu_share}
    if serial_walls:
        alone = statistics.median(serial_walls)
        found["parts_share"] = events / alone / raw
        print(
            f"    the same with --processes {parts}: {alone:.2f} s = {events / alone / raw:.2f}x "
            f"raw; {wall / alone:.2f}x as fast as without (per run: "
            f"{', '.join(f'{events / w / raw:.2f}x' for w in serial_walls)} raw)"
        )
    if against_walls:
        other = statistics.median(against_walls)
        other_cpu = statistics.median(against_cpus)
        found["against_share"] = events / other / raw
        found["against_cpu_share"] = events / other_cpu / raw_cpu
        print(
            f"    the CLI of {against} in the same runs: {other:.2f} s = "
            f"{events / other / raw:.2f}x raw; this checkout's {other / wall:.2f}x as fast "
            f"(per run: {', '.join(f'{events / w / raw:.2f}x' for w in against_walls)} raw)"
        )
        print(
            f"    by CPU: {other_cpu:.2f} s = {events / other_cpu / raw_cpu:.2f}x raw's CPU; "
            f"this checkout's {cli_cpu:.2f} s, {other_cpu / cli_cpu:.2f}x as little (per run: "
            f"this {', '.join(f'{c:.2f}' for c in cli_cpus)} s, that "
            f"{', '.join(f'{c:.2f}' for c in against_cpus)} s)"
        )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--events", type=int, default=100_000, help="events in the store")
    parser.add_argument("--burst", type=int, default=300, help="commands in the live burst")
    parser.add_argument("--runs", type=int, default=3, help="runs of each rate (median)")
    parser.add_argument("--redis-url", help="an external Redis (default: the embedded one)")
    parser.add_argument("--store", type=Path, help="keep the store here and reuse it")
    parser.add_argument("--processes", type=int, help="the CLI's --processes [its default]")
    parser.add_argument("--parts", type=int, help="and the CLI with --processes PARTS")
    parser.add_argument(
        "--against", type=Path, help="and the CLI of another checkout (a git worktree), A/B"
    )
    args = parser.parse_args()

    with bench_store(args.events, args.store, args.redis_url) as bench:
        cli_share = rebuild_rates(bench, args.runs, args.processes, args.parts, args.against)[
            "cpu_share"
        ]
        if not args.burst:
            return 0 if cli_share >= GOAL else 1
        lags = [1000 * lag for lag in live_lag(bench.app, bench.client, bench.url, args.burst)]
        p50, p99 = percentile(lags, 0.5), percentile(lags, 0.99)
        print(
            f"live lag, {args.burst} commands: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"max {max(lags):.1f} ms   [target p99 <= 100 ms: {'met' if p99 <= 100 else 'MISSED'}]"
        )
        return 0 if cli_share >= GOAL and p99 <= 100 else 1


if __name__ == "__main__":
    raise SystemExit(main())
