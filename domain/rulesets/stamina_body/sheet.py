"""The stamina-body character sheet (RULINGS S2) and the ruleset's options."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from domain.rulesets.base import Frozen


class Weapon(Frozen):
    name: str = Field(min_length=1, max_length=80)
    damage_class: int = Field(ge=1, le=20, description="d6 rolled for damage on a hit")
    damage_type: Literal["impact", "piercing"]
    skill: int = Field(ge=3, le=30, description="the weapon skill the hit roll is made against")


class StaminaBodySheet(Frozen):
    st: int = Field(ge=1, le=40, description="Strength")
    con: int = Field(ge=1, le=40, description="Constitution: recovery target and Body heal rate")
    parry: int = Field(default=0, ge=0, le=30)
    dodge: int = Field(default=0, ge=0, le=30)
    unarmed_skill: int = Field(default=10, ge=3, le=30)
    stamina_max: int = Field(ge=1, le=200)
    body_max: int = Field(ge=1, le=200)
    armour_resilience: int = Field(default=0, ge=0, le=50)
    shield_resilience: int = Field(default=0, ge=0, le=50)
    weapons: tuple[Weapon, ...] = Field(default=(), max_length=20)

    @model_validator(mode="after")
    def _unique_weapon_names(self) -> StaminaBodySheet:
        names = [weapon.name for weapon in self.weapons]
        duplicated = sorted({name for name in names if names.count(name) > 1})
        if duplicated:
            raise ValueError(f"weapon names must be unique; repeated: {', '.join(duplicated)}")
        return self


class StaminaBodyOptions(Frozen):
    """Seed 001 fixes its numbers; the options only name what a table may vary."""

    extra_dice_per_option: int = Field(
        default=1,
        ge=0,
        le=3,
        description="damage dice added by each of Set weapon, Charge, Use extra strength",
    )
