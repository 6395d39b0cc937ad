"""The stored JSON form of an action record's texts (issue 38, domain/reading/told_form.py):
parts written as JSON and read back are the same parts, and read the same for every
reader; a record that recorded none, or something else, reads as not recorded."""

from __future__ import annotations

import msgspec
import orjson
import pytest

from skald_campaign.domain.reading.texts import GM, Descriptor, Reader, Secret, render
from skald_campaign.domain.reading.told_form import (
    Standing,
    Told,
    as_json,
    recorded,
    text_form,
    text_of,
    upcast_not_told,
)

OGRE = "9b7c0e1a-0000-4000-8000-000000000002"
BRAN = "9b7c0e1a-0000-4000-8000-000000000001"
SUMMARY = (
    "Bran hits: ",
    "Ogre",
    Secret(OGRE, (" takes 3 Stamina",), (" is ", Descriptor(OGRE, {"stamina": 20, "body": 21}))),
)
LINE = ("Bran's hit: 3d6 rolled 5", Secret(BRAN, (" against skill 12",)), ": success")


def described(owner: str, tracks: object) -> str:
    return "winded" if owner == OGRE else "unhurt"


def stored(told: Told) -> object:
    """As an event stores it and the store gives it back: JSON bytes."""
    return orjson.loads(orjson.dumps({"summary": "…", "told": as_json(told)}))


def test_parts_come_back_as_written_and_read_the_same_for_every_reader() -> None:
    told = Told(
        summary=text_form(SUMMARY, described),
        narrative=[text_form(LINE, described), text_form(("Ogre: hurt",), described)],
        outcome=text_form(("Bran attacks Ogre with sword and hits",), described),
        parties=[OGRE],
        standing={OGRE: Standing("20 Stamina and 21 Body", "winded"), BRAN: Standing(None, "x")},
        narrate=["a line the GM reads"],
    )
    back = recorded(stored(told))  # type: ignore[arg-type]
    assert back == told
    assert back.summary is not None
    summary = text_of(back.summary)
    # The descriptor's word is the one worked out when written, not the reader's.
    assert summary == (
        "Bran hits: ",
        "Ogre",
        Secret(
            OGRE,
            (" takes 3 Stamina",),
            (" is ", Descriptor(OGRE, {"stamina": 20, "body": 21}, "winded")),
        ),
    )
    player = Reader(frozenset({OGRE}), lambda owner, tracks: "asked")
    assert render(summary, GM) == render(SUMMARY, GM) == "Bran hits: Ogre takes 3 Stamina"
    assert render(summary, player) == "Bran hits: Ogre is winded"
    assert render(SUMMARY, player) == "Bran hits: Ogre is asked"  # not recorded: asked
    assert back.narrative is not None
    assert [render(text_of(line), player) for line in back.narrative] == [
        "Bran's hit: 3d6 rolled 5 against skill 12: success",
        "Ogre: hurt",
    ]


def test_the_stored_form_is_plain_json_and_leaves_out_what_is_not_said() -> None:
    told = Told(summary=text_form(SUMMARY, described), parties=[])
    assert as_json(told) == {
        "summary": [
            "Bran hits: ",
            "Ogre",
            {
                "part": "secret",
                "owner": OGRE,
                "parts": [" takes 3 Stamina"],
                "instead": [
                    " is ",
                    {
                        "part": "descriptor",
                        "owner": OGRE,
                        "tracks": {"stamina": 20, "body": 21},
                        "word": "winded",
                    },
                ],
            },
        ]
    }
    # The plain narrative: not recorded apart (its narrative's lines), or none told.
    assert "narrate" not in as_json(Told())
    assert as_json(Told(narrate=None)) == {"narrate": None}
    assert recorded(stored(Told(narrate=None))).narrate is None  # type: ignore[union-attr]
    untold = recorded(stored(Told()))
    assert untold is not None and isinstance(untold.narrate, msgspec.UnsetType)
    assert as_json(Told(standing={OGRE: Standing(None, "hurt")})) == {
        "standing": {OGRE: [None, "hurt"]}
    }


@pytest.mark.parametrize(
    "record",
    [
        {"summary": "a record stored before version 4"},
        {"summary": "an event's upcast", "told": None},
        {"summary": "not a told", "told": {"summary": [{"part": "number", "value": 7}]}},
        {"summary": "not a told", "told": ["a list"]},
    ],
)
def test_a_record_that_recorded_no_texts_reads_as_not_recorded(record: dict[str, object]) -> None:
    assert recorded(record) is None


def test_an_event_stored_before_version_4_is_upcast_to_not_recorded() -> None:
    state: dict[str, object] = {"summary": "Bran hits"}
    upcast_not_told(state)
    assert state == {"summary": "Bran hits", "told": None}
    assert recorded(state) is None


def test_a_part_that_is_not_a_part_has_no_stored_form() -> None:
    with pytest.raises(TypeError, match="not a text part: 7"):
        text_form(("a number as an int: ", 7), described)  # type: ignore[arg-type]
