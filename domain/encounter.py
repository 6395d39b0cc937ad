"""The Encounter aggregate: combatants, rounds, every action and every correction."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event
from eventsourcing.domain import Snapshot as LibrarySnapshot

from domain import exchanges, turns
from domain.access import Access, Forbidden
from domain.corrections import (
    ACTIVE,
    VOID,
    Plan,
    Reroll,
    correction_plan,
    gm_effects,
    replay,
    rewind_plan,
)
from domain.dice import Roller, seeded_roller
from domain.errors import ActionRefused, InvalidInput, NotFound
from domain.exchanges import open_or_resolve
from domain.gm_calls import refuse_gm_calls
from domain.gm_changes import AMEND, GM_KINDS, JOIN, amended_sheet, apply_gm_record
from domain.records import (
    JSON,
    Combatant,
    Sheet,
    as_object,
    combatants_as_json,
    combatants_from_json,
    replace,
)
from domain.resolution import Resolved, build_view
from domain.roll_preview import technical_dice
from domain.rulesets import get_ruleset
from domain.rulesets.base import EncounterView, Ruleset

# Values a copy of an encounter may share with the original: they cannot change in place.
IMMUTABLE = frozenset({UUID, datetime, str, int, float, bool, type(None)})


class Encounter(Aggregate):
    # The state is records (domain/records.py); snapshots store it as the JSON of
    # version 1, so every snapshot, old or new, is read through upcast_v1_v2.
    class_version = 2

    class Snapshot(LibrarySnapshot):
        @classmethod
        def take(cls, aggregate: Any) -> Encounter.Snapshot:
            taken = super().take(aggregate)
            return cls(
                originator_id=taken.originator_id,
                originator_version=taken.originator_version,
                timestamp=taken.timestamp,
                topic=taken.topic,
                state=Encounter.stored_state(taken.state),
            )

    @staticmethod
    def stored_state(state: dict[str, Any]) -> dict[str, Any]:
        """The state as version 1 stored it: JSON, records written out."""
        stored = {k: v for k, v in state.items() if k != "class_version"}
        for key in ("combatants", "initial_combatants"):
            stored[key] = combatants_as_json(state[key])
        return stored

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        for key in ("combatants", "initial_combatants"):
            state[key] = combatants_from_json(state[key])

    @event("Started")
    def __init__(
        self,
        campaign_id: UUID,
        name: str,
        ruleset: str,
        options: dict[str, Any],
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
        self.actions: list[dict[str, Any]] = []
        self.corrections: list[dict[str, Any]] = []
        self.ended = False
        self.started_by = by

    # Action records and the starting line-up are never changed in place (actions are
    # appended by copying the list, corrections write new records), so copies of an
    # encounter may share them. The aggregate cache copies on every read; copying
    # every record made each action cost more than the one before.
    SHARED = frozenset({"actions", "initial_combatants", "options"})

    def __deepcopy__(self, memo: dict[int, Any]) -> Encounter:
        clone = object.__new__(type(self))
        memo[id(self)] = clone
        for key, value in self.__dict__.items():
            if key == "_pending_events":
                # A copy is read, never saved: the events still to save stay with the
                # original. (The writer copies each command's result mid-batch, when an
                # encounter may hold every event of the batch so far: copying them made
                # a batch cost the square of its length.)
                clone.__dict__[key] = []
            elif key in self.SHARED or type(value) in IMMUTABLE:
                clone.__dict__[key] = value  # ids and dates: copying a UUID or datetime
            else:  # goes through pickling's slow path, for nothing
                clone.__dict__[key] = copy.deepcopy(value, memo)
        return clone

    @property
    def rules(self) -> Ruleset:
        return get_ruleset(self.ruleset_id).under(self.options)

    def conditions_of(self, combatant_id: str) -> tuple[str, ...]:
        c = self.combatants[combatant_id]
        return self.rules.conditions(c.sheet, c.tracks, c.state)

    def view(self, turn_overridden: bool = False) -> EncounterView:
        return build_view(
            self.rules,
            self.round,
            self.options,
            self.combatants,
            turn_overridden=turn_overridden,
        )

    def action(self, number: int) -> dict[str, Any]:
        if not 1 <= number <= len(self.actions):
            raise NotFound(f"encounter '{self.name}' has no action {number}")
        return self.actions[number - 1]

    def _refuse_if_ended(self) -> None:
        if self.ended:
            raise ActionRefused(f"encounter '{self.name}' has ended; start a new one")

    # -- actions -----------------------------------------------------------------

    def act(
        self,
        kind: str,
        actor: str | None,
        params: Mapping[str, Any],
        dice: Mapping[str, list[int]] | None,
        roller: Roller | None,
        by: str,
        *,
        role: str = "gm",
        override_reason: str | None = None,
    ) -> dict[str, Any]:
        """Resolve an action, rolling whatever the caller did not supply, and record it.

        An attack whose defender has a choice to declare is recorded as a pending
        exchange instead (see :mod:`domain.exchanges`); the return value says which.
        """
        self._refuse_if_ended()
        action_type = self.rules.action_type(kind)
        if role != "gm" and action_type.gm_only:
            raise Forbidden(f"only the GM may use '{kind}', a GM's tool; this is a {role} key")
        refuse_gm_calls(action_type.params, kind, params, role)
        overridden = self._turn_check(actor, action_type.gm_only, override_reason, role)
        # The ruleset's own once-a-round rule (margin's M5) yields to the GM's override.
        view = self.view(turn_overridden=overridden is not None)
        dice, aliases = technical_dice(self.rules, view, kind, actor, params, dice)
        opening = open_or_resolve(self.rules, view, kind, actor, params, dice, roller, aliases)
        override = None
        if overridden is not None:
            override = {"refusal": overridden[0], "reason": overridden[1], "by": by}
            self._turn_overridden(
                actor=actor,
                round=self.round,
                refusal=overridden[0],
                reason=overridden[1],
                summary=f"GM override: {overridden[0]}; reason: {overridden[1]}",
                by=by,
            )
        if opening.exchange is not None:
            number = len(self.exchange_list) + 1
            # The exchange keeps the override for the action record it becomes.
            marks = {"number": number, "round": self.round, "by": by}
            if override is not None:
                marks["override"] = override
            self._exchange_opened(
                exchange={**opening.exchange, **marks},
                summary=f"exchange {number}: {opening.exchange['summary']}",
                by=by,
            )
            return self.exchange_list[-1]
        assert opening.resolved is not None
        return self._record(kind, actor, opening.resolved, self.round, by, override)

    def _record(
        self,
        kind: str,
        actor: str | None,
        resolved: Resolved,
        round: int,
        by: str,
        override: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        self._action_resolved(
            number=len(self.actions) + 1,
            round=round,
            kind=kind,
            actor=actor,
            params=resolved.params,
            rolls=resolved.rolls,
            summary=resolved.outcome.summary,
            breakdown=resolved.outcome.breakdown,
            tracks=resolved.outcome.tracks,
            state=resolved.outcome.state,
            conditions_before=resolved.conditions_before,
            by=by,
            override=override,
        )
        return self.actions[-1]

    # Inside an event's apply, self.version is still the previous version.

    @event("ActionResolved")
    def _action_resolved(
        self,
        number: int,
        round: int,
        kind: str,
        actor: str | None,
        params: dict[str, Any],
        rolls: list[dict[str, Any]],
        summary: str,
        breakdown: dict[str, Any],
        tracks: dict[str, dict[str, int]],
        state: dict[str, dict[str, Any]],
        conditions_before: dict[str, list[str]],
        by: str,
        # The GM's override that let this action through (refusal, reason, by): on the
        # record, so a correction replays it as allowed. Older events have none.
        override: dict[str, Any] | None = None,
    ) -> None:
        for cid, values in tracks.items():
            self.combatants[cid] = replace(self.combatants[cid], tracks=values)
        for cid, values in state.items():
            self.combatants[cid] = replace(self.combatants[cid], state=values)
        self.last_outcome = {"action": number}
        # Copy on write: copies of this aggregate share the list (see __deepcopy__).
        self.actions = [
            *self.actions,
            {
                "number": number,
                "round": round,
                "kind": kind,
                "actor": actor,
                "params": params,
                "rolls": rolls,
                "summary": summary,
                "breakdown": breakdown,
                "by": by,
                "status": ACTIVE,
                "version": self.version + 1,
                "effects": {"tracks": tracks, "state": state},
                "conditions": {
                    cid: {"before": conditions_before[cid], "after": list(self.conditions_of(cid))}
                    for cid in conditions_before
                },
                **({"override": override} if override is not None else {}),
            },
        ]

    def next_round(self, by: str) -> None:
        self._refuse_if_ended()
        self._round_started(self.round + 1, by)
        # What the rules do by themselves at a round's start (bleeding, S10) is
        # recorded as actions, so that corrections replay it like any other; no dice.
        for kind in self.rules.round_start_actions(self.view()):
            self.act(kind, None, {}, None, None, by)

    @event("RoundStarted")
    def _round_started(self, round: int, by: str) -> None:
        self.round = round
        self.turn = 0  # a new round starts at the top of the turn order

    # -- turn order (domain/turns.py) and exchanges (domain/exchanges.py) -------------

    @property
    def order(self) -> list[str]:
        return list(getattr(self, "turn_order", []))

    @property
    def exchange_list(self) -> list[dict[str, Any]]:
        # Encounters recorded before exchanges existed have none.
        return list(getattr(self, "exchanges", []))

    def turn_state(self) -> turns.TurnState:
        names = {cid: c.name for cid, c in self.combatants.items()}
        return turns.TurnState(self.round, tuple(self.order), getattr(self, "turn", 0), names)

    def _turn_check(
        self, actor: str | None, gm_tool: bool, override_reason: str | None, role: str
    ) -> tuple[str, str] | None:
        """None when the actor may act now; (refusal, reason) when the GM overrides it."""
        reason = turns.check_override(override_reason, role)
        if actor is None or gm_tool or actor not in self.combatants:
            return None
        gm_tools = frozenset(k for k, a in self.rules.actions.items() if a.gm_only)
        taken = turns.actions_taken(
            self.actions, exchanges.pending(self.exchange_list), actor, self.round, gm_tools
        )
        per_round = turns.actions_per_round(self.options)
        me = self.combatants[actor]
        own = self.rules.turn_refusal(me.name, me.state, self.round)
        refusal = turns.refuse_or_override(self.turn_state(), actor, taken, per_round, reason, own)
        return None if refusal is None or reason is None else (refusal, reason)

    def set_order(self, order: list[str], by: str) -> None:
        self._refuse_if_ended()
        checked = turns.check_order(order, self.combatants)
        names = ", ".join(self.combatants[cid].name for cid in checked)
        self._order_set(order=checked, summary=f"Turn order: {names}", by=by)

    @event("OrderSet")
    def _order_set(self, order: list[str], summary: str, by: str) -> None:
        self.turn_order = list(order)
        self.turn = 0

    def next_turn(self, by: str) -> None:
        """Move down the order; past the last combatant, the next round begins."""
        self._refuse_if_ended()
        if not self.order:
            raise ActionRefused("no turn order is set: the GM sets one first")
        following = getattr(self, "turn", 0) + 1
        if following >= len(self.order):
            self.next_round(by)
            return
        name = self.combatants[self.order[following]].name
        self._turn_advanced(turn=following, summary=f"{name}'s turn", by=by)

    @event("TurnAdvanced")
    def _turn_advanced(self, turn: int, summary: str, by: str) -> None:
        self.turn = turn

    @event("TurnOverridden")
    def _turn_overridden(
        self, actor: str | None, round: int, refusal: str, reason: str, summary: str, by: str
    ) -> None:
        self.overrides = [
            *getattr(self, "overrides", []),
            {"actor": actor, "round": round, "refusal": refusal, "reason": reason, "by": by},
        ]

    @event("ExchangeOpened")
    def _exchange_opened(self, exchange: dict[str, Any], summary: str, by: str) -> None:
        self.exchanges = [*self.exchange_list, exchange]
        self.last_outcome = {"exchange": exchange["number"]}

    def declare(
        self,
        number: int,
        choice: str,
        dice: Mapping[str, list[int]] | None,
        roller: Roller,
        access: Access,
    ) -> dict[str, Any]:
        """The defender's declaration (their player or the GM); the exchange then resolves."""
        self._refuse_if_ended()
        exchange = exchanges.find(self.exchange_list, number)
        defender = str(exchange["defender"])
        access.require_writer_for(defender, f"declare {self.combatants[defender].name}'s defense")
        exchanges.refuse_unless_pending(exchange, "declare for")
        override = exchange.get("override")
        view = self.view(turn_overridden=override is not None)
        declared = {**exchange["params"], exchange["param"]: choice}
        dice, aliases = technical_dice(
            self.rules, view, exchange["kind"], exchange["actor"], declared, dice
        )
        resolved = exchanges.resolve_declared(
            self.rules, view, exchange, choice, dice, roller, aliases
        )
        name = self.combatants[defender].name
        self._defense_declared(
            number=number,
            choice=choice,
            action=len(self.actions) + 1,
            summary=f"exchange {number}: {name} declares {exchange['param']} {choice}",
            by=access.who,
        )
        return self._record(
            exchange["kind"],
            exchange["actor"],
            resolved,
            int(exchange["round"]),
            access.who,
            override,
        )

    @event("DefenseDeclared")
    def _defense_declared(
        self, number: int, choice: str, action: int, summary: str, by: str
    ) -> None:
        self._update_exchange(
            number, status=exchanges.RESOLVED, declared=choice, declared_by=by, action=action
        )

    def withdraw(self, number: int, reason: str, by: str) -> dict[str, Any]:
        self._refuse_if_ended()
        exchange = exchanges.find(self.exchange_list, number)
        exchanges.refuse_unless_pending(exchange, "withdraw")
        self._exchange_withdrawn(
            number=number, reason=reason, summary=f"exchange {number} withdrawn: {reason}", by=by
        )
        return self.exchange_list[number - 1]

    @event("ExchangeWithdrawn")
    def _exchange_withdrawn(self, number: int, reason: str, summary: str, by: str) -> None:
        self._update_exchange(number, status=exchanges.WITHDRAWN, reason=reason, withdrawn_by=by)

    def _update_exchange(self, number: int, **changes: Any) -> None:
        listed = self.exchange_list
        listed[number - 1] = {**listed[number - 1], **changes}
        self.exchanges = listed

    def end(self, by: str) -> None:
        self._refuse_if_ended()
        self._ended(by)

    @event("Ended")
    def _ended(self, by: str) -> None:
        self.ended = True

    # -- corrections -------------------------------------------------------------

    def _correctable(self, number: int) -> dict[str, Any]:
        if self.ended:
            raise ActionRefused(
                f"encounter '{self.name}' has ended and its tracks went back to the roster; "
                "corrections are only taken while an encounter is open"
            )
        record = self.action(number)
        if record["status"] != ACTIVE:
            raise ActionRefused(f"action {number} is already {record['status']}")
        return record

    def void(self, number: int, reason: str, by: str, roller: Roller) -> list[dict[str, Any]]:
        """Strike action ``number`` out; every later action is resolved again."""
        self._correctable(number)
        return self._replayed("void", number, correction_plan(number, VOID), reason, by, roller)

    def reroll(
        self,
        number: int,
        dice: Mapping[str, list[int]] | None,
        reason: str,
        by: str,
        roller: Roller,
    ) -> list[dict[str, Any]]:
        """Roll action ``number`` again (new or supplied dice); later actions follow."""
        if self._correctable(number)["kind"] in GM_KINDS:
            raise ActionRefused(f"action {number} is the GM's change, with no dice to roll")
        plan = correction_plan(number, Reroll(dice))
        return self._replayed("reroll", number, plan, reason, by, roller)

    def _replayed(
        self, kind: str, number: int, plan: Plan, reason: str, by: str, roller: Roller
    ) -> list[dict[str, Any]]:
        result = replay(
            self.rules, self.options, self.initial_combatants, self.actions, plan, roller
        )
        correction = {
            "kind": kind,
            "number": number,
            "reason": reason,
            "by": by,
            "report": result.report,
        }
        self._corrected(
            correction, result.records, *self._tracks_and_state(result.combatants), self.round
        )
        return result.report

    def rewind(self, past: Encounter, reason: str, by: str) -> list[dict[str, Any]]:
        """Go back to how ``past`` stood; everything after is superseded, kept on record."""
        self._refuse_if_ended()
        if past.version >= self.version:
            raise InvalidInput(
                f"rewind needs an earlier version than the current {self.version}, "
                f"not {past.version}"
            )
        records, plan = rewind_plan(past.actions, self.actions)
        result = replay(
            self.rules,
            self.options,
            self.initial_combatants,
            records,
            plan,
            seeded_roller(0),  # keeping and superseding never roll
        )
        correction = {
            "kind": "rewind",
            "to_version": past.version,
            "reason": reason,
            "by": by,
            "report": result.report,
        }
        self._corrected(
            correction,
            result.records,
            *self._tracks_and_state(result.combatants),
            past.round,
        )
        return result.report

    @staticmethod
    def _tracks_and_state(
        combatants: Mapping[str, Combatant],
    ) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, Any]]]:
        return (
            {cid: dict(c.tracks) for cid, c in combatants.items()},
            {cid: dict(c.state) for cid, c in combatants.items()},
        )

    @event("Corrected")
    def _corrected(
        self,
        correction: dict[str, Any],
        actions: list[dict[str, Any]],
        tracks: dict[str, dict[str, int]],
        state: dict[str, dict[str, Any]],
        round: int,
    ) -> None:
        self.actions = actions
        for cid, c in self.combatants.items():
            self.combatants[cid] = replace(c, tracks=tracks[cid], state=state[cid])
        for record in actions:  # a join the correction struck out: out of the fight again
            if record["kind"] == JOIN and record["status"] != ACTIVE:
                cid = str(record["params"]["target"])
                self.combatants[cid] = replace(self.combatants[cid], present=False)
        self.round = round
        self.corrections.append({**correction, "version": self.version + 1})

    # -- the GM's changes: sheets, tracks and the cast (domain/gm_changes.py) ---------

    def gm_change(
        self, kind: str, target: str, params: Mapping[str, Any], reason: str, by: str
    ) -> dict[str, Any]:
        """Record a GM change among the actions, so a correction replays it in its place."""
        self._refuse_if_ended()
        if kind != JOIN and target not in self.combatants:
            raise NotFound(f"'{target}' is not a combatant in this encounter")
        if kind == JOIN and target in self.combatants:
            raise ActionRefused(f"{self.combatants[target].name} is already in this fight")
        if kind == AMEND:
            current = self.combatants[target].sheet
            params = {"sheet": amended_sheet(self.rules, current, params["changes"])}
        full = {**params, "target": target, "reason": reason}
        changed = apply_gm_record(self.rules, kind, full, self.combatants)
        before = list(self.conditions_of(target)) if target in self.combatants else []
        now = changed.combatant
        after = self.rules.conditions(now.sheet, now.tracks, now.state)
        effects = gm_effects(target, now)
        self._gm_changed(
            record={
                "number": len(self.actions) + 1,
                "round": self.round,
                "kind": kind,
                "actor": None,
                "params": full,
                "rolls": [],
                "summary": changed.summary,
                "breakdown": changed.breakdown,
                "by": by,
                "status": ACTIVE,
                "effects": effects,
                "conditions": {target: {"before": before, "after": list(after)}},
            },
            summary=changed.summary,
            tracks=effects["tracks"],
            state=effects["state"],
            sheets={target: now.sheet},
        )
        return self.actions[-1]

    @event("GMChanged")
    def _gm_changed(
        self,
        record: dict[str, Any],
        summary: str,
        tracks: dict[str, dict[str, int]],
        state: dict[str, dict[str, Any]],
        sheets: Mapping[str, Sheet],
    ) -> None:
        for cid, entry in record["effects"]["combatants"].items():
            self.combatants[cid] = Combatant.from_json(as_object(entry))
        self.actions = [*self.actions, {**record, "version": self.version + 1}]

    # -- corrections carried forward through the campaign (domain/timeline.py) -------

    def correct_after_end(
        self,
        correction: dict[str, Any],
        records: list[dict[str, Any]],
        combatants: Mapping[str, Combatant],
        round: int,
    ) -> None:
        """A correction of this (ended) encounter, worked out by the campaign's carry."""
        self._corrected(correction, records, *self._tracks_and_state(combatants), round)

    def recompute(
        self,
        correction: dict[str, Any],
        initial: Mapping[str, Combatant],
        records: list[dict[str, Any]],
        combatants: Mapping[str, Combatant],
    ) -> None:
        """A correction earlier in the campaign changed how this encounter started."""
        tracks, state = self._tracks_and_state(combatants)
        self._recomputed(
            correction,
            combatants_as_json(initial),
            records,
            combatants_as_json(combatants),
            tracks,
            state,
        )

    @event("Recomputed")
    def _recomputed(
        self,
        correction: dict[str, Any],
        initial: Mapping[str, JSON],
        actions: list[dict[str, Any]],
        combatants: Mapping[str, JSON],
        tracks: dict[str, dict[str, int]],
        state: dict[str, dict[str, Any]],
    ) -> None:
        self.initial_combatants = combatants_from_json(initial)
        self.actions = actions
        self.combatants = combatants_from_json(combatants)
        self.corrections.append({**correction, "version": self.version + 1})
