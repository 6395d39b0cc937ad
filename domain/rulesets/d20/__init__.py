"""The ``d20`` ruleset (seed 004). Sheet, options and actions land with its issue."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from domain.rulesets.base import ActionType, Frozen, Ruleset


class D20Sheet(Frozen):
    pass


class D20Options(Frozen):
    pass


class D20(Ruleset):
    id = "d20"
    title = "d20 (seed 004)"
    sheet_model = D20Sheet
    options_model = D20Options
    actions: ClassVar[Mapping[str, ActionType]] = {}

    def track_maxima(self, sheet: Mapping[str, Any]) -> dict[str, int]:
        return {"hp": 1}

    def conditions(
        self, sheet: Mapping[str, Any], tracks: Mapping[str, int], state: Mapping[str, Any]
    ) -> tuple[str, ...]:
        return ()
