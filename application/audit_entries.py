"""Audit entries written straight from the stored events' JSON, as the answer's bytes.

A page of an audit trail or a campaign's history cost what its entries cost (bench/
README.md, issue 28): each stored event decoded into its domain event, copied into a
record (``application.history.event_record``), validated into the answer's model and
serialised by it, about 40 us an entry over HTTP. An entry is an immutable fact, so here
it is worked out once from the stored row and kept as the very bytes the answer's model
(api/schemas.py ``AuditPage``) would have written for it.

The stored state is JSON written by the store's transcoder (skald_campaign/transcoder.py), in the
order of the event's attributes: the domain event the library would build from it has
those attributes in that order, plus its id and version (never shown). An event whose
only wrapped value is its timestamp (every event the domain records but an encounter's
first, which names its campaign by UUID) is plain JSON once the timestamp is read as
the library reads it, and orjson writes plain JSON with the same bytes as pydantic
(tests/unit/test_audit_entries.py). Any other event (more envelopes, an upcast, a
cipher's or a compressor's bytes, a value orjson will not write) takes the domain path:
the library's own decoding, ``event_record``, and pydantic's serialiser of the model's
entries, so its bytes are the model's by construction.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import lru_cache
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import resolve_topic
from pydantic import TypeAdapter

from skald_campaign.application.history import HIDDEN, attributed_record, event_record
from skald_campaign.domain.records import JSON

# A correction's event carries the whole rebuilt action list (the trail shows its report);
# key hashes open nothing but are nobody's business.
BULKY = ("actions", "key_hash", "gm_key_hash")
TOLD = "told"
# The serialiser of AuditPage.entries' items: pydantic's, for the entries orjson does not write.
ENTRY_JSON: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])
_ENVELOPE = b'"_type_"'  # in the transcoder's JSON only as an envelope's key


def entry_of(record: Mapping[str, JSON], day: int | None) -> dict[str, JSON]:
    """An event's record as a page shows it: without the bulky fields, with the day;
    an action's texts not recorded (``told`` null: an event stored before they were,
    domain/reading/told_form.py) are left out, as its entry always read."""
    entry = {k: v for k, v in record.items() if k not in BULKY}
    if entry.get(TOLD, True) is None:
        del entry[TOLD]
    if day is not None:
        entry.setdefault("day", day)
    return entry


@lru_cache(maxsize=256)
def _plain_event(topic: str) -> tuple[str, type] | None:
    """The name ``event_record`` gives the events of this topic, and their class; None
    when the library would change their stored state on the way by an upcast that is not
    plain JSON in, plain JSON out (those marked ``plain_upcasts``, e.g. issue 40's
    ``via``, are done here as the library does them)."""
    cls = resolve_topic(topic)
    if getattr(cls, "class_version", 1) != 1 and not getattr(cls, "plain_upcasts", False):
        return None
    name: str = cls.__qualname__.split(".")[-1]
    return name, cls


def _upcast(cls: type, loaded: dict[str, Any]) -> bool:
    """The stored state brought to its class's version by its upcasts, as the library's
    mapper does; False for a state from a version the class does not know."""
    stored = loaded.pop("class_version", 1)
    current = getattr(cls, "class_version", 1)
    if type(stored) is not int or not 1 <= stored <= current:
        return False
    for version in range(stored, current):
        getattr(cls, f"upcast_v{version}_v{version + 1}")(loaded)
    return True


def _plain_entry(stored: StoredEvent, day: int | None) -> dict[str, JSON] | None:
    """``entry_of(event_record(event))`` read from the stored JSON, or None when the
    event is not plain JSON but for its timestamp (then the domain path answers)."""
    state = stored.state
    if state.count(_ENVELOPE) != 1:
        return None
    found = _plain_event(stored.topic)
    loaded = orjson.loads(state)
    if found is None or type(loaded) is not dict:
        return None
    name, cls = found
    if not _upcast(cls, loaded):
        return None
    stamp = loaded.get("timestamp")
    written = stamp.get("_data_") if type(stamp) is dict else None
    if not (
        type(stamp) is dict
        and len(stamp) == 2
        and stamp.get("_type_") == "datetime_iso"
        and type(written) is str
    ):
        return None
    # The library reads the time with fromisoformat and event_record writes it back.
    timestamp = datetime.fromisoformat(written).isoformat()
    record = {
        "event": name,
        "version": stored.originator_version,
        "timestamp": timestamp,
        **{k: v for k, v in loaded.items() if k not in HIDDEN},
    }
    return entry_of(attributed_record(record), day)


def render(
    stored: StoredEvent, mapper: Mapper[UUID], day: int | None
) -> tuple[dict[str, JSON], bytes]:
    """One stored event's audit entry and the bytes the answer's model writes for it."""
    if not (mapper.cipher or mapper.compressor):
        entry = _plain_entry(stored, day)
        if entry is not None:
            try:
                return entry, orjson.dumps(entry)
            except TypeError:  # an integer beyond 64 bits: pydantic writes it
                return entry, ENTRY_JSON.dump_json(entry)
    domain = entry_of(event_record(mapper.to_domain_event(stored)), day)
    return domain, ENTRY_JSON.dump_json(domain)


def page_json(total: int, offset: int, limit: int, entries: list[bytes]) -> bytes:
    """``AuditPage(total=.., offset=.., limit=.., entries=..)`` as its model writes it."""
    head = b'{"total":%d,"offset":%d,"limit":%d,"entries":[' % (total, offset, limit)
    return head + b",".join(entries) + b"]}"
