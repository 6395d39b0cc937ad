"""Which aggregates a save carried to a snapshot version, snapshotted from memory.

The library reads an aggregate back from the store at exactly its snapshot version
first; under group commit a batch often carries an encounter past it, and that read and
decode of the last snapshot plus its events was most of the writer's snapshot time
(bench/README.md). A snapshot at the saved version serves the same purpose: reading
starts from the newest snapshot at or below a version.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from uuid import UUID

from eventsourcing.application import ProcessingEvent
from eventsourcing.domain import SnapshotProtocol

# Snapshot spacing doubles as an aggregate grows, up to this many times its interval:
# an encounter's snapshot holds every action so far, so at a fixed spacing its cost per
# event would grow with the encounter (issue 15 (c)); doubling keeps it about constant,
# and the cap bounds the events a cold read replays after the newest snapshot.
SNAPSHOT_SPACING_CAP = 16


def snapshot_due(version: int, interval: int) -> bool:
    """Is `version` one at which an aggregate snapshotted every `interval` events is
    snapshotted? The spacing doubles with the version up to the cap: with 100, at 100,
    200, 400, 800, 1600, then every 1600 (3200, 4800, ...)."""
    spacing = interval
    while spacing < interval * SNAPSHOT_SPACING_CAP and version >= 2 * spacing:
        spacing *= 2
    return version % spacing == 0


def due_snapshots(
    processing_event: ProcessingEvent[UUID],
    intervals: Mapping[type, int],
    default_class: type[SnapshotProtocol[UUID]] | None,
) -> list[SnapshotProtocol[UUID]]:
    """A snapshot of each aggregate of the save, as it is now, that one of its events
    carried to a snapshot version (see `snapshot_due`)."""
    # Every due version is a multiple of its type's interval, so of their common
    # divisor: one look at each event's version finds the few that may be due,
    # instead of matching every event against every aggregate of the batch.
    step = math.gcd(*intervals.values())
    aggregates = processing_event.aggregates
    taken: list[SnapshotProtocol[UUID]] = []
    snapshotted: set[UUID] = set()
    for event in processing_event.events:
        if event.originator_version % step or event.originator_id in snapshotted:
            continue
        aggregate = aggregates.get(event.originator_id)
        if aggregate is None:
            continue
        interval = intervals.get(type(aggregate))
        # The library's own lookup (Application.take_snapshot), typed as it declares it.
        snapshot_class: type[SnapshotProtocol[UUID]] | None = getattr(
            type(aggregate), "Snapshot", default_class
        )
        if interval is None or snapshot_class is None:
            continue
        if snapshot_due(event.originator_version, interval):
            snapshotted.add(event.originator_id)
            taken.append(snapshot_class.take(aggregate))
    return taken
