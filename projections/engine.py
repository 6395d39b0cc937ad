"""The projection engine: decode a batch of notifications, let every projection
stage its changes, and commit them with every tracking position in one script.

The commit is guarded: it lands only if the generation, the epoch and every
position are still what this engine read at ``sync``. Anyone else who wrote the
views meanwhile (another runner, a rebuild's switch-over, a FLUSHALL) makes it a
conflict; the caller then syncs again and carries on from the new positions, so
an event is neither applied twice nor skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from uuid import UUID

import orjson
import redis
from eventsourcing.persistence import Mapper, Notification, Tracking

from skald_campaign.domain.records import JSONObject
from skald_campaign.projections.audit import AuditProjection
from skald_campaign.projections.base import ProjectionView, ViewProjection
from skald_campaign.projections.board import BoardProjection
from skald_campaign.projections.decoding import EventDecoder
from skald_campaign.projections.feed_entries import KEPT, server_of
from skald_campaign.projections.keys import Generations, ViewKeys, delete_root
from skald_campaign.projections.log import LogProjection
from skald_campaign.projections.narrow import integer, json_object, redis_text
from skald_campaign.projections.staging import CACHE_LIMIT, Guard, StagedViews, loads
from skald_campaign.projections.vitals import VitalsProjection

log = logging.getLogger("skald.projections")
PROJECTIONS: tuple[type[ViewProjection], ...] = (
    VitalsProjection,
    BoardProjection,
    AuditProjection,
    LogProjection,
)
Decoded = tuple[object, Tracking]  # a decoded domain event and where it stands
Selector = Callable[[Sequence[Notification]], Iterable[Decoded]]


@dataclass(frozen=True)
class Halt:
    """A view stopped at an event it cannot apply: it stays just before it (every view
    after it would be wrong), and the others go on."""

    view: str
    position: int
    type: str
    aggregate: str
    why: str

    def line(self) -> str:
        return (
            f"the {self.view} view stopped at event {self.position} ({self.type} of "
            f"aggregate {self.aggregate}), which it cannot apply: {self.why}; the other "
            "views go on; run a Skald that can read it, then `skald projections rebuild`"
        )


class CannotApply(Exception):
    def __init__(self, halt: Halt) -> None:
        super().__init__(halt.line())
        self.halt = halt


def halted_key(root: str) -> str:
    return f"{root}:halted"


def halts_of(client: redis.Redis, root: str, positions: dict[str, int]) -> list[JSONObject]:
    """The views of a root stopped at an event, and still there (not past it since)."""
    raw: object = client.hgetall(halted_key(root))
    if not isinstance(raw, dict):
        raise TypeError(f"Redis answered {type(raw).__name__}, not a hash")
    found: list[JSONObject] = []
    for view, value in sorted(raw.items()):
        halt = json_object(loads(value))  # the record _halt wrote
        if positions.get(view.decode(), 0) < integer(halt["position"]):
            found.append(halt)
    return found


def why(error: Exception) -> str:
    message = " ".join(str(error).split())
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


class ProjectionEngine:
    def __init__(
        self,
        client: redis.Redis,
        mapper: Mapper[UUID],
        application_name: str,
        *,
        prefix: str | None = None,
        root: str | None = None,
        select: Selector | None = None,
        defer_streams: bool = False,
        overlap_commits: bool = False,
        cache_limit: int = CACHE_LIMIT,
        fresh: bool = False,
        keep_feed: bool = False,
        bulk_apart: bool = False,
    ) -> None:
        if (prefix is None) == (root is None):
            raise ValueError("give a prefix (follow the current generation) or a fixed root")
        self.client = client
        self.mapper = mapper
        self.application_name = application_name
        self.generations = Generations(prefix) if prefix is not None else None
        self.fixed_root = root
        self.decode = EventDecoder(mapper)
        self.select = select or self.decode_all
        self.selects = select is not None  # a campaign's or a part's share, not every event
        self.staged = StagedViews(client, cache_limit, defer_streams, fresh, bulk_apart)
        self.keys: ViewKeys | None = None
        self.projections: list[ViewProjection] = []
        self.guard: Guard | None = None
        self.conflicts = 0
        self.applied = 0
        # Views stopped at an event they cannot apply, by view name: tried again by the
        # next engine (a restart, an upgrade), never again by this one.
        self.halted: dict[str, Halt] = {}
        # A rebuild, sole writer of its generation, sends each batch's commit on a
        # thread and projects the next batch meanwhile (Redis works, the socket
        # waits, and the interpreter is free for the next batch).
        self._committer = ThreadPoolExecutor(1, "commit") if overlap_commits else None
        self._in_flight: Future[str] | None = None
        # A runner keeps the feed entries it commits for this process's feed readers
        # while any is open (projections/feed_entries.py); a rebuild's are read by none.
        self.keeps_feed = keep_feed and not defer_streams and not overlap_commits
        self.server = server_of(client.connection_pool.connection_kwargs)

    def decode_all(self, notifications: Sequence[Notification]) -> Iterable[Decoded]:
        # One at a time: a whole batch of decoded events alive at once makes the
        # garbage collector walk them again and again.
        name, decode = self.application_name, self.decode
        return ((decode(n), Tracking(name, n.id)) for n in notifications)

    def sync(self, store_max: int | None = None) -> int:
        """Read where the views stand; return the notification id to continue after."""
        generation, root = self._resolve_root()
        keys = ViewKeys(root)
        epoch_raw: object = self.client.get(keys.epoch)
        epoch = redis_text(epoch_raw) or ""
        if self.guard is None or (self.guard.generation, self.guard.epoch) != (generation, epoch):
            self.staged.forget()
        if self.keys is None or self.keys.root != root:
            self.keys = keys
            self.projections = [
                cls(view=ProjectionView(self.client, keys, self.staged, cls.name))
                for cls in PROJECTIONS
            ]
        positions = [p.view.max_tracking_id(self.application_name) for p in self.projections]
        if store_max is not None and max((p or 0 for p in positions), default=0) > store_max:
            return self._start_afresh(positions, store_max)
        self.guard = Guard(
            pointer=self.generations.pointer if self.generations else None,
            generation=generation,
            epoch_key=keys.epoch,
            epoch=epoch,
            application=self.application_name,
            tracking_keys=[p.view.key for p in self.projections],
            positions=positions,
        )
        return min((p or 0 for p in positions), default=0)

    def _resolve_root(self) -> tuple[str, str]:
        if self.generations is None:
            assert self.fixed_root is not None
            return "", self.fixed_root
        generation = self.generations.ensure(self.client)
        return generation, self.generations.root(generation)

    def _start_afresh(self, positions: list[int | None], store_max: int) -> int:
        # Views ahead of the store belong to another store (a reset data dir sharing
        # this Redis): start an empty generation rather than show them.
        log.warning(
            "views at %s are past the store's end %d; starting afresh", positions, store_max
        )
        if self.generations is None:
            delete_root(self.client, self.fixed_root or "")
        else:
            old = self.generations.current(self.client)
            self.client.set(self.generations.pointer, self.generations.new(self.client))
            if old is not None:
                delete_root(self.client, self.generations.root(old))
        self.guard = None
        return self.sync()

    def apply(self, notifications: Sequence[Notification]) -> bool:
        """Apply one batch; False when the guard failed (call ``sync`` and go on from there)."""
        if not notifications:
            return True
        if self.guard is None:
            self.sync()
        assert self.guard is not None
        positions = self.guard.positions
        marks = {key: len(entries) for key, (_, entries) in self.staged.stream_entries.items()}
        while True:
            # (again on each try: a try that stopped at an event kept entries it drops)
            self.staged.feed_kept = [] if self.keeps_feed and KEPT.wanted() else None
            try:
                if len(set(positions)) == 1 and not self.halted:  # as always
                    self._apply_all(notifications)
                else:
                    self._apply_behind(notifications, positions)
                break
            except CannotApply as stopped:
                # Cached values were changed in place: forget them, and take the batch
                # again with that view stopped before the event (the feed entries this
                # batch had deferred go too, or they would be added twice).
                self._drop_stream_entries_since(marks)
                self.staged.forget()
                self._halt(stopped.halt)
            except BaseException:
                self.staged.forget()  # cached values were changed in place: not the truth
                raise
        new_positions = [
            self._reached(p.name, position, notifications)
            for p, position in zip(self.projections, positions, strict=True)
        ]
        prepared = self.staged.prepare(self.guard, new_positions)
        if self._committer is not None:
            if not self._landed():
                return False
            self._in_flight = self._committer.submit(self.staged.send, prepared)
        else:
            kept, self.staged.feed_kept = self.staged.feed_kept, None
            # Kept before the commit is sent: Redis wakes the readers as it runs it, and
            # a reader that finds them waits for the answer (projections/feed_entries.py).
            commit = KEPT.keep(self.server, kept) if kept else None
            landed = False
            try:
                landed = self._settled(self.staged.send(prepared))
            finally:
                if commit is not None:
                    KEPT.settle(commit, landed)
            if not landed:
                return False
        if self.staged.over_limit():
            if not self._landed():
                return False
            self.staged.forget()
        self.guard = replace(self.guard, positions=new_positions)
        self.applied += len(notifications)
        return True

    def _settled(self, outcome: str) -> bool:
        if self.staged.settle(outcome) == "ok":
            return True
        self.conflicts += 1
        log.info("views changed under the projection engine (%s); resyncing", outcome)
        self.guard = None
        return False

    def _landed(self) -> bool:
        """Wait for the commit in flight, if any; False if it met a conflict."""
        in_flight, self._in_flight = self._in_flight, None
        return in_flight is None or self._settled(in_flight.result())

    def _apply_all(self, notifications: Sequence[Notification]) -> None:
        """Every view takes every event: the hot loop of a rebuild and of a runner, one
        frame for the batch (the halting rules are ``_selected``'s and ``_process``'s,
        spelt out here: a generator, a generator over it and a call per view and event
        were ~5% of a rebuild, cProfile)."""
        projections = self.projections
        if self.selects:
            for event, tracking in self._selected(notifications):
                for projection in projections:
                    self._process(projection, event, tracking)
            return
        name, decode = self.application_name, self.decode
        for notification in notifications:
            try:
                event = decode(notification)
            except (redis.RedisError, OSError):
                raise
            except Exception as error:  # an unknown topic, an unreadable payload
                halts = [self._halt_for(p.name, notification, error) for p in projections]
                for halt in halts[1:]:
                    self._halt(halt)
                raise CannotApply(halts[0]) from None
            tracking = Tracking(name, notification.id)
            for projection in projections:
                try:
                    projection.process_event(event, tracking)
                except (redis.RedisError, OSError):
                    raise  # Redis went away: the supervisor starts again once it is back
                except Exception as error:  # the projection's own code cannot take it
                    raise CannotApply(self._cannot(projection, event, tracking, error)) from None

    def _apply_behind(
        self, notifications: Sequence[Notification], positions: Sequence[int | None]
    ) -> None:
        """Each projection takes only the events after its own position, and none from
        the event it stopped at."""
        for event, tracking in self._selected(notifications):
            for projection, position in zip(self.projections, positions, strict=True):
                halt = self.halted.get(projection.name)
                if halt is not None and tracking.notification_id >= halt.position:
                    continue
                if position is None or tracking.notification_id > position:
                    self._process(projection, event, tracking)

    def _selected(self, notifications: Sequence[Notification]) -> Iterable[Decoded]:
        """The decoded events some view still takes; one that cannot be decoded stops
        every view before it."""
        wanted = notifications
        if self.halted:  # else every view takes every event
            stops = [self.halted.get(p.name) for p in self.projections]
            wanted = [
                n for n in notifications if any(h is None or n.id < h.position for h in stops)
            ]
        selected = iter(self.select(wanted))
        done = 0
        while True:
            try:
                decoded = next(selected)
            except StopIteration:
                return
            except (redis.RedisError, OSError):
                raise
            except Exception as error:  # an unknown topic, an unreadable payload
                failed = next((n for n in wanted if n.id > done), wanted[-1])
                halts = [self._halt_for(p.name, failed, error) for p in self.projections]
                for halt in halts[1:]:
                    self._halt(halt)
                raise CannotApply(halts[0]) from None
            done = decoded[1].notification_id
            yield decoded

    def _process(self, projection: ViewProjection, event: object, tracking: Tracking) -> None:
        try:
            projection.process_event(event, tracking)
        except (redis.RedisError, OSError):
            raise  # Redis went away: the supervisor starts again once it is back
        except Exception as error:  # the projection's own code cannot take this event
            raise CannotApply(self._cannot(projection, event, tracking, error)) from None

    @staticmethod
    def _cannot(
        projection: ViewProjection, event: object, tracking: Tracking, error: Exception
    ) -> Halt:
        return Halt(
            projection.name,
            tracking.notification_id,
            type(event).__qualname__,
            str(getattr(event, "originator_id", "?")),
            why(error),
        )

    def _halt_for(self, view: str, notification: Notification, error: Exception) -> Halt:
        kind = notification.topic.rpartition(":")[2] or notification.topic
        return Halt(view, notification.id, kind, str(notification.originator_id), why(error))

    def _halt(self, halt: Halt) -> None:
        if halt.view in self.halted:
            return
        self.halted[halt.view] = halt
        log.error("%s", halt.line())  # one line, once per engine: it will not go away
        if self.keys is not None:
            record = {**halt.__dict__, "message": halt.line()}
            self.client.hset(halted_key(self.keys.root), halt.view, orjson.dumps(record))

    def _drop_stream_entries_since(self, marks: dict[str, int]) -> None:
        entries = self.staged.stream_entries
        for key in list(entries):
            if key in marks:
                del entries[key][1][marks[key] :]
            else:
                del entries[key]

    def _reached(
        self, view: str, position: int | None, notifications: Sequence[Notification]
    ) -> int:
        """Where a view stands after the batch: its end, or just before where it stopped."""
        halt = self.halted.get(view)
        ids = [n.id for n in notifications if halt is None or n.id < halt.position]
        return max([position or 0, *ids])

    def flush(self) -> bool:
        """Wait for the commit in flight and write what was deferred (a rebuild's feed
        streams); False on a conflict."""
        if not self._landed():
            return False
        assert self.guard is not None
        return self.staged.commit(self.guard, self.guard.positions, flush=True) == "ok"

    def close(self) -> None:
        if self._committer is not None:
            self._committer.shutdown(wait=True)

    @property
    def position(self) -> int | None:
        return None if self.guard is None else min(p or 0 for p in self.guard.positions)
