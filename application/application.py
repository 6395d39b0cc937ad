"""The Skald application: the store, and the groups of commands composed over it.

Each group (campaign, encounter, table, amendments, corrections) is its own object
holding the one store (application/store.py); this class is the surface the api,
the workers and the CLI call, one method per command, each handed to its group.

Persistence (SQLite, PostgreSQL, transcoder) is chosen by the composition root
through the eventsourcing environment; nothing here knows which.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import datetime
from typing import TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from skald_campaign.application.amending import Amendments, Changed
from skald_campaign.application.bestiary import (
    BestiaryCommands,
    EnrolFromBestiary,
    SaveEncounter,
    SaveToBestiary,
    SetUpSavedEncounter,
)
from skald_campaign.application.campaigns import CampaignCommands
from skald_campaign.application.carry_preview import CarriedRecord
from skald_campaign.application.carrying import Carrying
from skald_campaign.application.commands import (
    AcceptRulesetVersion,
    AddCombatant,
    AdjustTracks,
    AdvanceDays,
    AmendSheet,
    CorrectDayPlan,
    CorrectEncounter,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    HealThrough,
    IssueKey,
    MarkWound,
    MoveCombatant,
    NextRound,
    PerformAction,
    RemoveCombatant,
    RerollAction,
    RevokeKey,
    RewindEncounter,
    StartEncounter,
    VoidAction,
)
from skald_campaign.application.corrections import Corrected, Corrections
from skald_campaign.application.encounters import EncounterCommands
from skald_campaign.application.house_rules import HouseRules
from skald_campaign.application.queries import Queries
from skald_campaign.application.redaction import Redaction
from skald_campaign.application.ruleset_versions import RulesetVersions
from skald_campaign.application.store import Store
from skald_campaign.application.table_commands import (
    DeclareDefense,
    MoveInOrder,
    MoveTurn,
    NextTurn,
    PlaceMarker,
    RemoveMarker,
    RollInitiative,
    SetTurnOrder,
    TableCommands,
    WithdrawExchange,
)
from skald_campaign.application.webhooks import RegisterWebhook, WebhookCommands
from skald_campaign.domain.access import Access, Role
from skald_campaign.domain.bestiary import BestiaryEntry, CampaignBestiary, SavedEncounter
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.encounter.aggregate import Encounter
from skald_campaign.domain.errors import NotFound
from skald_campaign.domain.play.dice import Roller
from skald_campaign.domain.reasons import check_reason as check_reason
from skald_campaign.domain.records import JSONObject
from skald_campaign.domain.rulesets.base import JsonObject
from skald_campaign.domain.webhooks import CampaignWebhooks, Webhook

# How long a campaign read for an access check stands without asking the store again,
# unless this process saved it since (then at once): another process's key changes are
# seen within this.
ACCESS_RECHECK_SECONDS = 0.25
R = TypeVar("R")


class SkaldApplication(Store):
    # The store's tables and the environment's prefixes are named after this (the
    # library names every subclass after itself unless told): never change it.
    name = "Skald"

    def __init__(
        self,
        env: dict[str, str] | None = None,
        roller: Roller | None = None,
        write_attempts: int = 5,
        snapshot_interval: int = 100,
    ) -> None:
        super().__init__(env, roller, write_attempts, snapshot_interval)
        self._access_checked: dict[UUID, tuple[float, int]] = {}
        self.campaign_commands = CampaignCommands(self)
        self.encounter_commands = EncounterCommands(self)
        self.table_commands = TableCommands(self)
        self.amendments = Amendments(self)
        self.carrying = Carrying(self)
        self.corrections = Corrections(self, self.carrying)
        self.house_rules = HouseRules(self)
        self.queries = Queries(self)
        self.webhook_commands = WebhookCommands(self)
        self.bestiary = BestiaryCommands(self)
        self.ruleset_versions = RulesetVersions(self)

    # -- reads ---------------------------------------------------------------

    def history(self, aggregate_id: UUID) -> Sequence[JSONObject]:
        return self.queries.history(aggregate_id)

    def version_at(self, aggregate_id: UUID, at: datetime, what: str) -> int:
        return self.queries.version_at(aggregate_id, at, what)

    def access(self, campaign_id: UUID, key_id: str, key_hash: str) -> Access:
        """Every request asks this. It only reads, so it takes the cached campaign without
        a copy, and does not queue behind another request's fast-forward of it.

        Nor does it ask the store for newer events on every request (that query was most
        of a view's read time under load, bench/README.md): a campaign brought up to date
        less than ACCESS_RECHECK_SECONDS ago, and not saved by this process since, is
        taken as it is. A key issued or revoked here counts from the next request; one
        revoked through another process, within ACCESS_RECHECK_SECONDS."""
        known = self.access_if_fresh(campaign_id, key_id, key_hash)
        if known is not None:
            return known
        at, saves = time.monotonic(), self.saves_of(campaign_id)  # taken before the read
        try:
            campaign: object = self.repository.get(
                campaign_id, fastforward_skipping=True, deepcopy_from_cache=False
            )
        except AggregateNotFoundError:
            raise NotFound(f"no campaign with id {campaign_id}") from None
        if not isinstance(campaign, Campaign):
            raise NotFound(f"no campaign with id {campaign_id}")
        self._access_checked[campaign_id] = (at, saves)
        return campaign.access_for(key_id, key_hash)

    def access_if_fresh(self, campaign_id: UUID, key_id: str, key_hash: str) -> Access | None:
        """`access` when it needs no read from the store (an async caller can then answer
        on its event loop), else None."""
        seen = self._access_checked.get(campaign_id)
        if seen is None or self.repository.cache is None:
            return None
        at, saves = seen
        if time.monotonic() - at >= ACCESS_RECHECK_SECONDS or saves != self.saves_of(campaign_id):
            return None
        try:
            cached: object = self.repository.cache.get(campaign_id)
        except KeyError:
            return None
        return cached.access_for(key_id, key_hash) if isinstance(cached, Campaign) else None

    def redaction(
        self, campaign_id: UUID, role: Role, replayed: Encounter | None = None
    ) -> Redaction | None:
        return self.queries.redaction(campaign_id, role, replayed)

    # -- the campaign (application/campaigns.py) ----------------------------------------

    def create_campaign(self, command: CreateCampaign) -> Campaign:
        return self.campaign_commands.create_campaign(command)

    def enrol_character(self, command: EnrolCharacter) -> tuple[Campaign, str]:
        return self.campaign_commands.enrol_character(command)

    def issue_key(self, command: IssueKey) -> Campaign:
        return self.campaign_commands.issue_key(command)

    def revoke_key(self, command: RevokeKey) -> Campaign:
        return self.campaign_commands.revoke_key(command)

    def advance_days(self, command: AdvanceDays) -> Campaign:
        return self.campaign_commands.advance_days(command)

    def heal_through(self, command: HealThrough) -> int:
        return self.campaign_commands.heal_through(command)

    def mark_wound(self, command: MarkWound) -> Campaign:
        return self.campaign_commands.mark_wound(command)

    # -- the ruleset's version on record (application/ruleset_versions.py) ---------------

    def ruleset_standing(self, campaign_id: UUID) -> JSONObject:
        return self.ruleset_versions.ruleset_standing(campaign_id)

    def accept_ruleset_version(self, command: AcceptRulesetVersion) -> Campaign:
        return self.ruleset_versions.accept_ruleset_version(command)

    # -- a fight's course (application/encounters.py, table_commands.py) ----------------

    def start_encounter(self, command: StartEncounter) -> Encounter:
        return self.encounter_commands.start_encounter(command)

    def perform_action(self, command: PerformAction) -> tuple[Encounter, JSONObject]:
        return self.encounter_commands.perform_action(command)

    def perform_action_later(self, command: PerformAction) -> Future[tuple[Encounter, JSONObject]]:
        return self.encounter_commands.perform_action_later(command)

    def perform_action_answered(
        self, command: PerformAction, answer: Callable[[Encounter], R]
    ) -> Future[R]:
        return self.encounter_commands.perform_action_answered(command, answer)

    def next_round(self, command: NextRound) -> Encounter:
        return self.encounter_commands.next_round(command)

    def end_encounter(self, command: EndEncounter) -> Encounter:
        return self.encounter_commands.end_encounter(command)

    def set_turn_order(self, command: SetTurnOrder) -> Encounter:
        return self.table_commands.set_turn_order(command)

    def next_turn(self, command: NextTurn) -> Encounter:
        return self.table_commands.next_turn(command)

    def roll_initiative(self, command: RollInitiative) -> Encounter:
        return self.table_commands.roll_initiative(command)

    def move_turn(self, command: MoveTurn) -> Encounter:
        return self.table_commands.move_turn(command)

    def move_in_order(self, command: MoveInOrder) -> Encounter:
        return self.table_commands.move_in_order(command)

    def place_marker(self, command: PlaceMarker) -> Encounter:
        return self.table_commands.place_marker(command)

    def remove_marker(self, command: RemoveMarker) -> Encounter:
        return self.table_commands.remove_marker(command)

    def declare_defense(self, command: DeclareDefense) -> tuple[Encounter, JSONObject]:
        return self.table_commands.declare_defense(command)

    def withdraw_exchange(self, command: WithdrawExchange) -> Encounter:
        return self.table_commands.withdraw_exchange(command)

    def preview_action(
        self,
        campaign_id: UUID,
        encounter_id: UUID,
        kind: str,
        actor: str | None,
        params: JsonObject,
    ) -> JSONObject:
        return self.table_commands.preview_action(campaign_id, encounter_id, kind, actor, params)

    # -- the GM's changes (application/amending.py) -------------------------------------

    def amend_sheet(self, command: AmendSheet) -> Changed:
        return self.amendments.amend_sheet(command)

    def adjust_tracks(self, command: AdjustTracks) -> Changed:
        return self.amendments.adjust_tracks(command)

    def add_combatant(self, command: AddCombatant) -> Encounter:
        return self.amendments.add_combatant(command)

    def remove_combatant(self, command: RemoveCombatant) -> Encounter:
        return self.amendments.remove_combatant(command)

    def move_combatant(self, command: MoveCombatant) -> Encounter:
        return self.amendments.move_combatant(command)

    # -- corrections (application/corrections.py, carrying.py) --------------------------

    def correct(self, command: CorrectEncounter) -> Corrected:
        return self.corrections.correct(command)

    def void_action(self, command: VoidAction) -> Corrected:
        return self.corrections.void_action(command)

    def reroll_action(self, command: RerollAction) -> Corrected:
        return self.corrections.reroll_action(command)

    def rewind_encounter(self, command: RewindEncounter) -> Corrected:
        return self.corrections.rewind_encounter(command)

    def reroll_rolls(self, campaign_id: UUID, encounter_id: UUID, number: int) -> JSONObject:
        return self.corrections.reroll_rolls(campaign_id, encounter_id, number)

    def preview_house_rules(self, campaign_id: UUID, options: JSONObject) -> JSONObject:
        return self.house_rules.preview_house_rules(campaign_id, options)

    def preview_correction(self, command: CorrectEncounter) -> JSONObject:
        return self.carrying.preview_correction(command)

    def commit_correction(self, command: CorrectEncounter) -> tuple[Encounter, JSONObject]:
        return self.carrying.commit_correction(command)

    def preview_day_plan(self, command: CorrectDayPlan) -> JSONObject:
        return self.carrying.preview_day_plan(command)

    def commit_day_plan(self, command: CorrectDayPlan) -> tuple[Campaign, JSONObject]:
        return self.carrying.commit_day_plan(command)

    def last_correction_carried(
        self, campaign_id: UUID, version: int | None = None
    ) -> CarriedRecord:
        return self.carrying.last_correction_carried(campaign_id, version)

    # -- a campaign's webhooks (application/webhooks.py, domain/webhooks.py) -------------

    def campaign_webhooks(self, campaign_id: UUID) -> CampaignWebhooks | None:
        return self.webhook_commands.campaign_webhooks(campaign_id)

    def webhook(self, campaign_id: UUID, webhook_id: str) -> Webhook:
        return self.webhook_commands.webhook(campaign_id, webhook_id)

    def list_webhooks(self, campaign_id: UUID) -> list[Webhook]:
        return self.webhook_commands.list_webhooks(campaign_id)

    def register_webhook(self, command: RegisterWebhook, allow_private: bool) -> Webhook:
        return self.webhook_commands.register_webhook(command, allow_private)

    def set_webhook_enabled(
        self, campaign_id: UUID, webhook_id: str, enabled: bool, reason: str, by: str
    ) -> Webhook | None:
        return self.webhook_commands.set_webhook_enabled(
            campaign_id, webhook_id, enabled, reason, by
        )

    def delete_webhook(self, campaign_id: UUID, webhook_id: str, by: str) -> None:
        return self.webhook_commands.delete_webhook(campaign_id, webhook_id, by)

    # -- a campaign's bestiary (application/bestiary.py, domain/bestiary.py) -----------

    def bestiary_entries(self, campaign_id: UUID) -> list[BestiaryEntry]:
        return self.bestiary.bestiary_entries(campaign_id)

    def save_to_bestiary(self, command: SaveToBestiary) -> BestiaryEntry:
        return self.bestiary.save_to_bestiary(command)

    def remove_from_bestiary(self, campaign_id: UUID, entry_id: str, by: str) -> None:
        return self.bestiary.remove_from_bestiary(campaign_id, entry_id, by)

    def enrol_from_bestiary(self, command: EnrolFromBestiary) -> tuple[Campaign, list[str]]:
        return self.bestiary.enrol_from_bestiary(command)

    def campaign_bestiary(self, campaign_id: UUID) -> CampaignBestiary | None:
        return self.bestiary.campaign_bestiary(campaign_id)

    def saved_encounters(self, campaign_id: UUID) -> list[SavedEncounter]:
        return self.bestiary.saved_encounters(campaign_id)

    def save_encounter(self, command: SaveEncounter) -> SavedEncounter:
        return self.bestiary.save_encounter(command)

    def unsave_encounter(self, campaign_id: UUID, saved_id: str, by: str) -> None:
        return self.bestiary.unsave_encounter(campaign_id, saved_id, by)

    def set_up_saved_encounter(self, command: SetUpSavedEncounter) -> Encounter:
        return self.bestiary.set_up_saved_encounter(command)
