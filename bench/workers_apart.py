"""Issue 28's question for the embedded default: would the projection (and healing)
workers cost less CPU per command in processes of their own than inside `skald serve`?

    .venv/bin/python bench/workers_apart.py [--rounds 3] [--seconds 8]
        [--redis-url redis://127.0.0.1:6379/14]

Both sides run this checkout under bench/http.py (a)'s load (16 encounters, take_hit, 16
connections) on one external Redis (so both can reach it; the bench's keys, under a
prefix of their own, are deleted after each run), rounds alternating:

- inside: `skald serve` with its workers (the default);
- apart: `skald serve` with SKALD_WORKERS=false beside `skald worker projections` and
  `skald worker healing`, as a supervised child would run them.

The CPU per command counts every process of each side (the server's tree and the
workers'); the Redis server's own CPU is left out of both.
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import tempfile
import time
import uuid

import redis

from bench.server import Server

# bench/http.py, loaded by path: its name would shadow the `http` standard module.
_spec = importlib.util.spec_from_file_location("bench_http", Path(__file__).with_name("http.py"))
assert _spec is not None and _spec.loader is not None
bench_http = importlib.util.module_from_spec(_spec)
sys.modules["bench_http"] = bench_http
_spec.loader.exec_module(bench_http)

SKALD = Path(sys.executable).parent / "skald"


def one_run(apart: bool, folder: Path, redis_url: str, seconds: int) -> dict[str, float]:
    prefix = f"bench-apart-{uuid.uuid4().hex[:12]}"
    data = folder / prefix / "data"
    data.parent.mkdir(parents=True)
    env = {
        **bench_http.UNLIMITED,
        "SKALD_REDIS_URL": redis_url,
        "SKALD_REDIS_PREFIX": prefix,
        "SKALD_SECRET_KEY": "bench-workers-apart-secret-key-000000",
        "SKALD_WORKERS": "false" if apart else "true",
    }
    server = Server(data, env=env)
    workers: list[subprocess.Popen[bytes]] = []
    try:
        server.start()
        assert server.process is not None
        if apart:
            for name in ("projections", "healing"):
                workers.append(
                    subprocess.Popen(
                        [str(SKALD), "worker", name, "--data-dir", str(data)],
                        env={**os.environ, **env},
                        stdout=(data.parent / f"{name}.log").open("ab"),
                        stderr=subprocess.STDOUT,
                    )
                )
        key, paths, bodies = bench_http.skald_setup(server.url, 16)
        script = bench_http.post_script(paths, bodies, key)
        bench_http.wrk(server.url, script, 3, 16)  # warm-up
        pids = [server.process.pid, *(w.pid for w in workers)]
        before = sum(bench_http.cpu_seconds(pid) for pid in pids)
        run = bench_http.wrk(server.url, script, seconds, 16)
        used = sum(bench_http.cpu_seconds(pid) for pid in pids) - before
        run["cpu_ms"] = 1000 * used / run["requests"]
        return run
    finally:
        for worker in workers:
            worker.terminate()
            try:
                worker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        server.stop()
        store = redis.Redis.from_url(redis_url)
        for found in store.scan_iter(f"{prefix}*"):
            store.delete(found)
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench/workers_apart.py needs wrk: apt-get install wrk")
    cpu: dict[str, list[float]] = {"inside": [], "apart": []}
    folder = Path(tempfile.mkdtemp(prefix="skald-apart-"))
    try:
        for n in range(args.rounds):
            for side in cpu:
                run = one_run(side == "apart", folder, args.redis_url, args.seconds)
                cpu[side].append(run["cpu_ms"])
                print(
                    f"round {n + 1} {side:>6}: {run['cpu_ms']:.3f} ms CPU per command, "
                    f"{run['rate']:.0f}/s, p99 {run['p99ms']:.1f} ms",
                    flush=True,
                )
            time.sleep(0.5)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    inside, apart = (statistics.median(cpu[side]) for side in ("inside", "apart"))
    pairs = [b / a for a, b in zip(cpu["inside"], cpu["apart"], strict=True)]
    print(
        f"\nmedians: inside {inside:.3f} ms, apart {apart:.3f} ms: apart/inside "
        f"{apart / inside:.3f} (rounds {min(pairs):.3f}-{max(pairs):.3f})"
    )


if __name__ == "__main__":
    from bench.processes import everything_stopped

    with everything_stopped():  # every process it started stopped, its temporary files gone
        main()
