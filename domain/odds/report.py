"""The odds as JSON a page can chart: every probability a fraction string and a decimal."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from fractions import Fraction
from typing import TypeVar

from pydantic import JsonValue

from skald_campaign.domain.odds.readers import Features
from skald_campaign.domain.rulesets.base import EncounterView, JsonObject

K = TypeVar("K", bound=Hashable)
V = TypeVar("V", bound=int | str)  # a value a chart lists: a loss, luck points, an extra

# Results in the order a chart shows them; any other result follows, alphabetically.
RESULT_ORDER = (
    "hit",
    "intercepted",
    "double_success",
    "success",
    "miss",
    "failure",
    "parried",
    "dodged",
    "stopped_by_ward",
    "countered",
    "refused",
    "declared",
    "done",
)


def chance(p: Fraction) -> JsonObject:
    return {"probability": str(p), "decimal": round(float(p), 6)}


def _add(table: dict[K, Fraction], key: K, p: Fraction) -> None:
    table[key] = table.get(key, Fraction(0)) + p


def _rows(table: Mapping[V, Fraction], field: str) -> list[JsonValue]:
    return [{field: value, **chance(p)} for value, p in sorted(table.items()) if p]


def _results(table: Mapping[str, Fraction]) -> list[JsonValue]:
    def rank(name: str) -> tuple[int, str]:
        return (RESULT_ORDER.index(name) if name in RESULT_ORDER else len(RESULT_ORDER), name)

    return [{"result": name, **chance(table[name])} for name in sorted(table, key=rank)]


def _mean(table: Mapping[int, Fraction]) -> JsonObject:
    mean = sum((value * p for value, p in table.items()), Fraction(0))
    return {"value": str(mean), "decimal": round(float(mean), 6)}


def summarise(view: EncounterView, distribution: Mapping[Features, Fraction]) -> JsonObject:
    results: dict[str, Fraction] = {}
    touched: set[tuple[str, str]] = set()
    for features in distribution:
        touched.update((cid, track) for cid, track, _ in features.losses)
    losses: dict[tuple[str, str], dict[int, Fraction]] = {t: {} for t in touched}
    gained: dict[tuple[str, str], Fraction] = {}
    lost: dict[tuple[str, str], Fraction] = {}
    luck: dict[str, dict[int, Fraction]] = {}
    extras: dict[str, dict[int | str, Fraction]] = {}
    for features, p in distribution.items():
        _add(results, features.result, p)
        seen = {(cid, track): loss for cid, track, loss in features.losses}
        for where in touched:
            _add(losses[where], seen.get(where, 0), p)
        for where in features.gained:
            _add(gained, where, p)
        for where in features.lost:
            _add(lost, where, p)
        for cid, points in features.luck:
            _add(luck.setdefault(cid, {}), points, p)
        for name, value in features.extras:
            _add(extras.setdefault(name, {}), value, p)
    for spent in luck.values():
        spent[0] = 1 - sum((p for n, p in spent.items() if n), Fraction(0))

    def who(cid: str) -> dict[str, str]:
        return {"combatant": cid, "name": view.combatants[cid].name}

    return {
        "results": _results(results),
        "damage": [
            {
                **who(cid),
                "track": track,
                "distribution": _rows(losses[(cid, track)], "value"),
                "mean": _mean(losses[(cid, track)]),
                "at_least_one": chance(
                    sum((p for v, p in losses[(cid, track)].items() if v > 0), Fraction(0))
                ),
            }
            for cid, track in sorted(touched)
        ],
        "conditions": _conditions(view, gained, lost),
        "luck": [
            {**who(cid), "spent": _rows(spent, "points"), "any": chance(1 - spent[0])}
            for cid, spent in sorted(luck.items())
        ],
        "extras": {name: _rows(table, "value") for name, table in sorted(extras.items())},
    }


def _conditions(
    view: EncounterView,
    gained: Mapping[tuple[str, str], Fraction],
    lost: Mapping[tuple[str, str], Fraction],
) -> list[JsonValue]:
    rows: Iterable[tuple[str, str]] = sorted(set(gained) | set(lost))
    return [
        {
            "combatant": cid,
            "name": view.combatants[cid].name,
            "condition": condition,
            "gained": chance(gained.get((cid, condition), Fraction(0))),
            "lost": chance(lost.get((cid, condition), Fraction(0))),
        }
        for cid, condition in rows
    ]
