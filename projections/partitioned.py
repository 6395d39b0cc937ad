"""A full rebuild partitioned by campaign over processes.

Every view key belongs to one campaign or to one of its encounters (projections/keys.py),
so the campaigns can be projected apart: each process reads the whole log, decodes and
projects only the events of the campaigns that fall to it (a campaign's encounters go
with it, learnt from Encounter.Started as the log goes by; any other event, which the
views ignore or cannot read, to the first process) and writes their keys straight into
the new generation. A process keeps its own tracking position (a field of its own in
the tracking hashes), so the commits' guards never meet; once every process has reached
the end, the positions become the application's, as a serial rebuild leaves them, and
the pointer moves as `Rebuilder.rebuild_all` moves it. If any process fails or meets an
event a view cannot apply, the new generation is deleted and the views stay as they were.

The processes are forked: each opens its own store connection and Redis connection
(``Opener``) rather than share the parent's.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.sharedctypes import Synchronized
from uuid import UUID

import redis
from eventsourcing.persistence import ApplicationRecorder, Mapper, Notification, Tracking
from eventsourcing.utils import resolve_topic

from skald_campaign.domain.events import CAMPAIGN_EVENTS, EncounterStarted
from skald_campaign.projections.decoding import EventDecoder
from skald_campaign.projections.engine import PROJECTIONS, Decoded, Halt, ProjectionEngine
from skald_campaign.projections.keys import ViewKeys
from skald_campaign.projections.leases import LEASE_SECONDS, abandoned
from skald_campaign.projections.rebuild import (
    LEASE_LOST,
    Progress,
    Rebuilder,
    RebuildError,
    RebuildReport,
    paused_garbage_collector,
    rebuild_halted,
)

Opened = tuple[ApplicationRecorder, Mapper[UUID], redis.Redis]
Opener = Callable[[], AbstractContextManager[Opened]]
_CAMPAIGN_CLASSES = frozenset(CAMPAIGN_EVENTS)
PART_PATIENCE = 30.0  # seconds a part stopping after its batch may take before it is killed


def own_client(client: redis.Redis) -> redis.Redis:
    """A client to the same Redis with a connection pool of its own (a forked process's)."""
    pool = client.connection_pool
    return redis.Redis(connection_pool=type(pool)(pool.connection_class, **pool.connection_kwargs))


class CampaignShare:
    """Select the events of the campaigns that fall to part ``index`` of ``parts``."""

    def __init__(self, index: int, parts: int, mapper: Mapper[UUID], tracking: str) -> None:
        self.index, self.parts = index, parts
        self.mapper = mapper
        self.decode = EventDecoder(mapper)
        self.tracking = tracking
        self.encounters: dict[UUID | str, UUID] = {}  # encounter id -> its campaign's id

    def owner(self, campaign_id: UUID) -> int:
        return campaign_id.int % self.parts

    def __call__(self, notifications: Sequence[Notification]) -> Iterable[Decoded]:
        for notification in notifications:
            originator = notification.originator_id
            kind = resolve_topic(notification.topic)  # cached by the library
            campaign = self.encounters.get(originator)
            if campaign is None and kind is EncounterStarted:
                event = self.decode(notification)
                campaign = getattr(event, "campaign_id", None)
                if not isinstance(campaign, UUID):
                    campaign = None  # no campaign's: the first part's, as below
                else:
                    self.encounters[originator] = campaign
                if (0 if campaign is None else self.owner(campaign)) == self.index:
                    yield event, Tracking(self.tracking, notification.id)
                continue
            if campaign is None and kind in _CAMPAIGN_CLASSES:
                campaign = originator if isinstance(originator, UUID) else UUID(originator)
            # Not a campaign's (the views ignore it, or cannot read it): the first part's.
            owner = 0 if campaign is None else self.owner(campaign)
            mine = owner == self.index
            if mine:
                yield (
                    self.decode(notification),
                    Tracking(self.tracking, notification.id),
                )


@dataclass(frozen=True)
class PartDone:
    events: int
    halts: tuple[Halt, ...]
    error: str | None = None


def part_name(application: str, index: int) -> str:
    return f"{application}#part{index}"


def _run_part(
    opener: Opener,
    rebuilder: Rebuilder,
    root: str,
    index: int,
    parts: int,
    target: int,
    reached: Synchronized[int],
    stop: Synchronized[int],
    answer: Connection[PartDone, object],
) -> None:
    """One process's share, reported on ``answer``.

    The parent stops it: a Ctrl-C reaches every process of the terminal's group, and a
    part that stopped on its own might still be sending a commit while the parent
    deletes the generation. So a part ignores SIGINT, and stops after its batch when the
    parent sets ``stop`` or is gone (killed: the part must not go on writing into a
    generation the next rebuild sweeps), its commit in flight landed first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    try:
        with opener() as (recorder, mapper, client):
            name = part_name(rebuilder.application_name, index)
            engine = ProjectionEngine(
                client,
                mapper,
                name,
                root=root,
                select=CampaignShare(index, parts, mapper, name),
                defer_streams=True,
                overlap_commits=True,
                cache_limit=rebuilder.cache_limit,
                fresh=True,
                bulk_apart=True,
            )
            own = Rebuilder(client, recorder, mapper, name, rebuilder.prefix, rebuilder.batch)

            def advance(done: int, _total: int) -> None:
                reached.value = done
                if stop.value or os.getppid() != parent:
                    raise RebuildError("stopped by the rebuild that started it")

            try:
                engine.sync()
                with paused_garbage_collector():
                    _, count = own.fill_batches(engine, 0, target, advance)
                if not engine.flush():
                    raise RebuildError("another process wrote into the views being rebuilt")
            finally:
                engine.close()
            answer.send(PartDone(count, tuple(engine.halted.values())))
    except BaseException as error:  # reported to the parent, which raises
        answer.send(PartDone(0, (), f"{type(error).__name__}: {error}"))
    finally:
        answer.close()


def rebuild_partitioned(
    rebuilder: Rebuilder, opener: Opener, parts: int, progress: Progress | None = None
) -> RebuildReport:
    """Every view rebuilt by ``parts`` processes, then switched over to at once."""
    started = time.perf_counter()
    client = rebuilder.client
    generations = rebuilder.generations
    target = rebuilder.recorder.max_notification_id() or 0
    if parts <= 1 or target == 0:
        return rebuilder.rebuild_all(progress)
    swept = rebuilder.sweep()
    old = generations.current(client)
    new = generations.new(client)
    root = generations.root(new)
    lease = rebuilder.claim(new)
    context = multiprocessing.get_context("fork")
    reached = [context.Value("q", 0) for _ in range(parts)]
    stop = context.Value("b", 0)
    pipes = [context.Pipe(duplex=False) for _ in range(parts)]
    processes = [
        context.Process(
            target=_run_part,
            args=(opener, rebuilder, root, n, parts, target, reached[n], stop, pipes[n][1]),
            name=f"rebuild part {n}",
        )
        for n in range(parts)
    ]

    def stop_parts() -> None:
        """Each part stops after its batch, its commit landed; one that does not within
        the patience is terminated (and whatever it had sent is swept next time)."""
        stop.value = 1
        deadline = time.monotonic() + PART_PATIENCE
        for process in processes:
            if process.pid is not None:
                process.join(max(0.0, deadline - time.monotonic()))
                if process.is_alive():
                    process.terminate()
                    process.join()

    done: list[PartDone] = []
    try:
        for process in processes:
            process.start()
        # The parts write under this lease: it is live while any of them runs.
        if not lease.keep([p.pid for p in processes if p.pid is not None]):
            raise RebuildError(LEASE_LOST.format(seconds=LEASE_SECONDS))
        for _, sending in pipes:
            sending.close()  # the children hold their ends: an EOF means one died
        for receiving, _ in pipes:
            while not receiving.poll(0.2):
                if not lease.keep():
                    raise RebuildError(LEASE_LOST.format(seconds=LEASE_SECONDS))
                if progress:
                    progress(min(r.value for r in reached), target)
            done.append(receiving.recv())
        for process in processes:
            process.join()
        failed = [d.error for d in done if d.error]
        halts = [h for d in done for h in d.halts]
        if failed:
            raise RebuildError(f"the views were not rebuilt: a part failed: {failed[0]}")
        if halts:
            raise rebuild_halted(halts)
        _adopt_positions(client, ViewKeys(root), rebuilder.application_name, parts, target)
        rebuilder.finish(old, new, lease)
    except BaseException:
        abandoned(client, root, lease, before=stop_parts)
        raise
    if progress:
        progress(target, target)
    return RebuildReport(new, done[0].events if done else 0, time.perf_counter() - started, swept)


def _adopt_positions(
    client: redis.Redis, keys: ViewKeys, application: str, parts: int, target: int
) -> None:
    """The parts' positions become the application's: every view at ``target``."""
    writes = client.pipeline(transaction=True)
    for projection in PROJECTIONS:
        key = keys.tracking(projection.name)
        writes.hset(key, application, target)
        writes.hdel(key, *(part_name(application, n) for n in range(parts)))
    writes.execute()
