"""The published event catalog: every event type of the open feed, its version, and a
JSON Schema of its public payload, generated from the typed event classes.

A payload is an event's declared fields less the store's own metadata (ids, version,
time, topic) and key hashes, as `application/event_log.py` publishes it. The schema is
msgspec's, of a struct built from the class's fields; the recursive `JSON` alias (which
neither msgspec nor pydantic can follow as written) stands for any JSON value there.
Unknown fields are refused, so a payload that gained a field without a new version
fails the catalog's test (tests/integration/test_event_catalog.py).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Sequence
from typing import Annotated, Final, Literal, Union, get_args, get_origin

import msgspec
from eventsourcing.domain import Aggregate

from skald_campaign.domain.events import CAMPAIGN_EVENTS, ENCOUNTER_EVENTS, EventClass
from skald_campaign.domain.records import JSON, JSONObject

# The store's own fields of every event: the log lists them beside the payload.
METADATA: Final = frozenset(
    {"originator_id", "originator_version", "timestamp", "originator_topic"}
)
HIDDEN_SUFFIX: Final = "_hash"  # key hashes stay in the event store
# The events the open feed publishes (the log, the SSE feed, webhooks): a campaign's and
# its encounters'. Idempotency records and webhook registrations are not a campaign's story.
PUBLISHED: Final[Sequence[EventClass]] = (*CAMPAIGN_EVENTS, *ENCOUNTER_EVENTS)
JSON_SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"


def type_name(cls: type[object]) -> str:
    """'Campaign.KeyIssued': the aggregate's class and the event's, as the audit names it."""
    return cls.__qualname__


def type_version(cls: type[object]) -> int:
    """The class's version: 1 until a payload change adds an upcast (docs/integrations.md)."""
    version = getattr(cls, "class_version", 1)
    return version if isinstance(version, int) else 1


def is_public_field(name: str) -> bool:
    return name not in METADATA and not name.endswith(HIDDEN_SUFFIX)


class AnyJson:
    """Stands for the JSON alias in a payload struct; its schema is any JSON value."""


def _schema_of(hint: type[object]) -> dict[str, object]:
    if hint is AnyJson:
        return {"description": "any JSON value"}
    raise TypeError(f"no JSON Schema for {hint!r}")


_SCALARS: Final = frozenset({str, int, float, bool, type(None)})


def _is_json(hint: object, origin: object, args: tuple[object, ...]) -> bool:
    """The JSON alias, as written or as `get_type_hints` expands it one level."""
    if hint == JSON or isinstance(hint, typing.ForwardRef):
        return True
    is_union = origin is Union or origin is types.UnionType
    return is_union and len(args) == len(get_args(JSON)) and set(args) >= _SCALARS


def concrete(hint: object, json: object = AnyJson) -> object:
    """The hint with the recursive JSON alias replaced by ``json``: AnyJson (any JSON
    value) for the schema, ``typing.Any`` for the import's check (skald_campaign/payload_types.py).
    An ``Annotated`` hint (a pattern on a string) keeps its metadata."""
    args = get_args(hint)
    origin = get_origin(hint)
    if _is_json(hint, origin, args):
        return json
    if origin is None or not args or origin is Literal:
        return hint
    if origin is Annotated:
        return Annotated[(concrete(args[0], json), *args[1:])]
    inner = tuple(concrete(a, json) for a in args)
    if origin is Union or origin is types.UnionType:
        return Union[inner]  # noqa: UP007 (built from a tuple of hints)
    return origin[inner[0] if len(inner) == 1 else inner]


def payload_struct(cls: EventClass) -> type[msgspec.Struct]:
    """A struct with the event's public fields, their types and defaults."""
    hints = typing.get_type_hints(cls)
    fields: list[tuple[str, object] | tuple[str, object, object]] = []
    for field in dataclasses.fields(cls):
        if not is_public_field(field.name):
            continue
        hint = concrete(hints[field.name])
        if field.default is not dataclasses.MISSING:
            fields.append((field.name, hint, field.default))
        else:
            fields.append((field.name, hint))
    name = type_name(cls).replace(".", "")
    return msgspec.defstruct(name, fields, kw_only=True, forbid_unknown_fields=True)


def payload_schema(cls: EventClass) -> JSONObject:
    schema: dict[str, JSON] = {"$schema": JSON_SCHEMA_DIALECT}
    schema.update(msgspec.json.schema(payload_struct(cls), schema_hook=_schema_of))
    return schema


@functools.cache
def catalog() -> list[JSONObject]:
    """Every published event type, in the order the aggregates declare them."""
    return [
        {
            "type": type_name(cls),
            "version": type_version(cls),
            "aggregate": type_name(cls).split(".", 1)[0],
            "schema": payload_schema(cls),
        }
        for cls in PUBLISHED
    ]


class LoggedEvent(msgspec.Struct, frozen=True):
    """An event as the open feed publishes it (GET /campaigns/{id}/events, webhooks)."""

    position: int  # the store's notification id: the SSE feed's event id too
    type: str  # 'Encounter.ActionResolved'
    type_version: int  # the event class's version (its upcasts bring older ones up to it)
    aggregate_id: str
    aggregate_version: int
    time: str  # ISO 8601, UTC
    by: str | None  # who: 'gm', 'player:<key>', 'system'... as the event recorded it
    payload: JSONObject


def public_payload(event: object) -> JSONObject:
    """The event's own fields as JSON (ids as strings), without what only the store keeps."""
    fields = {k: v for k, v in vars(event).items() if is_public_field(k)}
    payload: object = msgspec.to_builtins(fields, str_keys=True)
    assert isinstance(payload, dict)
    return payload


def author(payload: JSONObject) -> str | None:
    by = payload.get("by")
    if isinstance(by, str):
        return by
    correction = payload.get("correction")
    by = correction.get("by") if isinstance(correction, dict) else None
    return by if isinstance(by, str) else None


def logged(position: int, event: Aggregate.Event) -> LoggedEvent:
    """The event at ``position`` as the open feed publishes it (the application reads it
    from the store per page for the webhooks; projections/log.py keeps its JSON)."""
    payload = public_payload(event)
    return LoggedEvent(
        position=position,
        type=type_name(type(event)),
        type_version=type_version(type(event)),
        aggregate_id=str(event.originator_id),
        aggregate_version=event.originator_version,
        time=event.timestamp.isoformat(),
        by=author(payload),
        payload=payload,
    )
