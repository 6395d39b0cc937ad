"""The margin character sheet (RULINGS M2, M3, M11, M12).

A sheet is validated once, when the character is enrolled, and stored in its
JSON form with every default written out (health, each weapon's defenses), so
that what the table reads is exactly what the rules use.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field, StrictBool, StrictInt, field_validator, model_validator

from skald_campaign.domain.rulesets.margin.exact import Bounds, ExactNumber
from skald_campaign.ruleset_api import Frozen

Attribute = Literal["might", "grace", "vigor", "aether"]
Skill = Literal["melee", "marksmanship", "evasion", "guard", "abjuration"]
Defense = Literal["evasion", "guard", "abjuration"]
Category = Literal["melee", "reach", "ranged"]
Nature = Literal["weak", "resistant", "immune"]
PhysicalType = Literal["blunt", "slash", "pierce"]
DamageType = Literal[
    "blunt",
    "slash",
    "pierce",
    "fire",
    "cold",
    "lightning",
    "acid",
    "poison",
    "necrotic",
    "radiant",
    "psychic",
    "force",
    "arcane",
]

PHYSICAL_TYPES: frozenset[str] = frozenset(get_args(PhysicalType))
DEFENSE_ORDER: tuple[Defense, ...] = get_args(Defense)

# M4: which attribute and skill each defense rolls.
DEFENSE_TERMS: dict[str, tuple[Attribute, Skill]] = {
    "evasion": ("grace", "evasion"),
    "guard": ("vigor", "guard"),
    "abjuration": ("aether", "abjuration"),
}

FISTS_NAME = "fists"
# M2's default health (10 + 2 x Vigor); a campaign's own options replace it at
# enrolment (M18, Margin.validate_sheet), so this fills only sheets read without one.
BASE_HEALTH = 10
HEALTH_PER_VIGOR = 2


def is_physical(damage_type: str) -> bool:
    return damage_type in PHYSICAL_TYPES


def default_defenses(damage_type: str) -> tuple[Defense, ...]:
    """M3: physical harm allows evasion and guard; anything else also allows abjuration.

    The seed's "something magical may allow Aether and Abjuration as well, and then all
    three roll together" is the default for non-physical types; a sheet may narrow it.
    """
    if is_physical(damage_type):
        return ("evasion", "guard")
    return ("evasion", "guard", "abjuration")


class Weapon(Frozen):
    """Anything that attacks: a blade, a bow, fists, or (as a spell) a bolt of fire."""

    name: str = Field(min_length=1, max_length=80)
    attribute: Attribute = Field(description="the attribute the attack rolls")
    skill: Skill = Field(description="the skill the attack rolls")
    category: Category = Field(description="melee reaches 1, reach 2, ranged any distance")
    base_damage: StrictInt = Field(ge=0, le=1000, description="damage of any landed blow")
    per_margin: Annotated[ExactNumber, Bounds(0, 1000, "damage added per point of margin")]
    damage_type: DamageType
    defenses: tuple[Defense, ...] = Field(
        default=(),
        max_length=3,
        description="defenses this attack allows; default evasion+guard (physical) "
        "or evasion+guard+abjuration (any other type)",
    )
    ammunition: StrictInt | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="shots carried (ranged only); null means it needs none",
    )

    @model_validator(mode="before")
    @classmethod
    def _fill_defenses(cls, data: object) -> object:
        if isinstance(data, dict) and "defenses" not in data and "damage_type" in data:
            return {**data, "defenses": list(default_defenses(str(data["damage_type"])))}
        return data

    @field_validator("defenses")
    @classmethod
    def _defenses_once_each_in_order(cls, value: tuple[Defense, ...]) -> tuple[Defense, ...]:
        repeated = sorted({d for d in value if value.count(d) > 1})
        if repeated:
            raise ValueError(f"each defense may be listed once; repeated: {', '.join(repeated)}")
        # A fixed order makes roll names and breakdowns read the same way every time.
        return tuple(d for d in DEFENSE_ORDER if d in value)

    @model_validator(mode="after")
    def _ammunition_only_for_ranged(self) -> Weapon:
        if self.ammunition is not None and self.category != "ranged":
            raise ValueError(
                f"{self.name} is a {self.category} weapon; only ranged weapons carry ammunition"
            )
        return self

    @property
    def physical(self) -> bool:
        return is_physical(self.damage_type)


class Spell(Weapon):
    """M3: a spell is a weapon whose harm is not physical."""

    @model_validator(mode="after")
    def _not_physical(self) -> Spell:
        if self.physical:
            raise ValueError(
                f"spell {self.name} deals {self.damage_type}, a physical type; "
                "list it under weapons instead"
            )
        return self


FISTS = Weapon(
    name=FISTS_NAME,
    attribute="might",
    skill="melee",
    category="melee",
    base_damage=0,
    per_margin=1,
    damage_type="blunt",
    defenses=("evasion", "guard"),
)


class ArmorItem(Frozen):
    """M12: anything borne between the character and a blow, shields included."""

    name: str = Field(min_length=1, max_length=80)
    rating: StrictInt = Field(ge=0, le=50)
    shield: StrictBool = Field(default=False, description="a shield counts exactly like armor")


class MarginSheet(Frozen):
    might: StrictInt = Field(ge=0, le=20)
    grace: StrictInt = Field(ge=0, le=20)
    vigor: StrictInt = Field(ge=0, le=20)
    aether: StrictInt = Field(ge=0, le=20)
    melee: StrictInt = Field(default=0, ge=0, le=20)
    marksmanship: StrictInt = Field(default=0, ge=0, le=20)
    evasion: StrictInt = Field(default=0, ge=0, le=20)
    guard: StrictInt = Field(default=0, ge=0, le=20)
    abjuration: StrictInt = Field(default=0, ge=0, le=20)
    race: str = Field(
        default="human",
        min_length=1,
        max_length=40,
        pattern=r"^[a-z][a-z \-]*$",
        description="human, dwarf (may Ward), elf (may Riposte), or any other, lower case",
    )
    # Left out (or null), it is filled in from Vigor, so a stored sheet always carries
    # the number; the Optional only tells the JSON schema that it may be omitted.
    health: StrictInt | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="maximum health; default 10 + 2 x Vigor",
    )
    luck: StrictInt = Field(
        default=0, ge=0, le=20, description="luck points; refilled by full rest"
    )
    armor: tuple[ArmorItem, ...] = Field(default=(), max_length=20)
    weapons: tuple[Weapon, ...] = Field(default=(), max_length=20)
    spells: tuple[Spell, ...] = Field(default=(), max_length=20)
    nature: dict[DamageType, Nature] = Field(
        default_factory=dict,
        description="weak, resistant or immune, per damage type",
    )

    @model_validator(mode="after")
    def _default_health(self) -> MarginSheet:
        if self.health is None:
            # Frozen, so set the derived default the way pydantic itself stores fields.
            object.__setattr__(self, "health", BASE_HEALTH + HEALTH_PER_VIGOR * self.vigor)
        return self

    @field_validator("race", mode="before")
    @classmethod
    def _race_lower_case(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _unique_attack_names(self) -> MarginSheet:
        names = [w.name for w in self.weapons] + [s.name for s in self.spells]
        if any(name.strip().lower() == FISTS_NAME for name in names):
            raise ValueError("'fists' is always at hand and cannot be listed as a weapon or spell")
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(
                f"weapon and spell names must be unique; repeated: {', '.join(repeated)}"
            )
        return self

    @property
    def max_health(self) -> int:
        assert self.health is not None  # filled from Vigor by _default_health
        return self.health

    @property
    def armor_rating(self) -> int:
        """M12: everything borne, shields included, adds up into one number."""
        return sum(item.rating for item in self.armor)

    def attribute(self, name: str) -> int:
        return int(getattr(self, name))

    def find_weapon(self, name: str) -> Weapon | None:
        if name == FISTS_NAME:
            return FISTS
        return next((w for w in self.weapons if w.name == name), None)

    def find_spell(self, name: str) -> Spell | None:
        return next((s for s in self.spells if s.name == name), None)

    def weapon_names(self) -> list[str]:
        return [w.name for w in self.weapons] + [FISTS_NAME]
