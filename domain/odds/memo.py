"""What the rest of a resolution depends on, for the rulesets whose trees are deep (each
ruleset's ``odds_memo``, in its package).

A key maps the rolls made so far to what the rules will still use of them. Two
paths with the same key lead to the same outcomes with the same probabilities,
so the explorer resolves the rest once. A key is a claim about the rules: the
unit tests (``test_odds_memo.py``) check every one against the unkeyed
enumeration, so a rules change that breaks a claim fails there, and a roll a key
does not know (``None``) is simply explored in full.
"""

from __future__ import annotations

from skald_campaign.domain.odds.explore import Memo
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.base import EncounterView, JsonMapping


def memo_for(
    ruleset_id: str,
    view: EncounterView,
    kind: str,
    actor: str | None,
    params: JsonMapping,
) -> Memo | None:
    """The ruleset's key for this action (its ``odds_memo``, in its package), or None."""
    rules = RULESETS.get(ruleset_id)
    return None if rules is None else rules.odds_memo(view, kind, actor, params)
