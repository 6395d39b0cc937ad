"""The Encounter's events are declared as classes with typed fields (domain/encounter/aggregate.py),
under the names, and so the topics, they were always stored with; each class's fields
are the keys its stored payloads carry (fe485e1's compat store)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from eventsourcing.utils import get_topic

from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.events import ENCOUNTER_EVENTS

COMPAT = Path(__file__).parents[1] / "fixtures/compat/store-fe485e1.jsonl"
BASE = {"originator_id", "originator_version", "timestamp"}
NAMES = [
    "Started",
    "ActionResolved",
    "RoundStarted",
    "OrderSet",
    "TurnAdvanced",
    "TurnOverridden",
    "ExchangeOpened",
    "DefenseDeclared",
    "ExchangeWithdrawn",
    "Ended",
    "Corrected",
    "GMChanged",
    "Recomputed",
    "TableRecorded",  # issue 23: newer than the compat store
]
# Fields added since fe485e1, each with a default, so the stored events load unchanged.
ADDED = {
    "Ended": {"reason": None},
    "Corrected": {"position": None, "table": None},
    "ActionResolved": {"hidden": False},  # T3, issue 24
}


def fields(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)} - BASE  # type: ignore[arg-type]


def test_every_event_keeps_its_topic() -> None:
    assert [get_topic(cls) for cls in ENCOUNTER_EVENTS] == [
        f"domain.encounter:Encounter.{name}" for name in NAMES
    ]
    assert all(
        getattr(Encounter, name) is cls for name, cls in zip(NAMES, ENCOUNTER_EVENTS, strict=True)
    )


def test_each_class_declares_the_fields_its_stored_events_carry() -> None:
    stored: dict[str, set[str]] = {}
    for line in COMPAT.read_text().splitlines()[1:]:
        row = json.loads(line)
        topic = row.get("topic") or ""
        if topic.startswith("domain.encounter:Encounter."):
            keys = set(json.loads(row["state"])) - BASE
            stored.setdefault(topic.rsplit(".", 1)[1], set()).update(keys)
    declared = {name: fields(getattr(Encounter, name)) for name in stored}
    declared["Started"] -= {"originator_topic"}
    stored["Started"] -= {"originator_topic"}
    for name, added in ADDED.items():
        assert set(added) <= declared[name] and not set(added) & stored[name]
        found = {f.name: f.default for f in dataclasses.fields(getattr(Encounter, name))}
        assert {field: found[field] for field in added} == added
        declared[name] -= set(added)
    # Issue 40: every event's last field, in a version of its own, is the client it was
    # written through; none by default and for every older event (the upcast).
    # Issue 38: the events that change combatants then record, in a version of their own,
    # what the reads need of the rules per combatant touched (domain/reading/recorded.py):
    # not recorded (None) by default and for every older event (the upcast).
    recording = {"Started", "ActionResolved", "Corrected", "GMChanged", "Recomputed"}
    # Issue 38: the events that hold action records then record, in a version of their
    # own, what the records' texts ask of the ruleset (domain/reading/told_form.py): an
    # ActionResolved in its last field, ``told`` (None by default and for every older
    # event, the upcast); the others in each record they hold (their upcast leaves an
    # older event's records as stored, without it); so does the table's record, in a
    # TableRecorded of version 3.
    telling = {"ActionResolved", "Corrected", "GMChanged", "Recomputed"}
    for name in NAMES:
        cls = getattr(Encounter, name)
        own = name == "ActionResolved"
        later = [(f.name, f.default) for f in dataclasses.fields(cls)[-3 if own else -2 :]]
        state: dict[str, object] = {}
        cls.upcast_v1_v2(state)
        assert state == {"via": None}
        if name in recording:
            added = [("via", None), ("readings", None)]
            assert later == ([*added, ("told", None)] if own else added)
            assert cls.class_version == (4 if name in telling else 3)
            cls.upcast_v2_v3(state)
            assert state == {"via": None, "readings": None}
            if name in telling:
                cls.upcast_v3_v4(state)
                told = {"told": None} if own else {}
                assert state == {"via": None, "readings": None, **told}
        elif name == "TableRecorded":  # its record's texts from version 3 (issue 38)
            assert later[-1] == ("via", None)
            assert cls.class_version == 3
            cls.upcast_v2_v3(state)
            assert state == {"via": None}
        else:
            assert later[-1] == ("via", None)
            assert cls.class_version == 2
        if name in declared:
            assert not {"via", "readings", "told"} & stored[name]
            declared[name] -= {"via", "readings", "told"}
    assert declared == stored
    assert set(stored) == set(NAMES) - {"TableRecorded"}
    assert fields(Encounter.ActionResolved) == {
        "number",
        "round",
        "kind",
        "actor",
        "params",
        "rolls",
        "summary",
        "breakdown",
        "tracks",
        "state",
        "conditions_before",
        "by",
        "override",
        "hidden",
        "via",
        "readings",
        "told",
    }


def test_the_override_defaults_to_none_as_the_method_did() -> None:
    """An ActionResolved stored before overrides existed has no such key: the class's
    default (None) stands, as the method's did."""
    found = {f.name: f.default for f in dataclasses.fields(Encounter.ActionResolved)}  # type: ignore[arg-type]
    assert found["override"] is None
