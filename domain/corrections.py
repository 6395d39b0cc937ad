"""Replaying an encounter's actions after a correction, with their recorded dice.

A void or a reroll changes one action; every later action is resolved again
from the state the correction left, reading the faces its event recorded.
Only a roll that the original resolution never made (a defense the defender
could not roll back then, say) is rolled fresh, and the report says so. An
action that can no longer happen is voided as a consequence, with the reason.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.dice import DiceTray, Roller
from domain.errors import DomainError
from domain.resolution import apply_outcome, build_view, resolve
from domain.rulesets.base import Ruleset

ACTIVE = "active"


@dataclass
class Replay:
    combatants: dict[str, dict[str, Any]]
    records: list[dict[str, Any]]
    report: list[dict[str, Any]] = field(default_factory=list)


def replay(
    rules: Ruleset,
    options: Mapping[str, Any],
    initial: Mapping[str, dict[str, Any]],
    records: list[dict[str, Any]],
    first_changed: int,
    change: Callable[[dict[str, Any], dict[str, dict[str, Any]]], dict[str, Any] | None],
    roller: Roller,
) -> Replay:
    """Rebuild from ``initial``; ``change`` rewrites action ``first_changed`` (None voids it).

    Earlier actions keep their recorded effects; later ones are re-resolved.
    """
    state = Replay(copy.deepcopy(dict(initial)), [])
    for record in records:
        number = record["number"]
        if record["status"] != ACTIVE or number < first_changed:
            if record["status"] == ACTIVE:
                _apply_effects(state.combatants, record["effects"])
            state.records.append(record)
            continue
        if number == first_changed:
            changed = change(record, state.combatants)
            if changed is None:
                state.records.append({**record, "status": "voided"})
                continue
            state.records.append(changed)
            _apply_effects(state.combatants, changed["effects"])
            continue
        state.records.append(_re_resolve(rules, options, record, state, roller))
    return state


def _re_resolve(
    rules: Ruleset,
    options: Mapping[str, Any],
    record: dict[str, Any],
    state: Replay,
    roller: Roller,
) -> dict[str, Any]:
    recorded = {r["name"]: r for r in record["rolls"]}
    tray = DiceTray(roller, {name: r["faces"] for name, r in recorded.items()}, refitting=True)
    view = build_view(rules, record["round"], options, state.combatants)
    try:
        resolved = resolve(
            rules,
            view,
            record["kind"],
            record["actor"],
            record["params"],
            tray,
            strict_dice=False,
        )
    except DomainError as error:
        state.report.append(
            {
                "number": record["number"],
                "kind": record["kind"],
                "before": record["summary"],
                "after": None,
                "status": "voided",
                "why": error.message,
            }
        )
        return {**record, "status": "voided", "voided_because": error.message}
    rolls = []
    for roll in resolved.rolls:
        original = recorded.get(roll["name"])
        if original is None:
            rolls.append({**roll, "new": True})
        else:
            rolls.append({**roll, "supplied": original["supplied"]})
    unused = sorted(set(recorded) - {roll["name"] for roll in resolved.rolls})
    new_record = {
        **record,
        "params": resolved.params,
        "rolls": rolls,
        "summary": resolved.outcome.summary,
        "breakdown": resolved.outcome.breakdown,
        "effects": {"tracks": resolved.outcome.tracks, "state": resolved.outcome.state},
    }
    apply_outcome(state.combatants, resolved.outcome)
    new_record["conditions"] = {
        cid: {
            "before": before,
            "after": list(
                rules.conditions(
                    state.combatants[cid]["sheet"],
                    state.combatants[cid]["tracks"],
                    state.combatants[cid]["state"],
                )
            ),
        }
        for cid, before in resolved.conditions_before.items()
    }
    same = (resolved.outcome.summary, resolved.outcome.breakdown) == (
        record["summary"],
        record["breakdown"],
    )
    state.report.append(
        {
            "number": record["number"],
            "kind": record["kind"],
            "before": record["summary"],
            "after": resolved.outcome.summary,
            "status": "unchanged" if same else "changed",
            "new_rolls": [r["name"] for r in rolls if r.get("new")],
            "refitted_rolls": {r["name"]: r["adjusted"] for r in rolls if "adjusted" in r},
            "unused_rolls": unused,
        }
    )
    return new_record


def _apply_effects(combatants: dict[str, dict[str, Any]], effects: Mapping[str, Any]) -> None:
    for cid, values in effects["tracks"].items():
        combatants[cid]["tracks"] = dict(values)
    for cid, values in effects["state"].items():
        combatants[cid]["state"] = dict(values)
