"""What the second campaign's slowest commands of bench/long_fight.py wait on (issue 39,
tail19 lane).

    .venv/bin/python bench/long_fight_tail.py [--actions 10000] [--seconds 8]
        [--slow 0.99] [--old-drive]

Runs bench/long_fight.py's "beside" part (SQLite) with stamps (`time.perf_counter()`,
CLOCK_MONOTONIC, so comparable with another process's) around what might stall a
command, patched in by name (a renamed function stops it, it does not measure the wrong
thing):

- each of the second campaign's commands: sent, answered (the writer's callback);
- the writer's batches (`GroupCommitWriter._alone` / `_run_batch`), with the writer
  thread's run-queue wait over each (/proc/thread-self/schedstat: runnable, not running);
- the cyclic collector's passes (gc.callbacks: generation, thread);
- every transaction on the kept writing connection (workers/sqlite_writing.py): the
  wait for its lock, the statements, the COMMIT; and, from the WAL-index (the ``-shm``
  file's header: mxFrame, its salt, nBackfill), the WAL frames it added and whether a
  checkpoint (nBackfill moved) or a restart of the WAL (the salt changed) ran in it;
- the snapshot thread's take (encoding), its put (pack and insert, under the lock), and
  the freeze after it; the writer's hand-off (the copy);
- a thread of this process sleeping 1 ms in a loop and a process of its own doing the
  same (its overshoots: the GIL and the machine's scheduling against the machine's
  alone);
- the writer's innermost frames, every 2 ms once a batch of its has run 5 ms.

For each side ("with" a long encounter, "without": a new one), the commands at or above
the ``--slow`` quantile are listed with what overlapped each, grouped into episodes
(overlapping waits: a stall of T ms makes ~T/2 of the commands sent every 2 ms late),
and counted by cause; the same counts over all commands give the base rate to hold
them against. bench/README.md, "tail19 lane", reads them.

--old-drive runs bench/long_fight.py's drive as it was before the tail19 lane (each
answer a copy of the encounter, every one kept until the round's end).
TAIL_DUMP=FILE writes every span as JSON; TAIL_DIAG=1 prints what some young
generations hold; TAIL_YIELD_EVERY=N sets the snapshot thread's hand-off of the GIL
(application/snapshotting.py YIELD_EVERY). A checkpointer thread (tried in the tail19
lane, not kept) is stamped if the store has one.
"""

# ruff: noqa: E402
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import contextlib
import gc
import mmap
import os
import struct
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from bench import long_fight as lf
from skald_campaign.application import group_commit, snapshotting
from skald_campaign.workers import sqlite_writing

now = time.perf_counter
# (kind, start, end, detail)
SPANS: list[tuple[str, float, float, dict[str, Any]]] = []
COMMANDS: list[tuple[str, float, float]] = []  # (side, sent, answered)
SIDE = ["?"]


def span(kind: str, start: float, end: float, **detail: Any) -> None:
    SPANS.append((kind, start, end, detail))


def run_queue_wait() -> int:
    """This thread's time runnable but not running so far (ns)."""
    with open("/proc/thread-self/schedstat") as f:
        return int(f.read().split()[1])


# -- the collector -------------------------------------------------------------------

_gc_started: dict[int, tuple[float, float]] = {}
DIAG = bool(os.environ.get("TAIL_DIAG"))


def on_gc(phase: str, info: dict[str, Any]) -> None:
    ident = threading.get_ident()
    if phase == "start":
        if DIAG and info["generation"] == 0 and len(SPANS) % 7 == 0:
            young = gc.get_objects(0)
            sizes = Counter()
            refs = 0
            for o in young:
                n = len(o) if isinstance(o, (list, dict, tuple, set)) else 1
                refs += n
                sizes[type(o).__name__] += n
            big = sorted((len(o) for o in young if isinstance(o, list)), reverse=True)[:8]
            print(f"gen0 at {now():.3f} {threading.current_thread().name}: {len(young)} objects,"
                  f" {refs} refs; {sizes.most_common(6)}; largest lists {big}")  # fmt: skip
            del young
        _gc_started[ident] = (now(), time.thread_time())
    else:
        start = _gc_started.pop(ident, None)
        if start is not None:
            span(f"gc{info['generation']}", start[0], now(), cpu=time.thread_time() - start[1],
                 thread=threading.current_thread().name)  # fmt: skip


# -- the WAL-index ------------------------------------------------------------------


class WalIndex:
    """The -shm file's header as SQLite keeps it (wal.c: WalIndexHdr at 0, its copy at
    48, WalCkptInfo at 96): mxFrame (frames in the WAL), the salt (changes when the WAL
    restarts), nBackfill (frames copied back into the database)."""

    def __init__(self, db: str) -> None:
        self.path = db + "-shm"
        self._map: mmap.mmap | None = None

    def read(self) -> tuple[int, int, int]:
        if self._map is None:
            try:
                with open(self.path, "rb") as f:
                    self._map = mmap.mmap(f.fileno(), 32768, access=mmap.ACCESS_READ)
            except (OSError, ValueError):
                return (0, 0, 0)
        m = self._map
        mx_frame = struct.unpack_from("=I", m, 16)[0]
        salt = struct.unpack_from("=I", m, 32)[0]
        backfill = struct.unpack_from("=I", m, 96)[0]
        return mx_frame, salt, backfill


_index: dict[str, WalIndex] = {}


@contextlib.contextmanager
def stamped_transaction(self: Any) -> Iterator[Any]:
    index = _index.setdefault(self.db_name, WalIndex(self.db_name))
    who = threading.current_thread().name
    asked = now()
    with self._lock:
        held = now()
        raw, connection = self._connected()
        before = index.read()
        body = held
        try:
            with connection.transaction(commit=True) as cursor:
                yield cursor
                body = now()
        except BaseException:
            if raw.in_transaction:
                raw.rollback()
            raise
        finally:
            done = now()
            after = index.read()
            restarted = after[1] != before[1]
            checkpointed = after[2] > before[2] and not restarted
            span("lock_wait", asked, held, thread=who)
            span("commit", body, done, thread=who, frames=after[0] - before[0], wal=after[0],
                 checkpoint=checkpointed, restart=restarted,
                 backfill=(before[2], after[2]))  # fmt: skip
            span("txn", held, done, thread=who)
    checkpointer = getattr(self, "checkpointer", None)
    if checkpointer is not None:
        checkpointer.committed()


sqlite_writing.WritingConnection.transaction = stamped_transaction  # type: ignore[assignment]
if hasattr(sqlite_writing, "Checkpointer"):
    _checkpoint = sqlite_writing.Checkpointer.checkpoint

    def stamped_checkpoint(self: Any) -> tuple[int, int]:
        # Its thread calls it twice a cycle: the second under the commits' lock.
        self.probe_calls = getattr(self, "probe_calls", 0) + 1
        locked = self.probe_calls % 2 == 0
        start = now()
        pages, copied = _checkpoint(self)
        span("bg_checkpoint", start, now(), pages=pages, copied=copied, locked=locked)
        return pages, copied

    sqlite_writing.Checkpointer.checkpoint = stamped_checkpoint  # type: ignore[method-assign]


# -- the writer ---------------------------------------------------------------------

_alone = group_commit.GroupCommitWriter._alone
_run_batch = group_commit.GroupCommitWriter._run_batch


IN_BATCH: dict[str, Any] = {}  # the writer's batch under way: its start, its thread id
STACKS: list[tuple[float, str]] = []  # (when, the writer's innermost frames) in long batches


def stamped_alone(self: Any, job: Any) -> None:
    start, waited = now(), run_queue_wait()
    IN_BATCH.update(start=start, ident=threading.get_ident())
    _alone(self, job)
    IN_BATCH.clear()
    span("batch", start, now(), jobs=1, runq=(run_queue_wait() - waited) / 1e9)


def stamped_run_batch(self: Any, jobs: list[Any]) -> Any:
    start, waited, n = now(), run_queue_wait(), len(jobs)
    IN_BATCH.update(start=start, ident=threading.get_ident())
    try:
        return _run_batch(self, jobs)
    finally:
        IN_BATCH.clear()
        span("batch", start, now(), jobs=n, runq=(run_queue_wait() - waited) / 1e9)


def sample_long_batches(stop: threading.Event) -> None:
    """Every 2 ms, the writer's innermost frames while a batch of its has run 5 ms."""
    while not stop.is_set():
        time.sleep(0.002)
        start, ident = IN_BATCH.get("start"), IN_BATCH.get("ident")
        if start is None or now() - start < 0.005:
            continue
        frame = sys._current_frames().get(ident)
        names = []
        while frame is not None and len(names) < 4:
            names.append(f"{Path(frame.f_code.co_filename).stem}.{frame.f_code.co_name}")
            frame = frame.f_back
        STACKS.append((now(), " < ".join(names)))


group_commit.GroupCommitWriter._alone = stamped_alone  # type: ignore[method-assign]
group_commit.GroupCommitWriter._run_batch = stamped_run_batch  # type: ignore[method-assign]

_hand = snapshotting.Snapshotter.hand


def stamped_hand(self: Any, due: Any) -> None:
    start = now()
    _hand(self, due)
    span("hand", start, now())


snapshotting.Snapshotter.hand = stamped_hand  # type: ignore[method-assign]
_freeze = snapshotting.keep_snapshotted_out_of_collections


def stamped_freeze() -> None:
    start = now()
    _freeze()
    span("freeze", start, now())


snapshotting.keep_snapshotted_out_of_collections = stamped_freeze

_served = lf.served_application


@contextlib.contextmanager
def served(settings: Any) -> Iterator[Any]:
    with _served(settings) as (app, seen):
        snapshotter = app.snapshotter
        take, put = snapshotter._take, snapshotter._put

        def timed_take(cls: Any, aggregate: Any) -> Any:
            start, used = now(), time.thread_time()
            try:
                return take(cls, aggregate)
            finally:
                span("snap_take", start, now(), version=aggregate.version,
                     cpu=time.thread_time() - used)  # fmt: skip

        def timed_put(taken: Any) -> Any:
            start = now()
            try:
                return put(taken)
            finally:
                span("snap_put", start, now())

        snapshotter._take, snapshotter._put = timed_take, timed_put
        yield app, seen


lf.served_application = served


_drive = lf.drive
OLD_DRIVE = [False]


def drive(app: Any, first: Any, other: Any, seconds: float) -> list[float]:
    """bench/long_fight.py's drive, each command's sending and answer stamped."""
    side = "with" if SIDE[0] != "with" else "without"
    SIDE[0] = side
    if not OLD_DRIVE[0]:
        return new_drive(app, first, other, seconds, side)
    stop = threading.Event()

    def load() -> None:
        while not stop.is_set():
            app.perform_action(first.hit())

    loader = threading.Thread(target=load, name="loader")
    loader.start()
    lags: list[float] = []
    pending = []
    span(f"round_{side}", now(), now())
    started = now()
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(0.002)
            sent = now()
            future = app.perform_action_later(other.hit())

            def done(_: Any, sent: float = sent) -> None:
                answered = now()
                lags.append(answered - sent)
                COMMANDS.append((side, sent, answered))

            future.add_done_callback(done)
            pending.append(future)
        for future in pending:
            future.result()
    finally:
        stop.set()
        loader.join()
    span(f"round_{side}", started, now())
    return lags


def new_drive(app: Any, first: Any, other: Any, seconds: float, side: str) -> list[float]:
    perform = app.perform_action_answered

    def stamped(command: Any, answer: Any) -> Any:
        sent = now()
        future = perform(command, answer)
        if command.encounter_id == other.encounter:

            def done(_: Any) -> None:
                COMMANDS.append((side, sent, now()))

            future.add_done_callback(done)
        return future

    app.perform_action_answered = stamped
    started = now()
    try:
        return _drive(app, first, other, seconds)
    finally:
        del app.perform_action_answered
        span(f"round_{side}", started, now())


lf.drive = drive


# -- the canaries ---------------------------------------------------------------------

CANARY = """
import sys, time
now = time.perf_counter
end = now() + float(sys.argv[1])
while now() < end:
    t = now()
    time.sleep(0.001)
    late = now() - t - 0.001
    if late > 0.002:
        print(t + 0.001, late, flush=True)
"""


def in_process_canary(stop: threading.Event) -> None:
    while not stop.is_set():
        t = now()
        time.sleep(0.001)
        late = now() - t - 0.001
        if late > 0.002:
            span("canary_in", t + 0.001, t + 0.001 + late)


# -- the reading ---------------------------------------------------------------------

CAUSES = ("gc0", "gc1", "gc2", "freeze", "checkpoint", "snap_put", "snap_take", "hand",
          "lock_wait_writer", "runq", "canary_out", "canary_in", "big_batch")  # fmt: skip


def overlaps(spans: list[Any], start: float, end: float) -> list[Any]:
    return [s for s in spans if s[1] < end and s[2] > start]


def causes_of(start: float, end: float, by_kind: dict[str, list[Any]]) -> dict[str, float]:
    """Each candidate cause's overlap with [start, end] (seconds), where it is at least 1 ms."""
    found: dict[str, float] = {}

    def add(name: str, spans: list[Any]) -> None:
        total = sum(min(end, s[2]) - max(start, s[1]) for s in spans)
        if total >= 0.001:
            found[name] = found.get(name, 0.0) + total

    for kind in ("gc0", "gc1", "gc2", "freeze", "snap_put", "snap_take", "hand",
                 "canary_in", "canary_out", "bg_checkpoint"):  # fmt: skip
        add(kind, overlaps(by_kind.get(kind, []), start, end))
    commits = overlaps(by_kind.get("commit", []), start, end)
    bg = by_kind.get("bg_checkpoint", [])
    add("checkpoint", [s for s in commits if s[3]["checkpoint"] and not overlaps(bg, s[1], s[2])])
    add("restart", [s for s in commits if s[3]["restart"]])
    add("commit_snapshots", [s for s in commits if s[3]["thread"] == "skald-snapshots"])
    waits = overlaps(by_kind.get("lock_wait", []), start, end)
    add("lock_wait_writer", [s for s in waits if s[3]["thread"] != "skald-snapshots"])
    batches = overlaps(by_kind.get("batch", []), start, end)
    runq = sum(s[3]["runq"] for s in batches)
    if runq >= 0.001:
        found["runq"] = runq
    add("big_batch", [s for s in batches if s[2] - s[1] > 0.005])
    return found


def middle(spans: list[Any]) -> float:
    """The median duration of ``spans`` (ms)."""
    d = sorted(1000 * (s[2] - s[1]) for s in spans)
    return d[len(d) // 2] if d else 0.0


def report(slow_quantile: float) -> None:
    by_kind: dict[str, list[Any]] = {}
    for s in SPANS:
        by_kind.setdefault(s[0], []).append(s)
    for side in ("with", "without"):
        commands = sorted((c for c in COMMANDS if c[0] == side), key=lambda c: c[2] - c[1])
        if not commands:
            continue
        p99 = commands[int(slow_quantile * (len(commands) - 1))]
        median = commands[len(commands) // 2]
        slow = [c for c in commands if c[2] - c[1] >= p99[2] - p99[1]]
        rounds = by_kind.get(f"round_{side}", [])
        window = [r for r in rounds if r[2] > r[1]]
        inside = [s for s in SPANS if any(s[1] < r[2] and s[2] > r[1] for r in window)]
        kinds = Counter(s[0] for s in inside)
        checkpoints = sum(1 for s in inside if s[0] == "commit" and s[3]["checkpoint"])
        print(f"\n== {side}: {len(commands)} commands, p50 "
              f"{1000 * (median[2] - median[1]):.1f} ms,"
              f" p{100 * slow_quantile:g} {1000 * (p99[2] - p99[1]):.1f} ms; in its rounds: "
              f"gc0 {kinds['gc0']}, gc1 {kinds['gc1']}, gc2 {kinds['gc2']}, freezes "
              f"{kinds['freeze']}, snapshots stored {kinds['snap_put']}, commits "
              f"{kinds['commit']}, checkpoints {checkpoints}, canary_out stalls "
              f"{kinds['canary_out']}, canary_in {kinds['canary_in']}")  # fmt: skip
        counted: Counter[str] = Counter()
        base: Counter[str] = Counter()
        for c in commands:
            base.update(causes_of(c[1], c[2], by_kind).keys())
        for c in slow:
            found = causes_of(c[1], c[2], by_kind)
            counted.update(found.keys())
            if not found:
                counted["nothing"] += 1
            what = ", ".join(f"{k} {1000 * v:.1f}" for k, v in
                             sorted(found.items(), key=lambda kv: -kv[1]))  # fmt: skip
            print(f"  {1000 * (c[2] - c[1]):6.1f} ms at {c[1] - window[0][1]:7.3f}: {what}")
        # A stall of T ms makes ~T/2 of the commands sent every 2 ms slow: the slow ones
        # come in episodes (overlapping waits), each one stall.
        episodes: list[list[Any]] = []
        for c in sorted(slow, key=lambda c: c[1]):
            if episodes and c[1] < max(e[2] for e in episodes[-1]):
                episodes[-1].append(c)
            else:
                episodes.append([c])
        print(f"  episodes: {len(episodes)}")
        for e in episodes:
            start, end = min(c[1] for c in e), max(c[2] for c in e)
            found = causes_of(start, end, by_kind)
            what = ", ".join(f"{k} {1000 * v:.1f}" for k, v in
                             sorted(found.items(), key=lambda kv: -kv[1]))  # fmt: skip
            worst = max(c[2] - c[1] for c in e)
            seen = Counter(n for t, n in STACKS if start <= t <= end)
            if seen:
                what += "; the writer in: " + "; ".join(f"{n} x{k}" for n, k in seen.most_common(3))
            print(f"    {len(e):3d} slow, the worst {1000 * worst:.1f} ms, "
                  f"at {start - window[0][1]:.3f}"
                  f" for {1000 * (end - start):.1f} ms: {what}")  # fmt: skip
        print(f"  slow ones by cause (count of {len(slow)}; over all {len(commands)} commands):")
        for k, v in counted.most_common():
            print(f"    {k}: {v} ({base[k]})")
    # Checkpoints: where and how long.
    bg = by_kind.get("bg_checkpoint", [])
    # (A commit during one of the checkpointer's sees the WAL's pages copied meanwhile.)
    cps = [s for s in by_kind.get("commit", [])
           if s[3]["checkpoint"] and not overlaps(bg, s[1], s[2])]  # fmt: skip
    print(f"\ncheckpoints in commits: {len(cps)}; on the snapshot thread "
          f"{sum(s[3]['thread'] == 'skald-snapshots' for s in cps)}; durations (ms): "
          f"{sorted(round(1000 * (s[2] - s[1]), 1) for s in cps)}")  # fmt: skip
    commits = by_kind.get("commit", [])
    restarts = [s for s in commits if s[3]["restart"]]
    print(f"WAL restarts in commits: {len(restarts)}, durations p50 "
          f"{middle(restarts):.2f} ms; the WAL's largest: "
          f"{max((s[3]['wal'] for s in commits), default=0)} pages")  # fmt: skip
    # What the writer's commits waited for: a checkpoint in a commit (SQLite's default)
    # or the checkpointer's step under the commits' lock.
    held = [s for s in cps if s[3]["thread"] != "skald-snapshots"]
    under = sorted(1000 * (s[2] - s[1]) for s in bg if s[3]["locked"])
    print(f"the commits' lock held by checkpoints: in commits {len(cps)}, "
          f"{sum(1000 * (s[2] - s[1]) for s in cps):.1f} ms in all (the writer's "
          f"{len(held)}); the checkpointer's step under it {len(under)}, "
          f"{sum(under):.1f} ms in all, p50 {under[len(under) // 2] if under else 0:.2f} ms, "
          f"max {under[-1] if under else 0:.1f} ms")  # fmt: skip
    if bg:
        d = sorted(1000 * (s[2] - s[1]) for s in bg if not s[3]["locked"])
        print(f"the checkpointer's passive ones: {len(d)}, p50 {d[len(d) // 2]:.2f} ms, max "
              f"{d[-1]:.1f} ms; pages {[s[3]['pages'] for s in bg][:20]}")  # fmt: skip
    plain = sorted(1000 * (s[2] - s[1]) for s in commits
                   if not s[3]["checkpoint"] and not s[3]["restart"])  # fmt: skip
    if plain:
        print(f"commits without a checkpoint: {len(plain)}, p50 {plain[len(plain) // 2]:.2f} ms, "
              f"p99 {plain[int(0.99 * (len(plain) - 1))]:.2f} ms, "
              f"max {plain[-1]:.1f} ms")  # fmt: skip
    puts = [s for s in commits if s[3]["thread"] == "skald-snapshots"]
    print("snapshot commits (ms, frames): "
          f"{[(round(1000 * (s[2] - s[1]), 1), s[3]['frames']) for s in puts]}")  # fmt: skip
    for kind in ("gc0", "gc1", "gc2", "freeze", "snap_take", "snap_put", "hand"):
        d = sorted(1000 * (s[2] - s[1]) for s in by_kind.get(kind, []))
        cpu = sorted(1000 * s[3].get("cpu", 0) for s in by_kind.get(kind, []))
        threads = Counter(s[3].get("thread", "") for s in by_kind.get(kind, []))
        if d:
            print(f"{kind}: {len(d)}, p50 {d[len(d) // 2]:.2f} ms (CPU {cpu[len(d) // 2]:.2f}),"
                  f" max {d[-1]:.1f} ms (CPU {cpu[-1]:.1f}); {dict(threads)}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--slow", type=float, default=0.99)
    parser.add_argument(
        "--old-drive",
        action="store_true",
        help="bench/long_fight.py's drive before this lane: each answer a copy"
        " of the encounter, every one kept until the round's end",
    )
    args = parser.parse_args()
    if os.environ.get("TAIL_YIELD_EVERY"):  # the snapshot thread's hand-off of the GIL
        snapshotting.YIELD_EVERY = int(os.environ["TAIL_YIELD_EVERY"])
    OLD_DRIVE[0] = args.old_drive
    gc.callbacks.append(on_gc)
    stop = threading.Event()
    canary = threading.Thread(target=in_process_canary, args=(stop,), name="canary", daemon=True)
    outside = subprocess.Popen([sys.executable, "-c", CANARY, str(10 * 60)],
                               stdout=subprocess.PIPE, text=True)  # fmt: skip
    canary.start()
    sampler = threading.Thread(target=sample_long_batches, args=(stop,), daemon=True)
    sampler.start()
    try:
        load = os.getloadavg()[0]
        found = lf.beside(args.actions, args.seconds)
    finally:
        stop.set()
        outside.terminate()
        out, _ = outside.communicate()
    for line in out.split("\n"):
        if line.strip():
            at, late = map(float, line.split())
            span("canary_out", at, at + late)
    print(f"p99 with {1000 * found['with_p99']:.1f} / without {1000 * found['without_p99']:.1f}"
          f" ms = {found['with_p99'] / found['without_p99']:.2f}x; load "
          f"{load:.1f} -> {os.getloadavg()[0]:.1f}")  # fmt: skip
    report(args.slow)
    dump = os.environ.get("TAIL_DUMP")
    if dump:  # every span, for a look of one's own
        import json

        with open(dump, "w") as f:
            json.dump({"spans": SPANS, "commands": COMMANDS, "stacks": STACKS}, f, default=str)


if __name__ == "__main__":
    main()
