"""The stamina-body character sheet (RULINGS S2) and the ruleset's options.

Types are strict (RULINGS, all rulesets): ``"12"`` is not a number and ``1`` is
not ``true``; every number has bounds that keep every computation finite.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictBool, StrictInt, field_validator, model_validator

from skald_campaign.domain.rulesets.stamina_body.rules import unarmed_damage_class
from skald_campaign.ruleset_api import (
    CombatantView,
    EncounterView,
    Frozen,
    JsonObject,
    read_own_options,
    read_sheet,
)

# Fists are always at hand under this name (S11), so no sheet weapon may take it.
UNARMED = "unarmed"


class Weapon(Frozen):
    name: str = Field(
        min_length=1,
        max_length=80,
        description=f"unique on the sheet; '{UNARMED}' is reserved for fists (S11)",
        json_schema_extra={"not": {"pattern": "^\\s*[Uu][Nn][Aa][Rr][Mm][Ee][Dd]\\s*$"}},
    )
    damage_class: StrictInt = Field(ge=1, le=20, description="d6 rolled for damage on a hit")
    damage_type: Literal["impact", "piercing"]
    skill: StrictInt = Field(
        ge=0, le=30, description="the weapon skill the hit is rolled against (S1: 3 always hits)"
    )

    @field_validator("name")
    @classmethod
    def _not_unarmed(cls, name: str) -> str:
        if name.strip().lower() == UNARMED:
            raise ValueError(
                f"'{UNARMED}' is reserved: fists are always at hand (S11); name the weapon "
                "something else"
            )
        return name

    def breakdown(self) -> JsonObject:
        """The weapon as an attack's breakdown records it (the sheet's JSON of it)."""
        return {
            "name": self.name,
            "damage_class": self.damage_class,
            "damage_type": self.damage_type,
            "skill": self.skill,
        }


def fists(st: int, unarmed_skill: int) -> Weapon:
    """S11: fists, always at hand (constructed: the name is reserved on sheets)."""
    return Weapon.model_construct(
        name=UNARMED,
        damage_class=unarmed_damage_class(st),
        damage_type="impact",
        skill=unarmed_skill,
    )


class StaminaBodySheet(Frozen):
    """A stamina-body character (S2). Numbers are JSON integers written without a decimal
    point (12, not 12.0 nor "12"); each is refused outside its bounds."""

    st: StrictInt = Field(ge=1, le=40, description="Strength")
    con: StrictInt = Field(
        ge=1, le=40, description="Constitution: recovery target and Body heal rate"
    )
    parry: StrictInt = Field(default=0, ge=0, le=30)
    dodge: StrictInt = Field(default=0, ge=0, le=30)
    unarmed_skill: StrictInt = Field(default=10, ge=0, le=30)
    stamina_max: StrictInt = Field(ge=1, le=200)
    body_max: StrictInt = Field(ge=1, le=200)
    armour_resilience: StrictInt = Field(default=0, ge=0, le=50)
    shield_resilience: StrictInt = Field(default=0, ge=0, le=50)
    weapons: tuple[Weapon, ...] = Field(
        default=(), max_length=20, description="weapon names must be unique on the sheet"
    )

    @model_validator(mode="after")
    def _unique_weapon_names(self) -> StaminaBodySheet:
        names = [weapon.name for weapon in self.weapons]
        duplicated = sorted({name for name in names if names.count(name) > 1})
        if duplicated:
            raise ValueError(f"weapon names must be unique; repeated: {', '.join(duplicated)}")
        return self

    def weapon(self, name: str) -> Weapon | None:
        """The weapon of that name on the sheet, fists for 'unarmed', or None."""
        if name == UNARMED:
            return fists(self.st, self.unarmed_skill)
        return next((weapon for weapon in self.weapons if weapon.name == name), None)

    def defense(self, kind: Literal["parry", "dodge"]) -> int:
        return self.parry if kind == "parry" else self.dodge


def sheet_of(combatant: CombatantView) -> StaminaBodySheet:
    """The combatant's typed sheet (read once from its stored JSON)."""
    return read_sheet(StaminaBodySheet, combatant.sheet)


# T1: the sheet fields an initiative roll may add (the table options are the engine's).
INITIATIVE_ADDS = ("st", "con", "parry", "dodge", "unarmed_skill")


class StaminaBodyOptions(Frozen):
    """Seed 001 fixes its numbers; the options only name what a table may vary."""

    # Only the rules' own: a campaign takes the engine's table options beside them.

    extra_dice_per_option: StrictInt = Field(
        default=1,
        ge=1,
        le=3,
        description="damage dice added by each of Set weapon, Charge, Use extra strength "
        "(the seed: 'one or more', S11)",
    )
    stunned_may_defend: StrictBool = Field(
        default=False, description="S9: a stunned combatant may still parry or dodge"
    )
    bleed_per_round: StrictInt = Field(
        default=1,
        ge=0,
        le=20,
        description="S10: Body an unconscious, unstabilised combatant loses as each new "
        "round starts (0 turns bleeding off)",
    )


def options_of(view: EncounterView) -> StaminaBodyOptions:
    """The campaign's options, typed (read once per recorded options object; a campaign
    recorded before an option existed reads its default)."""
    return read_own_options(StaminaBodyOptions, view.options)
