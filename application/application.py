"""The Skald application: one method per command, aggregates in, events out.

Persistence (SQLite, PostgreSQL, transcoder) is chosen by the composition root
through the eventsourcing environment; nothing here knows which.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from application.amending import AmendingCommands
from application.carrying import CarryingCommands
from application.commands import (
    AdvanceDays,
    CorrectEncounter,
    CreateCampaign,
    EndEncounter,
    EnrolCharacter,
    HealThrough,
    IssueKey,
    MarkWound,
    NextRound,
    PerformAction,
    RerollAction,
    RevokeKey,
    RewindEncounter,
    StartEncounter,
    VoidAction,
)
from application.history import event_record, version_at
from application.table_commands import TableCommands
from domain.access import Access
from domain.campaign import Campaign, check_name
from domain.dice import Roller, seeded_roller
from domain.encounter import Encounter
from domain.errors import InvalidInput, NotFound
from domain.reasons import check_reason as check_reason

T = TypeVar("T")
A = TypeVar("A", bound=Aggregate)
MAX_COMBATANTS = 50
# How long a campaign read for an access check stands without asking the store again,
# unless this process saved it since (then at once): another process's key changes are
# seen within this.
ACCESS_RECHECK_SECONDS = 0.25


class SkaldApplication(AmendingCommands, CarryingCommands, TableCommands):
    name = "Skald"
    snapshotting_intervals = {Campaign: 100, Encounter: 100}
    env = {"AGGREGATE_CACHE_MAXSIZE": "1000"}

    def __init__(
        self,
        env: dict[str, str] | None = None,
        roller: Roller | None = None,
        write_attempts: int = 5,
        snapshot_interval: int = 100,
    ) -> None:
        # Per instance, so a deployment can tune it; the class value switches snapshots on.
        self.snapshotting_intervals = {Campaign: snapshot_interval, Encounter: snapshot_interval}  # type: ignore[misc]
        super().__init__(env)
        self._access_checked: dict[UUID, tuple[float, int]] = {}
        self.roller = roller or seeded_roller()
        self.write_attempts = write_attempts

    # -- reads ---------------------------------------------------------------

    def campaign(self, campaign_id: UUID, version: int | None = None) -> Campaign:
        return self._get(Campaign, campaign_id, version, "campaign")

    def encounter(
        self, campaign_id: UUID, encounter_id: UUID, version: int | None = None
    ) -> Encounter:
        encounter = self._get(Encounter, encounter_id, version, "encounter")
        if encounter.campaign_id != campaign_id:
            raise NotFound(f"encounter {encounter_id} does not belong to campaign {campaign_id}")
        return encounter

    def _get(self, cls: type[A], aggregate_id: UUID, version: int | None, what: str) -> A:
        if version is not None and version < 1:
            raise InvalidInput(f"version must be 1 or more, not {version}")
        try:
            aggregate: object = (
                self.repository.get(aggregate_id, version=version)
                if version is not None
                else self._batched_get(aggregate_id, lambda: self.repository.get(aggregate_id))
            )
        except AggregateNotFoundError:
            raise NotFound(f"no {what} with id {aggregate_id}") from None
        if not isinstance(aggregate, cls):
            raise NotFound(f"no {what} with id {aggregate_id}")
        if version is not None and aggregate.version < version:
            raise NotFound(
                f"{what} {aggregate_id} has no version {version}; its latest is {aggregate.version}"
            )
        return aggregate

    def history(self, aggregate_id: UUID) -> list[dict[str, Any]]:
        """Every event of one aggregate, oldest first, as the audit trail shows it."""
        return [event_record(e) for e in self.events.get(aggregate_id)]

    def version_at(self, aggregate_id: UUID, at: datetime, what: str) -> int:
        if at.tzinfo is None:
            raise InvalidInput("give the instant with its time zone, e.g. 2026-11-30T18:00:00Z")
        return version_at(self.events.get(aggregate_id), at, what)

    # -- commands ------------------------------------------------------------

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
            self.save(campaign)
            return campaign

        return self._with_retries(attempt)

    def enrol_character(self, command: EnrolCharacter) -> tuple[Campaign, str]:
        def attempt() -> tuple[Campaign, str]:
            campaign = self.campaign(command.campaign_id)
            character_id = campaign.enrol(command.name, command.sheet, command.by)
            self.save(campaign)
            return campaign, character_id

        return self._with_retries(attempt)

    def start_encounter(self, command: StartEncounter) -> Encounter:
        if not command.combatants:
            raise InvalidInput("an encounter needs at least one combatant")
        if len(command.combatants) > MAX_COMBATANTS:
            raise InvalidInput(f"at most {MAX_COMBATANTS} combatants may take part")
        ids = [c.character_id for c in command.combatants]
        if len(set(ids)) != len(ids):
            raise InvalidInput("a character may appear only once among the combatants")
        for c in command.combatants:
            check_name(c.side, "side")
            if not 1 <= c.rank <= 20:
                raise InvalidInput(f"rank must be between 1 (the front) and 20, not {c.rank}")
        name = check_name(command.name, "encounter name")

        def attempt() -> Encounter:
            campaign = self.campaign(command.campaign_id)
            # Owed heals first, saved with the opening: the encounter starts from them.
            campaign.heal_before_joining(ids)
            combatants = {}
            for c in command.combatants:
                character = campaign.character(c.character_id)
                combatants[c.character_id] = {
                    "name": character["name"],
                    "side": c.side.strip(),
                    "rank": c.rank,
                    "sheet": character["sheet"],
                    "tracks": dict(character["tracks"]),
                    "state": dict(character["state"]),
                }
            encounter = Encounter(
                campaign.id,
                name,
                campaign.ruleset_id,
                campaign.options,
                combatants,
                command.by,
                campaign.day,
            )
            campaign.open_encounter(str(encounter.id), name, ids)
            self.save(encounter, campaign)
            return encounter

        return self._with_retries(attempt)

    def perform_action(self, command: PerformAction) -> tuple[Encounter, dict[str, Any]]:
        return self._with_retries(self._performing(command))

    def perform_action_later(
        self, command: PerformAction
    ) -> Future[tuple[Encounter, dict[str, Any]]]:
        """`perform_action` queued for the writer: an async route awaits its future."""
        return self._later(self._performing(command))

    def _performing(self, command: PerformAction) -> Callable[[], tuple[Encounter, dict[str, Any]]]:
        def attempt() -> tuple[Encounter, dict[str, Any]]:
            encounter = self.encounter(command.campaign_id, command.encounter_id)
            record = encounter.act(
                command.kind,
                command.actor,
                command.params,
                command.dice,
                self.roller,
                command.by,
                role=command.role,
                override_reason=command.override_reason,
            )
            self.save(encounter)
            return encounter, record

        return attempt

    def next_round(self, command: NextRound) -> Encounter:
        def attempt() -> Encounter:
            encounter = self.encounter(command.campaign_id, command.encounter_id)
            encounter.next_round(command.by)
            self.save(encounter)
            return encounter

        return self._with_retries(attempt)

    def end_encounter(self, command: EndEncounter) -> Encounter:
        def attempt() -> Encounter:
            encounter = self.encounter(command.campaign_id, command.encounter_id)
            campaign = self.campaign(command.campaign_id)
            encounter.end(command.by)
            campaign.carry_over(
                str(encounter.id),
                {cid: dict(c["tracks"]) for cid, c in encounter.combatants.items()},
                {cid: dict(c["state"]) for cid, c in encounter.combatants.items()},
                command.by,
                {cid: c["sheet"] for cid, c in encounter.combatants.items()},
            )
            self.save(encounter, campaign)
            return encounter

        return self._with_retries(attempt)

    # -- keys --------------------------------------------------------------------

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

    def issue_key(self, command: IssueKey) -> Campaign:
        def attempt() -> Campaign:
            campaign = self.campaign(command.campaign_id)
            campaign.issue_key(
                command.key_id,
                command.key_hash,
                command.role,
                list(command.characters),
                command.label,
                command.by,
            )
            self.save(campaign)
            return campaign

        return self._with_retries(attempt)

    def revoke_key(self, command: RevokeKey) -> Campaign:
        def attempt() -> Campaign:
            campaign = self.campaign(command.campaign_id)
            campaign.revoke_key(command.key_id, command.by)
            self.save(campaign)
            return campaign

        return self._with_retries(attempt)

    # -- the calendar ------------------------------------------------------------

    def advance_days(self, command: AdvanceDays) -> Campaign:
        def attempt() -> Campaign:
            campaign = self.campaign(command.campaign_id)
            campaign.advance_days(command.days, command.default, command.characters, command.by)
            self.save(campaign)
            return campaign

        return self._with_retries(attempt)

    def heal_through(self, command: HealThrough) -> int:
        """Idempotent: a day already healed for a character is never healed again."""

        def attempt() -> int:
            campaign = self.campaign(command.campaign_id)
            healed = campaign.heal_through(command.day)
            if healed:
                self.save(campaign)
            return healed

        return self._with_retries(attempt)

    def mark_wound(self, command: MarkWound) -> Campaign:
        reason = check_reason(command.reason)

        def attempt() -> Campaign:
            campaign = self.campaign(command.campaign_id)
            campaign.mark_wound(
                command.character_id, command.wound, command.present, reason, command.by
            )
            self.save(campaign)
            return campaign

        return self._with_retries(attempt)

    # -- corrections -----------------------------------------------------------

    def void_action(self, command: VoidAction) -> tuple[Encounter, list[dict[str, Any]]]:
        reason = check_reason(command.reason)
        if self.encounter(command.campaign_id, command.encounter_id).ended:
            c = command  # an ended encounter's correction is carried through the campaign
            return self.correct_ended(
                CorrectEncounter(c.campaign_id, c.encounter_id, "void", c.reason, c.number, by=c.by)
            )

        def attempt() -> tuple[Encounter, list[dict[str, Any]]]:
            encounter = self.encounter(command.campaign_id, command.encounter_id)
            report = encounter.void(command.number, reason, command.by, self.roller)
            self.save(encounter)
            return encounter, report

        return self._with_retries(attempt)

    def reroll_action(self, command: RerollAction) -> tuple[Encounter, list[dict[str, Any]]]:
        reason = check_reason(command.reason)
        if self.encounter(command.campaign_id, command.encounter_id).ended:
            c = command  # an ended encounter's correction is carried through the campaign
            return self.correct_ended(
                CorrectEncounter(
                    c.campaign_id, c.encounter_id, "reroll", c.reason, c.number, c.dice, by=c.by
                )
            )

        def attempt() -> tuple[Encounter, list[dict[str, Any]]]:
            encounter = self.encounter(command.campaign_id, command.encounter_id)
            report = encounter.reroll(command.number, command.dice, reason, command.by, self.roller)
            self.save(encounter)
            return encounter, report

        return self._with_retries(attempt)

    def rewind_encounter(self, command: RewindEncounter) -> tuple[Encounter, list[dict[str, Any]]]:
        reason = check_reason(command.reason)
        if self.encounter(command.campaign_id, command.encounter_id).ended:
            c = command  # an ended encounter's correction is carried through the campaign
            return self.correct_ended(
                CorrectEncounter(
                    c.campaign_id,
                    c.encounter_id,
                    "rewind",
                    c.reason,
                    to_version=c.to_version,
                    by=c.by,
                )
            )

        def attempt() -> tuple[Encounter, list[dict[str, Any]]]:
            encounter = self.encounter(command.campaign_id, command.encounter_id)
            past = self.encounter(command.campaign_id, command.encounter_id, command.to_version)
            report = encounter.rewind(past, reason, command.by)
            self.save(encounter)
            return encounter, report

        return self._with_retries(attempt)
