"""A stored action record's breakdown as the narrators read it: typed records.

Each ruleset writes its breakdown as JSON (domain/rulesets/) and declares the parts its
narrators read as frozen structs on ``Part`` in its own package (``records.py``); a
narrator decodes the part it reads into them (``read``), once, where it reads it: a part
the narrator reads only in some cases (a defense after a hit, the damage after a
landed blow) is decoded only then, so a record reads exactly as far as it did when
the narrators read the JSON by key. A record not shaped as these say fails to decode
(``msgspec.ValidationError``, a ValueError), and the narrative falls back to the plain
lines (domain/reading/narrators.py ``narrate``), as a missing key did.

Only the fields a narrator reads are declared; the breakdown's others are ignored.
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

T = TypeVar("T")
Unset = msgspec.UnsetType
UNSET = msgspec.UNSET


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


class Target(Part, frozen=True):
    target: str | Unset | None = UNSET


def target_of(params: object, otherwise: str | Unset = UNSET) -> str | None:
    """The target an action's parameters name (``otherwise`` when they name none; without
    it, the action must name one)."""
    return given(read(params, Target).target, otherwise)


# -- parts more than one ruleset (and the table's records) read ----------------------


class BeforeAfter(Part, frozen=True):
    before: int
    after: int


class Why(Part, frozen=True):
    why: str
