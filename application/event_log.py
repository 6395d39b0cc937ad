"""A campaign's event log by position: each event as the open feed publishes it.

The positions come from the views' index (the audit projection keeps, per campaign, a
sorted set of 'aggregate_id:version' by notification id: `projections/keys.py`
`positions`); this module reads exactly those events from the store, one select per
aggregate in the page, and turns each into a `LoggedEvent`. A page therefore reads as
many rows as it has entries, however long the campaign's history.

Every reader of the open feed (the log route, the webhooks) takes its events through
`as_seen_by`, the one place a role's view of an event is applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple
from uuid import UUID

import msgspec
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import AggregateRecorder, Mapper

from domain.access import Forbidden, Role
from domain.event_catalog import is_public_field, type_name, type_version
from domain.records import JSON, JSONObject

# Until the redaction of what players and viewers may see is a function of its own, the
# open feed serves the GM's view only, and refuses the others rather than leak.
SERVED_ROLES: frozenset[Role] = frozenset({"gm"})


class Position(NamedTuple):
    """An entry of the index: where an event stands in the store, and which it is."""

    position: int
    aggregate_id: str
    version: int


class LoggedEvent(msgspec.Struct, frozen=True):
    position: int  # the store's notification id: the SSE feed's event id too
    type: str  # 'Encounter.ActionResolved'
    type_version: int  # the event class's version (its upcasts bring older ones up to it)
    aggregate_id: str
    aggregate_version: int
    time: str  # ISO 8601, UTC
    by: str | None  # who: 'gm', 'player:<key>', 'system'... as the event recorded it
    payload: JSONObject


def public_payload(event: object) -> JSONObject:
    """The event's own fields as JSON (ids as strings), without what only the store keeps."""
    fields = {k: v for k, v in vars(event).items() if is_public_field(k)}
    payload: object = msgspec.to_builtins(fields, str_keys=True)
    assert isinstance(payload, dict)
    return payload


def author(payload: JSONObject) -> str | None:
    by = payload.get("by")
    if isinstance(by, str):
        return by
    correction = payload.get("correction")
    if isinstance(correction, dict) and isinstance(correction.get("by"), str):
        found: JSON = correction["by"]
        return str(found)
    return None


def logged(position: int, event: Aggregate.Event) -> LoggedEvent:
    payload = public_payload(event)
    return LoggedEvent(
        position=position,
        type=type_name(type(event)),
        type_version=type_version(type(event)),
        aggregate_id=str(event.originator_id),
        aggregate_version=event.originator_version,
        time=event.timestamp.isoformat(),
        by=author(payload),
        payload=payload,
    )


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


def check_served(role: Role) -> None:
    """Refuse a role whose view the open feed cannot apply yet (see SERVED_ROLES)."""
    if role not in SERVED_ROLES:
        raise Forbidden(
            f"the event log and webhooks serve the GM's view only for now; a {role}'s view "
            "(redacted as the other reads are) is not available yet"
        )


def as_seen_by(role: Role, events: Iterable[LoggedEvent]) -> list[LoggedEvent]:
    """The one place a role's view of the open feed is applied (the log and webhooks)."""
    check_served(role)
    return list(events)
