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
    # The attack as a reader who may not see the target's numbers reads it (RULINGS T3a),
    # or None: this one. Choices told apart only by the target's hidden numbers (a
    # stamina-body defense: its Parry, its Dodge) name the same one, and that reader has
    # one row for them, whose label says what its figure is.
    unseen: Choice | None = None
