"""The GM's changes to a character: sheet amendments, track adjustments, the cast.

Pure functions over one combatant (or roster entry) as a dict with ``sheet``,
``tracks`` and ``state``. The campaign applies them between fights, the
encounter inside one (as GM records among its actions, so a correction replays
them in their place), and the carry-forward applies them again, on whatever the
tracks have become, from the parameters they recorded: an adjustment ``by``
an amount adds it again, a ``set`` sets it again, an amendment puts the same
sheet on.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.errors import ActionRefused, InvalidInput
from domain.rulesets.base import Ruleset

MAX_TRACK_VALUE = 10_000
# The kinds of GM record an encounter keeps among its actions.
AMEND = "amend_sheet"
ADJUST = "adjust_tracks"
JOIN = "join"
LEAVE = "leave"
MOVE = "move"
GM_KINDS = frozenset({AMEND, ADJUST, JOIN, LEAVE, MOVE})


@dataclass(frozen=True)
class Changed:
    """One character after a GM change, and what to say about it."""

    entry: dict[str, Any]
    summary: str
    breakdown: dict[str, Any]


def amended_sheet(
    rules: Ruleset, current: Mapping[str, Any], changes: Mapping[str, Any]
) -> dict[str, Any]:
    """The sheet with ``changes`` laid over it, validated as enrolment validates a sheet."""
    if not changes:
        raise InvalidInput("sheet: name at least one field to change")
    return rules.validate_sheet({**current, **changes})


def amend(rules: Ruleset, entry: Mapping[str, Any], sheet: dict[str, Any]) -> Changed:
    """Put ``sheet`` on: tracks above the new maxima come down to them; state the sheet
    sets at the start (margin's ammunition) takes the new sheet's values where they moved."""
    old = entry["sheet"]
    changed = sorted(k for k in set(old) | set(sheet) if old.get(k) != sheet.get(k))
    maxima = rules.track_maxima(sheet)
    tracks = {t: min(v, maxima.get(t, v)) for t, v in entry["tracks"].items()}
    old_start, new_start = rules.start_state(old), rules.start_state(sheet)
    restarted = sorted(k for k in new_start if old_start.get(k) != new_start[k])
    state = {**entry["state"], **{k: new_start[k] for k in restarted}}
    breakdown = {
        "fields": {k: {"before": old.get(k), "after": sheet.get(k)} for k in changed},
        "maxima": maxima,
        "tracks": {"before": dict(entry["tracks"]), "after": tracks},
        "state_restarted": restarted,
    }
    new_entry = {**copy.deepcopy(dict(entry)), "sheet": sheet, "tracks": tracks, "state": state}
    summary = f"{entry.get('name', 'the character')}'s sheet amended: {', '.join(changed)}"
    return Changed(new_entry, summary, breakdown)


def check_adjustment(
    rules: Ruleset,
    sheet: Mapping[str, Any],
    set_to: Mapping[str, int] | None,
    adjust_by: Mapping[str, int] | None,
) -> dict[str, dict[str, int]]:
    """``{track: {"set": n}}`` or ``{track: {"by": n}}``, each track once, all known."""
    known = rules.track_maxima(sheet)
    changes: dict[str, dict[str, int]] = {}
    for mode, values in (("set", set_to or {}), ("by", adjust_by or {})):
        for track, value in values.items():
            if track not in known:
                names = ", ".join(sorted(known))
                raise InvalidInput(f"{mode}.{track}: no such track; the tracks are {names}")
            if track in changes:
                raise InvalidInput(f"{track}: set it or adjust it, not both")
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInput(f"{mode}.{track}: a whole number, not {value!r}")
            if not -MAX_TRACK_VALUE <= value <= MAX_TRACK_VALUE:
                raise InvalidInput(f"{mode}.{track}: {value} is out of range")
            if mode == "set" and value > known[track]:
                raise InvalidInput(
                    f"set.{track}: {value} is above its maximum {known[track]}; "
                    "amend the sheet to raise the maximum"
                )
            changes[track] = {mode: value}
    if not changes:
        raise InvalidInput("name at least one track to set or adjust")
    return changes


def adjust(rules: Ruleset, entry: Mapping[str, Any], changes: Mapping[str, Any]) -> Changed:
    """Set or adjust tracks; an adjustment never takes a track past its maximum."""
    maxima = rules.track_maxima(entry["sheet"])
    tracks = dict(entry["tracks"])
    steps = {}
    for track, change in sorted(changes.items()):
        before = tracks[track]
        if "set" in change:
            tracks[track] = int(change["set"])
        else:
            tracks[track] = min(before + int(change["by"]), max(before, maxima[track]))
        steps[track] = {**change, "before": before, "after": tracks[track], "max": maxima[track]}
    listed = ", ".join(f"{t} {s['before']}→{s['after']}" for t, s in steps.items())
    summary = f"{entry.get('name', 'the character')}: {listed}"
    return Changed({**copy.deepcopy(dict(entry)), "tracks": tracks}, summary, {"tracks": steps})


def join(entry: Mapping[str, Any]) -> Changed:
    summary = f"{entry['name']} joins the fight ({entry['side']}, rank {entry['rank']})"
    return Changed(copy.deepcopy(dict(entry)), summary, {"tracks": dict(entry["tracks"])})


def leave(entry: Mapping[str, Any]) -> Changed:
    if entry.get("present", True) is False:
        raise ActionRefused(f"{entry['name']} has already left the fight")
    summary = f"{entry['name']} leaves the fight"
    return Changed({**copy.deepcopy(dict(entry)), "present": False}, summary, {})


def move(entry: Mapping[str, Any], rank: int) -> Changed:
    if entry.get("present", True) is False:
        raise ActionRefused(f"{entry['name']} has left the fight")
    if not 1 <= rank <= 20:
        raise InvalidInput(f"rank must be between 1 (the front) and 20, not {rank}")
    summary = f"{entry['name']} moves from rank {entry['rank']} to rank {rank}"
    breakdown = {"rank": {"before": entry["rank"], "after": rank}}
    return Changed({**copy.deepcopy(dict(entry)), "rank": rank}, summary, breakdown)


def apply_gm_record(
    rules: Ruleset, kind: str, params: Mapping[str, Any], combatants: Mapping[str, Any]
) -> Changed:
    """One GM record applied to the combatants as they stand now (a replay's step)."""
    target = str(params["target"])
    if kind == JOIN:
        return join(params["combatant"])
    entry = combatants.get(target)
    if entry is None:
        raise ActionRefused(f"'{target}' is not in this fight")
    if kind == AMEND:
        return amend(rules, entry, dict(params["sheet"]))
    if kind == ADJUST:
        return adjust(rules, entry, params["changes"])
    if kind == LEAVE:
        return leave(entry)
    if kind == MOVE:
        return move(entry, int(params["rank"]))
    raise InvalidInput(f"no GM change '{kind}'")
