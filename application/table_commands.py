"""Commands of the table: turn order, next turn, declarations and withdrawals.

One of the groups of commands the application is composed of (application/application.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from uuid import UUID

from skald_campaign.application.store import Commands
from skald_campaign.domain.access import Access
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import ActionRefused
from skald_campaign.domain.play.roll_preview import preview
from skald_campaign.domain.records import JSONObject
from skald_campaign.domain.rulesets.base import JsonObject


@dataclass(frozen=True)
class SetTurnOrder:
    campaign_id: UUID
    encounter_id: UUID
    order: tuple[str, ...]
    by: str = "gm"


@dataclass(frozen=True)
class NextTurn:
    campaign_id: UUID
    encounter_id: UUID
    by: str = "gm"
    # The table's dice for the each-round initiative of a round this turn starts (T1).
    dice: Mapping[str, list[int]] | None = None


@dataclass(frozen=True)
class RollInitiative:
    campaign_id: UUID
    encounter_id: UUID
    dice: dict[str, list[int]] | None = None
    only: tuple[str, ...] | None = None  # these combatants only (a joiner), placed
    by: str = "gm"


@dataclass(frozen=True)
class MoveTurn:
    """Previous turn, or the current combatant delays (after ``after``: default last)."""

    campaign_id: UUID
    encounter_id: UUID
    move: str  # "previous" or "delay"
    after: str | None = None
    by: str = "gm"


@dataclass(frozen=True)
class MoveInOrder:
    campaign_id: UUID
    encounter_id: UUID
    combatant: str
    steps: int  # -1: up one place (earlier), +1: down one
    by: str = "gm"


@dataclass(frozen=True)
class PlaceMarker:
    campaign_id: UUID
    encounter_id: UUID
    target: str
    name: str
    note: str | None = None
    rounds: int | None = None
    watch: str | None = None
    at: str = "end"
    by: str = "gm"


@dataclass(frozen=True)
class RemoveMarker:
    campaign_id: UUID
    encounter_id: UUID
    number: int
    by: str = "gm"


@dataclass(frozen=True)
class DeclareDefense:
    campaign_id: UUID
    encounter_id: UUID
    exchange: int
    choice: str
    access: Access
    dice: dict[str, list[int]] | None = None


@dataclass(frozen=True)
class WithdrawExchange:
    campaign_id: UUID
    encounter_id: UUID
    exchange: int
    reason: str
    by: str = "gm"


class TableCommands(Commands):
    def set_turn_order(self, command: SetTurnOrder) -> Encounter:
        return self.change_encounter(
            command.campaign_id,
            command.encounter_id,
            lambda e: e.set_order(list(command.order), command.by),
        )

    def next_turn(self, command: NextTurn) -> Encounter:
        return self.change_encounter(
            command.campaign_id,
            command.encounter_id,
            lambda e: e.next_turn(command.by, self.store.roller, command.dice),
        )

    def roll_initiative(self, command: RollInitiative) -> Encounter:
        c = command
        return self.change_encounter(
            c.campaign_id,
            c.encounter_id,
            lambda e: e.roll_initiative(c.dice, self.store.roller, c.by, c.only),
        )

    def move_turn(self, command: MoveTurn) -> Encounter:
        c = command

        def move(e: Encounter) -> object:
            if c.move == "previous":
                return e.previous_turn(c.by)
            return e.delay(c.after, c.by)

        return self.change_encounter(c.campaign_id, c.encounter_id, move)

    def move_in_order(self, command: MoveInOrder) -> Encounter:
        c = command
        return self.change_encounter(
            c.campaign_id,
            c.encounter_id,
            lambda e: e.set_order(e.move_in_order(c.combatant, c.steps), c.by),
        )

    def place_marker(self, command: PlaceMarker) -> Encounter:
        c = command
        return self.change_encounter(
            c.campaign_id,
            c.encounter_id,
            lambda e: e.mark(c.target, c.name, c.note, c.rounds, c.watch, c.at, c.by),
        )

    def remove_marker(self, command: RemoveMarker) -> Encounter:
        c = command
        return self.change_encounter(
            c.campaign_id, c.encounter_id, lambda e: e.unmark(c.number, c.by)
        )

    def declare_defense(self, command: DeclareDefense) -> tuple[Encounter, JSONObject]:
        def declare(encounter: Encounter) -> JSONObject:
            return encounter.declare(
                command.exchange, command.choice, command.dice, self.store.roller, command.access
            )

        attempt = self.changing_encounter(command.campaign_id, command.encounter_id, declare)
        return self.store.run_command(attempt)

    def withdraw_exchange(self, command: WithdrawExchange) -> Encounter:
        reason = command.reason.strip()
        return self.change_encounter(
            command.campaign_id,
            command.encounter_id,
            lambda e: e.withdraw(command.exchange, reason, command.by),
        )

    def preview_action(
        self,
        campaign_id: UUID,
        encounter_id: UUID,
        kind: str,
        actor: str | None,
        params: JsonObject,
    ) -> JSONObject:
        """The rolls an action would need now, by human name; nothing is written."""
        encounter = self.store.encounter(campaign_id, encounter_id)
        if encounter.ended:
            raise ActionRefused(f"encounter '{encounter.name}' has ended")
        return preview(encounter.rules, encounter.view(), kind, actor, params)
