"""How every command is written: bounded retries on a lost race, and idempotency.

A command is a function that reads aggregates, changes them and saves them. It
is re-run when another writer won the race (the loser re-reads and decides
again), and, when the request carries a claim, it is done at most once: the
claim's record is saved in the same transaction as the command's aggregates.
"""

from __future__ import annotations

import contextvars
import dataclasses
import random
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from contextlib import contextmanager
from typing import TypeVar, cast
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import (
    Aggregate,
    DomainEventProtocol,
    MutableOrImmutableAggregate,
)
from eventsourcing.persistence import IntegrityError, Recording

from skald_campaign.application.group_commit import Batch, GroupCommitWriter
from skald_campaign.application.idempotency import current_claim, current_expected, current_via
from skald_campaign.application.postgres import is_postgres
from skald_campaign.application.snapshotting import (
    ListsApart,
    Snapshotter,
    due_aggregates,
    due_snapshots,
    packs,
    snapshot_put,
)
from skald_campaign.application.store_position import KnownPosition
from skald_campaign.application.writer_cache import WriterCache
from skald_campaign.domain.errors import ConcurrentWrite, VersionMismatch
from skald_campaign.domain.idempotency import AlreadyDone, Claim, IdempotentRequest, Replayed
from skald_campaign.domain.writing.attribution import records_via
from skald_campaign.domain.writing.preconditions import Expected

T = TypeVar("T")
R = TypeVar("R")
Saved = MutableOrImmutableAggregate[UUID] | DomainEventProtocol[UUID] | None


# Jitter for retries after a lost race, so two processes do not collide again in step.
# (Never used for dice: those come from the injected roller.)
_jitter = random.Random()
BACKOFF_SECONDS = 0.002

# Set while a command's attempt runs (on the writer, or on the caller without one): what
# a command reads, it reads to write (application/store.py checks the campaign's ruleset
# version on such reads), unless it says it writes no part of the story (`unguarded`).
_in_command = contextvars.ContextVar("skald_in_command", default=False)
_unguarded = contextvars.ContextVar("skald_unguarded", default=False)
# The subject the running attempt said it decides on (`WriteRunner.decides_on`): its save
# must save that one first, or the expected version was checked on another aggregate.
_decided_on: contextvars.ContextVar[UUID | None] = contextvars.ContextVar(
    "skald_decided_on", default=None
)


def writing() -> bool:
    """Is a command's attempt running here, reading to write?"""
    return _in_command.get() and not _unguarded.get()


@contextmanager
def unguarded() -> Iterator[None]:
    """What a command reads within this is not guarded by the campaign's ruleset version:
    its keys (a leaked key must be revocable whatever the rules), the version's own
    acceptance, and the check's own reads."""
    token = _unguarded.set(True)
    try:
        yield
    finally:
        _unguarded.reset(token)


Tokens = tuple[
    "contextvars.Token[Claim | None] | None", "contextvars.Token[Expected | None] | None"
]


def _conditions(claim: Claim | None, expected: Expected | None) -> Tokens:
    """The request's claim and expected version, in force for the command (the writer's
    job takes a copy of the context it was queued in)."""
    return (
        current_claim.set(claim) if claim is not None else None,
        current_expected.set(expected) if expected is not None else None,
    )


def _reset(tokens: Tokens) -> None:
    claim, expected = tokens
    if expected is not None:
        current_expected.reset(expected)
    if claim is not None:
        current_claim.reset(claim)


def read_version(subject: Aggregate, batch: Batch | None) -> int:
    """The version of its subject a command read, before its own changes: within a batch,
    the earlier commands' uncommitted events count as read (they commit with it)."""
    settled = batch.pending.get(subject.id, 0) if batch is not None else 0
    return subject.version - (len(subject.pending_events) - settled)


def _attribute(aggregate: Aggregate, client: str, batch: Batch | None) -> None:
    """The events this command recorded in the aggregate, and not yet saved, say the client
    the request came through (domain/writing/attribution.py): the same events, ``via`` set (it
    changes no state, so the aggregate as the command left it stands)."""
    pending = aggregate.pending_events
    for n in range(batch.pending.get(aggregate.id, 0) if batch is not None else 0, len(pending)):
        event = pending[n]
        if records_via(type(event)) and getattr(event, "via", None) is None:
            pending[n] = dataclasses.replace(event, via=client)  # type: ignore[type-var]


class WriteRunner(Application[UUID]):
    write_attempts = 5
    writer: GroupCommitWriter | None = None
    writer_cache: WriterCache | None = None
    snapshotter: Snapshotter | None = None

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        # How many times this process saved each aggregate: a reader that looked at an
        # aggregate knows whether this process changed it since (an int per aggregate,
        # bumped after its save committed; a dict read and write is atomic under the GIL).
        self._saves: dict[UUID, int] = {}
        super().__init__(env)
        self.known_position = KnownPosition(self.recorder_position)

    def recorder_position(self) -> int | None:
        """The store's last notification id, asked of the store; None for a recorder
        without notifications."""
        max_notification_id = getattr(self.recorder, "max_notification_id", None)
        return None if max_notification_id is None else max_notification_id()

    def store_position(self) -> int:
        """The store's last notification id, from memory when fresh (KnownPosition)."""
        return self.known_position.current()

    def saves_of(self, aggregate_id: UUID) -> int:
        return self._saves.get(aggregate_id, 0)

    def start_group_commit(self) -> None:
        """One writer for this process: commands queue instead of racing, and those that
        arrive together commit together (see application/group_commit.py); the writer keeps
        the aggregates it saved (application/writer_cache.py)."""
        if self.writer is None:
            cache = (
                WriterCache(originators=self._originators)
                if hasattr(self.recorder, "max_notification_id")
                else None
            )
            self.writer_cache = cache
            # A mapper whose transcoder writes a list of records' JSON as it is (Skald's).
            if self.snapshots is not None and getattr(self.mapper, "writes_record_lists", False):
                apart = ListsApart() if packs(self.snapshots) else None
                # On SQLite, stored through the connection the commands' commits use.
                writing = getattr(self.recorder, "writing", None)
                put = snapshot_put(self.snapshots, apart, writing)
                self.snapshotter = Snapshotter(put, apart)
            self.writer = GroupCommitWriter(
                self._retrying,
                self._once,
                self._save_collected,
                begin=self._begin_batch,
                discard=cache.clear if cache is not None else None,
            )

    def _save_collected(self, *objs: object, **kwargs: object) -> list[Recording[UUID]]:
        """`Application.save` (eventsourcing 9.5), an Aggregate known by its class: the
        library asks by `isinstance` against runtime Protocols, which Python 3.11 answers
        walking their members (1.5-2% of the CPU under load; ~5% of the writer's Python
        time for a command saved alone, a GM's pace: bench/README.md, batchcost lane).
        Every save takes this way, a batch's and a command's saved on its own."""
        processing_event: ProcessingEvent[UUID] = ProcessingEvent()
        processing_event.saved_kwargs.update(kwargs)
        for obj in objs:
            if isinstance(obj, Aggregate):
                processing_event.events.extend(obj.collect_events())
                processing_event.aggregates[obj.id] = obj
            else:
                processing_event.collect_events(cast(Saved, obj))
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        self.notify(processing_event.events)  # the library's deprecated hook, as it calls it
        return recordings

    def _originators(self, after: int, upto: int) -> list[tuple[int, UUID]]:
        """Which aggregates the notifications after one id up to another belong to."""
        found = self.recorder.select_notifications(
            after, upto - after, stop=upto, inclusive_of_start=False
        )
        return [
            (n.id, n.originator_id if isinstance(n.originator_id, UUID) else UUID(n.originator_id))
            for n in found
        ]

    def _begin_batch(self) -> None:
        cache = self.writer_cache
        if cache is None:
            return
        after = cache.newest
        if after is not None and is_postgres(self.recorder):
            # One round trip where there were two whenever another process had written
            # (compose's replicas on one store, every batch): the store's newest id and
            # the aggregates of the notifications this writer has not seen, read together
            # (the newest id is the last one read, or `after` when none came). Ids and
            # aggregate ids only: the cache needs nothing of the events' state.
            limit = cache.readable + 1
            from skald_campaign.application.postgres_store import unseen_ids

            unseen = unseen_ids(self.recorder, after, limit)
            if len(unseen) < limit:  # all of them: else too many to read, as below
                newest = unseen[-1][0] if unseen else after
                self.known_position.saw(newest)
                cache.check(newest, unseen)
                return
        # On SQLite, asked on the connection the writer commits with (workers/
        # sqlite_writing.py): nothing written since its last commit, no page is read.
        look = getattr(self.recorder, "max_notification_id_writing", None)
        position = look() if look is not None else self.recorder.max_notification_id()
        self.known_position.saw(position or 0)
        cache.check(position)

    def _own_cache(self) -> WriterCache | None:
        """The writer's aggregates, when called on the writer thread."""
        writer = self.writer
        if writer is None or not writer.on_writer_thread:
            return None
        return self.writer_cache

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        recordings = super()._record(processing_event)
        for aggregate_id in processing_event.aggregates:  # see `saves_of`
            self._saves[aggregate_id] = self._saves.get(aggregate_id, 0) + 1
        cache = self._own_cache()
        if cache is not None:
            ids = [r.notification.id for r in recordings if r.notification is not None]
            cache.saved(ids if len(ids) == len(recordings) else [], processing_event.aggregates)
        self.known_position.saw(
            max((r.notification.id for r in recordings if r.notification is not None), default=0)
        )
        return recordings

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        if self.snapshotter is not None:  # what the writer handed it is stored first
            self.snapshotter.close()
            self.snapshotter = None
        # A recorder that keeps a connection of its own (the SQLite store's, when served:
        # workers/subscriptions.py) closes it with the application.
        close_recorder = getattr(self.recorder, "close", None)
        if callable(close_recorder):
            close_recorder()
        super().close()

    # -- snapshots ------------------------------------------------------------------

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Snapshot from memory each aggregate this save carried to one of its snapshot
        versions (application/snapshotting.py): on the writer, a copy of each goes to the
        snapshotter thread, so no command waits for a snapshot; elsewhere, here."""
        if self.snapshots is None or not self.snapshotting_intervals:
            return
        writer, snapshotter = self.writer, self.snapshotter
        if snapshotter is not None and writer is not None and writer.on_writer_thread:
            due = due_aggregates(processing_event, self.snapshotting_intervals, self.snapshot_class)
            if due:
                snapshotter.hand(due)
            return
        taken = due_snapshots(processing_event, self.snapshotting_intervals, self.snapshot_class)
        if taken:
            self.snapshots.put(taken)

    def snapshots_stored(self) -> None:
        """Return once every snapshot the writer handed on so far is stored."""
        if self.snapshotter is not None:
            self.snapshotter.flush()

    # -- idempotency and retries -------------------------------------------------

    def idempotent(
        self, claim: Claim | None, run: Callable[[], T], expected: Expected | None = None
    ) -> T | Replayed:
        """Run a command once per claim; a repeat gets what the first one produced. With
        an expected version, the command's subject must be at it (checked on the writer
        before the command decides anything, after the claim's: `decides_on`)."""
        if claim is None and expected is None:
            return run()
        tokens = _conditions(claim, expected)
        try:
            return run()
        except AlreadyDone as done:
            return done.replayed
        finally:
            _reset(tokens)

    def idempotent_later(
        self,
        claim: Claim | None,
        enqueue: Callable[[], Future[T]],
        expected: Expected | None = None,
    ) -> Future[T | Replayed]:
        """`idempotent` for a command handed to the writer without waiting for it."""
        tokens = _conditions(claim, expected)
        try:
            queued = enqueue()  # the job takes a copy of the context, claim included
        finally:
            _reset(tokens)
        answer: Future[T | Replayed] = Future()
        answer.set_running_or_notify_cancel()  # like the queued command: not cancellable

        def settle(done: Future[T]) -> None:
            # The error is looked at, not raised here: raising it (done.result()) put
            # this frame, which holds `done` and so the error, in the error's traceback,
            # a cycle that only the cyclic collector frees (~72 objects a replayed
            # request), and kept for good once `serve` froze it (bench/README.md,
            # "pgstall lane"). The queued command is running, so not cancelled: no
            # CancelledError from done.exception().
            error = done.exception()
            if error is None:
                answer.set_result(done.result())
            elif isinstance(error, AlreadyDone):
                answer.set_result(error.replayed)
            else:  # the caller gets it, as if it had run the command
                answer.set_exception(error)

        queued.add_done_callback(settle)
        return answer

    def save(
        self,
        *objs: MutableOrImmutableAggregate[UUID] | DomainEventProtocol[UUID] | None,
        **kwargs: object,
    ) -> list[Recording[UUID]]:
        """Save, and with a claim in force, its record in the same transaction.

        By convention the first aggregate saved is the request's subject: the one
        whose new version answers the request, and the one the command said it decides
        on (`decides_on`). Within a batch nothing is recorded yet (the batch is, with
        the rest of it, or not at all): no recordings.
        """
        claim = current_claim.get()
        expected = current_expected.get()
        batch = self.writer.batch if self.writer is not None else None
        client = current_via.get()
        if client is not None:
            for obj in objs:
                if isinstance(obj, Aggregate):
                    _attribute(obj, client, batch)
        if (claim is not None or expected is not None) and objs:
            subject = objs[0]
            if not isinstance(subject, Aggregate):
                raise TypeError(f"a request's subject is an aggregate, not {subject!r}")
            if expected is not None and _decided_on.get() != subject.id:
                # Not a second check of the version (that was `decides_on`'s, before the
                # command decided): a command that takes an expected version and did not
                # say what it decides on, or saves another aggregate as its subject.
                raise RuntimeError(
                    f"a write with an expected version saved {type(subject).__name__} "
                    f"{subject.id} as its subject, not the aggregate it was decided on"
                )
            if claim is not None:
                record = IdempotentRequest(
                    claim.scope, claim.request_hash, subject.id, subject.version
                )
                objs = (*objs, record)
        if batch is not None:  # committed with the rest of the batch, or not at all
            batch.to_save.extend(objs)
            return []
        return self._save_collected(*objs, **kwargs)

    def decides_on(self, subject: Aggregate) -> None:
        """The running command decides on this aggregate, its subject (docs/access.md: the
        one whose version answers the request, and it saves first), read and not changed
        yet. With an expected version in force (If-Match), the subject must be at it, or the
        command is refused here, before it decides anything: a stale write is answered 412,
        whether or not the command would have refused it too (RFC 9110 13.2.2), and nothing
        of it is written. Every attempt calls it, so a re-run after a lost race checks again
        on what it re-read; within a batch, on what the earlier commands left; and after the
        claim's check (`_check_claim`), so a retry of a write that succeeded gets its first
        answer, not 412."""
        _decided_on.set(subject.id)
        expected = current_expected.get()
        if expected is None:
            return
        version = read_version(subject, self.writer.batch if self.writer is not None else None)
        if not expected.accepts(version):
            kind = type(subject).__name__.lower()
            raise VersionMismatch(kind, str(subject.id), expected.asked, version)

    def _batched_get(self, aggregate_id: UUID, fetch: Callable[[], object]) -> object:
        """Within a batch, every command sees the uncommitted changes of those before it;
        on the writer thread, an aggregate it kept is read as it is (no copy, no query)."""
        cache = self._own_cache()
        if cache is None:
            return fetch()
        batch = self.writer.batch if self.writer is not None else None
        if batch is not None and aggregate_id in batch.aggregates:
            batch.touched.add(aggregate_id)
            return batch.aggregates[aggregate_id]
        cache.reads.add(aggregate_id)
        aggregate = cache.get(aggregate_id)
        if aggregate is None:
            aggregate = fetch()
            cache.keep(aggregate_id, aggregate)
        if batch is not None:
            batch.aggregates[aggregate_id] = aggregate
            batch.touched.add(aggregate_id)
        return aggregate

    def _run_tracked(self, attempt: Callable[[], T]) -> T:
        """Run an attempt; if it fails, drop what it read from the writer's aggregates (a
        failed command may have changed them half-way, a failed save left them ahead)."""
        token = _in_command.set(True)
        subject = _decided_on.set(None)  # each attempt says again what it decides on
        try:
            cache = self._own_cache()
            if cache is None:
                return attempt()
            cache.reads.clear()
            try:
                return attempt()
            except BaseException:
                cache.drop(cache.reads)
                raise
        finally:
            _decided_on.reset(subject)
            _in_command.reset(token)

    def _check_claim(self) -> None:
        claim = current_claim.get()
        if claim is None:
            return
        try:
            record: IdempotentRequest = self.repository.get(
                IdempotentRequest.create_id(claim.scope)
            )
        except AggregateNotFoundError:
            return
        raise AlreadyDone(record.replay_for(claim))

    def run_command(self, attempt: Callable[[], T]) -> T:
        """Run a command (a re-runnable attempt that reads, changes and saves aggregates):
        on the writer when there is one, else here, with retries either way."""
        if self.writer is not None:
            result: T = self.writer.submit(attempt)
            return result
        return self._retrying(attempt)

    def run_command_later(self, attempt: Callable[[], T]) -> Future[T]:
        """The command queued for the writer; without one, run now (its future done)."""
        if self.writer is not None:
            queued: Future[T] = self.writer.enqueue(attempt)
            return queued
        done: Future[T] = Future()
        try:
            done.set_result(self._retrying(attempt))
        except BaseException as error:
            done.set_exception(error)
        return done

    def run_command_answered(self, attempt: Callable[[], T], answer: Callable[[T], R]) -> Future[R]:
        """`run_command_later`, the caller's answer made from the result on the writer as
        the command left it (application/group_commit.py): the result is not copied."""
        if self.writer is not None:
            return self.writer.enqueue_answered(attempt, answer)
        done: Future[R] = Future()
        try:
            done.set_result(answer(self._retrying(attempt)))
        except BaseException as error:
            done.set_exception(error)
        return done

    def _once(self, attempt: Callable[[], T]) -> T:
        self._check_claim()
        return self._run_tracked(attempt)

    def _retrying(self, attempt: Callable[[], T]) -> T:
        """Re-run a command that lost a race; the loser re-reads and re-decides, after a
        short random pause that grows with each loss."""
        for number in range(self.write_attempts):
            self._check_claim()
            try:
                return self._run_tracked(attempt)
            except IntegrityError:
                time.sleep(_jitter.uniform(0, BACKOFF_SECONDS * 2**number))
                continue
        raise ConcurrentWrite(
            f"the record kept changing under this request ({self.write_attempts} attempts); "
            "read it again and retry"
        )
