"""Every event's payload checked against the types its class declares, as an import
reads a file (skald_campaign/replay_check.py).

The check is built from the event class itself: its dataclass fields and their
annotations, read with their extras (domain/records.py's ``UUIDText``, ``KeyId`` and
``Sha256Hex`` carry a pattern and a length), made into a msgspec struct, and an
event's payload is converted to it strictly: no string is taken for a number, no
number for a string, an id must be a UUID's text, a hash hex of its length, a
``Literal`` one of its values. So an event class added later is checked as soon as
it exists, with no code here (tests/unit/test_payload_types.py walks every one).

What a ruleset defines (the recursive ``JSON`` alias) is any JSON value here: the
rulesets validate it when it is written, and the replay of the aggregate that
follows this check applies it as the server would.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any

import msgspec

from skald_campaign.domain.event_catalog import METADATA, concrete
from skald_campaign.domain.records import JSON


class PayloadTypeError(ValueError):
    """A payload field whose value is not of its declared type; the message names it."""


@functools.cache
def payload_type(cls: type) -> type[msgspec.Struct]:
    """A struct of the event class's payload fields (all but the store's own metadata),
    with their declared types and defaults."""
    # The JSON alias names itself: its inner references resolve to it wherever the
    # class was declared, its module importing JSON or not.
    hints = typing.get_type_hints(cls, localns={"JSON": JSON}, include_extras=True)
    fields: list[tuple[str, object] | tuple[str, object, object]] = []
    for field in dataclasses.fields(cls):
        if field.name in METADATA:
            continue
        hint = concrete(hints[field.name], json=Any)
        if field.default is not dataclasses.MISSING:
            fields.append((field.name, hint, field.default))
        else:
            fields.append((field.name, hint))
    name = cls.__qualname__.replace(".", "")
    return msgspec.defstruct(name, fields, kw_only=True, forbid_unknown_fields=True)


def check_payload(cls: type, payload: typing.Mapping[str, object]) -> None:
    """Raise PayloadTypeError if a field of ``payload`` is not of its declared type.

    ``payload`` is the event as the transcoder read it (its UUIDs and datetimes are
    objects again), less the store's metadata."""
    try:
        checked = msgspec.convert(payload, payload_type(cls), strict=True)
    except msgspec.ValidationError as error:
        raise PayloadTypeError(str(error)) from None
    # msgspec reads a UUID or a datetime from its text even when strict, as JSON holds
    # them; the transcoder gives them back as objects, so text there was not written so.
    for name, value in payload.items():
        held = getattr(checked, name)
        if isinstance(value, str) and not isinstance(held, str):
            raise PayloadTypeError(f"Expected `{type(held).__name__}`, got `str` - at `$.{name}`")
