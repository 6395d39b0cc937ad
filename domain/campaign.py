"""The Campaign aggregate: ruleset and options, roster, calendar and open encounters.

Its events are classes declared here with typed fields, each named (its stored topic is
``domain.campaign:Campaign.<name>``) and with its fields in the order its payloads are
stored, as fe485e1's generated classes were; what a ruleset defines is JSON in them
(domain/records.py). A command's checks read the records and say what to record
(domain/roster.py, domain/calendar.py); the snapshots' state is domain/campaign_state.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace as replace_field
from functools import partial
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate, MutableOrImmutableAggregate, event
from eventsourcing.domain import Snapshot as LibrarySnapshot

from domain import campaign_state, roster
from domain.access import Access, Role
from domain.calendar import Day, DayPlans, check_advance, daily_heals
from domain.gm_changes import adjust, amend, amended_sheet
from domain.records import (
    JSON,
    Character,
    EncounterEntry,
    JSONObject,
    KeyGrant,
    Sheet,
    State,
    Tracks,
    Vitals,
    replace,
)
from domain.roster import MAX_CHARACTERS, MAX_NAME, check_name
from domain.rulesets import get_ruleset
from domain.rulesets.base import Ruleset

__all__ = ["MAX_CHARACTERS", "MAX_NAME", "Campaign", "check_name"]

# Per character id, as the events carry them.
TracksOf = Mapping[str, Tracks]
StateOf = Mapping[str, State]
SheetsOf = Mapping[str, Sheet]


class Campaign(Aggregate):
    # The state is records; snapshots store it as the JSON of version 1, so every
    # snapshot, old or new, is read through upcast_v1_v2 (domain/campaign_state.py).
    class_version = 2

    class Snapshot(LibrarySnapshot):
        @classmethod
        def take(cls, aggregate: MutableOrImmutableAggregate[UUID]) -> Campaign.Snapshot:
            if not isinstance(aggregate, Campaign):
                raise TypeError(f"a Campaign.Snapshot is taken of a campaign, not {aggregate!r}")
            taken = super().take(aggregate)
            return replace_field(taken, state=campaign_state.stored_state(taken.state, aggregate))

    @staticmethod
    def upcast_v1_v2(state: dict[str, object]) -> None:
        campaign_state.upcast_v1_v2(state)

    class Created(Aggregate.Created):
        name: str
        ruleset: str
        options: JSONObject
        by: str
        gm_key_id: str
        gm_key_hash: str

    @event(Created)
    def __init__(
        self,
        name: str,
        ruleset: str,
        options: JSONObject,
        by: str,
        gm_key_id: str,
        gm_key_hash: str,
    ) -> None:
        self.keys = {gm_key_id: KeyGrant(gm_key_id, "gm", (), "GM", gm_key_hash)}
        self.gm_key_id = gm_key_id
        self.name = name
        self.ruleset_id = ruleset
        self.options: dict[str, JSON] = dict(options)
        self.created_by = by
        self.day = 0
        self.characters: dict[str, Character] = {}
        self.encounters: dict[str, EncounterEntry] = {}
        self.calendar: dict[int, Day] = {}

    @classmethod
    def create(
        cls,
        name: str,
        ruleset_id: str,
        option_overrides: JSONObject | None,
        by: str,
        gm_key_id: str,
        gm_key_hash: str,
    ) -> Campaign:
        ruleset = get_ruleset(ruleset_id)
        options = ruleset.validate_options(option_overrides)
        name = check_name(name, "campaign name")
        return cls(name, ruleset.id, options, by, gm_key_id, gm_key_hash)

    # -- keys ----------------------------------------------------------------------

    def access_for(self, key_id: str, key_hash: str) -> Access:
        """The access a presented key grants here; hashes are compared in constant time."""
        return roster.access(self.keys, key_id, key_hash)

    def issue_key(
        self, key_id: str, key_hash: str, role: str, characters: list[str], label: str, by: str
    ) -> None:
        granted = roster.check_new_key(self.keys, self.characters, key_id, role, characters, label)
        self._key_issued(key_id, key_hash, *granted, by)

    class KeyIssued(Aggregate.Event):
        key_id: str
        key_hash: str
        role: Role
        characters: Sequence[str]
        label: str
        by: str

    @event(KeyIssued)
    def _key_issued(
        self, key_id: str, key_hash: str, role: Role, characters: Sequence[str], label: str, by: str
    ) -> None:
        self.keys[key_id] = KeyGrant(key_id, role, tuple(characters), label, key_hash)

    def revoke_key(self, key_id: str, by: str) -> None:
        roster.check_revocable(self.keys, key_id)
        self._key_revoked(key_id, by)

    class KeyRevoked(Aggregate.Event):
        key_id: str
        by: str

    @event(KeyRevoked)
    def _key_revoked(self, key_id: str, by: str) -> None:
        self.keys[key_id] = replace(self.keys[key_id], revoked=True)

    # -- the roster --------------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        return get_ruleset(self.ruleset_id).under(self.options)

    def character(self, character_id: str) -> Character:
        return roster.enrolled(self.characters, character_id)

    def conditions_of(self, character_id: str) -> tuple[str, ...]:
        character = self.character(character_id)
        return self.rules.conditions(character.sheet, character.tracks, character.state)

    def enrol(self, name: str, sheet: JSONObject, by: str) -> str:
        rules, character_id = self.rules, str(uuid4())
        valid = roster.check_enrolment(rules, len(self.characters), sheet)
        name = check_name(name, "character name")
        self._enrolled(
            character_id, name, valid, rules.track_maxima(valid), rules.start_state(valid), by
        )
        return character_id

    class CharacterEnrolled(Aggregate.Event):
        character_id: str
        name: str
        sheet: Sheet
        tracks: Tracks
        state: State
        by: str

    @event(CharacterEnrolled)
    def _enrolled(
        self, character_id: str, name: str, sheet: Sheet, tracks: Tracks, state: State, by: str
    ) -> None:
        # A character's first day to heal is the one after they joined.
        enrolled = Character(character_id, name, sheet, tracks, state, by, None, self.day)
        self.characters[character_id] = enrolled

    # -- encounters --------------------------------------------------------------------

    @property
    def open_encounters(self) -> list[str]:
        return [eid for eid, entry in self.encounters.items() if entry.open]

    def open_encounter(self, encounter_id: str, name: str, character_ids: list[str]) -> None:
        for character_id in character_ids:
            roster.refuse_if_held(self.character(character_id))
        self._encounter_opened(encounter_id, name, character_ids)

    class EncounterOpened(Aggregate.Event):
        encounter_id: str
        name: str
        character_ids: Sequence[str]

    @event(EncounterOpened)
    def _encounter_opened(self, encounter_id: str, name: str, character_ids: Sequence[str]) -> None:
        self.encounters[encounter_id] = EncounterEntry(encounter_id, name)
        for character_id in character_ids:
            self._hold(character_id, encounter_id)

    def join_encounter(self, encounter_id: str, character_id: str, by: str) -> None:
        """A character joins an open encounter mid-fight; heal what they are owed first."""
        roster.check_joining(self.open_encounters, encounter_id, self.character(character_id))
        self.heal_before_joining([character_id])
        self._character_joined(encounter_id, character_id, by)

    class CharacterJoined(Aggregate.Event):
        encounter_id: str
        character_id: str
        by: str

    @event(CharacterJoined)
    def _character_joined(self, encounter_id: str, character_id: str, by: str) -> None:
        self._hold(character_id, encounter_id)

    def _hold(self, character_id: str, encounter_id: str) -> None:
        held = replace(self.characters[character_id], in_encounter=encounter_id)
        self.characters[character_id] = held

    def carry_over(
        self,
        encounter_id: str,
        tracks: TracksOf,
        state: StateOf,
        by: str,
        sheets: SheetsOf | None = None,
    ) -> None:
        """Take the encounter's final tracks and lasting state back onto the roster, and the
        sheets amended during it (each as a SheetAmended event, before the closing)."""
        for character_id, sheet in (sheets or {}).items():
            if sheet != self.characters[character_id].sheet:
                self._amend(character_id, sheet, f"amended during encounter {encounter_id}", by)
        lasting = {cid: self.rules.state_after_encounter(values) for cid, values in state.items()}
        self._encounter_closed(encounter_id, tracks, lasting, by)

    class EncounterClosed(Aggregate.Event):
        encounter_id: str
        tracks: TracksOf
        state: StateOf
        by: str

    @event(EncounterClosed)
    def _encounter_closed(
        self, encounter_id: str, tracks: TracksOf, state: StateOf, by: str
    ) -> None:
        self.encounters[encounter_id] = replace(self.encounters[encounter_id], open=False)
        for cid, values in tracks.items():
            closed = replace(
                self.characters[cid], tracks=values, state=state[cid], in_encounter=None
            )
            self.characters[cid] = closed

    # -- the calendar --------------------------------------------------------------

    def plans_on(self, day: int) -> DayPlans:
        """Every character's plan for the day (none before the first day)."""
        found = self.calendar.get(day)
        return {} if found is None else found.plans

    def advance_days(
        self, days: int, default_plan: JSONObject, plans: Mapping[str, JSONObject], by: str
    ) -> None:
        """Move the in-game calendar on by ``days``, each with every character's plan."""
        opened = [self.encounters[eid].name for eid in self.open_encounters]
        day_plans = check_advance(self.rules, opened, days, self.characters, default_plan, plans)
        for _ in range(days):
            self._day_advanced(self.day + 1, day_plans, by)

    class DayAdvanced(Aggregate.Event):
        """Declared, not generated, so the healing worker can name its topic."""

        day: int
        plans: DayPlans
        by: str

    @event(DayAdvanced)
    def _day_advanced(self, day: int, plans: DayPlans, by: str) -> None:
        self.day = day
        self.calendar[day] = Day(day, plans)

    def heal_through(self, day: int) -> int:
        """Apply the daily rules to every day up to ``day`` not yet applied: exactly once,
        because each character remembers the last day it was healed for. A character in
        an open encounter is skipped: the encounter owns their tracks until it ends."""
        free = [cid for cid, c in self.characters.items() if c.in_encounter is None]
        return sum(self._heal_pending(cid, day) for cid in free)

    def heal_before_joining(self, character_ids: list[str]) -> int:
        """Apply every day already advanced to characters about to join an encounter: the
        roster hands an encounter only up-to-date tracks. Days cannot advance while an
        encounter is open, so no heal is owed while one holds them (docs/calendar.md)."""
        return sum(self._heal_pending(cid, self.day) for cid in character_ids)

    def _heal_pending(self, character_id: str, day: int) -> int:
        now = partial(self.character, character_id)  # as the last day's heal left them
        healed = 0
        for d, daily in daily_heals(self.rules, self.calendar, now, min(day, self.day)):
            tracks, state = {character_id: daily.tracks}, {character_id: daily.state}
            self._healed(character_id, d, daily.breakdown, tracks, state)
            healed += 1
        return healed

    class CharacterHealed(Aggregate.Event):
        character_id: str
        day: int
        breakdown: JSONObject
        tracks: TracksOf
        state: StateOf

    @event(CharacterHealed)
    def _healed(
        self, character_id: str, day: int, breakdown: JSONObject, tracks: TracksOf, state: StateOf
    ) -> None:
        self.characters[character_id] = replace(
            self.characters[character_id],
            tracks=tracks[character_id],
            state=state[character_id],
            healed_through=day,
        )

    def mark_wound(
        self, character_id: str, wound: str, present: bool, reason: str, by: str
    ) -> None:
        """Record a wound, its treatment or its end between fights, with who and why."""
        marked = roster.check_wound_mark(self.rules, self.character(character_id), wound, present)
        self._wound_marked(character_id, wound, present, reason, by, {character_id: marked})

    class WoundMarked(Aggregate.Event):
        character_id: str
        wound: str
        present: bool
        reason: str
        by: str
        state: StateOf

    @event(WoundMarked)
    def _wound_marked(
        self, character_id: str, wound: str, present: bool, reason: str, by: str, state: StateOf
    ) -> None:
        marked = replace(self.characters[character_id], state=state[character_id])
        self.characters[character_id] = marked

    # -- the GM's changes between fights (domain/gm_changes.py) -----------------------

    def amend_sheet(
        self, character_id: str, changes: Mapping[str, JSON], reason: str, by: str
    ) -> None:
        character = roster.refuse_if_held(self.character(character_id), "amend the sheet")
        self._amend(character_id, amended_sheet(self.rules, character.sheet, changes), reason, by)

    def _amend(self, character_id: str, sheet: Sheet, reason: str, by: str) -> None:
        character = self.characters[character_id]
        changed = amend(self.rules, character.name, character.vitals, sheet)
        tracks = {character_id: dict(changed.vitals.tracks)}
        state = {character_id: dict(changed.vitals.state)}
        sheets = {character_id: sheet}
        self._sheet_amended(
            character_id, sheet, reason, by, changed.breakdown, tracks, state, sheets
        )

    class SheetAmended(Aggregate.Event):
        character_id: str
        sheet: Sheet
        reason: str
        by: str
        breakdown: JSONObject
        tracks: TracksOf
        state: StateOf
        sheets: SheetsOf

    @event(SheetAmended)
    def _sheet_amended(
        self,
        character_id: str,
        sheet: Sheet,
        reason: str,
        by: str,
        breakdown: JSONObject,
        tracks: TracksOf,
        state: StateOf,
        sheets: SheetsOf,
    ) -> None:
        vitals = Vitals(sheet, tracks[character_id], state[character_id])
        self.characters[character_id] = self.characters[character_id].with_vitals(vitals)

    def adjust_tracks(
        self, character_id: str, changes: Mapping[str, Mapping[str, int]], reason: str, by: str
    ) -> None:
        character = roster.refuse_if_held(self.character(character_id), "adjust the tracks")
        changed = adjust(self.rules, character.name, character.vitals, changes)
        tracks = {character_id: dict(changed.vitals.tracks)}
        summary, breakdown = changed.summary, changed.breakdown
        self._tracks_adjusted(character_id, changes, reason, by, summary, breakdown, tracks)

    class TracksAdjusted(Aggregate.Event):
        character_id: str
        changes: Mapping[str, Mapping[str, int]]
        reason: str
        by: str
        summary: str
        breakdown: JSONObject
        tracks: TracksOf

    @event(TracksAdjusted)
    def _tracks_adjusted(
        self,
        character_id: str,
        changes: Mapping[str, Mapping[str, int]],
        reason: str,
        by: str,
        summary: str,
        breakdown: JSONObject,
        tracks: TracksOf,
    ) -> None:
        adjusted = replace(self.characters[character_id], tracks=tracks[character_id])
        self.characters[character_id] = adjusted

    # -- corrections carried forward (domain/timeline.py, application/carrying.py) -----

    class CorrectionCarried(Aggregate.Event):
        correction: JSONObject
        steps: Mapping[str, Mapping[str, JSONObject]]  # version -> character id -> values
        tracks: TracksOf
        state: StateOf
        sheets: SheetsOf
        plans: Mapping[str, DayPlans]  # day -> character id -> corrected plan
        by: str

    @event(CorrectionCarried)
    def carry_correction(
        self,
        correction: JSONObject,
        steps: Mapping[str, Mapping[str, JSONObject]],
        tracks: TracksOf,
        state: StateOf,
        sheets: SheetsOf,
        plans: Mapping[str, DayPlans],
        by: str,
    ) -> None:
        """Record a correction's effect on the roster: every step it changed (by the
        version of the event that recorded the step) and every character's values now."""
        for cid, values in tracks.items():
            vitals = Vitals(sheets[cid], values, state[cid])
            self.characters[cid] = self.characters[cid].with_vitals(vitals)
        for day, day_plans in plans.items():
            self.calendar[int(day)] = self.calendar[int(day)].with_plans(day_plans)
