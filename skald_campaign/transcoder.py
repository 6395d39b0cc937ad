"""An orjson transcoder for the eventsourcing library.

orjson writes UUIDs, datetimes and tuples natively but cannot read them back as
those types, so values that plain JSON cannot carry are wrapped in the library's
own ``{"_type_": name, "_data_": ...}`` envelope before orjson sees them.

Most of what Skald stores is plain JSON already (an encounter's snapshot is
thousands of action records of strings and numbers, with a UUID and two datetimes
at the top), and walking it in Python to find the few values to wrap was most of
the writer thread's time under load (bench/README.md). So a nested dict or list is
first handed to orjson whole, in C, refusing anything it would write but could not
read back as the same value: datetimes and subclasses are refused outright (the
passthrough options), and a tuple, UUID or enum, which orjson writes as a list, a
string or a value, fails the round-trip comparison. Only what fails is walked. The
bytes are the same as the walk's: the fast path changes the cost, not the format.
Reading counts the envelopes in the bytes first and stops walking once it has
found them all: an event's are its timestamp and ids, a snapshot's come before its
actions, so neither is walked through.

The events the domain records carry JSON payloads (their fields are JSON types, with
the ids and dates at the top): `JsonPayloadMapper` encodes those without the read-back,
which was the largest single cost of a command's encoding (bench/README.md); a nested
datetime, dataclass or subclass is still refused in C and walked.
tests/integration/test_event_payloads.py records every event class of the compat story
and proves each payload plain JSON and read back exactly. A snapshot's state is the same
records written out (`JSONStateSnapshot.json_state` names those keys: an encounter's
actions, which made the check of a long encounter's snapshot the largest single cost of
the writer, bench/README.md) beside the aggregate's other attributes: the records are
written unchecked, the rest keeps the check (the same test proves every snapshot of the
compat story written so reads back exactly).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from typing import NoReturn, TypeVar
from uuid import UUID

import orjson
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import (
    DatetimeAsISO,
    DecimalAsStr,
    Mapper,
    StoredEvent,
    Transcoder,
    Transcoding,
    TranscodingNotRegisteredError,
    UUIDAsHex,
)
from eventsourcing.utils import get_topic

from skald_campaign.domain.events import CAMPAIGN_EVENTS, ENCOUNTER_EVENTS, REQUEST_EVENTS
from skald_campaign.domain.snapshots import JSONStateSnapshot

# The events whose nested values are JSON by their fields' types (proven, class by
# class, by tests/integration/test_event_payloads.py).
JSON_PAYLOAD_EVENTS = frozenset((*CAMPAIGN_EVENTS, *ENCOUNTER_EVENTS, *REQUEST_EVENTS))

_PLAIN = frozenset((str, int, float, bool, type(None)))
_NESTED = frozenset((dict, list))
_JSON_KINDS = _PLAIN | _NESTED
_ENVELOPE = b'"_type_"'  # in JSON bytes only as a key: inside a string it is escaped
_REFUSE_NON_JSON = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
)


K = TypeVar("K")

# What the transcoder is handed is whatever an event's or snapshot's attributes hold:
# values of unknown type (object), told apart by their exact type as they are met.


def _refuse(obj: object) -> NoReturn:
    raise TypeError(type(obj))


def _as_plain_json(
    obj: dict[object, object] | list[object], checked: bool = True
) -> orjson.Fragment | None:
    """The JSON of a value that plain JSON carries exactly, or None if it holds anything
    that must be wrapped (found in C, without a Python-level walk). Unchecked (a JSON
    payload's value), only what orjson refuses in C is found: not a tuple or UUID."""
    # A member that needs wrapping right here (a snapshot's dates and ids beside its
    # actions) is seen without writing the whole value first.
    # (The types are mapped and compared in C: a generator over the members was a
    # Python-level step per member, most of this function's own time.)
    if not _JSON_KINDS.issuperset(map(type, obj.values() if type(obj) is dict else obj)):
        return None
    try:
        raw = orjson.dumps(obj, default=_refuse, option=_REFUSE_NON_JSON)
    except TypeError:
        return None
    if checked and orjson.loads(raw) != obj:  # a tuple, UUID or enum that orjson wrote natively
        return None
    return orjson.Fragment(raw)


class TupleAsList(Transcoding):
    type = tuple
    name = "tuple_as_list"

    def encode(self, obj: tuple[object, ...]) -> list[object]:
        return list(obj)

    def decode(self, data: list[object]) -> tuple[object, ...]:
        return tuple(data)


class OrjsonTranscoder(Transcoder):
    # Its JSON is plain but for the "_type_" envelopes it writes: the projections read
    # such payloads inline, without the mapper (projections/decoding.py asks this, rather
    # than importing this class: the projections import nothing of the composition root).
    # A subclass that writes anything else says False.
    writes_plain_json = True

    def __init__(self) -> None:
        self.types: dict[type, Transcoding] = {}
        self.names: dict[str, Transcoding] = {}
        for transcoding in (UUIDAsHex(), DatetimeAsISO(), DecimalAsStr(), TupleAsList()):
            self.register(transcoding)

    def register(self, transcoding: Transcoding) -> None:
        self.types[transcoding.type] = transcoding
        self.names[transcoding.name] = transcoding

    def encode(self, obj: object) -> bytes:
        if type(obj) is dict:  # an event's or snapshot's attributes: some always need wrapping
            return orjson.dumps(self._wrap_members(obj))
        return orjson.dumps(self._wrap(obj))

    def decode(self, data: bytes) -> object:
        obj: object = orjson.loads(data)
        envelopes = data.count(_ENVELOPE)
        if envelopes == 0:
            return obj
        if type(obj) is dict:
            # An event's envelopes (its timestamp and ids) are usually all at the top:
            # then none of its nested values needs visiting at all.
            top = [key for key, value in obj.items() if type(value) is dict and _is_envelope(value)]
            if len(top) == envelopes:
                for key in top:
                    obj[key], _ = self._unwrap_until(obj[key], 1)
                return obj
        value, _ = self._unwrap_until(obj, envelopes)
        return value

    def encode_json_payload(self, state: dict[str, object]) -> bytes:
        """`encode` of an event whose nested values are JSON by its type: not read back."""
        wrapped: dict[str, object] = {}
        for key, value in state.items():
            if type(value) in _PLAIN:
                wrapped[key] = value
                continue
            # A subclass of dict or list is refused in C too, and then walked.
            plain = _as_plain_json(value, checked=False) if isinstance(value, dict | list) else None
            wrapped[key] = plain if plain is not None else self._wrap(value)
        return orjson.dumps(wrapped)

    def encode_json_state(self, event_state: dict[str, object], json_keys: frozenset[str]) -> bytes:
        """`encode` of a snapshot whose state's `json_keys` hold JSON by their types: those
        are not read back; its other attributes (ids, dates, flags) are checked."""
        state = event_state.get("state")
        if type(state) is not dict:
            return self.encode(event_state)
        written: dict[object, object] = {}
        for key, value in state.items():
            if type(value) in _PLAIN or (type(value) is orjson.Fragment and key in json_keys):
                # A list of records written ahead by the snapshot's taker: its JSON as is
                # (`record_list_json`; application/snapshotting.py).
                written[key] = value
                continue
            plain = (
                _as_plain_json(value, checked=False)
                if key in json_keys and type(value) in _NESTED
                else None
            )
            written[key] = plain if plain is not None else self._wrap(value)
        # The attributes in their order, so the bytes are `encode`'s.
        wrapped = {
            key: value if type(value) in _PLAIN else self._wrap(value)
            for key, value in event_state.items()
            if key != "state"
        }
        return orjson.dumps({key: wrapped.get(key, written) for key in event_state})

    def _wrap(self, obj: object) -> object:
        # Leaves are tested inline rather than by a call each (a call per leaf was most
        # of the writer's time before the plain-JSON path took the nested values).
        kind = type(obj)
        if kind in _PLAIN:
            return obj
        if type(obj) is dict:
            plain = _as_plain_json(obj)
            return plain if plain is not None else self._wrap_members(obj)
        if type(obj) is list:
            plain = _as_plain_json(obj)
            if plain is not None:
                return plain
            return [value if type(value) in _PLAIN else self._wrap(value) for value in obj]
        transcoding = self.types.get(kind)
        if transcoding is None:
            msg = (
                f"Object of type {kind} is not serializable. Please define "
                "and register a custom transcoding for this type."
            )
            raise TranscodingNotRegisteredError(msg)
        return {"_type_": transcoding.name, "_data_": self._wrap(transcoding.encode(obj))}

    def _wrap_members(self, obj: dict[object, object]) -> dict[object, object]:
        return {
            key: value if type(value) in _PLAIN else self._wrap(value) for key, value in obj.items()
        }

    def _unwrap_until(self, obj: object, remaining: int) -> tuple[object, int]:
        """Replace envelopes by their values, depth first in the stored order, and stop
        once `remaining` have been found: the rest (an encounter's actions, after its
        id and dates) is returned as loaded, without a walk. Changes `obj` in place (it
        was just loaded) and returns it with the number of envelopes found."""
        if type(obj) is dict and _is_envelope(obj):
            name, data = obj["_type_"], obj["_data_"]
            found = 1
            if type(data) in _NESTED and remaining > 1:
                data, inside = self._unwrap_until(data, remaining - 1)
                found += inside
            transcoding = self.names.get(name) if isinstance(name, str) else None
            if transcoding is None:
                msg = (
                    f"Data serialized with name '{name}' is not deserializable. "
                    "Please register a custom transcoding for this type."
                )
                raise TranscodingNotRegisteredError(msg)
            return transcoding.decode(data), found
        if type(obj) is dict:
            return obj, self._unwrap_members(obj.items(), obj.__setitem__, remaining)
        if type(obj) is list:
            return obj, self._unwrap_members(enumerate(obj), obj.__setitem__, remaining)
        return obj, 0

    def _unwrap_members(
        self, members: Iterable[tuple[K, object]], put: Callable[[K, object], None], remaining: int
    ) -> int:
        """`_unwrap_until` of a dict's or list's members; the number of envelopes found."""
        found = 0
        for place, value in members:  # replacing a member in place keeps the size
            if found >= remaining:
                break
            if type(value) in _NESTED:
                decoded, inside = self._unwrap_until(value, remaining - found)
                if inside:
                    put(place, decoded)
                    found += inside
        return found


def _is_envelope(obj: dict[object, object]) -> bool:
    return len(obj) == 2 and "_type_" in obj and "_data_" in obj


# A snapshot's stored state, when the snapshot thread compressed it (application/
# snapshotting.py's `packed_snapshot`): zlib's header byte at its default window, never
# the first byte of JSON ("{").
PACKED = b"\x78"


class JsonPayloadMapper(Mapper[UUID]):
    """The library's mapper, with the domain's events (JSON payloads) encoded unchecked,
    and a packed snapshot's state unpacked (application/snapshotting.py)."""

    # A snapshot's state may hold a list of records as an orjson.Fragment of their JSON
    # (`encode_json_state`): the snapshot thread writes them so (application/snapshotting.py).
    writes_record_lists = True

    def to_domain_event(self, stored_event: StoredEvent) -> DomainEventProtocol[UUID]:
        state = stored_event.state
        if (
            self.compressor is None  # (a store compressed throughout is the library's)
            and self.cipher is None
            and bytes(state[:1]) == PACKED
            and stored_event.topic.endswith(".Snapshot")
        ):
            stored_event = StoredEvent(
                originator_id=stored_event.originator_id,
                originator_version=stored_event.originator_version,
                topic=stored_event.topic,
                state=zlib.decompress(state),
            )
        return super().to_domain_event(stored_event)

    def to_stored_event(self, domain_event: DomainEventProtocol[UUID]) -> StoredEvent:
        transcoder = self.transcoder
        payload = type(domain_event) in JSON_PAYLOAD_EVENTS
        json_state = (
            type(domain_event).json_state if isinstance(domain_event, JSONStateSnapshot) else None
        )
        if not (payload or json_state is not None) or not isinstance(transcoder, OrjsonTranscoder):
            return super().to_stored_event(domain_event)
        event_state = dict(vars(domain_event))
        originator_id = event_state.pop("originator_id")
        originator_version = event_state.pop("originator_version")
        class_version = getattr(type(domain_event), "class_version", 1)
        if class_version > 1:
            event_state["class_version"] = class_version
        stored_state = (
            transcoder.encode_json_payload(event_state)
            if payload
            else transcoder.encode_json_state(event_state, json_state or frozenset())
        )
        if self.compressor:
            stored_state = self.compressor.compress(stored_state)
        if self.cipher:
            stored_state = self.cipher.encrypt(stored_state)
        return StoredEvent(
            originator_id=originator_id,
            originator_version=originator_version,
            topic=get_topic(type(domain_event)),
            state=stored_state,
        )
