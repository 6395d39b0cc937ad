"""A/B of the command path: server CPU per command under bench/http.py (a)'s load, two
checkouts alternating in one run.

    .venv/bin/python bench/ab.py --a /work/wt/base [--b .] [--b OTHER] [--rounds 4] [--seconds 10]
        [--idle] [--pace-ms N]

Each checkout needs its own venv (`<checkout>/.venv/bin/skald`). Every run is a fresh
`skald serve` of that checkout on a fresh data directory, 16 encounters of take_hit
commands at 16 connections (bench/http.py (a)), a short warm-up, then `--seconds` of
load; the CPU time (user + system, from /proc) of the server's whole process tree (the
server, its embedded Redis and any other child) is divided by the commands wrk counted;
each run also prints the server process's own share. Runs go A, B, A, B, ... (A, B, C,
... with more checkouts) so every side sees the same machine. On a machine shared with
other work only the ratio of interleaved runs means anything: rates move with the
neighbours, CPU per command much less. With --idle, no load: each server's CPU per
second while it sits idle after the set-up (its workers' polls).

With --pace-ms N each connection waits N ms before each request (wrk's `delay`), so both
sides are offered the same rate (at most connections x 1000/N per second) instead of as
much as each can take: at saturation the faster side also commits in bigger batches,
which lowers its CPU per command by itself, and a neighbour's load moves the rate and
with it the batches. Paced below both sides' ceilings, each round compares the same
work at the same rate.
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import importlib.util
import shutil
import statistics
import subprocess
import tempfile
import time

from bench.server import Server

# bench/http.py, loaded by path: its name would shadow the `http` standard module.
_spec = importlib.util.spec_from_file_location("bench_http", Path(__file__).with_name("http.py"))
assert _spec is not None and _spec.loader is not None
bench_http = importlib.util.module_from_spec(_spec)
sys.modules["bench_http"] = bench_http
_spec.loader.exec_module(bench_http)


class CheckoutServer(Server):
    """`skald serve` from another checkout's venv (tests.e2e.server takes this one's)."""

    def __init__(self, checkout: Path, data_dir: Path, env: dict[str, str]) -> None:
        skald = checkout / ".venv" / "bin" / "skald"
        if not skald.exists():
            sys.exit(f"{skald} is missing: make the checkout's venv first")
        super().__init__(data_dir, env=env, checkout=(skald, checkout))
        self.checkout = checkout


def paced(script: str, pace_ms: int | None) -> str:
    """The wrk script with each request delayed ``pace_ms`` ms (None: as fast as it goes)."""
    return script if pace_ms is None else f"{script}\ndelay = function() return {pace_ms} end\n"


def one_run(
    checkout: Path, data: Path, seconds: int, warmup: int, conns: int, pace_ms: int | None = None
) -> dict[str, float]:
    server = CheckoutServer(checkout, data, bench_http.UNLIMITED).start()
    try:
        assert server.process is not None
        key, paths, bodies = bench_http.skald_setup(server.url, 16)
        script = paced(bench_http.post_script(paths, bodies, key), pace_ms)
        if warmup:
            bench_http.wrk(server.url, script, warmup, conns)
        return bench_http.wrk(server.url, script, seconds, conns, server.process.pid)
    finally:
        server.stop()


def idle_run(checkout: Path, data: Path, seconds: int) -> float:
    """The server tree's CPU per second of doing nothing, after a campaign with 16 fights
    was set up and a short settle: what its workers' polls cost (ms of CPU per second)."""
    server = CheckoutServer(checkout, data, bench_http.UNLIMITED).start()
    try:
        assert server.process is not None
        bench_http.skald_setup(server.url, 16)
        time.sleep(3)
        used = bench_http.cpu_seconds(server.process.pid)
        time.sleep(seconds)
        return 1000 * (bench_http.cpu_seconds(server.process.pid) - used) / seconds
    finally:
        server.stop()


def describe(checkout: Path) -> str:
    found = subprocess.run(
        ["git", "-C", str(checkout), "log", "--oneline", "-1", "--format=%h"],
        capture_output=True,
        text=True,
    )
    dirty = subprocess.run(
        ["git", "-C", str(checkout), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return f"{checkout} ({found.stdout.strip()}{' + changes' if dirty else ''})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--a", type=Path, required=True, help="the baseline checkout")
    parser.add_argument(
        "--b",
        type=Path,
        action="append",
        help="a checkout to compare (again for more: B, C, ...); default this one",
    )
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument(
        "--idle", action="store_true", help="no load: the CPU each server uses while idle"
    )
    parser.add_argument(
        "--pace-ms", type=int, help="each connection waits this long before each request"
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench/ab.py needs wrk: apt-get install wrk")
    others = args.b or [Path(__file__).resolve().parents[1]]
    sides = {"A": args.a.resolve()} | {
        chr(ord("B") + n): checkout.resolve() for n, checkout in enumerate(others)
    }
    for name, checkout in sides.items():
        print(f"{name}: {describe(checkout)}")
    order = ", ".join(sides)
    pace = "" if args.pace_ms is None else f", each connection paced at {args.pace_ms} ms"
    print(
        f"{args.rounds} rounds of {order}, {args.seconds} s each after {args.warmup} s "
        f"warm-up{pace}\n"
    )
    cpu: dict[str, list[float]] = {name: [] for name in sides}
    folder = Path(tempfile.mkdtemp(prefix="skald-ab-"))
    try:
        for n in range(args.rounds):
            for name, checkout in sides.items():
                data = folder / f"{name}{n}" / "data"
                data.parent.mkdir(parents=True)
                if args.idle:
                    idle = idle_run(checkout, data, args.seconds)
                    cpu[name].append(idle)
                    print(f"round {n + 1} {name}: idle {idle:.2f} ms CPU per second", flush=True)
                    continue
                run = one_run(
                    checkout, data, args.seconds, args.warmup, args.connections, args.pace_ms
                )
                cpu[name].append(run["cpu_ms"])
                print(
                    f"round {n + 1} {name}: {run['cpu_ms']:.3f} ms CPU per command "
                    f"(the server process {run['cpu_own_ms']:.3f}), "
                    f"{run['rate']:.0f}/s, p99 {run['p99ms']:.1f} ms, "
                    f"non-2xx {int(run['non2xx'])}/{int(run['requests'])}",
                    flush=True,
                )
            ratios = ", ".join(f"{b}/A {cpu[b][-1] / cpu['A'][-1]:.3f}" for b in sides if b != "A")
            print(f"        this round: {ratios}", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    medians = {name: statistics.median(runs) for name, runs in cpu.items()}
    unit = "ms per second idle" if args.idle else "ms"
    print("\nserver CPU " + ("while idle" if args.idle else "per command") + ", median:")
    for name, runs in cpu.items():
        print(f"  {name} {medians[name]:.3f} {unit} ({min(runs):.3f}-{max(runs):.3f})")
    for b in sides:
        if b == "A":
            continue
        pairs = [y / x for x, y in zip(cpu["A"], cpu[b], strict=True)]
        print(
            f"{b}/A: {medians[b] / medians['A']:.3f} "
            f"(rounds {min(pairs):.3f}-{max(pairs):.3f}, median {statistics.median(pairs):.3f})"
        )


if __name__ == "__main__":
    from bench.processes import everything_stopped

    with everything_stopped():  # every process it started stopped, its temporary files gone
        main()
