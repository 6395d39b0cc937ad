"""A campaign is a timeline: carrying a correction forward through every later step.

The campaign's own events, in order, are the steps that change characters:
enrolments, heals, wounds, amendments, adjustments and encounters (from their
opening, or a character's joining, to their closing). A correction changes one
step (an encounter's actions, or the plan of a day already healed); this walk
then takes every later step again, in order, from what it recorded: each heal
from its day's plan, each wound, amendment and adjustment from its parameters,
each encounter from its starting line-up (taken from the roster as it now
stands) with its actions re-resolved on their recorded dice (domain/corrections.py).

Two rosters walk side by side: the one believed until now (what the events and
earlier carried corrections said) and the one the correction gives. A step
whose characters are the same in both keeps its believed result without being
worked out again, so a correction only costs the steps it reaches. Nothing is
written here: the result is a preview that the application commits.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.calendar import Day
from domain.corrections import Plan, Replay, replay, resolve_all
from domain.dice import Roller
from domain.events import (
    CampaignCreated,
    CharacterEnrolled,
    CharacterHealed,
    CharacterJoined,
    CorrectionCarried,
    DayAdvanced,
    EncounterClosed,
    EncounterOpened,
    EventHandlers,
    KeyIssued,
    KeyRevoked,
    SheetAmended,
    TracksAdjusted,
    WoundMarked,
    of_class,
)
from domain.gm_changes import JOIN, adjust, amend
from domain.records import Combatant, Vitals
from domain.rulesets.base import Ruleset

Entry = dict[str, Any]  # a character as the roster holds it: name, sheet, tracks, state


@dataclass(frozen=True)
class Seed:
    """What the correction changes: a step from ``version`` on is worked out again, the
    corrected encounter with ``plan``, days with ``plans`` laid over the calendar."""

    version: int
    encounter_id: str | None = None
    plan: Plan | None = None
    records: list[dict[str, Any]] | None = None  # a rewind's records, in place of the current
    plans: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # day -> cid -> plan


@dataclass
class EncounterResult:
    initial: dict[str, Combatant]
    replayed: Replay


@dataclass
class Walk:
    roster: dict[str, Entry] = field(default_factory=dict)
    believed: dict[str, Entry] = field(default_factory=dict)
    steps: list[dict[str, Any]] = field(default_factory=list)
    step_results: dict[str, dict[str, Entry]] = field(default_factory=dict)
    encounters: dict[str, EncounterResult] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)


def carried_overrides(events: Iterable[Any]) -> dict[int, dict[str, Entry]]:
    """What earlier carried corrections said each step's result is now (latest wins)."""
    found: dict[int, dict[str, Entry]] = {}
    for event in of_class(events, CorrectionCarried):
        for version, results in event.steps.items():
            found.setdefault(int(version), {}).update(results)
    return found


def walk(
    rules: Ruleset,
    options: Mapping[str, Any],
    events: list[Any],
    calendar: Mapping[int, Day],
    encounters: Mapping[str, Any],
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
    options: Mapping[str, Any]
    calendar: Mapping[int, Day]
    encounters: Mapping[str, Any]
    seed: Seed
    roller: Roller
    overrides: dict[int, dict[str, Entry]]
    state: Walk = field(default_factory=Walk)
    opened: dict[str, dict[str, Entry]] = field(default_factory=dict)
    joined: dict[str, dict[str, Entry]] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)

    def believed_after(self, version: int, cid: str, recorded: Entry) -> Entry:
        return {**recorded, **self.overrides.get(version, {}).get(cid, {})}

    def step(
        self,
        version: int,
        cid: str,
        what: dict[str, Any],
        recorded: Entry,
        work: Callable[[Entry], Entry],
        forced: bool = False,
    ) -> None:
        state = self.state
        before = state.roster[cid]
        believed = self.believed_after(version, cid, recorded)
        same_inputs = _same(before, state.believed[cid])
        after = believed if same_inputs and not forced else work(before)
        state.believed[cid] = believed
        state.roster[cid] = after
        if not _same(after, believed):
            state.step_results.setdefault(str(version), {})[cid] = _result(after)
            state.steps.append(_diff(self.rules, version, cid, what, believed, after))


# How one event of the campaign is taken again: (the walk, the event, its version).
Step = Callable[[Walker, Any, int], None]
STEPS = EventHandlers[Step]("the campaign's timeline")


@STEPS.register(CharacterEnrolled)
def _enrolled(w: Walker, event: Any, _: int) -> None:
    entry = {
        "name": event.name,
        "sheet": event.sheet,
        "tracks": dict(event.tracks),
        "state": dict(event.state),
    }
    w.state.roster[event.character_id] = copy.deepcopy(entry)
    w.state.believed[event.character_id] = copy.deepcopy(entry)


@STEPS.register(CharacterHealed)
def _healed(w: Walker, event: Any, version: int) -> None:
    rules, plan_model, seed = w.rules, w.rules.day_plan_model, w.seed
    if plan_model is None:
        return
    cid, day = event.character_id, event.day
    day_plan = seed.plans.get(str(day), {}).get(cid, w.calendar[day].plans[cid])
    forced = version >= seed.version and cid in seed.plans.get(str(day), {})

    def heal(entry: Entry) -> Entry:
        daily = rules.daily(
            entry["sheet"],
            entry["tracks"],
            entry["state"],
            plan_model.model_validate(day_plan),
        )
        return {**entry, "tracks": daily.tracks, "state": daily.state}

    recorded = {"tracks": event.tracks[cid], "state": event.state[cid]}
    what = {"kind": "heal", "day": day}
    w.step(version, cid, what, {**w.state.believed[cid], **recorded}, heal, forced)


@STEPS.register(WoundMarked)
def _wound_marked(w: Walker, event: Any, version: int) -> None:
    cid = event.character_id

    def wound(entry: Entry, flag: str = event.wound, present: bool = event.present) -> Entry:
        return {**entry, "state": {**entry["state"], flag: present}}

    recorded = {**w.state.believed[cid], "state": event.state[cid]}
    w.step(version, cid, {"kind": "wound", "wound": event.wound}, recorded, wound)


@STEPS.register(SheetAmended)
def _sheet_amended(w: Walker, event: Any, version: int) -> None:
    cid, rules = event.character_id, w.rules

    def amended(entry: Entry, sheet: dict[str, Any] = event.sheet) -> Entry:
        changed = amend(rules, entry["name"], _vitals(entry), sheet)
        return {**entry, **_values(changed.vitals)}

    recorded = {
        **w.state.believed[cid],
        "sheet": event.sheet,
        "tracks": event.tracks[cid],
        "state": event.state[cid],
    }
    w.step(version, cid, {"kind": "amendment", "reason": event.reason}, recorded, amended)


@STEPS.register(TracksAdjusted)
def _tracks_adjusted(w: Walker, event: Any, version: int) -> None:
    cid, rules = event.character_id, w.rules

    def adjusted(entry: Entry, changes: Any = event.changes) -> Entry:
        changed = adjust(rules, entry["name"], _vitals(entry), changes)
        return {**entry, **_values(changed.vitals)}

    recorded = {**w.state.believed[cid], "tracks": event.tracks[cid]}
    w.step(version, cid, {"kind": "adjustment", "reason": event.reason}, recorded, adjusted)


@STEPS.register(EncounterOpened)
def _encounter_opened(w: Walker, event: Any, _: int) -> None:
    w.opened[event.encounter_id] = {
        cid: copy.deepcopy(w.state.roster[cid]) for cid in event.character_ids
    }


@STEPS.register(CharacterJoined)
def _character_joined(w: Walker, event: Any, _: int) -> None:
    w.joined.setdefault(event.encounter_id, {})[event.character_id] = copy.deepcopy(
        w.state.roster[event.character_id]
    )


@STEPS.register(EncounterClosed)
def _encounter_closed(w: Walker, event: Any, version: int) -> None:
    w.closed.add(event.encounter_id)
    _close(w, event.encounter_id, version)


# Not steps: they change no character's sheet, tracks or state (a carried correction's
# results are read beforehand, by carried_overrides).
STEPS.ignore([CampaignCreated, KeyIssued, KeyRevoked, DayAdvanced, CorrectionCarried])


def _close(w: Walker, eid: str, version: int | None) -> None:
    """Work an encounter out again if its line-up changed or it is the corrected one; its
    final tracks (and sheets) go to the roster when it has closed."""
    rules, state, seed, opened, joined = w.rules, w.state, w.seed, w.opened, w.joined
    encounter = w.encounters[eid]
    initial = {
        cid: c.with_vitals(_vitals(opened[eid][cid])) if cid in opened[eid] else c
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
        after = {
            **state.roster[cid],
            **_values(combatant),
            "state": rules.state_after_encounter(combatant.state),
        }
        before = {
            **state.believed[cid],
            **_values(believed),
            "state": rules.state_after_encounter(believed.state),
        }
        state.roster[cid], state.believed[cid] = after, before
        if not _same(after, before):
            what = {"kind": "encounter", "encounter_id": eid, "encounter": encounter.name}
            state.steps.append(_diff(rules, version, cid, what, before, after))


def _rejoined(record: dict[str, Any], joiners: Mapping[str, Entry]) -> dict[str, Any]:
    """A join record with the joiner as the roster now has them at the joining."""
    target = record["params"].get("target")
    if record["kind"] != JOIN or target not in joiners:
        return record
    combatant = {**record["params"]["combatant"], **_values(_vitals(joiners[target]))}
    if combatant == record["params"]["combatant"]:
        return record
    return {**record, "params": {**record["params"], "combatant": combatant}}


def _vitals(entry: Mapping[str, Any]) -> Vitals:
    return Vitals(entry["sheet"], entry["tracks"], entry["state"])


def _values(of: Vitals | Combatant) -> Entry:
    return {"sheet": of.sheet, "tracks": dict(of.tracks), "state": dict(of.state)}


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return _values(_vitals(a)) == _values(_vitals(b))


def _result(entry: Mapping[str, Any]) -> Entry:
    return _values(_vitals(entry))


def _diff(
    rules: Ruleset,
    version: int,
    cid: str,
    what: dict[str, Any],
    before: Mapping[str, Any],
    after: Mapping[str, Any],
) -> dict[str, Any]:
    def shown(entry: Mapping[str, Any]) -> dict[str, Any]:
        conditions = rules.conditions(entry["sheet"], entry["tracks"], entry["state"])
        return {"tracks": dict(entry["tracks"]), "conditions": list(conditions)}

    return {
        "version": version,
        **what,
        "character_id": cid,
        "name": after.get("name", before.get("name")),
        "before": shown(before),
        "after": shown(after),
    }
