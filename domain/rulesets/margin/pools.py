"""Dice pools (RULINGS M1) and luck's automatic second look (M8).

A pool is N six-sided dice; each die showing ``success_on`` or more is a
success. A pool of one or more dice that shows nothing but 1s totals -1:
"below nothing". A pool of zero or fewer dice is not rolled and totals 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from skald_campaign.ruleset_api import DiceTray, JsonObject

SIDES = 6
BELOW_NOTHING = -1


@dataclass(frozen=True)
class PoolTerm:
    """One reason the pool has the size it has, e.g. ("grace", 3) or ("exhaustion", -1)."""

    label: str
    dice: int


@dataclass(frozen=True)
class Pool:
    """The dice a roll throws and the terms that made that number."""

    terms: tuple[PoolTerm, ...]
    floor: int | None = None  # the passive floor an active defense never sinks below

    @property
    def raw(self) -> int:
        return sum(term.dice for term in self.terms)

    @property
    def size(self) -> int:
        return self.raw if self.floor is None else max(self.raw, self.floor)

    def breakdown(self) -> JsonObject:
        return {
            "terms": [{"term": t.label, "dice": t.dice} for t in self.terms],
            "sum": self.raw,
            "floor": self.floor,
            "floor_applied": self.floor is not None and self.raw < self.floor,
            "dice": self.size,
        }


@dataclass(frozen=True)
class Reading:
    """How one throw of a pool reads: its faces, successes and total."""

    faces: tuple[int, ...]
    successes: int
    below_nothing: bool

    @property
    def total(self) -> int:
        return BELOW_NOTHING if self.below_nothing else self.successes

    def breakdown(self) -> JsonObject:
        return {
            "faces": list(self.faces),
            "successes": self.successes,
            "below_nothing": self.below_nothing,
            "total": self.total,
        }


def read_faces(faces: Sequence[int], success_on: int = 5) -> Reading:
    successes = sum(1 for face in faces if face >= success_on)
    below = len(faces) > 0 and successes == 0 and all(face == 1 for face in faces)
    return Reading(tuple(faces), successes, below)


@dataclass(frozen=True)
class PoolRoll:
    """A pool as it was thrown: the first reading, luck's second look if any, the total."""

    name: str
    pool: Pool
    first: Reading | None  # None: a pool of 0 or fewer dice is not rolled
    second: Reading | None
    luck_spent: bool

    @property
    def total(self) -> int:
        if self.second is not None:
            return self.second.total
        return self.first.total if self.first is not None else 0

    def breakdown(self) -> JsonObject:
        return {
            "roll": self.name,
            "pool": self.pool.breakdown(),
            "rolled": self.first is not None,
            "first": self.first.breakdown() if self.first is not None else None,
            "luck": (
                {"roll": f"{self.name}.luck", "spent": 1, **self.second.breakdown()}
                if self.second is not None
                else None
            ),
            "total": self.total,
        }


def roll_pool(
    tray: DiceTray,
    name: str,
    pool: Pool,
    *,
    success_on: int,
    luck_available: bool,
) -> PoolRoll:
    """Throw ``pool`` under roll ``name``; a total of 0 or less gets luck's second look.

    M8: the second look is automatic while the character has a luck point, and the
    second result stands even if it is worse. A pool that is not rolled has no blank to
    look at again, so it never spends luck.
    """
    if pool.size <= 0:
        return PoolRoll(name, pool, None, None, luck_spent=False)
    first = read_faces(tray.roll(name, pool.size, SIDES).faces, success_on)
    if first.total > 0 or not luck_available:
        return PoolRoll(name, pool, first, None, luck_spent=False)
    second = read_faces(tray.roll(f"{name}.luck", pool.size, SIDES).faces, success_on)
    return PoolRoll(name, pool, first, second, luck_spent=True)
