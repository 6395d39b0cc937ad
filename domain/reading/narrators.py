"""The plain narrative of an action record, in the order things happened: its ruleset's
own (``Ruleset.narrate``, in the ruleset's package), or the plain lines; then what was
left unused and the conditions it brought on.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from skald_campaign.domain.reading.narrative import (
    Sheeted,
    conditions_lines,
    generic,
    unids_lines,
    unused_lines,
)
from skald_campaign.domain.reading.texts import render
from skald_campaign.domain.reading.told_form import Told, recorded, text_of
from skald_campaign.domain.records import JSONObject
from skald_campaign.domain.rulesets import RULESETS

Roster = Mapping[str, Sheeted]


def narrate(ruleset: str, stored: JSONObject, combatants: Roster) -> list[str]:
    """The narrative of one action record (its JSON); combatants map id -> a record
    with a name and a sheet."""
    told = recorded(stored)
    try:
        if told is not None:  # as its command recorded it (domain/reading/told_form.py)
            lines = recorded_narrate(told)
        else:
            rules = RULESETS.get(ruleset)
            lines = None if rules is None else rules.narrate(stored, combatants)
        if lines is None:
            lines = generic(stored, combatants)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        # A record shaped by an older or newer rules module still reads, if plainly.
        lines = generic(stored, combatants)
    lines += unused_lines(stored) + conditions_lines(stored, combatants)
    return unids_lines(lines, combatants)


def recorded_narrate(told: Told) -> list[str] | None:
    """The ruleset's plain narrative as recorded: its lines, or (none recorded apart)
    its narrative's lines as the GM reads them; None: the ruleset told none."""
    if not isinstance(told.narrate, msgspec.UnsetType):
        return None if told.narrate is None else list(told.narrate)
    if told.narrative is None:
        return None
    return [render(text_of(line)) for line in told.narrative]
