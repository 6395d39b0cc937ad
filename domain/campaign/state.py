"""The Campaign's state as snapshots store it: the JSON of version 1, read back as records.

Version 1 of the aggregate held dicts; version 2 holds records (domain/records.py,
domain/campaign/calendar.py). A snapshot of either stores what version 1 stored, so every
snapshot, old or new, is read through ``upcast_v1_v2``, which builds the records.
"""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain.campaign.calendar import calendar_as_json, calendar_from_json
from skald_campaign.domain.campaign.ruleset_versions import (
    UNRECORDED_DISTRIBUTION,
    UNRECORDED_VERSION,
)
from skald_campaign.domain.campaign.view import CampaignRecords
from skald_campaign.domain.reading.recorded import read_kept, stored_kept
from skald_campaign.domain.records import (
    JSON,
    Character,
    EncounterEntry,
    JSONObject,
    KeyGrant,
    as_object,
)


def stored_object(value: object) -> JSONObject:
    """A snapshot's value that version 1 stored as a JSON object."""
    if not isinstance(value, Mapping):
        raise TypeError(f"a JSON object was stored here, not {value!r}")
    return value


# The keys `stored_state` writes as JSON by their records' types (the snapshot's `json_state`).
JSON_STATE = frozenset(("characters", "keys", "encounters", "calendar"))


def stored_state(taken: Mapping[str, object], campaign: CampaignRecords) -> dict[str, object]:
    """The state the library took of the campaign, as version 1 stored it: JSON, records
    written out (each in its place among the attributes, so the stored bytes are the same)."""
    written: dict[str, JSON] = {
        "characters": {cid: c.as_json() for cid, c in campaign.characters.items()},
        "keys": {kid: k.as_json() for kid, k in campaign.keys.items()},
        "encounters": {eid: e.as_json() for eid, e in campaign.encounters.items()},
        "calendar": calendar_as_json(campaign.calendar),
    }
    return stored_kept(
        {
            k: written.get(k, v)
            for k, v in taken.items()
            if k != "class_version" and not _unrecorded(k, v)
        }
    )


# A campaign at the version every campaign read as before versions were recorded stores
# none, as version 1 did (so its snapshot's bytes are what they were); the upcast gives
# it back.
_UNRECORDED = {
    "ruleset_distribution": UNRECORDED_DISTRIBUTION,
    "ruleset_version": UNRECORDED_VERSION,
}


def _unrecorded(name: str, value: object) -> bool:
    return name in _UNRECORDED and value == _UNRECORDED[name]


def upcast_v1_v2(state: dict[str, object]) -> None:
    """Version 1's JSON (any snapshot's) into version 2's records, in place. A snapshot
    taken before the ruleset's version was recorded reads as its Created event does."""
    state.setdefault("ruleset_distribution", UNRECORDED_DISTRIBUTION)
    state.setdefault("ruleset_version", UNRECORDED_VERSION)
    state["characters"] = {
        cid: Character.from_json(as_object(c))
        for cid, c in stored_object(state["characters"]).items()
    }
    state["keys"] = {
        kid: KeyGrant.from_json(as_object(k)) for kid, k in stored_object(state["keys"]).items()
    }
    state["encounters"] = {
        eid: EncounterEntry.from_json(as_object(e))
        for eid, e in stored_object(state["encounters"]).items()
    }
    state["calendar"] = calendar_from_json(stored_object(state["calendar"]))
    read_kept(state)
