"""T3's descriptors, each threshold exactly: the first that applies, compared in integers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from skald_campaign.domain.reading.visibility import descriptor as described
from skald_campaign.domain.rulesets import get_ruleset

SB_MAX = {"stamina": 12, "body": 10}


def descriptor(
    ruleset_id: str,
    tracks: dict[str, int],
    maxima: dict[str, int],
    wounded_at: Fraction | None = None,
) -> str:
    """The descriptor under the ruleset's default options, or margin's ``wounded_at``."""
    rules = get_ruleset(ruleset_id)
    if wounded_at is not None:
        rules = rules.under({"wounded_at": str(wounded_at)})
    return described(rules, tracks, maxima)


@pytest.mark.parametrize(
    ("tracks", "expected"),
    [
        ({"stamina": 12, "body": 10}, "unhurt"),
        ({"stamina": 11, "body": 10}, "hurt"),
        ({"stamina": 12, "body": 9}, "hurt"),
        ({"stamina": 5, "body": 10}, "hurt"),  # 5 > 12 / 3
        ({"stamina": 4, "body": 10}, "winded"),  # 4 = 12 / 3 exactly
        ({"stamina": 0, "body": 10}, "winded"),
        ({"stamina": -1, "body": 10}, "stunned"),
        ({"stamina": 4, "body": 0}, "winded"),  # Body 0 is not below 0
        ({"stamina": -3, "body": -1}, "unconscious"),  # unconscious before stunned
        ({"stamina": 12, "body": -1}, "unconscious"),
    ],
)
def test_stamina_body(tracks: dict[str, int], expected: str) -> None:
    assert descriptor("stamina-body", tracks, SB_MAX) == expected


def test_winded_is_a_third_exactly_not_rounded() -> None:
    # A maximum of 13: a third is 4.33..., so 4 is winded and 5 is not.
    assert descriptor("stamina-body", {"stamina": 4, "body": 10}, {"stamina": 13, "body": 10}) == (
        "winded"
    )
    assert descriptor("stamina-body", {"stamina": 5, "body": 10}, {"stamina": 13, "body": 10}) == (
        "hurt"
    )


@pytest.mark.parametrize(
    ("health", "expected"),
    [(14, "unhurt"), (13, "hurt"), (8, "hurt"), (7, "wounded"), (1, "wounded"), (0, "down")],
)
def test_margin(health: int, expected: str) -> None:
    assert descriptor("margin", {"health": health}, {"health": 14}) == expected


def test_margin_wounded_follows_the_campaigns_wounded_at() -> None:
    assert descriptor("margin", {"health": 10}, {"health": 14}, Fraction(3, 4)) == "wounded"
    assert descriptor("margin", {"health": 11}, {"health": 14}, Fraction(3, 4)) == "hurt"
    assert descriptor("margin", {"health": 7}, {"health": 15}) == "wounded"  # 7 <= 7.5
    assert descriptor("margin", {"health": 8}, {"health": 15}) == "hurt"


@pytest.mark.parametrize(
    ("hp", "expected"),
    [(9, "unhurt"), (8, "hurt"), (5, "hurt"), (4, "bloodied"), (1, "bloodied"), (0, "down"),
     (-3, "down")],
)  # fmt: skip
def test_d20(hp: int, expected: str) -> None:
    # A maximum of 9: half is 4.5, so 4 is bloodied and 5 is not.
    assert descriptor("d20", {"hp": hp}, {"hp": 9}) == expected
