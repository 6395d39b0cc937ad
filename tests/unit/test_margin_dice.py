"""Margin dice (M1) and luck (M8): successes, below nothing, unrolled pools, second looks."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from skald_campaign.domain.play.dice import DiceTray
from skald_campaign.domain.rulesets.margin.pools import Pool, PoolTerm, read_faces, roll_pool


def pool(size: int) -> Pool:
    return Pool((PoolTerm("dice", size),))


@pytest.mark.parametrize(
    ("faces", "successes", "total"),
    [
        ([6, 5, 4, 3, 2, 1], 2, 2),  # each 5 or 6 is one success
        ([5], 1, 1),
        ([4, 4, 4], 0, 0),  # nothing, but not below nothing
        ([1, 2], 0, 0),  # a single 1 among blanks is just a blank
        ([1, 1], 0, -1),  # every die shows 1: below nothing
        ([1, 1, 1], 0, -1),
        ([1], 0, -1),
        ([6, 1, 1], 1, 1),  # a success rescues a pool of 1s
    ],
)
def test_each_five_or_six_is_a_success_and_all_ones_is_below_nothing(
    faces: list[int],
    successes: int,
    total: int,
) -> None:
    reading = read_faces(faces)
    assert (reading.successes, reading.total) == (successes, total)
    assert reading.below_nothing == (total == -1)


def test_the_success_face_is_an_option() -> None:
    assert read_faces([4, 5, 6], success_on=4).total == 3
    assert read_faces([4, 5, 6], success_on=6).total == 1


@pytest.mark.parametrize("size", [0, -1, -4])
def test_a_pool_of_zero_or_fewer_dice_is_not_rolled_and_totals_zero(size: int) -> None:
    tray = DiceTray(random.Random(1))
    thrown = roll_pool(tray, "attack", pool(size), success_on=5, luck_available=True)
    assert thrown.total == 0
    assert thrown.first is None and not thrown.luck_spent  # nothing to take a second look at
    assert tray.rolls == ()


def test_luck_takes_a_second_look_at_a_blank_and_the_second_result_stands() -> None:
    tray = DiceTray(None, {"defense.x.guard": [2, 3], "defense.x.guard.luck": [5, 1]})
    thrown = roll_pool(tray, "defense.x.guard", pool(2), success_on=5, luck_available=True)
    assert thrown.luck_spent and thrown.total == 1
    assert thrown.breakdown()["luck"] == {
        "roll": "defense.x.guard.luck",
        "spent": 1,
        "faces": [5, 1],
        "successes": 1,
        "below_nothing": False,
        "total": 1,
    }


def test_luck_on_a_below_nothing_roll_and_a_worse_second_look_still_stands() -> None:
    tray = DiceTray(None, {"attack": [4, 2], "attack.luck": [1, 1]})
    thrown = roll_pool(tray, "attack", pool(2), success_on=5, luck_available=True)
    assert thrown.first is not None and thrown.first.total == 0
    assert thrown.total == -1 and thrown.luck_spent


def test_no_second_look_without_luck_or_after_a_success() -> None:
    tray = DiceTray(None, {"a": [1, 1], "b": [6, 1]})
    unlucky = roll_pool(tray, "a", pool(2), success_on=5, luck_available=False)
    assert unlucky.total == -1 and not unlucky.luck_spent
    fine = roll_pool(tray, "b", pool(2), success_on=5, luck_available=True)
    assert fine.total == 1 and not fine.luck_spent
    assert [r.name for r in tray.rolls] == ["a", "b"]


def test_the_pool_breakdown_shows_every_term_and_the_passive_floor() -> None:
    active = Pool(
        (
            PoolTerm("vigor", 2),
            PoolTerm("guard", 1),
            PoolTerm("exhaustion", -3),
            PoolTerm("wounded", -1),
        ),
        floor=2,
    )
    assert active.size == 2
    assert active.breakdown() == {
        "terms": [
            {"term": "vigor", "dice": 2},
            {"term": "guard", "dice": 1},
            {"term": "exhaustion", "dice": -3},
            {"term": "wounded", "dice": -1},
        ],
        "sum": -1,
        "floor": 2,
        "floor_applied": True,
        "dice": 2,
    }


ROLLS = 100_000


@pytest.mark.parametrize(("dice", "expected"), [(2, 1 / 36), (3, 1 / 216)])
def test_below_nothing_comes_up_at_the_rate_the_rulings_state(dice: int, expected: float) -> None:
    """10^5 server rolls with a fixed seed; within five standard errors of 1/36 and 1/216.

    (Floats are fine here: this measures the dice, not the damage path.)
    """
    roller = random.Random(20240601 + dice)
    below = 0
    for n in range(ROLLS):
        tray = DiceTray(roller)
        thrown = roll_pool(tray, f"roll{n}", pool(dice), success_on=5, luck_available=False)
        below += thrown.total == -1
    rate = below / ROLLS
    tolerance = 5 * math.sqrt(expected * (1 - expected) / ROLLS)
    assert abs(rate - expected) <= tolerance, (rate, expected, tolerance)


@pytest.mark.parametrize(("dice", "one_in"), [(1, 6), (2, 36), (3, 216), (4, 1296)])
def test_exactly_one_face_combination_in_six_to_the_n_is_below_nothing(
    dice: int,
    one_in: int,
) -> None:
    """Counted over every possible throw: 1 in 36 for two dice, 1 in 216 for three."""
    throws = list(itertools.product(range(1, 7), repeat=dice))
    below = [faces for faces in throws if read_faces(faces).below_nothing]
    assert (len(below), len(throws)) == (1, one_in)
