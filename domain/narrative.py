"""Breakdowns people can read: ordered lines from the dice to the tracks.

Every action record carries, beside its exact machine-readable breakdown, a
``narrative``: names (never ids), decimals to two places beside exact fractions,
success counts (not face sums) in margin, every derived term, conditions gained
or lost, and the reason for anything surprising. It is derived from the record
when it is read, so old records and corrected ones read the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Protocol

from domain.records import JSON


class Named(Protocol):
    """A combatant as a line of narrative names it (a record, or the rules' view of one)."""

    @property
    def name(self) -> str: ...


class Sheeted(Named, Protocol):
    """A combatant as a narrator reads it: its name and its sheet as stored."""

    @property
    def sheet(self) -> Mapping[str, JSON]: ...


Combatants = Mapping[str, Named]


class Read:
    """A stored JSON value as a narrator reads it: by key, index or iteration, as the
    JSON it stands for. What is not the shape a narrator expects raises KeyError,
    IndexError or TypeError, and :func:`domain.narrators.narrate` then falls back to
    the plain lines, as it did for the dicts."""

    __slots__ = ("value",)

    def __init__(self, value: JSON) -> None:
        self.value = value

    def _object(self) -> Mapping[str, JSON]:
        if not isinstance(self.value, Mapping):
            raise TypeError(f"not a JSON object: {self.value!r}")
        return self.value

    def _array(self) -> Sequence[JSON]:
        if isinstance(self.value, str | Mapping) or not isinstance(self.value, Sequence):
            raise TypeError(f"not a JSON array: {self.value!r}")
        return self.value

    def __getitem__(self, key: str | int) -> Read:
        if isinstance(key, str):
            return Read(self._object()[key])
        return Read(self._array()[key])

    def get(self, key: str, default: JSON = None) -> Read:
        return Read(self._object().get(key, default))

    def __contains__(self, key: str) -> bool:
        return key in self._object()

    def __iter__(self) -> Iterator[Read]:
        return (Read(item) for item in self._array())

    def items(self) -> Iterator[tuple[str, Read]]:
        return ((key, Read(item)) for key, item in self._object().items())

    @property
    def text(self) -> str:
        if not isinstance(self.value, str):
            raise TypeError(f"not a string: {self.value!r}")
        return self.value

    @property
    def number(self) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise TypeError(f"not a whole number: {self.value!r}")
        return self.value

    def __bool__(self) -> bool:
        return bool(self.value)

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __eq__(self, other: object) -> bool:
        return self.value == (other.value if isinstance(other, Read) else other)

    def __hash__(self) -> int:
        return hash(self.value)


Narrator = Callable[[Read, Mapping[str, Sheeted]], list[str]]


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


def conditions_lines(record: Read, combatants: Combatants) -> list[str]:
    lines = []
    for cid, change in (record.get("conditions") or Read({})).items():
        before, after = set(change.get("before", [])), set(change.get("after", []))
        who = name_of(combatants, cid)
        gained = [c.text for c in change.get("after", []) if c not in before]
        lost = [c.text for c in change.get("before", []) if c not in after]
        if gained:
            lines.append(f"{who} gains: {', '.join(c.replace('_', ' ') for c in gained)}")
        if lost:
            lines.append(f"{who} loses: {', '.join(c.replace('_', ' ') for c in lost)}")
    return lines


def unused_lines(record: Read) -> list[str]:
    unused = (record.get("breakdown") or Read({})).get("unused_dice") or Read({})
    return [
        f"Dice supplied for {name} ({faces(values)}) were not used: that roll was not needed"
        for name, values in unused.items()
    ]


def generic(record: Read, combatants: Combatants) -> list[str]:
    lines = [
        f"{roll['name']}: {roll['dice']} rolled {faces(roll['faces'])} = {roll['total']}"
        for roll in record.get("rolls", [])
    ]
    lines.append(str(record.get("summary", "")))
    return lines


def new_conditions_note(
    conditions: Mapping[str, Mapping[str, Sequence[str]]],
    combatants: Combatants,
    summary: str = "",
) -> str:
    """'; Bran gains: unconscious, cannot act' for the one-line summary ('' when none)."""
    parts = []
    for cid, change in conditions.items():
        gained = [
            c
            for c in change["after"]
            if c not in change["before"] and c.replace("_", " ") not in summary
        ]
        if gained:
            named = ", ".join(c.replace("_", " ") for c in gained)
            parts.append(f"{name_of(combatants, cid)} gains: {named}")
    return "".join(f"; {part}" for part in parts)
