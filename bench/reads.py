"""Issue 28's reads over HTTP: server CPU per read (from /proc) under wrk.

The store is written through the store (the application in this process, in seconds),
not over HTTP (11 events/s on a loaded machine), then served by a real `skald serve`
whose views catch up with it before any read is timed. It holds:

- a campaign of four characters with an encounter of 20 actions: the view reads
  (vitals, the board, the campaign's audit page), on their fast path;
- a campaign with an encounter of 10 actions and one of ``actions`` (5,000): the last
  audit page (`?limit=50`) of the long one against the page of the short one;
- a campaign of ``encounters`` encounters and ``days`` days (200 and 100) and a new
  campaign: the last history page of the old one against the new one's;
- a campaign with a fight of ``log_actions`` (10,000) actions and one with a fight of
  100 (issue 39): the last full page of 50 of each one's event log (`/events`).

    .venv/bin/python bench/reads.py [--seconds 5] [--actions 5000] [--log-actions 10000]
        [--checkout DIR]

``--checkout`` serves (and writes the store with) another checkout's code with this venv
(the main a change started from): run it for both sides of a change.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: the repository on the path, not bench/
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import shutil
import tempfile
from dataclasses import dataclass
from uuid import UUID

import httpx

SECRET = "bench-reads-secret-" * 2
SHEET = {"st": 10, "con": 10, "stamina_max": 200, "body_max": 200}
HIT = {"damage_type": "impact", "damage_class": 1}


@dataclass(frozen=True)
class Store:
    """What the built store holds, by id, and the GM key of each campaign."""

    views: UUID
    board: UUID
    pages: UUID
    short: UUID
    long: UUID
    old: UUID
    new: UUID
    log_long: UUID  # a fight of log_actions actions: its event log
    log_short: UUID  # a fight of 100 actions
    key: str  # the GM key of every campaign (one key, made from SECRET)
    viewer: str  # a viewer's key of the two log campaigns


LOG_SHORT = 100  # the short log's actions, the anchor of the long one's page


def build(
    data_dir: Path, actions: int, encounters: int, days: int, log_actions: int = 10_000
) -> Store:
    """Write the store through the application, as `skald serve` would have."""
    from skald_campaign.api.keys import KeyMaker
    from skald_campaign.application.application import SkaldApplication
    from skald_campaign.application.commands import (
        AdvanceDays,
        Combatant,
        CreateCampaign,
        EndEncounter,
        EnrolCharacter,
        IssueKey,
        PerformAction,
        StartEncounter,
    )
    from skald_campaign.settings import Settings
    from skald_campaign.store import persistence_env

    keys = KeyMaker(SECRET.encode())
    key_id, key = keys.new()
    viewer_id, viewer = keys.new()
    app = SkaldApplication(env=persistence_env(Settings(data_dir=data_dir)))

    def campaign(name: str) -> UUID:
        command = CreateCampaign(name, "stamina-body", {}, "gm:GM", key_id, keys.digest(key))
        return app.create_campaign(command).id

    def hero(cid: UUID, name: str) -> str:
        return app.enrol_character(EnrolCharacter(cid, name, SHEET))[1]

    def fight(cid: UUID, heroes: list[str], count: int) -> UUID:
        lineup = tuple(Combatant(h, "a") for h in heroes)
        eid = app.start_encounter(StartEncounter(cid, "F", lineup)).id
        for n in range(count):
            params = {"target": heroes[n % len(heroes)], **HIT}
            app.perform_action(PerformAction(cid, eid, "take_hit", params, dice={"damage": [1]}))
        return eid

    try:
        views = campaign("views")
        party = [hero(views, f"H{n}") for n in range(4)]
        board = fight(views, party, 20)
        pages = campaign("pages")
        short = fight(pages, [hero(pages, "A")], 10)
        long = fight(pages, [hero(pages, "B")], actions)
        old, new = campaign("old"), campaign("new")
        veteran = hero(old, "C")
        for n in range(encounters):
            app.end_encounter(EndEncounter(old, fight(old, [veteran], 1)))
            if n < days:
                app.advance_days(AdvanceDays(old, 1))
        log_long, log_short = campaign("log, long"), campaign("log, short")
        fight(log_long, [hero(log_long, "D")], log_actions)
        fight(log_short, [hero(log_short, "E")], LOG_SHORT)
        app.issue_key(IssueKey(log_long, viewer_id, keys.digest(viewer), "viewer"))
    finally:
        app.close()
    return Store(views, board, pages, short, long, old, new, log_long, log_short, key, viewer)


def last_page(url: str, key: str, path: str) -> str:
    """The path of the last page of 50 of an audit or history listing."""
    auth = {"authorization": f"Bearer {key}"}
    total = httpx.get(f"{url}{path}?limit=1", headers=auth, timeout=60).json()["total"]
    return f"{path}?offset={max(total - 50, 0)}&limit=50"


def last_log_page(url: str, key: str, campaign: UUID) -> str:
    """The path of the last full page of 50 of a campaign's event log: after the
    position of its 51st event from the end (the campaign audit lists the same events)."""
    auth = {"authorization": f"Bearer {key}"}
    audit = f"{url}/campaigns/{campaign}/audit"
    total = httpx.get(f"{audit}?limit=1", headers=auth, timeout=60).json()["total"]
    entry = httpx.get(f"{audit}?offset={total - 51}&limit=1", headers=auth, timeout=60)
    after = entry.json()["entries"][0]["id"]
    return f"/campaigns/{campaign}/events?after={after}&limit=50"


def read_paths(url: str, store: Store) -> dict[str, str]:
    """Each read by name; the views first, then each long page beside its anchor."""
    views, pages = f"/campaigns/{store.views}", f"/campaigns/{store.pages}"
    return {
        "vitals": f"{views}/vitals",
        "board": f"{views}/encounters/{store.board}/board",
        "campaign audit page": f"{views}/audit",
        "encounter audit, long": last_page(
            url, store.key, f"{pages}/encounters/{store.long}/audit"
        ),
        "encounter audit, 10 actions": f"{pages}/encounters/{store.short}/audit?limit=50",
        "history, old": last_page(url, store.key, f"/campaigns/{store.old}/history"),
        "history, new": f"/campaigns/{store.new}/history?limit=50",
        "event log, long": last_log_page(url, store.key, store.log_long),
        "event log, 100 actions": last_log_page(url, store.key, store.log_short),
        "event log, long, viewer": last_log_page(url, store.key, store.log_long),
    }


# The reads made with another key than the GM's (what its role reads is redacted).
VIEWER_READS = ("event log, long, viewer",)


def cpu_per_read(
    url: str,
    pid: int,
    paths: dict[str, str],
    key: str,
    seconds: int,
    conns: int,
    viewer: str | None = None,
) -> dict[str, dict[str, float]]:
    """wrk on each path in turn (each read once first, untimed: an index may be built on
    the first); each one's figures, the server's CPU per read (`cpu_ms`) among them.
    The reads named in VIEWER_READS are made with ``viewer``, the others with ``key``."""
    from bench.http import get_script, wrk

    found = {}
    gm = key
    for name, path in paths.items():
        key = viewer if viewer is not None and name in VIEWER_READS else gm
        httpx.get(url + path, headers={"authorization": f"Bearer {key}"}, timeout=60)
        figure = wrk(url + path, get_script(key), seconds, conns, pid)
        if figure.get("non2xx"):
            raise RuntimeError(f"{name}: {figure['non2xx']:.0f} answers were not 2xx ({path})")
        found[name] = figure
    return found


def main() -> None:
    from bench.http import UNLIMITED, ceiling_app, get_script, wrk
    from bench.million import caught_up
    from bench.server import Server

    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--actions", type=int, default=5000)
    parser.add_argument("--log-actions", type=int, default=10_000)
    parser.add_argument("--checkout", type=Path, help="serve another checkout's code")
    args = parser.parse_args()
    env = {**UNLIMITED, "SKALD_SECRET_KEY": SECRET}
    if args.checkout is not None:
        sys.path.insert(0, str(args.checkout.resolve()))
        env["PYTHONPATH"] = str(args.checkout.resolve())
    data = Path(tempfile.mkdtemp(prefix="skald-bench-reads-"))
    store = build(data / "data", args.actions, 200, 100, args.log_actions)
    server = Server(data / "data", env=env).start()
    try:
        assert server.process is not None
        with ceiling_app() as (ceiling, ceiling_pid):
            bare = wrk(
                f"{ceiling}/g", get_script(None), args.seconds, args.connections, ceiling_pid
            )
        caught_up(server.url, store.key, f"/campaigns/{store.views}/")
        paths = read_paths(server.url, store)
        reads = cpu_per_read(
            server.url,
            server.process.pid,
            paths,
            store.key,
            args.seconds,
            args.connections,
            store.viewer,
        )
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
    print(f"bare FastAPI no-work GET: {bare['cpu_ms']:.3f} ms of server CPU per read")
    for name, figure in reads.items():
        print(f"{name:<30} {figure['cpu_ms']:.3f} ms = {bare['cpu_ms'] / figure['cpu_ms']:.2f}x")
    long, short = reads["event log, long"]["cpu_ms"], reads["event log, 100 actions"]["cpu_ms"]
    verdict = "met" if long / short <= 1.2 else "missed"
    print(
        f"event-log page of 50: {args.log_actions} actions {long:.3f} ms / 100 actions "
        f"{short:.3f} ms = {long / short:.2f}x (goal <= 1.2x: {verdict})"
    )
    verdict = "met" if bare["cpu_ms"] / long >= 0.5 else "missed"
    print(
        f"event-log page of 50 at {args.log_actions} actions vs the bare GET: "
        f"{bare['cpu_ms'] / long:.2f}x (goal >= 0.5x: {verdict})"
    )
    seen = reads["event log, long, viewer"]["cpu_ms"]
    verdict = "met" if bare["cpu_ms"] / seen >= 0.5 else "missed"
    print(
        f"the same page with a viewer's key (redacted): {seen:.3f} ms, "
        f"{bare['cpu_ms'] / seen:.2f}x the bare GET (goal >= 0.5x: {verdict})"
    )


if __name__ == "__main__":
    from bench.processes import everything_stopped

    with everything_stopped():  # every process it started stopped, its temporary files gone
        main()
