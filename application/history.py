"""Reading an aggregate's own events back as an audit trail, and finding versions by time."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from uuid import UUID

import msgspec
from eventsourcing.domain import DomainEvent, DomainEventProtocol

from skald_campaign.domain.errors import NotFound
from skald_campaign.domain.records import JSON, Record
from skald_campaign.domain.writing.attribution import attributed, author_of

# What the audit never shows of an event: the store's own fields, and what the reads
# needed of the rules (issue 38, domain/reading/recorded.py), worked out from the event's
# facts for the views, not a fact of its own (the event log publishes it).
HIDDEN = {"originator_id", "originator_topic", "timestamp", "originator_version", "readings"}


def recorded(event: DomainEventProtocol[UUID]) -> DomainEvent:
    """A stored event as the domain recorded it: one of the library's events, timed."""
    if not isinstance(event, DomainEvent):
        raise TypeError(f"the store holds an event of an unknown kind: {event!r}")
    return event


def event_record(stored: DomainEventProtocol[UUID]) -> dict[str, JSON]:
    """One event as the audit trail shows it: its kind, version, time and every field
    (the events' fields are JSON, domain/events.py; the ids and the time are not shown)."""
    event = recorded(stored)
    fields: dict[str, JSON] = {k: v for k, v in vars(event).items() if k not in HIDDEN}
    return attributed_record(
        {
            "event": type(event).__qualname__.split(".")[-1],
            "version": event.originator_version,
            "timestamp": event.timestamp.isoformat(),
            **fields,
        }
    )


def attributed_record(record: dict[str, JSON]) -> dict[str, JSON]:
    """A record as the audit shows it: ``via`` only on a write made through a client of
    note (issue 40; every other event's is None and is left out, as before it existed),
    then with ``attributed``, its author as people read it ("Ana via assistant")."""
    if "via" not in record:
        return record
    client = record.pop("via")
    if client is None:
        return record
    record["via"] = client
    record["attributed"] = attributed(author_of(record), client)
    return record


def mentions(record: Mapping[str, JSON], character_id: str) -> bool:
    """Does this event concern the character: as actor, target, or in its effects?"""
    if record.get("actor") == character_id:
        return True
    params = record.get("params")
    if isinstance(params, Mapping) and character_id in params.values():
        return True
    for key in ("tracks", "state", "combatants"):
        values = record.get(key)
        if isinstance(values, Mapping | Sequence) and character_id in values:
            return True
    return record.get("character_id") == character_id


class Kind(Record, frozen=True):
    kind: str


class Filed(Record, frozen=True):
    """What an audit entry (event_record) is filed under, read from its JSON once: its
    event's name, and its kind (its action's, or its correction's)."""

    event: str
    kind: str | None = None
    correction: Kind | None = None

    @classmethod
    def from_json(cls, record: Mapping[str, JSON]) -> Filed:
        return msgspec.convert(record, cls)

    @property
    def action_kind(self) -> str:
        """Filter key: the action kind for actions, the correction kind for corrections,
        and the event's name for the rest."""
        if self.kind is not None:
            return self.kind
        return self.event if self.correction is None else self.correction.kind


def action_kind(record: Mapping[str, JSON]) -> str:
    return Filed.from_json(record).action_kind


def version_at(events: Iterable[DomainEventProtocol[UUID]], at: datetime, what: str) -> int:
    """The aggregate's version as it stood at instant ``at`` (events are in order)."""
    version = 0
    for event in events:
        if recorded(event).timestamp > at:
            break
        version = event.originator_version
    if version == 0:
        raise NotFound(f"the {what} did not exist yet at {at.isoformat()}")
    return version
