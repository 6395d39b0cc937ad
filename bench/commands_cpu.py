"""Issue 39's command figures in rounds: server CPU per command (the server's whole
process tree, the embedded Redis included, from /proc) under (a)'s load and at a GM's
pace, beside their anchors measured in the same round.

    .venv/bin/python bench/commands_cpu.py [--rounds 3] [--seconds 5] [--against DIR ...]

Each round: the bare no-work FastAPI POST (bench/http.py's ceiling, 16 connections),
the bare library's W4 (cached get + event + save on SQLite, 16 threads; this process's
CPU per save), then a fresh `skald serve` on the embedded default: (a) take_hit over 16
encounters at 16 connections, and a GM's pace, one connection sending each command when
the last was answered (every command a batch of its own: its commit, the projection
runner's batch, the wake-ups of each thread). Printed per round and as medians:

- (a) against the bare POST: bare / Skald, goal >= 0.33x;
- (a) against W4 by CPU: W4 / Skald, goal >= 1.5x;
- the GM's pace against (a): paced / (a), goal <= 1.5x.

With --against DIR (another checkout with its own venv, DIR/.venv or DIR/.venv-test),
each round also runs that checkout's `skald serve` the same way, this one's and the
others' in turn, so every side sees the same machine; compare their ratios, not their
milliseconds. bench/all.py prints the same three rows once.
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import os
import statistics
import tempfile

from bench.anchors import library_loops
from bench.http import BODY, UNLIMITED, ceiling_app, post_script, skald_setup, wrk
from bench.server import Server

HERE = Path(__file__).resolve().parents[1]


class CheckoutServer(Server):
    """`skald serve` from a checkout's own venv (this one's by default)."""

    def __init__(self, checkout: Path, data_dir: Path) -> None:
        found = [
            checkout / venv / "bin" / "skald"
            for venv in (".venv", ".venv-test")
            if (checkout / venv / "bin" / "skald").exists()
        ]
        if checkout != HERE and not found:
            sys.exit(f"no venv with skald in {checkout}")
        own = checkout == HERE
        super().__init__(data_dir, env=UNLIMITED, checkout=None if own else (found[0], checkout))
        self.checkout = checkout


def commands(checkout: Path, data: Path, seconds: int) -> dict[str, float]:
    """(a) and the GM's pace on a fresh server of ``checkout``: CPU per command in ms."""
    server = CheckoutServer(checkout, data).start()
    try:
        assert server.process is not None
        pid = server.process.pid
        key, paths, bodies = skald_setup(server.url, 17)
        busy = post_script(paths[:16], bodies[:16], key)
        wrk(server.url, busy, 1, 16)  # warm: the encounters read, the caches full
        load = wrk(server.url, busy, seconds, 16, pid)
        paced = wrk(server.url, post_script(paths[16:], bodies[16:], key), seconds, 1, pid)
    finally:
        server.stop()
    return {
        "busy": load["cpu_ms"],
        "busy_rate": load["rate"],
        "paced": paced["cpu_ms"],
        "paced_rate": paced["rate"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--against", type=Path, action="append", default=[])
    args = parser.parse_args()
    from skald_campaign.settings import Settings
    from skald_campaign.store import persistence_env

    sides = [HERE, *(p.resolve() for p in args.against)]
    found: dict[Path, list[dict[str, float]]] = {side: [] for side in sides}
    data = Path(tempfile.mkdtemp(prefix="skald-bench-commands-"))
    for number in range(1, args.rounds + 1):
        with ceiling_app() as (url, pid):
            post = wrk(url, post_script(["/c"], [BODY % "x"], None), args.seconds, 16, pid)
        env = persistence_env(Settings(data_dir=data / f"w{number}"))
        w4 = library_loops(args.seconds, 16, env)["W4_cpu_ms"]
        print(f"round {number}: bare POST {post['cpu_ms']:.3f} ms, W4 {w4:.3f} ms per save")
        turn = (number - 1) % len(sides)  # each side first in turn
        for n, side in [*enumerate(sides)][turn:] + [*enumerate(sides)][:turn]:
            got = commands(side, data / f"s{number}-{n}", args.seconds)
            got |= {"post": post["cpu_ms"], "w4": w4, "load": os.getloadavg()[0]}
            found[side].append(got)
            print(f"  {side}: {line(got)}", flush=True)
    for side, rounds in found.items():
        medians = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
        print(f"\n{side}, medians of {len(rounds)} rounds: {line(medians)}")
        for name, ratio in RATIOS.items():
            each = [ratio(r) for r in rounds]
            shown = ", ".join(f"{x:.2f}x" for x in each)
            print(f"  {name}: by round {shown}; their median {statistics.median(each):.2f}x")


RATIOS = {
    "(a) vs the bare POST (goal >= 0.33x)": lambda r: r["post"] / r["busy"],
    "(a) vs W4 by CPU (goal >= 1.5x)": lambda r: r["w4"] / r["busy"],
    "a GM's pace vs (a) (goal <= 1.5x)": lambda r: r["paced"] / r["busy"],
}


def line(got: dict[str, float]) -> str:
    """One round's figures (or the medians of each figure) and their ratios."""
    return (
        f"(a) {got['busy']:.3f} ms ({got['busy_rate']:.0f}/s) = {got['post'] / got['busy']:.2f}x "
        f"the bare POST (goal >= 0.33x), {got['w4'] / got['busy']:.2f}x W4 (goal >= 1.5x); "
        f"a GM's pace {got['paced']:.3f} ms ({got['paced_rate']:.0f}/s) = "
        f"{got['paced'] / got['busy']:.2f}x (a) (goal <= 1.5x); load {got['load']:.1f}"
    )


if __name__ == "__main__":
    from bench.processes import everything_stopped

    with everything_stopped():  # every process it started stopped, its temporary files gone
        main()
