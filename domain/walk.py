"""What the timeline's walk (domain/timeline.py) holds and gives back.

A roster ``Entry`` is a character as the walk holds them: their name and values (sheet,
tracks, state), a frozen record, so both rosters and every step may share one. The
walk's results (``Walk``) are what the preview shows and the carried correction stores:
the steps' diffs (JSON, as the API answers them and CorrectionCarried keeps them) and
each changed step's values by the version of the event that recorded the step.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from skald_campaign.domain.campaign.calendar import DayPlans
from skald_campaign.domain.play.actions import ActionRecord
from skald_campaign.domain.play.corrections import Plan, Replay
from skald_campaign.domain.play.standing import KnownConditions
from skald_campaign.domain.records import (
    JSON,
    Combatant,
    JSONObject,
    Record,
    Sheet,
    State,
    Tracks,
    Vitals,
    as_object,
    as_tracks,
    replace,
)
from skald_campaign.domain.rulesets.base import Ruleset

E = TypeVar("E")


def events_of(events: Iterable[object], cls: type[E]) -> Iterator[E]:
    """The events of exactly this class, in their order, typed by the class."""
    return (event for event in events if type(event) is cls and isinstance(event, cls))


class Entry(Record, frozen=True):
    """A character as the walk's roster holds them."""

    name: str
    sheet: Sheet
    tracks: Tracks
    state: State

    @property
    def vitals(self) -> Vitals:
        return Vitals(self.sheet, self.tracks, self.state)

    def with_vitals(self, vitals: Vitals) -> Entry:
        return replace(self, sheet=vitals.sheet, tracks=vitals.tracks, state=vitals.state)


def vitals_from_json(stored: JSON) -> Vitals:
    """A step's values as a carried correction stored them: {sheet, tracks, state}."""
    values = as_object(stored)
    return Vitals(
        as_object(values["sheet"]), as_tracks(values["tracks"]), as_object(values["state"])
    )


def vitals_as_json(vitals: Vitals) -> dict[str, JSON]:
    return {"sheet": vitals.sheet, "tracks": dict(vitals.tracks), "state": dict(vitals.state)}


@dataclass(frozen=True)
class Seed:
    """What the correction changes: a step from ``version`` on is worked out again, the
    corrected encounter with ``plan``, days with ``plans`` laid over the calendar."""

    version: int
    encounter_id: str | None = None
    plan: Plan | None = None
    records: list[ActionRecord] | None = None  # a rewind's records, in place of the current
    plans: Mapping[str, DayPlans] = field(default_factory=dict)  # day -> cid -> plan


@dataclass
class EncounterResult:
    initial: dict[str, Combatant]
    replayed: Replay


@dataclass
class Walk:
    roster: dict[str, Entry] = field(default_factory=dict)
    believed: dict[str, Entry] = field(default_factory=dict)
    # The steps whose values changed, as the preview lists them: each says what moved.
    steps: list[dict[str, JSON]] = field(default_factory=list)
    # The steps whose values changed where nothing the preview shows moved (margin's
    # ammunition, a stamina-body stabilised mark at Body 0 or more): not listed, since
    # their row would read "X -> X"; they still count as a change (their values are in
    # step_results, and the commit records them).
    unlisted: int = 0
    # version -> character id -> values: the changed steps, as CorrectionCarried stores them
    step_results: dict[str, dict[str, JSONObject]] = field(default_factory=dict)
    encounters: dict[str, EncounterResult] = field(default_factory=dict)
    actions: list[JSONObject] = field(default_factory=list)
    # The conditions worked out along the walk: each character's once per value they
    # take (domain/play/standing.py), though a step's "after" is the next one's "before".
    known: KnownConditions = field(default_factory=KnownConditions)

    def take(self, step: dict[str, JSON]) -> None:
        """List a step (``diff``) whose values changed, unless nothing it shows moved."""
        if step["before"] == step["after"]:
            self.unlisted += 1
        else:
            self.steps.append(step)


def published_counters(rules: Ruleset, state: Mapping[str, JSON]) -> dict[str, JSON] | None:
    """The counters the ruleset publishes beside the tracks (``Ruleset.counters``: margin's
    fatigue and luck, M6 and M8) as this state holds them, for the preview to show with
    the tracks; None for a ruleset that publishes none (its preview keeps the shape it
    always had). An NPC's counters are its numbers (RULINGS T3, T3a): the redaction
    (application/redaction.py) keeps them from a player's and a viewer's key with the
    rest of its values."""
    if not rules.counters:
        return None
    return {
        name: value
        for name in rules.counters
        if isinstance(value := state.get(name), int) and not isinstance(value, bool)
    }


def diff(
    rules: Ruleset,
    version: int,
    cid: str,
    what: JSONObject,
    before: Entry,
    after: Entry,
    known: KnownConditions | None = None,
) -> dict[str, JSON]:
    """One step as the preview shows it: the character's tracks, conditions and the
    ruleset's counters before and after (``known``: the walk's conditions so far)."""
    known = KnownConditions() if known is None else known

    def shown(entry: Entry) -> dict[str, JSON]:
        sheet = rules.sheet(entry.sheet)
        conditions = known.of(rules, cid, sheet, entry.tracks, entry.state)
        values: dict[str, JSON] = {"tracks": dict(entry.tracks), "conditions": list(conditions)}
        held = published_counters(rules, entry.state)
        if held is not None:
            values["counters"] = held
        return values

    return {
        "version": version,
        **what,
        "character_id": cid,
        "name": after.name,
        "before": shown(before),
        "after": shown(after),
    }
