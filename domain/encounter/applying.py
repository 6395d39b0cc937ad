"""How each of the Encounter's events changes it: the bodies of its ``@event`` methods.

The events are declared in domain/encounter/aggregate.py (each class named as its stored topic),
which binds each of these to its class (``_ended = event(Ended)(applying.ended)``);
calling the bound method records the event and applies it, and replaying the event
applies it again, as with a method written in the class. What a command works out
before it records an event is in domain/encounter/commands.py. Inside an apply,
``self.version`` is still the version before the event. Each body changes what the
``Applied`` protocol below names, which the aggregate satisfies: this module does not
import the aggregate that imports it (issue 38).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from skald_campaign.domain.encounter.shared_records import SharedRecords
from skald_campaign.domain.play.actions import JOIN, ActionRecord, Effects, actions_from_json
from skald_campaign.domain.play.corrections import ACTIVE
from skald_campaign.domain.play.exchanges import declared, withdrawn
from skald_campaign.domain.play.records import Correction, Exchange, TurnOverride
from skald_campaign.domain.play.table.records import Position
from skald_campaign.domain.reading.breakdowns import target_of
from skald_campaign.domain.reading.recorded import recorded_for
from skald_campaign.domain.records import (
    JSON,
    Combatant,
    JSONObject,
    Sheet,
    State,
    Tracks,
    combatants_from_json,
    replace,
)
from skald_campaign.domain.rulesets.base import Ruleset


class Applied(Protocol):
    """What the Encounter's events change: its state, as its event methods write it."""

    combatants: dict[str, Combatant]
    initial_combatants: dict[str, Combatant]
    actions: SharedRecords[ActionRecord]
    corrections: list[Correction]
    exchanges: list[Exchange]
    overrides: list[TurnOverride]
    last_outcome: dict[str, int]
    ended: bool
    end_reason: str | None
    round: int
    turn: int
    turn_order: list[str]
    ruleset_id: str
    options: JSONObject

    @property
    def version(self) -> int: ...
    @property
    def exchange_list(self) -> list[Exchange]: ...
    def conditions_of(self, combatant_id: str) -> tuple[str, ...]: ...
    @property
    def installed_rules(self) -> Ruleset | None: ...
    def standing_conditions(
        self, combatant_id: str, rules: Ruleset | None
    ) -> tuple[str, ...] | None: ...


# -- actions ---------------------------------------------------------------------------


def action_resolved(
    self: Applied,
    number: int,
    round: int,
    kind: str,
    actor: str | None,
    params: JSONObject,
    rolls: Sequence[JSON],
    summary: str,
    breakdown: JSONObject,
    tracks: Mapping[str, Tracks],
    state: Mapping[str, State],
    conditions_before: Mapping[str, Sequence[str]],
    by: str,
    override: JSONObject | None = None,
    hidden: bool = False,
    readings: Mapping[str, JSONObject] | None = None,
    told: JSONObject | None = None,
) -> None:
    for cid, now in tracks.items():
        self.combatants[cid] = replace(self.combatants[cid], tracks=now)
    for cid, values in state.items():
        self.combatants[cid] = replace(self.combatants[cid], state=values)
    self.last_outcome = {"action": number}
    after = conditions_after(self, conditions_before, readings)
    effects = Effects(tracks=tracks, state=state)
    recorded = ActionRecord.resolved(
        number,
        round,
        kind,
        actor,
        params,
        rolls,
        summary,
        breakdown,
        by,
        self.version + 1,
        effects,
        conditions_before,
        after,
        override,
        hidden,
        told,
    )
    # In place, in O(1): copies of the aggregate share the records, each seeing only
    # its own (domain/encounter/shared_records.py).
    self.actions = self.actions.appended(recorded)


def ended(self: Applied, by: str, reason: str | None = None) -> None:
    self.ended = True
    self.end_reason = reason


# -- rounds, the turn order and the table (domain/play/table/records.py) ---------------------------


def round_started(self: Applied, round: int, by: str) -> None:
    self.round = round
    self.turn = 0  # a new round starts at the top of the turn order


def order_set(self: Applied, order: Sequence[str], summary: str, by: str) -> None:
    self.turn_order = list(order)
    self.turn = 0


def turn_advanced(self: Applied, turn: int, summary: str, by: str) -> None:
    self.turn = turn


def turn_overridden(
    self: Applied, actor: str | None, round: int, refusal: str, reason: str, summary: str, by: str
) -> None:
    before: list[TurnOverride] = getattr(self, "overrides", [])
    self.overrides = [*before, TurnOverride(actor, round, refusal, reason, by)]


def table_recorded(
    self: Applied,
    record: JSONObject,
    summary: str,
    position: JSONObject | None,
    table: JSONObject,
) -> None:
    recorded = replace(ActionRecord.from_json(record), version=self.version + 1)
    self.actions = self.actions.appended(recorded)
    if position is not None:
        move_to(self, Position.from_json(position))


def move_to(self: Applied, position: Position) -> None:
    self.round = position.round
    self.turn_order = list(position.order)
    self.turn = position.turn


# -- exchanges (domain/play/exchanges.py) ----------------------------------------------------


def exchange_opened(self: Applied, exchange: JSONObject, summary: str, by: str) -> None:
    opened = Exchange.from_json(exchange)
    self.exchanges = [*self.exchange_list, opened]
    self.last_outcome = {"exchange": opened.number}


def defense_declared(
    self: Applied, number: int, choice: str, action: int, summary: str, by: str
) -> None:
    update_exchange(self, declared(self.exchange_list[number - 1], choice, by, action))


def exchange_withdrawn(self: Applied, number: int, reason: str, summary: str, by: str) -> None:
    update_exchange(self, withdrawn(self.exchange_list[number - 1], reason, by))


def update_exchange(self: Applied, exchange: Exchange) -> None:
    listed = self.exchange_list
    listed[exchange.number - 1] = exchange
    self.exchanges = listed


# -- corrections and the GM's changes ---------------------------------------------------


def corrected(
    self: Applied,
    correction: JSONObject,
    actions: Sequence[JSON],
    tracks: Mapping[str, Tracks],
    state: Mapping[str, State],
    round: int,
    position: JSONObject | None = None,
    table: JSONObject | None = None,
) -> None:
    self.actions = SharedRecords(actions_from_json(actions))
    for cid, c in self.combatants.items():
        self.combatants[cid] = replace(c, tracks=tracks[cid], state=state[cid])
    for record in self.actions:  # a join the correction struck out: out of the fight
        if record.kind == JOIN and record.status != ACTIVE:
            cid = str(target_of(record.params))
            self.combatants[cid] = replace(self.combatants[cid], present=False)
    self.round = round
    if position is not None:
        move_to(self, Position.from_json(position))
    self.corrections.append(recorded_correction(self, correction))


def recorded_correction(self: Applied, correction: JSONObject) -> Correction:
    return replace(Correction.from_json(correction), version=self.version + 1)


def gm_changed(
    self: Applied,
    record: JSONObject,
    summary: str,
    tracks: Mapping[str, Tracks],
    state: Mapping[str, State],
    sheets: Mapping[str, Sheet],
) -> None:
    recorded = ActionRecord.from_json(record)
    self.combatants.update(recorded.effects.combatants or {})
    self.actions = self.actions.appended(replace(recorded, version=self.version + 1))


def recomputed(
    self: Applied,
    correction: JSONObject,
    initial: Mapping[str, JSON],
    actions: Sequence[JSON],
    combatants: Mapping[str, JSON],
    tracks: Mapping[str, Tracks],
    state: Mapping[str, State],
) -> None:
    self.initial_combatants = combatants_from_json(initial)
    self.actions = SharedRecords(actions_from_json(actions))
    self.combatants = combatants_from_json(combatants)
    self.corrections.append(recorded_correction(self, correction))


def conditions_after(
    self: Applied,
    conditions_before: Mapping[str, Sequence[str]],
    readings: Mapping[str, JSONObject] | None = None,
) -> dict[str, tuple[str, ...]]:
    """Each touched combatant's conditions once the action is applied: as the command
    worked them out when it resolved the action (domain/play/standing.py), not asked of
    the rules again. A stored action replayed reads them from what its event recorded
    (``readings``, domain/reading/recorded.py: no rules code, issue 38), and a combatant
    it changed nothing of (none recorded) reads as before it. An action stored before
    readings were recorded is worked out once each through the ruleset installed; with
    that not installed (the campaign is then read-only), they read as they stood before
    it, so the record says nothing of conditions gained or lost
    (domain/reading/installed.py)."""
    if readings is not None:
        found: dict[str, tuple[str, ...]] = {}
        for cid, before in conditions_before.items():
            kept = recorded_for(readings, cid)
            found[cid] = tuple(before) if kept is None else tuple(kept.conditions)
        return found
    rules = self.installed_rules if conditions_before else None
    found = {}
    for cid, before in conditions_before.items():
        now = self.standing_conditions(cid, rules)
        found[cid] = tuple(before) if now is None else now
    return found
