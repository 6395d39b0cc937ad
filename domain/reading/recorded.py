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
  domain/reading/visibility.py).

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
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from skald_campaign.domain.reading.visibility import descriptor
from skald_campaign.domain.records import JSON, JSONObject, Vitals

# The event field every such class has from version 3 on.
FIELD = "readings"
# The fields whose per-character mappings name who an event touched.
PER_CHARACTER = ("tracks", "state", "sheets", "combatants")


class Rules(Protocol):
    """The part of a ruleset the aggregate asks, under the aggregate's options."""

    def track_maxima(self, sheet: Any) -> dict[str, int]: ...

    def conditions(
        self, sheet: Any, tracks: Mapping[str, int], state: Mapping[str, Any]
    ) -> Sequence[str]: ...

    def track_descriptor(
        self, tracks: Mapping[str, int], maxima: Mapping[str, int]
    ) -> str | None: ...


class Recorded(NamedTuple):
    """One character's readings, as an event recorded them."""

    conditions: list[str]
    maxima: dict[str, int]
    descriptor: str


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
    return sorted(found)


def readings(
    rules: Rules,
    characters: Mapping[str, Vitals],
    known_conditions: Mapping[str, Sequence[str]],
) -> dict[str, JSONObject]:
    """Each character's readings. ``known_conditions``: those the command already worked
    out (an action's record holds each touched combatant's conditions after it); the
    others are asked of the rules, once each."""
    found: dict[str, JSONObject] = {}
    for character_id, vitals in characters.items():
        known = known_conditions.get(character_id)
        conditions = list(
            known
            if known is not None
            else rules.conditions(vitals.sheet, vitals.tracks, vitals.state)
        )
        maxima = dict(rules.track_maxima(vitals.sheet))
        found[character_id] = {
            "conditions": list[JSON](conditions),
            "maxima": dict[str, JSON](maxima),
            "descriptor": descriptor(rules, vitals.tracks, maxima),
        }
    return found


def with_readings(
    pending: list[Any],
    rules: Callable[[], Rules],
    vitals_of: Callable[[str], Vitals | None],
    known_conditions: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """The last event an aggregate recorded (``pending[-1]``, applied already), with its
    readings if its class records them: the same event, ``readings`` set (it changes no
    state). ``vitals_of``: a touched character as the aggregate now holds it (None for
    one it does not hold)."""
    recorded = pending[-1]
    if not records_readings(type(recorded)) or getattr(recorded, FIELD) is not None:
        return
    held = {}
    for character_id in touched(vars(recorded)):
        found = vitals_of(character_id)
        if found is not None:
            held[character_id] = found
    worked_out = readings(rules(), held, known_conditions or {})
    pending[-1] = dataclasses.replace(recorded, **{FIELD: worked_out})


def recorded_for(recorded: object, character_id: str) -> Recorded | None:
    """A character's readings in an event's ``readings`` (the projections' read); None
    when the event recorded none for it (an event stored before version 3)."""
    if type(recorded) is not dict:
        return None
    found = recorded.get(character_id)
    if type(found) is not dict:
        return None
    conditions, maxima, word = found["conditions"], found["maxima"], found["descriptor"]
    if not (isinstance(conditions, list) and isinstance(maxima, dict) and isinstance(word, str)):
        raise TypeError(f"readings of {character_id} are not as recorded: {found!r}")
    return Recorded([str(c) for c in conditions], {str(k): int(v) for k, v in maxima.items()}, word)
