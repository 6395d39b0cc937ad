"""One attack a combatant can make, as the action it would be (a ruleset's
``attack_choices``, in its package, lists them for the odds view)."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import JsonValue


@dataclass(frozen=True)
class Choice:
    label: str
    kind: str
    params: dict[str, JsonValue]  # the ruleset's JsonObject
