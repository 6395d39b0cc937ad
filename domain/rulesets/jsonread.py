"""Reading stored JSON (a combatant's state, an action's breakdown) into Python values.

The rulesets write this JSON themselves, so a value of the wrong type is a defect, not
input: each reader narrows with isinstance and raises TypeError rather than guess.
"""

from __future__ import annotations

from collections.abc import Mapping

from skald_campaign.domain.records import JSON


def as_int(value: object) -> int:
    """A JSON number (or a numeric string, as ``int()`` reads one) as an int."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"expected a number in stored JSON, not {type(value).__name__}")


def as_object(value: object) -> Mapping[str, JSON]:
    """A JSON object, or an empty one for a missing (null or absent) value."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return value
    raise TypeError(f"expected a JSON object in stored JSON, not {type(value).__name__}")


def as_optional_str(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"expected a string in stored JSON, not {type(value).__name__}")
