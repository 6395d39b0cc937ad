"""The plain narrative of an action record, in the order things happened: its ruleset's
own (``Ruleset.narrate``, in the ruleset's package), or the plain lines; then what was
left unused and the conditions it brought on.
"""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain.reading.narrative import (
    Sheeted,
    conditions_lines,
    generic,
    unids_lines,
    unused_lines,
)
from skald_campaign.domain.records import JSONObject
from skald_campaign.domain.rulesets import RULESETS

Roster = Mapping[str, Sheeted]


def narrate(ruleset: str, stored: JSONObject, combatants: Roster) -> list[str]:
    """The narrative of one action record (its JSON); combatants map id -> a record
    with a name and a sheet."""
    rules = RULESETS.get(ruleset)
    try:
        lines = None if rules is None else rules.narrate(stored, combatants)
        if lines is None:
            lines = generic(stored, combatants)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        # A record shaped by an older or newer rules module still reads, if plainly.
        lines = generic(stored, combatants)
    lines += unused_lines(stored) + conditions_lines(stored, combatants)
    return unids_lines(lines, combatants)
