"""An encounter's records with their texts as the command worked them out (issue 38, "a
read side that needs no rules code"; domain/reading/told_form.py).

As each event that holds action records is recorded (``ActionResolved``, ``GMChanged``,
``Corrected``, ``Recomputed``, from version 4; ``TableRecorded``, from version 3: the
table's initiative, turns and markers), every record it writes that has no
``told`` yet gets one: what the encounter's ruleset's narration says of it, asked once
here, with the roster the command read. A record a correction carried unchanged keeps
the one it had; a record it resolved again (domain/play/corrections.py) has none until
this gives it its new one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from skald_campaign.domain.play.actions import ActionRecord
from skald_campaign.domain.reading.told import worked_out
from skald_campaign.domain.reading.told_form import FIELD
from skald_campaign.domain.reading.visibility import descriptor
from skald_campaign.domain.records import Combatant, JSONObject, replace
from skald_campaign.domain.rulesets.base import Ruleset


class Rules(NamedTuple):
    """The ruleset that tells records (the installed one, as the reads ask it) and the
    one that words descriptors (under the fight's options, as its reader's key does)."""

    telling: Ruleset
    fight: Ruleset


# The events that hold records, by where: the record is the event's own fields, its
# ``record``, or its list of ``actions``.
OWN = frozenset({"ActionResolved"})
RECORD = frozenset({"GMChanged", "TableRecorded"})
LISTED = frozenset({"Corrected", "Recomputed"})


def told_of(rules: Rules, record: ActionRecord, combatants: Mapping[str, Combatant]) -> JSONObject:
    """The record's texts as its ruleset's package tells them (the ruleset as the reads
    found it, under no campaign's options), each NPC's descriptor worded as the fight's
    rules read its tracks against its sheet's maxima (RULINGS T3)."""

    def describe(owner: str, tracks: Mapping[str, int]) -> str:
        found = combatants.get(owner)
        maxima = {} if found is None else rules.fight.track_maxima(found.sheet)
        return descriptor(rules.fight, tracks, maxima)

    return worked_out(rules.telling, record.as_json(), combatants, describe)


class Told(NamedTuple):
    """What `with_told` found: the event with its records' texts, and either its one
    record with them (``last``: the encounter's last record, which the event wrote) or
    the encounter's whole list of records with them (``records``: a correction's)."""

    event: Any
    last: ActionRecord | None = None
    records: list[ActionRecord] | None = None


def with_told(
    event: Any,
    actions: Sequence[ActionRecord],
    rules: Rules,
    combatants: Mapping[str, Combatant],
) -> Told | None:
    """``event`` (applied already: ``actions`` are the encounter's records after it) and
    the records it wrote, each given its texts; None when it writes none without them.
    An event that wrote one record (the last) gives it alone, not a copy of every record
    before it (at 10,000 actions that copy was ~0.07 ms of each command: bench/README.md,
    "told19")."""
    name = type(event).__name__
    if name in OWN:
        record = actions[-1]
        if getattr(event, FIELD) is not None or record.told is not None:
            return None
        told = told_of(rules, record, combatants)
        return Told(dataclasses.replace(event, **{FIELD: told}), last=replace(record, told=told))
    if name in RECORD:
        record = actions[-1]
        if record.told is not None:
            return None
        told = told_of(rules, record, combatants)
        written = {**event.record, FIELD: told}
        return Told(dataclasses.replace(event, record=written), last=replace(record, told=told))
    if name in LISTED:
        stored = list(event.actions)
        records = list(actions)
        if len(stored) != len(records):
            raise ValueError("a correction's records are not the encounter's")
        for n, record in enumerate(records):
            if record.told is None:
                told = told_of(rules, record, combatants)
                records[n] = replace(record, told=told)
                stored[n] = {**stored[n], FIELD: told}
        if stored == list(event.actions):
            return None
        return Told(dataclasses.replace(event, actions=stored), records=records)
    return None
