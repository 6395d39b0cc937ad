"""What play's commands read of an encounter in progress: the ``Fight`` protocol.

The Encounter aggregate (domain/encounter/aggregate.py) satisfies it. The commands of
play (domain/play/table/markers.py, domain/play/table/commands.py) and of the encounter
(domain/encounter/commands.py) take it, work out what to record, and yield their
decisions (each named as the Encounter's event it stands for); the aggregate records
each before the command goes on, so a command reads what its earlier events left.
None of them imports the aggregate: nothing here imports back up (issue 38).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from skald_campaign.domain.play.actions import ActionRecord
from skald_campaign.domain.play.dice import Roller
from skald_campaign.domain.play.records import Exchange
from skald_campaign.domain.play.standing import KnownConditions
from skald_campaign.domain.play.turns import TurnState
from skald_campaign.domain.records import JSON, Combatant
from skald_campaign.domain.rulesets.base import EncounterView, Ruleset

# The table's dice by roll name, as a command is given them.
Dice = Mapping[str, list[int]]


class Fight(Protocol):
    """An encounter as its commands read it: its records, read-only, and the one
    command another command may start (a turn past the last starts the next round)."""

    @property
    def version(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def ended(self) -> bool: ...
    @property
    def rules(self) -> Ruleset: ...
    @property
    def options(self) -> Mapping[str, JSON]: ...
    @property
    def round(self) -> int: ...
    @property
    def combatants(self) -> Mapping[str, Combatant]: ...
    @property
    def initial_combatants(self) -> Mapping[str, Combatant]: ...
    @property
    def actions(self) -> Sequence[ActionRecord]: ...
    @property
    def exchange_list(self) -> list[Exchange]: ...
    @property
    def order(self) -> list[str]: ...
    @property
    def turn_index(self) -> int: ...
    @property
    def names(self) -> dict[str, str]: ...
    def action(self, number: int) -> ActionRecord: ...
    @property
    def known_conditions(self) -> KnownConditions: ...
    def conditions_of(self, combatant_id: str) -> tuple[str, ...]: ...
    def view(self, turn_overridden: bool = False) -> EncounterView: ...
    def turn_state(self) -> TurnState: ...
    def next_round(
        self, by: str, roller: Roller | None = None, dice: Dice | None = None
    ) -> None: ...
