"""What an outcome was, in the terms the odds report: a result, harm, conditions, luck.

The harm, conditions and luck are read the same way for every ruleset (from the
outcome's new tracks and state, and the ruleset's own ``conditions``); only the
one-word result and a few extras are read from each ruleset's breakdown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from skald_campaign.domain.resolution import Resolved
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
def _object(breakdown: JsonMapping, key: str) -> JsonMapping:
    """The JSON object under ``key``, or an empty one if there is none."""
    value = breakdown.get(key)
    return value if isinstance(value, Mapping) else {}


def _int(value: object) -> int:
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"a breakdown's count is a number, not {type(value).__name__}")


def _success(breakdown: JsonMapping, *places: str) -> bool | None:
    for place in places:
        check = breakdown.get(place)
        success = check.get("success") if isinstance(check, Mapping) else None
        if isinstance(success, bool):
            return success
    return None


def _generic(kind: str, b: JsonMapping) -> str:
    success = _success(b, "hit", "roll", "check")
    if success is None:
        return "done"
    return "success" if success else "failure"


def _stamina_body(kind: str, b: JsonMapping) -> str:
    if kind == "attack":
        return {"missed": "miss", "landed": "hit"}.get(str(b.get("result")), str(b.get("result")))
    if kind == "take_hit":
        return "hit"
    return _generic(kind, b)


def _margin(kind: str, b: JsonMapping) -> str:
    if kind not in ("attack", "cast"):
        return "declared"
    ward, riposte = _object(b, "ward"), _object(b, "riposte")
    if ward.get("stopped"):
        return "stopped_by_ward"
    if ward.get("dwarf") is not None:
        return "intercepted"
    if b.get("damage") is not None:
        return "hit"
    if riposte.get("answered"):
        return "countered"
    return "miss"


def _d20(kind: str, b: JsonMapping) -> str:
    if kind == "attack":
        return "hit" if _success(b, "hit") else "miss"
    if b.get("refused"):
        return "refused"
    if kind == "shove":
        if not _success(b, "roll"):
            return "failure"
        return "double_success" if _object(b, "double_success")["result"] else "success"
    return _generic(kind, b)


def _d20_extras(kind: str, b: JsonMapping) -> Extras:
    if kind != "shove":
        return ()
    moved = _object(b, "displacement")
    return (
        ("distance_feet", _int(moved.get("moved_feet", 0))),
        ("stopped_by", str(moved.get("stopped_by") or "nothing")),
    )


def _no_extras(kind: str, b: JsonMapping) -> Extras:
    return ()


RESULTS: dict[str, Callable[[str, JsonMapping], str]] = {
    "stamina-body": _stamina_body,
    "margin": _margin,
    "d20": _d20,
}
EXTRAS: dict[str, Callable[[str, JsonMapping], Extras]] = {"d20": _d20_extras}


def reader(rules: Ruleset, view: EncounterView, kind: str) -> Callable[[Resolved], Features]:
    result_of = RESULTS.get(rules.id, _generic)
    extras_of = EXTRAS.get(rules.id, _no_extras)

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
        spent = _object(outcome.breakdown, "luck_spent")
        return Features(
            result_of(kind, outcome.breakdown),
            losses,
            tuple(gained),
            tuple(lost),
            tuple(sorted((str(cid), _int(n)) for cid, n in spent.items())),
            extras_of(kind, outcome.breakdown),
        )

    return read
