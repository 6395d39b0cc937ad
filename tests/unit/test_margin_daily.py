"""Margin between fights: conditions (M7), daily rest (M6, M8), carried state and ratings."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.margin.daily import apply_day, full_rest, light_day
from tests.unit.test_margin_table import BOW, FIREBOLT, SWORD, sheet

RULES = Margin()


def stored(**fields: Any) -> dict[str, Any]:
    return RULES.validate_sheet(sheet(**fields))


def worn(luck: int = 0, fatigue: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "fatigue": fatigue,
        "luck": luck,
        "ammunition": {"bow": 2},
        "posture": {"kind": "defend", "effort": 1, "round": 3, "weapon": None, "exhaustion": 0},
        "acted_round": 3,
        **extra,
    }


@pytest.mark.parametrize(
    ("health", "conditions"),
    [
        (14, ()),
        (8, ()),
        (7, ("wounded",)),
        (1, ("wounded",)),
        (0, ("wounded", "down")),
        (-5, ("wounded", "down")),
    ],
)
def test_wounded_at_half_health_and_down_at_zero(health: int, conditions: tuple[str, ...]) -> None:
    # Vigor 2: health 14, so wounded at 7 or less.
    assert RULES.conditions(stored(), {"health": health}, {}) == conditions


def test_wounded_at_half_of_an_odd_maximum_is_compared_exactly() -> None:
    odd = stored(health=15)  # half is 7.5: 7 is wounded, 8 is not
    assert RULES.conditions(odd, {"health": 8}, {}) == ()
    assert RULES.conditions(odd, {"health": 7}, {}) == ("wounded",)


def test_down_is_the_condition_that_stops_a_character_acting() -> None:
    assert RULES.incapacitating == frozenset({"down"})


def test_a_full_rest_clears_fatigue_and_refills_luck_to_the_sheet() -> None:
    day = full_rest(stored(luck=3), worn(luck=0, fatigue=7))
    assert day.state["fatigue"] == 0 and day.state["luck"] == 3
    assert day.breakdown == {
        "rest": "full",
        "fatigue": {"before": 7, "after": 0},
        "luck": {"before": 0, "after": 3},
    }


def test_a_light_day_halves_fatigue_rounded_down_and_leaves_luck() -> None:
    for fatigue, left in [(7, 3), (6, 3), (1, 0), (0, 0)]:
        day = light_day(stored(luck=3), worn(luck=1, fatigue=fatigue))
        assert (day.state["fatigue"], day.state["luck"]) == (left, 1)


def test_a_day_without_rest_changes_fatigue_and_luck_not_at_all() -> None:
    day = apply_day(stored(luck=3), worn(luck=1, fatigue=5), "none")
    assert (day.state["fatigue"], day.state["luck"]) == (5, 1)


@pytest.mark.parametrize("rest", ["full", "light", "none"])
def test_every_day_forgets_postures_and_turn_marks_and_keeps_the_rest(rest: Any) -> None:
    day = apply_day(stored(luck=1), worn(fatigue=2, note="kept"), rest)
    assert day.state["posture"] is None and day.state["acted_round"] is None
    assert day.state["ammunition"] == {"bow": 2}  # the seed restocks nothing
    assert day.state["note"] == "kept"


def test_the_calendar_worker_finds_the_daily_rules_on_the_ruleset() -> None:
    assert RULES.day_plan_model is not None
    plan = RULES.day_plan_model.model_validate({})
    assert plan.model_dump() == {"rest": "full"}
    full = RULES.daily(stored(luck=2), {"health": 7}, worn(), plan)
    assert (full.state["luck"], full.tracks) == (2, {"health": 7})
    light = RULES.day_plan_model.model_validate({"rest": "light"})
    assert RULES.daily(stored(), {"health": 7}, worn(fatigue=5), light).state["fatigue"] == 2


def test_round_marks_are_forgotten_when_an_encounter_closes() -> None:
    state = RULES.state_after_encounter(worn(fatigue=3, luck=1))
    assert state["posture"] is None and state["acted_round"] is None
    assert (state["fatigue"], state["luck"], state["ammunition"]) == (3, 1, {"bow": 2})


def test_the_character_view_shows_pools_and_armor_with_their_terms() -> None:
    character = stored(
        might=3,
        melee=2,
        grace=1,
        evasion=2,
        guard=1,
        luck=1,
        armor=[{"name": "buckler", "rating": 1, "shield": True}, {"name": "jack", "rating": 2}],
        weapons=[SWORD, BOW],
        spells=[FIREBOLT],
    )
    ratings = RULES.derived_ratings(character, RULES.start_state(character))
    assert ratings["health_max"] == 14
    assert ratings["armor"]["rating"] == 3
    assert ratings["attack_pools"]["sword"]["dice"] == 5
    assert ratings["attack_pools"]["bow"]["terms"] == {"grace": 1, "marksmanship": 0}
    assert ratings["attack_pools"]["fists"]["dice"] == 5
    assert ratings["attack_pools"]["firebolt"]["dice"] == 2
    assert ratings["defense_pools"]["evasion"] == {"passive": 1, "active_before_effort": 3}
    assert ratings["luck"] == {"now": 1, "sheet": 1}
    assert ratings["ammunition"] == {"bow": 5}
