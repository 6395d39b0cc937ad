"""The GM's changes to a character: sheet amendments, track adjustments, the cast.

Pure functions over one character's sheet, tracks and state (a
:class:`~domain.records.Vitals`) or one :class:`~domain.records.Combatant`. The
campaign applies them between fights, the encounter inside one (as GM records
among its actions, so a correction replays them in their place), and the
carry-forward applies them again, on whatever the tracks have become, from the
parameters they recorded: an adjustment ``by`` an amount adds it again, a ``set``
sets it again, an amendment puts the same sheet on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import msgspec

from skald_campaign.domain.errors import ActionRefused, InvalidInput

# The GM records' kinds, named beside the records (domain/play/actions.py), used from here.
from skald_campaign.domain.play.actions import ADJUST as ADJUST
from skald_campaign.domain.play.actions import AMEND as AMEND
from skald_campaign.domain.play.actions import GM_KINDS as GM_KINDS
from skald_campaign.domain.play.actions import JOIN as JOIN
from skald_campaign.domain.play.actions import LEAVE as LEAVE
from skald_campaign.domain.play.actions import MOVE as MOVE
from skald_campaign.domain.records import (
    JSON,
    Combatant,
    JSONObject,
    Record,
    Sheet,
    Vitals,
    as_int,
    as_object,
    replace,
)
from skald_campaign.domain.rulesets.base import Ruleset

MAX_TRACK_VALUE = 10_000


class GMParams(Record, frozen=True):
    """A GM change's parameters as its record stores them, each narrowed where it is read
    (a join's combatant, an amendment's sheet...), so a record reads as far as it did."""

    target: str
    combatant: JSON = None  # a join's: the joiner as they came
    sheet: JSON = None  # an amendment's: the sheet as amended
    changes: JSON = None  # an adjustment's: track -> {"set" or "by": n}
    rank: JSON = None  # a move's

    @classmethod
    def from_json(cls, params: JSONObject) -> GMParams:
        return cls(
            target=str(params["target"]),
            combatant=params.get("combatant"),
            sheet=params.get("sheet"),
            changes=params.get("changes"),
            rank=params.get("rank"),
        )


@dataclass(frozen=True)
class Changed:
    """A character's sheet, tracks and state after a GM change, and what to say about it."""

    vitals: Vitals
    summary: str
    breakdown: dict[str, JSON]


@dataclass(frozen=True)
class CastChanged:
    """A combatant after a GM change (its vitals, rank or presence), and what to say."""

    combatant: Combatant
    summary: str
    breakdown: dict[str, JSON]


def amended_sheet(rules: Ruleset, current: Sheet, changes: Mapping[str, JSON]) -> Sheet:
    """The sheet with ``changes`` laid over it, validated as enrolment validates a sheet."""
    if not changes:
        raise InvalidInput("sheet: name at least one field to change")
    return rules.validate_sheet({**current, **changes})


def amend(rules: Ruleset, name: str, vitals: Vitals, sheet: Sheet) -> Changed:
    """Put ``sheet`` on: tracks above the new maxima come down to them; state the sheet
    sets at the start (margin's ammunition) takes the new sheet's values where they moved."""
    old = vitals.sheet
    changed = sorted(k for k in set(old) | set(sheet) if old.get(k) != sheet.get(k))
    maxima = rules.track_maxima(sheet)
    tracks = {t: min(v, maxima.get(t, v)) for t, v in vitals.tracks.items()}
    old_start, new_start = rules.start_state(old), rules.start_state(sheet)
    restarted = sorted(k for k in new_start if old_start.get(k) != new_start[k])
    state = {**vitals.state, **{k: new_start[k] for k in restarted}}
    breakdown: dict[str, JSON] = {
        "fields": {k: {"before": old.get(k), "after": sheet.get(k)} for k in changed},
        "maxima": maxima,
        "tracks": {"before": dict(vitals.tracks), "after": tracks},
        "state_restarted": restarted,
    }
    summary = f"{name}'s sheet amended: {', '.join(changed)}"
    return Changed(Vitals(sheet, tracks, state), summary, breakdown)


def check_adjustment(
    rules: Ruleset,
    sheet: Sheet,
    set_to: Mapping[str, int] | None,
    adjust_by: Mapping[str, int] | None,
) -> dict[str, dict[str, int]]:
    """``{track: {"set": n}}`` or ``{track: {"by": n}}``, each track once, all known.
    A ruleset's state counters (margin's fatigue and luck) are set and adjusted here as
    tracks are; a counter is never set below 0."""
    counters = rules.state_counters(sheet)
    known: dict[str, int | None] = {**rules.track_maxima(sheet), **counters}
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
            maximum = known[track]
            if mode == "set" and maximum is not None and value > maximum:
                raise InvalidInput(
                    f"set.{track}: {value} is above its maximum {maximum}; "
                    "amend the sheet to raise the maximum"
                )
            if mode == "set" and track in counters and value < 0:
                raise InvalidInput(f"set.{track}: {value} is below 0, where {track} stops")
            changes[track] = {mode: value}
    if not changes:
        raise InvalidInput("name at least one track to set or adjust")
    return changes


class TrackChange(Record, frozen=True):
    """One track's change as check_adjustment writes it and TracksAdjusted carries it:
    ``{"set": n}`` or ``{"by": n}``."""

    set: int | None = None
    by: int = 0

    @classmethod
    def from_json(cls, change: Mapping[str, int]) -> TrackChange:
        return msgspec.convert(change, cls)

    def applied(self, before: int, maximum: int | None) -> int:
        """The track after it: an adjustment never takes a track past its maximum."""
        if self.set is not None:
            return self.set
        if maximum is None:
            return before + self.by
        return min(before + self.by, max(before, maximum))


def adjust(
    rules: Ruleset, name: str, vitals: Vitals, changes: Mapping[str, Mapping[str, int]]
) -> Changed:
    """Set or adjust tracks; an adjustment never takes a track past its maximum. A
    ruleset's state counters (margin's fatigue and luck) change in the state, the same
    way, and an adjustment never takes one below 0 (its breakdown lists them apart)."""
    maxima = rules.track_maxima(vitals.sheet)
    counters = rules.state_counters(vitals.sheet)
    tracks = dict(vitals.tracks)
    state = dict(vitals.state)
    steps: dict[str, JSON] = {}
    counted: dict[str, JSON] = {}
    listed = []
    for track, change in sorted(changes.items()):
        step = TrackChange.from_json(change)
        if track in counters:
            before = as_int(state.get(track, 0))
            after = max(0, step.applied(before, counters[track]))
            state[track] = after
            counted[track] = {**change, "before": before, "after": after, "max": counters[track]}
        else:
            before = tracks[track]
            after = tracks[track] = step.applied(before, maxima[track])
            steps[track] = {**change, "before": before, "after": after, "max": maxima[track]}
        listed.append(f"{track} {before}→{after}")
    summary = f"{name}: {', '.join(listed)}"
    breakdown: dict[str, JSON] = {"tracks": steps}
    if counted:  # only then: an adjustment of tracks alone reads as it always has
        breakdown["state"] = counted
    return Changed(Vitals(vitals.sheet, tracks, state), summary, breakdown)


def join(combatant: Combatant) -> CastChanged:
    summary = f"{combatant.name} joins the fight ({combatant.side}, rank {combatant.rank})"
    return CastChanged(combatant, summary, {"tracks": dict(combatant.tracks)})


def leave(combatant: Combatant) -> CastChanged:
    if not combatant.present:
        raise ActionRefused(f"{combatant.name} has already left the fight")
    summary = f"{combatant.name} leaves the fight"
    return CastChanged(replace(combatant, present=False), summary, {})


def move(combatant: Combatant, rank: int) -> CastChanged:
    if not combatant.present:
        raise ActionRefused(f"{combatant.name} has left the fight")
    if not 1 <= rank <= 20:
        raise InvalidInput(f"rank must be between 1 (the front) and 20, not {rank}")
    summary = f"{combatant.name} moves from rank {combatant.rank} to rank {rank}"
    breakdown: dict[str, JSON] = {"rank": {"before": combatant.rank, "after": rank}}
    return CastChanged(replace(combatant, rank=rank), summary, breakdown)


def apply_gm_record(
    rules: Ruleset, kind: str, params: JSONObject, combatants: Mapping[str, Combatant]
) -> CastChanged:
    """One GM record applied to the combatants as they stand now (a replay's step)."""
    gm = GMParams.from_json(params)
    target = gm.target
    if kind == JOIN:
        return join(Combatant.from_json(as_object(gm.combatant)))
    combatant = combatants.get(target)
    if combatant is None:
        raise ActionRefused(f"'{target}' is not in this fight")
    if kind == AMEND:
        sheet = as_object(gm.sheet)
        changed = amend(rules, combatant.name, combatant.vitals, sheet)
    elif kind == ADJUST:
        changes = cast(Mapping[str, Mapping[str, int]], as_object(gm.changes))
        changed = adjust(rules, combatant.name, combatant.vitals, changes)
    elif kind == LEAVE:
        return leave(combatant)
    elif kind == MOVE:
        return move(combatant, as_int(gm.rank))
    else:
        raise InvalidInput(f"no GM change '{kind}'")
    return CastChanged(combatant.with_vitals(changed.vitals), changed.summary, changed.breakdown)
