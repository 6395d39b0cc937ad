"""The calendar's day plans: how each character spends a day between fights."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.errors import InvalidInput
from domain.rulesets.base import Ruleset
from domain.validation import validate

MAX_DAYS = 365


def plan_days(
    rules: Ruleset,
    characters: Iterable[str],
    default_plan: dict[str, Any],
    plans: dict[str, dict[str, Any]],
) -> dict[str, dict[str, Any]]:
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
        cid: validate(
            model, {**default_plan, **plans.get(cid, {})}, f"characters.{cid}"
        ).model_dump(mode="json")
        for cid in characters
    }
