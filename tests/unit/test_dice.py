"""Dice: notation, the tray, supplied faces and replay."""

from __future__ import annotations

import random

import pytest

from skald_campaign.domain.errors import DiceError
from skald_campaign.domain.play.dice import DiceExpression, DiceTray, replay_tray


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier", "shown"),
    [
        ("3d6", 3, 6, 0, "3d6"),
        ("d20", 1, 20, 0, "1d20"),
        ("2d8+1", 2, 8, 1, "2d8+1"),
        ("1d4-1", 1, 4, -1, "1d4-1"),
        (" 2 D 6 + 3 ", 2, 6, 3, "2d6+3"),
    ],
)
def test_notation_parses_count_sides_and_modifier(
    text: str, count: int, sides: int, modifier: int, shown: str
) -> None:
    expression = DiceExpression.parse(text)
    assert (expression.count, expression.sides, expression.modifier) == (count, sides, modifier)
    assert str(expression) == shown


@pytest.mark.parametrize("text", ["", "d", "3x6", "d1", "101d6", "3d6+", "six"])
def test_bad_notation_is_refused_with_the_text_named(text: str) -> None:
    with pytest.raises(DiceError) as refused:
        DiceExpression.parse(text)
    assert text.strip() in refused.value.message or "sides" in refused.value.message


def test_server_rolls_are_recorded_face_by_face_and_seeded() -> None:
    first = DiceTray(random.Random(7)).roll("damage", 3, 6, 2)
    again = DiceTray(random.Random(7)).roll("damage", 3, 6, 2)
    assert first.faces == again.faces
    assert all(1 <= face <= 6 for face in first.faces)
    assert first.total == sum(first.faces) + 2
    assert first.supplied is False


def test_supplied_dice_are_used_as_given() -> None:
    tray = DiceTray(random.Random(0), {"damage": [2, 4, 6]})
    roll = tray.roll("damage", 3, 6)
    assert roll.faces == (2, 4, 6)
    assert tray.close() == [
        {"name": "damage", "dice": "3d6", "faces": [2, 4, 6], "total": 12, "supplied": True}
    ]


def test_a_wrong_count_names_the_roll() -> None:
    tray = DiceTray(random.Random(0), {"damage": [2, 4]})
    with pytest.raises(DiceError, match=r"roll 'damage' is 3d6: it needs 3 dice, 2 were supplied"):
        tray.roll("damage", 3, 6)


def test_a_face_of_seven_on_a_d6_names_the_roll() -> None:
    tray = DiceTray(random.Random(0), {"damage": [2, 7, 1]})
    with pytest.raises(DiceError, match=r"roll 'damage': a face of 7 is not on a d6"):
        tray.roll("damage", 3, 6)


def test_dice_for_a_roll_never_made_are_refused() -> None:
    tray = DiceTray(random.Random(0), {"damgae": [1, 2, 3]})
    tray.roll("damage", 3, 6)
    with pytest.raises(DiceError, match="damgae"):
        tray.close()


def test_replay_feeds_back_recorded_faces_and_never_rolls() -> None:
    recorded = DiceTray(random.Random(3))
    recorded.roll("hit", 3, 6)
    records = recorded.close()
    replayed = replay_tray(records).roll("hit", 3, 6)
    assert list(replayed.faces) == records[0]["faces"]
    with pytest.raises(DiceError, match="no recorded dice"):
        replay_tray(records).roll("damage", 2, 6)


def test_a_refitting_tray_keeps_recorded_faces_and_rolls_only_what_is_missing() -> None:
    grown = DiceTray(random.Random(1), {"defense": [6, 5]}, refitting=True).roll("defense", 4, 6)
    assert grown.faces[:2] == (6, 5)
    assert len(grown.faces) == 4
    assert grown.adjusted == "2 dice recorded, 4 needed now: kept 2, rolled 2 new"
    shrunk = DiceTray(None, {"defense": [6, 5, 1]}, refitting=True).roll("defense", 2, 6)
    assert (shrunk.faces, shrunk.adjusted) == ((6, 5), "3 dice recorded, 2 needed now: kept 2")
