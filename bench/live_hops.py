"""Live lag hop by hop (issue 39, lag18 lane): bench/live.py's probe under (a)'s load, with
the server stamping each of the probe's commands on its way from the commit to the SSE.

    .venv/bin/python bench/live_hops.py [--seconds 8] [--rounds 1] [--against DIR]
        [--env NAME=VALUE ...]

The server is `skald serve` started through a launcher that patches, before the CLI runs,
the functions each hop passes through, to append `time.perf_counter()` stamps
(CLOCK_MONOTONIC: comparable across processes) to a list written out at exit: the commit
(the SQLite recorder's `insert_events`), the runner picking the batch up (`next_batch`),
its Redis script (`StagedViews.send`), the batch applied (`ProjectionEngine.apply`), the
feed reader's XREAD and the entries' JSON in hand (`read_after`), the SSE written (the
route's generator resumed after its send), and a 1 ms sleep's overshoot on the event loop.
The probe (20 commands/s on a 17th encounter, one SSE client, the vitals polled from each
2xx) runs under wrk's (a) on 16 encounters; each probe command is matched to its stamps by
its SSE entry's id (its notification id). Printed per run: each hop's p50/p99 from the 2xx
the probe received, and between stamps. It patches internals by name: a renamed function
stops it (the launcher fails), it does not measure the wrong thing.

With --against DIR (another checkout with its own venv), each round runs both, each side
first in turn. --env NAME=VALUE is passed to the servers (e.g. SKALD_LIVE_HOPS_GATHER=0
sets the runner's gather, SKALD_LIVE_HOPS_SWITCH=0.001 the GIL switch interval).
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import asyncio
import bisect
import json
import os
import tempfile
import threading
import time
from typing import Any

import orjson

from bench import live
from bench.http import UNLIMITED, post_script, skald_setup, wrk
from bench.live import percentile
from bench.server import Server

HERE = Path(__file__).resolve().parents[1]

# Imported by the launcher in the server's process, before the CLI: the stamps.
PATCHES = """
import asyncio, atexit, json, os, sys, time

now = time.perf_counter
STAMPS = []
stamp = STAMPS.append


def _write():
    with open(os.environ["SKALD_LIVE_HOPS_FILE"], "w") as out:
        json.dump(STAMPS, out)


atexit.register(_write)
if os.environ.get("SKALD_LIVE_HOPS_SWITCH"):
    sys.setswitchinterval(float(os.environ["SKALD_LIVE_HOPS_SWITCH"]))

from skald_campaign.workers import projections as P, subscriptions as S

if os.environ.get("SKALD_LIVE_HOPS_GATHER"):
    P.GATHER_SECONDS = float(os.environ["SKALD_LIVE_HOPS_GATHER"])
_insert = S.NotifyingSQLiteRecorder.insert_events


def insert_events(self, stored_events, **kwargs):
    ids = _insert(self, stored_events, **kwargs)
    if ids:
        stamp(("commit", ids[0], ids[-1], now(), now()))
    return ids


S.NotifyingSQLiteRecorder.insert_events = insert_events
_next = S.BatchingSubscription.next_batch


def next_batch(self, timeout=None):
    called = now()
    batch = _next(self, timeout)
    if batch:
        stamp(("pick", batch[0].id, batch[-1].id, called, now()))
    return batch


S.BatchingSubscription.next_batch = next_batch
from skald_campaign.projections import engine as E, staging as ST

_apply = E.ProjectionEngine.apply


def apply(self, notifications):
    started = now()
    applied = _apply(self, notifications)
    if notifications:
        stamp(("applied", notifications[0].id, notifications[-1].id, started, now()))
    return applied


E.ProjectionEngine.apply = apply
_send = ST.StagedViews.send


def send(self, script_call):
    started = now()
    outcome = _send(self, script_call)
    stamp(("script", 0, 0, started, now()))
    return outcome


ST.StagedViews.send = send
import redis.asyncio as aioredis
from skald_campaign.api import feed_hub as FH
from skald_campaign.api.routes import feed as F

_xread, _read_after, _last = aioredis.Redis.xread, FH.read_after, [0.0]


async def xread(self, *args, **kwargs):
    answer = await _xread(self, *args, **kwargs)
    _last[0] = now()
    return answer


async def read_after(client, keys, campaign_id, after, block, *more):
    started = now()
    found = await _read_after(client, keys, campaign_id, after, block, *more)
    if found:
        stamp(("xread", found[0][0], found[-1][0], started, _last[0], now()))
    return found


aioredis.Redis.xread, FH.read_after = xread, read_after
_events, _probe = F.feed_events, []


async def _loop_probe():
    while True:
        started = now()
        await asyncio.sleep(0.001)
        stamp(("loop", 0, 0, started, now()))


async def feed_events(*args):
    if not _probe:
        _probe.append(asyncio.get_running_loop().create_task(_loop_probe()))
    async for event in _events(*args):
        position = int(event.get("id", 0) or 0)
        yielded = now()
        yield event
        stamp(("sse", position, position, yielded, now()))


F.feed_events = feed_events
"""

LAUNCHER = """#!{python}
import sys
sys.path.insert(0, {folder!r})
import hop_patches  # noqa: F401
from skald_campaign.cli import app
sys.exit(app())
"""


def launcher(checkout: Path, folder: Path) -> Path:
    """An executable that runs ``checkout``'s `skald` with the stamps installed."""
    python = next(
        (checkout / v / "bin" / "python" for v in (".venv", ".venv-test")
         if (checkout / v / "bin" / "python").exists()),
        None,
    )  # fmt: skip
    if python is None:
        sys.exit(f"no venv in {checkout}")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hop_patches.py").write_text(PATCHES)
    script = folder / "skald"
    script.write_text(LAUNCHER.format(python=python, folder=str(folder)))
    script.chmod(0o755)
    return script


def one_run(checkout: Path, data: Path, seconds: int, env: dict[str, str]) -> dict[str, Any]:
    stamps = data / "stamps.json"
    server = Server(
        data / "served",
        env={**UNLIMITED, **env, "SKALD_LIVE_HOPS_FILE": str(stamps)},
        checkout=(launcher(checkout, data / "launcher"), checkout),
    )
    ids: dict[int, int] = {}  # the probe's encounter version -> its notification id

    async def follow_feed(
        client: Any, campaign: str, encounter: str, probe: live.Probe, ready: asyncio.Event
    ) -> None:
        headers = {"accept": "text/event-stream"}
        async with client.stream("GET", f"/campaigns/{campaign}/feed", headers=headers) as got:
            got.raise_for_status()
            ready.set()
            fields: dict[str, str] = {}
            async for line in got.aiter_lines():
                if line:
                    name, _, value = line.partition(":")
                    fields[name] = value.strip()
                    continue
                if fields.get("event") == "entry" and encounter in fields.get("data", ""):
                    entry = orjson.loads(fields["data"])
                    if entry.get("encounter_id") == encounter:
                        probe.on_feed.setdefault(entry["version"], time.perf_counter())
                        ids[entry["version"]] = int(fields["id"])
                fields = {}

    live.follow_feed = follow_feed
    server.start()
    try:
        assert server.process is not None
        key, paths, bodies = skald_setup(server.url, 17)
        script = post_script(paths[:16], bodies[:16], key)
        wrk(server.url, script, 1, 16)  # warm
        loaded: list[dict[str, float]] = []
        load = threading.Thread(
            target=lambda: loaded.append(
                wrk(server.url, script, seconds + 1, 16, server.process.pid)  # type: ignore[union-attr]
            )
        )
        before = os.getloadavg()[0]
        load.start()
        probe = asyncio.run(live.live_probe(server.url, key, paths[16], bodies[16], 20, seconds))
        load.join()
    finally:
        server.stop()
    return {
        "probe": probe,
        "ids": ids,
        "stamps": json.loads(stamps.read_text()),
        "load": before,
        "wrk": loaded[0] if loaded else {},
    }


def covering(rows: list[list[Any]], firsts: list[int], position: int) -> list[Any] | None:
    """The stamp row (sorted by first id) whose id range holds ``position``."""
    at = bisect.bisect_right(firsts, position) - 1
    return rows[at] if at >= 0 and rows[at][1] <= position <= rows[at][2] else None


HOPS = (
    ("from the 2xx: the commit", "commit"),
    ("from the 2xx: the runner has the batch", "picked"),
    ("from the 2xx: the batch applied", "applied"),
    ("from the 2xx: the reader's XREAD returned", "xread"),
    ("from the 2xx: the SSE written", "sse"),
    ("from the 2xx: the probe has the entry", "client"),
    ("from the 2xx: the vitals show it", "vitals"),
    ("commit -> the runner has the batch", "gather"),
    ("the runner has it -> the script answered", "apply"),
    ("  the script's round trip", "script"),
    ("script answered -> XREAD returned", "wake"),
    ("XREAD -> the entries' JSON in hand", "json"),
    ("the JSON -> SSE written", "to_sse"),
    ("SSE written -> the probe has it", "to_client"),
)


def hops(run: dict[str, Any]) -> dict[str, list[float]]:
    """Each probe command's times, in ms, by hop (HOPS)."""
    by: dict[str, list[list[Any]]] = {}
    for row in run["stamps"]:
        by.setdefault(row[0], []).append(row)
    for kind in ("commit", "pick", "applied", "xread"):
        by.setdefault(kind, []).sort(key=lambda r: r[1])
    firsts = {kind: [r[1] for r in rows] for kind, rows in by.items()}
    scripts = sorted(by.get("script", []), key=lambda r: r[3])
    script_starts = [r[3] for r in scripts]
    sse = {r[1]: r for r in by.get("sse", [])}
    probe: live.Probe = run["probe"]
    found: dict[str, list[float]] = {name: [] for _, name in HOPS}
    for version, answered in probe.answered.items():
        position = run["ids"].get(version)
        if position is None or version not in probe.on_feed:
            continue
        c, p, a, x = (
            covering(by[k], firsts[k], position) for k in ("commit", "pick", "applied", "xread")
        )
        s = sse.get(position)
        if c is None or p is None or a is None or x is None or s is None:
            continue
        script = scripts[bisect.bisect_left(script_starts, a[3])]
        seen = probe.on_feed[version]
        times = {
            "commit": c[4] - answered, "picked": p[4] - answered, "applied": a[4] - answered,
            "xread": x[4] - answered, "sse": s[4] - answered, "client": seen - answered,
            "gather": p[4] - c[4], "apply": a[4] - p[4], "script": script[4] - script[3],
            "wake": x[4] - a[4], "json": x[5] - x[4], "to_sse": s[3] - x[5],
            "to_client": seen - s[4],
        }  # fmt: skip
        if version in probe.on_vitals:
            times["vitals"] = probe.on_vitals[version] - answered
        for name, value in times.items():
            found[name].append(1000 * value)
    return found


def report(side: Path, run: dict[str, Any]) -> None:
    found = hops(run)
    batches = [r for r in run["stamps"] if r[0] == "applied"]
    events = sum(r[2] - r[1] + 1 for r in batches) or 1
    loop = [1000 * (r[4] - r[3]) - 1 for r in run["stamps"] if r[0] == "loop"]
    cpu = run["wrk"].get("cpu_ms", float("nan"))
    per = 1000 * len(batches) / events
    print(f"{side}: load {run['load']:.1f}, {len(found['client'])} probe commands stamped, "
          f"{len(batches)} runner batches ({per:.0f} per 1,000 events), CPU per command "
          f"{cpu:.3f} ms (wrk's, the probe's requests included)")  # fmt: skip
    for label, name in HOPS:
        values = found[name]
        print(
            f"  {label:44s} p50 {percentile(values, 50):7.2f}  p99 {percentile(values, 99):7.2f} ms"
        )
    print(f"  {'the event loop: a 1 ms sleep overshot by':44s} p50 {percentile(loop, 50):7.2f}  "
          f"p99 {percentile(loop, 99):7.2f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--against", type=Path, action="append", default=[])
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the servers")
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    sides = [HERE, *(p.resolve() for p in args.against)]
    data = Path(tempfile.mkdtemp(prefix="skald-bench-hops-"))
    for number in range(args.rounds):
        turn = number % len(sides)
        for n, side in [*enumerate(sides)][turn:] + [*enumerate(sides)][:turn]:
            report(side, one_run(side, data / f"r{number}-{n}", args.seconds, env))


if __name__ == "__main__":
    from bench.processes import everything_stopped

    with everything_stopped():  # every process it started stopped, its temporary files gone
        main()
