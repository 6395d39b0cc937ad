"""What an outcome was, in the terms the odds report: a result, harm, conditions, luck.

The harm, conditions and luck are read the same way for every ruleset (from the
outcome's new tracks and state, and the ruleset's own ``conditions``); only the
one-word result and a few extras are read from each ruleset's breakdown (its
``odds_result`` and ``odds_extras``, in its package).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from skald_campaign.domain.play.resolution import Resolved
from skald_campaign.domain.rulesets.base import EncounterView, JsonMapping, Ruleset

Extras = tuple[tuple[str, int | str], ...]


@dataclass(frozen=True)
class Features:
    result: str
    losses: tuple[tuple[str, str, int], ...]  # (combatant, track, before - after)
    gained: tuple[tuple[str, str], ...]  # (combatant, condition)
    lost: tuple[tuple[str, str], ...]
    luck: tuple[tuple[str, int], ...]  # (combatant, luck points spent)
    extras: Extras


def shift_luck(features: Features, by: Mapping[str, int]) -> Features:
    """The same outcome with ``by`` more (or fewer) luck points spent per combatant."""
    luck = dict(features.luck)
    for who, n in by.items():
        luck[who] = luck.get(who, 0) + n
    return replace(features, luck=tuple(sorted((w, n) for w, n in luck.items() if n)))


# The breakdowns are the JSON the rulesets built: read here by key, each value narrowed.
def object_at(breakdown: JsonMapping, key: str) -> JsonMapping:
    """The JSON object under ``key``, or an empty one if there is none."""
    value = breakdown.get(key)
    return value if isinstance(value, Mapping) else {}


def count(value: object) -> int:
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"a breakdown's count is a number, not {type(value).__name__}")


def success_at(breakdown: JsonMapping, *places: str) -> bool | None:
    for place in places:
        check = breakdown.get(place)
        success = check.get("success") if isinstance(check, Mapping) else None
        if isinstance(success, bool):
            return success
    return None


def generic_result(kind: str, b: JsonMapping) -> str:
    """The one-word result a ruleset does not word itself: the first check's."""
    success = success_at(b, "hit", "roll", "check")
    if success is None:
        return "done"
    return "success" if success else "failure"


def reader(rules: Ruleset, view: EncounterView, kind: str) -> Callable[[Resolved], Features]:
    def result_of(kind: str, breakdown: JsonMapping) -> str:
        own = rules.odds_result(kind, breakdown)
        return generic_result(kind, breakdown) if own is None else own

    extras_of = rules.odds_extras

    def read(resolved: Resolved) -> Features:
        outcome = resolved.outcome
        losses = tuple(
            (cid, track, int(view.combatants[cid].tracks[track]) - int(value))
            for cid, tracks in sorted(outcome.tracks.items())
            for track, value in sorted(tracks.items())
        )
        gained: list[tuple[str, str]] = []
        lost: list[tuple[str, str]] = []
        for cid in sorted(set(outcome.tracks) | set(outcome.state)):
            c = view.combatants[cid]
            after = rules.conditions(
                c.sheet, outcome.tracks.get(cid, c.tracks), outcome.state.get(cid, c.state)
            )
            gained += [(cid, name) for name in after if name not in c.conditions]
            lost += [(cid, name) for name in c.conditions if name not in after]
        spent = object_at(outcome.breakdown, "luck_spent")
        return Features(
            result_of(kind, outcome.breakdown),
            losses,
            tuple(gained),
            tuple(lost),
            tuple(sorted((str(cid), count(n)) for cid, n in spent.items())),
            extras_of(kind, outcome.breakdown),
        )

    return read
