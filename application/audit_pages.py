"""Audit and history pages read in O(page), not O(history).

An aggregate's events are numbered 1, 2, ... without gaps and never change, so:

- an unfiltered page is the events ``offset + 1 .. offset + limit``, read by version
  range, and its total is the aggregate's last version (one query that decodes nothing);
- a filtered page (``kind``, ``character``) reads its versions from an index of what
  each event is filtered on (``Facets``), kept in memory per aggregate and extended
  with the events recorded since it was last read (none, on a steady read); each
  filter's matching versions are kept too, extended the same way. Only the page's own
  events are read back from the store.

The index is a read model of immutable facts, so it needs no invalidation: a process
that has not seen an aggregate yet reads its events once, then only the new ones. The
aggregate's first event (which says what it is, its campaign and its day) is kept with it,
and so are the bytes of each entry the API has sent (``page_json``, from the stored JSON:
application/audit_entries.py), within a budget: a page read again reads no event at all.

An unfiltered page's one query, the aggregate's newest version, is not asked again while
nothing can have changed it (``kept_page_json``, issue 39): the version is kept with a
mark (``VersionMarks``) of what would move if anything were written, this process's saves
of the aggregate and the store's position, and stands while the mark is the same. This
process's own writes move the mark at once; another process's within the store
position's freshness (application/store_position.py, 0.1 s), as they reach the views' lag.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, TypedDict
from uuid import UUID

from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import EventStore, StoredEvent

from skald_campaign.application.audit_entries import entry_of, page_json, render
from skald_campaign.application.history import Filed, event_record, recorded
from skald_campaign.domain.errors import NotFound
from skald_campaign.domain.events import CampaignCreated, EncounterStarted
from skald_campaign.domain.records import JSON

AGGREGATES_KEPT = 512  # aggregates whose index a process keeps (least recently read go)
FILTERS_KEPT = 32  # filters per aggregate whose versions are kept
RUN_GAP = 8  # page versions this close together are read in one range query
# The bytes of rendered entries a process keeps (~1 KB an action's entry): the pages
# of a few dozen long encounters.
RENDERED_KEPT = 64 * 1024 * 1024


# What would move if the aggregate were written: this process's saves of it and the
# store's position (its last notification id).
Mark = tuple[int, int]


class VersionMarks(Protocol):
    def now(self, aggregate_id: UUID) -> Mark:
        """The mark as it stands (the store's position may be asked of the store)."""

    def fresh(self, aggregate_id: UUID) -> Mark | None:
        """The mark from memory, None when the store's position is not known fresh."""


class Page(TypedDict):
    """One page of an audit trail (api/schemas.py AuditPage)."""

    total: int
    offset: int
    limit: int
    entries: list[dict[str, JSON]]


class Facets(NamedTuple):
    """What one event is filtered on: ``application.history.mentions`` and
    ``action_kind`` worked out once, with the same answers for every character id."""

    kinds: tuple[str, str]  # its action or correction kind, and its event name
    named: frozenset[str]  # ids it names as actor, parameter, key, member or character_id
    within: tuple[str, ...]  # strings it checks ``id in text`` against (a str 'tracks')

    def keeps(self, kind: str | None, character: str | None) -> bool:
        if kind is not None and kind not in self.kinds:
            return False
        if character is None:
            return True
        return character in self.named or any(character in text for text in self.within)


def facets_of(entry: Mapping[str, JSON]) -> Facets:
    named: set[str] = set()
    within: list[str] = []
    for single in (entry.get("actor"), entry.get("character_id")):
        if isinstance(single, str):
            named.add(single)
    params = entry.get("params")
    if isinstance(params, Mapping):
        named.update(v for v in params.values() if isinstance(v, str))
    for key in ("tracks", "state", "combatants"):
        values = entry.get(key)
        if isinstance(values, str):
            within.append(values)
        elif isinstance(values, Mapping | Sequence):
            named.update(v for v in values if isinstance(v, str))
    filed = Filed.from_json(entry)
    return Facets((filed.action_kind, filed.event), frozenset(named), tuple(within))


@dataclass
class Filtered:
    """The versions one filter keeps, up to version ``upto``."""

    upto: int = 0
    versions: list[int] = field(default_factory=list)


@dataclass
class Index:
    """One aggregate's read model: its first event, every event's facets, and the bytes
    of the entries rendered so far (application/audit_entries.py), by version."""

    first: DomainEventProtocol[UUID]
    facets: list[Facets] = field(default_factory=list)  # facets[v - 1]: version v's
    filters: OrderedDict[tuple[str | None, str | None], Filtered] = field(
        default_factory=OrderedDict
    )
    lock: threading.Lock = field(default_factory=threading.Lock)
    rendered: dict[int, bytes] = field(default_factory=dict)
    rendered_size: int = 0  # the bytes in ``rendered``
    # The newest version last read from the store, and the mark taken before that read.
    newest: tuple[Mark, int] | None = None

    @property
    def day(self) -> int | None:
        """The day an encounter's entries show where they name none (its first event's);
        None for a campaign's."""
        if not isinstance(self.first, EncounterStarted):
            return None
        day = getattr(self.first, "day", 0)
        return day if isinstance(day, int) else 0

    def kept(self, kind: str | None, character: str | None) -> list[int]:
        """The versions the filter keeps, over every event indexed so far."""
        found = self.filters.pop((kind, character), None) or Filtered()
        for version in range(found.upto + 1, len(self.facets) + 1):
            if self.facets[version - 1].keeps(kind, character):
                found.versions.append(version)
        found.upto = len(self.facets)
        self.filters[(kind, character)] = found  # most recently used last
        while len(self.filters) > FILTERS_KEPT:
            self.filters.popitem(last=False)
        return found.versions


def runs(versions: Sequence[int]) -> Iterator[tuple[int, int]]:
    """Sorted versions as (first, last) ranges, close ones read together."""
    start = end = -1
    for version in versions:
        if start < 0:
            start = end = version
        elif version - end <= RUN_GAP:
            end = version
        else:
            yield start, end
            start = end = version
    if start >= 0:
        yield start, end


class AuditPages:
    """Pages of one store's audit trails, with the index each process keeps."""

    def __init__(
        self,
        events: EventStore[UUID],
        rendered_kept: int = RENDERED_KEPT,
        marks: VersionMarks | None = None,
    ) -> None:
        self.events = events
        self.rendered_kept = rendered_kept
        self.marks = marks
        self._rendered_size = 0  # over every index
        self._indexes: OrderedDict[UUID, Index] = OrderedDict()
        self._lock = threading.Lock()

    # -- what the aggregate is ----------------------------------------------------------

    def _index(self, aggregate_id: UUID) -> Index | None:
        with self._lock:
            index = self._indexes.get(aggregate_id)
            if index is not None:
                self._indexes.move_to_end(aggregate_id)
                return index
        first = list(self.events.get(aggregate_id, lte=1))
        if not first:
            return None
        with self._lock:
            index = self._indexes.setdefault(aggregate_id, Index(first[0]))
            while len(self._indexes) > AGGREGATES_KEPT:
                _, dropped = self._indexes.popitem(last=False)
                self._rendered_size -= dropped.rendered_size
        return index

    def encounter_index(self, campaign_id: UUID, encounter_id: UUID) -> tuple[Index, int]:
        """The encounter's index and its day; NotFound as ``Store.encounter`` says it."""
        index = self._index(encounter_id)
        if index is None or not isinstance(index.first, EncounterStarted):
            raise NotFound(f"no encounter with id {encounter_id}")
        if getattr(index.first, "campaign_id", None) != campaign_id:
            raise NotFound(f"encounter {encounter_id} does not belong to campaign {campaign_id}")
        return index, index.day or 0

    def campaign_index(self, campaign_id: UUID) -> Index:
        index = self._index(campaign_id)
        if index is None or not isinstance(index.first, CampaignCreated):
            raise NotFound(f"no campaign with id {campaign_id}")
        return index

    def kept_encounter_index(self, campaign_id: UUID, encounter_id: UUID) -> Index | None:
        """The encounter's index if this process has it (no store read), else None; None
        too where `encounter_index` would refuse."""
        index = self._kept(encounter_id)
        if index is None or not isinstance(index.first, EncounterStarted):
            return None
        return index if getattr(index.first, "campaign_id", None) == campaign_id else None

    def kept_campaign_index(self, campaign_id: UUID) -> Index | None:
        index = self._kept(campaign_id)
        return index if index is not None and isinstance(index.first, CampaignCreated) else None

    def _kept(self, aggregate_id: UUID) -> Index | None:
        with self._lock:
            index = self._indexes.get(aggregate_id)
            if index is not None:
                self._indexes.move_to_end(aggregate_id)
            return index

    # -- pages --------------------------------------------------------------------------

    def last_version(self, aggregate_id: UUID) -> int:
        """The aggregate's newest version: one row read, nothing decoded."""
        newest = self.events.recorder.select_events(aggregate_id, desc=True, limit=1)
        return newest[0].originator_version if newest else 0

    def page(
        self,
        index: Index,
        kind: str | None,
        character: str | None,
        offset: int,
        limit: int,
        day: int | None = None,
    ) -> Page:
        """One page of the aggregate's trail, filtered by kind and the character it
        concerns, as records of its domain events."""
        total, wanted = self._select(index, kind, character, offset, limit)
        aggregate_id = recorded(index.first).originator_id
        return {
            "total": total,
            "offset": offset,
            "limit": limit,
            "entries": [entry_of(event_record(e), day) for e in self._read(aggregate_id, wanted)],
        }

    def page_json(
        self, index: Index, kind: str | None, character: str | None, offset: int, limit: int
    ) -> bytes:
        """The same page as the answer's model writes it (its day: the index's), from
        the entries' kept bytes; only the entries not rendered yet are read."""
        total, wanted = self._select(index, kind, character, offset, limit)
        found: dict[int, bytes] = {}
        for version in wanted:
            data = index.rendered.get(version)
            if data is not None:
                found[version] = data
        missing = [version for version in wanted if version not in found]
        aggregate_id = recorded(index.first).originator_id
        for stored in self._read_stored(aggregate_id, missing):
            _, data = render(stored, self.events.mapper, index.day)
            found[stored.originator_version] = data
            self._keep(index, stored.originator_version, data)
        return page_json(total, offset, limit, [found[v] for v in wanted if v in found])

    def kept_page_json(
        self, index: Index, aggregate_id: UUID, offset: int, limit: int
    ) -> bytes | None:
        """``page_json`` of an unfiltered page from memory alone: None when anything would
        be read from the store (the newest version not known to stand, an entry not
        rendered yet). Asks nothing that waits: for a caller on the event loop."""
        newest = index.newest
        if newest is None or self.marks is None:
            return None
        mark, last = newest
        if self.marks.fresh(aggregate_id) != mark:
            return None
        rendered = index.rendered
        entries = []
        for version in range(offset + 1, min(offset + limit, last) + 1):
            data = rendered.get(version)
            if data is None:
                return None
            entries.append(data)
        return page_json(last, offset, limit, entries)

    def _newest(self, index: Index, aggregate_id: UUID) -> int:
        """The aggregate's newest version, read from the store, and kept with the mark
        taken before the read (a write meanwhile moved it: the version then goes unused)."""
        mark = None if self.marks is None else self.marks.now(aggregate_id)
        last = self.last_version(aggregate_id)
        if mark is not None:
            index.newest = (mark, last)
        return last

    def _select(
        self, index: Index, kind: str | None, character: str | None, offset: int, limit: int
    ) -> tuple[int, list[int]]:
        """The filtered trail's length and the versions of its page."""
        aggregate_id = recorded(index.first).originator_id
        last = self._newest(index, aggregate_id)
        if kind is None and character is None:
            return last, list(range(offset + 1, min(offset + limit, last) + 1))
        with index.lock:
            self._extend(index, aggregate_id, last)
            kept = index.kept(kind, character)
            return len(kept), kept[offset : offset + limit]

    def _extend(self, index: Index, aggregate_id: UUID, last: int) -> None:
        """Index the events recorded since the index was last extended (their entries'
        bytes kept while they are at hand)."""
        indexed = len(index.facets)
        if indexed >= last:
            return
        for stored in self.events.recorder.select_events(aggregate_id, gt=indexed, lte=last):
            entry, data = render(stored, self.events.mapper, index.day)
            index.facets.append(facets_of(entry))
            self._keep(index, stored.originator_version, data)

    def _keep(self, index: Index, version: int, data: bytes) -> None:
        """Keep an entry's bytes, within the process's budget: the least recently read
        aggregates' entries go first; an aggregate over the budget alone keeps no more."""
        with self._lock:
            if version in index.rendered or index.rendered_size + len(data) > self.rendered_kept:
                return
            index.rendered[version] = data
            index.rendered_size += len(data)
            self._rendered_size += len(data)
            for other in self._indexes.values():  # least recently read first
                if self._rendered_size <= self.rendered_kept:
                    break
                if other is not index:
                    self._rendered_size -= other.rendered_size
                    other.rendered, other.rendered_size = {}, 0

    def _read_stored(self, aggregate_id: UUID, versions: list[int]) -> list[StoredEvent]:
        wanted = set(versions)
        recorder = self.events.recorder
        found: list[StoredEvent] = []
        for first, last in runs(versions):
            found += [
                e
                for e in recorder.select_events(aggregate_id, gt=first - 1, lte=last)
                if e.originator_version in wanted
            ]
        return found

    def _read(self, aggregate_id: UUID, versions: list[int]) -> list[DomainEventProtocol[UUID]]:
        mapper = self.events.mapper
        return [mapper.to_domain_event(e) for e in self._read_stored(aggregate_id, versions)]
