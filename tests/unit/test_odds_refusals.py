"""What the odds refuse, and how: the action's own refusals, and a request too large."""

from __future__ import annotations

import pytest

from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.odds import TooLarge, action_odds
from tests.unit.test_odds_support import SWORD, d20_sheet, encounter, margin_sheet, odds


def test_an_unknown_action_is_refused_as_the_action_would_be() -> None:
    rules, view = encounter("margin", {"a": ("x", 1, margin_sheet())})
    with pytest.raises(InvalidInput, match="the margin ruleset has no action 'fireball'"):
        odds(rules, view, "fireball", "a")


def test_bad_parameters_and_unknown_targets_are_the_actions_own_refusals() -> None:
    rules, view = encounter("margin", {"a": ("x", 1, margin_sheet(weapons=[SWORD]))})
    with pytest.raises(InvalidInput, match="effort"):
        odds(rules, view, "attack", "a", target="a", weapon="sword", effort=99)
    with pytest.raises(NotFound, match="target 'nobody' is not a combatant"):
        odds(rules, view, "attack", "a", target="nobody", weapon="sword")


def test_a_combatant_who_cannot_act_gets_no_odds() -> None:
    rules, view = encounter(
        "margin",
        {"a": ("x", 1, margin_sheet(weapons=[SWORD])), "b": ("y", 1, margin_sheet())},
        tracks={"a": {"health": 0}},
    )
    with pytest.raises(ActionRefused, match="down"):
        odds(rules, view, "attack", "a", target="b", weapon="sword")


def test_a_tree_estimated_too_large_is_refused_before_exploring() -> None:
    """A d20 shove into a wall with FR +20: 10 x 2d8 of wall damage on every success."""
    rules, view = encounter(
        "d20",
        {"a": ("x", 1, d20_sheet(fr_skill_slots=20)), "b": ("y", 1, d20_sheet(size="large"))},
    )
    with pytest.raises(TooLarge) as refused:
        odds(rules, view, "shove", "a", target="b", wall_at_feet=0)
    assert refused.value.outcomes > refused.value.limit
    assert refused.value.message.startswith(
        f"too large to compute exactly: {refused.value.outcomes} outcomes"
    )


def test_a_keyed_tree_that_outgrows_its_budget_is_refused_at_the_budget() -> None:
    rules, view = encounter(
        "margin",
        {
            "a": ("x", 1, margin_sheet(might=8, melee=8, luck=2, weapons=[SWORD])),
            "b": ("y", 1, margin_sheet(grace=8, evasion=8, vigor=8, guard=8, luck=2)),
        },
        states={"b": {"posture": {"kind": "defend", "effort": 3, "round": 1}}},
    )
    with pytest.raises(TooLarge, match=r"too large to compute exactly: [0-9]+ outcomes"):
        action_odds(rules, view, "attack", "a", {"target": "b", "weapon": "sword"}, budget=40)


def test_a_roll_too_large_to_list_is_refused_before_it_is_listed() -> None:
    """A d20 weapon may be 30d100: 2,971 sums, more than the budget has runs for."""
    rules, view = encounter(
        "d20",
        {
            "a": ("x", 1, d20_sheet(weapons=[{"name": "doom", "damage": "30d100"}])),
            "b": ("y", 1, d20_sheet()),
        },
    )
    with pytest.raises(TooLarge, match="too large to compute exactly: 2971 outcomes"):
        odds(rules, view, "attack", "a", target="b", weapon="doom")
