"""The Campaign aggregate: ruleset and options, roster, calendar and open encounters.

Its events are classes declared here with typed fields, each named (its stored topic is
``domain.campaign:Campaign.<name>``) and with its fields in the order its payloads are
stored, as fe485e1's generated classes were; what a ruleset defines is JSON in them
(domain/records.py). A command is decided in domain/campaign/commands.py (its checks in
domain/campaign/roster.py, domain/campaign/calendar.py), which returns the events to record;
the aggregate records them, and its event methods here apply them. The snapshots' state is
domain/campaign/state.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from eventsourcing.domain import Aggregate, event

from skald_campaign.domain.access import Role
from skald_campaign.domain.campaign import commands, reads
from skald_campaign.domain.campaign import state as campaign_state
from skald_campaign.domain.campaign.calendar import Day, DayPlans
from skald_campaign.domain.campaign.commands import SheetsOf, StateOf, TracksOf
from skald_campaign.domain.campaign.roster import MAX_CHARACTERS, MAX_NAME, check_name
from skald_campaign.domain.campaign.ruleset_versions import (
    UNRECORDED_DISTRIBUTION,
    UNRECORDED_VERSION,
)
from skald_campaign.domain.play.standing import Standing
from skald_campaign.domain.reading.recorded import (
    KeepsReadings,
    noted,
    upcast_not_recorded,
    with_readings,
)
from skald_campaign.domain.records import (
    JSON,
    Character,
    EncounterEntry,
    JSONObject,
    KeyGrant,
    KeyId,
    Sha256Hex,
    Sheet,
    State,
    Tracks,
    UUIDText,
    Vitals,
    replace,
)
from skald_campaign.domain.rulesets.base import Ruleset
from skald_campaign.domain.snapshots import JSONStateSnapshot, RecordLists
from skald_campaign.domain.writing.attribution import upcast_via

__all__ = ["MAX_CHARACTERS", "MAX_NAME", "Campaign", "check_name"]


class Campaign(Aggregate):
    # The state is records; snapshots store it as the JSON of version 1, so every
    # snapshot, old or new, is read through upcast_v1_v2 (domain/campaign/state.py).
    TOPIC = "domain.campaign:Campaign"
    class_version = 2

    class Snapshot(JSONStateSnapshot):
        TOPIC = "domain.campaign:Campaign.Snapshot"
        json_state = campaign_state.JSON_STATE

    def stored_state(
        self, state: Mapping[str, object], lists: RecordLists | None = None
    ) -> dict[str, object]:
        """(``lists`` is the encounter's: a campaign holds no list of records.)"""
        return campaign_state.stored_state(state, self)

    @staticmethod
    def upcast_v1_v2(state: dict[str, object]) -> None:
        campaign_state.upcast_v1_v2(state)

    class Created(Aggregate.Created):
        TOPIC = "domain.campaign:Campaign.Created"
        # Version 2 (issue 38) records the ruleset's distribution and version; a
        # version 1 event reads as the version the built-ins had then (the upcast).
        class_version = 3
        name: str
        ruleset: str
        options: JSONObject
        by: str
        gm_key_id: KeyId
        gm_key_hash: Sha256Hex
        ruleset_distribution: str
        ruleset_version: str

        @staticmethod
        def upcast_v1_v2(state: dict[str, object]) -> None:
            state["ruleset_distribution"] = UNRECORDED_DISTRIBUTION
            state["ruleset_version"] = UNRECORDED_VERSION

        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v2_v3 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(Created)
    def __init__(
        self,
        name: str,
        ruleset: str,
        options: JSONObject,
        by: str,
        gm_key_id: str,
        gm_key_hash: str,
        ruleset_distribution: str,
        ruleset_version: str,
    ) -> None:
        self.keys = {gm_key_id: KeyGrant(gm_key_id, "gm", (), "GM", gm_key_hash)}
        self.gm_key_id = gm_key_id
        self.name = name
        self.ruleset_id = ruleset
        self.ruleset_distribution = ruleset_distribution
        self.ruleset_version = ruleset_version
        self.options: dict[str, JSON] = dict(options)
        self.created_by = by
        self.day = 0
        self.characters: dict[str, Character] = {}
        self.encounters: dict[str, EncounterEntry] = {}
        self.calendar: dict[int, Day] = {}

    # -- its commands: each decided in domain/campaign/commands.py from what it reads of
    # the campaign, then recorded here as the events it names (``campaign.enrol(name,
    # sheet, by)``); what it answers about itself is read in domain/campaign/reads.py

    def _record(self, decisions: Iterable[commands.Decision]) -> list[commands.Decision]:
        """Record each decision as the event of its name, with its fields, in turn: a
        command's later decisions may read what its earlier ones left."""
        recorded = []
        for decision in decisions:
            fields = {f.name: getattr(decision, f.name) for f in dataclasses.fields(decision)}
            self.trigger_event(getattr(type(self), type(decision).__name__), **fields)
            # What the reads need of the rules for each character it touched, worked
            # out as it is recorded (domain/reading/recorded.py), and kept.
            self._note_readings()
            recorded.append(decision)
        return recorded

    def _note_readings(self) -> None:
        """The event just recorded, with its readings (a campaign's with the derived
        ratings and equipment its character view shows), kept for the reads."""
        event = with_readings(
            self.pending_events,
            lambda: self.rules,
            self._held,
            self._standing,
            ratings=True,
            everyone=self.characters,
        )
        noted(self, event)

    @property
    def _standing(self) -> Standing:
        """The characters' conditions, each worked out once per change of their values
        (domain/play/standing.py): the readings an event records reuse them."""
        return Standing(self.characters, self.conditions_of)

    def _held(self, character_id: str) -> Vitals | None:
        c = self.characters.get(character_id)
        return None if c is None else Vitals(c.sheet, c.tracks, c.state)

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
        created = commands.create(name, ruleset_id, option_overrides, by, gm_key_id, gm_key_hash)
        return cls(**{f.name: getattr(created, f.name) for f in dataclasses.fields(created)})

    def issue_key(
        self,
        key_id: str,
        key_hash: str,
        role: str,
        characters: list[str],
        label: str,
        by: str,
    ) -> None:
        self._record([commands.issue_key(self, key_id, key_hash, role, characters, label, by)])

    def revoke_key(self, key_id: str, by: str) -> None:
        self._record([commands.revoke_key(self, key_id, by)])

    def enrol(
        self,
        name: str,
        sheet: JSONObject,
        by: str,
        npc: bool = False,
        player: str | None = None,
    ) -> str:
        enrolled = commands.enrol(self, name, sheet, by, npc, player)
        self._record([enrolled])
        return enrolled.character_id

    def open_encounter(self, encounter_id: str, name: str, character_ids: list[str]) -> None:
        self._record([commands.open_encounter(self, encounter_id, name, character_ids)])

    def join_encounter(self, encounter_id: str, character_id: str, by: str) -> None:
        self._record(commands.join_encounter(self, encounter_id, character_id, by))

    def carry_over(
        self,
        encounter_id: str,
        tracks: commands.TracksOf,
        state: commands.StateOf,
        by: str,
        sheets: commands.SheetsOf | None = None,
    ) -> None:
        self._record(commands.carry_over(self, encounter_id, tracks, state, by, sheets))

    def advance_days(
        self, days: int, default_plan: JSONObject, plans: Mapping[str, JSONObject], by: str
    ) -> None:
        self._record(commands.advance_days(self, days, default_plan, plans, by))

    def heal_through(self, day: int) -> int:
        """The number of heals recorded (domain/campaign/commands.py)."""
        return len(self._record(commands.heal_through(self, day)))

    def heal_before_joining(self, character_ids: list[str]) -> int:
        return len(self._record(commands.heal_before_joining(self, character_ids)))

    def mark_wound(
        self, character_id: str, wound: str, present: bool, reason: str, by: str
    ) -> None:
        self._record([commands.mark_wound(self, character_id, wound, present, reason, by)])

    def amend_sheet(
        self, character_id: str, changes: Mapping[str, JSON], reason: str, by: str
    ) -> None:
        self._record([commands.amend_sheet(self, character_id, changes, reason, by)])

    def adjust_tracks(
        self,
        character_id: str,
        changes: Mapping[str, Mapping[str, int]],
        reason: str,
        by: str,
    ) -> None:
        self._record([commands.adjust_tracks(self, character_id, changes, reason, by)])

    def record_ruleset_version(self) -> None:
        self._record(commands.record_ruleset_version(self))

    def accept_ruleset_version(self, version: str, differing: Sequence[JSON], by: str) -> None:
        self._record([commands.accept_ruleset_version(self, version, differing, by)])

    access_for = reads.access_for
    character = reads.character
    conditions_of = reads.conditions_of
    plans_on = reads.plans_on
    ruleset_standing = reads.ruleset_standing

    @property
    def rules(self) -> Ruleset:
        return reads.rules(self)

    @property
    def open_encounters(self) -> list[str]:
        return reads.open_encounters(self)

    # -- keys ----------------------------------------------------------------------

    class KeyIssued(Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.KeyIssued"
        key_id: KeyId
        key_hash: Sha256Hex
        role: Role
        characters: Sequence[UUIDText]
        label: str
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(KeyIssued)
    def _key_issued(
        self, key_id: str, key_hash: str, role: Role, characters: Sequence[str], label: str, by: str
    ) -> None:
        self.keys[key_id] = KeyGrant(key_id, role, tuple(characters), label, key_hash)

    class KeyRevoked(Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.KeyRevoked"
        key_id: KeyId
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(KeyRevoked)
    def _key_revoked(self, key_id: str, by: str) -> None:
        self.keys[key_id] = replace(self.keys[key_id], revoked=True)

    # -- the roster --------------------------------------------------------------------

    class CharacterEnrolled(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.CharacterEnrolled"
        character_id: UUIDText
        name: str
        sheet: Sheet
        tracks: Tracks
        state: State
        by: str
        # T3, after fe485e1: a stored enrolment without them is a PC with no player named.
        npc: bool = False
        player: str | None = None
        class_version = 3
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(CharacterEnrolled)
    def _enrolled(
        self,
        character_id: str,
        name: str,
        sheet: Sheet,
        tracks: Tracks,
        state: State,
        by: str,
        npc: bool = False,
        player: str | None = None,
    ) -> None:
        # A character's first day to heal is the one after they joined.
        enrolled = Character(
            character_id, name, sheet, tracks, state, by, None, self.day, npc, player
        )
        self.characters[character_id] = enrolled

    # -- encounters --------------------------------------------------------------------

    class EncounterOpened(Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.EncounterOpened"
        encounter_id: UUIDText
        name: str
        character_ids: Sequence[UUIDText]
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(EncounterOpened)
    def _encounter_opened(self, encounter_id: str, name: str, character_ids: Sequence[str]) -> None:
        self.encounters[encounter_id] = EncounterEntry(encounter_id, name)
        for character_id in character_ids:
            self._hold(character_id, encounter_id)

    class CharacterJoined(Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.CharacterJoined"
        encounter_id: UUIDText
        character_id: UUIDText
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(CharacterJoined)
    def _character_joined(self, encounter_id: str, character_id: str, by: str) -> None:
        self._hold(character_id, encounter_id)

    def _hold(self, character_id: str, encounter_id: str) -> None:
        held = replace(self.characters[character_id], in_encounter=encounter_id)
        self.characters[character_id] = held

    class EncounterClosed(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.EncounterClosed"
        encounter_id: UUIDText
        tracks: TracksOf
        state: StateOf
        by: str
        class_version = 3
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

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

    class DayAdvanced(Aggregate.Event):
        """Declared, not generated, so the healing worker can name its topic."""

        TOPIC = "domain.campaign:Campaign.DayAdvanced"

        day: int
        plans: DayPlans
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(DayAdvanced)
    def _day_advanced(self, day: int, plans: DayPlans, by: str) -> None:
        self.day = day
        self.calendar[day] = Day(day, plans)

    class CharacterHealed(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.CharacterHealed"
        character_id: UUIDText
        day: int
        breakdown: JSONObject
        tracks: TracksOf
        state: StateOf
        class_version = 3
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

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

    class WoundMarked(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.WoundMarked"
        character_id: UUIDText
        wound: str
        present: bool
        reason: str
        by: str
        state: StateOf
        class_version = 3
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(WoundMarked)
    def _wound_marked(
        self, character_id: str, wound: str, present: bool, reason: str, by: str, state: StateOf
    ) -> None:
        marked = replace(self.characters[character_id], state=state[character_id])
        self.characters[character_id] = marked

    # -- the GM's changes between fights (domain/play/gm_changes.py) -----------------------

    class SheetAmended(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.SheetAmended"
        character_id: UUIDText
        sheet: Sheet
        reason: str
        by: str
        breakdown: JSONObject
        tracks: TracksOf
        state: StateOf
        sheets: SheetsOf
        class_version = 3
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

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

    class TracksAdjusted(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.TracksAdjusted"
        character_id: UUIDText
        changes: Mapping[str, Mapping[str, int]]
        reason: str
        by: str
        summary: str
        breakdown: JSONObject
        tracks: TracksOf
        # The state after it, when the change set a state counter (margin's fatigue or
        # luck); adjustments of tracks alone, and every older event, carry none.
        state: StateOf | None = None
        class_version = 3
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

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
        state: StateOf | None = None,
    ) -> None:
        adjusted = replace(self.characters[character_id], tracks=tracks[character_id])
        if state is not None:
            adjusted = replace(adjusted, state=state[character_id])
        self.characters[character_id] = adjusted

    # -- corrections carried forward (domain/timeline.py, application/carrying.py) -----

    class CorrectionCarried(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.campaign:Campaign.CorrectionCarried"
        correction: JSONObject
        steps: Mapping[str, Mapping[str, JSONObject]]  # version -> character id -> values
        tracks: TracksOf
        state: StateOf
        sheets: SheetsOf
        plans: Mapping[str, DayPlans]  # day -> character id -> corrected plan
        by: str
        class_version = 3
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

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
        """Record a correction's effect on the roster (application/carrying.py), with what
        the reads need of the rules for each character it touched."""
        self._carry_correction(correction, steps, tracks, state, sheets, plans, by)
        self._note_readings()

    @event(CorrectionCarried)
    def _carry_correction(
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

    # -- the ruleset's version on record (domain/campaign/ruleset_versions.py, issue 38) ----------

    class RulesetVersionRecorded(KeepsReadings, Aggregate.Event):
        """The installed version of the ruleset resolved every recorded action as it was
        recorded: the writer took it on (once, whichever process saw it first)."""

        TOPIC = "domain.campaign:Campaign.RulesetVersionRecorded"
        distribution: str
        version: str
        previous_distribution: str
        previous_version: str
        class_version = 3
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules for every character of the
        # campaign, worked out under the version it takes on as it was recorded (their
        # values are unchanged, the rules they are read under are not); older events,
        # not recorded (the characters keep what their last event recorded).
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        reads_every_character = True  # domain/reading/recorded.py with_readings
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(RulesetVersionRecorded)
    def _ruleset_version_recorded(
        self,
        distribution: str,
        version: str,
        previous_distribution: str,
        previous_version: str,
    ) -> None:
        self.ruleset_distribution = distribution
        self.ruleset_version = version

    class RulesetVersionAccepted(KeepsReadings, Aggregate.Event):
        """The GM accepted the installed version of the ruleset, having seen the recorded
        actions that come out differently under it (``differing``, as they were listed):
        every action and correction from now on resolves under it."""

        TOPIC = "domain.campaign:Campaign.RulesetVersionAccepted"
        distribution: str
        version: str
        previous_distribution: str
        previous_version: str
        differing: Sequence[JSON]
        by: str
        class_version = 3
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules for every character of the
        # campaign, worked out under the version it takes on as it was recorded (their
        # values are unchanged, the rules they are read under are not); older events,
        # not recorded (the characters keep what their last event recorded).
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        reads_every_character = True  # domain/reading/recorded.py with_readings
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(RulesetVersionAccepted)
    def _ruleset_version_accepted(
        self,
        distribution: str,
        version: str,
        previous_distribution: str,
        previous_version: str,
        differing: Sequence[JSON],
        by: str,
    ) -> None:
        self.ruleset_distribution = distribution
        self.ruleset_version = version
