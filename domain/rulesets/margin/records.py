"""Margin's records: a stored action record's breakdown as its narrators read it,
typed records (decoded where they are read; only the fields a narrator reads are declared)."""

from __future__ import annotations

from skald_campaign.ruleset_api.records import UNSET, BeforeAfter, Part, Unset, Why, read

__all__ = ["BeforeAfter", "Part", "Why"]  # read beside this package's own, as bd.<name>

Exact = str | int  # an exact number as margin writes it: "6561/2500", "4" or 4


class MarginTold(Part, frozen=True):
    kind: str
    breakdown: dict[str, object]
    summary: str | Unset = UNSET  # read for what is not an attack or a cast


class Term(Part, frozen=True):
    dice: int
    term: str | Unset = UNSET  # read when it adds dice


class Pool(Part, frozen=True):
    terms: list[Term]
    dice: int
    floor_applied: bool = False
    floor: int | None = None


class Successes(Part, frozen=True):
    faces: list[int]
    successes: int | Unset = UNSET  # read unless below nothing
    below_nothing: bool = False


class PoolRoll(Part, frozen=True):
    pool: Pool
    rolled: bool = True
    first: Successes | None = None
    luck: Successes | None = None


class DefenseRoll(PoolRoll, frozen=True, kw_only=True):  # its own fields after the roll's
    defense: str
    mode: str
    counts_as: int | Unset | None = UNSET
    total: int | None = None


class Defenses(Part, frozen=True):
    why: str
    rolls: list[DefenseRoll]


class Ward(Defenses, frozen=True):
    dwarf: str
    margin_before: int
    sum: int
    remaining: int
    stopped: bool


class Considered(Part, frozen=True):
    covers: bool
    why: str  # "Thrain stands at rank 2, behind Goblin 2 at rank 1"


class Uncovered(Part, frozen=True):
    """A blow on an ally whom no warding dwarf of the side covers (strike.py): every
    Ward considered, and why it does not cover the target."""

    dwarf: None
    considered: list[Considered]


class WardDeclared(Part, frozen=True):
    """A Ward's declaration (postures.py): whom it covers, the allies of the dwarf's side
    at his own rank or behind him (None: a record older than the list)."""

    covers: list[str] | None = None


class Named(Part, frozen=True):
    name: str


class WeaponName(Part, frozen=True):
    name: str | None = None


class MarginValue(Part, frozen=True):
    attack: int
    defenses: list[int]
    value: int


class DamageWeapon(Part, frozen=True):
    formula: str
    damage: Exact


class Nature(Part, frozen=True):
    damage_type: str
    nature: str | None = None
    multiplier: Exact | Unset = UNSET  # these two read for a nature
    damage: Exact | Unset = UNSET


class Armor(Part, frozen=True):
    physical: bool | None = None
    rating: int | None = None
    multiplier: Exact | Unset = UNSET  # these two read for physical damage against armor
    damage: Exact | Unset = UNSET


class MarginDamage(Part, frozen=True):
    to: str
    weapon: DamageWeapon
    nature: Nature
    armor: Armor
    exact: Exact
    final: int
    health: BeforeAfter


class Riposte(Part, frozen=True):
    why: str | Unset | None = UNSET  # without one, the riposte is shown
    damage: dict[str, object] | None = None  # read as MarginDamage when recorded (counter)
    attacker: str | None = None  # whom the counter hurt
    health: dict[str, object] | None = None  # the attacker's health, before and after

    def counter(self) -> MarginDamage:
        """The counter's damage as a blow's damage: riposte.py records whom it hurt and
        their health beside the damage, not in it (a record without them fails to read,
        and its narrative is the plain lines, as it was)."""
        return read(
            {**(self.damage or {}), "to": self.attacker, "health": self.health}, MarginDamage
        )


class MarginAttack(Part, frozen=True):
    kind: str
    attacker: Named
    target: Named
    distance: Why
    attack: PoolRoll
    weapon: WeaponName = WeaponName()  # "None" when the attack names no weapon
    defense: dict[str, object] | None = None  # each read only when recorded (not empty)
    margin: dict[str, object] | None = None
    ward: dict[str, object] | None = None
    damage: dict[str, object] | None = None
    riposte: dict[str, object] | None = None
