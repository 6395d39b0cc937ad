"""The GM's changes as commands: sheet amendments, track adjustments and the cast.

A character between fights is changed on the roster; a character an open
encounter holds is changed in that encounter (a GM record among its actions),
because the encounter owns their tracks until it ends (docs/calendar.md).
"""

from __future__ import annotations

from uuid import UUID

from skald_campaign.application.commands import (
    AddCombatant,
    AdjustTracks,
    AmendSheet,
    MoveCombatant,
    RemoveCombatant,
)
from skald_campaign.application.store import Commands
from skald_campaign.domain.campaign.aggregate import Campaign, check_name
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.play.gm_changes import ADJUST, AMEND, JOIN, LEAVE, MOVE, check_adjustment
from skald_campaign.domain.reasons import check_reason
from skald_campaign.domain.records import Combatant

Changed = tuple[Campaign, Encounter | None]


class Amendments(Commands):
    def _holding(self, campaign: Campaign, character_id: str) -> Encounter | None:
        """The open encounter that owns the character's tracks now, if any: the change
        is decided on it, else on the campaign (docs/access.md). A character the campaign
        does not have is the change's to refuse (404), after that check, as all that the
        campaign holds is: it is known at the campaign's version."""
        character = campaign.characters.get(character_id)
        held = None if character is None else character.in_encounter
        encounter = None if held is None else self.store.encounter(campaign.id, UUID(held))
        self.store.decides_on(campaign if encounter is None else encounter)
        return encounter

    def amend_sheet(self, command: AmendSheet) -> Changed:
        reason = check_reason(command.reason)

        def attempt() -> Changed:
            campaign = self.store.campaign(command.campaign_id)
            encounter = self._holding(campaign, command.character_id)
            if encounter is None:
                campaign.amend_sheet(command.character_id, command.changes, reason, command.by)
                self.store.save(campaign)
                return campaign, None
            changes = {"changes": command.changes}
            encounter.gm_change(AMEND, command.character_id, changes, reason, command.by)
            self.store.save(encounter)
            return campaign, encounter

        return self.store.run_command(attempt)

    def adjust_tracks(self, command: AdjustTracks) -> Changed:
        reason = check_reason(command.reason)

        def attempt() -> Changed:
            campaign = self.store.campaign(command.campaign_id)
            encounter = self._holding(campaign, command.character_id)
            sheet = (
                campaign.character(command.character_id).sheet
                if encounter is None
                else encounter.combatants[command.character_id].sheet
            )
            changes = check_adjustment(campaign.rules, sheet, command.set, command.adjust)
            if encounter is None:
                campaign.adjust_tracks(command.character_id, changes, reason, command.by)
                self.store.save(campaign)
                return campaign, None
            params = {"changes": changes}
            encounter.gm_change(ADJUST, command.character_id, params, reason, command.by)
            self.store.save(encounter)
            return campaign, encounter

        return self.store.run_command(attempt)

    def add_combatant(self, command: AddCombatant) -> Encounter:
        reason = check_reason(command.reason)
        side = check_name(command.side, "side")

        def attempt() -> Encounter:
            campaign = self.store.campaign(command.campaign_id)
            encounter = self.store.encounter(command.campaign_id, command.encounter_id)
            self.store.decides_on(encounter)
            campaign.join_encounter(str(encounter.id), command.character_id, command.by)
            character = campaign.character(command.character_id)
            combatant = Combatant(
                character.name,
                side,
                command.rank,
                character.sheet,
                dict(character.tracks),
                dict(character.state),
            )
            params = {"combatant": combatant.as_json()}
            encounter.gm_change(JOIN, command.character_id, params, reason, command.by)
            encounter.seat_joiner(command.character_id, self.store.roller, command.by)
            self.store.save(encounter, campaign)
            return encounter

        return self.store.run_command(attempt)

    def remove_combatant(self, command: RemoveCombatant) -> Encounter:
        reason = check_reason(command.reason)

        def attempt() -> Encounter:
            encounter = self.store.encounter(command.campaign_id, command.encounter_id)
            self.store.decides_on(encounter)
            encounter.gm_change(LEAVE, command.character_id, {}, reason, command.by)
            self.store.save(encounter)
            return encounter

        return self.store.run_command(attempt)

    def move_combatant(self, command: MoveCombatant) -> Encounter:
        reason = check_reason(command.reason)

        def attempt() -> Encounter:
            encounter = self.store.encounter(command.campaign_id, command.encounter_id)
            self.store.decides_on(encounter)
            params = {"rank": command.rank}
            encounter.gm_change(MOVE, command.character_id, params, reason, command.by)
            self.store.save(encounter)
            return encounter

        return self.store.run_command(attempt)
