"""Every event class Skald declares has a typed check of its payload, derived from the
class itself (skald_campaign/payload_types.py): found by walking the event classes, never by a
list kept by hand, so an event added later is checked (and proven here) with no code."""

from __future__ import annotations

import dataclasses
from uuid import UUID

import msgspec
import pytest
from eventsourcing.domain import Aggregate
from eventsourcing.utils import construct_topic, resolve_topic

from skald_campaign import domain  # noqa: F401 (its modules declare the event classes walked below)
from skald_campaign.domain import events
from skald_campaign.domain.event_catalog import METADATA
from skald_campaign.payload_types import PayloadTypeError, check_payload, payload_type

# One value of every kind of JSON: a field that takes them all is not checked at all.
EVERY_KIND: tuple[object, ...] = ("text", 7, 1.5, True, None, ["text"], {"key": "text"})


def every_event_class() -> list[type]:
    """Every event class declared in domain/ that a stored topic names: the subclasses
    of the library's aggregate event (less the copies the library derives from them,
    which share their topic), as the mapper resolves a stored event's topic."""
    found: list[type] = []
    waiting: list[type] = [Aggregate.Event]
    while waiting:
        cls = waiting.pop()
        waiting.extend(cls.__subclasses__())
        if cls.__module__.startswith("skald_campaign.domain.") and resolve_topic(topic(cls)) is cls:
            found.append(cls)
    return sorted(set(found), key=topic)


def topic(cls: type) -> str:
    return construct_topic(cls)  # its TOPIC: the topic it is stored under


EVENT_CLASSES = every_event_class()


def test_the_walk_finds_every_event_the_domain_names() -> None:
    named = {
        *events.CAMPAIGN_EVENTS,
        *events.ENCOUNTER_EVENTS,
        *events.REQUEST_EVENTS,
        *events.WEBHOOK_EVENTS,
        *events.BESTIARY_EVENTS,
        *events.NEVER_RECORDED,
    }
    assert named <= set(EVENT_CLASSES)
    assert len(EVENT_CLASSES) >= 40


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda c: c.__qualname__)
def test_every_payload_field_of_every_event_class_is_checked(cls: type) -> None:
    payload_fields = [f.name for f in dataclasses.fields(cls) if f.name not in METADATA]
    assert list(payload_type(cls).__struct_fields__) == payload_fields
    for name in payload_fields:
        refused = []
        for value in EVERY_KIND:
            try:
                check_payload(cls, {name: value})
            except PayloadTypeError as error:
                if f"at `$.{name}`" in str(error):
                    refused.append(value)
        assert refused, f"{cls.__qualname__}.{name} takes any JSON value: it is not checked"


def test_a_field_of_its_declared_type_passes_and_any_other_is_named() -> None:
    request = events.RequestRecorded
    good = {
        "scope": "anyone POST /campaigns make-it",
        "request_hash": "0" * 64,
        "subject_id": UUID(int=1),
        "subject_version": 1,
    }
    check_payload(request, good)
    cases = {
        "request_hash": ("0" * 63, "Expected `str` of length >= 64 - at `$.request_hash`"),
        "subject_version": ("1", "Expected `int`, got `str` - at `$.subject_version`"),
        # Text where the transcoder gives back a UUID: not how the server wrote it.
        "subject_id": (str(UUID(int=1)), "Expected `UUID`, got `str` - at `$.subject_id`"),
    }
    for name, (value, message) in cases.items():
        with pytest.raises(PayloadTypeError) as refused:
            check_payload(request, {**good, name: value})
        assert str(refused.value) == message


def test_ids_are_the_text_of_a_uuid_and_key_ids_and_hashes_hex_of_their_length() -> None:
    enrolled = payload_type(events.CharacterEnrolled)
    issued = payload_type(events.KeyIssued)
    character = "5085f533-a86a-4ec6-99ff-0a1bcdce7bde"
    for value, refused in (
        (character, False),
        (character + "#581988", True),
        (character.upper(), True),
        (character + "\n", True),
    ):
        decoded = {"character_id": value}
        with pytest.raises(msgspec.ValidationError) as error:
            msgspec.convert(decoded, enrolled, strict=True)
        assert ("$.character_id" in str(error.value)) is refused
    key = {"key_id": "4fe36af225a85fc5", "key_hash": "a" * 64, "characters": [character]}
    with pytest.raises(msgspec.ValidationError) as error:
        msgspec.convert(key, issued, strict=True)
    assert "missing required field `role`" in str(error.value)  # the rest passed
    for name, value in (("key_id", "gm"), ("key_hash", "A" * 64), ("characters", ["b-1"])):
        with pytest.raises(msgspec.ValidationError) as error:
            msgspec.convert({**key, name: value}, issued, strict=True)
        assert f"$.{name}" in str(error.value)
