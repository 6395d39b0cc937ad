"""d20's records: a stored action record's breakdown as its narrators read it,
typed records (decoded where they are read; only the fields a narrator reads are declared)."""

from __future__ import annotations

from skald_campaign.ruleset_api.records import UNSET, BeforeAfter, Part, Unset

__all__ = ["BeforeAfter", "Part"]  # read beside this package's own, as bd.<name>


class D20Told(Part, frozen=True):
    breakdown: dict[str, object]
    summary: str
    params: dict[str, object] | Unset = UNSET  # read for a change of hit points


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
    arithmetic: str | None = None  # D4 through AV, or magic's minimum (rules.py)


class D20Breakdown(Part, frozen=True):
    damage: object = None  # read as D20Damage when it is an object with faces
    hp: object = None  # read as BeforeAfter when it is an object


class HazardSave(Part, frozen=True):
    hazard: str  # its name, as the GM gave it
    save_vs_death_ray: int  # the target's save number (its sheet's)
    d20: int
    saved: bool
    result: str  # the rules' words: "stops at the very edge", "goes into the pit; ..."


class Feet(Part, frozen=True):
    value: int


class HazardAt(Part, frozen=True):
    hazard_at_feet: int


class Pushed(Part, frozen=True):
    """A shove whose push reached a hazard's edge (actions/shove.py): the target's save,
    the feet the push had and how far behind the target the edge was."""

    hazard: HazardSave
    displacement: Feet
    terrain: HazardAt


class WallDamage(Part, frozen=True):
    arithmetic: str | None = None  # D4 through the target's AV (rules.physical_damage)


class Wall(Part, frozen=True):
    unused_feet: int
    shove_dice: int
    why: str  # "one d8 per full 2 points of FR +5, at least 1": the attacker's FR bonus
    faces: list[int] | None = None  # these three only when a die is rolled
    damage: WallDamage | None = None
    hp: BeforeAfter | None = None


class ShoveDie(Part, frozen=True):
    die: str


class WallAt(Part, frozen=True):
    wall_at_feet: int


class Walled(Part, frozen=True):
    """A shove that drove its target into a wall before its distance was spent
    (actions/shove.py): the wall's damage, the feet the push had, where the wall was."""

    wall: Wall
    displacement: Feet
    terrain: WallAt
    shove_die: ShoveDie | None = None  # recorded only when a die is rolled


class ThrowDamage(Part, frozen=True):
    shove_dice: int  # the option throw_damage_dice: 0 rolls none
    shove_die: ShoveDie | None = None  # these four only when a die is rolled
    faces: list[int] | None = None
    damage: WallDamage | None = None  # D4 through the thrown one's melee AV
    hp: BeforeAfter | None = None


class Threw(Part, frozen=True):
    """A successful throw (actions/wrestling.py): the shove dice it dealt, through AV."""

    throw_damage: ThrowDamage
