"""Breakdowns people can read: ordered lines from the dice to the tracks.

Every action record carries, beside its exact machine-readable breakdown, a
``narrative``: names (never ids), decimals to two places beside exact fractions,
success counts (not face sums) in margin, every derived term, conditions gained
or lost, and the reason for anything surprising. It is derived from the record
when it is read, so old records and corrected ones read the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Protocol

from skald_campaign.domain.play.actions import ConditionChange
from skald_campaign.domain.reading.breakdowns import Part, read
from skald_campaign.domain.records import JSON, JSONObject


class Named(Protocol):
    """A combatant as a line of narrative names it (a record, or the rules' view of one)."""

    @property
    def name(self) -> str: ...


class Sheeted(Named, Protocol):
    """A combatant as a narrator reads it: its name and its sheet as stored."""

    @property
    def sheet(self) -> Mapping[str, JSON]: ...


Combatants = Mapping[str, Named]


# What every narrative reads of a record (the rulesets' parts: domain/reading/breakdowns.py).


class RollRead(Part, frozen=True):
    name: str
    dice: str
    faces: list[int]
    total: int


class Plain(Part, frozen=True):
    """What the plain lines read: the rolls and the one-line summary."""

    rolls: list[RollRead] = []
    summary: str = ""


class ConditionsRead(Part, frozen=True):
    before: list[str] = []
    after: list[str] = []


class WithConditions(Part, frozen=True):
    conditions: dict[str, ConditionsRead] | None = None


class Unused(Part, frozen=True):
    unused_dice: dict[str, list[int]] | None = None


class WithUnused(Part, frozen=True):
    breakdown: Unused | None = None


Narrator = Callable[[JSONObject, Mapping[str, Sheeted]], list[str]]


def exact(value: object) -> str:
    """'6561/2500 (2.62)' for a fraction; integers as they are."""
    text = str(value)
    if "/" not in text:
        return text
    number = Fraction(text)
    if number.denominator == 1:
        return str(number.numerator)
    return f"{text} ({float(number):.2f})"


def faces(values: Iterable[object]) -> str:
    return ", ".join(str(v) for v in values)


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if abs(n) == 1 else many}"


def name_of(combatants: Combatants, cid: object) -> str:
    found = combatants.get(str(cid))
    return found.name if found else str(cid)


def unids(text: str, combatants: Combatants) -> str:
    """Names, never ids: replace any combatant id a line still carries."""
    for cid, c in combatants.items():
        text = text.replace(cid, c.name)
    return text


def unids_lines(lines: Iterable[str], combatants: Combatants) -> list[str]:
    """``unids`` of each line that is not empty. An id found in none of the lines (most
    often: narrators write names) is passed by one search of their joined text, not
    one ``replace`` per line; each line still reads as ``unids`` makes it."""
    told = [line for line in lines if line]
    text = "\n".join(told)
    for cid, c in combatants.items():
        if cid in text:  # in some line, or across two: each line replaced as unids does
            told = [line.replace(cid, c.name) for line in told]
            text = "\n".join(told)
    return told


def conditions_lines(record: JSONObject, combatants: Combatants) -> list[str]:
    lines = []
    for cid, change in (read(record, WithConditions).conditions or {}).items():
        if change.before == change.after:
            continue  # nothing gained or lost (most actions' conditions)
        before, after = set(change.before), set(change.after)
        who = name_of(combatants, cid)
        gained = [c for c in change.after if c not in before]
        lost = [c for c in change.before if c not in after]
        if gained:
            lines.append(f"{who} gains: {', '.join(c.replace('_', ' ') for c in gained)}")
        if lost:
            lines.append(f"{who} loses: {', '.join(c.replace('_', ' ') for c in lost)}")
    return lines


def unused_lines(record: JSONObject) -> list[str]:
    breakdown = read(record, WithUnused).breakdown
    unused = (breakdown.unused_dice if breakdown else None) or {}
    return [
        f"Dice supplied for {name} ({faces(values)}) were not used: that roll was not needed"
        for name, values in unused.items()
    ]


def generic(record: JSONObject, combatants: Combatants) -> list[str]:
    plain = read(record, Plain)
    lines = [
        f"{roll.name}: {roll.dice} rolled {faces(roll.faces)} = {roll.total}"
        for roll in plain.rolls
    ]
    lines.append(plain.summary)
    return lines


def new_conditions_note(
    conditions: Mapping[str, ConditionChange],
    combatants: Combatants,
    summary: str = "",
) -> str:
    """'; Bran gains: unconscious, cannot act' for the one-line summary ('' when none)."""
    parts = []
    for cid, change in conditions.items():
        gained = [
            c for c in change.after if c not in change.before and c.replace("_", " ") not in summary
        ]
        if gained:
            named = ", ".join(c.replace("_", " ") for c in gained)
            parts.append(f"{name_of(combatants, cid)} gains: {named}")
    return "".join(f"; {part}" for part in parts)
