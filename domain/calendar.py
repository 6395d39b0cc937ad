"""The calendar's day plans: how each character spends a day between fights.

A day plan is what a ruleset's day plan model validated (stamina-body's rest, care
and healer), written out as JSON: the ruleset defines its fields, so it is JSON here,
typed as such, as a sheet is. A ``Day`` holds every character's plan for one day; the
campaign's calendar is its days by number. Stored events and snapshots keep the JSON
they always had: ``{"1": {character id: plan}}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeAlias

from domain.errors import InvalidInput
from domain.records import JSON, JSONObject, Record, as_object, replace
from domain.rulesets.base import Ruleset
from domain.validation import validate

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
