"""Export and import of stored events: backups, and moving a campaign between stores.

The file is JSON Lines: a header line, one line per stored event in the order the
store recorded them, and a closing line with the count (a file without it was cut
short and is refused). Since format version 2 the header and every event line carry
the SHA-256 of their own canonical JSON (``sha256``: the line without that key, keys
sorted, as orjson writes it), and the closing line the SHA-256 of the event lines'
digests in order (``file_sha256``: two exports of the same events close alike), so
a line damaged on a disk or in a transfer is refused by its number, and a line lost,
added or moved by the file's. A digest proves no origin: whoever edits a line on
purpose can compute its digest again (docs/operations.md). Version 1 files, written
before, are still read, with a warning that they cannot be checked so.

Each event keeps its aggregate id, version, topic and state; the state is the
transcoded event (its timestamp included) as stored before any compression or
encryption the store applies, kept byte for byte as a string, so time travel, the
audit trail and idempotency records read the same after a move. Snapshots are not
exported: aggregates replay from their events.

Export reads the store through its recorder in batches up to the last event
recorded when it began, so it can run beside a live server and writes a
consistent cut. Import first decodes and replays every aggregate of the file
(skald_campaign/replay_check.py), so a damaged file is refused before anything is written;
then it is one ``insert_events`` call, hence one transaction: all or nothing, and
an aggregate already in the store refuses the whole file.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO
from uuid import UUID

import orjson
from eventsourcing.persistence import (
    ApplicationRecorder,
    IntegrityError,
    Mapper,
    Notification,
    StoredEvent,
)
from eventsourcing.utils import get_topic

from skald_campaign.domain.bestiary import CampaignBestiary
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.idempotency import IdempotentRequest
from skald_campaign.replay_check import ReplayError, check_replays

FORMAT = "skald-events"
VERSION = 2  # 2: digests (sha256 per line, file_sha256 at the end); 1 had none
READABLE = (1, VERSION)
DIGEST = "sha256"  # a line's own digest
FILE_DIGEST = "file_sha256"  # the closing line's: of every event line's digest, in order
BATCH = 1000
Progress = Callable[[int, int], None]  # (done, total)
Warn = Callable[[str], None]
ENCOUNTER_STARTED = get_topic(Encounter.Started)
REQUEST_RECORDED = get_topic(IdempotentRequest.Recorded)  # type: ignore[attr-defined]


class ExchangeError(RuntimeError):
    """A file that cannot be imported, or an import the store refuses; nothing was written."""


@dataclass(frozen=True)
class Report:
    events: int
    aggregates: int
    seconds: float


def plain_state(mapper: Mapper[UUID], stored: bytes) -> bytes:
    """The transcoded state, without the store's own encryption and compression."""
    if mapper.cipher:
        stored = mapper.cipher.decrypt(stored)
    if mapper.compressor:
        stored = mapper.compressor.decompress(stored)
    return stored


def stored_state(mapper: Mapper[UUID], plain: bytes) -> bytes:
    if mapper.compressor:
        plain = mapper.compressor.compress(plain)
    if mapper.cipher:
        plain = mapper.cipher.encrypt(plain)
    return plain


class CampaignScope:
    """What one campaign needs: its own events, its bestiary's (an aggregate whose id
    derives from the campaign's), those of every encounter it started (learnt from
    Encounter.Started as the log goes by), and the idempotency records of requests
    whose subject is one of them (saved in the same transaction as, so after, the
    subject's event). Its webhooks stay behind: they hold the secrets they sign with."""

    def __init__(self, campaign_id: UUID, mapper: Mapper[UUID]) -> None:
        self.ids: set[UUID | str] = {campaign_id, CampaignBestiary.create_id(campaign_id)}
        self.campaign_id = campaign_id
        self.mapper = mapper

    def wants(self, notification: Notification) -> bool:
        if notification.originator_id in self.ids:
            return True
        # The library builds these event classes from the aggregates' methods, so their
        # fields are read by name: object, compared as such.
        if notification.topic == ENCOUNTER_STARTED:
            event = self.mapper.to_domain_event(notification)
            campaign_id: object = getattr(event, "campaign_id", None)
            if campaign_id == self.campaign_id:
                self.ids.add(notification.originator_id)
                return True
        elif notification.topic == REQUEST_RECORDED:
            record = self.mapper.to_domain_event(notification)
            subject_id: object = getattr(record, "subject_id", None)
            return subject_id in self.ids
        return False


def export_events(
    recorder: ApplicationRecorder,
    mapper: Mapper[UUID],
    path: Path,
    campaign_id: UUID | None = None,
    progress: Progress | None = None,
) -> Report:
    """Write the store's events (or one campaign's) to ``path``, via a temporary file
    renamed into place at the end, so an interrupted export leaves no partial backup."""
    started = time.perf_counter()
    stop = recorder.max_notification_id() or 0
    scope = CampaignScope(campaign_id, mapper) if campaign_id is not None else None
    header = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.now(UTC).isoformat(),
        "campaign": str(campaign_id) if campaign_id is not None else None,
        "store_position": stop,
    }
    partial = path.with_name(f".{path.name}.partial")
    count, aggregates = 0, set()
    lines = FileDigest()
    try:
        with partial.open("wb") as out:
            out.write(lines.signed(header, counted=False))
            position = 0
            while position < stop:
                batch = recorder.select_notifications(
                    start=position, limit=BATCH, stop=stop, inclusive_of_start=False
                )
                if not batch:
                    break
                for notification in batch:
                    if scope is not None and not scope.wants(notification):
                        continue
                    out.write(lines.signed(line_of(notification, mapper)))
                    aggregates.add(notification.originator_id)
                    count += 1
                position = batch[-1].id
                if progress:
                    progress(position, stop)
            closing = {"end": True, "events": count, FILE_DIGEST: lines.hexdigest()}
            out.write(orjson.dumps(closing) + b"\n")
            out.flush()
            os.fsync(out.fileno())
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
    return Report(count, len(aggregates), time.perf_counter() - started)


def line_digest(line: dict[str, object]) -> str:
    """The SHA-256 of a line's canonical JSON: its keys sorted, its digest left out."""
    canonical = orjson.dumps(
        {k: v for k, v in line.items() if k != DIGEST}, option=orjson.OPT_SORT_KEYS
    )
    return hashlib.sha256(canonical).hexdigest()


class FileDigest:
    """The digest of a file's event lines: of each one's digest, in the file's order.
    The header has a digest of its own and is not counted: it says when the file was
    written, and the same events exported twice close with the same line."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()

    def signed(self, line: dict[str, object], counted: bool = True) -> bytes:
        """The line as written, its digest added (and counted into the file's)."""
        digest = line_digest(line)
        if counted:
            self._hash.update(digest.encode())
        return orjson.dumps({**line, DIGEST: digest}) + b"\n"

    def check(self, line: dict[str, object], number: int, counted: bool = True) -> None:
        """Refuse a line read back whose digest is not its own; count it in."""
        digest = line_digest(line)
        if line.get(DIGEST) != digest:
            what = "does not match its digest" if DIGEST in line else "carries no digest"
            raise ExchangeError(
                f"line {number} {what} ({DIGEST}): the file was damaged after it was "
                "exported; nothing was imported"
            )
        if counted:
            self._hash.update(digest.encode())

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def line_of(notification: Notification, mapper: Mapper[UUID]) -> dict[str, object]:
    state = plain_state(mapper, notification.state)
    return {
        "originator_id": str(notification.originator_id),
        "originator_version": notification.originator_version,
        "topic": notification.topic,
        "state": state.decode(),  # the transcoder writes UTF-8 JSON
    }


UNCHECKED = (
    "this export is format version 1, written before exports carried digests: damage "
    "to it cannot be detected, only events that cannot be read or applied are refused"
)


def read_events(
    file: IO[bytes],
    mapper: Mapper[UUID],
    progress: Progress | None = None,
    size: int = 0,
    warn: Warn | None = None,
) -> Iterator[StoredEvent]:
    """The file's events as the target store will hold them, checked line by line: a
    known format, every line's digest, each aggregate's versions 1, 2, 3... in order,
    and the closing count and file digest. A version 1 file (no digests) is read with
    a warning (``warn``) that it cannot be checked so."""
    header = parse(file.readline(), 1)
    if header.get("format") != FORMAT:
        raise ExchangeError("this is not a Skald export (its first line names no skald-events)")
    if header.get("version") not in READABLE:
        raise ExchangeError(
            f"this export is format version {header.get('version')}; this Skald reads "
            f"versions {' and '.join(map(str, READABLE))}: import it with a newer Skald"
        )
    # A header that says version 1 yet carries a digest was written with digests and
    # damaged since (its version changed): checked, it says so, not read unchecked.
    digests = FileDigest() if header["version"] != 1 or DIGEST in header else None
    if digests is not None:
        digests.check(header, 1, counted=False)
    elif warn is not None:
        warn(UNCHECKED)
    versions: dict[UUID | str, int] = {}
    count, done = 0, 0
    for number, raw in enumerate(file, start=2):
        done += len(raw)
        line = parse(raw, number)
        if line.get("end") is True:
            if line.get("events") != count:
                raise ExchangeError(
                    f"the file says it holds {line.get('events')} events but has {count}"
                )
            if digests is not None and line.get(FILE_DIGEST) != digests.hexdigest():
                raise ExchangeError(
                    f"line {number}: the file's digest ({FILE_DIGEST}) does not match its "
                    "lines: lines were lost, added or moved after it was exported; "
                    "nothing was imported"
                )
            if file.readline():
                raise ExchangeError(f"line {number + 1}: nothing may follow the closing line")
            return
        if digests is not None:
            digests.check(line, number)
        event = stored_event(line, number, mapper)
        expected = versions.get(event.originator_id, 0) + 1
        if event.originator_version != expected:
            raise ExchangeError(
                f"line {number}: aggregate {event.originator_id} has version "
                f"{event.originator_version} where {expected} was expected"
            )
        versions[event.originator_id] = expected
        count += 1  # noqa: SIM113 (events, not lines: the closing line is not one)
        if progress and count % BATCH == 0:
            progress(done, size)
        yield event
    raise ExchangeError(
        "the file ends without its closing line: it was cut short (an interrupted copy?)"
    )


def parse(raw: bytes, number: int) -> dict[str, object]:
    try:
        value: object = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ExchangeError(f"line {number} is not JSON") from None
    if not isinstance(value, dict):
        raise ExchangeError(f"line {number} is not a JSON object")
    return value


def stored_event(line: dict[str, object], number: int, mapper: Mapper[UUID]) -> StoredEvent:
    try:
        raw_id = line["originator_id"]
        if not isinstance(raw_id, str):
            raise TypeError(raw_id)
        originator_id = UUID(raw_id)
        version, topic, state = line["originator_version"], line["topic"], line["state"]
    except (KeyError, TypeError, ValueError):
        raise ExchangeError(
            f"line {number} is not an event (originator_id, originator_version, topic, state)"
        ) from None
    if type(version) is not int or not isinstance(topic, str) or not isinstance(state, str):
        raise ExchangeError(f"line {number}: version, topic or state has the wrong type")
    return StoredEvent(originator_id, version, topic, stored_state(mapper, state.encode()))


def import_events(
    recorder: ApplicationRecorder,
    mapper: Mapper[UUID],
    path: Path,
    progress: Progress | None = None,
    warn: Warn | None = None,
) -> Report:
    started = time.perf_counter()
    size = path.stat().st_size
    with path.open("rb") as file:
        events = list(read_events(file, mapper, progress, size, warn))
    if progress:
        progress(size, size)
    try:
        check_replays(events, mapper)  # before anything is written
    except ReplayError as error:
        raise ExchangeError(f"{error}; nothing was imported") from None
    aggregates = {e.originator_id for e in events}
    try:
        recorder.insert_events(events)  # one transaction: every event or none
    except IntegrityError:
        present = [a for a in aggregates if recorder.select_events(a, limit=1)]
        raise ExchangeError(
            f"the store already holds {len(present)} of the file's {len(aggregates)} "
            f"aggregates (e.g. {', '.join(str(a) for a in sorted(present, key=str)[:3])}); "
            "nothing was imported: import into a store without them"
        ) from None
    return Report(len(events), len(aggregates), time.perf_counter() - started)
