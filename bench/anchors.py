"""The bare eventsourcing library's own loops, the anchors of bench/http.py: W1 (one
new event per transaction) and W4 (cached get + event + save), on the same store kind."""

from __future__ import annotations

import threading
import time
from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event


class Counter(Aggregate):
    """The bare library's aggregate (defined once: the library registers its topic)."""

    @event("Created")
    def __init__(self) -> None:
        self.count = 0

    @event("Hit")
    def hit(self, amount: int) -> None:
        self.count += amount


class Bare(Application[Any]):
    pass


def library_loops(seconds: float, threads: int, env: dict[str, str]) -> dict[str, float]:
    """W1 and W4 with the bare eventsourcing library on the same store kind: each one's
    rate (``W1``, ``W4``) and its CPU per operation in ms (``W1_cpu_ms``, ``W4_cpu_ms``:
    this process's user + system time over the loop, every thread's, the store's work
    included, as the server's CPU per command counts its whole process tree)."""
    from eventsourcing.persistence import IntegrityError

    figures: dict[str, float] = {}
    for name, cached in (("W1", False), ("W4", True)):
        app = Bare(env={**env, "AGGREGATE_CACHE_MAXSIZE": "1000" if cached else "0"})
        ids = []
        for _ in range(threads):
            counter = Counter()
            app.save(counter)
            ids.append(counter.id)
        done = [0] * threads
        stop = time.monotonic() + seconds

        def run(
            i: int,
            app: Bare = app,
            cached: bool = cached,
            ids: list[Any] = ids,
            done: list[int] = done,
            stop: float = stop,
        ) -> None:
            while time.monotonic() < stop:
                if cached:
                    try:
                        counter = app.repository.get(ids[i])
                        counter.hit(1)
                        app.save(counter)
                    except IntegrityError:
                        continue
                else:
                    app.save(Counter())
                done[i] += 1

        started, used = time.monotonic(), time.process_time()
        workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        figures[name] = sum(done) / (time.monotonic() - started)
        figures[f"{name}_cpu_ms"] = 1000 * (time.process_time() - used) / max(sum(done), 1)
        app.close()
    return figures
