"""A combatant's two pools, Stamina and Body (RULINGS S2), as a typed record.

The events carry a combatant's tracks as JSON (``{"stamina": 7, "body": 5}``); the rules
read them once into a ``Pools`` and write a new one back out in the same key order, so
stored payloads keep their bytes.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from skald_campaign.ruleset_api import CombatantView


class Pools(msgspec.Struct, frozen=True):
    stamina: int
    body: int

    @classmethod
    def from_json(cls, tracks: Mapping[str, int]) -> Pools:
        return cls(int(tracks["stamina"]), int(tracks["body"]))

    def as_json(self) -> dict[str, int]:
        return {"stamina": self.stamina, "body": self.body}


def pools_of(combatant: CombatantView) -> Pools:
    """The combatant's pools now, read from the tracks its encounter holds."""
    return Pools.from_json(combatant.tracks)
