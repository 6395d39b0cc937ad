"""What an import proves before it writes: every event of the file can be read and
every aggregate rebuilds from them, as the server will read and rebuild them.

A file is text anyone can edit or a disk can damage, and the store keeps what it is
given forever: one bad event stored is an aggregate that can no longer be loaded
and views that stop at it. So each event is decoded as the server decodes it (its
type known, its payload readable, every field its type declares present and of its
declared type: skald_campaign/payload_types.py), applied to its aggregate in the file's
order, and the aggregate's ruleset must be one this Skald plays. The first event
that fails is named with its line in the file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import cache
from uuid import UUID

from eventsourcing.domain import BaseAggregate, CanMutateAggregate
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import TopicError, resolve_topic

from skald_campaign.domain.errors import DomainError
from skald_campaign.domain.event_catalog import METADATA
from skald_campaign.domain.rulesets import get_ruleset
from skald_campaign.payload_types import PayloadTypeError, check_payload

FIRST_EVENT_LINE = 2  # the header is line 1; every later line up to the closing one is an event


class ReplayError(ValueError):
    """An event of the file this Skald cannot read or apply; the message names it."""


def check_replays(events: Iterable[StoredEvent], mapper: Mapper[UUID]) -> int:
    """Decode and apply every event, aggregate by aggregate; the number of aggregates.

    Raises ReplayError naming the first event that cannot be read or applied."""
    aggregates: dict[UUID | str, BaseAggregate[UUID] | None] = {}
    for number, stored in enumerate(events, start=FIRST_EVENT_LINE):
        event = decoded(stored, number, mapper)
        aggregate_id = stored.originator_id
        try:
            aggregate = event.mutate(aggregates.get(aggregate_id))
        except Exception as error:  # whatever the aggregate's own code raises
            raise refusal(stored, number, f"it cannot be applied: {why(error)}") from None
        ruleset = getattr(aggregate, "ruleset_id", None)
        if ruleset is not None:
            try:
                get_ruleset(ruleset)
            except DomainError as error:
                raise refusal(stored, number, str(error)) from None
        aggregates[aggregate_id] = aggregate
    return len(aggregates)


def decoded(stored: StoredEvent, number: int, mapper: Mapper[UUID]) -> CanMutateAggregate[UUID]:
    try:
        cls = resolve_topic(stored.topic)
    except TopicError:
        raise refusal(stored, number, "its type is unknown to this Skald") from None
    try:
        event = mapper.to_domain_event(stored)
    except Exception as error:  # the transcoder's, the cipher's or an upcast's own errors
        cause = error.__cause__ if isinstance(error.__cause__, Exception) else error
        raise refusal(stored, number, f"its payload cannot be read: {why(cause)}") from None
    if not isinstance(event, CanMutateAggregate):  # a snapshot, say: never exported
        raise refusal(stored, number, "it is not an event of an aggregate")
    missing = [name for name in required_fields(cls) if name not in event.__dict__]
    if missing:
        raise refusal(stored, number, f"its payload lacks {', '.join(missing)}")
    payload = {k: v for k, v in event.__dict__.items() if k not in METADATA}
    try:
        check_payload(cls, payload)
    except PayloadTypeError as error:
        raise refusal(stored, number, f"a field is not of its declared type: {error}") from None
    return event


@cache
def required_fields(cls: type) -> tuple[str, ...]:
    """The fields an event of this type must carry (those without a default: the
    stored state never holds the id and version, the store's own columns)."""
    if not dataclasses.is_dataclass(cls):
        return ()
    return tuple(
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
        and f.name not in ("originator_id", "originator_version")
    )


def refusal(stored: StoredEvent, number: int, what: str) -> ReplayError:
    kind = stored.topic.rpartition(":")[2] or stored.topic
    return ReplayError(
        f"line {number}: event {stored.originator_version} of aggregate "
        f"{stored.originator_id} ({kind}): {what}"
    )


def why(error: Exception) -> str:
    """An error on one line, with its type when its message alone says little."""
    message = " ".join(str(error).split())
    return f"{type(error).__name__}: {message}" if message else type(error).__name__
