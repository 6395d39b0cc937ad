"""The Encounter aggregate: combatants, rounds, every action and every correction.

Its events are declared here, each class named as its stored topic
(``domain.encounter:Encounter.ActionResolved``...), and bound to the functions that
apply them (domain/encounter/applying.py). What a command works out before recording
them is in domain/encounter/commands.py (the table's in domain/play/table/), which
yields the events to record; the state's records in domain/play/actions.py and
domain/play/records.py.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from skald_campaign.domain.encounter import applying, commands, telling
from skald_campaign.domain.encounter.shared_records import SharedRecords
from skald_campaign.domain.encounter.state import (
    JSON_STATE,
    copy_sharing,
    read_state,
    write_state,
)
from skald_campaign.domain.errors import NotFound
from skald_campaign.domain.play.actions import ActionRecord
from skald_campaign.domain.play.fight import Fight
from skald_campaign.domain.play.records import Correction, Exchange, TurnOverride
from skald_campaign.domain.play.resolution import build_view, conditions_of
from skald_campaign.domain.play.standing import KnownConditions, Standing, known_for
from skald_campaign.domain.play.table import commands as table_commands
from skald_campaign.domain.play.table import markers
from skald_campaign.domain.play.table.records import Table, table_of
from skald_campaign.domain.play.turns import TurnState
from skald_campaign.domain.reading.recorded import (
    KEPT,
    KeepsReadings,
    noted,
    upcast_not_recorded,
    with_readings,
)
from skald_campaign.domain.reading.told_form import upcast_not_told, upcast_records_not_told
from skald_campaign.domain.records import (
    JSON,
    JSONObject,
    Sheet,
    State,
    Tracks,
    UUIDText,
    Vitals,
    combatants_from_json,
)
from skald_campaign.domain.rulesets import RULESETS, get_ruleset
from skald_campaign.domain.rulesets.base import EncounterView, Ruleset
from skald_campaign.domain.snapshots import JSONStateSnapshot, RecordLists
from skald_campaign.domain.writing.attribution import upcast_via

Answer = TypeVar("Answer")
Args = ParamSpec("Args")


def recording(
    command: Callable[Concatenate[Fight, Args], commands.Command[Answer]],
) -> Callable[Concatenate[Encounter, Args], Answer]:
    """The command as the encounter's method: it records what the command decides."""

    @functools.wraps(command)
    def method(self: Encounter, /, *args: Args.args, **kwargs: Args.kwargs) -> Answer:
        return self._run(command(self, *args, **kwargs))

    return method


class Encounter(Aggregate):
    # The state is records; snapshots store it as the JSON of version 1, so every
    # snapshot, old or new, is read through upcast_v1_v2 (domain/encounter/state.py).
    TOPIC = "domain.encounter:Encounter"

    # Not recorded by Skald (the library defines it on every aggregate); named so its
    # topic is explicit like every other class here.
    class Created(Aggregate.Created):
        TOPIC = "domain.encounter:Encounter.Created"

    class_version = 2

    class Snapshot(JSONStateSnapshot):
        TOPIC = "domain.encounter:Encounter.Snapshot"
        json_state = JSON_STATE

    @staticmethod
    def stored_state(
        state: Mapping[str, object], lists: RecordLists | None = None
    ) -> dict[str, object]:
        return write_state(state, lists)

    @staticmethod
    def upcast_v1_v2(state: dict[str, object]) -> None:
        read_state(state)

    # -- its events: each class's name is its stored topic (domain.encounter:Encounter.X)

    class Started(KeepsReadings, Aggregate.Created):
        TOPIC = "domain.encounter:Encounter.Started"
        campaign_id: UUID
        name: str
        ruleset: str
        options: JSONObject
        combatants: Mapping[UUIDText, JSON]
        by: str
        day: int = 0
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

    class ActionResolved(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.ActionResolved"
        number: int
        round: int
        kind: str
        actor: UUIDText | None
        params: JSONObject
        rolls: Sequence[JSON]
        summary: str
        breakdown: JSONObject
        tracks: Mapping[UUIDText, Tracks]
        state: Mapping[UUIDText, State]
        conditions_before: Mapping[UUIDText, Sequence[str]]
        by: str
        # The GM's override that let this action through (refusal, reason, by): on the
        # record, so a correction replays it as allowed. Older events have none.
        override: JSONObject | None = None
        # T3: rolled hidden by the GM (an NPC's); older events were not.
        hidden: bool = False
        class_version = 4
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        # Issue 38: what its texts ask of the ruleset's narration, worked out as it was
        # recorded (domain/reading/told_form.py); older events, not recorded (None).
        told: JSONObject | None = None
        upcast_v3_v4 = staticmethod(upcast_not_told)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class RoundStarted(Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.RoundStarted"
        round: int
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class OrderSet(Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.OrderSet"
        order: Sequence[UUIDText]
        summary: str
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class TurnAdvanced(Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.TurnAdvanced"
        turn: int
        summary: str
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class TurnOverridden(Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.TurnOverridden"
        actor: UUIDText | None
        round: int
        refusal: str
        reason: str
        summary: str
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class ExchangeOpened(Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.ExchangeOpened"
        exchange: JSONObject
        summary: str
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class DefenseDeclared(Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.DefenseDeclared"
        number: int
        choice: str
        action: int
        summary: str
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class ExchangeWithdrawn(Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.ExchangeWithdrawn"
        number: int
        reason: str
        summary: str
        by: str
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class Ended(Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.Ended"
        by: str
        reason: str | None = None  # why the GM ended it (older events have none)
        class_version = 2
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class Corrected(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.Corrected"
        correction: JSONObject
        actions: Sequence[JSON]
        tracks: Mapping[UUIDText, Tracks]
        state: Mapping[UUIDText, State]
        round: int
        # Where the turn stands after it (a rewind's, a voided turn change's) and what
        # the table's records add up to; corrections recorded before them have neither.
        position: JSONObject | None = None
        table: JSONObject | None = None
        class_version = 4
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        # Issue 38: from version 4, each record it holds carries ``told``, what its
        # texts ask of the ruleset's narration (domain/reading/told_form.py); the records
        # of older events have none (not recorded), which the upcast leaves so.
        upcast_v3_v4 = staticmethod(upcast_records_not_told)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class GMChanged(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.GMChanged"
        record: JSONObject
        summary: str
        tracks: Mapping[UUIDText, Tracks]
        state: Mapping[UUIDText, State]
        sheets: Mapping[UUIDText, Sheet]
        class_version = 4
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        # Issue 38: from version 4, each record it holds carries ``told``, what its
        # texts ask of the ruleset's narration (domain/reading/told_form.py); the records
        # of older events have none (not recorded), which the upcast leaves so.
        upcast_v3_v4 = staticmethod(upcast_records_not_told)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class TableRecorded(Aggregate.Event):
        """Initiative, a turn change or a marker (domain/play/table/records.py): a record among the
        actions, where the turn stands after it, and what the table adds up to."""

        TOPIC = "domain.encounter:Encounter.TableRecorded"

        record: JSONObject
        summary: str
        position: JSONObject | None
        table: JSONObject
        class_version = 3
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: from version 3, its record carries ``told``, what its texts ask of
        # the ruleset's narration (domain/reading/told_form.py); an older event's record
        # has none (not recorded), which the upcast leaves so.
        upcast_v2_v3 = staticmethod(upcast_records_not_told)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    class Recomputed(KeepsReadings, Aggregate.Event):
        TOPIC = "domain.encounter:Encounter.Recomputed"
        correction: JSONObject
        initial: Mapping[UUIDText, JSON]
        actions: Sequence[JSON]
        combatants: Mapping[UUIDText, JSON]
        tracks: Mapping[UUIDText, Tracks]
        state: Mapping[UUIDText, State]
        class_version = 4
        # Issue 40: the client it was written through ("assistant"), or none
        # (domain/writing/attribution.py); older events, through none (the upcast).
        via: str | None = None
        upcast_v1_v2 = staticmethod(upcast_via)
        # Issue 38: what the reads need of the rules, per character it touched, worked
        # out as it was recorded (domain/reading/recorded.py); older events, not recorded.
        readings: Mapping[UUIDText, JSONObject] | None = None
        upcast_v2_v3 = staticmethod(upcast_not_recorded)
        # Issue 38: from version 4, each record it holds carries ``told``, what its
        # texts ask of the ruleset's narration (domain/reading/told_form.py); the records
        # of older events have none (not recorded), which the upcast leaves so.
        upcast_v3_v4 = staticmethod(upcast_records_not_told)
        plain_upcasts = True  # JSON in, JSON out: application/audit_entries.py

    @event(Started)
    def __init__(
        self,
        campaign_id: UUID,
        name: str,
        ruleset: str,
        options: JSONObject,
        combatants: Mapping[str, JSON],
        by: str,
        day: int = 0,
    ) -> None:
        self.campaign_id = campaign_id
        self.day = day
        self.name = name
        self.ruleset_id = ruleset
        self.options = options
        self.initial_combatants = combatants_from_json(combatants)
        self.combatants = dict(self.initial_combatants)
        self.round = 1
        self.actions: SharedRecords[ActionRecord] = SharedRecords()
        self.corrections: list[Correction] = []
        self.ended = False
        self.started_by = by

    if TYPE_CHECKING:
        # Set by the first event that records them (domain/encounter/applying.py), so an
        # encounter recorded before them has none and is read through the properties
        # below. Declared for the type checker only: an annotation in the class body
        # would make the library turn the aggregate into a dataclass.
        turn: int
        turn_order: list[str]
        exchanges: list[Exchange]
        overrides: list[TurnOverride]
        end_reason: str | None
        last_outcome: dict[str, int]

    # Action records and the starting line-up are never changed in place (each copy of
    # the encounter sees only its own first records of the list they share, appended to
    # in place: domain/encounter/shared_records.py; corrections write new records), so
    # copies of an encounter may share them. The aggregate cache copies on every read;
    # copying every record made each action cost more than the one before.
    SHARED = frozenset({"actions", "initial_combatants", "options", KEPT})

    def __deepcopy__(self, memo: dict[int, object]) -> Encounter:
        clone = object.__new__(type(self))
        copy_sharing(self, clone, memo, self.SHARED)
        return clone

    # -- reading it ---------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        return get_ruleset(self.ruleset_id).under(self.options)

    @property
    def known_conditions(self) -> KnownConditions:
        """The combatants' conditions as worked out so far (domain/play/standing.py),
        shared with every copy of this encounter."""
        return known_for(self.id)

    def conditions_of(self, combatant_id: str) -> tuple[str, ...]:
        """The combatant's conditions as they stand: worked out once per change."""
        c = self.combatants[combatant_id]
        return conditions_of(self.rules, self.known_conditions, combatant_id, c)

    @property
    def installed_rules(self) -> Ruleset | None:
        """``rules``, or None when the encounter's ruleset is not installed (its campaign
        is then read without the rules: domain/reading/installed.py)."""
        installed = RULESETS.get(self.ruleset_id)
        return None if installed is None else installed.under(self.options)

    def standing_conditions(
        self, combatant_id: str, rules: Ruleset | None
    ) -> tuple[str, ...] | None:
        """``conditions_of`` under ``rules`` (``installed_rules``, asked once by a caller
        that reads several), or None without them."""
        if rules is None:
            return None
        c = self.combatants[combatant_id]
        return conditions_of(rules, self.known_conditions, combatant_id, c)

    def view(self, turn_overridden: bool = False) -> EncounterView:
        return build_view(
            self.rules,
            self.round,
            self.options,
            self.combatants,
            turn_overridden=turn_overridden,
            known=self.known_conditions,
        )

    def action(self, number: int) -> ActionRecord:
        if not 1 <= number <= len(self.actions):
            raise NotFound(f"encounter '{self.name}' has no action {number}")
        return self.actions[number - 1]

    @property
    def order(self) -> list[str]:
        order: list[str] = getattr(self, "turn_order", [])
        return list(order)

    @property
    def exchange_list(self) -> list[Exchange]:
        listed: list[Exchange] = getattr(self, "exchanges", [])  # none before exchanges
        return list(listed)

    @property
    def turn_index(self) -> int:
        turn: int = getattr(self, "turn", 0)  # encounters recorded before turn order
        return turn

    @property
    def names(self) -> dict[str, str]:
        return {cid: c.name for cid, c in self.combatants.items()}

    def turn_state(self) -> TurnState:
        return TurnState(self.round, tuple(self.order), self.turn_index, self.names)

    @property
    def table(self) -> Table:
        """The standing markers, initiative totals and last skips (domain/play/table/records.py)."""
        return table_of(self.actions)

    @property
    def reason_ended(self) -> str | None:
        reason: str | None = getattr(self, "end_reason", None)  # none before the reason
        return reason

    # -- its commands: each decided in domain/encounter/commands.py (the table's in
    # domain/play/table/) from what it reads of the encounter, which records each decision
    # as the event it names (``encounter.act(kind, actor, params, dice, roller, by)``)

    def _run(self, command: commands.Command[Answer]) -> Answer:
        """Record each decision the command yields, before it goes on; its answer."""
        try:
            decision = next(command)
            while True:
                before = self.actions
                # The event of the decision's name, every field given (trigger_event).
                self.trigger_event(getattr(type(self), type(decision).__name__), **vars(decision))
                self.note_readings()
                self.note_told(own_list=self.actions is not before)
                decision = command.send(None)
        except StopIteration as done:
            answer: Answer = done.value
            return answer

    def note_readings(self) -> None:
        """The event just recorded, with what the reads need of the rules for each
        combatant it touched (domain/reading/recorded.py): their conditions as the
        command worked them out (an action's and a GM change's, as its record holds
        them; domain/play/standing.py), not asked of the rules again."""
        known = Standing(self.combatants, self.conditions_of)
        noted(self, with_readings(self.pending_events, lambda: self.rules, self._held, known))

    def note_told(self, own_list: bool = False) -> None:
        """The event just recorded, with its records' texts as the ruleset tells them
        (domain/encounter/telling.py), asked once here so no read asks again.

        ``own_list``: the event's applier has just made ``self.actions`` anew (a new view of
        the records, applying.py), so no copy of this encounter holds it yet and its last
        record may be replaced in place. Otherwise the records are copied, as copies of
        the encounter may share them (``SHARED``, domain/encounter/shared_records.py)."""
        rules = telling.Rules(get_ruleset(self.ruleset_id), self.rules)
        found = telling.with_told(self.pending_events[-1], self.actions, rules, self.combatants)
        if found is None:
            return
        self.pending_events[-1] = found.event
        if found.records is not None:
            self.actions = SharedRecords(found.records)
        elif found.last is not None:
            self.actions = self.actions.with_last(found.last, just_made=own_list)

    def _held(self, combatant_id: str) -> Vitals | None:
        c = self.combatants.get(combatant_id)
        return None if c is None else Vitals(c.sheet, c.tracks, c.state)

    act = recording(commands.act)
    next_round = recording(commands.next_round)
    set_order = recording(commands.set_order)
    declare = recording(commands.declare)
    withdraw = recording(commands.withdraw)
    end = recording(commands.end)
    void = recording(commands.void)
    reroll = recording(commands.reroll)
    reroll_rolls = commands.reroll_rolls
    rewind = recording(commands.rewind)
    gm_change = recording(commands.gm_change)
    correct_after_end = recording(commands.correct_after_end)
    recompute = recording(commands.recompute)
    roll_initiative = recording(table_commands.roll_initiative)
    seat_joiner = recording(table_commands.seat_joiner)
    next_turn = recording(table_commands.next_turn)
    previous_turn = recording(table_commands.previous_turn)
    delay = recording(table_commands.delay)
    move_in_order = table_commands.move_in_order
    mark = recording(markers.mark)
    unmark = recording(markers.unmark)

    # -- applying its events: each body is in domain/encounter/applying.py, bound to its
    # event class here (calling it records the event; replaying the event applies it)

    _action_resolved = event(ActionResolved)(applying.action_resolved)
    _round_started = event(RoundStarted)(applying.round_started)
    _order_set = event(OrderSet)(applying.order_set)
    _turn_advanced = event(TurnAdvanced)(applying.turn_advanced)
    _turn_overridden = event(TurnOverridden)(applying.turn_overridden)
    _exchange_opened = event(ExchangeOpened)(applying.exchange_opened)
    _defense_declared = event(DefenseDeclared)(applying.defense_declared)
    _exchange_withdrawn = event(ExchangeWithdrawn)(applying.exchange_withdrawn)
    _ended = event(Ended)(applying.ended)
    _record_table = event(TableRecorded)(applying.table_recorded)
    _corrected = event(Corrected)(applying.corrected)
    _gm_changed = event(GMChanged)(applying.gm_changed)
    _recomputed = event(Recomputed)(applying.recomputed)


if TYPE_CHECKING:

    def _changed_by_its_events(e: Encounter) -> applying.Applied:
        """The type checker's proof that the events' bodies may change the aggregate."""
        return e
