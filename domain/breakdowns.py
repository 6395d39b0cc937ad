"""A stored action record's breakdown as the narrators read it: typed records.

Each ruleset writes its breakdown as JSON (domain/rulesets/); a narrator decodes the
part it reads into these frozen structs (``read``), once, where it reads it: a part
the narrator reads only in some cases (a defense after a hit, the damage after a
landed blow) is decoded only then, so a record reads exactly as far as it did when
the narrators read the JSON by key. A record not shaped as these say fails to decode
(``msgspec.ValidationError``, a ValueError), and the narrative falls back to the plain
lines (domain/narrators.py ``narrate``), as a missing key did.

Only the fields a narrator reads are declared; the breakdown's others are ignored.
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

T = TypeVar("T")
Unset = msgspec.UnsetType
UNSET = msgspec.UNSET
Exact = str | int  # an exact number as margin writes it: "6561/2500", "4" or 4


class Part(msgspec.Struct, frozen=True):
    """Base of every part a narrator reads."""


def read(value: object, kind: type[T]) -> T:
    """The stored JSON ``value`` as the typed ``kind``."""
    return msgspec.convert(value, kind)


def given(value: T | Unset, otherwise: T | Unset = UNSET) -> T:
    """A field the narrator reads here, so it must have been recorded (or a default)."""
    if isinstance(value, Unset):
        if isinstance(otherwise, Unset):
            raise KeyError("a field of the record the narrative reads was not recorded")
        return otherwise
    return value


def present(value: T | None) -> T:
    """A part the narrator reads here, so it must have been recorded."""
    if value is None:
        raise TypeError("a part of the breakdown the narrative reads was not recorded")
    return value


# -- the action record, as each ruleset's narrator reads it ---------------------------


class SbTold(Part, frozen=True):
    """A stamina-body action record as its narrator reads it."""

    kind: str
    # Decoded where they are read (a damage, an attack, a target), not copied here
    # first: one that is not an object then fails there, and the narrative falls back
    # to the plain lines as it did when it failed here.
    breakdown: object
    params: object
    actor: str | Unset | None = UNSET  # read for an attack


class MarginTold(Part, frozen=True):
    kind: str
    breakdown: dict[str, object]
    summary: str | Unset = UNSET  # read for what is not an attack or a cast


class D20Told(Part, frozen=True):
    breakdown: dict[str, object]
    summary: str
    params: dict[str, object] | Unset = UNSET  # read for a change of hit points


class Target(Part, frozen=True):
    target: str | Unset | None = UNSET


def target_of(params: object, otherwise: str | Unset = UNSET) -> str | None:
    """The target an action's parameters name (``otherwise`` when they name none; without
    it, the action must name one)."""
    return given(read(params, Target).target, otherwise)


# -- stamina-body -------------------------------------------------------------------


class SbCheck(Part, frozen=True):
    roll: int
    target: int
    success: bool
    margin: int
    note: str | None = ""


class Strength(Part, frozen=True):
    """A stamina-body sheet's strength, which sets an unarmed blow's damage class."""

    st: int


class SbWeapon(Part, frozen=True):
    name: str
    damage_class: int | Unset = UNSET  # read for an unarmed blow


class SbDefense(Part, frozen=True):
    kind: str
    why: str
    rolled: bool = False
    check: SbCheck | None = None


class SbAttack(Part, frozen=True):
    weapon: SbWeapon
    hit: SbCheck
    result: str
    defense: SbDefense | None = None
    damage: dict[str, object] | None = None  # read as SbDamage when the blow landed


class DamageDice(Part, frozen=True):
    damage_class: int = msgspec.field(name="class")
    options: list[str]
    count: int
    faces: list[int]
    added: int | Unset = UNSET  # read when options add dice


class Reading(Part, frozen=True):
    die: int
    stamina: int
    body: int


class Pools(Part, frozen=True):
    stamina: int
    body: int


class TableReading(Part, frozen=True):
    table: str
    readings: list[Reading]
    raw: Pools


class Why(Part, frozen=True):
    why: str


class Resilience(Part, frozen=True):
    armour: int
    shield: int
    total: int
    notes: list[str]


class AbsorbStep(Part, frozen=True):
    pool: str
    step: int
    after: int
    resilience_left: int


class Absorption(Part, frozen=True):
    steps: list[AbsorbStep]
    net: Pools


class BeforeAfter(Part, frozen=True):
    before: int
    after: int


class SbTracks(Part, frozen=True):
    stamina: BeforeAfter
    body: BeforeAfter


class SbDamage(Part, frozen=True):
    damage_dice: DamageDice
    reading: TableReading
    shield: Why
    resilience: Resilience
    absorption: Absorption
    tracks: SbTracks
    piercing_wound: bool = False


# -- margin -----------------------------------------------------------------------------


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
    damage: dict[str, object] | None = None  # read as MarginDamage when recorded


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


# -- d20 ------------------------------------------------------------------------------


class D20Term(Part, frozen=True):
    value: int
    name: str


class D20Check(Part, frozen=True):
    d20: int
    terms: list[D20Term]
    total: int
    comparison: str
    against: str
    target: int
    success: bool
    note: str | None = None


class D20Damage(Part, frozen=True):
    faces: list[int]
    dice: str | None = ""
    why: str | None = None
    formula: str | None = None


class D20Breakdown(Part, frozen=True):
    damage: object = None  # read as D20Damage when it is an object with faces
    hp: object = None  # read as BeforeAfter when it is an object
