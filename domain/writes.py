"""How every command is written: bounded retries on a lost race, and idempotency.

A command is a function that reads aggregates, changes them and saves them. It
is re-run when another writer won the race (the loser re-reads and decides
again), and, when the request carries a claim, it is done at most once: the
claim's record is saved in the same transaction as the command's aggregates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError

from domain.errors import ConcurrentWrite
from domain.idempotency import AlreadyDone, Claim, IdempotentRequest, Replayed, current_claim

T = TypeVar("T")


class WriteRunner(Application[UUID]):
    write_attempts = 5

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
        return super().save(*objs, **kwargs)

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
        """Re-run a command that lost a race; the loser re-reads and re-decides."""
        for _ in range(self.write_attempts):
            self._check_claim()
            try:
                return attempt()
            except IntegrityError:
                continue
        raise ConcurrentWrite(
            f"the record kept changing under this request ({self.write_attempts} attempts); "
            "read it again and retry"
        )
