"""How every command is written: bounded retries on a lost race, and idempotency.

A command is a function that reads aggregates, changes them and saves them. It
is re-run when another writer won the race (the loser re-reads and decides
again), and, when the request carries a claim, it is done at most once: the
claim's record is saved in the same transaction as the command's aggregates.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.persistence import IntegrityError

from domain.errors import ConcurrentWrite
from domain.group_commit import GroupCommitWriter
from domain.idempotency import AlreadyDone, Claim, IdempotentRequest, Replayed, current_claim

T = TypeVar("T")


# Jitter for retries after a lost race, so two processes do not collide again in step.
# (Never used for dice: those come from the injected roller.)
_jitter = random.Random()
BACKOFF_SECONDS = 0.002


class WriteRunner(Application[UUID]):
    write_attempts = 5
    writer: GroupCommitWriter | None = None

    def start_group_commit(self) -> None:
        """One writer for this process: commands queue instead of racing, and those that
        arrive together commit together (see domain/group_commit.py)."""
        if self.writer is None:
            self.writer = GroupCommitWriter(
                self._retrying, self._once, lambda *objs: Application.save(self, *objs)
            )

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        super().close()

    # -- snapshots ------------------------------------------------------------------

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Snapshot the aggregate just saved, when it stands at the snapshot's version,
        instead of reading it back from the store first (the library's way): snapshotting
        was a third of the writer's time under load, most of it that read and decode
        (bench/README.md). An aggregate saved past that version (several commands
        of one batch) is still read back at it."""
        intervals = self.snapshotting_intervals
        if self.snapshots is None or not intervals:
            return
        later: list[Any] = []
        taken = []
        for event in processing_event.events:
            aggregate: Any = processing_event.aggregates.get(event.originator_id)
            interval = intervals.get(type(aggregate)) if aggregate is not None else None
            if interval is None or event.originator_version % interval != 0:
                continue
            snapshot_class: Any = getattr(type(aggregate), "Snapshot", self.snapshot_class)
            if aggregate.version == event.originator_version and snapshot_class is not None:
                taken.append(snapshot_class.take(aggregate))
            else:
                later.append(event)
        if taken:
            self.snapshots.put(taken)
        if later:
            rest = ProcessingEvent[UUID]()
            rest.events = later
            rest.aggregates = processing_event.aggregates
            super()._take_snapshots(rest)

    # -- idempotency and retries -------------------------------------------------

    def idempotent(self, claim: Claim | None, run: Callable[[], T]) -> T | Replayed:
        """Run a command once per claim; a repeat gets what the first one produced."""
        if claim is None:
            return run()
        token = current_claim.set(claim)
        try:
            return run()
        except AlreadyDone as done:
            return done.replayed
        finally:
            current_claim.reset(token)

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """Save, and with a claim in force, its record in the same transaction.

        By convention the first aggregate saved is the request's subject: the one
        whose new version answers the request.
        """
        claim = current_claim.get()
        if claim is not None and objs:
            subject = objs[0]
            record = IdempotentRequest(claim.scope, claim.request_hash, subject.id, subject.version)
            objs = (*objs, record)
        batch = self.writer.batch if self.writer is not None else None
        if batch is not None:  # committed with the rest of the batch, or not at all
            batch.to_save.extend(objs)
            return None
        return super().save(*objs, **kwargs)

    def _batched_get(self, aggregate_id: UUID, fetch: Callable[[], Any]) -> Any:
        """Within a batch, every command sees the uncommitted changes of those before it."""
        batch = self.writer.batch if self.writer is not None else None
        if batch is None:
            return fetch()
        if aggregate_id not in batch.aggregates:
            batch.aggregates[aggregate_id] = fetch()
        return batch.aggregates[aggregate_id]

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

    def _with_retries(self, attempt: Callable[[], T]) -> T:
        if self.writer is not None:
            result: T = self.writer.submit(attempt)
            return result
        return self._retrying(attempt)

    def _once(self, attempt: Callable[[], T]) -> T:
        self._check_claim()
        return attempt()

    def _retrying(self, attempt: Callable[[], T]) -> T:
        """Re-run a command that lost a race; the loser re-reads and re-decides, after a
        short random pause that grows with each loss."""
        for number in range(self.write_attempts):
            self._check_claim()
            try:
                return attempt()
            except IntegrityError:
                time.sleep(_jitter.uniform(0, BACKOFF_SECONDS * 2**number))
                continue
        raise ConcurrentWrite(
            f"the record kept changing under this request ({self.write_attempts} attempts); "
            "read it again and retry"
        )
