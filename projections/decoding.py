"""Decoding notifications for the projections, without the mapper's general path where
the stored JSON does not need it.

Nearly every stored event of Skald is JSON whose one envelope is its timestamp
(skald_campaign/transcoder.py: a payload's nested values are plain JSON by their types), so
decoding it is one ``orjson.loads``, one ``datetime.fromisoformat`` and the event
object. The mapper does the same and more for each one (the cipher and compressor
checks, the topic, the id convertor, the envelope search, the upcasts): about a
fifth of a rebuild's decoding (py-spy, bench/README.md "Rebuild from the stored
JSON"). A stored class version is taken as the mapper takes it: popped, and the
class's upcasts run from it to the class's own version (every event class is at
version 2 or more since issue 40, so an inline path that refused them decoded nothing
inline: the whole of a rebuild's decoding went through the mapper again, py-spy).
Whatever is not that plain case (more envelopes, a cipher or compressor, anything that
fails) goes through the mapper, so the event built is the one
``Mapper.to_domain_event`` builds, attribute for attribute and in order.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper, Notification, find_id_convertor
from eventsourcing.utils import resolve_topic

_ENVELOPE = b'"_type_"'  # as skald_campaign/transcoder.py counts them
_DATETIME = "datetime_iso"  # eventsourcing's DatetimeAsISO

# The timestamp last decoded inline and its stored text (the audit's "time"; see time_text).
_last_time: tuple[datetime, str] | None = None
# The event last decoded inline whose fields are the stored JSON's values as
# ``orjson.loads`` read them, no upcast run (see is_plain_json).
_last_plain: object = None


def is_own_isoformat(text: str) -> bool:
    """Whether ``text`` is what ``datetime.isoformat()`` writes for a UTC time with
    microseconds, and so what it writes again for the datetime read from it (the
    library's timestamps; ``fromisoformat`` also reads other spellings: 'Z', a space
    for 'T', '-00:00', fewer digits)."""
    return (
        len(text) == 32
        and text[10] == "T"
        and text[19] == "."
        and text.endswith("+00:00")
        and text[4] == text[7] == "-"
        and text[13] == text[16] == ":"
    )


def time_text(timestamp: datetime) -> str:
    """``timestamp.isoformat()``: the stored JSON's own text when ``timestamp`` is the one
    just decoded from it (the projections take each event as it is decoded), rather than
    written again (~3% of a rebuild, py-spy)."""
    last = _last_time
    if last is not None and last[0] is timestamp:
        return last[1]
    return timestamp.isoformat()


def is_plain_json(event: object) -> bool:
    """Whether ``event`` is the one just decoded inline from JSON with nothing but its
    timestamp enveloped and no upcast run: then each of its fields but the store's own
    (the id, the version, the time) is a value ``orjson.loads`` made (dicts with text keys,
    lists, text, numbers, booleans, None), which ``msgspec.to_builtins`` would only copy
    (projections/log.py ``logged_json``: the copy of every payload was ~1.2 s of a
    100,000-event rebuild's ~8 s, bench/README.md "rebuild18 lane"). An event decoded by
    the mapper, or upcast, may hold anything and is never plain here."""
    return _last_plain is event


class _Known(NamedTuple):
    cls: type[object]
    convert_id: Callable[[UUID | str], UUID | str]
    class_version: int


class EventDecoder:
    """``mapper.to_domain_event``, with the plain case done inline."""

    def __init__(self, mapper: Mapper[UUID]) -> None:
        self.mapper = mapper
        self.plain = (
            mapper.cipher is None
            and mapper.compressor is None
            # skald_campaign/transcoder.py's OrjsonTranscoder says so; any other (the
            # library's JSON transcoder, a subclass that writes more) goes through the mapper.
            and getattr(mapper.transcoder, "writes_plain_json", False) is True
        )
        self._known: dict[tuple[str, type[object]], _Known | None] = {}

    def __call__(self, notification: Notification) -> object:
        if not self.plain:
            return self.mapper.to_domain_event(notification)
        originator_id = notification.originator_id
        key = (notification.topic, type(originator_id))
        known = self._known.get(key, _UNSEEN)
        if known is _UNSEEN:
            known = self._known[key] = self._learn(*key)
        if known is None:
            return self.mapper.to_domain_event(notification)
        data = notification.state
        try:
            state = orjson.loads(data)
            timestamp = state["timestamp"]
            if (
                data.count(_ENVELOPE) != 1
                or type(timestamp) is not dict
                or len(timestamp) != 2
                or timestamp.get("_type_") != _DATETIME
            ):
                return self.mapper.to_domain_event(notification)
            text = timestamp["_data_"]
            state["timestamp"] = decoded_time = datetime.fromisoformat(text)
            state["originator_id"] = known.convert_id(originator_id)
            state["originator_version"] = notification.originator_version
            # As the mapper does, in its order: the stored version out, then each upcast.
            version = state.pop("class_version", 1)
            upcast = version < known.class_version
            while version < known.class_version:
                getattr(known.cls, f"upcast_v{version}_v{version + 1}")(state)
                version += 1
        except Exception:  # let the mapper say what is wrong with it, as it always has
            return self.mapper.to_domain_event(notification)
        event = object.__new__(known.cls)
        object.__setattr__(event, "__dict__", state)
        global _last_time, _last_plain
        _last_time = (decoded_time, text) if is_own_isoformat(text) else None
        _last_plain = None if upcast else event
        return event

    @staticmethod
    def _learn(topic: str, id_type: type[object]) -> _Known | None:
        """The class, id convertor and class version of a topic; None for a class the
        library cannot resolve (the mapper then raises as it would)."""
        try:
            cls = resolve_topic(topic)
            convert_id = find_id_convertor(cls, id_type)  # type: ignore[arg-type]
        except Exception:
            return None
        class_version = getattr(cls, "class_version", 1)
        if type(class_version) is not int:
            return None
        return _Known(cls, convert_id, class_version)


_UNSEEN = _Known(object, str, 1)  # a sentinel: not looked up yet
