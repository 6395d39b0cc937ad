"""Per-character state the margin rules carry: fatigue, luck, ammunition, posture, turn.

The state lives in the combatant's ``state`` dict (JSON only) and travels with
the character between encounters. A posture and the "has acted" mark name the
round they belong to, so the encounter's generic next round retires them
without any margin-specific event.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from skald_campaign.domain.rulesets.margin.sheet import MarginSheet, Weapon
from skald_campaign.ruleset_api import JsonMapping, JsonObject, as_int, as_object, as_optional_str

PostureKind = Literal["defend", "riposte", "ward"]


@dataclass(frozen=True)
class Posture:
    kind: str
    effort: int
    round: int
    weapon: str | None = None  # Riposte only: the weapon the elf would rather counter with
    # Exhaustion dice as they stood when the posture was taken, before its own effort was
    # paid: the same moment an attack's pool is counted at.
    exhaustion: int = 0

    def as_json(self) -> JsonObject:
        return {
            "kind": self.kind,
            "effort": self.effort,
            "round": self.round,
            "weapon": self.weapon,
            "exhaustion": self.exhaustion,
        }


@dataclass(frozen=True)
class CharacterState:
    fatigue: int = 0
    luck: int = 0
    ammunition: dict[str, int] = field(default_factory=dict)
    posture: Posture | None = None
    acted_round: int | None = None

    @classmethod
    def start(cls, sheet: MarginSheet) -> CharacterState:
        ammunition = {w.name: w.ammunition for w in sheet.weapons if w.ammunition is not None}
        return cls(fatigue=0, luck=sheet.luck, ammunition=ammunition)

    @classmethod
    def from_json(cls, state: JsonMapping) -> CharacterState:  # the JSON edge: parsed here
        posture = as_object(state.get("posture"))
        ammunition = as_object(state.get("ammunition"))
        return cls(
            fatigue=as_int(state.get("fatigue", 0)),
            luck=as_int(state.get("luck", 0)),
            ammunition={str(k): as_int(v) for k, v in ammunition.items()},
            posture=(
                Posture(
                    str(posture["kind"]),
                    as_int(posture["effort"]),
                    as_int(posture["round"]),
                    as_optional_str(posture.get("weapon")),
                    as_int(posture.get("exhaustion", 0)),
                )
                if posture
                else None
            ),
            acted_round=(
                as_int(state["acted_round"]) if state.get("acted_round") is not None else None
            ),
        )

    def as_json(self) -> JsonObject:
        return {
            "fatigue": self.fatigue,
            "luck": self.luck,
            "ammunition": dict(self.ammunition),
            "posture": self.posture.as_json() if self.posture else None,
            "acted_round": self.acted_round,
        }

    def posture_in(self, round_number: int) -> Posture | None:
        """M5: a posture counts only in the round it was declared."""
        if self.posture is not None and self.posture.round == round_number:
            return self.posture
        return None

    def has_acted_in(self, round_number: int) -> bool:
        return self.acted_round == round_number

    def exhaustion(self, fatigue_per_die: int) -> int:
        """M6: exhaustion penalty dice = fatigue // fatigue_per_exhaustion_die."""
        return self.fatigue // fatigue_per_die

    def spend_luck(self) -> CharacterState:
        return replace(self, luck=self.luck - 1)

    def shots_left(self, weapon: Weapon) -> int | None:
        """Shots left for a ranged weapon; None when it needs no ammunition."""
        if weapon.category != "ranged" or weapon.ammunition is None:
            return None
        return self.ammunition.get(weapon.name, weapon.ammunition)

    def spend_shot(self, weapon: Weapon) -> CharacterState:
        left = self.shots_left(weapon)
        if left is None:
            return self
        return replace(self, ammunition={**self.ammunition, weapon.name: left - 1})

    def acting(
        self, round_number: int, fatigue: int, posture: Posture | None = None
    ) -> CharacterState:
        """This round's one action taken: its fatigue paid and, for a posture, the posture."""
        return replace(
            self,
            acted_round=round_number,
            fatigue=self.fatigue + fatigue,
            posture=posture if posture is not None else self.posture,
        )

    def without_round_marks(self) -> CharacterState:
        """Forget the posture and the turn mark: for a new encounter or a new day."""
        return replace(self, posture=None, acted_round=None)


def is_down(health: int) -> bool:
    """M7: down at health <= 0."""
    return health <= 0
