"""Dice pinned value by value: the bounds (a d2 is a die), strict faces, every message,
and the roller asked for 1..sides both when rolling and when refitting."""

from __future__ import annotations

from typing import Any

import pytest

from skald_campaign.domain.errors import DiceError
from skald_campaign.domain.play.dice import (
    MAX_DICE_PER_ROLL,
    MAX_SIDES,
    DiceExpression,
    DiceTray,
    Roll,
    seeded_roller,
)


class Recorder:
    """A roller that writes down every range it was asked for and answers the top."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        return b


def test_a_d2_and_a_d1000_are_dice_and_zero_to_a_hundred_may_be_rolled() -> None:
    recorder = Recorder()
    tray = DiceTray(recorder)
    assert tray.roll("coin", 1, 2).faces == (2,)
    assert tray.roll("big", 1, MAX_SIDES).faces == (MAX_SIDES,)
    assert tray.roll("none", 0, 6).faces == ()
    assert len(tray.roll("many", MAX_DICE_PER_ROLL, 6).faces) == MAX_DICE_PER_ROLL
    assert recorder.asked[:2] == [(1, 2), (1, 1000)]


@pytest.mark.parametrize(
    ("count", "sides", "message"),
    [
        (1, 1, "1d1: a die has between 2 and 1000 sides"),
        (1, 1001, "1d1001: a die has between 2 and 1000 sides"),
        (101, 6, "101d6: between 0 and 100 dice may be rolled"),
        (-1, 6, "-1d6: between 0 and 100 dice may be rolled"),
    ],
)
def test_out_of_bounds_dice_are_refused(count: int, sides: int, message: str) -> None:
    with pytest.raises(DiceError) as refused:
        DiceExpression(count, sides).check()
    assert refused.value.message == message


@pytest.mark.parametrize("face", [True, False, "3", 3.0, None])
def test_a_supplied_face_must_be_an_integer(face: Any) -> None:
    tray = DiceTray(None, {"hit": [face]})
    with pytest.raises(DiceError) as refused:
        tray.roll("hit", 1, 6)
    assert refused.value.message == (
        f"roll 'hit': {face!r} is not a die face; expected an integer from 1 to 6"
    )


@pytest.mark.parametrize(
    ("count", "faces", "message"),
    [
        (1, [1, 2], "roll 'hit' is 1d6: it needs 1 die, 2 were supplied"),
        (2, [1], "roll 'hit' is 2d6: it needs 2 dice, 1 was supplied"),
    ],
)
def test_a_wrong_count_is_named_in_the_singular_or_plural(
    count: int, faces: list[int], message: str
) -> None:
    with pytest.raises(DiceError) as refused:
        DiceTray(None, {"hit": faces}).roll("hit", count, 6)
    assert refused.value.message == message


def test_faces_zero_and_one_past_the_top_are_refused_the_ends_accepted() -> None:
    assert DiceTray(None, {"a": [1, 6]}).roll("a", 2, 6).faces == (1, 6)
    for face in (0, 7):
        with pytest.raises(DiceError) as refused:
            DiceTray(None, {"a": [face]}).roll("a", 1, 6)
        assert refused.value.message == (
            f"roll 'a': a face of {face} is not on a d6 (faces run 1 to 6)"
        )


def test_a_refit_rolls_the_missing_dice_on_the_same_die() -> None:
    recorder = Recorder()
    tray = DiceTray(recorder, {"defense": [3]}, refitting=True)
    roll = tray.roll("defense", 3, 8)
    assert roll.faces == (3, 8, 8)
    assert recorder.asked == [(1, 8), (1, 8)]
    assert roll.supplied is True
    assert roll.as_record() == {
        "name": "defense",
        "dice": "3d8",
        "faces": [3, 8, 8],
        "total": 19,
        "supplied": True,
        "adjusted": "1 dice recorded, 3 needed now: kept 1, rolled 2 new",
    }


def test_a_refit_of_the_same_count_keeps_the_faces_untouched() -> None:
    roll = DiceTray(None, {"hit": [1, 2, 3]}, refitting=True).roll("hit", 3, 6)
    assert (roll.faces, roll.supplied, roll.adjusted) == ((1, 2, 3), True, None)


def test_a_replay_refit_that_needs_more_dice_is_refused() -> None:
    with pytest.raises(DiceError) as refused:
        DiceTray(None, {"hit": [1]}, refitting=True).roll("hit", 3, 6)
    assert refused.value.message == "roll 'hit' now needs 3 dice; 1 were recorded"


def test_a_roll_name_twice_and_unused_dice_are_refused() -> None:
    tray = DiceTray(Recorder(), {"dmg": [1]})
    tray.roll("hit", 1, 6)
    with pytest.raises(ValueError, match="roll name 'hit' used twice in one action"):
        tray.roll("hit", 1, 6)
    with pytest.raises(DiceError) as refused:
        tray.close()
    assert refused.value.message == (
        "dice were supplied for roll(s) this action does not make: dmg; rolls made: hit"
    )
    with pytest.raises(DiceError, match="rolls made: none"):
        DiceTray(None, {"dmg": [1]}).close()


def test_a_roll_total_adds_the_modifier_and_notation_shows_it() -> None:
    roll = Roll("x", DiceExpression(2, 6, -1), (3, 4), supplied=False)
    assert roll.total == 6
    assert roll.as_record() == {
        "name": "x",
        "dice": "2d6-1",
        "faces": [3, 4],
        "total": 6,
        "supplied": False,
    }
    assert str(DiceExpression(1, 20, 2)) == "1d20+2"
    assert DiceExpression.parse("d2") == DiceExpression(1, 2, 0)
    with pytest.raises(DiceError) as refused:
        DiceExpression.parse("3x6")
    assert refused.value.message == "'3x6' is not dice notation; write it like 3d6, d20 or 2d8+1"


def test_a_seeded_roller_repeats_itself() -> None:
    first = [seeded_roller(11).randint(1, 1000) for _ in range(3)]
    assert first == [seeded_roller(11).randint(1, 1000) for _ in range(3)]
    assert [seeded_roller(11).randint(1, 10**9) for _ in range(2)] != [
        seeded_roller(12).randint(1, 10**9) for _ in range(2)
    ]


def test_a_refit_of_the_same_count_keeps_the_name_and_expression() -> None:
    roll = DiceTray(None, {"hit": [1, 2, 3]}, refitting=True).roll("hit", 3, 6)
    assert (roll.name, roll.expression) == ("hit", DiceExpression(3, 6))


def test_unused_and_made_rolls_are_listed_with_commas() -> None:
    tray = DiceTray(Recorder(), {"zap": [1], "dmg": [1]})
    tray.roll("hit", 1, 6)
    tray.roll("defense", 1, 6)
    with pytest.raises(DiceError) as refused:
        tray.close()
    assert refused.value.message == (
        "dice were supplied for roll(s) this action does not make: dmg, zap; "
        "rolls made: hit, defense"
    )
