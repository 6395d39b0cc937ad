"""Issue 28: audit and history pages against their length, CPU per page in one process.

    .venv/bin/python bench/pages.py [--checkout DIR] [--actions 5000] [--rounds 5]

Builds, in a fresh SQLite store, an encounter of 10 actions and one of ``--actions``, a
new campaign and one with 200 encounters and 100 days, then reads pages of each in
alternating rounds and prints the CPU per page (time.process_time) of the long one
beside its anchor, the short one's, as a ratio. ``--checkout`` reads the code of another
checkout (the main a change started from) with this venv: run it for both sides of an
A/B, one after the other, and compare the ratios.
"""

# ruff: noqa: E402
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parents[1])
parser.add_argument("--actions", type=int, default=5000)
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--reads", type=int, default=40, help="page reads per round and side")
options = parser.parse_args()
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(options.checkout.resolve()))

from uuid import UUID

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import (
    AdvanceDays,
    Combatant,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    PerformAction,
    StartEncounter,
)
from skald_campaign.settings import Settings
from skald_campaign.store import persistence_env

SHEET = {"st": 10, "con": 10, "stamina_max": 200, "body_max": 200}
HIT = {"damage_type": "impact", "damage_class": 1}


def fight(app: SkaldApplication, campaign_id: UUID, hero: str, actions: int) -> UUID:
    started = app.start_encounter(StartEncounter(campaign_id, "F", (Combatant(hero, "a"),)))
    for _ in range(actions):
        command = PerformAction(
            campaign_id, started.id, "take_hit", {"target": hero, **HIT}, dice={"damage": [1]}
        )
        app.perform_action(command)
    return started.id


def cpu_per_read(read: Callable[[], object], reads: int) -> float:
    started = time.process_time()
    for _ in range(reads):
        read()
    return (time.process_time() - started) / reads


def main() -> None:
    with tempfile.TemporaryDirectory() as data:
        app = SkaldApplication(env=persistence_env(Settings(data_dir=Path(data))))
        try:
            run(app)
        finally:
            app.close()


def run(app: SkaldApplication) -> None:
    built = time.perf_counter()
    small = app.create_campaign(CreateCampaign("small", "stamina-body")).id
    _, a = app.enrol_character(EnrolCharacter(small, "A", SHEET))
    _, b = app.enrol_character(EnrolCharacter(small, "B", SHEET))
    _, d = app.enrol_character(EnrolCharacter(small, "D", SHEET))
    short, long = fight(app, small, a, 10), fight(app, small, b, options.actions)
    fifty = fight(app, small, d, 59)  # a first page as full as the long one's last
    new = app.create_campaign(CreateCampaign("new", "stamina-body")).id
    old = app.create_campaign(CreateCampaign("old", "stamina-body")).id
    young = app.create_campaign(CreateCampaign("young", "stamina-body")).id
    for cid, encounters in ((old, 200), (young, 25)):
        _, c = app.enrol_character(EnrolCharacter(cid, "C", SHEET))
        for n in range(encounters):
            app.end_encounter(EndEncounter(cid, fight(app, cid, c, 1)))
            if n % 2:
                app.advance_days(AdvanceDays(cid, 1))
    code = Path(sys.modules[SkaldApplication.__module__].__file__ or "?").parents[1]
    print(f"built in {time.perf_counter() - built:.1f} s; the code of {code}")

    def audit(eid: UUID, kind: str | None = None) -> Callable[[], object]:
        total = app.queries.encounter_audit(small, eid, kind, None, 0, 1)["total"]
        return lambda: app.queries.encounter_audit(small, eid, kind, None, max(total - 50, 0), 50)

    def history(cid: UUID) -> Callable[[], object]:
        total = app.queries.campaign_history(cid, None, None, 0, 1)["total"]
        return lambda: app.queries.campaign_history(cid, None, None, max(total - 50, 0), 50)

    pairs = {
        f"encounter audit ?limit=50, last page, {options.actions} vs 10 actions": (
            audit(long),
            audit(short),
        ),
        f"the same filtered ?kind=take_hit, {options.actions} vs 10 actions": (
            audit(long, "take_hit"),
            audit(short, "take_hit"),
        ),
        f"the last page of {options.actions} vs the first of 60 (both 50 entries)": (
            audit(long),
            audit(fifty),
        ),
        "campaign history ?limit=50, 200 encounters and 100 days vs new": (
            history(old),
            history(new),
        ),
        "the same vs 25 encounters (both pages 50 entries)": (history(old), history(young)),
    }
    for name, (long_read, short_read) in pairs.items():
        long_read(), short_read()  # each side's first read (an index built) is not timed
        ratios, longs, shorts = [], [], []
        for _ in range(options.rounds):
            long_cpu = cpu_per_read(long_read, options.reads)
            short_cpu = cpu_per_read(short_read, options.reads)
            longs.append(long_cpu)
            shorts.append(short_cpu)
            ratios.append(long_cpu / short_cpu)
        print(
            f"{name}: {statistics.median(ratios):.2f}x (median of {options.rounds} rounds; "
            f"{statistics.median(longs) * 1000:.2f} vs {statistics.median(shorts) * 1000:.2f} "
            "ms CPU per page)"
        )
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
