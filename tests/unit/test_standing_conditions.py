"""domain/play/standing.py: conditions are worked out once per value a combatant takes,
and never read back for values they were not worked out from (issue 38)."""

from __future__ import annotations

from collections.abc import Mapping
from uuid import uuid4

from skald_campaign.domain.play.standing import KEPT_PER_COMBATANT, KnownConditions, known_for
from skald_campaign.domain.rulesets.base import JsonMapping, SheetLike
from skald_campaign.domain.rulesets.d20 import D20

SHEET = D20().sheet(
    D20().validate_sheet(
        {
            "strength": {"modifier": 0},
            "dexterity": 10,
            "constitution": 10,
            "wisdom": 10,
            "level": 1,
            "hp": 20,
            "save_vs_death_ray": 12,
        }
    )
)


class Counted(D20):
    def __init__(self) -> None:
        self.calls = 0

    def conditions(
        self, sheet: SheetLike, tracks: Mapping[str, int], state: JsonMapping
    ) -> tuple[str, ...]:
        self.calls += 1
        found: tuple[str, ...] = super().conditions(sheet, tracks, state)
        return found


def test_each_value_is_worked_out_once_and_a_changed_one_again() -> None:
    rules, known = Counted(), KnownConditions()
    assert known.of(rules, "a", SHEET, {"hp": 5}, {}) == ()
    assert known.of(rules, "a", SHEET, {"hp": 5}, {}) == ()  # equal values: known
    assert known.of(rules, "a", SHEET, dict({"hp": 5}), {}) == ()  # equal, another dict
    assert rules.calls == 1
    assert known.of(rules, "a", SHEET, {"hp": 0}, {}) == ("down",)  # a new value
    assert known.of(rules, "a", SHEET, {"hp": 0}, {"prone": True}) == ("down", "prone")
    assert rules.calls == 3
    assert known.of(rules, "a", SHEET, {"hp": 5}, {}) == ()  # an earlier value, kept
    assert rules.calls == 3


def test_what_is_known_is_never_read_for_another_combatant_or_ruleset() -> None:
    rules, other_rules, known = Counted(), Counted(), KnownConditions()
    known.of(rules, "a", SHEET, {"hp": 0}, {})
    assert known.known(rules, "b", SHEET, {"hp": 0}, {}) is None
    assert known.known(other_rules, "a", SHEET, {"hp": 0}, {}) is None
    assert known.of(other_rules, "a", SHEET, {"hp": 0}, {}) == ("down",)
    assert (rules.calls, other_rules.calls) == (1, 1)


def test_only_the_last_few_values_of_a_combatant_are_kept() -> None:
    rules, known = Counted(), KnownConditions()
    for hp in range(KEPT_PER_COMBATANT + 1):
        known.of(rules, "a", SHEET, {"hp": hp}, {})
    assert rules.calls == KEPT_PER_COMBATANT + 1
    assert known.known(rules, "a", SHEET, {"hp": 0}, {}) is None  # the oldest made room
    assert known.known(rules, "a", SHEET, {"hp": 1}, {}) == ()


def test_an_aggregate_and_its_copies_share_one() -> None:
    aggregate_id = uuid4()
    assert known_for(aggregate_id) is known_for(aggregate_id)
    assert known_for(uuid4()) is not known_for(aggregate_id)
