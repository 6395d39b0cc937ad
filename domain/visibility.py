"""What others see of a character's tracks (RULINGS T3): one word, never the numbers.

A player's and a viewer's key see an NPC's tracks as a descriptor unless the campaign's
``show_npc_numbers`` is on; the GM always sees numbers. The descriptor is the first of
its ruleset's list that applies, compared exactly in integers (a third, a half):

- stamina-body: ``unconscious`` (Body < 0), ``stunned`` (Stamina < 0), ``winded``
  (Stamina <= a third of its maximum), ``hurt`` (any track below its maximum), ``unhurt``;
- margin: ``down`` (health <= 0), ``wounded`` (M7: health <= ``wounded_at`` x maximum),
  ``hurt``, ``unhurt``;
- d20: ``down`` (HP <= 0), ``bloodied`` (HP <= half its maximum), ``hurt``, ``unhurt``.

Who decides what a reader sees (the read-side policy) is application/redaction.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Literal

from pydantic import Field

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.records import Character

Descriptor = Literal[
    "unconscious", "stunned", "winded", "down", "wounded", "bloodied", "hurt", "unhurt"
]
MARGIN_WOUNDED_AT = Fraction(1, 2)  # M7's default, the option `wounded_at`


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


def _stamina_body(tracks: Mapping[str, int], maxima: Mapping[str, int]) -> Descriptor | None:
    body, stamina = tracks.get("body", 0), tracks.get("stamina", 0)
    if body < 0:
        return "unconscious"
    if stamina < 0:
        return "stunned"
    if "stamina" in maxima and 3 * stamina <= maxima["stamina"]:
        return "winded"
    return None


def _margin(
    tracks: Mapping[str, int], maxima: Mapping[str, int], wounded_at: Fraction
) -> Descriptor | None:
    health = tracks.get("health", 0)
    if health <= 0:
        return "down"
    if "health" in maxima and health <= wounded_at * maxima["health"]:
        return "wounded"
    return None


def _d20(tracks: Mapping[str, int], maxima: Mapping[str, int]) -> Descriptor | None:
    hp = tracks.get("hp", 0)
    if hp <= 0:
        return "down"
    if "hp" in maxima and 2 * hp <= maxima["hp"]:
        return "bloodied"
    return None


def descriptor(
    ruleset_id: str,
    tracks: Mapping[str, int],
    maxima: Mapping[str, int],
    wounded_at: Fraction = MARGIN_WOUNDED_AT,
) -> Descriptor:
    """T3: the one word a player or viewer sees for these tracks."""
    found: Descriptor | None = None
    if ruleset_id == "stamina-body":
        found = _stamina_body(tracks, maxima)
    elif ruleset_id == "margin":
        found = _margin(tracks, maxima, wounded_at)
    elif ruleset_id == "d20":
        found = _d20(tracks, maxima)
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
