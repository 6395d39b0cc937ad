"""Issue 39: a long fight's commands, snapshots counted, and another campaign beside it.

    .venv/bin/python bench/long_fight.py [--actions 10000] [--window 100] [--seconds 8]
        [--postgres URL] [--skip-costs] [--skip-beside]

In process, as `skald serve` runs the store (SQLite in a temporary directory, written
through serve's recorder and its one kept connection, workers/sqlite_writing.py; the
aggregate cache, snapshots every 100 events spaced as application/snapshotting.py
spaces them, the group-commit writer thread); CPU from /proc (`time.process_time`,
every thread of this process).

1. Stamina-body `take_hit`s, one at a time: the CPU per command of commands 100-200 of
   a new encounter (the anchor) and of the last ``--window`` before ``--actions`` of a
   long one, the two windows' commands sent in turn, each with its snapshots counted:
   the window's mean plus the CPU of the encounter's snapshot nearest the window's end
   divided by the spacing of snapshots there (what each command pays for them on
   average). A snapshot's CPU is the writer's `_take_snapshots` and, where snapshots
   are taken apart from the writer, the snapshot thread's take and store (its CPU is
   left out of the commands' own).
2. A second campaign's p99 (wall time from the command's submission to its answer, the
   latency a GM sees) while one thread drives commands on a first campaign's encounter,
   one at a time, two rounds of each in turn:
   "with" a long encounter (just short of its next snapshot after ``--actions``: at
   10,000, 11,149 actions so far, so each round sees one of its snapshots fall due),
   "without" a new one; the same rates, the same run. The second
   campaign's commands are sent every 2 ms, open loop (each waits for its answer on
   its own, as a server's clients do); every command of this part is answered as the
   action routes answer it (the answer's bytes made on the writer) and let go once
   answered. A stall of T ms makes ~T/2 of these commands late: the p99 of ~3,000 is
   set by the longest stall or two of its rounds (bench/long_fight_tail.py shows what
   each coincided with). Then one full collection of the cyclic
   collector, timed: every thread waits for one when it falls (it holds the GIL), and
   an 8-second round may or may not see one.

The process keeps its heap out of collections as `skald serve` does once started
(skald_campaign/cli.py's `keep_out_of_collections`: start-up frozen, serve's thresholds).
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import contextlib
import gc
import os
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from skald_campaign.api.fast_actions import answer_bytes
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    Combatant,
    CreateCampaign,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)
from skald_campaign.application.snapshotting import freeze_snapshotted, snapshot_due
from skald_campaign.cli import keep_out_of_collections
from skald_campaign.services import SQLITE_RECORDER
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env

SHEET = {"st": 10, "con": 10, "stamina_max": 200, "body_max": 200}


@dataclass
class Snapshots:
    """The CPU (seconds) of each snapshot, by aggregate and version: on the writer (its
    `_take_snapshots`, shared out among the snapshots of its batch) and, where there is
    a snapshot thread (application/snapshotting.py's Snapshotter), there (its take and
    its store); ``apart`` is the snapshot thread's CPU so far."""

    cost: dict[tuple[UUID, int], float] = field(default_factory=dict)
    apart: float = 0.0

    def add(self, keys: list[tuple[UUID, int]], spent: float) -> None:
        for key in keys:
            self.cost[key] = self.cost.get(key, 0.0) + spent / len(keys)

    def nearest(self, aggregate: UUID, version: int) -> tuple[int, float]:
        """The version and CPU of the aggregate's snapshot nearest ``version``."""
        versions = [v for a, v in self.cost if a == aggregate]
        near = min(versions, key=lambda v: abs(v - version))
        return near, self.cost[(aggregate, near)]


# --postgres URL: each part on a database of its own made there (bench/http.py's
# fresh_database), instead of SQLite.
POSTGRES: list[str] = []


@contextmanager
def application(folder: Path) -> Iterator[tuple[SkaldApplication, Snapshots]]:
    with contextlib.ExitStack() as stack:
        if POSTGRES:
            from bench.http import fresh_database

            database = stack.enter_context(fresh_database(POSTGRES[0]))
            settings = Settings(data_dir=folder, database=database)
        else:
            settings = Settings(data_dir=folder)
        yield stack.enter_context(served_application(settings))


@contextmanager
def served_application(settings: Settings) -> Iterator[tuple[SkaldApplication, Snapshots]]:
    env = {**persistence_env(settings), "AGGREGATE_CACHE_MAXSIZE": "1000"}
    if settings.database is None:
        # As services.build_services opens the SQLite store for `skald serve`: its
        # recorder writes through one kept connection, snapshots under the commits' lock
        # (workers/sqlite_writing.py), not through the library's pool.
        env["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER
    app = SkaldApplication(env=env)
    app.start_group_commit()
    thresholds = gc.get_threshold()
    keep_out_of_collections()  # as `skald serve` does once started
    seen = Snapshots()
    take = app._take_snapshots

    def timed(processing_event: Any) -> None:
        used = time.thread_time()
        take(processing_event)
        spent = time.thread_time() - used
        versions: dict[UUID, int] = {}
        for e in processing_event.events:
            if snapshot_due(e.originator_version, 100):
                versions[e.originator_id] = e.originator_version
        if versions:
            seen.add([(a, v) for a, v in versions.items()], spent)

    app._take_snapshots = timed  # type: ignore[method-assign]
    snapshotter = app.snapshotter
    if snapshotter is not None:
        put = snapshotter._put

        def timed_put(taken: Any) -> None:
            used = time.thread_time()
            put(taken)
            spent = time.thread_time() - used
            seen.apart += spent
            seen.add([(s.originator_id, s.originator_version) for s in taken], spent)

        take_apart = snapshotter._take

        def timed_take(cls: Any, aggregate: Any) -> Any:
            used = time.thread_time()
            taken = take_apart(cls, aggregate)
            spent = time.thread_time() - used
            seen.apart += spent
            seen.add([(aggregate.id, aggregate.version)], spent)
            return taken

        snapshotter._put = timed_put  # type: ignore[method-assign]
        snapshotter._take = timed_take  # type: ignore[method-assign]
    try:
        yield app, seen
    finally:
        app.close()
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        freeze_snapshotted(False)


@dataclass(frozen=True)
class Fight:
    campaign: UUID
    encounter: UUID
    hero: str

    def hit(self) -> PerformAction:
        params = {"target": self.hero, "damage_type": "impact", "damage_class": 1}
        return PerformAction(
            self.campaign, self.encounter, "take_hit", params, dice={"damage": [1]}
        )


def new_fight(app: SkaldApplication, name: str) -> Fight:
    campaign = app.create_campaign(CreateCampaign(name, "stamina-body"))
    _, hero = app.enrol_character(EnrolCharacter(campaign.id, "Hero", SHEET))
    fight = app.start_encounter(StartEncounter(campaign.id, "f", (Combatant(hero, "a"),)))
    return Fight(campaign.id, fight.id, hero)


def spacing(version: int, interval: int = 100) -> int:
    """The distance between snapshots around ``version`` (application/snapshotting.py)."""
    due = [v for v in range(version - 16 * interval, version + 16 * interval + 1, interval)
           if v > 0 and snapshot_due(v, interval)]  # fmt: skip
    after = min(v for v in due if v >= version)
    before = max((v for v in due if v < after), default=0)
    return after - before


def command_costs(actions: int, window: int) -> dict[str, float]:
    """Commands 100-200 of a new encounter and the last ``window`` before ``actions`` of
    a long one, sent in turn (one on each, and again), so both windows see the same
    machine; each window's mean CPU per command plus its snapshots' share."""
    folder = Path(tempfile.mkdtemp(prefix="skald-long-fight-"))
    try:
        with application(folder) as (app, snapshots):
            long, short = new_fight(app, "long"), new_fight(app, "short")
            for _ in range(actions - window):
                app.perform_action(long.hit())
            for _ in range(99):
                app.perform_action(short.hit())
            cpu: dict[str, list[float]] = {"long": [], "short": []}
            for _ in range(window):
                for name, fight in (("long", long), ("short", short)):
                    used, apart = time.process_time(), snapshots.apart
                    app.perform_action(fight.hit())
                    # The snapshot thread's CPU meanwhile is counted with its snapshot.
                    cpu[name].append(time.process_time() - used - (snapshots.apart - apart))
            app.snapshots_stored()
            found: dict[str, float] = {}
            # The encounter's version after action n is n + 1 (Started, then one each).
            for name, fight, last in (("short", short, 200), ("long", long, actions)):
                mean = statistics.fmean(cpu[name])
                version, cost = snapshots.nearest(fight.encounter, last + 1)
                found |= {f"{name}_mean": mean, f"{name}_snapshot": cost,
                          f"{name}_snapshot_version": version, f"{name}_spacing": spacing(version),
                          f"{name}_counted": mean + cost / spacing(version)}  # fmt: skip
            found["largest_snapshot"] = max(snapshots.cost.values())
            return found
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def beside(actions: int, seconds: float, rounds: int = 2) -> dict[str, float]:
    """The second campaign's p99 (and median) with a long encounter beside it and with a
    new one, ``rounds`` of each in turn, in one run. The long encounter starts 50 actions
    short of its next snapshot after ``actions`` (the first at 11,200 events past
    10,000), so each of its rounds sees one fall due."""
    folder = Path(tempfile.mkdtemp(prefix="skald-long-fight-"))
    try:
        with application(folder) as (app, snapshots):
            long = new_fight(app, "long")
            due = next(v for v in range(actions + 2, 20 * actions) if snapshot_due(v, 100))
            for _ in range(due - 51):
                app.perform_action(long.hit())
            app.snapshots_stored()
            short = new_fight(app, "short")
            other = new_fight(app, "other")
            lags: dict[str, list[float]] = {"with": [], "without": []}
            taken = {"with": 0, "without": 0}
            for _ in range(rounds):
                for name, first in (("with", long), ("without", short)):
                    before = len(snapshots.cost)
                    lags[name] += drive(app, first, other, seconds / rounds)
                    app.snapshots_stored()
                    taken[name] += sum(
                        a == first.encounter for a, _ in list(snapshots.cost)[before:]
                    )
            found: dict[str, float] = {"start": due - 51}
            for name, seen in lags.items():
                seen.sort()
                found[f"{name}_p99"] = seen[int(0.99 * (len(seen) - 1))]
                found[f"{name}_p50"] = seen[len(seen) // 2]
                found[f"{name}_count"] = len(seen)
                found[f"{name}_snapshots"] = taken[name]
            # What every thread waits for when a full collection falls, beside the long
            # encounter (serve's thresholds make them rare: a round may see none).
            started, used = time.perf_counter(), time.thread_time()
            gc.collect()
            found["full_collection"] = time.perf_counter() - started
            found["full_collection_cpu"] = time.thread_time() - used
            return found
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def drive(app: SkaldApplication, first: Fight, other: Fight, seconds: float) -> list[float]:
    stop = threading.Event()

    # Each command answered as the action routes answer it (api/fast_actions.py: the
    # answer's bytes made on the writer, no copy of the encounter) and let go once
    # answered, as a server lets go of a response it sent: a copy of the encounter kept
    # per command (each holding that version's list of actions) made every young
    # collection walk them all (bench/README.md, tail19 lane).
    def load() -> None:
        while not stop.is_set():
            app.perform_action_answered(first.hit(), answer_bytes).result()

    loader = threading.Thread(target=load)
    loader.start()
    lags: list[float] = []
    answered = threading.Semaphore(0)
    failed: list[BaseException] = []
    sent_count = 0
    try:
        # Open loop: a command every 2 ms whatever the answers, as a server's clients
        # send them, so every command sent during a stall waits for it.
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(0.002)
            sent = time.perf_counter()
            future = app.perform_action_answered(other.hit(), answer_bytes)

            def done(answer: Any, sent: float = sent) -> None:
                lags.append(time.perf_counter() - sent)
                if answer.exception() is not None:
                    failed.append(answer.exception())
                answered.release()

            future.add_done_callback(done)
            del future
            sent_count += 1
        for _ in range(sent_count):
            answered.acquire()
        if failed:
            raise failed[0]
    finally:
        stop.set()
        loader.join()
    return lags


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--window", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--postgres", help="on PostgreSQL (a database of its own made here)")
    parser.add_argument("--skip-costs", action="store_true")
    parser.add_argument("--skip-beside", action="store_true")
    args = parser.parse_args()
    if args.postgres:
        POSTGRES.append(args.postgres)
    print("store:", "PostgreSQL" if args.postgres else "SQLite")
    if not args.skip_costs:
        c = command_costs(args.actions, args.window)
        spans = (("short", "commands 100-200"),
                 ("long", f"commands {args.actions - args.window}-{args.actions}"))  # fmt: skip
        for name, what in spans:
            mean, counted = 1000 * c[f"{name}_mean"], 1000 * c[f"{name}_counted"]
            version, cost = c[f"{name}_snapshot_version"], 1000 * c[f"{name}_snapshot"]
            gap = c[f"{name}_spacing"]
            print(f"{what}: {mean:.3f} ms CPU per command; snapshot at version {version:.0f} "
                  f"{cost:.1f} ms / spacing {gap:.0f}; counted {counted:.3f} ms")  # fmt: skip
        ratio = c["long_counted"] / c["short_counted"]
        print(f"command {args.actions} vs command 100-200, snapshots counted: "
              f"{1000 * c['long_counted']:.3f} / {1000 * c['short_counted']:.3f} ms = "
              f"{ratio:.2f}x (goal <= 1.2x: {'met' if ratio <= 1.2 else 'missed'}); "
              f"the largest snapshot {1000 * c['largest_snapshot']:.1f} ms")  # fmt: skip
    if not args.skip_beside:
        b = beside(args.actions, args.seconds)
        ratio = b["with_p99"] / b["without_p99"]
        print(f"a second campaign's p99 beside an encounter of {b['start']:.0f}+ actions: "
              f"{1000 * b['with_p99']:.1f} ms (p50 {1000 * b['with_p50']:.1f}, "
              f"{b['with_count']:.0f} commands, {b['with_snapshots']:.0f} snapshots) vs beside a "
              f"new one {1000 * b['without_p99']:.1f} ms (p50 {1000 * b['without_p50']:.1f}, "
              f"{b['without_count']:.0f} commands, {b['without_snapshots']:.0f} snapshots) = "
              f"{ratio:.2f}x (goal <= 1.2x: {'met' if ratio <= 1.2 else 'missed'})")  # fmt: skip
        print(f"a full collection beside the long encounter: "
              f"{1000 * b['full_collection']:.1f} ms, {1000 * b['full_collection_cpu']:.1f} ms "
              f"of CPU (every thread waits for it)")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    from bench.processes import everything_stopped

    with everything_stopped():  # every process it started stopped, its temporary files gone
        main()
