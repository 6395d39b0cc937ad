"""S3 on the Take-hit panel: the shield rule needs both scores of a parry that did not stop
the blow; every refusal is pinned word for word."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.rulesets.stamina_body.actions import TakeHit, take_hit_shield
from skald_campaign.domain.rulesets.stamina_body.rules import ShieldDecision

NEEDS = (
    "parried: true needs the hit score and the parry score to check the shield rule "
    "(hit score - parry score <= 2); missing: "
)


def panel(**fields: Any) -> TakeHit:
    return TakeHit(target="bob", damage_type="impact", damage_class=1, **fields)


def test_no_parry_no_shield_whatever_the_scores() -> None:
    expected = ShieldDecision(False, "no successful parry: the shield does not help")
    assert take_hit_shield(panel()) == expected
    assert take_hit_shield(panel(hit_score=3, parry_score=2)) == expected


@pytest.mark.parametrize(
    ("scores", "missing"),
    [
        ({"hit_score": 3}, "parry_score"),
        ({"parry_score": 2}, "hit_score"),
        ({}, "hit_score, parry_score"),
    ],
)
def test_a_parry_without_both_scores_is_refused_naming_what_is_missing(
    scores: dict[str, int], missing: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        take_hit_shield(panel(parried=True, **scores))
    assert refused.value.message == NEEDS + missing


def test_a_parry_one_below_the_hit_brings_the_shield() -> None:
    assert take_hit_shield(panel(parried=True, hit_score=3, parry_score=2)) == ShieldDecision(
        True, "hit score 3 - parry score 2 = 1 <= 2"
    )
