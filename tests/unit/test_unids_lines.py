"""A narrative's lines name combatants, never their ids (domain/reading/narrative.py): the lines
made at once read as each line made on its own by ``unids``."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from skald_campaign.domain.reading.narrative import unids, unids_lines


@dataclass(frozen=True)
class Named:
    name: str


ROSTERS = [
    {},
    {"c1": Named("Bran")},
    {"c1": Named("Bran"), "c2": Named("Ulf c1")},  # a name holding another's id
    {"c2": Named("c1"), "c1": Named("Bran")},  # replaced in the roster's order
    {"a\nb": Named("Split")},  # an id that spans two lines when they are joined
    {"1": Named("One"), "": Named("-")},  # an empty id, as str.replace reads it
]
LINES = [
    [],
    ["", ""],
    ["c1 hits c2", "", "c2 falls", "nobody"],
    ["a", "b", "xa\nby"],
    ["Damage dice: class 1 = 1d6, rolled 1", "c1: Stamina 10 -> 9"],
]


@pytest.mark.parametrize("roster", ROSTERS)
@pytest.mark.parametrize("lines", LINES)
def test_the_lines_read_as_each_made_on_its_own(roster: dict[str, Named], lines: list[str]) -> None:
    assert unids_lines(lines, roster) == [unids(line, roster) for line in lines if line]
