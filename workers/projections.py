"""The projection runner and its supervisor.

The runner follows the event store through a batching subscription and hands
each batch to the projection engine. When the views moved under it (a rebuild
switched generations, another runner got there first, Redis was flushed) it
syncs and subscribes again from the views' own positions. When anything breaks
(PostgreSQL killed the LISTEN connection, Redis went away) it raises, and the
supervisor starts a fresh runner after a pause that grows while failures repeat.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from uuid import UUID

import redis
from eventsourcing.application import Application

from skald_campaign.projections.engine import ProjectionEngine
from skald_campaign.workers.retries import log_failure
from skald_campaign.workers.subscriptions import BATCH_LIMIT, subscribe_in_batches

log = logging.getLogger("skald.workers.projections")
WAKE_INTERVAL = 0.5  # how often an idle runner looks at its stop flag
# After applying a batch the runner lets the next one gather this long. Each batch costs
# a round trip and one script call in Redis whatever its size; under steady commands a
# runner that took every event as it came applied batches of ~8 (a fixed ~1 ms of CPU
# each: 0.11 ms of the runner's and 0.036 ms of Redis's per command, bench/README.md).
# An event after a quiet spell is applied at once: only a busy runner waits.
GATHER_SECONDS = 0.005


class ProjectionRunner:
    def __init__(
        self,
        application: Application[UUID],
        client: redis.Redis,
        prefix: str,
        batch_limit: int = BATCH_LIMIT,
    ) -> None:
        self.recorder = application.recorder
        self.engine = ProjectionEngine(
            client, application.mapper, application.name, prefix=prefix, keep_feed=True
        )
        self.batch_limit = batch_limit

    def run(self, stop: threading.Event) -> None:
        """Keep the views current until ``stop`` is set; raise whatever breaks."""
        while not stop.is_set():
            start = self.engine.sync(store_max=self.recorder.max_notification_id() or 0)
            log.info("projection runner following the store after notification %d", start)
            subscription = subscribe_in_batches(self.recorder, gt=start, limit=self.batch_limit)
            with subscription:
                while not stop.is_set():
                    batch = subscription.next_batch(timeout=WAKE_INTERVAL)
                    if not batch:
                        continue
                    if not self.engine.apply(batch):
                        break  # the views moved: sync and subscribe again
                    stop.wait(GATHER_SECONDS)


class Supervisor:
    """Run a worker until stopped; restart it, with a growing pause, whenever it fails."""

    def __init__(
        self,
        name: str,
        make_worker: Callable[[], ProjectionRunner],
        first_pause: float = 0.1,
        longest_pause: float = 5.0,
        healthy_after: float = 30.0,
    ) -> None:
        self.name = name
        self.make_worker = make_worker
        self.first_pause = first_pause
        self.longest_pause = longest_pause
        self.healthy_after = healthy_after
        self.restarts = 0
        self.worker: ProjectionRunner | None = None

    def run(self, stop: threading.Event) -> None:
        pause = self.first_pause
        failing = False  # in a run of failures: one traceback, then one line per retry
        while not stop.is_set():
            started = time.monotonic()
            try:
                self.worker = self.make_worker()
                self.worker.run(stop)
            except Exception as error:
                if time.monotonic() - started > self.healthy_after:
                    failing = False  # it had been running fine: a new failure, not a loop
                    pause = self.first_pause
                log_failure(log, failing, f"{self.name} failed", error, pause)
                failing = True
            else:
                continue  # a clean return only happens when stopping
            self.restarts += 1
            stop.wait(pause)
            pause = min(pause * 2, self.longest_pause)
