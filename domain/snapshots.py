"""The aggregates' snapshots: their state stored as the JSON of version 1.

Both aggregates hold records (domain/records.py, domain/play/actions.py) and store each
snapshot's state as version 1 stored it, JSON with the records written out, so that
every snapshot, old or new, is read through the aggregate's ``upcast_v1_v2``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Protocol, Self, runtime_checkable
from uuid import UUID

from eventsourcing.domain import MutableOrImmutableAggregate
from eventsourcing.domain import Snapshot as LibrarySnapshot


class WritesJSON(Protocol):
    """A record: frozen, written out by its ``as_json``."""

    def as_json(self) -> object: ...


class RecordLists(Protocol):
    """How a snapshot taker writes an aggregate's lists of records (each record's JSON its
    own): application/snapshotting.py's reuses what it wrote of the same records before,
    so a snapshot costs the records added since, not every record again."""

    def __call__(self, key: str, records: Sequence[WritesJSON]) -> object:
        """The stored form of ``records`` (the list at ``key``): what the transcoder
        writes as the JSON list of their ``as_json``."""
        ...


@runtime_checkable
class StoresStateAsJSON(Protocol):
    """An aggregate that writes its state out as version 1's JSON."""

    def stored_state(
        self, state: Mapping[str, object], lists: RecordLists | None = None
    ) -> dict[str, object]: ...


class JSONStateSnapshot(LibrarySnapshot):
    """A snapshot whose state is the aggregate's ``stored_state``, without a class_version
    (so the aggregate's upcast reads it back, as it reads an old one)."""

    # The keys of the state that hold records written out by their ``as_json``: JSON by
    # their types, like the events' payloads, so the transcoder writes them without
    # reading them back (skald_campaign/transcoder.py; tests/integration/test_event_payloads.py
    # proves every snapshot of the compat story so). The rest of the state is checked.
    json_state: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def take(
        cls, aggregate: MutableOrImmutableAggregate[UUID], lists: RecordLists | None = None
    ) -> Self:
        """The snapshot of ``aggregate``; with ``lists``, its lists of records written
        through it (domain/encounter/state.py's `RecordLists`)."""
        taken = super().take(aggregate)
        if not isinstance(aggregate, StoresStateAsJSON):
            raise TypeError(f"{type(aggregate).__qualname__} does not write its state as JSON")
        return cls(
            originator_id=taken.originator_id,
            originator_version=taken.originator_version,
            timestamp=taken.timestamp,
            topic=taken.topic,
            state=aggregate.stored_state(taken.state, lists),
        )
