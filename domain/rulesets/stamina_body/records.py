"""Stamina-body's records: a stored action record's breakdown as its narrators read it,
typed records (decoded where they are read; only the fields a narrator reads are declared)."""

from __future__ import annotations

import msgspec

from skald_campaign.ruleset_api.records import UNSET, BeforeAfter, Part, Unset, Why

__all__ = ["BeforeAfter", "Part", "Why"]  # read beside this package's own, as bd.<name>


class SbTold(Part, frozen=True):
    """A stamina-body action record as its narrator reads it."""

    kind: str
    # Decoded where they are read (a damage, an attack, a target), not copied here
    # first: one that is not an object then fails there, and the narrative falls back
    # to the plain lines as it did when it failed here.
    breakdown: object
    params: object
    actor: str | Unset | None = UNSET  # read for an attack


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
