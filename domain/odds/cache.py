"""Exact odds already worked out, kept by their inputs.

An answer depends only on the encounter as it stands (its id and version name that
exactly: the ruleset, its options, every combatant's sheet, tracks and state, the round)
and on the action asked about (kind, actor, parameters). The GM screen and the player's
prompt ask the same questions again until something happens, so the answers are kept,
the least recently asked dropped first. Refusals are not kept: they depend on the budget.
"""

from __future__ import annotations

import contextlib
import json
from collections import OrderedDict
from collections.abc import Callable, Hashable
from uuid import UUID

from skald_campaign.domain.rulesets.base import JsonMapping, JsonObject

KEPT = 256  # answers kept (each a few kB)


class OddsCache:
    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._answers: OrderedDict[Hashable, JsonObject] = OrderedDict()
        self.hits = 0

    @staticmethod
    def key(
        encounter_id: UUID, version: int, kind: str, actor: str | None, params: JsonMapping
    ) -> Hashable:
        return (encounter_id, version, kind, actor, json.dumps(params, sort_keys=True, default=str))

    def get(self, key: Hashable) -> JsonObject | None:
        found = self._answers.get(key)
        if found is not None:
            self.hits += 1
            # Dropped by another request meanwhile: still a right answer.
            with contextlib.suppress(KeyError):
                self._answers.move_to_end(key)
        return found

    def answer(self, key: Hashable, compute: Callable[[], JsonObject]) -> tuple[JsonObject, bool]:
        """The kept answer, or a new one (kept); and whether it was kept already."""
        found = self.get(key)
        if found is not None:
            return found, True
        answer = compute()
        self._answers[key] = answer
        while len(self._answers) > self.kept:
            try:
                self._answers.popitem(last=False)
            except KeyError:
                break
        return answer, False


ODDS = OddsCache()  # one per process: answers are the same whoever asks
