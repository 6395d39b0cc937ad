"""Issue 28's table in one run: every figure beside its anchor measured in the same run,
its goal, and whether this run met it.

    .venv/bin/python bench/all.py [--quick] [--seconds 5] [--postgres URL] [--store DIR]

Composes the bench scripts: the ceiling and (a) of bench/http.py, the bare library's
W4 (bench/anchors.py), the reads of bench/reads.py (its store written through the
store, not over HTTP), the live lag of bench/live.py under (a)'s load, the odds of
bench/odds.py, the rebuild of bench/projections.py and the routed scale-out of
bench/routed.py (on PostgreSQL: --postgres, or SKALD_TEST_POSTGRES; it creates a
database of its own and drops it after). Each part's own lines come first, the table at
the end. A part that fails is reported in its rows ("not measured: why") and the run
goes on; every process the run started is stopped on every path (bench/processes.py).
Exit status 0 when every figure was measured (met or missed), 1 otherwise.

--quick is a smoke run (about a minute of measuring, small stores): the same rows, the
figures not worth reading. --store keeps the rebuild's 100,000-event store (about 100 s
to write) for the next run.
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

# This folder holds http.py and projections.py, which would shadow the `http` module
# and the `projections` package: the repository goes first on the path instead.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import asyncio
import os
import shutil
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from bench.live import percentile
from bench.processes import everything_stopped

VITALS = "server CPU per view read: vitals, vs the bare no-work FastAPI GET"
BOARD = "server CPU per view read: board, vs the bare GET"
AUDIT = "server CPU per view read: campaign audit page, vs the bare GET"
ENCOUNTER_AUDIT = (
    "server CPU per read: encounter audit, last page of a long encounter, vs the bare GET"
)
HISTORY_PAGE = "server CPU per read: history, last page of an old campaign, vs the bare GET"
PAGE = "encounter audit page (?limit=50), long encounter vs 10 actions"
HISTORY = "campaign history page, old campaign vs a new one"
LOG = "server CPU per event-log page (/events, 50 events, long log), vs the bare GET"
LOG_LONG = "event-log page of 50 (/events), a log of 10,000 actions vs one of 100"
LOG_VIEWER = "server CPU per event-log page, a viewer's key (redacted), vs the bare GET"
COMMAND_CPU = "server CPU per command (a) vs the ceiling's"
COMMANDS = "server CPU per command (a) vs the bare library's W4 CPU per save"
GM_PACE = "server CPU per command at a GM's pace (one at a time) vs (a)'s"
FEED = "live lag under (a), 2xx -> SSE entry, p99, vs the ceiling's p99"
VIEW = "live lag under (a), 2xx -> vitals view, p99, vs the ceiling's p99"
FEED_QUIET = "live lag 2xx -> SSE entry, p99 (goal on a quiet machine)"
VIEW_QUIET = "live lag 2xx -> vitals view, p99 (goal on a quiet machine)"
ODDS = "the most expensive odds request, CPU"
REBUILD = "skald projections rebuild, spawn to exit, vs raw read + decode, by CPU"
ROUTED = "compose's shape on PostgreSQL (2 replicas, workers apart), CPU per command vs one serve's"
FIGURES = (VITALS, BOARD, AUDIT, ENCOUNTER_AUDIT, HISTORY_PAGE, PAGE, HISTORY, LOG, LOG_LONG)
FIGURES += (LOG_VIEWER, COMMAND_CPU)
FIGURES += (COMMANDS, GM_PACE, FEED, VIEW)
FIGURES += (FEED_QUIET, VIEW_QUIET, ODDS, REBUILD, ROUTED)


@dataclass(frozen=True)
class Row:
    measured: str
    anchor: str
    ratio: str
    goal: str
    verdict: str  # "met", "missed" or "not measured: why"


class Table:
    def __init__(self) -> None:
        self.rows: dict[str, Row] = {}

    def add(self, figure: str, measured: str, anchor: str, ratio: float, goal: str) -> None:
        """``goal`` is ">= X" or "<= X" on the ratio."""
        bound = float(goal.split()[1].rstrip("x"))
        met = ratio >= bound if goal.startswith(">=") else ratio <= bound
        row = Row(measured, anchor, f"{ratio:.2f}x", goal, "met" if met else "missed")
        self.rows[figure] = row
        print(f"  {figure}: {measured} / {anchor} = {row.ratio} ({goal}: {row.verdict})")

    def fail(self, figures: tuple[str, ...], why: str) -> None:
        for figure in figures:
            self.rows.setdefault(figure, Row("-", "-", "-", GOALS[figure], f"not measured: {why}"))

    def print(self) -> bool:
        """The table in FIGURES' order; True when every figure was measured."""
        print("\n| figure | measured | anchor (same run) | ratio | goal | |")
        print("|---|---|---|---|---|---|")
        for figure in FIGURES:
            row = self.rows.get(figure) or Row("-", "-", "-", GOALS[figure], "not measured")
            print(f"| {figure} | {row.measured} | {row.anchor} | {row.ratio} | {row.goal} "
                  f"| {row.verdict} |")  # fmt: skip
        return all(self.rows.get(f, Row("", "", "", "", "-")).verdict in ("met", "missed")
                   for f in FIGURES)  # fmt: skip


GOALS = {VITALS: ">= 0.5x", BOARD: ">= 0.5x", AUDIT: ">= 0.5x", PAGE: "<= 1.5x"}
GOALS |= {LOG: ">= 0.5x", LOG_LONG: "<= 1.2x", LOG_VIEWER: ">= 0.5x"}
GOALS |= {ENCOUNTER_AUDIT: ">= 0.5x", HISTORY_PAGE: ">= 0.5x"}
GOALS |= {HISTORY: "<= 1.5x", COMMAND_CPU: ">= 0.33x", COMMANDS: ">= 1.5x", FEED: "<= 2x"}
GOALS |= {GM_PACE: "<= 1.5x"}
GOALS |= {VIEW: "<= 2x", FEED_QUIET: "<= 1x (50 ms)", VIEW_QUIET: "<= 1x (50 ms)"}
GOALS |= {ODDS: "<= 1x (300 ms, or a 422 within it)"}
GOALS |= {REBUILD: ">= 0.75x", ROUTED: "<= 1.2x"}


@dataclass(frozen=True)
class Sizes:
    seconds: int
    actions: int  # the long encounter's
    encounters: int  # the old campaign's, and its days: half as many
    log_actions: int  # the long event log's fight
    events: int  # the rebuild's store
    runs: int  # the rebuild's, and the odds' repeats


def served(table: Table, sizes: Sizes, data: Path) -> None:
    """The ceiling, W4, then one `skald serve` on a store written through the store:
    the reads, (a), and the live lag under (a)'s load."""
    from bench.anchors import library_loops
    from bench.http import BODY, UNLIMITED, ceiling_app, get_script, post_script, skald_setup, wrk
    from bench.million import caught_up
    from bench.reads import SECRET, build, cpu_per_read, read_paths
    from bench.server import Server
    from skald_campaign.settings import Settings
    from skald_campaign.store import persistence_env

    seconds, conns = sizes.seconds, 16
    with ceiling_app() as (url, pid):
        post = wrk(url, post_script(["/c"], [BODY % "x"], None), seconds, conns, pid)
        get = wrk(f"{url}/g", get_script(None), seconds, conns, pid)
    print(f"ceiling: POST {post['cpu_ms']:.3f} ms CPU, p99 {post['p99ms']:.1f} ms; "
          f"GET {get['cpu_ms']:.3f} ms CPU")  # fmt: skip
    loops = library_loops(seconds, conns, persistence_env(Settings(data_dir=data / "w")))
    w4, w4_cpu = loops["W4"], loops["W4_cpu_ms"]
    print(f"bare library W4: {w4:.0f}/s, {w4_cpu:.3f} ms CPU per save")
    store = build(
        data / "served", sizes.actions, sizes.encounters, sizes.encounters // 2, sizes.log_actions
    )
    server = Server(data / "served", env={**UNLIMITED, "SKALD_SECRET_KEY": SECRET}).start()
    try:
        assert server.process is not None
        caught_up(server.url, store.key, f"/campaigns/{store.views}/")
        reads = cpu_per_read(server.url, server.process.pid, read_paths(server.url, store),
                             store.key, seconds, conns, store.viewer)  # fmt: skip
        bare = f"bare GET {get['cpu_ms']:.3f} ms"
        for figure, name, what in (
            (VITALS, "vitals", ""),
            (BOARD, "board", ""),
            (AUDIT, "campaign audit page", ""),
            (ENCOUNTER_AUDIT, "encounter audit, long", f"{sizes.actions} actions: "),
            (HISTORY_PAGE, "history, old", f"{sizes.encounters} fights: "),
        ):
            cpu = reads[name]["cpu_ms"]
            table.add(figure, f"{what}{cpu:.3f} ms", bare, get["cpu_ms"] / cpu, GOALS[figure])
        for figure, long, short, what in (
            (PAGE, "encounter audit, long", "encounter audit, 10 actions",
             f"{sizes.actions} actions"),
            (HISTORY, "history, old", "history, new",
             f"{sizes.encounters} encounters, {sizes.encounters // 2} days"),
        ):  # fmt: skip
            a, b = reads[long]["cpu_ms"], reads[short]["cpu_ms"]
            table.add(figure, f"{what}: {a:.3f} ms", f"{b:.3f} ms", a / b, GOALS[figure])
        log_long, log_short = reads["event log, long"]["cpu_ms"], reads["event log, 100 actions"]
        what = f"{sizes.log_actions} actions: {log_long:.3f} ms"
        table.add(LOG, what, bare, get["cpu_ms"] / log_long, GOALS[LOG])
        short_cpu = log_short["cpu_ms"]
        table.add(LOG_LONG, what, f"100 actions: {short_cpu:.3f} ms", log_long / short_cpu,
                  GOALS[LOG_LONG])  # fmt: skip
        seen = reads["event log, long, viewer"]["cpu_ms"]
        table.add(LOG_VIEWER, f"{seen:.3f} ms", bare, get["cpu_ms"] / seen, GOALS[LOG_VIEWER])
        # 16 encounters for (a), a 17th for the live lag's probe, an 18th for the GM's pace
        key, paths, bodies = skald_setup(server.url, 18)
        load = wrk(server.url, post_script(paths[:16], bodies[:16], key), seconds, conns,
                   server.process.pid)  # fmt: skip
        cpu = load["cpu_ms"]
        ceiling_cpu = f"ceiling {post['cpu_ms']:.3f} ms"
        table.add(
            COMMAND_CPU, f"{cpu:.3f} ms", ceiling_cpu, post["cpu_ms"] / cpu, GOALS[COMMAND_CPU]
        )
        measured = f"{cpu:.3f} ms ({load['rate']:.0f}/s)"
        anchor = f"W4 {w4_cpu:.3f} ms ({w4:.0f}/s)"
        table.add(COMMANDS, measured, anchor, w4_cpu / cpu, GOALS[COMMANDS])
        # A GM's pace: one connection, each command sent when the last was answered, so
        # every command is a batch of its own (the commit, the runner's batch, wake-ups).
        paced = wrk(server.url, post_script(paths[17:], bodies[17:], key), seconds, 1,
                    server.process.pid)  # fmt: skip
        measured = f"{paced['cpu_ms']:.3f} ms ({paced['rate']:.0f}/s)"
        table.add(GM_PACE, measured, f"(a) {cpu:.3f} ms", paced["cpu_ms"] / cpu, GOALS[GM_PACE])
        lags = live_lag(server.url, key, paths, bodies, seconds, conns)
        load_average = os.getloadavg()[0]
        for figure, quiet, name in ((FEED, FEED_QUIET, "feed"), (VIEW, VIEW_QUIET, "vitals")):
            p99 = 1000 * percentile(lags[name], 99)
            seen = f"p99 {p99:.1f} ms ({len(lags[name])} seen)"
            table.add(figure, seen, f"ceiling p99 {post['p99ms']:.1f} ms", p99 / post["p99ms"],
                      GOALS[figure])  # fmt: skip
            table.add(quiet, f"{seen}, load average {load_average:.1f}", "50 ms", p99 / 50,
                      GOALS[quiet])  # fmt: skip
    finally:
        server.stop()


def live_lag(
    url: str, key: str, paths: list[str], bodies: list[str], seconds: int, conns: int
) -> dict[str, list[float]]:
    """(f) of bench/http.py: wrk loads 16 encounters, a probe acts on a 17th at 20/s."""
    import threading

    from bench.http import post_script, wrk
    from bench.live import live_probe

    script = post_script(paths[:16], bodies[:16], key)
    load = threading.Thread(target=wrk, args=(url, script, seconds + 1, conns))
    load.start()
    try:
        seen = asyncio.run(live_probe(url, key, paths[16], bodies[16], 20, seconds))
    finally:
        load.join()
    return {"feed": seen.lags(seen.on_feed)[0], "vitals": seen.lags(seen.on_vitals)[0]}


def odds(table: Table, sizes: Sizes) -> None:
    from bench.odds import dearest

    found = dearest(sizes.runs)
    (cpu, case), (refused, refused_case) = found["answered"], found["refused"]
    worst = max(cpu, refused)
    which = case if cpu >= refused else f"refusal: {refused_case}"
    table.add(ODDS, f"{worst:.1f} ms ({which})", "the bound, 300 ms", worst / 300, GOALS[ODDS])


def rebuild(table: Table, sizes: Sizes, store: Path | None) -> None:
    from bench.projections import bench_store, rebuild_rates

    with bench_store(sizes.events, store, None) as bench:
        found = rebuild_rates(bench, sizes.runs, parts=2)
    measured = (
        f"{found['cli_cpu']:.2f} s of CPU for {found['events']:,.0f} events (by wall "
        f"{found['wall']:.2f} s = {found['cli_share']:.2f}x; --processes 2: "
        f"{found['parts_share']:.2f}x by wall)"
    )
    anchor = f"raw {found['raw_cpu']:,.0f} events/s of CPU"
    table.add(REBUILD, measured, anchor, found["cpu_share"], GOALS[REBUILD])


def routed(table: Table, sizes: Sizes, postgres: str | None, data: Path) -> None:
    from bench.http import fresh_database
    from bench.routed import haproxy_binary, scale_out

    if not postgres:
        return table.fail((ROUTED,), "no PostgreSQL (--postgres URL)")
    if haproxy_binary() is None:
        return table.fail((ROUTED,), "no haproxy (apt-get install haproxy)")
    with fresh_database(postgres) as database:
        found = scale_out(database, sizes.seconds, 16, data)
    compose, one = found["compose"], found["one"]
    for name, side in (("one skald serve", one), ("compose's shape", compose)):
        parts = ", ".join(f"{part} {ms:.3f}" for part, ms in side["parts_ms"].items())
        print(f"  {name}: CPU per command by component (ms): {parts}")
    measured = f"{compose['cpu_ms']:.3f} ms ({compose['rate']:.0f}/s)"
    anchor = f"one skald serve {one['cpu_ms']:.3f} ms ({one['rate']:.0f}/s)"
    table.add(ROUTED, measured, anchor, compose["cpu_ms"] / one["cpu_ms"], GOALS[ROUTED])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: small and short")
    parser.add_argument("--seconds", type=int, default=5, help="each load's length")
    parser.add_argument("--postgres", default=os.environ.get("SKALD_TEST_POSTGRES"))
    parser.add_argument("--store", type=Path, help="keep the rebuild's store here")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench/all.py needs wrk: apt-get install wrk")
    full = Sizes(args.seconds, 5000, 200, 10_000, 100_000, 3)
    sizes = Sizes(1, 300, 20, 300, 2_000, 1) if args.quick else full
    table = Table()
    data = Path(tempfile.mkdtemp(prefix="skald-bench-all-"))
    parts: list[tuple[str, tuple[str, ...], Callable[[], None]]] = [
        ("reads, commands, live lag: one skald serve", FIGURES[: FIGURES.index(VIEW_QUIET) + 1],
         lambda: served(table, sizes, data)),
        ("odds", (ODDS,), lambda: odds(table, sizes)),
        ("rebuild", (REBUILD,), lambda: rebuild(table, sizes, args.store)),
        ("routed scale-out", (ROUTED,),
         lambda: routed(table, sizes, args.postgres, data / "routed")),
    ]  # fmt: skip
    with everything_stopped():
        try:
            for name, figures, part in parts:
                print(f"\n== {name}", flush=True)
                try:
                    part()
                except Exception as error:  # reported in its rows; the run goes on
                    traceback.print_exc()
                    table.fail(figures, f"{type(error).__name__}: {error}".splitlines()[0])
        finally:
            shutil.rmtree(data, ignore_errors=True)
        print(f"\nload average at the end {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores")
        complete = table.print()
    sys.exit(0 if complete else 1)


if __name__ == "__main__":
    main()
