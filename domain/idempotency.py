"""Idempotent writes: a retried request is answered from the record, never done twice.

The record of a request is an aggregate of its own whose id is derived from
the request's scope (who, what, the client's Idempotency-Key). It is saved in
the same transaction as the write it guards, so a write and its record exist
together or not at all. It keeps the request's hash and which aggregate
version the write produced; the response is that version, read again.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from skald_campaign.domain.errors import DomainError, InvalidInput
from skald_campaign.domain.records import Sha256Hex

NAMESPACE = uuid5(NAMESPACE_URL, "https://skald.invalid/idempotency")


@dataclass(frozen=True)
class Claim:
    scope: str
    request_hash: str


@dataclass(frozen=True)
class Replayed:
    """The request was done before: its subject aggregate and the version it produced."""

    subject_id: UUID
    subject_version: int


class AlreadyDone(DomainError):
    def __init__(self, replayed: Replayed) -> None:
        super().__init__("this request was already done")
        self.replayed = replayed


class IdempotentRequest(Aggregate):
    # Stored topics are forever: each class names the topic it was first stored under
    # (before issue 38 the package was the top-level `domain`), whatever its module now.
    TOPIC = "domain.idempotency:IdempotentRequest"

    # Not recorded by Skald (the library defines it on every aggregate); named so its
    # topic is explicit like every other class here.
    class Created(Aggregate.Created):
        TOPIC = "domain.idempotency:IdempotentRequest.Created"

    @staticmethod
    def create_id(scope: str) -> UUID:
        return uuid5(NAMESPACE, scope)

    @event("Recorded", topic="domain.idempotency:IdempotentRequest.Recorded")
    def __init__(
        self, scope: str, request_hash: Sha256Hex, subject_id: UUID, subject_version: int
    ) -> None:
        self.scope = scope
        self.request_hash = request_hash
        self.subject_id = subject_id
        self.subject_version = subject_version

    def replay_for(self, claim: Claim) -> Replayed:
        if claim.request_hash != self.request_hash:
            raise InvalidInput(
                "this Idempotency-Key was already used with a different request body; "
                "use a new key for a new request"
            )
        return Replayed(self.subject_id, self.subject_version)
