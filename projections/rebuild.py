"""Rebuild the views from the event store, then switch over.

All views: a new generation is filled from the first event to the last, then the
pointer moves to it in one step and the old generation is deleted. Readers see
the old views until the switch and the new ones after; a running projection
runner notices the switch at its next commit and carries on from the new
generation's positions.

One campaign: its views are built under a scratch root up to exactly the live
views' position, then swapped in by one script that checks that position has
not moved (else it catches up and tries again) and bumps the epoch, so a running
runner drops what it had cached.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from uuid import UUID, uuid4

import redis
from eventsourcing.persistence import ApplicationRecorder, Mapper, Notification, Tracking
from eventsourcing.utils import resolve_topic
from redis.commands.core import Script

from skald_campaign.domain.events import EncounterStarted
from skald_campaign.projections.decoding import EventDecoder
from skald_campaign.projections.engine import PROJECTIONS, Decoded, Halt, ProjectionEngine
from skald_campaign.projections.keys import Generations, ViewKeys, delete_root
from skald_campaign.projections.leases import (
    LEASE_SECONDS,
    Lease,
    Swept,
    abandoned,
    signals_held,
    sweep_orphans,
)
from skald_campaign.projections.narrow import redis_text
from skald_campaign.projections.staging import CACHE_LIMIT, loads
from skald_campaign.projections.store_reading import NotificationReader
from skald_campaign.projections.views import VitalsMeta, stored

Progress = Callable[[int, int], None]  # (events read so far, events to read)

_SWAP = """
-- KEYS: pointer, epoch, tracking keys (n), live keys to clear (d), scratch/live pairs (s),
--       the scratch root's lease
-- ARGV: generation, application, position, n, d, s, the lease's token
local n, d, s = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'generation' end
if redis.call('HGET', KEYS[#KEYS], 'token') ~= ARGV[7] then return 'lease' end
for i = 1, n do
  if redis.call('HGET', KEYS[2 + i], ARGV[2]) ~= ARGV[3] then return 'moved' end
end
for i = 1, d do redis.call('DEL', KEYS[2 + n + i]) end
for i = 1, s do
  local from, to = KEYS[2 + n + d + 2 * i - 1], KEYS[2 + n + d + 2 * i]
  if redis.call('EXISTS', from) == 1 then redis.call('RENAME', from, to) end
end
redis.call('INCR', KEYS[2])
return 'ok'
"""

# Move the pointer only if it still names the generation the rebuild started from, and
# only while the rebuild still holds its lease (projections/leases.py: a rebuild whose
# lease lapsed may have had its generation swept meanwhile). Once current, the pointer
# protects the generation: the lease goes.
# KEYS: pointer, lease; ARGV: old generation ('' if none), new generation, lease token.
_SWITCH = """
if redis.call('HGET', KEYS[2], 'token') ~= ARGV[3] then return 'lease' end
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 'generation' end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2])
return 'ok'
"""

LEASE_LOST = (
    "the views were not rebuilt: this rebuild stopped renewing its claim on the views it "
    "was building for over {seconds:.0f} s, and another rebuild swept them as left by a "
    "rebuild that died; run it again"
)


@contextmanager
def paused_garbage_collector() -> Iterator[None]:
    """A rebuild decodes every event and keeps the growing views in memory: the cyclic
    collector would walk those views again and again (about a tenth of a rebuild's
    time, measured) to find nothing, since decoded events hold no cycles and are freed
    by reference counting. Paused for the rebuild only."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class RebuildError(RuntimeError):
    pass


def halted_rebuild(engine: ProjectionEngine) -> RebuildError:
    """A rebuild that met an event a view cannot apply: the views stay as they were."""
    return rebuild_halted(engine.halted.values())


def rebuild_halted(halts: Iterable[Halt]) -> RebuildError:
    """The same, from the halts of one engine or of several (a partitioned rebuild)."""
    halts = list(halts)
    halt = min(halts, key=lambda h: h.position)
    views = ", ".join(sorted({h.view for h in halts}))
    return RebuildError(
        f"the views were not rebuilt: event {halt.position} ({halt.type} of aggregate "
        f"{halt.aggregate}) cannot be applied by the {views} view(s): {halt.why}; this "
        "Skald cannot read that event: run a Skald that can (the one that wrote it, or a "
        "newer one), or restore the store from an export made before it"
    )


@dataclass(frozen=True)
class RebuildReport:
    generation: str
    events: int
    seconds: float
    swept: tuple[Swept, ...] = ()  # the views left by rebuilds that died, deleted first

    @property
    def rate(self) -> float:
        return self.events / self.seconds if self.seconds > 0 else 0.0


class Rebuilder:
    def __init__(
        self,
        client: redis.Redis,
        recorder: ApplicationRecorder,
        mapper: Mapper[UUID],
        application_name: str,
        prefix: str,
        batch: int = 2000,
        cache_limit: int = CACHE_LIMIT,
    ) -> None:
        self.client = client
        self.recorder = recorder
        self.reader = NotificationReader(recorder)
        self.mapper = mapper
        self.application_name = application_name
        self.generations = Generations(prefix)
        self.prefix = prefix
        self.batch = batch
        self.cache_limit = cache_limit  # bounds the memory a rebuild of a huge store takes

    def fill(
        self, engine: ProjectionEngine, position: int, target: int, progress: Progress | None
    ) -> tuple[int, int]:
        """Apply every notification after ``position`` up to ``target``; (position, count)."""
        with paused_garbage_collector():
            return self.fill_batches(engine, position, target, progress)

    def fill_batches(
        self, engine: ProjectionEngine, position: int, target: int, progress: Progress | None
    ) -> tuple[int, int]:
        count = 0
        while position < target:
            notifications = self.reader.after(position, self.batch, target)
            if not notifications:
                break
            if not engine.apply(notifications):
                raise RebuildError("another process wrote into the views being rebuilt")
            position = notifications[-1].id
            count += len(notifications)
            if progress:
                progress(position, target)
        return position, count

    def sweep(self) -> tuple[Swept, ...]:
        """Delete what rebuilds that died left (projections/leases.py)."""
        return tuple(sweep_orphans(self.client, self.prefix))

    def claim(self, name: str) -> Lease:
        """This rebuild's lease on the root it is about to write."""
        return Lease.take(self.client, self.prefix, name)

    @staticmethod
    def keeping(lease: Lease, progress: Progress | None) -> Progress:
        """``progress``, renewing the lease as the batches go by (and stopping the
        rebuild if it was lost)."""

        def advance(done: int, total: int) -> None:
            if not lease.keep():
                raise RebuildError(LEASE_LOST.format(seconds=LEASE_SECONDS))
            if progress:
                progress(done, total)

        return advance

    def switch(self, old: str | None, new: str, lease: Lease) -> None:
        """Make ``new`` current, or raise (the caller deletes it)."""
        switch = self.client.register_script(_SWITCH)
        outcome = redis_text(
            switch(keys=[self.generations.pointer, lease.key], args=[old or "", new, lease.token])
        )
        if outcome == "lease":
            raise RebuildError(LEASE_LOST.format(seconds=LEASE_SECONDS))
        if outcome != "ok":
            raise RebuildError("another rebuild switched generations meanwhile; run it again")
        lease.became_current = True  # the pointer holds it now, never to be abandoned

    def finish(self, old: str | None, new: str, lease: Lease) -> None:
        """Switch to ``new`` and delete ``old``, SIGINT and SIGTERM held throughout, so that
        a rebuild either completes or leaves the views as they were: a Ctrl-C during the
        old generation's deletion would otherwise report a rebuild that did happen as one
        that did not. If the process is killed meanwhile, what is left of the old
        generation is swept by the next rebuild. Raises (and has switched nothing) only if
        the switch is refused."""
        with signals_held(f"switching to the views {new} and deleting the old ones"):
            self.switch(old, new, lease)
            if old is not None:
                delete_root(self.client, self.generations.root(old))

    def rebuild_all(self, progress: Progress | None = None) -> RebuildReport:
        """A new generation, filled and switched to. If anything stops it (an error, a
        Ctrl-C, SIGTERM raised as an exception), the new generation is deleted before the
        error goes on, and the current one stays as it was."""
        started = time.perf_counter()
        swept = self.sweep()
        old = self.generations.current(self.client)
        new = self.generations.new(self.client)
        root = self.generations.root(new)
        lease = self.claim(new)
        engine = ProjectionEngine(
            self.client,
            self.mapper,
            self.application_name,
            root=root,
            defer_streams=True,
            overlap_commits=True,
            cache_limit=self.cache_limit,
            fresh=True,
            bulk_apart=True,
        )
        try:
            engine.sync()
            target = self.recorder.max_notification_id() or 0
            _, count = self.fill(engine, 0, target, self.keeping(lease, progress))
            if not engine.flush():
                raise RebuildError("another process wrote into the views being rebuilt")
            engine.close()
            if engine.halted:
                raise halted_rebuild(engine)
            self.finish(old, new, lease)
        except BaseException:
            # The commit in flight lands first (close waits for it), then the deletion;
            # nothing, if the switch was made (a signal held meanwhile, raised now).
            abandoned(self.client, root, lease, before=engine.close)
            raise
        return RebuildReport(new, count, time.perf_counter() - started, swept)

    def rebuild_campaign(
        self, campaign_id: UUID, progress: Progress | None = None, attempts: int = 50
    ) -> RebuildReport:
        started = time.perf_counter()
        generation = self.generations.current(self.client)
        if generation is None:
            return self.rebuild_all(progress)  # no views at all: nothing to swap into
        swept = self.sweep()
        live = ViewKeys(self.generations.root(generation))
        name = f"rebuild-{uuid4().hex[:12]}"
        scratch = ViewKeys(self.generations.root(name))
        lease = self.claim(name)
        selector = CampaignSelector(campaign_id, self.mapper, self.application_name)
        engine = ProjectionEngine(
            self.client,
            self.mapper,
            self.application_name,
            root=scratch.root,
            select=selector,
            defer_streams=True,
            cache_limit=self.cache_limit,
        )
        swap = self.client.register_script(_SWAP)
        position = count = 0
        advance = self.keeping(lease, progress)
        try:
            engine.sync()
            for _ in range(attempts):
                target = self._live_position(live)
                if target is None:
                    break  # the views are incomplete: redo them all (below)
                position, read = self.fill(engine, position, target, advance)
                count += read
                if engine.halted:
                    raise halted_rebuild(engine)
                if not engine.flush():
                    raise RebuildError("another process wrote into the views being rebuilt")
                with signals_held(f"swapping campaign {campaign_id}'s views in"):
                    outcome = self._swap(
                        swap, generation, live, scratch, campaign_id, selector, target, lease
                    )
                if outcome == "ok":
                    return RebuildReport(generation, count, time.perf_counter() - started, swept)
                if outcome == "generation":
                    raise RebuildError("the views switched generation meanwhile; run it again")
                if outcome == "lease":
                    raise RebuildError(LEASE_LOST.format(seconds=LEASE_SECONDS))
            else:
                raise RebuildError(
                    "the live views kept moving; stop the projection runner, or rebuild everything"
                )
        finally:
            # What is left of the scratch root (all of it, if this failed); the engine
            # writes synchronously, so nothing lands after.
            abandoned(self.client, scratch.root, lease, before=engine.close)
        report = self.rebuild_all(progress)
        return RebuildReport(report.generation, report.events, report.seconds, swept + report.swept)

    def _live_position(self, live: ViewKeys) -> int | None:
        positions = [
            redis_text(self.client.hget(live.tracking(p.name), self.application_name))
            for p in PROJECTIONS
        ]
        first = positions[0]
        if first is None or any(p != first for p in positions):
            return None
        return int(first)

    def _swap(
        self,
        swap: Script,
        generation: str,
        live: ViewKeys,
        scratch: ViewKeys,
        campaign_id: UUID,
        selector: CampaignSelector,
        position: int,
        lease: Lease,
    ) -> str:
        meta = loads(self.client.get(live.vitals_meta(str(campaign_id))))
        live_encounters = set()
        if meta is not None:
            live_encounters = {e["id"] for e in stored(VitalsMeta, meta)["encounters"]}
        encounters = sorted(live_encounters | selector.encounter_ids)
        to_clear = live.campaign_keys(str(campaign_id), encounters)
        pairs = [(f"{scratch.root}:{live.suffix(key)}", key) for key in to_clear]
        tracking = [live.tracking(p.name) for p in PROJECTIONS]
        keys = [self.generations.pointer, live.epoch, *tracking, *to_clear]
        for from_key, to_key in pairs:
            keys += [from_key, to_key]
        keys.append(lease.key)
        args: list[str | int] = [generation, self.application_name, position]
        args += [len(tracking), len(to_clear), len(pairs), lease.token]
        outcome: object = swap(keys=keys, args=args)
        return outcome.decode() if isinstance(outcome, bytes) else str(outcome)


class CampaignSelector:
    """Decode only one campaign's events: the campaign's own, and those of every
    encounter it started (learnt from Encounter.Started as the log goes by)."""

    def __init__(self, campaign_id: UUID, mapper: Mapper[UUID], application_name: str) -> None:
        self.campaign_id = campaign_id
        self.ids: set[UUID | str] = {campaign_id}
        self.mapper = mapper
        self.decode = EventDecoder(mapper)
        self.application_name = application_name

    @property
    def encounter_ids(self) -> set[str]:
        return {str(i) for i in self.ids if i != self.campaign_id}

    def __call__(self, notifications: Sequence[Notification]) -> Iterable[Decoded]:
        selected: list[Decoded] = []
        for notification in notifications:
            if notification.originator_id in self.ids:
                event = self.decode(notification)
            elif resolve_topic(notification.topic) is EncounterStarted:  # cached by the library
                event = self.decode(notification)
                if getattr(event, "campaign_id", None) != self.campaign_id:
                    continue
                self.ids.add(notification.originator_id)
            else:
                continue
            selected.append((event, Tracking(self.application_name, notification.id)))
        return selected
