"""The registry of built-in rulesets; a campaign names one by id."""

from __future__ import annotations

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.rulesets.base import Ruleset
from skald_campaign.domain.rulesets.d20 import D20
from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.stamina_body import StaminaBody

RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in (Margin(), StaminaBody(), D20())}


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise InvalidInput(f"unknown ruleset '{ruleset_id}'; choose one of: {known}") from None
