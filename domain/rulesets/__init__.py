"""The registry of built-in rulesets; a campaign names one by id."""

from __future__ import annotations

from domain.errors import InvalidInput
from domain.rulesets.base import Ruleset
from domain.rulesets.d20 import D20
from domain.rulesets.margin import Margin
from domain.rulesets.stamina_body import StaminaBody

RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in (Margin(), StaminaBody(), D20())}


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise InvalidInput(f"unknown ruleset '{ruleset_id}'; choose one of: {known}") from None
