"""Exact numbers for the margin ruleset: fractions in, fraction strings out, one rounding.

Damage is computed with :class:`fractions.Fraction` from start to finish (RULINGS
"All rulesets": never floats). Sheets and options may state a fraction as an
integer, a string such as ``"1/2"`` or ``"0.5"``, or a JSON number; a JSON number
is read through its written decimal form, so ``0.1`` means exactly one tenth.

M18: every accepted value keeps every computation finite. A value is refused
unless it is at most ``MAX_DENOMINATOR`` ths (three decimal places, or a fraction
whose reduced denominator is at most 1000) and within its field's bounds, so the
largest exact damage a sheet can produce (Armor 1000 blunted by 1/1000 per point)
still prints in about 3,000 digits, inside Python's 4,300-digit limit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from pydantic import BeforeValidator, GetCoreSchemaHandler, GetJsonSchemaHandler, PlainSerializer
from pydantic.config import JsonDict
from pydantic_core import core_schema

MAX_DENOMINATOR = 1000
# The written forms accepted in a string: "2", "0.125", "3/4". No sign, no
# exponent, at most 3 decimals and 4-digit denominators, so nothing enormous can be
# written; the field's bounds and MAX_DENOMINATOR then decide.
EXACT_TEXT = r"^\s*\d{1,7}(\.\d{1,3}|\s*/\s*\d{1,4})?\s*$"
_TEXT = re.compile(EXACT_TEXT)
_EXAMPLES = "like 2, '1/2' or '0.5'"


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _from_text(value: str) -> Fraction:
    if value.strip().startswith("-"):
        raise ValueError(f"{_shown(value)}: a negative number; this cannot be negative")
    if not _TEXT.match(value):
        raise ValueError(
            f"{_shown(value)} is not an exact number; write it {_EXAMPLES} "
            "(no sign, no exponent, at most 3 decimals)"
        )
    try:
        return Fraction(value.replace(" ", "").strip())
    except ZeroDivisionError:
        raise ValueError(f"{_shown(value)} divides by zero") from None


def parse_exact(value: object) -> Fraction:
    """Read an exact number; refuse anything that is not one, in words a GM understands."""
    if isinstance(value, bool):
        raise ValueError(f"expected an exact number {_EXAMPLES}, not true/false")
    if isinstance(value, Fraction):
        found = value
    elif isinstance(value, int):
        found = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"expected a finite number {_EXAMPLES}, not {_shown(value)}")
        # repr() is the shortest decimal that reads back as this float: what was written.
        found = Fraction(repr(value))
    elif isinstance(value, str):
        found = _from_text(value)
    else:
        raise ValueError(f"expected an exact number {_EXAMPLES}, not {_shown(value)}")
    if found.denominator > MAX_DENOMINATOR:
        raise ValueError(
            f"{_shown(value)} is finer than 1/{MAX_DENOMINATOR}: use at most 3 decimals "
            f"or a denominator of at most {MAX_DENOMINATOR}"
        )
    return found


def fraction_text(value: Fraction) -> str:
    """The JSON form of a fraction: '3' for whole numbers, '59049/100000' otherwise."""
    return str(value)


ExactNumber = Annotated[
    Fraction,
    BeforeValidator(parse_exact),
    PlainSerializer(fraction_text, return_type=str, when_used="json"),
]


@dataclass(frozen=True)
class Bounds:
    """Field metadata: ``Annotated[ExactNumber, Bounds(0, 1000, "what it is")]``.

    Refuses a value outside [low, high] (or [low, high) when ``high_open``) and publishes
    exactly that in the JSON schema, beside the written forms a string may take.
    """

    low: int | Fraction
    high: int | Fraction
    what: str
    high_open: bool = False

    def check(self, value: Fraction) -> Fraction:
        above = value >= self.high if self.high_open else value > self.high
        if value < self.low or above:
            upper = f"below {self.high}" if self.high_open else f"at most {self.high}"
            # A float can carry ~300 digits; name it only when it reads in a glance.
            got = str(value) if abs(value.numerator) < 10**12 else "far more"
            raise ValueError(f"{self.what}: at least {self.low}, {upper}; got {got}")
        return value

    def __get_pydantic_core_schema__(
        self, source: type[object], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonDict:
        number: JsonDict = {"type": "number", "minimum": float(self.low)}
        number["exclusiveMaximum" if self.high_open else "maximum"] = float(self.high)
        return {
            "anyOf": [number, {"type": "string", "pattern": EXACT_TEXT}],
            "description": f"{self.what}. An exact number from {self.low} to "
            f"{'below ' if self.high_open else ''}{self.high}: a JSON number (read as the "
            "decimal it is written as) or a string such as '1/2' or '0.5'; at most "
            f"1/{MAX_DENOMINATOR} fine (3 decimals, or a denominator of at most "
            f"{MAX_DENOMINATOR})",
        }


def round_half_up(value: Fraction) -> int:
    """The single rounding of the damage path (M10): halves go up, never a float in sight."""
    return (2 * value.numerator + value.denominator) // (2 * value.denominator)
