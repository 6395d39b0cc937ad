"""Corrections of a fight: void an action, roll it again, rewind to a version.

One entry point, `Corrections.correct`, serves open and ended fights alike. Whether
the fight is still open is decided inside the command, on the writer thread, from
the encounter the command itself read: an open encounter is corrected in itself, an
ended one's correction is carried through the campaign (application/carrying.py).
A fight that ends between the request and the command is so corrected as ended.
"""

from __future__ import annotations

from uuid import UUID

from skald_campaign.application.carrying import Carrying
from skald_campaign.application.commands import (
    CorrectEncounter,
    RerollAction,
    RewindEncounter,
    VoidAction,
)
from skald_campaign.application.store import Commands, Store
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.reasons import check_reason
from skald_campaign.domain.records import JSONObject

# The encounter and its report (JSON, as the API shows it).
Corrected = tuple[Encounter, list[JSONObject]]
KINDS = ("void", "reroll", "rewind")


class Corrections(Commands):
    def __init__(self, store: Store, carrying: Carrying) -> None:
        super().__init__(store)
        self.carrying = carrying

    def correct(self, command: CorrectEncounter) -> Corrected:
        """Void, reroll or rewind, in an open or an ended encounter: the encounter after
        it, and the report of what the correction changed in it."""
        reason = check_reason(command.reason)
        if command.kind not in KINDS:
            raise InvalidInput(f"a correction is void, reroll or rewind, not '{command.kind}'")

        def attempt() -> Corrected:
            encounter = self.store.encounter(command.campaign_id, command.encounter_id)
            self.store.decides_on(encounter)  # open or ended, the encounter corrected
            if encounter.ended:
                corrected, _ = self.carrying.carry(command, reason)
                return corrected, list(corrected.corrections[-1].report)
            report = self._in_the_fight(encounter, command, reason)
            self.store.save(encounter)
            return encounter, report

        return self.store.run_command(attempt)

    def _in_the_fight(
        self, encounter: Encounter, command: CorrectEncounter, reason: str
    ) -> list[JSONObject]:
        if command.kind == "rewind":
            if command.to_version is None:
                raise InvalidInput("a rewind names the version to go back to")
            past = self.store.encounter(
                command.campaign_id, command.encounter_id, command.to_version
            )
            return encounter.rewind(past, reason, command.by)
        if command.number is None:
            raise InvalidInput(f"a {command.kind} names the action's number")
        if command.kind == "void":
            return encounter.void(command.number, reason, command.by, self.store.roller)
        return encounter.reroll(command.number, command.dice, reason, command.by, self.store.roller)

    def reroll_rolls(self, campaign_id: UUID, encounter_id: UUID, number: int) -> JSONObject:
        """The rolls a reroll of action ``number`` takes (``rolls`` and ``may_follow``, each
        with its name, count and sides), worked out by the replay the reroll itself runs
        (domain/play/corrections.py), in an open or an ended fight: the action as it was
        resolved, not as the fight stands now. Nothing is written."""
        encounter = self.store.encounter(campaign_id, encounter_id)
        self.store.rules_installed(campaign_id)
        return {"number": number, **encounter.reroll_rolls(number).as_json()}

    # -- the api's three commands, each the one correction -----------------------------

    def void_action(self, command: VoidAction) -> Corrected:
        c = command
        return self.correct(
            CorrectEncounter(c.campaign_id, c.encounter_id, "void", c.reason, c.number, by=c.by)
        )

    def reroll_action(self, command: RerollAction) -> Corrected:
        c = command
        return self.correct(
            CorrectEncounter(
                c.campaign_id, c.encounter_id, "reroll", c.reason, c.number, c.dice, by=c.by
            )
        )

    def rewind_encounter(self, command: RewindEncounter) -> Corrected:
        c = command
        return self.correct(
            CorrectEncounter(
                c.campaign_id, c.encounter_id, "rewind", c.reason, to_version=c.to_version, by=c.by
            )
        )
