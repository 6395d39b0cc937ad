"""Exact numbers for the margin ruleset: fractions in, fraction strings out, one rounding.

Damage is computed with :class:`fractions.Fraction` from start to finish (RULINGS
"All rulesets": never floats). Sheets and options may state a fraction as an
integer, a string such as ``"1/2"`` or ``"0.5"``, or a JSON number; a JSON number
is read through its written decimal form, so ``0.1`` means exactly one tenth.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer, WithJsonSchema


def parse_exact(value: Any) -> Fraction:
    """Read an exact number; refuse anything that is not one, in words a GM understands."""
    if isinstance(value, bool):
        raise ValueError("expected a number such as 2, '1/2' or '0.5', not true/false")
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, float):
        # repr() is the shortest decimal that reads back as this float: what was written.
        return Fraction(repr(value))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(
                f"'{value}' is not an exact number; write it like 2, '1/2' or '0.5'"
            ) from None
    raise ValueError(f"expected a number such as 2, '1/2' or '0.5', not {value!r}")


def fraction_text(value: Fraction) -> str:
    """The JSON form of a fraction: '3' for whole numbers, '59049/100000' otherwise."""
    return str(value)


ExactNumber = Annotated[
    Fraction,
    BeforeValidator(parse_exact),
    PlainSerializer(fraction_text, return_type=str, when_used="json"),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer"},
                {"type": "number"},
                {"type": "string", "pattern": r"^\s*-?\d+(\.\d+)?(\s*/\s*\d+)?\s*$"},
            ],
            "description": "an exact number: an integer, or a string such as '1/2' or '0.5' "
            "(a JSON number is read as the decimal it is written as)",
        }
    ),
]


def round_half_up(value: Fraction) -> int:
    """The single rounding of the damage path (M10): halves go up, never a float in sight."""
    return (2 * value.numerator + value.denominator) // (2 * value.denominator)
