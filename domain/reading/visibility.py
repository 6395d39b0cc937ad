"""What others see of a character's tracks (RULINGS T3): one word, never the numbers.

A player's and a viewer's key see an NPC's tracks as a descriptor unless the campaign's
``show_npc_numbers`` is on; the GM always sees numbers. The descriptor is the first of
its ruleset's list that applies (each ruleset's ``track_descriptor``, in its package),
compared exactly in integers (a third, a half), else ``hurt`` or ``unhurt``:

- stamina-body: ``unconscious`` (Body < 0), ``stunned`` (Stamina < 0), ``winded``
  (Stamina <= a third of its maximum), ``hurt`` (any track below its maximum), ``unhurt``;
- margin: ``down`` (health <= 0), ``wounded`` (M7: health <= ``wounded_at`` x maximum),
  ``hurt``, ``unhurt``;
- d20: ``down`` (HP <= 0), ``bloodied`` (HP <= half its maximum), ``hurt``, ``unhurt``.

Who decides what a reader sees (the read-side policy) is application/redaction.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from pydantic import Field

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.records import Character


class Describes(Protocol):
    """A ruleset as the descriptor reads it (domain/rulesets/base.py ``track_descriptor``):
    the rulesets' sheets import this module's option field, so it names no ruleset."""

    def track_descriptor(
        self, tracks: Mapping[str, int], maxima: Mapping[str, int]
    ) -> str | None: ...


def show_npc_numbers_field() -> bool:
    """The option every ruleset carries (T3): off, players and viewers see NPCs' tracks
    as a descriptor."""
    return Field(
        default=False,
        description="T3: players' and viewers' keys see NPCs' track numbers, hidden dice "
        "excepted (off: one descriptor per NPC, e.g. 'hurt')",
    )


def _hurt(tracks: Mapping[str, int], maxima: Mapping[str, int]) -> bool:
    return any(value < maxima.get(name, value) for name, value in tracks.items())


def descriptor(
    rules: Describes | None, tracks: Mapping[str, int], maxima: Mapping[str, int]
) -> str:
    """T3: the one word a player or viewer sees for these tracks: the ruleset's own
    (``track_descriptor``, under the campaign's options), else hurt or unhurt (also
    when the ruleset is not installed: domain/reading/installed.py)."""
    found = None if rules is None else rules.track_descriptor(tracks, maxima)
    if found is not None:
        return found
    return "hurt" if _hurt(tracks, maxima) else "unhurt"


def refuse_hidden_roll(actor: str | None, roster: Mapping[str, Character]) -> None:
    """T3: only an NPC's dice are rolled hidden (the GM's key checks its role first)."""
    if actor is None:
        raise InvalidInput("a hidden roll is an NPC's action: name the NPC as its actor")
    character = roster.get(actor)
    if character is None:
        raise InvalidInput(f"a hidden roll is an NPC's action; '{actor}' is no character here")
    if not character.npc:
        raise InvalidInput(
            f"a hidden roll is an NPC's action; {character.name} is a PC (roll it in the "
            'open, or enrol the character with "npc": true)'
        )
