"""The aggregates' snapshots: their state stored as the JSON of version 1.

Both aggregates hold records (domain/records.py, domain/play/actions.py) and store each
snapshot's state as version 1 stored it, JSON with the records written out, so that
every snapshot, old or new, is read through the aggregate's ``upcast_v1_v2``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Protocol, Self, runtime_checkable
from uuid import UUID

from eventsourcing.domain import MutableOrImmutableAggregate
from eventsourcing.domain import Snapshot as LibrarySnapshot


@runtime_checkable
class StoresStateAsJSON(Protocol):
    """An aggregate that writes its state out as version 1's JSON."""

    def stored_state(self, state: Mapping[str, object]) -> dict[str, object]: ...


class JSONStateSnapshot(LibrarySnapshot):
    """A snapshot whose state is the aggregate's ``stored_state``, without a class_version
    (so the aggregate's upcast reads it back, as it reads an old one)."""

    # The keys of the state that hold records written out by their ``as_json``: JSON by
    # their types, like the events' payloads, so the transcoder writes them without
    # reading them back (skald_campaign/transcoder.py; tests/integration/test_event_payloads.py
    # proves every snapshot of the compat story so). The rest of the state is checked.
    json_state: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def take(cls, aggregate: MutableOrImmutableAggregate[UUID]) -> Self:
        taken = super().take(aggregate)
        if not isinstance(aggregate, StoresStateAsJSON):
            raise TypeError(f"{type(aggregate).__qualname__} does not write its state as JSON")
        return cls(
            originator_id=taken.originator_id,
            originator_version=taken.originator_version,
            timestamp=taken.timestamp,
            topic=taken.topic,
            state=aggregate.stored_state(taken.state),
        )
