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
from skald_campaign.projections.narrow import redis_text
from skald_campaign.projections.staging import CACHE_LIMIT, loads
from skald_campaign.projections.store_reading import NotificationReader
from skald_campaign.projections.views import VitalsMeta, stored

Progress = Callable[[int, int], None]  # (events read so far, events to read)

_SWAP = """
-- KEYS: pointer, epoch, tracking keys (n), live keys to clear (d), scratch/live pairs (s)
-- ARGV: generation, application, position, n, d, s
local n, d, s = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'generation' end
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

# Move the pointer only if it still names the generation the rebuild started from.
_SWITCH = """
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
"""


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

    def rebuild_all(self, progress: Progress | None = None) -> RebuildReport:
        started = time.perf_counter()
        old = self.generations.current(self.client)
        new = self.generations.new(self.client)
        root = self.generations.root(new)
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
            _, count = self.fill(engine, 0, self.recorder.max_notification_id() or 0, progress)
            if not engine.flush():
                raise RebuildError("another process wrote into the views being rebuilt")
        finally:
            engine.close()
        if engine.halted:
            delete_root(self.client, root)
            raise halted_rebuild(engine)
        switch = self.client.register_script(_SWITCH)
        if not switch(keys=[self.generations.pointer], args=[old or "", new]):
            delete_root(self.client, root)
            raise RebuildError("another rebuild switched generations meanwhile; run it again")
        if old is not None:
            delete_root(self.client, self.generations.root(old))
        return RebuildReport(new, count, time.perf_counter() - started)

    def rebuild_campaign(
        self, campaign_id: UUID, progress: Progress | None = None, attempts: int = 50
    ) -> RebuildReport:
        started = time.perf_counter()
        generation = self.generations.current(self.client)
        if generation is None:
            return self.rebuild_all(progress)  # no views at all: nothing to swap into
        live = ViewKeys(self.generations.root(generation))
        scratch = ViewKeys(f"{self.prefix}:views:rebuild-{uuid4().hex[:12]}")
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
        engine.sync()
        swap = self.client.register_script(_SWAP)
        position = count = 0
        try:
            for _ in range(attempts):
                target = self._live_position(live)
                if target is None:
                    return self.rebuild_all(progress)  # the views are incomplete: redo them all
                position, read = self.fill(engine, position, target, progress)
                count += read
                if engine.halted:
                    raise halted_rebuild(engine)
                if not engine.flush():
                    raise RebuildError("another process wrote into the views being rebuilt")
                outcome = self._swap(swap, generation, live, scratch, campaign_id, selector, target)
                if outcome == "ok":
                    return RebuildReport(generation, count, time.perf_counter() - started)
                if outcome == "generation":
                    raise RebuildError("the views switched generation meanwhile; run it again")
            raise RebuildError(
                "the live views kept moving; stop the projection runner, or rebuild everything"
            )
        finally:
            delete_root(self.client, scratch.root)

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
        args: list[str | int] = [generation, self.application_name, position]
        args += [len(tracking), len(to_clear), len(pairs)]
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
