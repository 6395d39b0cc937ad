"""The ``margin`` ruleset (seed 000). Sheet, options and actions land with its issue."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from domain.rulesets.base import ActionType, Frozen, Ruleset


class MarginSheet(Frozen):
    pass


class MarginOptions(Frozen):
    pass


class Margin(Ruleset):
    id = "margin"
    title = "Margin (seed 000)"
    sheet_model = MarginSheet
    options_model = MarginOptions
    actions: ClassVar[Mapping[str, ActionType]] = {}

    def track_maxima(self, sheet: Mapping[str, Any]) -> dict[str, int]:
        return {"health": 10}

    def conditions(
        self, sheet: Mapping[str, Any], tracks: Mapping[str, int], state: Mapping[str, Any]
    ) -> tuple[str, ...]:
        return ()
