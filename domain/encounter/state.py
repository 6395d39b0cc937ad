"""The Encounter's state outside its events: as snapshots store it, and as copies share it.

The aggregate holds records (domain/records.py, domain/play/actions.py,
domain/play/records.py); a snapshot stores its state as the JSON of version 1,
records written out, and ``read_state`` (the aggregate's ``upcast_v1_v2``) reads old
and new snapshots alike back into records.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TypeVar, cast
from uuid import UUID

from skald_campaign.domain.encounter.shared_records import SharedRecords
from skald_campaign.domain.play.actions import ActionRecord, actions_from_json, as_list
from skald_campaign.domain.play.records import Correction, Exchange, TurnOverride
from skald_campaign.domain.reading.recorded import read_kept, stored_kept
from skald_campaign.domain.records import (
    JSON,
    Combatant,
    Record,
    State,
    Tracks,
    combatants_as_json,
    combatants_from_json,
)
from skald_campaign.domain.snapshots import RecordLists

# Values a copy of an encounter may share with the original: they cannot change in place.
IMMUTABLE = frozenset({UUID, datetime, str, int, float, bool, type(None)})

R = TypeVar("R", bound=Record)


def stored(value: object) -> JSON:
    """A value of a stored snapshot's state: JSON, as the transcoder decoded it."""
    if value is None or isinstance(value, str | int | float | bool | list | dict):
        return cast(JSON, value)
    raise TypeError(f"a snapshot stored JSON here, not {value!r}")


def records_of(value: object, cls: type[R]) -> Sequence[R]:
    # The actions: a view of records copies share (domain/encounter/shared_records.py).
    if not isinstance(value, list | SharedRecords) or not all(isinstance(r, cls) for r in value):
        raise TypeError(f"the encounter holds a list of {cls.__qualname__} here")
    return cast(Sequence[R], value)


def combatants_of(value: object) -> dict[str, Combatant]:
    if not isinstance(value, dict) or not all(isinstance(c, Combatant) for c in value.values()):
        raise TypeError("the encounter holds its combatants as records")
    return cast(dict[str, Combatant], value)


def _exchanges(value: object) -> list[Exchange]:
    return [Exchange.from_json(x) for x in as_list(stored(value))]


def _corrections(value: object) -> list[Correction]:
    return [Correction.from_json(c) for c in as_list(stored(value))]


def _overrides(value: object) -> list[TurnOverride]:
    return [TurnOverride.from_json(o) for o in as_list(stored(value))]


def _combatants(value: object) -> dict[str, Combatant]:
    json = stored(value)
    if not isinstance(json, Mapping):
        raise TypeError(f"a snapshot stored the combatants as an object, not {json!r}")
    return combatants_from_json(json)


# Each key of the state that holds records: how a snapshot writes it, how it reads it.
WRITTEN: dict[str, Callable[[object], JSON]] = {
    "combatants": lambda value: combatants_as_json(combatants_of(value)),
    "initial_combatants": lambda value: combatants_as_json(combatants_of(value)),
    "actions": lambda value: [r.as_json() for r in records_of(value, ActionRecord)],
    "corrections": lambda value: [r.as_json() for r in records_of(value, Correction)],
    "exchanges": lambda value: [r.as_json() for r in records_of(value, Exchange)],
    "overrides": lambda value: [r.as_json() for r in records_of(value, TurnOverride)],
}
# The keys a snapshot writes as JSON by their records' types (the snapshot's `json_state`).
JSON_STATE = frozenset(WRITTEN)
READ: dict[str, Callable[[object], object]] = {
    "combatants": _combatants,
    "initial_combatants": _combatants,
    "actions": lambda value: SharedRecords(actions_from_json(stored(value))),
    "corrections": _corrections,
    "exchanges": _exchanges,
    "overrides": _overrides,
}


# The keys that hold lists of records, each record's JSON its own: a snapshot taker may
# write each list through a `RecordLists` that reuses what it wrote of the same records
# before (application/snapshotting.py), so a snapshot's cost is the records added since.
Listed = ActionRecord | Correction | Exchange | TurnOverride
LISTED: dict[str, type[Listed]] = {
    "actions": ActionRecord,
    "corrections": Correction,
    "exchanges": Exchange,
    "overrides": TurnOverride,
}


def listed_records(value: object, cls: type[Listed]) -> Sequence[Listed]:
    if not isinstance(value, list | SharedRecords) or not all(isinstance(r, cls) for r in value):
        raise TypeError(f"the encounter holds a list of {cls.__qualname__} here")
    return cast(Sequence[Listed], value)


def write_state(state: Mapping[str, object], lists: RecordLists | None = None) -> dict[str, object]:
    """The state as version 1 stored it: JSON, records written out."""
    # The readings kept as JSON, none if none are kept (domain/reading/recorded.py): an
    # encounter of events stored before they were recorded stores none, as it did.
    written = stored_kept({k: v for k, v in state.items() if k != "class_version"})
    for key, write in WRITTEN.items():
        if key not in state:  # an encounter recorded before exchanges has none, say
            continue
        listed = LISTED.get(key)
        if lists is not None and listed is not None:
            written[key] = lists(key, listed_records(state[key], listed))
        else:
            written[key] = write(state[key])
    return written


def read_state(state: dict[str, object]) -> None:
    """A snapshot's state, old (fe485e1's) or new, read back into records in place."""
    for key, read in READ.items():
        if key in state:
            state[key] = read(state[key])
    read_kept(state)


def copy_sharing(
    original: object, clone: object, memo: dict[int, object], shared: frozenset[str]
) -> None:
    """Fill ``clone`` (a new, empty instance) as a deep copy of ``original`` that shares
    what cannot change in place: the ``shared`` attributes, ids, dates and records."""
    memo[id(original)] = clone
    for key, value in vars(original).items():
        if key == "_pending_events":
            # A copy is read, never saved: the events still to save stay with the
            # original. (The writer copies each command's result mid-batch, when an
            # encounter may hold every event of the batch so far: copying them made
            # a batch cost the square of its length.)
            vars(clone)[key] = []
        elif key in shared or type(value) in IMMUTABLE:
            vars(clone)[key] = value  # ids and dates: copying a UUID or datetime
        else:  # goes through pickling's slow path, for nothing
            vars(clone)[key] = copy.deepcopy(value, memo)


def tracks_and_state(
    combatants: Mapping[str, Combatant],
) -> tuple[dict[str, Tracks], dict[str, State]]:
    """Each combatant's tracks and state, as a correction's event carries them."""
    return (
        {cid: dict(c.tracks) for cid, c in combatants.items()},
        {cid: dict(c.state) for cid, c in combatants.items()},
    )
