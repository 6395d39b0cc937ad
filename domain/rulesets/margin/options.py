"""The margin ruleset's options: every number a ruling introduced, with its default.

A campaign may override any of them when it is created; the validated options
are recorded in the campaign's first event, so a replay never changes meaning.
Types are strict (``"3"`` is not a number, ``true`` is not 1) and every value is
bounded so that every accepted campaign computes (M18).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated

from pydantic import Field, StrictInt, model_validator

from skald_campaign.domain.rulesets.margin.exact import Bounds, ExactNumber
from skald_campaign.ruleset_api import Frozen, read_own_options

MAX_HEALTH = 1000
HIGHEST_VIGOR = 20


# T1: the sheet fields an initiative roll may add (the table options are the engine's).
INITIATIVE_ADDS = (
    "might",
    "grace",
    "vigor",
    "aether",
    "melee",
    "marksmanship",
    "evasion",
    "guard",
    "abjuration",
    "luck",
)


class MarginOptions(Frozen):
    # Only the rules' own: a campaign takes the engine's table options beside them.
    success_on: StrictInt = Field(
        default=5,
        ge=2,
        le=6,
        description="M1: a die showing this face or higher is a success",
    )
    max_effort: StrictInt = Field(
        default=3,
        ge=0,
        le=10,
        description="M6: most effort dice one attack or posture may buy",
    )
    fatigue_per_effort_die: StrictInt = Field(
        default=1,
        ge=0,
        le=10,
        description="M6: fatigue each effort die costs",
    )
    fatigue_per_exhaustion_die: StrictInt = Field(
        default=2,
        ge=1,
        le=20,
        description="M6: exhaustion penalty dice = fatigue // this",
    )
    light_day_fatigue_divisor: StrictInt = Field(
        default=2,
        ge=1,
        le=10,
        description="M6, M18: a light day leaves fatigue // this (1 keeps it all)",
    )
    wounded_penalty: StrictInt = Field(
        default=1,
        ge=0,
        le=10,
        description="M7: dice a wounded character loses on attacks and active defenses",
    )
    wounded_at: Annotated[
        ExactNumber, Bounds(0, 1, "M7, M18: wounded at health <= this share of maximum")
    ] = Fraction(1, 2)
    base_health: StrictInt = Field(
        default=10,
        ge=1,
        le=MAX_HEALTH,
        description="M2, M18: a sheet's default health is this + health_per_vigor x Vigor",
    )
    health_per_vigor: StrictInt = Field(
        default=2,
        ge=0,
        le=(MAX_HEALTH - 1) // HIGHEST_VIGOR,
        description="M2, M18: default health added per point of Vigor",
    )
    weakness_multiplier: Annotated[
        ExactNumber, Bounds(1, 100, "M11: a weakness multiplies damage up")
    ] = Fraction(2)
    resistance_multiplier: Annotated[
        ExactNumber, Bounds(0, 1, "M11: a resistance multiplies damage down")
    ] = Fraction(1, 2)
    armor_blunting: Annotated[
        ExactNumber,
        # The seed: armor "never quite becomes proof against anything", so below 1.
        Bounds(0, 1, "M12: physical damage x (1 - this) ** Armor", high_open=True),
    ] = Fraction(1, 10)
    real_threat: StrictInt = Field(
        default=3,
        ge=1,
        le=1_000_000,
        description="M16: a physical blow of at least this much after nature deals at least "
        "1 after armor",
    )
    riposte_sharpening: StrictInt = Field(
        default=1,
        ge=0,
        le=10,
        description="M14: extra evasion dice under Riposte",
    )
    melee_reaches: StrictInt = Field(
        default=1,
        ge=1,
        le=20,
        description="M15: the distance a melee weapon reaches",
    )
    reach_reaches: StrictInt = Field(
        default=2,
        ge=1,
        le=20,
        description="M15: the distance a reach weapon reaches",
    )

    @model_validator(mode="after")
    def _default_health_within_bounds(self) -> MarginOptions:
        most = self.base_health + self.health_per_vigor * HIGHEST_VIGOR
        if most > MAX_HEALTH:
            raise ValueError(
                f"base_health + {HIGHEST_VIGOR} x health_per_vigor is {most}; a sheet's "
                f"health is at most {MAX_HEALTH}"
            )
        return self

    def default_health(self, vigor: int) -> int:
        """M2, M18: the health a sheet that states none gets."""
        return self.base_health + self.health_per_vigor * vigor

    def is_wounded(self, health: int, max_health: int) -> bool:
        """M7, M18: wounded at health <= wounded_at x max, compared exactly."""
        return health <= self.wounded_at * max_health


DEFAULT_OPTIONS = MarginOptions()


def read_options(options: Mapping[str, object]) -> MarginOptions:
    """The campaign's recorded options (JSON) back as exact values (read once per
    recorded object: an encounter hands the same options to every action)."""
    return read_own_options(MarginOptions, options)
