"""Seed 001's rules as pure functions: exact tables, examples and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.rulesets.base import CombatantView, EncounterView
from skald_campaign.domain.rulesets.stamina_body import rules
from skald_campaign.domain.rulesets.stamina_body.care import Recover, resolve_recover
from skald_campaign.domain.rulesets.stamina_body.healing import DailyHeal, DayPlan, daily_heal

IMPACT = [(1, 1, 0), (2, 1, 0), (3, 2, 0), (4, 3, 0), (5, 4, 0), (6, 5, 1)]
PIERCING = [(1, 1, 0), (2, 1, 0), (3, 1, 0), (4, 2, 1), (5, 3, 1), (6, 4, 2)]


@pytest.mark.parametrize(("face", "stamina", "body"), IMPACT)
def test_impact_table_row(face: int, stamina: int, body: int) -> None:
    reading = rules.read_damage([face], "impact")
    assert (reading.stamina, reading.body) == (stamina, body)


@pytest.mark.parametrize(("face", "stamina", "body"), PIERCING)
def test_piercing_table_row(face: int, stamina: int, body: int) -> None:
    reading = rules.read_damage([face], "piercing")
    assert (reading.stamina, reading.body) == (stamina, body)


def test_longsword_2_4_6_reads_7_stamina_3_body_before_armour() -> None:
    reading = rules.read_damage([2, 4, 6], "piercing")
    assert (reading.stamina, reading.body) == (7, 3)
    assert reading.readings == ((2, 1, 0), (4, 2, 1), (6, 4, 2))


def test_resilience_4_against_7_3_steps_body_stamina_body_stamina() -> None:
    soak = rules.absorb(stamina=7, body=3, resilience=4)
    assert soak.steps == (
        (1, "body", 2, 3),
        (2, "stamina", 6, 2),
        (3, "body", 1, 1),
        (4, "stamina", 5, 0),
    )
    assert (soak.stamina, soak.body) == (5, 1)


def test_an_empty_body_pool_is_skipped_and_stamina_soaks_the_rest() -> None:
    soak = rules.absorb(stamina=5, body=1, resilience=4)
    assert [pool for _, pool, _, _ in soak.steps] == ["body", "stamina", "stamina", "stamina"]
    assert (soak.stamina, soak.body) == (2, 0)


def test_an_empty_stamina_pool_is_skipped_too() -> None:
    soak = rules.absorb(stamina=0, body=3, resilience=2)
    assert [pool for _, pool, _, _ in soak.steps] == ["body", "body"]
    assert (soak.stamina, soak.body) == (0, 1)


def test_absorption_stops_when_both_pools_are_empty() -> None:
    soak = rules.absorb(stamina=1, body=1, resilience=9)
    assert soak.absorbed == 2
    assert (soak.stamina, soak.body) == (0, 0)


@pytest.mark.parametrize(
    ("hit", "parry", "counts"), [(3, 1, True), (4, 1, False), (2, 2, True), (5, 3, True)]
)
def test_the_shield_counts_only_within_two_of_the_parry(hit: int, parry: int, counts: bool) -> None:
    assert rules.shield_decision(parried=True, hit_score=hit, parry_score=parry).counts is counts


def test_no_parry_or_a_failed_parry_means_no_shield() -> None:
    assert rules.shield_decision(parried=False, hit_score=1, parry_score=5).counts is False


def test_ignore_flags_remove_armour_or_shield() -> None:
    both = rules.effective_resilience(armour=3, shield=2, shield_counts=True)
    no_armour = rules.effective_resilience(
        armour=3, shield=2, shield_counts=True, ignore_armour=True
    )
    no_shield = rules.effective_resilience(
        armour=3, shield=2, shield_counts=True, ignore_shield=True
    )
    assert (both.total, no_armour.total, no_shield.total) == (5, 2, 3)


@pytest.mark.parametrize(
    ("roll", "target", "success", "margin"),
    [
        (10, 10, True, 0),
        (11, 10, False, -1),
        (18, 30, False, 12),
        (3, 2, True, -1),
        (7, 12, True, 5),
    ],
)
def test_3d6_check_succeeds_at_or_under_the_target(
    roll: int, target: int, success: bool, margin: int
) -> None:
    result = rules.check(roll, target)
    assert (result.success, result.margin) == (success, margin)


def test_unarmed_damage_class_is_strength_over_four_at_least_one() -> None:
    assert [rules.unarmed_damage_class(s) for s in (1, 3, 4, 7, 8, 13)] == [1, 1, 1, 1, 2, 3]


def test_each_combat_option_adds_a_die() -> None:
    dice = rules.damage_dice(3, set_weapon=True, charge=True, extra_strength=True)
    assert (dice.count, dice.added, dice.options) == (
        6,
        3,
        ("set_weapon", "charge", "extra_strength"),
    )


# -- the day between fights (S8) -------------------------------------------------

SHEET = {"con": 12, "stamina_max": 12, "body_max": 10}


def heal(tracks: dict[str, int], state: dict[str, bool] | None = None, **plan: object) -> DailyHeal:
    return daily_heal(SHEET, tracks, state or {}, DayPlan.model_validate(plan))


def test_full_rest_restores_all_lost_stamina() -> None:
    assert heal({"stamina": -3, "body": 10}).tracks["stamina"] == 12


def test_light_activity_restores_half_the_lost_stamina_rounded_down() -> None:
    assert heal({"stamina": 5, "body": 10}, rest="light").stamina_gain == 3


def test_no_rest_restores_nothing_at_all() -> None:
    result = heal({"stamina": 5, "body": 4}, rest="none")
    assert (result.stamina_gain, result.body_gain) == (0, 0)


def test_body_with_care_heals_con_over_five() -> None:
    assert heal({"stamina": 12, "body": 4}).body_gain == 2


def test_body_without_care_heals_half_of_that() -> None:
    assert heal({"stamina": 12, "body": 4}, care=False).body_gain == 1


def test_an_untreated_piercing_wound_costs_one_a_day() -> None:
    assert heal({"stamina": 12, "body": 4}, {"piercing_wound": True}).body_gain == 1


def test_broken_bones_halve_the_rate() -> None:
    assert heal({"stamina": 12, "body": 4}, {"broken_bones": True}).body_gain == 1


def test_a_healer_adds_one_on_top() -> None:
    assert heal({"stamina": 12, "body": 4}, healer=True).body_gain == 3


def test_the_order_is_rate_wound_halving_healer() -> None:
    # CON 12: rate 2; wound: 1; broken bones: 1 // 2 = 0; healer: 1.
    result = heal(
        {"stamina": 12, "body": 4}, {"piercing_wound": True, "broken_bones": True}, healer=True
    )
    assert result.body_gain == 1


def test_body_never_heals_past_max() -> None:
    assert heal({"stamina": 12, "body": 9}, healer=True).tracks["body"] == 10


def test_the_rate_never_goes_below_zero() -> None:
    weak = daily_heal(
        {"con": 4, "stamina_max": 5, "body_max": 5},
        {"stamina": 5, "body": 1},
        {"piercing_wound": True},
        DayPlan(),
    )
    assert weak.body_gain == 0


# -- properties -------------------------------------------------------------------

pools = st.integers(min_value=0, max_value=60)


@given(stamina=pools, body=pools, resilience=st.integers(min_value=0, max_value=60))
def test_net_damage_never_exceeds_raw(stamina: int, body: int, resilience: int) -> None:
    soak = rules.absorb(stamina, body, resilience)
    assert 0 <= soak.stamina <= stamina
    assert 0 <= soak.body <= body


@given(stamina=pools, body=pools, resilience=st.integers(min_value=0, max_value=60))
def test_resilience_never_absorbs_more_than_it_has(
    stamina: int, body: int, resilience: int
) -> None:
    soak = rules.absorb(stamina, body, resilience)
    assert soak.absorbed == min(resilience, stamina + body)
    assert (stamina - soak.stamina) + (body - soak.body) == soak.absorbed


@given(
    faces=st.lists(st.integers(min_value=1, max_value=6), min_size=3, max_size=3),
    stamina=st.integers(min_value=-20, max_value=20),
    stamina_max=st.integers(min_value=1, max_value=20),
    con=st.integers(min_value=3, max_value=20),
    body=st.integers(min_value=-5, max_value=10),
)
def test_recovery_never_exceeds_max_or_touches_body(
    faces: list[int], stamina: int, stamina_max: int, con: int, body: int
) -> None:
    me = CombatantView(
        id="a",
        name="A",
        side="x",
        rank=1,
        sheet={"con": con, "stamina_max": stamina_max},
        tracks={"stamina": stamina, "body": body},
        state={},
        conditions=(),
    )
    view = EncounterView(round=1, combatants={"a": me}, options={})
    outcome = resolve_recover(view, "a", Recover(), DiceTray(None, {"recovery": faces}))
    after = outcome.tracks["a"]
    assert after["body"] == body
    assert after["stamina"] >= stamina
    assert after["stamina"] <= max(stamina, stamina_max)


@given(
    stamina=st.integers(min_value=-20, max_value=12),
    body=st.integers(min_value=-10, max_value=10),
    rest=st.sampled_from(["full", "light", "none"]),
    care=st.booleans(),
    healer=st.booleans(),
    wound=st.booleans(),
    bones=st.booleans(),
)
def test_a_day_never_heals_past_max_nor_hurts(
    stamina: int, body: int, rest: str, care: bool, healer: bool, wound: bool, bones: bool
) -> None:
    result = daily_heal(
        SHEET,
        {"stamina": stamina, "body": body},
        {"piercing_wound": wound, "broken_bones": bones},
        DayPlan.model_validate({"rest": rest, "care": care, "healer": healer}),
    )
    assert stamina <= result.tracks["stamina"] <= max(stamina, 12)
    assert body <= result.tracks["body"] <= max(body, 10)
