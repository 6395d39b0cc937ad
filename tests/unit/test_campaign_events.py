"""The Campaign's events are declared classes (domain/campaign/aggregate.py) whose topics and
payload fields are what fe485e1 stored: the compat store (tests/fixtures/compat/) holds
every one of them, and each stored payload's keys are the class's fields, in order."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from eventsourcing.utils import get_topic, resolve_topic

from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.events import CAMPAIGN_EVENTS
from skald_campaign.domain.records import Vitals
from skald_campaign.domain.walk import Entry, vitals_as_json, vitals_from_json

STORE = Path(__file__).parents[1] / "fixtures/compat/store-fe485e1.jsonl"
# Not in a payload: the columns beside it, or the library's own (timed, the creation's topic).
LIBRARY = {"originator_id", "originator_version", "timestamp", "originator_topic"}


def stored_keys() -> dict[str, list[str]]:
    """Each campaign event topic's payload keys, as the first stored one of it had them."""
    found: dict[str, list[str]] = {}
    for line in STORE.read_text().splitlines()[1:]:
        row = json.loads(line)
        if row.get("topic", "").startswith("domain.campaign:"):
            found.setdefault(
                row["topic"], [k for k in json.loads(row["state"]) if k not in LIBRARY]
            )
    return found


def test_every_campaign_event_of_the_old_store_resolves_to_its_declared_class() -> None:
    keys = stored_keys()
    newer = {Campaign.RulesetVersionRecorded, Campaign.RulesetVersionAccepted}  # issue 38
    assert sorted(keys) == sorted(get_topic(cls) for cls in CAMPAIGN_EVENTS if cls not in newer)
    assert len(keys) == 13
    for topic in keys:
        cls = resolve_topic(topic)
        name = topic.split(".")[-1]
        assert cls is getattr(Campaign, name)
        assert cls.__qualname__ == f"Campaign.{name}"
        # Declared in the class body with typed fields (the library subclasses the
        # declared class under the same name), not generated from an @event method.
        # (A generated class has no base of its own name; fe485e1's had none.)
        bases = [b for b in cls.__mro__[1:] if b.__qualname__ == f"Campaign.{name}"]
        assert bases and {b.__module__ for b in bases} == {
            "skald_campaign.domain.campaign.aggregate"
        }
        assert list(vars(bases[-1])["__annotations__"]) == [
            f.name for f in dataclasses.fields(cls) if f.name not in LIBRARY
        ]


def test_each_declared_class_has_the_stored_payloads_fields_in_their_order() -> None:
    expected = {
        "Created": ["name", "ruleset", "options", "by", "gm_key_id", "gm_key_hash"],
        "CharacterEnrolled": ["character_id", "name", "sheet", "tracks", "state", "by"],
        "KeyIssued": ["key_id", "key_hash", "role", "characters", "label", "by"],
        "KeyRevoked": ["key_id", "by"],
        "EncounterOpened": ["encounter_id", "name", "character_ids"],
        "CharacterJoined": ["encounter_id", "character_id", "by"],
        "SheetAmended": [
            *("character_id", "sheet", "reason", "by", "breakdown", "tracks", "state", "sheets")
        ],
        "EncounterClosed": ["encounter_id", "tracks", "state", "by"],
        "DayAdvanced": ["day", "plans", "by"],
        "CharacterHealed": ["character_id", "day", "breakdown", "tracks", "state"],
        "WoundMarked": ["character_id", "wound", "present", "reason", "by", "state"],
        "TracksAdjusted": [
            *("character_id", "changes", "reason", "by", "summary", "breakdown", "tracks")
        ],
        "CorrectionCarried": [*("correction", "steps", "tracks", "state", "sheets", "plans", "by")],
    }
    stored = {topic.split(".")[-1]: fields for topic, fields in stored_keys().items()}
    assert stored == expected
    # Fields declared after fe485e1 come last, each with a default: its stored events,
    # which lack them, load with that default (tests/integration/test_compat_fe485e1.py).
    added = {
        "CharacterEnrolled": {"npc": False, "player": None},
        "TracksAdjusted": {"state": None},  # issue 36: a state counter set (margin)
    }
    # Fields a later version of the class declares come last, without a default: the
    # upcast gives a stored event of the older version its values (issue 38: the ruleset's
    # distribution and version, as the built-ins had them then).
    upcast = {"Created": {"ruleset_distribution": "skald-campaign", "ruleset_version": "1.0.0"}}
    # And last of all, in a version of its own, the client the event was written through
    # (issue 40): none for every older event (the upcast), and by default.
    via = {"via": None}
    # Then, in a version of its own, what the reads need of the rules per character the
    # event touched (issue 38, domain/reading/recorded.py): not recorded (None) for every
    # older event (the upcast), and by default.
    readings = {"readings": None}
    recording = {
        *("CharacterEnrolled", "EncounterClosed", "CharacterHealed", "WoundMarked"),
        *("SheetAmended", "TracksAdjusted", "CorrectionCarried"),
    }
    for name, fields in expected.items():
        cls = getattr(Campaign, name)
        declared = [f for f in dataclasses.fields(cls) if f.name not in LIBRARY]
        read = readings if name in recording else {}
        later_fields = {**added.get(name, {}), **upcast.get(name, {}), **via, **read}
        assert [f.name for f in declared] == fields + list(later_fields)
        later = {f.name: f.default for f in declared[len(fields) :]}
        assert later.pop("via") is None
        if name in recording:
            assert later.pop("readings") is None
        state: dict[str, object] = dict.fromkeys(fields)
        if name in upcast:
            assert cls.class_version == 3
            assert set(later.values()) == {dataclasses.MISSING}
            cls.upcast_v1_v2(state)
            cls.upcast_v2_v3(state)
            assert state == {**dict.fromkeys(fields), **upcast[name], **via}
        elif name in recording:
            assert later == added.get(name, {})
            assert cls.class_version == 3
            cls.upcast_v1_v2(state)
            cls.upcast_v2_v3(state)
            assert state == {**dict.fromkeys(fields), **via, **readings}
        else:
            assert later == added.get(name, {})
            assert cls.class_version == 2
            cls.upcast_v1_v2(state)
            assert state == {**dict.fromkeys(fields), **via}


def test_a_roster_entry_and_a_steps_values_round_trip_to_the_stored_json() -> None:
    sheet = {"st": 12, "con": 12}
    stored = {
        "sheet": sheet,
        "tracks": {"stamina": 10, "body": 10},
        "state": {"piercing_wound": False},
    }
    vitals = vitals_from_json(stored)
    assert vitals == Vitals(sheet, {"stamina": 10, "body": 10}, {"piercing_wound": False})
    assert vitals_as_json(vitals) == stored
    assert json.dumps(vitals_as_json(vitals)) == json.dumps(stored)
    entry = Entry("Bran", sheet, {"stamina": 12, "body": 10}, {})
    assert entry.vitals == Vitals(sheet, {"stamina": 12, "body": 10}, {})
    moved = entry.with_vitals(vitals)
    assert moved == Entry("Bran", sheet, {"stamina": 10, "body": 10}, {"piercing_wound": False})
    assert entry == Entry("Bran", sheet, {"stamina": 12, "body": 10}, {})
