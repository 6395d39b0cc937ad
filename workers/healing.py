"""The healing worker: follows the event store and heals every day the calendar advanced.

Exactly once comes from the aggregate, not from this loop: ``heal_through`` knows
the last day each character was healed for and never heals it again. The
position kept in Redis only saves re-reading; after a crash the worker re-reads
a few notifications and the campaign declines to heal them twice.

The position is the last notification the worker has looked through, day or not: each
poll asks the store for the DayAdvanced notifications between it and the store's newest
notification, and then moves it to that newest one. Before, it stayed at the last day
found, and every poll (ten a second) had the store look through every event recorded
since that day again: most of the store's reads on a long session without a day
(bench/README.md, issue 28). Notification ids are committed in order (one writer per
SQLite file; a table lock on PostgreSQL), so nothing at or below the newest is still to
come.
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from eventsourcing.utils import get_topic

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.commands import HealThrough
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.campaign.ruleset_versions import RulesetNotCurrent
from skald_campaign.projections.narrow import redis_text
from skald_campaign.workers.retries import log_failure

log = logging.getLogger("skald.workers.healing")
DAY_ADVANCED = get_topic(Campaign.DayAdvanced)


class HealingWorker:
    def __init__(
        self,
        application: SkaldApplication,
        client: redis.Redis,
        *,
        prefix: str = "skald",
        batch: int = 100,
        poll_interval: float = 0.1,
        save_interval: float = 1.0,
    ) -> None:
        self.position_key = f"{prefix}:workers:healing:position"
        self.application = application
        self.redis = client
        self.batch = batch
        self.poll_interval = poll_interval
        self.save_interval = save_interval
        self.healed = 0
        self._position: int | None = None  # as last read or written; None: read Redis
        self._saved_at = -save_interval  # when the position was last written

    def position(self, newest: int | None = None) -> int:
        if self._position is None:
            value = redis_text(self.redis.get(self.position_key))
            self._position = int(value) if value is not None else 0
            self._saved_at = time.monotonic()
        position = self._position
        if newest is None:
            newest = self.newest()
        if position > newest:
            # A position past the end belongs to another store (a reset data dir, a
            # shared Redis); starting over is safe because healing is idempotent.
            log.warning(
                "healing position %d is past the store's end %d; rereading", position, newest
            )
            return 0
        return position

    def newest(self) -> int:
        return self.application.recorder.max_notification_id() or 0

    def run_once(self) -> int:
        """Handle the next batch of DayAdvanced notifications; return how many there were."""
        newest = self.newest()
        start = self.position(newest) + 1
        if start > newest:
            return 0  # nothing recorded since the last look: no query at all
        notifications = self.application.recorder.select_notifications(
            start=start, limit=self.batch, stop=newest, topics=[DAY_ADVANCED]
        )
        for notification in notifications:
            day_advanced = self.application.mapper.to_domain_event(notification)
            if not isinstance(day_advanced, Campaign.DayAdvanced):
                raise TypeError(f"notification {notification.id} is not a DayAdvanced event")
            try:
                self.healed += self.application.heal_through(
                    HealThrough(day_advanced.originator_id, day_advanced.day)
                )
            except RulesetNotCurrent as held:
                # Read-only until its GM accepts the installed ruleset's version (or it is
                # installed again): the acceptance heals what the day owes; the other
                # campaigns' days go on (docs/rulesets.md, "Versions").
                log.warning("day %d not healed: %s", day_advanced.day, held.message)
            self._move(notification.id, save=True)
        if len(notifications) < self.batch:  # every day up to the newest is handled
            self._move(newest, save=bool(notifications))
        return len(notifications)

    def _move(self, position: int, *, save: bool) -> None:
        """The position moves in memory at once; it is written to Redis after a day was
        handled, else at most once per ``save_interval``: a poll that found no day wrote
        it every time (a round trip ten times a second under load, bench/README.md's
        route40 lane). A crash rereads at most that long's notifications for days, and
        the campaign heals none twice."""
        self._position = position
        now = time.monotonic()
        if save or now - self._saved_at >= self.save_interval:
            self.redis.set(self.position_key, position)
            self._saved_at = now

    def run(self, stop: threading.Event) -> None:
        log.info("healing worker started at notification %d", self.position())
        failing = False
        while not stop.is_set():
            try:
                handled = self.run_once()
            except Exception as error:
                # A store or Redis hiccup must not end the worker; it resumes from its position.
                log_failure(log, failing, "healing worker failed a batch", error, 1.0)
                failing = True
                stop.wait(1.0)
                continue
            failing = False
            if not handled:
                stop.wait(self.poll_interval)
