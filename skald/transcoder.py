"""An orjson transcoder for the eventsourcing library.

orjson writes UUIDs, datetimes and tuples natively but cannot read them back as
those types, so values that plain JSON cannot carry are wrapped in the library's
own ``{"_type_": name, "_data_": ...}`` envelope before orjson sees them.
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
        return orjson.dumps(self._wrap(obj))

    def decode(self, data: bytes) -> Any:
        return self._unwrap(orjson.loads(data))

    def _wrap(self, obj: Any) -> Any:
        # Leaves are tested inline rather than by a call each: an encounter's snapshot
        # has thousands of them, and the calls were most of the writer's time (py-spy).
        kind = type(obj)
        if kind in _PLAIN:
            return obj
        if kind is dict:
            return {
                key: value if type(value) in _PLAIN else self._wrap(value)
                for key, value in obj.items()
            }
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

    def _unwrap(self, obj: Any) -> Any:
        if type(obj) is list:
            return [self._unwrap(value) if type(value) in _NESTED else value for value in obj]
        if type(obj) is not dict:
            return obj
        if len(obj) == 2 and "_type_" in obj and "_data_" in obj:
            name = obj["_type_"]
            transcoding = self.names.get(name) if isinstance(name, str) else None
            if transcoding is None:
                msg = (
                    f"Data serialized with name '{name}' is not deserializable. "
                    "Please register a custom transcoding for this type."
                )
                raise TranscodingNotRegisteredError(msg)
            return transcoding.decode(self._unwrap(obj["_data_"]))
        return {
            key: self._unwrap(value) if type(value) in _NESTED else value
            for key, value in obj.items()
        }
