"""A campaign's event log by position: each event as the open feed publishes it.

The positions come from the views' index (the audit projection keeps, per campaign, a
sorted set of 'aggregate_id:version' by notification id: `projections/keys.py`
`positions`); this module reads exactly those events from the store, one select per
aggregate in the page, and turns each into a `LoggedEvent`. A page therefore reads as
many rows as it has entries, however long the campaign's history.

What a player's or a viewer's key may see of an event is the one redaction of every
read (application/redaction.py, RULINGS T3). The log route is a read about a campaign,
so api/redacting.py applies it to each page as to every other answer; the webhooks,
which answer no request, apply it with `as_seen_by` to the same JSON, so a webhook
taking a role's view delivers what that role's key reads in the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple
from uuid import UUID

import msgspec
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import AggregateRecorder, Mapper

from skald_campaign.application.redaction import Redaction
from skald_campaign.domain.event_catalog import LoggedEvent, logged

__all__ = ["LoggedEvent", "Position", "as_seen_by", "logged", "read_logged"]


class Position(NamedTuple):
    """An entry of the index: where an event stands in the store, and which it is."""

    position: int
    aggregate_id: str
    version: int


def read_logged(
    recorder: AggregateRecorder, mapper: Mapper[UUID], positions: Sequence[Position]
) -> list[LoggedEvent]:
    """The events at these positions, in their order: one select per aggregate."""
    spans: dict[str, tuple[int, int]] = {}
    for _, aggregate_id, version in positions:
        low, high = spans.get(aggregate_id, (version, version))
        spans[aggregate_id] = (min(low, version), max(high, version))
    found: dict[tuple[str, int], Aggregate.Event] = {}
    for aggregate_id, (low, high) in spans.items():
        for stored in recorder.select_events(UUID(aggregate_id), gt=low - 1, lte=high):
            event = mapper.to_domain_event(stored)
            if not isinstance(event, Aggregate.Event):
                raise TypeError(f"the store holds {event!r} where an aggregate's event was")
            found[(aggregate_id, event.originator_version)] = event
    return [logged(p, found[(a, v)]) for p, a, v in positions if (a, v) in found]


def as_seen_by(redaction: Redaction | None, events: Iterable[LoggedEvent]) -> list[LoggedEvent]:
    """The events as a role may see them (``redaction``: the campaign's policy for that
    role, None for the GM's view). Each event is redacted whole, as the log's page holds
    it, so the walk sees what it sees in an answer of the log route; an event's own
    fields are words and places, so only its payload can change."""
    if redaction is None:
        return list(events)
    seen: list[LoggedEvent] = []
    for event in events:
        redacted = redaction.document(msgspec.to_builtins(event))
        payload = redacted.get("payload") if isinstance(redacted, dict) else None
        assert isinstance(payload, dict), "a redacted event keeps its shape"
        seen.append(msgspec.structs.replace(event, payload=payload))
    return seen
