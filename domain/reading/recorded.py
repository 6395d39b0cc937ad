"""What the reads need of the rules, worked out when a command is resolved and recorded
with its event (issue 38, "a read side that needs no rules code").

Every event that changes a character's or a combatant's sheet, tracks or state carries,
from its class's version 3 on, ``readings``: for each character it touched, what the
reads would otherwise ask the campaign's ruleset for::

    {"<character id>": {"conditions": ["stunned"], "maxima": {"stamina": 12, "body": 10},
                        "descriptor": "stunned"}}

- ``conditions``: its conditions once the event is applied (the ruleset's ``conditions``
  of its sheet, tracks and state, under the options of the aggregate that recorded it);
- ``maxima``: its tracks' maxima (``track_maxima`` of its sheet);
- ``descriptor``: the one word a player or a viewer reads for its tracks (RULINGS T3,
  domain/reading/visibility.py);
- ``derived`` and ``equipment``, in a campaign's events only (the character view shows
  them; a combatant's does not): its derived ratings (``derived_ratings`` of its sheet
  and state) and its equipment (``equipment`` of its sheet). Optional keys inside
  version 3, not a new version: a stored version 3 reading without them means "not
  recorded" for them alone, and the campaign's GET asks the ruleset installed for
  them, as it did before they were recorded (none when it is missing).

Each aggregate keeps the latest readings of each character an event touched
(``recorded_readings``, written by ``keep``: an event class that records them is a
``KeepsReadings``), so the campaign's and an encounter's GET answer from them and ask
no ruleset; a character whose last event recorded none (stored before version 3) has
none kept, and is read through the ruleset installed as before. A character's sheet
and state change only through events that record readings (the campaign's enrolment,
a fight's end, a heal, a wound marked, an amendment, an adjustment, a correction
carried; an encounter's start, actions, GM changes and corrections), so what is kept
is what the rules would say now.

The aggregate works them out as it records the event (domain/encounter/aggregate.py,
domain/campaign/aggregate.py), reusing what the command already resolved: an action's
and a GM change's conditions after it are those its record holds, so ``conditions()`` is
not run again for them. The projections (projections/vitals.py, projections/board.py)
read them and call no ruleset.

An event stored before version 3 cannot have them worked out by its upcast: its payload
holds the changed tracks, not the sheets nor the options they are read under. Its
upcast records ``None`` ("not recorded") and the projections read such an event as they
always did, through the ruleset installed (domain/reading/installed.py; none when it is
missing: no conditions, no maxima).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from eventsourcing.domain import CanMutateAggregate

from skald_campaign.domain.reading.visibility import descriptor
from skald_campaign.domain.records import JSON, JSONObject, Vitals

# The event field every such class has from version 3 on.
FIELD = "readings"
# The fields whose per-character mappings name who an event touched.
PER_CHARACTER = ("tracks", "state", "sheets", "combatants")
# The aggregate's attribute that keeps each character's latest readings.
KEPT = "recorded_readings"
# An event class's flag: it records readings for every character of its aggregate.
EVERY = "reads_every_character"


class Rules(Protocol):
    """The part of a ruleset the aggregate asks, under the aggregate's options."""

    def track_maxima(self, sheet: Any) -> dict[str, int]: ...

    def conditions(
        self, sheet: Any, tracks: Mapping[str, int], state: Mapping[str, Any]
    ) -> Sequence[str]: ...

    def track_descriptor(
        self, tracks: Mapping[str, int], maxima: Mapping[str, int]
    ) -> str | None: ...

    def derived_ratings(self, sheet: Any, state: Any) -> Mapping[str, Any]: ...

    def equipment(self, sheet: Any) -> Mapping[str, Any]: ...


class Recorded(NamedTuple):
    """One character's readings, as an event recorded them; ``derived`` and
    ``equipment`` None where it recorded none (an encounter's event, or a campaign's
    stored before they were)."""

    conditions: list[str]
    maxima: dict[str, int]
    descriptor: str
    derived: JSONObject | None = None
    equipment: JSONObject | None = None


def upcast_not_recorded(state: dict[str, object]) -> None:
    """An event stored before version 3: its readings were not recorded (None), so the
    projections read it through the ruleset installed."""
    state[FIELD] = None


def records_readings(event_class: type) -> bool:
    """Does this event class record what the reads need of the rules?"""
    fields: Mapping[str, object] = getattr(event_class, "__dataclass_fields__", {})
    return FIELD in fields


def touched(fields: Mapping[str, object]) -> list[str]:
    """The characters an event's fields change: the ids of its per-character mappings
    (tracks, state, sheets, a correction's combatants) and the one it names
    (``character_id``: an enrolment, whose tracks are the character's own)."""
    found: set[str] = set()
    for name in PER_CHARACTER:
        value = fields.get(name)
        if isinstance(value, Mapping):
            found.update(k for k, v in value.items() if isinstance(v, Mapping))
    character_id = fields.get("character_id")
    if isinstance(character_id, str):
        found.add(character_id)
    # And whom its readings name: an event that changes no character's values but the
    # rules they are read under (a ruleset's version recorded or accepted) records
    # readings for every character, and names them only there.
    recorded = fields.get(FIELD)
    if isinstance(recorded, Mapping):
        found.update(k for k, v in recorded.items() if isinstance(v, Mapping))
    return sorted(found)


def readings(
    rules: Rules,
    characters: Mapping[str, Vitals],
    known_conditions: Mapping[str, Sequence[str]],
    ratings: bool = False,
) -> dict[str, JSONObject]:
    """Each character's readings. ``known_conditions``: those the command already worked
    out (an action's record holds each touched combatant's conditions after it); the
    others are asked of the rules, once each. ``ratings``: with the derived ratings and
    the equipment (a campaign's)."""
    found: dict[str, JSONObject] = {}
    for character_id, vitals in characters.items():
        known = known_conditions.get(character_id)
        conditions = list(
            known
            if known is not None
            else rules.conditions(vitals.sheet, vitals.tracks, vitals.state)
        )
        maxima = dict(rules.track_maxima(vitals.sheet))
        reading: dict[str, JSON] = {
            "conditions": list[JSON](conditions),
            "maxima": dict[str, JSON](maxima),
            "descriptor": descriptor(rules, vitals.tracks, maxima),
        }
        if ratings:
            reading["derived"] = dict(rules.derived_ratings(vitals.sheet, vitals.state))
            reading["equipment"] = dict(rules.equipment(vitals.sheet))
        found[character_id] = reading
    return found


def with_readings(
    pending: list[Any],
    rules: Callable[[], Rules],
    vitals_of: Callable[[str], Vitals | None],
    known_conditions: Mapping[str, Sequence[str]] | None = None,
    ratings: bool = False,
    everyone: Iterable[str] = (),
) -> object:
    """The last event an aggregate recorded (``pending[-1]``, applied already), with its
    readings if its class records them: the same event, ``readings`` set (it changes no
    state). ``vitals_of``: a touched character as the aggregate now holds it (None for
    one it does not hold). ``everyone``: the aggregate's characters, read too when the
    event's class ``reads_every_character`` (a ruleset's version recorded or accepted:
    what the rules say of each character changes with them). The event, as it now
    stands (for ``noted``)."""
    recorded = pending[-1]
    if not records_readings(type(recorded)) or getattr(recorded, FIELD) is not None:
        return recorded
    ids = set(touched(vars(recorded)))
    if getattr(type(recorded), EVERY, False):
        ids.update(everyone)
    held = {}
    for character_id in sorted(ids):
        found = vitals_of(character_id)
        if found is not None:
            held[character_id] = found
    worked_out = readings(rules(), held, known_conditions or {}, ratings)
    pending[-1] = dataclasses.replace(recorded, **{FIELD: worked_out})
    return pending[-1]


# -- what an aggregate keeps of them --------------------------------------------------


class KeptReadings(dict[str, JSONObject]):
    """An aggregate's kept readings: replaced whole, never changed in place, so a copy
    of the aggregate (the writer's answers, the cache's) shares them, as it shares its
    records (domain/records.py Record)."""

    def __copy__(self) -> KeptReadings:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> KeptReadings:
        return self


def noted(aggregate: object, recorded: object) -> None:
    """Keep in ``aggregate`` the readings ``recorded`` (an event of it, applied) holds
    for each character it touched; a character it recorded none for (an event stored
    before version 3, or one just applied whose readings are not worked out yet) has
    none kept, until an event records them."""
    if not records_readings(type(recorded)):
        return
    found = getattr(recorded, FIELD)
    ids = touched(vars(recorded))
    before: Mapping[str, JSONObject] = getattr(aggregate, KEPT, {})
    kept = KeptReadings({cid: value for cid, value in before.items() if cid not in ids})
    if type(found) is dict:
        for cid in ids:
            value = found.get(cid)
            if type(value) is dict:
                kept[cid] = value
    # Replaced whole, never changed in place: copies of the aggregate may share it. None
    # kept, no attribute: as an aggregate of older events always was (and its snapshot).
    if kept:
        setattr(aggregate, KEPT, kept)
    elif hasattr(aggregate, KEPT):
        delattr(aggregate, KEPT)


def stored_kept(state: Mapping[str, object]) -> dict[str, object]:
    """A snapshot's state with the kept readings as plain JSON, none if none are kept."""
    found = state.get(KEPT)
    written = {k: v for k, v in state.items() if k != KEPT}
    if isinstance(found, Mapping) and found:
        written[KEPT] = dict(found)
    return written


def read_kept(state: dict[str, object]) -> None:
    """A snapshot's state read back: its kept readings (if any) shared by copies."""
    found = state.get(KEPT)
    if isinstance(found, Mapping):
        state[KEPT] = KeptReadings(found)


def kept_for(aggregate: object, character_id: str) -> Recorded | None:
    """The character's readings as the last event that touched it recorded them; None
    when it recorded none (the reads then ask the ruleset installed)."""
    kept: Mapping[str, JSONObject] = getattr(aggregate, KEPT, {})
    return recorded_for(kept, character_id)


class KeepsReadings(CanMutateAggregate[Any]):
    """An event class that records readings: applying it (as it is recorded, or
    replayed) keeps them in the aggregate (``noted``)."""

    def apply(self, aggregate: Any) -> None:
        super().apply(aggregate)
        noted(aggregate, self)


def recorded_for(recorded: object, character_id: str) -> Recorded | None:
    """A character's readings in an event's ``readings`` (the projections' read); None
    when the event recorded none for it (an event stored before version 3)."""
    if not isinstance(recorded, dict):  # a KeptReadings too
        return None
    found = recorded.get(character_id)
    if type(found) is not dict:
        return None
    conditions, maxima, word = found["conditions"], found["maxima"], found["descriptor"]
    if not (isinstance(conditions, list) and isinstance(maxima, dict) and isinstance(word, str)):
        raise TypeError(f"readings of {character_id} are not as recorded: {found!r}")
    derived, equipment = found.get("derived"), found.get("equipment")
    return Recorded(
        [str(c) for c in conditions],
        {str(k): int(v) for k, v in maxima.items()},
        word,
        derived if type(derived) is dict else None,
        equipment if type(equipment) is dict else None,
    )
