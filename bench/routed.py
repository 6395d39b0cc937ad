"""(d): API processes on one PostgreSQL store behind the router compose.yaml uses.

deploy/haproxy.cfg as it is (`balance uri depth 2`, `hash-type consistent`: every request
under /campaigns/{cid} goes to the replica its campaign hashes to), with its listener on
a loopback port and the replicas written out as servers on this machine (Docker's DNS
names them in compose). The anchor is one process behind the same proxy, so the proxy's
own cost is on both sides of the ratio. The load is 16 campaigns of one encounter each
(take_hit, as (a)): routing by campaign needs more than one campaign to spread.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

HAPROXY_CFG = Path(__file__).resolve().parents[1] / "deploy" / "haproxy.cfg"


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
def router(replicas: list[int], port: int) -> Iterator[str]:
    """HAProxy on deploy/haproxy.cfg in front of ``replicas`` (already up); its URL
    once it answers. Stopped on every path."""
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
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


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
    """Commands/s of one API process and of two, each behind the router, on one store
    (a PostgreSQL database of the caller's: ``database``)."""
    from bench.http import UNLIMITED, wrk
    from tests.e2e.server import Server, free_port

    env = {**UNLIMITED, "SKALD_DATABASE": database, "SKALD_SECRET_KEY": "bench-" * 4}
    data.mkdir(parents=True, exist_ok=True)
    one = Server(data / "routed1", env=env)
    two = Server(data / "routed2", env=env)
    try:
        one.start()
        two.start()
        with router([one.port], free_port()) as url:
            script = campaigns_load(url, 16)
            alone = wrk(url, script, seconds, conns)
        with router([one.port, two.port], free_port()) as url:
            both = wrk(url, script, seconds, conns)
    finally:
        one.stop()
        two.stop()
    return {"one": alone, "two": both}
