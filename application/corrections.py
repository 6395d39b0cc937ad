"""Corrections of a fight: void an action, roll it again, rewind to a version.

An open encounter is corrected in itself; an ended one's correction is carried
through the campaign (application/carrying.py).
"""

from __future__ import annotations

from typing import Any

from application.carrying import Carrying
from application.commands import CorrectEncounter, RerollAction, RewindEncounter, VoidAction
from application.store import Commands, Store
from domain.encounter import Encounter
from domain.reasons import check_reason

Corrected = tuple[Encounter, list[dict[str, Any]]]


class Corrections(Commands):
    def __init__(self, store: Store, carrying: Carrying) -> None:
        super().__init__(store)
        self.carrying = carrying

    def void_action(self, command: VoidAction) -> Corrected:
        reason = check_reason(command.reason)
        if self.store.encounter(command.campaign_id, command.encounter_id).ended:
            c = command  # an ended encounter's correction is carried through the campaign
            return self.carrying.correct_ended(
                CorrectEncounter(c.campaign_id, c.encounter_id, "void", c.reason, c.number, by=c.by)
            )

        def attempt() -> Corrected:
            encounter = self.store.encounter(command.campaign_id, command.encounter_id)
            report = encounter.void(command.number, reason, command.by, self.store.roller)
            self.store.save(encounter)
            return encounter, report

        return self.store.run_command(attempt)

    def reroll_action(self, command: RerollAction) -> Corrected:
        reason = check_reason(command.reason)
        if self.store.encounter(command.campaign_id, command.encounter_id).ended:
            c = command  # an ended encounter's correction is carried through the campaign
            return self.carrying.correct_ended(
                CorrectEncounter(
                    c.campaign_id, c.encounter_id, "reroll", c.reason, c.number, c.dice, by=c.by
                )
            )

        def attempt() -> Corrected:
            encounter = self.store.encounter(command.campaign_id, command.encounter_id)
            report = encounter.reroll(
                command.number, command.dice, reason, command.by, self.store.roller
            )
            self.store.save(encounter)
            return encounter, report

        return self.store.run_command(attempt)

    def rewind_encounter(self, command: RewindEncounter) -> Corrected:
        reason = check_reason(command.reason)
        if self.store.encounter(command.campaign_id, command.encounter_id).ended:
            c = command  # an ended encounter's correction is carried through the campaign
            return self.carrying.correct_ended(
                CorrectEncounter(
                    c.campaign_id,
                    c.encounter_id,
                    "rewind",
                    c.reason,
                    to_version=c.to_version,
                    by=c.by,
                )
            )

        def attempt() -> Corrected:
            encounter = self.store.encounter(command.campaign_id, command.encounter_id)
            past = self.store.encounter(
                command.campaign_id, command.encounter_id, command.to_version
            )
            report = encounter.rewind(past, reason, command.by)
            self.store.save(encounter)
            return encounter, report

        return self.store.run_command(attempt)
