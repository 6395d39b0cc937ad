"""Which aggregates a save carried to a snapshot version, snapshotted from memory.

The library reads an aggregate back from the store at exactly its snapshot version
first; under group commit a batch often carries an encounter past it, and that read and
decode of the last snapshot plus its events was most of the writer's snapshot time
(bench/README.md). A snapshot at the saved version serves the same purpose: reading
starts from the newest snapshot at or below a version.

Under the writer (`skald serve`), a due snapshot is not taken inside the commit: the
writer hands a copy of the aggregate as saved (Encounter.__deepcopy__ shares its
records: the cost of the state beside them) to a `Snapshotter` thread, which takes,
encodes and stores it while the writer goes on (issue 39: a 10,000-action encounter's
snapshot took 413 ms of the writer's CPU, and every command of every campaign waited for
it). The snapshotter keeps each aggregate's records' JSON from its last snapshot
(`RecordsWritten`), so a snapshot encodes only the records added since.
"""

from __future__ import annotations

import copy
import gc
import logging
import math
import operator
import queue
import re
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, NoReturn
from uuid import UUID

import orjson
from eventsourcing.application import ProcessingEvent
from eventsourcing.domain import MutableOrImmutableAggregate, SnapshotProtocol
from eventsourcing.persistence import EventStore, StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder

from skald_campaign.application.postgres import is_postgres
from skald_campaign.domain.snapshots import JSONStateSnapshot, WritesJSON

log = logging.getLogger(__name__)
Aggregate = MutableOrImmutableAggregate[UUID]

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


def due_aggregates(
    processing_event: ProcessingEvent[UUID],
    intervals: Mapping[type, int],
    default_class: type[SnapshotProtocol[UUID]] | None,
) -> list[tuple[type[SnapshotProtocol[UUID]], Aggregate]]:
    """Each aggregate of the save that one of its events carried to a snapshot version
    (see `snapshot_due`), with its snapshot class."""
    # Every due version is a multiple of its type's interval, so of their common
    # divisor: one look at each event's version finds the few that may be due,
    # instead of matching every event against every aggregate of the batch.
    step = math.gcd(*intervals.values())
    aggregates = processing_event.aggregates
    due: list[tuple[type[SnapshotProtocol[UUID]], Aggregate]] = []
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
            due.append((snapshot_class, aggregate))
    return due


def due_snapshots(
    processing_event: ProcessingEvent[UUID],
    intervals: Mapping[type, int],
    default_class: type[SnapshotProtocol[UUID]] | None,
) -> list[SnapshotProtocol[UUID]]:
    """A snapshot of each aggregate of the save, as it is now, that one of its events
    carried to a snapshot version (see `snapshot_due`)."""
    return [cls.take(aggregate) for cls, aggregate in due_aggregates(
        processing_event, intervals, default_class
    )]  # fmt: skip


# The snapshot thread writes records in Python, holding the GIL: it hands the GIL on
# every this many records (about 0.2 ms), so a command on the writer waits that long for
# it at most, not the interpreter's switch interval (5 ms) at every turn.
YIELD_EVERY = 16


class RecordsWritten:
    """One aggregate's lists of records as its last snapshot wrote them: the records and
    each one's JSON. A list that starts with the same records (the records a copy of an
    encounter holds never change: domain/encounter/shared_records.py) reuses their JSON;
    a list that does not (a correction rewrote the actions) is written whole again.

    With ``apart`` (the snapshot thread's, when its store packs large states), a list
    whose JSON reaches `PACK_FROM` is kept as packed segments instead (`Segment`): the
    records added since the last snapshot are compressed once, on their own, and the
    snapshot's state holds a token for the list that `ListsApart.pack` replaces with
    every segment so far. A long encounter's snapshot then compresses and copies the
    actions added since its last one, not its whole history again (issue 39: at 10,000
    actions that was ~25 MB of JSON, ~2.5 KB a record, joined, copied into the state
    and compressed at every snapshot, beside the writer)."""

    def __init__(self, apart: ListsApart | None = None) -> None:
        self._apart = apart
        # Per list: its records, and either each one's JSON and their total length, or
        # (once that reached PACK_FROM under ``apart``) the packed segments of them all.
        self._last: dict[str, tuple[list[WritesJSON], list[bytes], int, list[Segment] | None]] = {}

    def __call__(self, key: str, records: Sequence[WritesJSON]) -> object:
        last, parts, size, segments = self._last.get(key, ([], [], 0, None))
        kept = len(last)
        if kept > len(records) or not all(map(operator.is_, last, records)):
            kept, parts, size, segments = 0, [], 0, None
        new: list[bytes] = []
        for n, record in enumerate(records[kept:], 1):
            if n % YIELD_EVERY == 0:
                time.sleep(0)  # the writer, waiting for the GIL, gets it now, not in 5 ms
            part = record_json(record.as_json())
            if part is None:  # something to wrap: the transcoder's own way, unkept
                self._last.pop(key, None)
                return [r.as_json() for r in records]
            new.append(part)
            size += len(part)
        apart = self._apart
        if segments is None:
            parts = [*parts[:kept], *new]
            if apart is None or size < PACK_FROM:
                self._last[key] = (list(records), parts, size, None)
                return record_list_json(parts)
            segments, new = [], parts  # from here on packed, its records' JSON let go
        if apart is None:  # (segments are kept under ``apart`` only)
            raise AssertionError("a list packed apart without its ListsApart")
        if new:
            segments = [*segments, Segment.of(new, first=not segments)]
        self._last[key] = (list(records), [], size, segments)
        return orjson.Fragment(b"[" + apart.token(segments) + b"]")


class Segment:
    """Part of a packed snapshot's state: its JSON compressed on its own (raw deflate, to
    a byte boundary, no reference to what comes before it), with that JSON's length and
    Adler-32, so segments written at different times join into one zlib stream."""

    __slots__ = ("adler", "data", "size")

    def __init__(self, data: bytes, size: int, adler: int) -> None:
        self.data, self.size, self.adler = data, size, adler

    @classmethod
    def compress(cls, raw: bytes, final: bool = False) -> Segment:
        packer = zlib.compressobj(1, zlib.DEFLATED, -zlib.MAX_WBITS)
        data = packer.compress(raw) + packer.flush(zlib.Z_FINISH if final else zlib.Z_SYNC_FLUSH)
        return cls(data, len(raw), zlib.adler32(raw))

    @classmethod
    def of(cls, parts: list[bytes], first: bool) -> Segment:
        """The records' JSON ``parts`` as they stand within their list (a comma before
        them unless they are its ``first``)."""
        return cls.compress((b"" if first else b",") + b",".join(parts))


_ADLER_BASE = 65521


def adler32_combine(adler1: int, adler2: int, length2: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's and the
    second's length (zlib's adler32_combine, which Python does not offer)."""
    rem = length2 % _ADLER_BASE
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (adler2 & 0xFFFF) + _ADLER_BASE - 1
    sum2 += ((adler1 >> 16) & 0xFFFF) + ((adler2 >> 16) & 0xFFFF) + _ADLER_BASE - rem
    return (sum1 % _ADLER_BASE) | ((sum2 % _ADLER_BASE) << 16)


# A list's token in a snapshot's JSON: never in JSON that orjson wrote (it escapes every
# control character within strings), so found only where a list was set aside.
_TOKEN = re.compile(rb"\x00(\d+)\x00")
# zlib's header at level 1 (what zlib.compress(data, 1) writes).
_ZLIB_HEADER = b"\x78\x01"


class ListsApart:
    """The packed lists of the snapshots the snapshot thread is taking, by token, until
    `packed_snapshot` puts their segments in place (`pack`)."""

    def __init__(self) -> None:
        self._held: dict[int, list[Segment]] = {}
        self._next = 0

    def token(self, segments: list[Segment]) -> bytes:
        self._next += 1
        self._held[self._next] = segments
        return b"\x00%d\x00" % self._next

    def holds(self, state: bytes) -> bool:
        return bool(self._held) and b"\x00" in state

    def pack(self, state: bytes) -> bytes:
        """``state`` (JSON with tokens) as one zlib stream of its JSON with each token's
        list in place: the same bytes, once decompressed, as the state written whole."""
        pieces = _TOKEN.split(state)
        out, adler = [_ZLIB_HEADER], 1
        for n, piece in enumerate(pieces):
            if n % 2:
                for segment in self._held.pop(int(piece)):
                    out.append(segment.data)
                    adler = adler32_combine(adler, segment.adler, segment.size)
            else:
                out.append(Segment.compress(piece, final=n == len(pieces) - 1).data)
                adler = zlib.adler32(piece, adler)
        out.append(adler.to_bytes(4, "big"))
        return b"".join(out)

    def clear(self) -> None:
        self._held.clear()


# As skald_campaign/transcoder.py writes a snapshot's records unchecked (its
# `_as_plain_json`): the same options, so a record's JSON here is the very bytes it has
# within the list there (tests/unit/test_snapshots_apart.py compares them).
_JSON_KINDS = frozenset((str, int, float, bool, type(None), dict, list))
_PLAIN_JSON = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
)
PACK_FROM = 64 * 1024  # a smaller snapshot state is stored as it is


def _refuse(obj: object) -> NoReturn:
    raise TypeError(type(obj))


def record_json(value: object) -> bytes | None:
    """A record's JSON (its ``as_json``) as the transcoder writes it within a list at a
    snapshot's `json_state` key (unchecked, as there); None if it holds something to wrap."""
    if type(value) not in _JSON_KINDS:
        return None
    try:
        return orjson.dumps(value, default=_refuse, option=_PLAIN_JSON)
    except TypeError:
        return None


def record_list_json(parts: list[bytes]) -> orjson.Fragment:
    """The JSON list of the records whose JSON ``parts`` are: the transcoder writes it as
    it is at a `json_state` key, and its bytes are those of the list of the records' JSON."""
    return orjson.Fragment(b"[" + b",".join(parts) + b"]")


def packed_snapshot(stored: StoredEvent, apart: ListsApart | None = None) -> StoredEvent:
    """A snapshot's stored event with its state compressed (zlib, level 1) when it is
    large: a long encounter's state is megabytes of much-repeated JSON (12 MB at 10,000
    actions) and storing it was most of its snapshot's cost. zlib works without the GIL;
    the mapper reads packed and plain states alike (skald_campaign/transcoder.py's
    PACKED: every snapshot stored before is plain). With ``apart``, the lists it set
    aside are put in place from their packed segments (`ListsApart.pack`): one zlib
    stream all the same, which any reader decompresses as it does the others."""
    state = stored.state
    if apart is not None and apart.holds(state):
        packed = apart.pack(state)
    elif len(state) < PACK_FROM:
        return stored
    else:
        packed = zlib.compress(state, 1)
    return StoredEvent(
        originator_id=stored.originator_id,
        originator_version=stored.originator_version,
        topic=stored.topic,
        state=packed,
    )


def packs(store: EventStore[UUID]) -> bool:
    """Does `snapshot_put` pack large states itself (not the library's compressor or
    cipher)? Then the snapshot thread may set lists apart (`ListsApart`)."""
    return store.mapper.compressor is None and store.mapper.cipher is None


def snapshot_put(
    store: EventStore[UUID],
    apart: ListsApart | None = None,
    writing: Callable[[], AbstractContextManager[Any]] | None = None,
) -> Callable[[list[SnapshotProtocol[UUID]]], object]:
    """How the snapshotter stores snapshots: each large state compressed
    (`packed_snapshot`: a long encounter's 12 MB of JSON took 72 ms of CPU to insert into
    SQLite, holding the store's write lock, so the writer's next commit waited), and on
    PostgreSQL by one plain INSERT a snapshot, its state sent as binary: the library's
    insert (an array of a composite type, in text) escapes every byte of the state
    through a regular expression (643 ms of CPU for the same 12 MB)."""
    recorder = store.recorder
    if not packs(store):
        return store.put  # its states are the library's to compress or encrypt
    if isinstance(recorder, SQLiteAggregateRecorder) and writing is not None:
        # The served SQLite store: written through the connection, and under the lock, of
        # the commands' commits (``writing``, workers/sqlite_writing.py), in the library's
        # insert of the snapshots' table.
        def put_written(snapshots: list[SnapshotProtocol[UUID]]) -> None:
            stored = [packed_snapshot(store.mapper.to_stored_event(s), apart) for s in snapshots]
            with writing() as cursor:
                recorder._insert_events(cursor, stored)

        return put_written
    if not is_postgres(recorder):

        def put_any(snapshots: list[SnapshotProtocol[UUID]]) -> None:
            recorder.insert_events(
                [packed_snapshot(store.mapper.to_stored_event(s), apart) for s in snapshots]
            )

        return put_any
    from skald_campaign.application.postgres_store import snapshot_insert

    insert, connect = snapshot_insert(recorder)

    def put(snapshots: list[SnapshotProtocol[UUID]]) -> None:
        stored = [packed_snapshot(store.mapper.to_stored_event(s), apart) for s in snapshots]
        with connect() as connection:
            for row in stored:
                connection.execute(
                    insert, (row.originator_id, row.originator_version, row.topic, row.state)
                )

    return put


class _Collector:
    """This process's policy for what a stored snapshot leaves (`freeze_snapshotted`)."""

    freeze_snapshotted = False


def freeze_snapshotted(on: bool) -> None:
    """Whether this process freezes what lives once a snapshot is stored
    (`keep_snapshotted_out_of_collections`): on in `skald serve`, with its start-up freeze
    (cli.keep_out_of_collections), off elsewhere. A switch, not a look at whether the
    process froze anything: gc.get_freeze_count() counts the frozen objects one by one,
    70-150 ms holding the GIL at a million of them (measured beside the long encounter)."""
    _Collector.freeze_snapshotted = on


def freezes_snapshotted() -> bool:
    return _Collector.freeze_snapshotted


def keep_snapshotted_out_of_collections() -> None:
    """In a process that keeps its long-lived heap out of the cyclic collector's sight
    (`skald serve`: cli.keep_out_of_collections freezes what start-up built), freeze
    what lives now, once a snapshot is stored: an encounter's action records (~50 objects
    the collector tracks each) live as long as the process, and every full collection
    walked all of them, holding the GIL: every thread stopped, the writer among them,
    mid-commit (issue 39: beside an 11,000-action encounter, a full collection took 0.7
    s of CPU at load 6 and a command of another campaign waited up to 2 s, PostgreSQL
    idle meanwhile; bench/README.md, "pgstall lane"). A full collection then walks what
    was allocated since the last snapshot, not every encounter's history.
    Frozen objects are still freed when nothing refers to them; what a freeze keeps for
    good is cyclic garbage caught in the old generations at that moment (bench/README.md
    gives how much). Elsewhere (the test suite, a CLI command) nothing is frozen."""
    if not _Collector.freeze_snapshotted:
        return
    # The youngest generation's cyclic garbage (this command's, a refusal's traceback) is
    # collected first, not frozen: a walk of at most one young generation.
    gc.collect(0)
    gc.freeze()


class Snapshotter:
    """A thread that takes, encodes and stores the snapshots the writer hands it, each of
    a copy of an aggregate as saved, in the order handed. A snapshot is a shortcut for
    reading: one lost with the process is taken again at the next due version."""

    # The aggregates whose records' JSON is kept (each the size of its last snapshot):
    # the most recently snapshotted.
    KEPT = 64

    def __init__(
        self,
        put: Callable[[list[SnapshotProtocol[UUID]]], object],
        apart: ListsApart | None = None,
    ) -> None:
        """``put`` stores what ``_take`` took; with ``apart`` (the one ``put`` packs
        with, `snapshot_put`), a long list of records is set aside packed."""
        self._put = put
        self._apart = apart
        self._queue: queue.Queue[list[tuple[type[SnapshotProtocol[UUID]], Aggregate]] | None]
        self._queue = queue.Queue()
        self._written: OrderedDict[UUID, RecordsWritten] = OrderedDict()
        self._thread = threading.Thread(target=self._run, name="skald-snapshots", daemon=True)
        self._thread.start()

    def hand(self, due: list[tuple[type[SnapshotProtocol[UUID]], Aggregate]]) -> None:
        """Called by the writer after its commit: the aggregates are copied here, as
        saved (the writer goes on changing its own)."""
        self._queue.put([(cls, copy.deepcopy(aggregate)) for cls, aggregate in due])

    def flush(self) -> None:
        """Return once every snapshot handed so far is stored (or failed)."""
        self._queue.join()

    def close(self) -> None:
        """Store what was handed, then stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            due = self._queue.get()
            try:
                if due is None:
                    return
                self._put([self._take(cls, aggregate) for cls, aggregate in due])
                keep_snapshotted_out_of_collections()
            except Exception:  # a snapshot is a shortcut: reads replay the events instead
                log.exception("a snapshot could not be taken or stored")
            finally:
                if self._apart is not None:
                    self._apart.clear()  # what a failed take set aside, not stored
                self._queue.task_done()

    def _take(
        self, cls: type[SnapshotProtocol[UUID]], aggregate: Aggregate
    ) -> SnapshotProtocol[UUID]:
        if not issubclass(cls, JSONStateSnapshot):
            plain: SnapshotProtocol[UUID] = cls.take(aggregate)
            return plain
        written = self._written.pop(aggregate.id, None) or RecordsWritten(self._apart)
        self._written[aggregate.id] = written
        while len(self._written) > self.KEPT:
            self._written.popitem(last=False)
        taken: SnapshotProtocol[UUID] = cls.take(aggregate, written)
        return taken
