"""Seed 001 as pure functions: damage tables, resilience, the shield rule, checks.

Every function takes plain values and returns a frozen result that carries its
own breakdown, so the aggregate can record exactly why the numbers came out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from skald_campaign.ruleset_api import JsonObject

DamageType = Literal["impact", "piercing"]

# Die face -> (Stamina damage, Body damage), exactly as the seed's two tables.
DAMAGE_TABLES: dict[str, dict[int, tuple[int, int]]] = {
    "impact": {1: (1, 0), 2: (1, 0), 3: (2, 0), 4: (3, 0), 5: (4, 0), 6: (5, 1)},
    "piercing": {1: (1, 0), 2: (1, 0), 3: (1, 0), 4: (2, 1), 5: (3, 1), 6: (4, 2)},
}


class DamageReading(msgspec.Struct, frozen=True):
    damage_type: str
    readings: tuple[tuple[int, int, int], ...]  # (face, stamina, body)

    @property
    def stamina(self) -> int:
        return sum(stamina for _, stamina, _ in self.readings)

    @property
    def body(self) -> int:
        return sum(body for _, _, body in self.readings)

    def breakdown(self) -> JsonObject:
        return {
            "table": self.damage_type,
            "readings": [
                {"die": face, "stamina": stamina, "body": body}
                for face, stamina, body in self.readings
            ],
            "raw": {"stamina": self.stamina, "body": self.body},
        }


def read_damage(faces: Sequence[int], damage_type: str) -> DamageReading:
    """Read each die on its own against the weapon type's table."""
    table = DAMAGE_TABLES[damage_type]
    return DamageReading(damage_type, tuple((face, *table[face]) for face in faces))


class DamageDice(msgspec.Struct, frozen=True):
    base: int
    added: int
    options: tuple[str, ...]

    @property
    def count(self) -> int:
        return self.base + self.added

    def breakdown(self) -> JsonObject:
        return {
            "class": self.base,
            "options": list(self.options),
            "added": self.added,
            "count": self.count,
        }


def damage_dice(
    damage_class: int,
    *,
    per_option: int = 1,
    set_weapon: bool = False,
    charge: bool = False,
    extra_strength: bool = False,
) -> DamageDice:
    """The weapon's damage class plus the dice each combat option adds."""
    chosen = tuple(
        name
        for name, on in (
            ("set_weapon", set_weapon),
            ("charge", charge),
            ("extra_strength", extra_strength),
        )
        if on
    )
    return DamageDice(damage_class, per_option * len(chosen), chosen)


def unarmed_damage_class(strength: int) -> int:
    return max(1, strength // 4)


class ShieldDecision(msgspec.Struct, frozen=True):
    counts: bool
    reason: str


def shield_decision(
    *, parried: bool, hit_score: int | None, parry_score: int | None
) -> ShieldDecision:
    """The shield joins only after a successful parry that the hit beat by at most 2."""
    if not parried or parry_score is None:
        return ShieldDecision(False, "no successful parry: the shield does not help")
    if hit_score is None:
        return ShieldDecision(True, "successful parry and no hit score given: the shield counts")
    gap = hit_score - parry_score
    if gap <= 2:
        return ShieldDecision(
            True, f"hit score {hit_score} - parry score {parry_score} = {gap} <= 2"
        )
    return ShieldDecision(
        False, f"hit score {hit_score} - parry score {parry_score} = {gap} > 2: it goes around"
    )


class Resilience(msgspec.Struct, frozen=True):
    armour: int
    shield: int
    total: int
    notes: tuple[str, ...]


def effective_resilience(
    *,
    armour: int,
    shield: int,
    shield_counts: bool,
    ignore_armour: bool = False,
    ignore_shield: bool = False,
) -> Resilience:
    notes: list[str] = []
    armour_part = 0 if ignore_armour else armour
    if ignore_armour:
        notes.append(f"ignore armour: armour resilience {armour} removed")
    shield_part = shield if shield_counts and not ignore_shield else 0
    if ignore_shield and shield_counts:
        notes.append(f"ignore shield: shield resilience {shield} removed")
    return Resilience(armour_part, shield_part, armour_part + shield_part, tuple(notes))


class Absorption(msgspec.Struct, frozen=True):
    resilience: int
    steps: tuple[tuple[int, str, int, int], ...]  # (step, pool, pool after, resilience left)
    stamina: int
    body: int

    @property
    def absorbed(self) -> int:
        return len(self.steps)

    def breakdown(self) -> JsonObject:
        return {
            "resilience": self.resilience,
            "steps": [
                {"step": n, "pool": pool, "after": after, "resilience_left": left}
                for n, pool, after, left in self.steps
            ],
            "absorbed": self.absorbed,
            "net": {"stamina": self.stamina, "body": self.body},
        }


def absorb(stamina: int, body: int, resilience: int) -> Absorption:
    """Soak one point at a time: Body, Stamina, Body, ...; an empty pool's turn is skipped."""
    left = resilience
    body_first = True  # whose turn it is to soak: Body, then Stamina, then Body...
    steps: list[tuple[int, str, int, int]] = []
    while left > 0 and (body > 0 or stamina > 0):
        soaks_body = body > 0 if body_first else stamina <= 0
        if soaks_body:
            body -= 1
        else:
            stamina -= 1
        left -= 1
        pool, after = ("body", body) if soaks_body else ("stamina", stamina)
        steps.append((len(steps) + 1, pool, after, left))
        body_first = not soaks_body
    return Absorption(resilience, tuple(steps), stamina, body)


class Check(msgspec.Struct, frozen=True):
    """3d6 against a target: success when the roll is <= target; 18 fails, 3 succeeds."""

    roll: int
    target: int
    success: bool
    margin: int
    note: str

    def breakdown(self) -> JsonObject:
        return {
            "roll": self.roll,
            "target": self.target,
            "success": self.success,
            "margin": self.margin,
            "note": self.note,
        }


def check(roll: int, target: int) -> Check:
    margin = target - roll
    if roll >= 18:
        return Check(roll, target, False, margin, "a natural 18 always fails")
    if roll <= 3:
        return Check(roll, target, True, margin, "a natural 3 always succeeds")
    success = roll <= target
    note = f"{roll} {'<=' if success else '>'} {target}"
    return Check(roll, target, success, margin, note)
