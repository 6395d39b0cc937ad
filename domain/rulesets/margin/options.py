"""The margin ruleset's options: every number a ruling introduced, with its default.

A campaign may override any of them when it is created; the validated options
are recorded in the campaign's first event, so a replay never changes meaning.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import Field, field_validator

from domain.rulesets.base import Frozen
from domain.rulesets.margin.exact import ExactNumber


class MarginOptions(Frozen):
    success_on: int = Field(
        default=5,
        ge=2,
        le=6,
        description="M1: a die showing this face or higher is a success",
    )
    max_effort: int = Field(
        default=3,
        ge=0,
        le=10,
        description="M6: most effort dice one attack or posture may buy",
    )
    fatigue_per_effort_die: int = Field(
        default=1,
        ge=0,
        le=10,
        description="M6: fatigue each effort die costs",
    )
    fatigue_per_exhaustion_die: int = Field(
        default=2,
        ge=1,
        le=20,
        description="M6: exhaustion penalty dice = fatigue // this",
    )
    wounded_penalty: int = Field(
        default=1,
        ge=0,
        le=10,
        description="M7: dice a wounded character loses on attacks and active defenses",
    )
    weakness_multiplier: ExactNumber = Field(
        default=Fraction(2),
        description="M11: damage multiplier for a weakness",
    )
    resistance_multiplier: ExactNumber = Field(
        default=Fraction(1, 2),
        description="M11: damage multiplier for a resistance",
    )
    armor_blunting: ExactNumber = Field(
        default=Fraction(1, 10),
        description="M12: physical damage x (1 - this) ** Armor",
    )
    riposte_sharpening: int = Field(
        default=1,
        ge=0,
        le=10,
        description="M14: extra evasion dice under Riposte",
    )
    melee_reaches: int = Field(
        default=1,
        ge=1,
        le=20,
        description="M15: the distance a melee weapon reaches",
    )
    reach_reaches: int = Field(
        default=2,
        ge=1,
        le=20,
        description="M15: the distance a reach weapon reaches",
    )

    @field_validator("weakness_multiplier")
    @classmethod
    def _weakness_multiplies_up(cls, value: Fraction) -> Fraction:
        if not 1 <= value <= 100:
            raise ValueError("a weakness multiplies damage up: between 1 and 100")
        return value

    @field_validator("resistance_multiplier")
    @classmethod
    def _resistance_multiplies_down(cls, value: Fraction) -> Fraction:
        if not 0 <= value <= 1:
            raise ValueError("a resistance multiplies damage down: between 0 and 1")
        return value

    @field_validator("armor_blunting")
    @classmethod
    def _armor_never_proof(cls, value: Fraction) -> Fraction:
        # The seed: armor "never quite becomes proof against anything", so below 1.
        if not 0 <= value < 1:
            raise ValueError("armor blunting is a share of each blow: at least 0, below 1")
        return value


def read_options(options: Any) -> MarginOptions:
    """The campaign's recorded options (JSON) back as exact values."""
    return MarginOptions.model_validate(dict(options))
