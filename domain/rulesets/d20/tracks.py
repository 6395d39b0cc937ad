"""A combatant's hit points (the d20 ruleset's one track) as a typed record.

The events carry a combatant's tracks as JSON (``{"hp": 12}``); the rules read them once
into ``HitPoints`` and write them back out as the same JSON.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from skald_campaign.ruleset_api import CombatantView


class HitPoints(msgspec.Struct, frozen=True):
    hp: int

    @classmethod
    def from_json(cls, tracks: Mapping[str, int]) -> HitPoints:
        return cls(int(tracks["hp"]))

    def as_json(self) -> dict[str, int]:
        return {"hp": self.hp}


def hp_of(combatant: CombatantView) -> int:
    """The combatant's hit points now, read from the tracks its encounter holds."""
    return HitPoints.from_json(combatant.tracks).hp
