"""A combatant's health (the margin ruleset's one track) as a typed record.

The events carry a combatant's tracks as JSON (``{"health": 9}``); the rules read them
once into ``Health`` and write them back out as the same JSON.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from skald_campaign.ruleset_api import CombatantView


class Health(msgspec.Struct, frozen=True):
    health: int

    @classmethod
    def from_json(cls, tracks: Mapping[str, int]) -> Health:
        return cls(int(tracks["health"]))

    def as_json(self) -> dict[str, int]:
        return {"health": self.health}


def health_of(combatant: CombatantView) -> int:
    """The combatant's health now, read from the tracks its encounter holds."""
    return Health.from_json(combatant.tracks).health
