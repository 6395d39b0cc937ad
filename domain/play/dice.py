"""Dice: an injected roller, a tray that records every face, and NdS+K notation.

Every roll happens through a :class:`DiceTray`. The tray either takes faces the
caller supplied (a table rolling physical dice) or asks the injected roller,
and records each roll under a name so that the event can carry it and a replay
can feed the same faces back without rolling again.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Protocol

import msgspec
from pydantic import JsonValue

from skald_campaign.domain.errors import DiceError

MAX_DICE_PER_ROLL = 100
MAX_SIDES = 1000


class Roller(Protocol):
    """Anything that can pick an integer in [low, high]; ``random.Random`` qualifies."""

    def randint(self, a: int, b: int) -> int: ...


def seeded_roller(seed: int | None = None) -> Roller:
    return random.Random(seed)


class DiceExpression(msgspec.Struct, frozen=True):
    """``count`` dice of ``sides`` faces plus a flat ``modifier`` (``NdS+K``)."""

    count: int
    sides: int
    modifier: int = 0

    _PATTERN = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")

    @classmethod
    def parse(cls, text: str) -> DiceExpression:
        match = cls._PATTERN.match(text)
        if match is None:
            raise DiceError(f"'{text}' is not dice notation; write it like 3d6, d20 or 2d8+1")
        count = int(match.group(1) or 1)
        sides = int(match.group(2))
        modifier = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        expression = cls(count, sides, modifier)
        expression.check()
        return expression

    def check(self) -> None:
        if not 0 <= self.count <= MAX_DICE_PER_ROLL:
            raise DiceError(f"{self}: between 0 and {MAX_DICE_PER_ROLL} dice may be rolled")
        if not 2 <= self.sides <= MAX_SIDES:
            raise DiceError(f"{self}: a die has between 2 and {MAX_SIDES} sides")

    def __str__(self) -> str:
        bonus = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{bonus}"


class Roll(msgspec.Struct, frozen=True):
    """One named roll as it happened: the expression, every face and the total."""

    name: str
    expression: DiceExpression
    faces: tuple[int, ...]
    supplied: bool
    adjusted: str | None = None

    @property
    def total(self) -> int:
        return sum(self.faces) + self.expression.modifier

    def as_record(self) -> dict[str, JsonValue]:
        """The roll as an action record carries it (JSON)."""
        record: dict[str, JsonValue] = {
            "name": self.name,
            "dice": str(self.expression),
            "faces": list(self.faces),
            "total": self.total,
            "supplied": self.supplied,
        }
        if self.adjusted is not None:
            record["adjusted"] = self.adjusted
        return record


class DiceTray:
    """Hands out faces for named rolls, from the caller's dice or the roller.

    A tray without a roller is a replay tray: every roll must have been supplied.
    A ``refitting`` tray replays recorded faces into a pool whose size has since
    changed (a correction gave a defender more or fewer dice): it keeps the
    recorded faces it can, rolls only the missing ones, and says so on the roll.
    """

    def __init__(
        self,
        roller: Roller | None,
        supplied: Mapping[str, Sequence[int]] | None = None,
        *,
        refitting: bool = False,
    ) -> None:
        self._roller = roller
        self._supplied = dict(supplied or {})
        self._rolls: list[Roll] = []
        self._refitting = refitting

    def roll(self, name: str, count: int, sides: int, modifier: int = 0) -> Roll:
        expression = DiceExpression(count, sides, modifier)
        expression.check()
        if any(existing.name == name for existing in self._rolls):
            raise ValueError(f"roll name '{name}' used twice in one action")
        if name in self._supplied and self._refitting:
            roll = self._refit(name, expression, tuple(self._supplied.pop(name)))
        elif name in self._supplied:
            faces = tuple(self._supplied.pop(name))
            _check_faces(name, expression, faces)
            roll = Roll(name, expression, faces, supplied=True)
        elif self._roller is None:
            raise DiceError(f"roll '{name}' ({expression}) has no recorded dice to replay")
        else:
            faces = tuple(self._roller.randint(1, sides) for _ in range(count))
            roll = Roll(name, expression, faces, supplied=False)
        self._rolls.append(roll)
        return roll

    def _refit(self, name: str, expression: DiceExpression, recorded: tuple[int, ...]) -> Roll:
        count = expression.count
        if len(recorded) == count:
            return Roll(name, expression, recorded, supplied=True)
        kept = recorded[:count]
        missing = count - len(kept)
        if missing and self._roller is None:
            raise DiceError(f"roll '{name}' now needs {count} dice; {len(recorded)} were recorded")
        roller = self._roller
        extra = tuple(roller.randint(1, expression.sides) for _ in range(missing)) if roller else ()
        note = f"{len(recorded)} dice recorded, {count} needed now: kept {len(kept)}" + (
            f", rolled {len(extra)} new" if extra else ""
        )
        return Roll(name, expression, kept + extra, supplied=True, adjusted=note)

    def roll_expression(self, name: str, expression: DiceExpression) -> Roll:
        return self.roll(name, expression.count, expression.sides, expression.modifier)

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return tuple(self._rolls)

    def unused(self) -> dict[str, list[int]]:
        """Supplied dice no roll has taken (yet)."""
        return {name: list(faces) for name, faces in self._supplied.items()}

    def close(self) -> list[dict[str, JsonValue]]:
        """Refuse supplied dice nobody asked for (a typo would otherwise pass silently)."""
        if self._supplied:
            asked = ", ".join(roll.name for roll in self._rolls) or "none"
            unused = ", ".join(sorted(self._supplied))
            raise DiceError(
                f"dice were supplied for roll(s) this action does not make: {unused}; "
                f"rolls made: {asked}"
            )
        return [roll.as_record() for roll in self._rolls]


def _check_faces(name: str, expression: DiceExpression, faces: tuple[int, ...]) -> None:
    if len(faces) != expression.count:
        raise DiceError(
            f"roll '{name}' is {expression}: it needs {expression.count} "
            f"{'die' if expression.count == 1 else 'dice'}, "
            f"{len(faces)} {'was' if len(faces) == 1 else 'were'} supplied"
        )
    for face in faces:
        # Strict: true is not 1 and "3" is not 3 (a face must be a JSON integer).
        if isinstance(face, bool) or not isinstance(face, int):
            raise DiceError(
                f"roll '{name}': {face!r} is not a die face; expected an integer "
                f"from 1 to {expression.sides}"
            )
        if not 1 <= face <= expression.sides:
            raise DiceError(
                f"roll '{name}': a face of {face} is not on a d{expression.sides} "
                f"(faces run 1 to {expression.sides})"
            )


def replay_tray(records: Sequence[Mapping[str, object]]) -> DiceTray:
    """A tray that feeds back the faces an event recorded, and never rolls."""
    supplied: dict[str, list[int]] = {}
    for record in records:
        name, faces = str(record["name"]), record["faces"]
        if not isinstance(faces, list | tuple) or not all(isinstance(f, int) for f in faces):
            raise DiceError(f"roll '{name}': the recorded faces {faces!r} are not integers")
        # Kept as recorded (a bool is refused by the roll, as a supplied one is).
        supplied[name] = [face for face in faces if isinstance(face, int)]
    return DiceTray(None, supplied)
