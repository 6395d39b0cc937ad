"""The calendar's day plans: how each character spends a day between fights.

A day plan is what a ruleset's day plan model validated (stamina-body's rest, care
and healer), written out as JSON: the ruleset defines its fields, so it is JSON here,
typed as such, as a sheet is. A ``Day`` holds every character's plan for one day; the
campaign's calendar is its days by number. Stored events and snapshots keep the JSON
they always had: ``{"1": {character id: plan}}``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TypeAlias

from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.records import JSON, Character, JSONObject, Record, as_object, replace
from skald_campaign.domain.rulesets.base import DailyOutcome, Ruleset
from skald_campaign.domain.validation import validate

MAX_DAYS = 365

DayPlan: TypeAlias = Mapping[str, JSON]  # a ruleset's validated day plan
DayPlans: TypeAlias = Mapping[str, DayPlan]  # character id -> that character's plan


class Day(Record, frozen=True):
    """One day of the calendar: how each character spent it."""

    number: int
    plans: DayPlans

    @classmethod
    def from_json(cls, number: str, stored: JSON) -> Day:
        return cls(int(number), {cid: as_object(p) for cid, p in as_object(stored).items()})

    def as_json(self) -> dict[str, JSON]:
        return dict(self.plans)

    def with_plans(self, plans: DayPlans) -> Day:
        """The day with these characters' plans laid over it (a corrected plan)."""
        return replace(self, plans={**self.plans, **plans})


def calendar_from_json(stored: JSONObject) -> dict[int, Day]:
    return {int(day): Day.from_json(day, plans) for day, plans in stored.items()}


def calendar_as_json(calendar: Mapping[int, Day]) -> dict[str, JSON]:
    return {str(number): day.as_json() for number, day in calendar.items()}


def check_advance(
    rules: Ruleset,
    open_encounters: Sequence[str],
    days: int,
    roster: Mapping[str, Character],
    default_plan: JSONObject,
    plans: Mapping[str, JSONObject],
) -> dict[str, DayPlan]:
    """The plans of the days to advance by, if the calendar may move on (no encounter is
    open, by ``open_encounters``' names) by ``days``, with plans for enrolled characters."""
    if open_encounters:
        names = ", ".join(f"'{name}'" for name in open_encounters)
        raise ActionRefused(f"end the open encounter(s) {names} before advancing the day")
    if not 1 <= days <= MAX_DAYS:
        raise InvalidInput(f"advance by 1 to {MAX_DAYS} days at a time, not {days}")
    for character_id in plans:
        if character_id not in roster:
            raise NotFound(f"character '{character_id}' is not enrolled in this campaign")
    return plan_days(rules, roster, default_plan, plans)


def daily_heals(
    rules: Ruleset, calendar: Mapping[int, Day], now: Callable[[], Character], through: int
) -> Iterator[tuple[int, DailyOutcome]]:
    """Each day a character is owed, up to ``through``: its day's rules, worked out on
    the character as ``now`` gives them (each after the day before was recorded)."""
    model = rules.day_plan_model
    if model is None:
        return
    for day in range(now().healed_through + 1, through + 1):
        character = now()
        plan = model.model_validate(calendar[day].plans[character.id])
        yield day, rules.daily(character.sheet, character.tracks, character.state, plan)


def plan_days(
    rules: Ruleset,
    characters: Iterable[str],
    default_plan: JSONObject,
    plans: Mapping[str, JSONObject],
) -> dict[str, DayPlan]:
    """Each character's day: the GM's default with that character's overrides, validated."""
    model = rules.day_plan_model
    if model is None:
        if default_plan or plans:
            raise InvalidInput(
                f"the {rules.id} ruleset has no between-fight rules, so a day takes no plan"
            )
        return {}
    validate(model, default_plan, "default")
    return {
        cid: as_object(
            validate(model, {**default_plan, **plans.get(cid, {})}, f"characters.{cid}").model_dump(
                mode="json"
            )
        )
        for cid in characters
    }
