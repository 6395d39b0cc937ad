"""Commands over HTTP, each figure beside its anchor measured in the same run.

    .venv/bin/python bench/http.py [--seconds 10] [--connections 16] [--postgres URL]

Needs `wrk` (Debian: apt-get install wrk). Prints, in one run on this machine:

- the HTTP ceiling: a bare FastAPI + uvicorn app (default settings) answering a
  no-work async POST with the same body as a command;
- W4: the bare eventsourcing library's own cached get + event + save loop on
  SQLite (one aggregate per "encounter", 16 threads), and W1 (one new event per
  transaction, no reads);
- (a) `skald serve` on the embedded default: take_hit commands over 16 encounters
  at 16 connections, as a ratio of the ceiling (goal >= 0.5) and of W4 (goal >= 1.0);
- (b) all 16 connections on one hot encounter: commands/s, refusals (409), p99;
- (b) at a fixed 50 commands/s from 16 concurrent writers on one encounter: p99, refusals;
- (c) action 2,000 of an encounter against its first;
- (f) under the load of (a), a probe's commands at 20/s on an encounter of its own:
  from each 2xx to its entry on the live feed, and to the vitals view showing it;
- command latency over a store of 10^6 events (built by the bench) against an empty one;
- (d) with --postgres: skald on PostgreSQL, one API process, against W1 there.
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

# This file's folder would shadow the `http` standard module for the libraries below.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

import httpx

from bench.anchors import library_loops
from bench.live import fixed_rate, live_probe, ms
from bench.million import store_size
from bench.server import Server, free_port

SHEET = {"st": 10, "con": 10, "stamina_max": 200, "body_max": 200}
BODY = (
    '{"kind":"take_hit","params":{"target":"%s","damage_type":"impact","damage_class":1},'
    '"dice":{"damage":[1]}}'
)


def _stat_fields(pid: int | str) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # gone since the listing
        return None


def cpu_seconds(pid: int, tree: bool = True) -> float:
    """User + system CPU time a process and its whole tree have used so far (Linux /proc):
    the live descendants' own time (the embedded Redis, a projections child) and what the
    reaped ones left in their parents' children's time. Counting only the server's own
    process would leave out the work it hands to its children (`tree=False` does that)."""
    if not tree:
        own = _stat_fields(pid)
        return 0.0 if own is None else (int(own[11]) + int(own[12])) / os.sysconf("SC_CLK_TCK")
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat_fields(entry.name)) is not None:
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    ticks, tree = 0, [pid]
    while tree:
        member = tree.pop()
        fields = _stat_fields(member)
        if fields is not None:
            # utime, stime, and cutime, cstime: the children it has waited for
            ticks += sum(int(f) for f in fields[11:15])
        tree.extend(parents.get(member, ()))
    return ticks / os.sysconf("SC_CLK_TCK")


def wrk(
    url: str, script: str, seconds: int, connections: int, pid: int | None = None
) -> dict[str, float]:
    """Run wrk with a Lua script; its `done` prints what we parse. With the server's pid,
    also the CPU time per request of the server and its children (`cpu_ms`; the server
    process alone: `cpu_own_ms`): unlike a rate, it hardly moves
    when other work shares the machine, so it compares runs on a busy machine."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script + LUA_REPORT)
    try:
        used = cpu_seconds(pid) if pid is not None else 0.0
        used_own = cpu_seconds(pid, tree=False) if pid is not None else 0.0
        threads = min(2, connections)  # wrk needs a connection per thread
        command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
        out = subprocess.run(
            [*command, "-s", f.name, url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.unlink(f.name)  # the bench leaves nothing behind
    found = {k: float(v) for k, v in re.findall(r"^REPORT (\w+) ([\d.]+)$", out, re.M)}
    if pid is not None and found.get("requests"):
        found["cpu_ms"] = 1000 * (cpu_seconds(pid) - used) / found["requests"]
        found["cpu_own_ms"] = 1000 * (cpu_seconds(pid, tree=False) - used_own) / found["requests"]
    return found


LUA_REPORT = textwrap.dedent(
    """
    done = function(summary, latency, requests)
      local errors = summary.errors.status + summary.errors.connect + summary.errors.read
        + summary.errors.write + summary.errors.timeout
      io.write(string.format("REPORT requests %d\\n", summary.requests))
      io.write(string.format("REPORT non2xx %d\\n", summary.errors.status))
      io.write(string.format("REPORT errors %d\\n", errors))
      io.write(string.format("REPORT rate %.1f\\n", summary.requests / (summary.duration / 1e6)))
      io.write(string.format("REPORT p50ms %.2f\\n", latency:percentile(50) / 1000))
      io.write(string.format("REPORT p99ms %.2f\\n", latency:percentile(99) / 1000))
    end
    """
)


def post_script(paths: list[str], bodies: list[str], key: str | list[str] | None) -> str:
    """Requests spread over the targets in turn; one key for all, or one per target."""
    keys = key if isinstance(key, list) else [key or ""] * len(paths)
    rows = ",\n".join(
        f'{{"{p}", [[{b}]], "{k}"}}' for p, b, k in zip(paths, bodies, keys, strict=True)
    )
    return (
        textwrap.dedent(
            """
        wrk.method = "POST"
        wrk.headers["Content-Type"] = "application/json"
        local targets = {
        %s
        }
        local n = 0
        request = function()
          n = n + 1
          local t = targets[(n %% #targets) + 1]
          if t[3] ~= "" then wrk.headers["Authorization"] = "Bearer " .. t[3] end
          return wrk.format(nil, t[1], nil, t[2])
        end
        """
        )
        % rows
    )


def get_script(key: str | None) -> str:
    """GETs of the URL wrk is given, with a key."""
    return f'wrk.headers["Authorization"] = "Bearer {key}"\n' if key else ""


CEILING_APP = textwrap.dedent(
    """
    from typing import Any
    from fastapi import FastAPI
    from pydantic import BaseModel

    class Body(BaseModel):
        kind: str
        params: dict[str, Any] = {}
        dice: dict[str, list[int]] | None = None

    app = FastAPI()

    @app.post("/c")
    async def command(body: Body) -> dict[str, str]:
        return {"ok": "yes"}

    @app.get("/g")
    async def read() -> dict[str, str]:
        return {"ok": "yes"}
    """
)


@contextmanager
def ceiling_app(*stack: str) -> Iterator[tuple[str, int]]:
    """The bare app served by uvicorn: (its URL, its pid); stopped on every path."""
    folder = Path(tempfile.mkdtemp(prefix="skald-ceiling-"))
    (folder / "ceiling_app.py").write_text(CEILING_APP)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "ceiling_app:app", "--port", str(port), "--log-level",
         "warning", *stack],
        cwd=folder,
    )  # fmt: skip
    try:
        wait_up(f"http://127.0.0.1:{port}/docs")
        yield f"http://127.0.0.1:{port}", process.pid
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def ceiling(seconds: int, connections: int, *stack: str) -> dict[str, float]:
    with ceiling_app(*stack) as (url, pid):
        return wrk(url, post_script(["/c"], [BODY % "x"], None), seconds, connections, pid)


def wait_up(url: str) -> None:
    for _ in range(100):
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


# The rate limits are a guard against one noisy client; the bench is that client.
UNLIMITED = {
    "SKALD_RATE_LIMIT_PER_KEY": "1000000/second",
    "SKALD_RATE_LIMIT_PER_ADDRESS": "1000000/second",
    "SKALD_OPERATOR_KEY": "bench-operator-key",
}


def skald_setup(url: str, encounters: int) -> tuple[str, list[str], list[str]]:
    http = httpx.Client(base_url=url, timeout=30)
    created = http.post(
        "/campaigns",
        json={"name": "bench", "ruleset": "stamina-body"},
        headers={"authorization": f"Bearer {UNLIMITED['SKALD_OPERATOR_KEY']}"},
    ).json()
    cid, key = created["id"], created["gm_key"]
    http.headers["authorization"] = f"Bearer {key}"
    paths, bodies = [], []
    for n in range(encounters):
        hero = http.post(
            f"/campaigns/{cid}/characters", json={"name": f"Hero {n}", "sheet": SHEET}
        ).json()["id"]
        fight = http.post(
            f"/campaigns/{cid}/encounters",
            json={"name": f"F{n}", "combatants": [{"character_id": hero, "side": "a"}]},
        ).json()["id"]
        paths.append(f"/campaigns/{cid}/encounters/{fight}/actions")
        bodies.append(BODY % hero)
    return key, paths, bodies


def skald_run(server: Server, seconds: int, connections: int, encounters: int) -> dict[str, float]:
    key, paths, bodies = skald_setup(server.url, encounters)
    pid = server.process.pid if server.process is not None else None
    return wrk(server.url, post_script(paths, bodies, key), seconds, connections, pid)


def encounter_length(url: str, actions: int, sample: int = 50) -> dict[str, float]:
    """(c): one client, one encounter; the first actions against the last ones."""
    key, paths, bodies = skald_setup(url, 1)
    http = httpx.Client(base_url=url, timeout=30, headers={"authorization": f"Bearer {key}"})
    http.headers["content-type"] = "application/json"
    times: list[float] = []
    sizes: list[int] = []
    for _ in range(actions):
        started = time.perf_counter()
        answer = http.post(paths[0], content=bodies[0])
        times.append(time.perf_counter() - started)
        answer.raise_for_status()
        sizes.append(len(answer.content))
    first, last = sorted(times[:sample]), sorted(times[-sample:])
    return {
        "first_ms": 1000 * first[len(first) // 2],
        "last_ms": 1000 * last[len(last) // 2],
        "first_bytes": sizes[0],
        "last_bytes": sizes[-1],
    }


@contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """A database of its own for the run (the server's is shared with colleagues' tests)."""
    import psycopg

    name = f"skald_bench_{uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def concurrently(
    urls: list[str], script: str | list[str], seconds: int, conns: int
) -> dict[str, float]:
    """wrk on each server at once (one script for all, or one each), the connections
    shared out; rates and counts summed."""
    found: list[dict[str, float]] = []
    scripts = script if isinstance(script, list) else [script] * len(urls)

    def load(url: str, script: str) -> None:
        found.append(wrk(url, script, seconds, conns // len(urls)))

    runs = [threading.Thread(target=load, args=pair) for pair in zip(urls, scripts, strict=True)]
    for run in runs:
        run.start()
    for run in runs:
        run.join()
    total = {k: sum(f[k] for f in found) for k in ("rate", "requests", "non2xx")}
    return {**total, **{k: max(f[k] for f in found) for k in ("p50ms", "p99ms")}}


def postgres(url: str, seconds: int, conns: int, data: Path) -> None:
    """(d): one API process against W1 on PostgreSQL, then two processes on one store."""
    from bench.routed import haproxy_binary, scale_out
    from skald_campaign.settings import Settings
    from skald_campaign.store import persistence_env

    with fresh_database(url) as database:
        pg_loops = library_loops(seconds, conns, persistence_env(Settings(database=database)))
        print(
            f"\n{'bare library on PostgreSQL: W1 (new event per txn)':<48} {pg_loops['W1']:>8.0f}/s"
        )
        env = {**UNLIMITED, "SKALD_DATABASE": database, "SKALD_SECRET_KEY": "bench-" * 4}
        one = Server(data / "pg1", env=env).start()
        two = Server(data / "pg2", env=env).start()
        try:
            key, paths, bodies = skald_setup(one.url, 16)
            script = post_script(paths, bodies, key)
            alone = wrk(one.url, script, seconds, conns)
            print(
                line(
                    "(d) PostgreSQL, 1 process, 16 encounters",
                    alone,
                    pg_loops["W1"],
                    "W1 (goal 0.5)",
                )
            )
            total = concurrently([one.url, two.url], script, seconds, conns)
            label = "(d) PostgreSQL, 2 processes, 16 encounters"
            print(line(label, total, alone["rate"], "1 process (goal >= 1)"))
            key, paths, bodies = skald_setup(one.url, 1)
            script = post_script(paths, bodies, key)
            hot = concurrently([one.url, two.url], script, seconds, conns)
            print(
                line("(b) PostgreSQL, 2 processes, 16 writers on 1 encounter", hot, None, "")
                + f", refused {100 * hot['non2xx'] / max(hot['requests'], 1):.2f}% (goal <= 1)"
            )
        finally:
            one.stop()
            two.stop()
        if haproxy_binary() is None:
            print("(d) behind the router: not measured (no haproxy)")
            return
        routed = scale_out(database, seconds, conns, data / "routed")
        one, compose = routed["one"], routed["compose"]
        label = "(d) compose's shape: 2 replicas, workers apart, 16 campaigns, HAProxy"
        print(line(label, compose, one["rate"], "1 skald serve behind it"))
        print(
            f"{'    CPU per command, all processes':<48} {compose['cpu_ms']:.3f} ms vs one "
            f"skald serve's {one['cpu_ms']:.3f} ms = {compose['cpu_ms'] / one['cpu_ms']:.2f}x "
            "(goal <= 1.2x)"
        )


def line(label: str, figure: dict[str, float], anchor: float | None, anchor_name: str) -> str:
    ratio = f"{figure['rate'] / anchor:.2f}x {anchor_name}" if anchor else ""
    refused = f", non-2xx {int(figure['non2xx'])}/{int(figure['requests'])}"
    return (
        f"{label:<48} {figure['rate']:>8.0f}/s  p50 {figure['p50ms']:>6.1f} ms  "
        f"p99 {figure['p99ms']:>6.1f} ms{refused}  {ratio}"
    )


def live_lag(url: str, seconds: int, conns: int, rate: float) -> dict[str, list[float]]:
    """(f): wrk loads 16 encounters while the probe acts on a 17th and watches; each
    lag in seconds, by where it was seen."""
    key, paths, bodies = skald_setup(url, 17)
    load = threading.Thread(
        target=wrk, args=(url, post_script(paths[:16], bodies[:16], key), seconds + 1, conns)
    )
    load.start()
    probe = asyncio.run(live_probe(url, key, paths[16], bodies[16], rate, seconds))
    load.join()
    sent = len(probe.answered) + probe.refused
    found = {}
    for name, seen in (("SSE feed entry", probe.on_feed), ("vitals view", probe.on_vitals)):
        lags, early = probe.lags(seen)
        found[name] = lags
        print(
            f"(f) 2xx -> {name:<15} under (a), {rate:.0f}/s  {ms(lags)}  "
            f"goal p99 <= 50 ms; {len(lags)}/{sent} seen, {early} before the 2xx"
        )
    print(f"{'':<48} vitals polled {probe.polls} times back to back; refused {probe.refused}")
    return found


def fixed_hot(url: str, seconds: int, conns: int, rate: float) -> None:
    """(b) at a fixed rate: open-loop, 16 concurrent writers on one encounter."""
    key, paths, bodies = skald_setup(url, 1)
    run = asyncio.run(fixed_rate(url, key, paths[0], bodies[0], rate, conns, seconds))
    print(
        f"(b) one encounter, {conns} writers, fixed {rate:.0f}/s      {ms(run['latencies'])}  "
        f"goal p99 <= 100 ms; refused {run['refused']}/{len(run['latencies'])} (goal 0), "
        f"errors {run['errors']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--actions", type=int, default=2000, help="(c): encounter length")
    parser.add_argument("--postgres", default=os.environ.get("SKALD_TEST_POSTGRES"))
    parser.add_argument("--events", type=int, default=10**6, help="the big store's size")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench/http.py needs wrk: apt-get install wrk")
    from skald_campaign.settings import Settings
    from skald_campaign.store import persistence_env

    seconds, conns = args.seconds, args.connections
    print(f"{conns} connections, {seconds} s each, on {os.cpu_count()} cores\n")
    # uvicorn's defaults pick httptools and uvloop when installed (Skald depends on
    # them); the pure-Python stack (h11, asyncio) is the anchor the issue was filed with.
    ceil = ceiling(seconds, conns)
    print(line("HTTP ceiling: bare FastAPI async no-work POST", ceil, None, ""))
    slow = ceiling(seconds, conns, "--http", "h11", "--loop", "asyncio")
    print(line("  the same on h11 + asyncio (the issue's anchor)", slow, None, ""))
    sqlite_env = persistence_env(Settings(data_dir=Path(tempfile.mkdtemp(prefix="skald-w-"))))
    loops = library_loops(seconds, conns, sqlite_env)
    print(f"{'bare library on SQLite: W1 (new event per txn)':<48} {loops['W1']:>8.0f}/s")
    print(f"{'bare library on SQLite: W4 (cached get+event+save)':<48} {loops['W4']:>8.0f}/s\n")

    data = Path(tempfile.mkdtemp(prefix="skald-bench-http-"))
    server = Server(data / "data", env=UNLIMITED).start()
    try:
        spread = skald_run(server, seconds, conns, 16)
        print(line("(a) embedded, 16 encounters", spread, ceil["rate"], "ceiling (goal 0.5)"))
        print(
            f"{'':<48} server CPU per request: {spread['cpu_ms']:.3f} ms, the ceiling's "
            f"{ceil['cpu_ms']:.3f} ms: {ceil['cpu_ms'] / spread['cpu_ms']:.2f}x "
            "(the same ratio, steady on a busy machine)"
        )
        print(f"{'':<48} {spread['rate'] / slow['rate']:.2f}x the h11 + asyncio ceiling")
        print(f"{'':<48} {spread['rate'] / loops['W4']:.2f}x W4 (goal 1.0)")
        hot = skald_run(server, seconds, conns, 1)
        print(line("(b) embedded, 16 writers on one encounter", hot, ceil["rate"], "ceiling"))
        n = args.actions
        long = encounter_length(server.url, n)
        print(
            f"(c) one encounter, one client: p50 of actions 1-50 {long['first_ms']:.1f} ms, "
            f"of actions {n - 49}-{n} {long['last_ms']:.1f} ms: "
            f"{long['last_ms'] / long['first_ms']:.2f}x (goal <= 1.2); response "
            f"{long['first_bytes']:.0f} B at action 1, {long['last_bytes']:.0f} B at {n}"
        )
        fixed_hot(server.url, seconds, conns, 50)
        live_lag(server.url, seconds, conns, 20)
    finally:
        server.stop()
    big = store_size(data / "size", skald_setup, args.events, UNLIMITED)
    print(
        f"store of {args.events} events: built in {big['built_s']:.1f} s, views caught up in "
        f"{big['caught_up_s']:.1f} s; p50 of one client's commands {big['big_p50_ms']:.1f} ms "
        f"vs {big['empty_p50_ms']:.1f} ms on an empty store: "
        f"{big['big_p50_ms'] / big['empty_p50_ms']:.2f}x (goal <= 1.2)"
    )

    if args.postgres:
        postgres(args.postgres, seconds, conns, data)


if __name__ == "__main__":
    from bench.processes import everything_stopped

    with everything_stopped():  # every process it started stopped, its temporary files gone
        main()
