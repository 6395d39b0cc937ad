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
"""

from __future__ import annotations

from typing import Any

import orjson
from eventsourcing.persistence import (
    DatetimeAsISO,
    DecimalAsStr,
    Transcoder,
    Transcoding,
    TranscodingNotRegisteredError,
    UUIDAsHex,
)

_PLAIN = frozenset((str, int, float, bool, type(None)))
_NESTED = frozenset((dict, list))
_JSON_KINDS = _PLAIN | _NESTED
_ENVELOPE = b'"_type_"'  # in JSON bytes only as a key: inside a string it is escaped
_REFUSE_NON_JSON = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
)


def _refuse(obj: Any) -> Any:
    raise TypeError(type(obj))


def _as_plain_json(obj: dict[Any, Any] | list[Any]) -> orjson.Fragment | None:
    """The JSON of a value that plain JSON carries exactly, or None if it holds anything
    that must be wrapped (found in C, without a Python-level walk)."""
    # A member that needs wrapping right here (a snapshot's dates and ids beside its
    # actions) is seen without writing the whole value first.
    if any(
        type(member) not in _JSON_KINDS for member in (obj.values() if type(obj) is dict else obj)
    ):
        return None
    try:
        raw = orjson.dumps(obj, default=_refuse, option=_REFUSE_NON_JSON)
    except TypeError:
        return None
    if orjson.loads(raw) != obj:  # a tuple, UUID or enum that orjson wrote natively
        return None
    return orjson.Fragment(raw)


class TupleAsList(Transcoding):
    type = tuple
    name = "tuple_as_list"

    def encode(self, obj: tuple[Any, ...]) -> list[Any]:
        return list(obj)

    def decode(self, data: list[Any]) -> tuple[Any, ...]:
        return tuple(data)


class OrjsonTranscoder(Transcoder):
    def __init__(self) -> None:
        self.types: dict[type, Transcoding] = {}
        self.names: dict[str, Transcoding] = {}
        for transcoding in (UUIDAsHex(), DatetimeAsISO(), DecimalAsStr(), TupleAsList()):
            self.register(transcoding)

    def register(self, transcoding: Transcoding) -> None:
        self.types[transcoding.type] = transcoding
        self.names[transcoding.name] = transcoding

    def encode(self, obj: Any) -> bytes:
        if type(obj) is dict:  # an event's or snapshot's attributes: some always need wrapping
            return orjson.dumps(self._wrap_members(obj))
        return orjson.dumps(self._wrap(obj))

    def decode(self, data: bytes) -> Any:
        obj = orjson.loads(data)
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

    def _wrap(self, obj: Any) -> Any:
        # Leaves are tested inline rather than by a call each (a call per leaf was most
        # of the writer's time before the plain-JSON path took the nested values).
        kind = type(obj)
        if kind in _PLAIN:
            return obj
        if kind is dict or kind is list:
            plain = _as_plain_json(obj)
            if plain is not None:
                return plain
        if kind is dict:
            return self._wrap_members(obj)
        if kind is list:
            return [value if type(value) in _PLAIN else self._wrap(value) for value in obj]
        transcoding = self.types.get(kind)
        if transcoding is None:
            msg = (
                f"Object of type {kind} is not serializable. Please define "
                "and register a custom transcoding for this type."
            )
            raise TranscodingNotRegisteredError(msg)
        return {"_type_": transcoding.name, "_data_": self._wrap(transcoding.encode(obj))}

    def _wrap_members(self, obj: dict[Any, Any]) -> dict[Any, Any]:
        return {
            key: value if type(value) in _PLAIN else self._wrap(value) for key, value in obj.items()
        }

    def _unwrap_until(self, obj: Any, remaining: int) -> tuple[Any, int]:
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
            members: Any = obj.items()
        elif type(obj) is list:
            members = enumerate(obj)
        else:
            return obj, 0
        found = 0
        for place, value in members:  # replacing a member in place keeps the size
            if found >= remaining:
                break
            if type(value) in _NESTED:
                decoded, inside = self._unwrap_until(value, remaining - found)
                if inside:
                    obj[place] = decoded
                    found += inside
        return obj, found


def _is_envelope(obj: dict[Any, Any]) -> bool:
    return len(obj) == 2 and "_type_" in obj and "_data_" in obj
