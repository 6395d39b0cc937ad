"""A campaign is a timeline: carrying a correction forward through every later step.

The campaign's own events, in order, are the steps that change characters:
enrolments, heals, wounds, amendments, adjustments and encounters (from their
opening, or a character's joining, to their closing). A correction changes one
step (an encounter's actions, or the plan of a day already healed); this walk
then takes every later step again, in order, from what it recorded: each heal
from its day's plan, each wound, amendment and adjustment from its parameters,
each encounter from its starting line-up (taken from the roster as it now
stands) with its actions re-resolved on their recorded dice (domain/play/corrections.py).

Two rosters walk side by side: the one believed until now (what the events and
earlier carried corrections said) and the one the correction gives. A step
whose characters are the same in both keeps its believed result without being
worked out again, so a correction only costs the steps it reaches. Nothing is
written here: the result is a preview that the application commits. What the
walk holds and gives back (roster entries, the seed, the result) is domain/walk.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar, cast
from uuid import UUID

from eventsourcing.domain import Aggregate, DomainEventProtocol

from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.campaign.calendar import Day
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.events import (
    CampaignCreated,
    CorrectionCarried,
    DayAdvanced,
    EventHandlers,
    KeyIssued,
    KeyRevoked,
    RulesetVersionAccepted,
    RulesetVersionRecorded,
)
from skald_campaign.domain.play.actions import ActionRecord
from skald_campaign.domain.play.corrections import replay, resolve_all
from skald_campaign.domain.play.dice import Roller
from skald_campaign.domain.play.gm_changes import JOIN, GMParams, adjust, amend
from skald_campaign.domain.records import JSONObject, Vitals, as_object, replace
from skald_campaign.domain.rulesets.base import Ruleset
from skald_campaign.domain.walk import (
    EncounterResult,
    Entry,
    Seed,
    Walk,
    diff,
    events_of,
    vitals_as_json,
    vitals_from_json,
)

__all__ = ["STEPS", "Seed", "Walk", "carried_overrides", "walk"]


def carried_overrides(events: Iterable[object]) -> dict[int, dict[str, Vitals]]:
    """What earlier carried corrections said each step's result is now (latest wins)."""
    found: dict[int, dict[str, Vitals]] = {}
    for event in events_of(events, Campaign.CorrectionCarried):
        for version, results in event.steps.items():
            step = found.setdefault(int(version), {})
            step.update((cid, vitals_from_json(values)) for cid, values in results.items())
    return found


def walk(
    rules: Ruleset,
    options: JSONObject,
    events: Sequence[DomainEventProtocol[UUID]],
    calendar: Mapping[int, Day],
    encounters: Mapping[str, Encounter],
    seed: Seed,
    roller: Roller,
) -> Walk:
    """Walk the campaign's events, believed and corrected side by side (see the module)."""
    walker = Walker(rules, options, calendar, encounters, seed, roller, carried_overrides(events))
    for event in events:
        take = STEPS(type(event))
        if take is not None:
            take(walker, event, event.originator_version)
    for eid in walker.opened:
        if eid not in walker.closed:
            _close(walker, eid, None)
    return walker.state


@dataclass
class Walker:
    """The walk as it goes: both rosters, and the encounters seen opening, joined, closed."""

    rules: Ruleset
    options: JSONObject
    calendar: Mapping[int, Day]
    encounters: Mapping[str, Encounter]
    seed: Seed
    roller: Roller
    overrides: dict[int, dict[str, Vitals]]
    state: Walk = field(default_factory=Walk)
    opened: dict[str, dict[str, Entry]] = field(default_factory=dict)
    joined: dict[str, dict[str, Entry]] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)

    def believed_after(self, version: int, cid: str, recorded: Entry) -> Entry:
        override = self.overrides.get(version, {}).get(cid)
        return recorded if override is None else recorded.with_vitals(override)

    def step(
        self,
        version: int,
        cid: str,
        what: JSONObject,
        recorded: Entry,
        work: Callable[[Entry], Entry],
        forced: bool = False,
    ) -> None:
        state = self.state
        before = state.roster[cid]
        believed = self.believed_after(version, cid, recorded)
        same_inputs = before.vitals == state.believed[cid].vitals
        after = believed if same_inputs and not forced else work(before)
        state.believed[cid] = believed
        state.roster[cid] = after
        if after.vitals != believed.vitals:
            state.step_results.setdefault(str(version), {})[cid] = vitals_as_json(after.vitals)
            state.take(diff(self.rules, version, cid, what, believed, after, state.known))


# How one event of the campaign is taken again: (the walk, the event, its version).
Step = Callable[[Walker, object, int], None]
STEPS = EventHandlers[Step]("the campaign's timeline")
E = TypeVar("E", bound=Aggregate.Event)


def step(cls: type[E]) -> Callable[[Callable[[Walker, E, int], None]], Step]:
    """Register a step for the events of ``cls``: it is called with events of exactly
    that class (EventHandlers looks a handler up by the event's own class)."""

    def add(handler: Callable[[Walker, E, int], None]) -> Step:
        return STEPS.register(cls)(cast(Step, handler))

    return add


@step(Campaign.CharacterEnrolled)
def _enrolled(w: Walker, event: Campaign.CharacterEnrolled, _: int) -> None:
    entry = Entry(event.name, event.sheet, dict(event.tracks), dict(event.state))
    w.state.roster[event.character_id] = entry
    w.state.believed[event.character_id] = entry


@step(Campaign.CharacterHealed)
def _healed(w: Walker, event: Campaign.CharacterHealed, version: int) -> None:
    rules, plan_model, seed = w.rules, w.rules.day_plan_model, w.seed
    if plan_model is None:
        return
    cid, day = event.character_id, event.day
    corrected = seed.plans.get(str(day), {})
    day_plan = corrected.get(cid, w.calendar[day].plans[cid])
    forced = version >= seed.version and cid in corrected

    def heal(entry: Entry) -> Entry:
        plan = plan_model.model_validate(day_plan)
        daily = rules.daily(entry.sheet, entry.tracks, entry.state, plan)
        return Entry(entry.name, entry.sheet, daily.tracks, daily.state)

    believed = w.state.believed[cid]
    recorded = Entry(believed.name, believed.sheet, event.tracks[cid], event.state[cid])
    w.step(version, cid, {"kind": "heal", "day": day}, recorded, heal, forced)


@step(Campaign.WoundMarked)
def _wound_marked(w: Walker, event: Campaign.WoundMarked, version: int) -> None:
    cid, flag, present = event.character_id, event.wound, event.present

    def wound(entry: Entry) -> Entry:
        return Entry(entry.name, entry.sheet, entry.tracks, {**entry.state, flag: present})

    believed = w.state.believed[cid]
    recorded = Entry(believed.name, believed.sheet, believed.tracks, event.state[cid])
    w.step(version, cid, {"kind": "wound", "wound": event.wound}, recorded, wound)


@step(Campaign.SheetAmended)
def _sheet_amended(w: Walker, event: Campaign.SheetAmended, version: int) -> None:
    cid, rules, sheet = event.character_id, w.rules, event.sheet

    def amended(entry: Entry) -> Entry:
        return entry.with_vitals(amend(rules, entry.name, entry.vitals, sheet).vitals)

    recorded = Entry(w.state.believed[cid].name, sheet, event.tracks[cid], event.state[cid])
    w.step(version, cid, {"kind": "amendment", "reason": event.reason}, recorded, amended)


@step(Campaign.TracksAdjusted)
def _tracks_adjusted(w: Walker, event: Campaign.TracksAdjusted, version: int) -> None:
    cid, rules, changes = event.character_id, w.rules, event.changes

    def adjusted(entry: Entry) -> Entry:
        return entry.with_vitals(adjust(rules, entry.name, entry.vitals, changes).vitals)

    believed = w.state.believed[cid]
    state = believed.state if event.state is None else event.state[cid]
    recorded = Entry(believed.name, believed.sheet, event.tracks[cid], state)
    w.step(version, cid, {"kind": "adjustment", "reason": event.reason}, recorded, adjusted)


@step(Campaign.EncounterOpened)
def _encounter_opened(w: Walker, event: Campaign.EncounterOpened, _: int) -> None:
    w.opened[event.encounter_id] = {cid: w.state.roster[cid] for cid in event.character_ids}


@step(Campaign.CharacterJoined)
def _character_joined(w: Walker, event: Campaign.CharacterJoined, _: int) -> None:
    joiners = w.joined.setdefault(event.encounter_id, {})
    joiners[event.character_id] = w.state.roster[event.character_id]


@step(Campaign.EncounterClosed)
def _encounter_closed(w: Walker, event: Campaign.EncounterClosed, version: int) -> None:
    w.closed.add(event.encounter_id)
    _close(w, event.encounter_id, version)


# Not steps: they change no character's sheet, tracks or state (a carried correction's
# results are read beforehand, by carried_overrides; the ruleset's version changes what
# the steps are worked out under, from then on, not a step).
STEPS.ignore(
    [
        CampaignCreated,
        KeyIssued,
        KeyRevoked,
        DayAdvanced,
        CorrectionCarried,
        RulesetVersionRecorded,
        RulesetVersionAccepted,
    ]
)


def _close(w: Walker, eid: str, version: int | None) -> None:
    """Work an encounter out again if its line-up changed or it is the corrected one; its
    final tracks (and sheets) go to the roster when it has closed."""
    rules, state, seed, opened, joined = w.rules, w.state, w.seed, w.opened, w.joined
    encounter = w.encounters[eid]
    initial = {
        cid: c.with_vitals(opened[eid][cid].vitals) if cid in opened[eid] else c
        for cid, c in encounter.initial_combatants.items()
    }
    records = seed.records if eid == seed.encounter_id and seed.records else encounter.actions
    records = [_rejoined(record, joined.get(eid, {})) for record in records]
    corrected = eid == seed.encounter_id
    if corrected or initial != encounter.initial_combatants or records != encounter.actions:
        plan = seed.plan if corrected and seed.plan is not None else resolve_all
        result = replay(rules, w.options, initial, records, plan, w.roller)
        state.encounters[eid] = EncounterResult(initial, result)
        state.actions.extend(
            {**entry, "encounter_id": eid, "encounter": encounter.name} for entry in result.changed
        )
        final = result.combatants
    else:
        final = encounter.combatants
    if version is None:
        return
    for cid, combatant in final.items():
        believed = encounter.combatants[cid]
        lasting = rules.state_after_encounter
        after = state.roster[cid].with_vitals(
            Vitals(combatant.sheet, dict(combatant.tracks), lasting(combatant.state))
        )
        before = state.believed[cid].with_vitals(
            Vitals(believed.sheet, dict(believed.tracks), lasting(believed.state))
        )
        state.roster[cid], state.believed[cid] = after, before
        if after.vitals != before.vitals:
            what: JSONObject = {
                "kind": "encounter",
                "encounter_id": eid,
                "encounter": encounter.name,
            }
            state.take(diff(rules, version, cid, what, before, after, state.known))


def _rejoined(record: ActionRecord, joiners: Mapping[str, Entry]) -> ActionRecord:
    """A join record with the joiner as the roster now has them at the joining."""
    target = record.params.get("target")
    if record.kind != JOIN or not isinstance(target, str) or target not in joiners:
        return record
    joined = as_object(GMParams.from_json(record.params).combatant)
    combatant = {**joined, **vitals_as_json(joiners[target].vitals)}
    if combatant == joined:
        return record
    return replace(record, params={**record.params, "combatant": combatant})
