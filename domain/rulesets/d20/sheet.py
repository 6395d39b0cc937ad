"""The d20 character sheet and the ruleset's options, validated when they arrive.

Every field a GM types is named after the seed's own words; a bad value is
refused with a message that names the field (see ``domain.validation``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from skald_campaign.domain.rulesets.d20.tables import (
    LOWEST_SCORE,
    ArmorId,
    ShieldId,
    SizeId,
    ability_modifier,
)
from skald_campaign.ruleset_api import DiceError, DiceExpression, Frozen, JsonObject

WrestlingRowId = Literal[
    "none",
    "leather",
    "thyatian_leather",
    "scale",
    "chain_mail",
    "banded",
    "plate_mail",
    "suit_armor",
]


class Strict(Frozen):
    """Strict types (RULINGS, all rulesets): "16" is not a number and 1 is not ``true``."""

    model_config = ConfigDict(strict=True)


HIGHEST_SCORE = 30
LOWEST_STATED, HIGHEST_STATED = -5, 10
_SCORE: JsonObject = {"type": "integer", "minimum": LOWEST_SCORE, "maximum": HIGHEST_SCORE}
_STATED: JsonObject = {"type": "integer", "minimum": LOWEST_STATED, "maximum": HIGHEST_STATED}
_NULL: JsonObject = {"type": "null"}


def _ability_schema(schema: JsonObject) -> None:
    """Publish exactly what is accepted: a bare score, or an object with one of the two."""
    schema.clear()
    schema["anyOf"] = [
        _SCORE,
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {"score": _SCORE, "modifier": _NULL},
            "required": ["score"],
        },
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {"score": _NULL, "modifier": _STATED},
            "required": ["modifier"],
        },
    ]


def json_type(value: object) -> str:
    """How a JSON reader would name the type of a value that was sent."""
    for kind, name in ((bool, "a boolean"), (str, "a string"), (float, "a fractional number")):
        if isinstance(value, kind):
            return name
    return "null" if value is None else "a list"


class Ability(Strict):
    """An ability as a score (read on the D1 table) or as a modifier the sheet states."""

    model_config = ConfigDict(json_schema_extra=_ability_schema)

    score: int | None = Field(default=None, ge=LOWEST_SCORE, le=HIGHEST_SCORE)
    modifier: int | None = Field(default=None, ge=LOWEST_STATED, le=HIGHEST_STATED)

    @model_validator(mode="before")
    @classmethod
    def _bare_number_is_a_score(cls, data: object) -> object:
        # "strength": 16 is the way most sheets are written down.
        if isinstance(data, int) and not isinstance(data, bool):
            return {"score": data}
        if isinstance(data, dict | Ability):
            return data
        raise ValueError(
            'should be an integer score (e.g. 16) or {"modifier": 2}, not ' + json_type(data)
        )

    @model_validator(mode="after")
    def _exactly_one(self) -> Ability:
        if (self.score is None) == (self.modifier is None):
            raise ValueError("give either a score (e.g. 16) or a stated modifier, not both")
        return self

    @property
    def value(self) -> int:
        return ability_modifier(self.score) if self.score is not None else int(self.modifier or 0)

    def describe(self, label: str) -> str:
        if self.score is not None:
            return f"{label} modifier (score {self.score})"
        return f"{label} modifier (stated)"


# D10: every character has these two HR attacks; no sheet weapon may take their names.
UNARMED_STRIKE = "Unarmed Strike"
SHIELD_BASH = "Shield Bash"
BUILT_IN_ATTACKS = (UNARMED_STRIKE, SHIELD_BASH)
MAX_DAMAGE_MODIFIER = 1000  # with at most 100 dice of 1000 sides, a blow stays far from 2**63


def damage_notation(text: str) -> str:
    """Dice notation that rolls at least one die, its flat modifier bounded; normalised."""
    try:
        expression = DiceExpression.parse(text)
    except DiceError as error:
        raise ValueError(error.message) from None
    if expression.count < 1:
        raise ValueError(f"'{text}' rolls no dice; a weapon rolls at least one")
    if abs(expression.modifier) > MAX_DAMAGE_MODIFIER:
        raise ValueError(f"'{text}': the flat modifier is between -1000 and +1000")
    return str(expression)


DAMAGE_NOTATION = r"^\s*\d*\s*[dD]\s*\d+\s*(?:[+-]\s*\d+)?\s*$"


class Weapon(Strict):
    name: str = Field(min_length=1, max_length=80)
    damage: str = Field(
        max_length=30,
        json_schema_extra={"pattern": DAMAGE_NOTATION},
        description="dice notation, e.g. 1d8, 2d4+1: 1-100 dice of 2-1000 sides, modifier "
        "-1000..+1000",
    )
    delivery: Literal["melee", "missile"] = Field(
        default="melee", description="missile hits meet the armor's AV vs missiles"
    )
    damage_kind: Literal["physical", "magic"] = Field(
        default="physical", description="magic damage ignores AV"
    )
    magic_bonus: int = Field(
        default=0, ge=-5, le=10, description="the weapon's own bonus to hit (D12)"
    )

    @field_validator("name")
    @classmethod
    def _not_a_built_in(cls, name: str) -> str:
        if name.strip().casefold() in {built_in.casefold() for built_in in BUILT_IN_ATTACKS}:
            raise ValueError(
                f"'{name}' is an attack every character has (D10); give the weapon another name"
            )
        return name

    @field_validator("damage")
    @classmethod
    def _dice_notation(cls, text: str) -> str:
        return damage_notation(text)

    @property
    def dice(self) -> DiceExpression:
        return DiceExpression.parse(self.damage)


ABILITY_HELP = 'a score, e.g. 16 (read on the D1 table), or a stated modifier: {"modifier": 2}'


def _sheet_schema(schema: JsonObject) -> None:
    # Exactly one of level (characters) and hit_dice (monsters) is given.
    schema["oneOf"] = [
        {"properties": {field: {"type": "integer"}}, "required": [field]}
        for field in ("level", "hit_dice")
    ]


class D20Sheet(Strict):
    model_config = ConfigDict(json_schema_extra=_sheet_schema)

    strength: Ability = Field(description=ABILITY_HELP)
    dexterity: Ability = Field(description=ABILITY_HELP)
    constitution: Ability = Field(description=ABILITY_HELP)
    wisdom: Ability = Field(description=ABILITY_HELP)
    level: int | None = Field(default=None, ge=1, le=40)
    hit_dice: int | None = Field(default=None, ge=1, le=40)
    hr_skill_slots: int = Field(default=0, ge=0, le=20, description="Class Skill slots in HR")
    fr_skill_slots: int = Field(default=0, ge=0, le=20, description="Class Skill slots in FR")
    hr_magic_bonus: int = Field(
        default=0,
        ge=-5,
        le=10,
        description="magic bonuses to hit not from a weapon (enchantments, effects); a "
        "weapon's own bonus goes on the weapon (D12)",
    )
    fr_magic_bonus: int = Field(default=0, ge=-5, le=10, description="items, effects")
    ac_technique_bonus: int = Field(
        default=0, ge=-10, le=10, description="active defensive techniques that stand on AC"
    )
    size: SizeId = "medium"
    armor: ArmorId = "none"
    shield: ShieldId = "none"
    hp: int = Field(ge=1, le=1000, description="hit points: the damage track's maximum")
    save_vs_death_ray: int = Field(ge=1, le=20, description="a d20 at or above this saves")
    defensive_stance_mastery: int = Field(
        default=0, ge=0, le=10, description="added to FD while in Defensive Stance"
    )
    size_penalty_mastery_reduction: int = Field(
        default=0, ge=0, le=28, description="takes off the -4 per size category penalty"
    )
    # A JSON list arrives as a list: the tuple itself is not strict, its weapons are.
    weapons: tuple[Weapon, ...] = Field(default=(), max_length=20, strict=False)

    @model_validator(mode="after")
    def _level_or_hit_dice(self) -> D20Sheet:
        if (self.level is None) == (self.hit_dice is None):
            raise ValueError("give either level (characters) or hit_dice (monsters), not both")
        return self

    @model_validator(mode="after")
    def _unique_weapon_names(self) -> D20Sheet:
        names = [weapon.name.casefold() for weapon in self.weapons]
        repeated = sorted({w.name for w in self.weapons if names.count(w.name.casefold()) > 1})
        if repeated:
            raise ValueError(f"weapon names must be unique; repeated: {', '.join(repeated)}")
        return self

    @property
    def level_or_hd(self) -> tuple[str, int]:
        if self.level is not None:
            return "level", self.level
        return "HD", int(self.hit_dice or 0)

    def weapon(self, name: str) -> Weapon | None:
        wanted = name.strip().casefold()
        return next((w for w in self.weapons if w.name.casefold() == wanted), None)


# T1: the sheet fields an initiative roll may add; an ability adds its D1 modifier (the
# score read on the table, or the one stated). The table options are the engine's.
INITIATIVE_ADDS = ("strength", "dexterity", "constitution", "wisdom", "level")
INITIATIVE_ADD_DESCRIPTION = (
    "T1: the sheet field added to each roll; an ability adds its D1 modifier"
)


class D20Options(Strict):
    """Numbers and choices the rulings introduce; a campaign may change them at creation."""

    # Only the rules' own: a campaign takes the engine's table options beside them.

    natural_20_hits: bool = Field(
        default=False, description="a natural 20 on the hit roll hits whatever the AC (D3)"
    )
    natural_1_misses: bool = Field(
        default=False, description="a natural 1 on the hit roll misses whatever the total (D3)"
    )
    magic_minimum_damage: int = Field(
        default=1, ge=0, le=10, description="least damage a magic hit deals (D4)"
    )
    double_success_margin: int = Field(
        default=10, ge=1, le=40, description="a shove total of FD + this is a double success (D6)"
    )
    double_success_distance: Literal["twice_max_displacement", "seed_ten_feet"] = Field(
        default="seed_ten_feet",
        description=(
            "a double success moves the target the seed's literal 10ft (the default), or "
            "twice the attacker's Max Displacement (D6a's reading)"
        ),
    )
    wall_damage_minimum_dice: int = Field(
        default=1, ge=0, le=10, description="least shove dice a wall deals (D6)"
    )
    throw_damage_dice: int = Field(
        default=1, ge=0, le=10, description="shove dice a successful throw deals, through AV"
    )
    elven_chain_wrestles_as: WrestlingRowId = Field(
        default="chain_mail", description="the wrestling table has no Elven Chain row"
    )
    dwarven_plate_wrestles_as: WrestlingRowId = Field(
        default="plate_mail", description="the wrestling table has no Dwarven Plate row"
    )
    unarmed_damage: str = Field(
        default="1d2",
        max_length=30,
        json_schema_extra={"pattern": DAMAGE_NOTATION},
        description="D10: an unarmed strike's damage, through AV",
    )
    shield_bash_damage: str = Field(
        default="1d4",
        max_length=30,
        json_schema_extra={"pattern": DAMAGE_NOTATION},
        description="D10: a shield bash's damage (only with a shield), through AV",
    )

    @field_validator("unarmed_damage", "shield_bash_damage")
    @classmethod
    def _dice_notation(cls, text: str) -> str:
        return damage_notation(text)
