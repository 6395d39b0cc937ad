"""Commands of the table: turn order, next turn, declarations and withdrawals.

One of the groups of commands the application is composed of (application/application.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from application.store import Commands
from domain.access import Access
from domain.encounter import Encounter
from domain.errors import ActionRefused
from domain.records import JSONObject
from domain.roll_preview import preview
from domain.rulesets.base import JsonObject


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
            command.campaign_id, command.encounter_id, lambda e: e.next_turn(command.by)
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
