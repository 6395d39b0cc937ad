"""Which reading of the faces each ruleset's rolls depend on: each ruleset says (its
``face_model``, in its package), from the rules' own functions.

A model here is a claim about the rules ("a margin pool counts only through its
total"); ``tests/unit/test_odds_models.py`` checks every claim against the
unreduced enumeration of every ordered throw, so a rules change that starts to
read the faces differently fails there instead of skewing the odds.
"""

from __future__ import annotations

from skald_campaign.domain.odds.faces import MULTISET, FaceModel
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.base import JsonMapping


def face_model(
    ruleset_id: str, options: JsonMapping, roll_name: str, damage_type: str | None = None
) -> FaceModel:
    """How the ruleset reads one roll's faces (its ``face_model``); every face counted
    apart (the multiset) for a ruleset that says nothing."""
    rules = RULESETS.get(ruleset_id)
    model = None if rules is None else rules.face_model(options, roll_name, damage_type)
    return MULTISET if model is None else model
