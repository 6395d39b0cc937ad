"""Between-fight rules for the calendar worker (M6, M8): what a day does to a character.

Pure functions: sheet, state and the campaign's options in, the new state and a
breakdown out. A full-rest day clears fatigue and refills luck to the sheet's value;
a light day halves fatigue, rounded down (``light_day_fatigue_divisor``, M18); a
day without rest changes nothing. Every kind of day also forgets the posture and
the "has acted" mark, which belong to a round long gone. Health is not restored:
seed 000 says nothing about healing, so that stays the GM's call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from skald_campaign.domain.rulesets.margin.options import DEFAULT_OPTIONS, MarginOptions
from skald_campaign.domain.rulesets.margin.sheet import MarginSheet
from skald_campaign.domain.rulesets.margin.state import CharacterState
from skald_campaign.ruleset_api import (
    JsonMapping,
    JsonObject,
    SheetLike,
    StateObject,
    read_sheet,
)

Rest = Literal["full", "light", "none"]


@dataclass(frozen=True)
class DayOutcome:
    state: StateObject
    breakdown: JsonObject


def _outcome(
    rest: str,
    state: JsonMapping,
    before: CharacterState,
    after: CharacterState,
) -> DayOutcome:
    breakdown: JsonObject = {
        "rest": rest,
        "fatigue": {"before": before.fatigue, "after": after.fatigue},
        "luck": {"before": before.luck, "after": after.luck},
    }
    return DayOutcome({**state, **after.as_json()}, breakdown)


def full_rest(
    sheet: SheetLike, state: JsonMapping, options: MarginOptions = DEFAULT_OPTIONS
) -> DayOutcome:
    """Fatigue cleared, luck refilled to the sheet value."""
    before = CharacterState.from_json(state)
    luck = read_sheet(MarginSheet, sheet).luck
    after = replace(before.without_round_marks(), fatigue=0, luck=luck)
    return _outcome("full", state, before, after)


def light_day(
    sheet: SheetLike, state: JsonMapping, options: MarginOptions = DEFAULT_OPTIONS
) -> DayOutcome:
    """Fatigue halved (// light_day_fatigue_divisor), rounded down; luck untouched."""
    before = CharacterState.from_json(state)
    kept = before.fatigue // options.light_day_fatigue_divisor
    after = replace(before.without_round_marks(), fatigue=kept)
    return _outcome("light", state, before, after)


def no_rest(
    sheet: SheetLike, state: JsonMapping, options: MarginOptions = DEFAULT_OPTIONS
) -> DayOutcome:
    before = CharacterState.from_json(state)
    return _outcome("none", state, before, before.without_round_marks())


DAILY_RULES: dict[str, Callable[[SheetLike, JsonMapping, MarginOptions], DayOutcome]] = {
    "full": full_rest,
    "light": light_day,
    "none": no_rest,
}


def apply_day(
    sheet: SheetLike,
    state: JsonMapping,
    rest: Rest,
    options: MarginOptions = DEFAULT_OPTIONS,
) -> DayOutcome:
    return DAILY_RULES[rest](sheet, state, options)
