"""Commands of the table: turn order, next turn, declarations and withdrawals.

Kept beside the application so the shared ``application.py`` only inherits them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from application.writes import WriteRunner
from domain.access import Access
from domain.dice import Roller
from domain.encounter import Encounter
from domain.errors import ActionRefused
from domain.roll_preview import preview


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


class TableCommands(WriteRunner):
    roller: Roller

    if TYPE_CHECKING:  # the application reads encounters

        def encounter(
            self, campaign_id: UUID, encounter_id: UUID, version: int | None = None
        ) -> Encounter: ...

    def set_turn_order(self, command: SetTurnOrder) -> Encounter:
        def attempt() -> Encounter:
            encounter = self.encounter(command.campaign_id, command.encounter_id)
            encounter.set_order(list(command.order), command.by)
            self.save(encounter)
            return encounter

        return self._with_retries(attempt)

    def next_turn(self, command: NextTurn) -> Encounter:
        def attempt() -> Encounter:
            encounter = self.encounter(command.campaign_id, command.encounter_id)
            encounter.next_turn(command.by)
            self.save(encounter)
            return encounter

        return self._with_retries(attempt)

    def declare_defense(self, command: DeclareDefense) -> tuple[Encounter, dict[str, Any]]:
        def attempt() -> tuple[Encounter, dict[str, Any]]:
            encounter = self.encounter(command.campaign_id, command.encounter_id)
            record = encounter.declare(
                command.exchange, command.choice, command.dice, self.roller, command.access
            )
            self.save(encounter)
            return encounter, record

        return self._with_retries(attempt)

    def withdraw_exchange(self, command: WithdrawExchange) -> Encounter:
        reason = command.reason.strip()

        def attempt() -> Encounter:
            encounter = self.encounter(command.campaign_id, command.encounter_id)
            encounter.withdraw(command.exchange, reason, command.by)
            self.save(encounter)
            return encounter

        return self._with_retries(attempt)

    def preview_action(
        self,
        campaign_id: UUID,
        encounter_id: UUID,
        kind: str,
        actor: str | None,
        params: dict[str, Any],
    ) -> dict[str, Any]:
        """The rolls an action would need now, by human name; nothing is written."""
        encounter = self.encounter(campaign_id, encounter_id)
        if encounter.ended:
            raise ActionRefused(f"encounter '{encounter.name}' has ended")
        return preview(encounter.rules, encounter.view(), kind, actor, params)
