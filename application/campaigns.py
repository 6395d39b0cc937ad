"""Commands on the campaign itself: creating it, enrolling characters, keys, the calendar."""

from __future__ import annotations

from skald_campaign.application.commands import (
    AdvanceDays,
    CreateCampaign,
    EnrolCharacter,
    HealThrough,
    IssueKey,
    MarkWound,
    RevokeKey,
)
from skald_campaign.application.store import Commands
from skald_campaign.application.writes import unguarded
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.reasons import check_reason


class CampaignCommands(Commands):
    def create_campaign(self, command: CreateCampaign) -> Campaign:
        def attempt() -> Campaign:
            campaign = Campaign.create(
                command.name,
                command.ruleset,
                command.options,
                command.by,
                command.gm_key_id,
                command.gm_key_hash,
            )
            self.store.save(campaign)
            return campaign

        return self.store.run_command(attempt)

    def enrol_character(self, command: EnrolCharacter) -> tuple[Campaign, str]:
        def attempt() -> tuple[Campaign, str]:
            campaign = self.store.campaign(command.campaign_id)
            self.store.decides_on(campaign)
            character_id = campaign.enrol(
                command.name, command.sheet, command.by, command.npc, command.player
            )
            self.store.save(campaign)
            return campaign, character_id

        return self.store.run_command(attempt)

    # -- keys --------------------------------------------------------------------

    def issue_key(self, command: IssueKey) -> Campaign:
        def attempt() -> Campaign:
            with unguarded():  # keys are no part of the story: any ruleset version
                campaign = self.store.campaign(command.campaign_id)
            self.store.decides_on(campaign)
            campaign.issue_key(
                command.key_id,
                command.key_hash,
                command.role,
                list(command.characters),
                command.label,
                command.by,
            )
            self.store.save(campaign)
            return campaign

        return self.store.run_command(attempt)

    def revoke_key(self, command: RevokeKey) -> Campaign:
        def attempt() -> Campaign:
            with unguarded():  # a leaked key is revocable whatever the ruleset's version
                campaign = self.store.campaign(command.campaign_id)
            self.store.decides_on(campaign)
            campaign.revoke_key(command.key_id, command.by)
            self.store.save(campaign)
            return campaign

        return self.store.run_command(attempt)

    # -- the calendar ------------------------------------------------------------

    def advance_days(self, command: AdvanceDays) -> Campaign:
        def attempt() -> Campaign:
            campaign = self.store.campaign(command.campaign_id)
            self.store.decides_on(campaign)
            campaign.advance_days(command.days, command.default, command.characters, command.by)
            self.store.save(campaign)
            return campaign

        return self.store.run_command(attempt)

    def heal_through(self, command: HealThrough) -> int:
        """Idempotent: a day already healed for a character is never healed again."""

        def attempt() -> int:
            campaign = self.store.campaign(command.campaign_id)
            healed = campaign.heal_through(command.day)
            if healed:
                self.store.save(campaign)
            return healed

        return self.store.run_command(attempt)

    def mark_wound(self, command: MarkWound) -> Campaign:
        reason = check_reason(command.reason)

        def attempt() -> Campaign:
            campaign = self.store.campaign(command.campaign_id)
            self.store.decides_on(campaign)
            campaign.mark_wound(
                command.character_id, command.wound, command.present, reason, command.by
            )
            self.store.save(campaign)
            return campaign

        return self.store.run_command(attempt)
