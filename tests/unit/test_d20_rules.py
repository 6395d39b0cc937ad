"""Pure d20 rules: armor value, size penalty, the shove die ladder, Forceful Defense."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skald_campaign.domain.rulesets.d20 import rules
from skald_campaign.domain.rulesets.d20.ratings import Rating, Term
from skald_campaign.domain.rulesets.d20.sheet import D20Options, D20Sheet
from skald_campaign.domain.rulesets.d20.tables import SHOVE_DIE_LADDER, SIZE_ORDER
from tests.unit.test_d20_support import sheet


def av(value: int) -> Rating:
    return Rating((Term("armor", value),))


# -- armor value --------------------------------------------------------------------
def test_seed_example_chain_mail_av_4_takes_9_and_suffers_5() -> None:
    damage = rules.physical_damage(9, av(4))
    assert damage.dealt == 5
    assert damage.breakdown["guaranteed"] == 1
    assert damage.breakdown["remaining"] == 8
    assert damage.breakdown["after_av"] == 4
    assert damage.breakdown["arithmetic"] == (
        "1 penetrates; remaining 9 - 1 = 8; 8 - AV 4 = 4; 1 + 4 = 5"
    )


def test_seed_example_plate_av_6_takes_5_and_suffers_only_the_guaranteed_point() -> None:
    damage = rules.physical_damage(5, av(6))
    assert damage.dealt == 1
    assert (damage.breakdown["remaining"], damage.breakdown["after_av"]) == (4, 0)
    assert damage.breakdown["absorbed"] == 4
    assert damage.breakdown["arithmetic"] == (
        "1 penetrates; remaining 5 - 1 = 4; 4 - AV 6 = -2 -> 0; 1 + 0 = 1"
    )


def test_a_physical_hit_below_1_raw_still_deals_the_guaranteed_point() -> None:
    assert rules.physical_damage(0, av(0)).dealt == 1
    assert rules.physical_damage(-2, av(7)).dealt == 1


def test_magic_damage_ignores_av_and_deals_at_least_the_minimum() -> None:
    assert rules.magic_damage(9, 1).dealt == 9
    assert rules.magic_damage(0, 1).dealt == 1
    assert rules.magic_damage(0, 0).dealt == 0
    assert rules.magic_damage(9, 1).breakdown["av"] is None


@given(raw=st.integers(1, 200), armor=st.integers(0, 20))
def test_a_physical_hit_deals_at_least_1_and_never_more_than_the_raw_damage(
    raw: int, armor: int
) -> None:
    dealt = rules.physical_damage(raw, av(armor)).dealt
    assert 1 <= dealt <= raw
    assert dealt == 1 + max(0, raw - 1 - armor)


@given(raw=st.integers(-5, 200), low=st.integers(0, 20), extra=st.integers(0, 20))
def test_higher_av_never_increases_damage(raw: int, low: int, extra: int) -> None:
    assert (
        rules.physical_damage(raw, av(low + extra)).dealt
        <= rules.physical_damage(raw, av(low)).dealt
    )


@given(raw=st.integers(1, 200), armor=st.integers(0, 20))
def test_without_armor_in_the_way_damage_is_the_raw_damage(raw: int, armor: int) -> None:
    # Each point of AV takes off at most one point, and only from what is above the first.
    dealt = rules.physical_damage(raw, av(armor)).dealt
    assert raw - dealt == min(armor, raw - 1)


# -- checks -------------------------------------------------------------------------
def test_meeting_the_target_exactly_succeeds() -> None:
    check = rules.d20_check(10, Rating((Term("HR bonus", 3),)), "AC", av(13))
    assert check.success
    assert check.comparison() == "13 >= AC 13"


def test_natural_20_and_1_are_ordinary_faces_unless_an_option_says_otherwise() -> None:
    bonus, target = Rating((Term("HR bonus", 0),)), av(25)
    assert not rules.d20_check(20, bonus, "AC", target).success
    assert rules.d20_check(20, bonus, "AC", target, natural_20_succeeds=True).success
    strong, easy = Rating((Term("HR bonus", 5),)), av(6)
    assert rules.d20_check(1, strong, "AC", easy).success
    assert not rules.d20_check(1, strong, "AC", easy, natural_1_fails=True).success


# -- size ---------------------------------------------------------------------------
def sized(size: str, reduction: int = 0) -> D20Sheet:
    return D20Sheet.model_validate(sheet(size=size, size_penalty_mastery_reduction=reduction))


def test_seed_example_medium_shoving_huge_takes_minus_8() -> None:
    penalty = rules.size_penalty(sized("medium"), sized("huge"))
    assert (penalty.categories_larger, penalty.penalty, penalty.modifier) == (2, 8, -8)


@pytest.mark.parametrize("attacker", SIZE_ORDER)
@pytest.mark.parametrize("target", SIZE_ORDER)
def test_minus_4_per_category_the_target_is_larger_and_nothing_for_smaller(
    attacker: str, target: str
) -> None:
    larger = max(0, SIZE_ORDER.index(target) - SIZE_ORDER.index(attacker))
    assert rules.size_penalty(sized(attacker), sized(target)).modifier == -4 * larger


def test_mastery_reduces_the_size_penalty_but_never_turns_it_into_a_bonus() -> None:
    assert rules.size_penalty(sized("medium", 3), sized("huge")).modifier == -5
    assert rules.size_penalty(sized("medium", 12), sized("huge")).modifier == 0
    assert rules.size_penalty(sized("medium", 4), sized("medium")).modifier == 0


# -- the force multiplier -------------------------------------------------------------
def test_seed_example_fr_6_against_a_medium_target_rolls_a_d10() -> None:
    die = rules.shove_die("medium", 6)
    assert str(die.die) == "d10"
    assert die.breakdown["ladder"] == ["d6", "d8", "d10"]
    assert die.breakdown["fr_steps"] == 2


@pytest.mark.parametrize(
    ("target", "fr", "higher_ground", "expected"),
    [
        ("tiny", 0, False, "d2"),
        ("small", 0, False, "d4"),
        ("medium", 0, False, "d6"),
        ("large", 0, False, "d8"),
        ("huge", 0, False, "d10"),
        ("gargantuan", 0, False, "d12"),
        ("medium", 2, False, "d6"),
        ("medium", 3, False, "d8"),
        ("medium", 5, False, "d8"),
        ("medium", -4, False, "d6"),
        ("medium", 0, True, "d8"),
        ("medium", 6, True, "d12"),
        ("huge", 3, False, "d12"),
        ("huge", 6, False, "2d6"),
        ("huge", 9, False, "2d8"),
        ("gargantuan", 30, True, "2d8"),
        ("tiny", 21, False, "2d8"),
        ("tiny", 3, True, "d6"),
    ],
)
def test_the_shove_die_steps_up_the_ladder(
    target: str, fr: int, higher_ground: bool, expected: str
) -> None:
    assert str(rules.shove_die(target, fr, higher_ground).die) == expected


def test_the_shove_die_stops_at_2d8_and_says_so() -> None:
    die = rules.shove_die("gargantuan", 30, higher_ground=True)
    assert die.breakdown["capped_at_top"] is True
    assert die.breakdown["ladder"] == ["d12", "2d6", "2d8"]
    assert rules.shove_die("huge", 9).breakdown["capped_at_top"] is False


@given(
    target=st.sampled_from(SIZE_ORDER),
    fr=st.integers(-10, 40),
    more=st.integers(0, 20),
    ground=st.booleans(),
)
def test_more_fr_never_gives_a_smaller_shove_die(
    target: str, fr: int, more: int, ground: bool
) -> None:
    lower = SHOVE_DIE_LADDER.index(rules.shove_die(target, fr, ground).die)
    higher = SHOVE_DIE_LADDER.index(rules.shove_die(target, fr + more, ground).die)
    assert lower <= higher


@pytest.mark.parametrize(("fr", "dice"), [(-3, 1), (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (9, 4)])
def test_wall_damage_is_one_shove_die_per_full_2_points_of_fr_at_least_one(
    fr: int, dice: int
) -> None:
    assert rules.wall_damage_dice(fr, minimum=1) == dice


def test_the_wall_damage_minimum_is_an_option() -> None:
    assert rules.wall_damage_dice(1, minimum=0) == 0


def test_seed_example_forceful_defense_ogre_fr_8_against_fighter_fr_6_and_9() -> None:
    assert rules.forceful_defense(attacker_fr_bonus=8, defender_fr_bonus=6) is False
    assert rules.forceful_defense(attacker_fr_bonus=8, defender_fr_bonus=8) is False
    assert rules.forceful_defense(attacker_fr_bonus=8, defender_fr_bonus=9) is True


@pytest.mark.parametrize(
    ("size", "double", "rule", "feet"),
    [
        ("tiny", False, "seed_ten_feet", 2),
        ("medium", False, "seed_ten_feet", 5),
        ("large", False, "seed_ten_feet", 10),
        ("gargantuan", False, "seed_ten_feet", 20),
        ("medium", True, "seed_ten_feet", 10),
        ("large", True, "seed_ten_feet", 10),
        ("medium", True, "twice_max_displacement", 10),
        ("large", True, "twice_max_displacement", 20),
        ("tiny", True, "twice_max_displacement", 4),
    ],
)
def test_success_moves_the_attackers_max_displacement_and_a_double_by_the_option(
    size: str, double: bool, rule: str, feet: int
) -> None:
    options = D20Options(double_success_distance=rule)
    assert rules.success_distance(size, double, options).value == feet


# -- wrestling ------------------------------------------------------------------------
def wearing(armor: str, shield: str = "none", size: str = "medium") -> D20Sheet:
    return D20Sheet.model_validate(sheet(armor=armor, shield=shield, size=size))


def test_elven_chain_and_dwarven_plate_wrestle_as_the_options_say() -> None:
    options = D20Options()
    assert [
        t.value for t in rules.wrestling_terms(wearing("elven_chain"), options, "maintain")
    ] == [-1, 1]
    assert rules.wrestling_armor(wearing("dwarven_plate"), options).label == (
        "Dwarven Plate, wrestling as Plate Mail"
    )
    supple = D20Options(elven_chain_wrestles_as="leather")
    assert [t.value for t in rules.wrestling_terms(wearing("elven_chain"), supple, "grapple")] == [
        0
    ]


def test_armor_and_shield_penalties_add_up() -> None:
    terms = rules.wrestling_terms(wearing("suit_armor", "tower"), D20Options(), "grapple")
    assert [(t.name, t.value) for t in terms] == [
        ("armor wrestling penalty (Suit Armor)", -4),
        ("shield wrestling penalty (Tower Shield)", -4),
    ]


def test_the_notes_apply_only_to_their_own_move() -> None:
    options = D20Options()
    assert [t.value for t in rules.wrestling_terms(wearing("none"), options, "escape")] == [2]
    # D11: no armor or shield penalty on an escape; only the Slippery bonus counts.
    assert rules.wrestling_terms(wearing("plate_mail", "tower"), options, "escape") == []
    assert [
        t.value for t in rules.wrestling_terms(wearing("none", "small"), options, "escape")
    ] == [2]
    assert [t.value for t in rules.wrestling_terms(wearing("none"), options, "grapple")] == [0]
    assert [t.value for t in rules.wrestling_terms(wearing("chain_mail"), options, "maintain")] == [
        -1,
        1,
    ]
    assert [t.value for t in rules.wrestling_terms(wearing("chain_mail"), options, "throw")] == [-1]


def test_plate_is_immovable_only_for_a_same_size_thrower() -> None:
    options = D20Options()
    plate = wearing("plate_mail")
    assert rules.throw_refusal(wearing("none"), plate, options) is not None
    assert rules.throw_refusal(wearing("none", size="large"), plate, options) is None
    assert rules.throw_refusal(wearing("none"), wearing("suit_armor"), options) is None
    assert rules.throw_refusal(wearing("none"), wearing("dwarven_plate"), options) is not None
    banded = D20Options(dwarven_plate_wrestles_as="banded")
    assert rules.throw_refusal(wearing("none"), wearing("dwarven_plate"), banded) is None


def test_any_shield_forbids_starting_a_grapple() -> None:
    for shield in ("small", "medium", "large", "tower"):
        assert rules.grapple_refusal(wearing("none", shield)) is not None
    assert rules.grapple_refusal(wearing("plate_mail")) is None
